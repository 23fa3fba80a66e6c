//! The fairness test of the games of chance at the game record, where a thousand games take
//! seconds: each game, with its own seed, is played as the server plays it, and every draw is
//! checked against a second implementation of `docs/fairness.md`'s derivation written here,
//! not `game::chance`'s.

use chessd_rules::any::{AnyMove, AnyPosition, AnyVariant};
use chessd_rules::wide::{BehemothStep, Direction, Face, Nature, WideVariant};
use chessd_rules::{ByColor, DrawRule};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::api::decode;
use crate::game::chance::{self, Seed};
use crate::game::{Action, GameRecord, Labels, NewGame, Now, Players, Seats, StartRules};

/// The derivation again, written apart from [`Seed::draw`] (docs/fairness.md's text).
fn documented_draw(seed: &[u8; 32], ply: u32, purpose: &str, index: u32, n: u64) -> u64 {
    (0u64..)
        .find_map(|k| {
            let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(seed).unwrap();
            mac.update(format!("chessd draw v1 {purpose} {ply} {index} {k}").as_bytes());
            let x = u64::from_be_bytes(mac.finalize().into_bytes()[..8].try_into().unwrap());
            let limit = (1u128 << 64) - (1u128 << 64) % u128::from(n);
            (u128::from(x) < limit).then_some(x % n)
        })
        .unwrap()
}

/// A thousand games of Dice Chess and Behemoth Chess played through the game record as
/// the server plays them, each with its own seed: every draw is the documented one for
/// its ply among what the rules allowed, and every face rolled has a legal move.
#[test]
fn a_thousand_games_draw_what_their_seeds_say() {
    let now = Now::read();
    let mut draws = 0;
    for g in 0..1000u32 {
        let bytes: [u8; 32] = Sha256::digest(g.to_be_bytes()).into();
        let seed = Seed::from_bytes(bytes);
        let variant = if g % 2 == 0 {
            WideVariant::Dice
        } else {
            WideVariant::Behemoth
        };
        let new = NewGame {
            start: AnyPosition::new(AnyVariant::Wide(variant)),
            draw_start: false,
            time_control: None,
            start_rules: StartRules::default(),
            players: Players::default(),
            draw_rule: DrawRule::Claim,
            request_id: None,
            labels: Labels::default(),
            takebacks: crate::game::TakebackPolicy::Off,
            seat_tokens: ByColor::new(false, false),
            claim_after: std::time::Duration::from_secs(60),
            public_delay: 0,
            player_entropy: false,
        };
        let new = NewGame {
            start: chance::settled(&new.start, &seed),
            ..new
        };
        let seats = Seats::new(ByColor::default()).with_seed(Some(seed.clone()));
        let mut rec = GameRecord::new(&new, seats, now);
        let mut out = Vec::new();
        for ply in 1..=16u32 {
            let before = rec.game().position();
            let Some(p) = before.wide().copied() else {
                panic!("a wide game");
            };
            if variant == WideVariant::Dice {
                // The face shown has a move (never a type that cannot move).
                assert!(
                    p.roll().is_some() && !p.legal_moves().is_empty(),
                    "{}",
                    p.fen()
                );
            }
            let moves = p.legal_moves();
            let Some(&m) = moves.get((g as usize * 31 + ply as usize * 7) % moves.len().max(1))
            else {
                break;
            };
            let text = decode::move_text(&m.to_uci(&p).to_string()).unwrap();
            let action = Action::Move {
                text,
                expected_ply: None,
                request_id: None,
                offer_draw: false,
            };
            rec.apply(p.turn(), &action, None, now, &mut out).unwrap();
            let Some(AnyMove::Wide(_, played)) = rec.game().move_at(ply as usize - 1) else {
                panic!("the move just played");
            };
            let options = p.natures_after(m);
            let want = match options.first() {
                None => None,
                Some(Nature::Roll(_)) => (0..).find_map(|throw| {
                    let n = documented_draw(&bytes, ply, "roll", throw, 6) as u8 + 1;
                    let face = Nature::Roll(Face::from_number(n).unwrap());
                    options.contains(&face).then_some(face)
                }),
                Some(Nature::Step(_)) => {
                    let d = Direction::ALL[documented_draw(&bytes, ply, "step", 0, 8) as usize];
                    let n = documented_draw(&bytes, ply, "step", 1, 4) as u8 + 1;
                    BehemothStep::new(d, n).map(Nature::Step)
                }
            };
            assert_eq!(played.nature(), want, "game {g} ply {ply}");
            draws += usize::from(want.is_some());
            if rec.is_over() {
                break;
            }
        }
    }
    assert!(draws > 10_000, "{draws} draws");
}
