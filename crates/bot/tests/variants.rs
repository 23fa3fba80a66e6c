//! chessd-bot plays the variants past Racing Kings against a real server: Fairy-Stockfish
//! against itself at Crazyhouse (drops), Three-check, King of the Hill, Antichess and Horde,
//! Stockfish against itself at Chess960 from a shuffled start, and a clear refusal for Atomic,
//! which neither Debian engine offers.

mod support;

use std::time::Duration;

use chessd_bot::proto as pb;
use support::*;

/// Shallow and quick: these tests prove the bot speaks each variant, not that it plays well.
const QUICK: [&str; 4] = ["--depth", "6", "--untimed-movetime", "30ms"];

/// Both sides of a `variant` game played by `engine` to the end; returns the finished game and
/// White's log. Every move the engines chose went through the server's rules, so a finished
/// game is a game the bot carried in the variant's own notation from first move to last.
async fn engines_play(variant: pb::Variant, engine_path: &str, fen: &str) -> (pb::Game, String) {
    let server = Server::start().await;
    let mut client = server.client().await;
    let seats = create_from(&mut client, variant, fen, None).await;
    let mut args = vec!["--engine", engine_path];
    args.extend(QUICK);
    let white = Bot::spawn("white", &server.url(), &seats.id, &seats.white, &args, &[]);
    let black = Bot::spawn("black", &server.url(), &seats.id, &seats.black, &args, &[]);
    let (ws, wlogs) = white.finish(Duration::from_secs(180)).await;
    let (bs, _) = black.finish(Duration::from_secs(10)).await;
    let game = game_over(&mut client, &seats.id, Duration::from_secs(5)).await;
    assert!(ws.success() && bs.success(), "exits {ws} {bs}");
    let ready = wlogs
        .iter()
        .find(|l| message(l) == "engine ready")
        .expect("engine ready");
    let name = field(ready, "variant")
        .and_then(|v| v.as_str())
        .unwrap_or_default()
        .to_owned();
    assert_eq!(game.status, pb::GameStatus::Finished as i32, "{game:?}");
    eprintln!("{name}: {} plies, {}", game.ply, result(&game));
    (game, name)
}

/// Every move's UCI, for the assertions on what kinds of move were played.
fn ucis(game: &pb::Game) -> Vec<&str> {
    game.moves.iter().map(|m| m.uci.as_str()).collect()
}

/// Crazyhouse: engines that drop pieces get their `P@e4` moves through; drops are the point of
/// the variant, so a game without one would not show the bot handles them.
#[tokio::test]
async fn fairy_stockfish_plays_crazyhouse_with_drops() {
    let fairy = engine(FAIRY_STOCKFISH);
    let (game, variant) = engines_play(pb::Variant::Crazyhouse, fairy, "").await;
    assert_eq!(variant, "crazyhouse");
    assert!(
        ucis(&game).iter().any(|m| m.contains('@')),
        "no drop in {:?}",
        ucis(&game)
    );
}

/// Three-check, King of the Hill, Antichess and Horde: each plays to an end its rules allow,
/// and Three-check's end by checks shows in the check counters.
#[tokio::test]
async fn fairy_stockfish_plays_three_check_to_the_end() {
    let fairy = engine(FAIRY_STOCKFISH);
    let (game, variant) = engines_play(pb::Variant::ThreeCheck, fairy, "").await;
    assert_eq!(variant, "threecheck");
    let checks = game.checks_given.expect("checks_given");
    let r = result(&game);
    assert!(
        r.ends_with("THIRD_CHECK") && (checks.white == 3 || checks.black == 3)
            || r.ends_with("CHECKMATE")
            || r.contains("REPETITION")
            || r.contains("FIFTY")
            || r.contains("INSUFFICIENT"),
        "{r} {checks:?}"
    );
}

#[tokio::test]
async fn fairy_stockfish_plays_king_of_the_hill_to_the_end() {
    let fairy = engine(FAIRY_STOCKFISH);
    let (game, variant) = engines_play(pb::Variant::KingOfTheHill, fairy, "").await;
    assert_eq!(variant, "kingofthehill");
    let r = result(&game);
    assert!(
        [
            "KING_OF_THE_HILL",
            "CHECKMATE",
            "REPETITION",
            "FIFTY_MOVE_RULE",
            "STALEMATE"
        ]
        .iter()
        .any(|end| r.ends_with(end)),
        "{r}"
    );
}

#[tokio::test]
async fn fairy_stockfish_plays_antichess_to_the_end() {
    let fairy = engine(FAIRY_STOCKFISH);
    let (game, variant) = engines_play(pb::Variant::Antichess, fairy, "").await;
    assert_eq!(variant, "antichess");
    let r = result(&game);
    assert!(
        [
            "ALL_PIECES_LOST",
            "STALEMATE_WIN",
            "REPETITION",
            "FIFTY_MOVE_RULE",
            "INSUFFICIENT_MATERIAL"
        ]
        .iter()
        .any(|end| r.ends_with(end)),
        "{r}"
    );
}

#[tokio::test]
async fn fairy_stockfish_plays_horde_to_the_end() {
    let fairy = engine(FAIRY_STOCKFISH);
    let (game, variant) = engines_play(pb::Variant::Horde, fairy, "").await;
    assert_eq!(variant, "horde");
    let r = result(&game);
    assert!(
        [
            "HORDE_DESTROYED",
            "CHECKMATE",
            "STALEMATE",
            "REPETITION",
            "FIFTY_MOVE_RULE"
        ]
        .iter()
        .any(|end| r.ends_with(end)),
        "{r}"
    );
}

/// Chess960 from start 0 (bbqnnrkr): Stockfish with `UCI_Chess960` plays it to the end, and a
/// castling move, if either side castled, went as king takes rook.
#[tokio::test]
async fn stockfish_plays_chess960_from_a_shuffled_start() {
    let sf = engine(STOCKFISH);
    let start = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";
    let (game, variant) = engines_play(pb::Variant::Chess960, sf, start).await;
    assert_eq!(variant, "chess960");
    assert!(
        game.start_fen.starts_with("bbqnnrkr/"),
        "{}",
        game.start_fen
    );
    for m in &game.moves {
        if m.san.starts_with("O-O") {
            assert!(
                ["g1h1", "g1f1", "g8h8", "g8f8"].contains(&m.uci.as_str()),
                "castling as {}",
                m.uci
            );
        }
    }
}

/// Atomic: Fairy-Stockfish 11.1 has no atomic, and the bot says so before it plays.
#[tokio::test]
async fn an_engine_without_atomic_is_refused() {
    let fairy = engine(FAIRY_STOCKFISH);
    let server = Server::start().await;
    let mut client = server.client().await;
    let seats = create(&mut client, pb::Variant::Atomic, None).await;
    let bot = Bot::spawn(
        "white",
        &server.url(),
        &seats.id,
        &seats.white,
        &["--engine", fairy],
        &[],
    );
    let (status, logs) = bot.finish(Duration::from_secs(30)).await;
    assert_eq!(status.code(), Some(1), "{logs:?}");
    assert!(
        logs.iter().any(|l| field(l, "error")
            .and_then(|e| e.as_str())
            .is_some_and(|e| e.contains("cannot play atomic"))),
        "{logs:?}"
    );
    assert_eq!(get(&mut client, &seats.id).await.ply, 0);
}
