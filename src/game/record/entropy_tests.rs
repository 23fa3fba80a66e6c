//! The players' entropy at the game record: the round's refusals and retries, the key every
//! draw then uses (checked against a second implementation of `docs/fairness.md`'s text,
//! written here), and the same key rebuilt from the stored rows.

use std::time::Duration;

use chessd_rules::any::{AnyMove, AnyPosition, AnyVariant};
use chessd_rules::wide::{BehemothStep, Direction, Face, Nature, WideVariant};
use chessd_rules::{ByColor, Color, DrawRule};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::api::decode;
use crate::game::chance::{self, Seed};
use crate::game::clock::TimeControl;
use crate::game::error::{GameError, InputError, PlayError};
use crate::game::record::Stored;
use crate::game::{
    Action, EventKind, GameHeader, GameId, GameRecord, Labels, NewGame, Now, Players, Seats,
    StartRules, TakebackPolicy,
};

fn hmac(key: &[u8], text: &str) -> [u8; 32] {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).unwrap();
    mac.update(text.as_bytes());
    mac.finalize().into_bytes().into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The key as `docs/fairness.md` words it.
fn documented_key(seed: &[u8; 32], white: &[u8; 32], black: &[u8; 32]) -> [u8; 32] {
    hmac(
        seed,
        &format!("chessd entropy v1 {} {}", hex(white), hex(black)),
    )
}

/// A draw as `docs/fairness.md` words it, from `key`.
fn documented_draw(key: &[u8; 32], ply: u32, purpose: &str, index: u32, n: u64) -> u64 {
    (0u64..)
        .find_map(|k| {
            let out = hmac(key, &format!("chessd draw v1 {purpose} {ply} {index} {k}"));
            let x = u64::from_be_bytes(out[..8].try_into().unwrap());
            let limit = (1u128 << 64) - (1u128 << 64) % u128::from(n);
            (u128::from(x) < limit).then_some(x % n)
        })
        .unwrap()
}

/// The draw due among `options` at `ply`, from `key`, as documented.
fn documented_nature(key: &[u8; 32], ply: u32, options: &[Nature]) -> Option<Nature> {
    match options.first()? {
        Nature::Roll(_) => (0..).find_map(|throw| {
            let n = documented_draw(key, ply, "roll", throw, 6) as u8 + 1;
            let face = Nature::Roll(Face::from_number(n).unwrap());
            options.contains(&face).then_some(face)
        }),
        Nature::Step(_) => {
            let d = Direction::ALL[documented_draw(key, ply, "step", 0, 8) as usize];
            let n = documented_draw(key, ply, "step", 1, 4) as u8 + 1;
            BehemothStep::new(d, n).map(Nature::Step)
        }
    }
}

fn new_game(variant: WideVariant, time_control: Option<TimeControl>) -> NewGame {
    NewGame {
        start: AnyPosition::new(AnyVariant::Wide(variant)),
        draw_start: false,
        time_control,
        start_rules: StartRules::default(),
        players: Players::default(),
        draw_rule: DrawRule::Claim,
        request_id: None,
        labels: Labels::default(),
        takebacks: TakebackPolicy::Off,
        seat_tokens: ByColor::new(false, false),
        claim_after: Duration::from_secs(60),
        public_delay: 0,
        player_entropy: true,
    }
}

/// A game of `variant` with the players' entropy and `seed`, as the store creates one.
fn record(variant: WideVariant, seed: &Seed, tc: Option<TimeControl>, now: Now) -> GameRecord {
    let new = new_game(variant, tc);
    let seats = Seats::new(ByColor::default())
        .with_seed(Some(seed.clone()))
        .with_player_entropy(true);
    GameRecord::new(&new, seats, now)
}

/// A header for views of a test game.
fn header() -> GameHeader {
    let now = std::time::SystemTime::now();
    GameHeader::of(GameId::new(now, 0), &new_game(WideVariant::Dice, None), now)
}

fn commit(secret: &[u8; 32]) -> Action {
    Action::Entropy {
        reveal: false,
        value: Sha256::digest(secret).into(),
    }
}

fn reveal(secret: &[u8; 32]) -> Action {
    Action::Entropy {
        reveal: true,
        value: *secret,
    }
}

