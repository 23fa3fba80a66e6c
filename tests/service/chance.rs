//! Games of chance over the API (docs/fairness.md): every game publishes the SHA-256 of its
//! secret seed from its creation and the seed once it is over; every draw (the die's roll,
//! the Behemoth's step) is recomputed here from the revealed seed by the documented
//! derivation, written again in this file with the `hmac` crate (not chessd's code), over the
//! rules engine's own list of what may be drawn; a draw the player tries to choose is refused;
//! a retry and a takeback meet the same draw. On every store.

use chessd::proto as pb;
use chessd_rules::wide::{BehemothStep, Face, Nature, WidePosition, WideVariant};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};
use tonic::Code;

use crate::common::authed;
use crate::common::takebacks::{propose, respond};
use crate::support::{
    Client, Seats, TestServer, assert_refused, by_key, create_with, export_pgn, get, play, start,
};

/// docs/fairness.md's draw: a uniform value in `0..n`.
fn draw(seed: &[u8], ply: u32, purpose: &str, index: u32, n: u64) -> u64 {
    let limit = u64::MAX - (u64::MAX % n + 1) % n;
    (0u64..)
        .find_map(|k| {
            let mut mac = Hmac::<Sha256>::new_from_slice(seed).unwrap();
            mac.update(format!("chessd draw v1 {purpose} {ply} {index} {k}").as_bytes());
            let out = mac.finalize().into_bytes();
            let x = u64::from_be_bytes(out[..8].try_into().unwrap());
            (x <= limit).then_some(x % n)
        })
        .unwrap()
}

/// What the seed draws among `options` at `ply`, as docs/fairness.md says each game draws.
fn expected(seed: &[u8], ply: u32, options: &[Nature]) -> Option<Nature> {
    match options.first()? {
        Nature::Roll(_) => (0..).find_map(|throw| {
            let face = Face::from_number(draw(seed, ply, "roll", throw, 6) as u8 + 1).unwrap();
            options
                .contains(&Nature::Roll(face))
                .then_some(Nature::Roll(face))
        }),
        Nature::Step(_) => {
            let direction =
                chessd_rules::wide::Direction::ALL[draw(seed, ply, "step", 0, 8) as usize];
            let distance = draw(seed, ply, "step", 1, 4) as u8 + 1;
            Some(Nature::Step(
                BehemothStep::new(direction, distance).unwrap(),
            ))
        }
    }
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub(crate) fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

/// Plays `plies` plies (fewer if the game ends), each side taking the legal move its ply picks.
pub(crate) async fn play_on(client: &mut Client, seats: &Seats, plies: usize) -> pb::Game {
    let mut game = get(client, &seats.id).await;
    for i in 0..plies {
        if game.outcome.is_some() || game.legal_moves.is_empty() {
            break;
        }
        let mv = game.legal_moves[(i * 7) % game.legal_moves.len()]
            .uci
            .clone();
        assert!(
            !mv.contains('~'),
            "a legal move offered with its draw: {mv}"
        );
        let side = if game.turn == pb::Color::White as i32 {
            'w'
        } else {
            'b'
        };
        let played = play(client, seats, side, &mv).await;
        game = played.game.expect("the game");
    }
    game
}

/// Checks every draw of the finished `game` of `variant` against its revealed seed; how many
/// it checked.
fn check_draws(variant: WideVariant, game: &pb::Game) -> usize {
    assert_eq!(game.seed.len(), 64, "the seed is revealed at the end");
    let seed = unhex(&game.seed);
    assert_eq!(hex(&Sha256::digest(&seed)), game.seed_sha256);
    check_draws_with(variant, game, &seed)
}

/// Checks every draw of the finished `game` of `variant` against `seed`, what its draws are
/// derived from (the revealed seed, or the key of the players' entropy); how many it checked.
pub(crate) fn check_draws_with(variant: WideVariant, game: &pb::Game, seed: &[u8]) -> usize {
    // The start's roll, then each move's draw, against what the rules allowed then.
    let mut pos = WidePosition::from_fen(variant, &game.start_fen).unwrap();
    let mut start = WidePosition::from_fen(variant, &game.start_fen).unwrap();
    if variant != WideVariant::Behemoth {
        let rolled = start.roll().map(Nature::Roll);
        let fields: Vec<&str> = game.start_fen.split(' ').collect();
        let mut unrolled = fields.clone();
        unrolled[6] = "-";
        start = WidePosition::from_fen(variant, &unrolled.join(" ")).unwrap();
        assert_eq!(
            rolled,
            expected(seed, 0, &start.nature_options()),
            "the start's roll"
        );
        assert!(rolled.is_some());
    }
    // The start's roll, in the dice games (Behemoth Chess draws nothing before a move).
    let mut draws = usize::from(variant != WideVariant::Behemoth);
    for (i, m) in game.moves.iter().enumerate() {
        let (body, nature) = match m.uci.split_once('~') {
            Some((body, n)) => (body, Some(format!("~{n}").parse::<Nature>().unwrap())),
            None => (m.uci.as_str(), None),
        };
        let bare = pos.parse_player_move(body).unwrap();
        let want = expected(seed, i as u32 + 1, &pos.natures_after(bare));
        assert_eq!(nature, want, "ply {}: {}", i + 1, m.uci);
        draws += usize::from(nature.is_some());
        pos.play_with_nature(bare, nature).unwrap();
    }
    draws
}

/// Games of `key` played to 40 plies (or their end) and resigned, until at least 30 draws
/// were checked against their seeds (a game may end at once: the Behemoth can take a king on
/// its first step).
async fn games_of(server: &TestServer, key: &str, variant: WideVariant) {
    let mut client = server.client().await;
    let mut checked = 0;
    for _ in 0..10 {
        let (created, seats) = create_with(&mut client, by_key(key)).await;
        assert_eq!(created.seed_sha256.len(), 64, "{key}");
        assert!(created.seed.is_empty(), "{key}: the seed shown during play");
        let game = play_on(&mut client, &seats, 40).await;
        assert_eq!(
            game.seed_sha256, created.seed_sha256,
            "{key}: the commitment changed"
        );
        if game.outcome.is_none() {
            assert!(game.seed.is_empty(), "{key}: the seed shown during play");
            let side = if game.turn == pb::Color::White as i32 {
                'w'
            } else {
                'b'
            };
            let request = pb::ResignRequest {
                game_id: seats.id.clone(),
            };
            client
                .resign(authed(request, seats.token(side)))
                .await
                .unwrap();
        }
        checked += check_draws(variant, &get(&mut client, &seats.id).await);
        if checked >= 30 {
            return;
        }
    }
    panic!("{key}: only {checked} draws in ten games");
}

#[tokio::test]
async fn dice_rolls_come_from_the_committed_seed() {
    let server = start().await;
    let mut client = server.client().await;
    let (created, _) = create_with(&mut client, by_key("dice")).await;
    let roll = created.fen.split(' ').nth(6).unwrap_or("-");
    assert!(("1"..="6").contains(&roll), "the first roll {roll}");
    games_of(&server, "dice", WideVariant::Dice).await;
    games_of(&server, "dice10x10", WideVariant::Dice10x10).await;
}

#[tokio::test]
async fn behemoth_steps_come_from_the_committed_seed() {
    let server = start().await;
    games_of(&server, "behemoth", WideVariant::Behemoth).await;
}

/// A player cannot pick the draw; a retried request is answered with the draw first made; a
/// move taken back and played again meets the same draw.
#[tokio::test]
async fn draws_are_fixed() {
    let server = start().await;
    let mut client = server.client().await;
    let request = pb::CreateGameRequest {
        takebacks: pb::TakebackPolicy::OnRequest as i32,
        ..by_key("behemoth")
    };
    let (_, seats) = create_with(&mut client, request).await;
    let refused = client
        .submit_move(authed(
            pb::SubmitMoveRequest {
                game_id: seats.id.clone(),
                r#move: "e2e4~N1".into(),
                ..Default::default()
            },
            seats.token('w'),
        ))
        .await;
    let status = assert_refused(refused, Code::InvalidArgument, "MALFORMED_MOVE");
    assert!(
        status.message().contains("the server's to make"),
        "{}",
        status.message()
    );
    let submit = |mv: &str| pb::SubmitMoveRequest {
        game_id: seats.id.clone(),
        r#move: mv.into(),
        request_id: "first-move".into(),
        ..Default::default()
    };
    let first = client
        .submit_move(authed(submit("e2e4"), seats.token('w')))
        .await
        .unwrap()
        .into_inner();
    let again = client
        .submit_move(authed(submit("e2e4"), seats.token('w')))
        .await
        .unwrap()
        .into_inner();
    let played = first.r#move.clone().expect("the move").uci;
    assert!(played.starts_with("e2e4~"), "{played}");
    assert_eq!(
        again.r#move.expect("the move").uci,
        played,
        "a retry drew again"
    );
    propose(&mut client, &seats.id, seats.token('w'))
        .await
        .unwrap();
    respond(&mut client, &seats.id, seats.token('b'), true)
        .await
        .unwrap();
    let replayed = play(&mut client, &seats, 'w', "e4").await;
    assert_eq!(
        replayed.r#move.expect("the move").uci,
        played,
        "a takeback drew again"
    );
    // The record's PGN writes each move with its draw, in the game's own notation.
    let pgn = export_pgn(&mut client, &seats.id).await;
    let step = played.split_once('~').expect("a step").1;
    assert!(pgn.contains(&format!("1. e4~{step}")), "{pgn}");
}

/// A retried CreateGame of a game of chance is answered with the game first made, its seed
/// and first roll included, not refused as another request for having drawn another roll.
#[tokio::test]
async fn a_retried_creation_is_the_same_game() {
    let server = start().await;
    let mut client = server.client().await;
    let request = pb::CreateGameRequest {
        request_id: "dice-once".into(),
        ..by_key("dice")
    };
    let (first, _) = create_with(&mut client, request.clone()).await;
    let (again, _) = create_with(&mut client, request).await;
    assert_eq!(
        (&again.game_id, &again.fen, &again.seed_sha256),
        (&first.game_id, &first.fen, &first.seed_sha256)
    );
}

/// A start FEN may not name a draw, nor wait for one the server would then make outside a
/// move: the die's face and a Behemoth step awaited are refused, by field.
#[tokio::test]
async fn a_start_names_no_draw() {
    let server = start().await;
    let mut client = server.client().await;
    for (key, fen) in [
        (
            "dice",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2",
        ),
        (
            "behemoth",
            "rnbqkbnr/pppppppp/8/8/3*4/4P3/PPPP1PPP/RNBQKBNR b KQkq - 0 1 ~",
        ),
    ] {
        let refused = client
            .create_game(pb::CreateGameRequest {
                start_fen: fen.into(),
                ..by_key(key)
            })
            .await;
        let status = assert_refused(refused, Code::InvalidArgument, "INVALID_FIELD");
        assert!(
            status.message().contains("the server's"),
            "{key}: {}",
            status.message()
        );
    }
    // Without the draw, each is a start like any other (the first roll then drawn).
    let (game, _) = create_with(
        &mut client,
        pb::CreateGameRequest {
            start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -".into(),
            ..by_key("dice")
        },
    )
    .await;
    assert!(
        game.fen
            .split(' ')
            .nth(6)
            .is_some_and(|r| ("1"..="6").contains(&r)),
        "{}",
        game.fen
    );
}

/// A game of random setups created without a start number or FEN (Chess960, Capablanca
/// Random, Corner, Fortress, Massacre) starts from a setup its committed seed drew: the array
/// numbered by the setup draw, or the shuffle dealt by the setup draws, recomputed here from
/// the revealed seed. A start the request names draws nothing and commits to no seed.
#[tokio::test]
async fn a_drawn_setup_comes_from_the_committed_seed() {
    use chessd_rules::any::{AnyPosition, AnyVariant};
    let server = start().await;
    let mut client = server.client().await;
    for key in ["chess960", "caparandom", "corner", "fortress", "massacre"] {
        let variant = AnyVariant::by_key(key).unwrap();
        let mut starts = std::collections::HashSet::new();
        for _ in 0..3 {
            let (created, seats) = create_with(&mut client, by_key(key)).await;
            assert_eq!(created.seed_sha256.len(), 64, "{key}: no commitment");
            assert!(created.seed.is_empty(), "{key}: the seed shown during play");
            let resign = pb::ResignRequest {
                game_id: seats.id.clone(),
            };
            let over = client
                .resign(authed(resign, &seats.white))
                .await
                .expect("resign")
                .into_inner()
                .game
                .unwrap();
            assert_eq!(over.seed_sha256, created.seed_sha256);
            let seed = unhex(&over.seed);
            assert_eq!(hex(&Sha256::digest(&seed)), created.seed_sha256, "{key}");
            let dealt = match AnyPosition::numbered_starts(variant) {
                Some(count) => {
                    let number = draw(&seed, 0, "setup", 0, u64::from(count)) as u32;
                    AnyPosition::numbered(variant, number).unwrap()
                }
                None => {
                    let mut index = 0;
                    AnyPosition::shuffled(variant, |n| {
                        let d = draw(&seed, 0, "setup", index, n as u64) as usize;
                        index += 1;
                        d
                    })
                    .unwrap()
                }
            };
            assert_eq!(
                created.start_fen,
                dealt.fen(),
                "{key}: the start the seed drew"
            );
            starts.insert(created.start_fen);
        }
        assert!(starts.len() > 1, "{key}: three seeds drew one start");
    }
    // Named by number: no draw, no seed.
    let (named, _) = create_with(
        &mut client,
        pb::CreateGameRequest {
            chess960_start: Some(518),
            ..by_key("chess960")
        },
    )
    .await;
    assert!(named.seed_sha256.is_empty());
    // A retry with the request id is the game the first request created, start and seed.
    let request = pb::CreateGameRequest {
        request_id: "drawn-setup-retry".into(),
        ..by_key("chess960")
    };
    let (first, _) = create_with(&mut client, request.clone()).await;
    let (again, _) = create_with(&mut client, request).await;
    assert_eq!(
        (first.game_id, first.start_fen, first.seed_sha256),
        (again.game_id, again.start_fen, again.seed_sha256)
    );
}