fn mv(text: &str) -> Action {
    Action::Move {
        text: decode::move_text(text).unwrap(),
        expected_ply: None,
        request_id: None,
        offer_draw: false,
    }
}

/// Plays the `pick`th legal move of the side to move; false once none is left.
fn play_some(rec: &mut GameRecord, pick: usize, now: Now) -> bool {
    let p = *rec.game().position().wide().unwrap();
    let moves = p.legal_moves();
    if moves.is_empty() || rec.is_over() {
        return false;
    }
    let m = moves[pick % moves.len()];
    rec.apply(
        p.turn(),
        &mv(&m.to_uci(&p).to_string()),
        None,
        now,
        &mut Vec::new(),
    )
    .unwrap();
    true
}

/// The round: a move is refused until both secrets are in, a secret before both commitments
/// and a wrong secret are refused, the same value again is a retry with no event, and the
/// second secret rolls Dice Chess's first die with the key. No clock runs until then.
#[test]
fn the_round_then_the_first_roll_with_the_key() {
    let now = Now::read();
    let seed = Seed::from_bytes([5; 32]);
    let tc = TimeControl::even(Duration::from_secs(60), Duration::ZERO);
    let mut rec = record(WideVariant::Dice, &seed, Some(tc), now);
    let (white, black) = ([0x11; 32], [0x22; 32]);
    let pending = |e: GameError| matches!(e, GameError::Play(PlayError::EntropyPending { .. }));
    // The die is not cast before the round is done.
    assert_eq!(rec.game().position().wide().unwrap().roll(), None);
    let refused = rec.apply(Color::White, &mv("e2e4"), None, now, &mut Vec::new());
    assert!(pending(refused.unwrap_err()));
    let mut out = Vec::new();
    rec.apply(Color::White, &commit(&white), None, now, &mut out)
        .unwrap();
    assert_eq!(out.len(), 1);
    let early = rec.apply(Color::White, &reveal(&white), None, now, &mut out);
    assert!(matches!(
        early,
        Err(GameError::Play(PlayError::EntropyOutOfOrder {
            committed: false
        }))
    ));
    let other = rec.apply(Color::White, &commit(&black), None, now, &mut out);
    assert!(matches!(
        other,
        Err(GameError::Play(PlayError::EntropyOutOfOrder {
            committed: true
        }))
    ));
    rec.apply(Color::White, &commit(&white), None, now, &mut out)
        .unwrap();
    assert_eq!(out.len(), 1, "a retried commitment logs nothing");
    rec.apply(Color::Black, &commit(&black), None, now, &mut out)
        .unwrap();
    let wrong = rec.apply(Color::Black, &reveal(&white), None, now, &mut out);
    assert!(matches!(
        wrong,
        Err(GameError::Input(InputError::InvalidEntropy { .. }))
    ));
    rec.apply(Color::Black, &reveal(&black), None, now, &mut out)
        .unwrap();
    assert!(pending(
        rec.apply(Color::White, &mv("e2e4"), None, now, &mut out)
            .unwrap_err()
    ));
    let view = rec.view(&header(), now);
    assert_eq!(view.clocks.and_then(|c| c.running), None, "no clock runs");
    let later = Now {
        mono: now.mono + Duration::from_secs(5),
        wall: now.wall + Duration::from_secs(5),
    };
    rec.apply(Color::White, &reveal(&white), None, later, &mut out)
        .unwrap();
    assert_eq!(out.len(), 4);
    let EventKind::EntropySubmitted {
        secrets: Some(secrets),
        start: Some(start),
        ..
    } = &out[3].kind
    else {
        panic!("the second secret's event: {:?}", out[3]);
    };
    assert_eq!(*secrets, ByColor::new(white, black));
    let key = documented_key(seed.as_bytes(), &white, &black);
    let p = start.wide().unwrap();
    let want = documented_nature(&key, 0, &p.unrolled().nature_options());
    assert_eq!(p.roll().map(Nature::Roll), want);
    // The clock starts with the second secret: White's, with all its time.
    let view = rec.view(&header(), later);
    let clocks = view.clocks.unwrap();
    assert_eq!(clocks.running, Some(Color::White));
    assert_eq!(clocks.remaining[Color::White], Duration::from_secs(60));
    // The round is over: another value is refused, the same one is a retry.
    let over = rec.apply(Color::White, &commit(&[9; 32]), None, later, &mut out);
    assert!(matches!(
        over,
        Err(GameError::Play(PlayError::NoEntropyPhase { done: true }))
    ));
    rec.apply(Color::White, &reveal(&white), None, later, &mut out)
        .unwrap();
    assert_eq!(out.len(), 4);
}

/// A game without the round refuses a commitment.
#[test]
fn a_game_without_the_round_refuses_entropy() {
    let now = Now::read();
    let new = NewGame {
        player_entropy: false,
        ..new_game(WideVariant::Dice, None)
    };
    let seats = Seats::new(ByColor::default()).with_seed(Some(Seed::from_bytes([1; 32])));
    let mut rec = GameRecord::new(&new, seats, now);
    let e = rec.apply(Color::White, &commit(&[1; 32]), None, now, &mut Vec::new());
    assert!(matches!(
        e,
        Err(GameError::Play(PlayError::NoEntropyPhase { done: false }))
    ));
}

/// Games of Dice Chess and Behemoth with the players' entropy, each its own seed and
/// secrets: every draw is the documented one from the key, never from the seed alone; and the
/// record rebuilt from its stored rows holds the same key (its next draws are the same).
#[test]
fn every_draw_comes_from_the_key_and_survives_a_restore() {
    let now = Now::read();
    let mut draws = 0;
    for g in 0..100u32 {
        let bytes: [u8; 32] = Sha256::digest(g.to_be_bytes()).into();
        let seed = Seed::from_bytes(bytes);
        let white: [u8; 32] = Sha256::digest(format!("w{g}")).into();
        let black: [u8; 32] = Sha256::digest(format!("b{g}")).into();
        let variant = [
            WideVariant::Dice,
            WideVariant::Behemoth,
            WideVariant::Dice10x10,
        ][g as usize % 3];
        let mut rec = record(variant, &seed, None, now);
        let mut out = Vec::new();
        rec.apply(Color::Black, &commit(&black), None, now, &mut out)
            .unwrap();
        rec.apply(Color::White, &commit(&white), None, now, &mut out)
            .unwrap();
        rec.apply(Color::White, &reveal(&white), None, now, &mut out)
            .unwrap();
        rec.apply(Color::Black, &reveal(&black), None, now, &mut out)
            .unwrap();
        let key = documented_key(&bytes, &white, &black);
        for ply in 1..=12u32 {
            let before = *rec.game().position().wide().unwrap();
            if !play_some(&mut rec, (g as usize) * 13 + ply as usize * 5, now) {
                break;
            }
            let Some(AnyMove::Wide(_, played)) = rec.game().move_at(ply as usize - 1) else {
                panic!("the move just played");
            };
            let m = played.with_nature(None);
            let want = documented_nature(&key, ply, &before.natures_after(m));
            assert_eq!(played.nature(), want, "game {g} ply {ply}");
            draws += usize::from(want.is_some());
        }
        // The record rebuilt from its rows draws what the live one draws next.
        let rows = rec.rows_after(0, now, None);
        let stored = Stored {
            start: chance::as_requested(&rec.game().start(), false),
            draw_rule: DrawRule::Claim,
            time_control: None,
            start_rules: StartRules::default(),
            takebacks: TakebackPolicy::Off,
            seats: rec.seats().clone(),
            created_at: rec.timing.created_at(),
            events: rows,
            charged: Duration::ZERO,
            claim_after: Duration::from_secs(60),
        };
        let mut back = GameRecord::restore(stored, |r| r.len() as u64, now).unwrap();
        assert!(back.game().moves().eq(rec.game().moves()), "game {g}");
        assert_eq!(back.game().start(), rec.game().start());
        for pick in 0..4 {
            let a = play_some(&mut rec, pick, now);
            let b = play_some(&mut back, pick, now);
            assert_eq!(a, b);
        }
        assert!(back.game().moves().eq(rec.game().moves()), "game {g}");
    }
    assert!(draws > 500, "{draws} draws");
}
