//! chessd-bot plays real games against a real server: Stockfish against a random mover,
//! Fairy-Stockfish against itself at Racing Kings, a clear refusal for an engine that lacks
//! the variant, an engine killed mid-game, and streams and answers lost on the way.

mod support;

use std::time::Duration;

use chessd_bot::proto as pb;
use support::*;

/// Fast and strong enough to beat a random mover: a shallow search, 50 ms a move.
const QUICK: [&str; 4] = ["--depth", "8", "--untimed-movetime", "50ms"];

/// A bot for Black on a one-ply Stockfish: weaker than White's, stronger than random.
fn weak_black(server: &Server, seats: &Seats, sf: &str) -> Bot {
    let weak = ["--engine", sf, "--depth", "1", "--untimed-movetime", "20ms"];
    Bot::spawn("black", &server.url(), &seats.id, &seats.black, &weak, &[])
}

/// Stockfish, as White, beats a side that plays random legal moves, and the bot reports the
/// game over with its side and its move count.
#[tokio::test]
async fn stockfish_beats_a_random_mover() {
    let sf = engine(STOCKFISH);
    let mut game = VsRandom::start().await;
    let mut args = vec!["--engine", sf];
    args.extend(QUICK);
    let bot = game.white(&args, &[]);
    let (status, logs, game) = game.end(bot).await;
    won_by_mate(status, &game);
    let over = game_over_line(&logs);
    assert_eq!(field(&over, "side").and_then(|v| v.as_str()), Some("white"));
    let white_moves = game.ply.div_ceil(2);
    assert_eq!(
        field(&over, "moves_played").and_then(|v| v.as_u64()),
        Some(u64::from(white_moves))
    );
}

/// Fairy-Stockfish plays both sides of a Racing Kings game to its end; one bot gets it from a
/// `--config` file whose main engine is Stockfish, by the `[variants.racingkings]` section.
#[tokio::test]
async fn fairy_stockfish_plays_racing_kings_to_the_end() {
    let sf = engine(STOCKFISH);
    let fairy = engine(FAIRY_STOCKFISH);
    let server = Server::start().await;
    let mut client = server.client().await;
    let seats = create(&mut client, pb::Variant::RacingKings, None).await;
    let dir = std::env::temp_dir().join(format!("chessd-bot-rk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("bot.toml");
    std::fs::write(
        &config,
        format!(
            "engine = \"{sf}\"\ndepth = 6\nuntimed-movetime = \"50ms\"\n\
             [variants.racingkings]\nengine = \"{fairy}\"\n"
        ),
    )
    .unwrap();
    let config = config.to_str().unwrap();
    let white = Bot::spawn(
        "white",
        &server.url(),
        &seats.id,
        &seats.white,
        &["--config", config],
        &[],
    );
    let mut args = vec!["--engine", fairy];
    args.extend(QUICK);
    let black = Bot::spawn("black", &server.url(), &seats.id, &seats.black, &args, &[]);
    let (ws, wlogs) = white.finish(Duration::from_secs(90)).await;
    let (bs, _) = black.finish(Duration::from_secs(10)).await;
    let game = game_over(&mut client, &seats.id, Duration::from_secs(5)).await;
    assert!(ws.success() && bs.success(), "exits {ws} {bs}");
    let ready = wlogs
        .iter()
        .find(|l| message(l) == "engine ready")
        .expect("engine ready");
    assert!(
        field(ready, "engine")
            .and_then(|e| e.as_str())
            .is_some_and(|e| e.contains("Fairy")),
        "{ready}"
    );
    assert_eq!(
        field(ready, "variant").and_then(|v| v.as_str()),
        Some("racingkings")
    );
    let r = result(&game);
    assert!(
        r.ends_with("TERMINATION_RACE") || r.contains("REPETITION") || r.contains("FIFTY"),
        "{r}, FEN {}",
        game.fen
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// An engine without the game's variant is refused before the bot plays: exit code 1 and a
/// message that says which engine cannot play what and why. The game is left untouched.
#[tokio::test]
async fn an_engine_without_the_variant_is_refused() {
    let sf = engine(STOCKFISH);
    let server = Server::start().await;
    let mut client = server.client().await;
    let seats = create(&mut client, pb::Variant::RacingKings, None).await;
    let bot = Bot::spawn(
        "white",
        &server.url(),
        &seats.id,
        &seats.white,
        &["--engine", sf],
        &[],
    );
    let (status, logs) = bot.finish(Duration::from_secs(30)).await;
    assert_eq!(status.code(), Some(1));
    let stopped = logs
        .iter()
        .find(|l| message(l) == "stopped")
        .expect("a `stopped` line");
    let error = field(stopped, "error")
        .and_then(|e| e.as_str())
        .unwrap_or("");
    assert!(
        error.contains("Stockfish")
            && error.contains("cannot play racingkings")
            && error.contains("UCI_Variant"),
        "{error}"
    );
    assert_eq!(get(&mut client, &seats.id).await.ply, 0);
}

/// The engine killed (SIGKILL) in the middle of a game is started again and given the
/// position, and the bot finishes the game.
#[tokio::test]
async fn an_engine_killed_mid_game_is_restarted() {
    let sf = engine(STOCKFISH);
    let mut vs = VsRandom::start().await;
    let mut args = vec!["--engine", sf];
    args.extend(QUICK);
    let bot = vs.white(&args, &[]);
    let ready = bot
        .wait_for("engine ready", Duration::from_secs(30), |l| {
            message(l) == "engine ready"
        })
        .await;
    let pid = field(&ready, "pid").and_then(|p| p.as_u64()).expect("pid");
    reach_ply(&mut vs.client, &vs.seats.id, 8, Duration::from_secs(30)).await;
    let killed = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let (status, logs, game) = vs.end(bot).await;
    won_by_mate(status, &game);
    let pids: Vec<u64> = logs
        .iter()
        .filter(|l| message(l) == "engine ready")
        .filter_map(|l| field(l, "pid").and_then(|p| p.as_u64()))
        .collect();
    assert_eq!(pids.len(), 2, "one restart: {pids:?}");
    assert_ne!(pids[0], pids[1]);
    // The kill shows as the end of the engine's output, or as a failed write when the bot
    // sent a command first.
    let reasons = restart_reasons(&logs);
    assert!(
        reasons.len() == 1
            && (reasons[0] == "the engine exited"
                || reasons[0].starts_with("cannot write to the engine")),
        "{reasons:?}"
    );
    let over = game_over_line(&logs);
    assert_eq!(
        field(&over, "engine_restarts").and_then(|v| v.as_u64()),
        Some(1)
    );
}

/// Every connection cut twice in mid-game: the bot watches again after the last seq it saw
/// and finishes the game. Then an answer to a move is lost on the way back: the bot sends the
/// same request again (same request id and expected ply) and the server answers it without
/// playing twice: the bot's move count matches the game's.
#[tokio::test]
async fn cut_streams_resume_and_lost_answers_are_retried() {
    let sf = engine(STOCKFISH);
    let server = Server::start().await;
    let proxy = Proxy::start(server.addr).await;
    let mut client = server.client().await;
    let seats = create(&mut client, pb::Variant::Chess, None).await;
    // Black survives long enough for the cuts to land mid-game.
    let black = weak_black(&server, &seats, sf);
    let args = [
        "--engine",
        sf,
        "--depth",
        "12",
        "--untimed-movetime",
        "100ms",
    ];
    let bot = Bot::spawn("white", &proxy.url(), &seats.id, &seats.white, &args, &[]);
    reach_ply(&mut client, &seats.id, 6, Duration::from_secs(30)).await;
    proxy.cut();
    reach_ply(&mut client, &seats.id, 12, Duration::from_secs(30)).await;
    proxy.cut();
    reach_ply(&mut client, &seats.id, 16, Duration::from_secs(30)).await;
    // The next request-sized chunk the bot sends is its next move.
    proxy.lose_next_answer();
    let (status, logs) = bot.finish(Duration::from_secs(120)).await;
    let game = game_over(&mut client, &seats.id, Duration::from_secs(5)).await;
    let (black_status, _) = black.finish(Duration::from_secs(10)).await;
    assert!(black_status.success(), "black's exit {black_status}");
    assert!(status.success(), "bot exit {status}");
    assert!(game.outcome.is_some(), "FEN {}", game.fen);
    let over = game_over_line(&logs);
    let resumes = field(&over, "resumes")
        .and_then(|v| v.as_u64())
        .unwrap_or(0);
    assert!(resumes >= 2, "resumes: {resumes}");
    let retried = logs
        .iter()
        .filter(|l| message(l) == "move played")
        .filter(|l| {
            field(l, "attempts")
                .and_then(|a| a.as_u64())
                .is_some_and(|a| a >= 2)
        })
        .count();
    assert!(retried >= 1, "no move needed a second attempt");
    assert_eq!(
        field(&over, "moves_played").and_then(|v| v.as_u64()),
        Some(u64::from(game.ply.div_ceil(2))),
        "the bot's moves and the game's"
    );
}

/// With `--ponder` the engine thinks on the opponent's time: a predicted reply becomes the
/// bot's search with `ponderhit`, a missed one is stopped, and the game is played out.
#[tokio::test]
async fn pondering_hits_and_misses() {
    let sf = engine(STOCKFISH);
    let server = Server::start().await;
    let mut client = server.client().await;
    let seats = create(&mut client, pb::Variant::Chess, None).await;
    let black = weak_black(&server, &seats, sf);
    let args = [
        "--engine",
        sf,
        "--ponder",
        "--depth",
        "8",
        "--untimed-movetime",
        "50ms",
    ];
    let white = Bot::spawn("white", &server.url(), &seats.id, &seats.white, &args, &[]);
    let (ws, logs) = white.finish(Duration::from_secs(90)).await;
    let (bs, _) = black.finish(Duration::from_secs(10)).await;
    let game = game_over(&mut client, &seats.id, Duration::from_secs(5)).await;
    assert!(ws.success() && bs.success(), "exits {ws} {bs}");
    assert!(game.outcome.is_some());
    let ready = logs
        .iter()
        .find(|l| message(l) == "engine ready")
        .expect("engine ready");
    assert_eq!(field(ready, "ponder").and_then(|v| v.as_bool()), Some(true));
    let sent: Vec<String> = logs
        .iter()
        .filter(|l| message(l) == "to engine")
        .filter_map(|l| {
            field(l, "command")
                .and_then(|c| c.as_str())
                .map(str::to_owned)
        })
        .collect();
    assert!(
        sent.iter().any(|c| c.starts_with("go ponder")),
        "no ponder search"
    );
    assert!(
        count(&logs, "ponder hit") >= 1,
        "no ponder hit in {} plies",
        game.ply
    );
    // Untimed at depth 8, no search reaches its stop deadline: every stop is a ponder miss.
    assert!(
        sent.iter().any(|c| c == "stop"),
        "no ponder miss in {} plies",
        game.ply
    );
    assert_eq!(count(&logs, "engine failed; restarting it"), 0);
}

/// A polyglot book move is played instead of a search while the book has one: here a book
/// whose only move from the start is 1. Nc3, which the bot plays, marked as a book move.
#[tokio::test]
async fn the_book_move_is_played() {
    let sf = engine(STOCKFISH);
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let key = chessd_bot::book::key::key(start, None).expect("a key");
    // Squares as file + 8 * rank: b1 = 1, c3 = 18; the move is to | from << 6.
    let mv: u16 = 18 | (1 << 6);
    let mut entry = key.to_be_bytes().to_vec();
    entry.extend_from_slice(&mv.to_be_bytes());
    entry.extend_from_slice(&7u16.to_be_bytes());
    entry.extend_from_slice(&0u32.to_be_bytes());
    let book = std::env::temp_dir().join(format!("chessd-bot-book-{}.bin", std::process::id()));
    std::fs::write(&book, entry).unwrap();
    let mut vs = VsRandom::start().await;
    let mut args = vec!["--engine", sf, "--book", book.to_str().unwrap()];
    args.extend(QUICK);
    let bot = vs.white(&args, &[]);
    let (status, logs, game) = vs.end(bot).await;
    let _ = std::fs::remove_file(&book);
    won_by_mate(status, &game);
    assert_eq!(game.moves[0].uci, "b1c3", "the book's move");
    let first = logs
        .iter()
        .find(|l| message(l) == "move played")
        .expect("a move");
    assert_eq!(field(first, "book").and_then(|b| b.as_bool()), Some(true));
}

/// White is lost (two black queens): with a resign threshold of -1000 over one move the bot
/// resigns after its first search.
#[tokio::test]
async fn resigns_when_the_score_says_so() {
    let sf = engine(STOCKFISH);
    let server = Server::start().await;
    let mut client = server.client().await;
    let lost = "k7/8/8/8/8/3qq3/8/K7 w - - 0 1";
    let seats = create_from(&mut client, pb::Variant::Chess, lost, None).await;
    let mut args = vec![
        "--engine",
        sf,
        "--resign-score",
        "-1000",
        "--resign-moves",
        "1",
    ];
    args.extend(QUICK);
    let bot = Bot::spawn("white", &server.url(), &seats.id, &seats.white, &args, &[]);
    let (status, _) = bot.finish(Duration::from_secs(30)).await;
    let game = game_over(&mut client, &seats.id, Duration::from_secs(5)).await;
    assert!(status.success(), "bot exit {status}");
    assert_eq!(
        result(&game),
        "0-1 TERMINATION_RESIGNATION",
        "FEN {}",
        game.fen
    );
}

/// The opponent offers a draw before the bot's move. Lost, the bot accepts; better, it
/// declines by moving.
#[tokio::test]
async fn draw_offers_are_answered_by_score() {
    let sf = engine(STOCKFISH);
    let server = Server::start().await;
    let mut client = server.client().await;
    for (fen, accepts) in [("k7/8/8/8/8/3qq3/8/K7 w - - 0 1", true), ("", false)] {
        let seats = create_from(&mut client, pb::Variant::Chess, fen, None).await;
        client
            .offer_draw(authed(
                pb::OfferDrawRequest {
                    game_id: seats.id.clone(),
                },
                &seats.black,
            ))
            .await
            .expect("OfferDraw");
        let mut args = vec!["--engine", sf, "--draw-moves", "1"];
        args.extend(QUICK);
        let bot = Bot::spawn("white", &server.url(), &seats.id, &seats.white, &args, &[]);
        if accepts {
            let (status, _) = bot.finish(Duration::from_secs(30)).await;
            assert!(status.success(), "bot exit {status}");
            let game = game_over(&mut client, &seats.id, Duration::from_secs(5)).await;
            assert_eq!(
                result(&game),
                "1/2-1/2 TERMINATION_AGREEMENT",
                "FEN {}",
                game.fen
            );
        } else {
            let game = reach_ply(&mut client, &seats.id, 1, Duration::from_secs(30)).await;
            drop(bot);
            assert_eq!(game.status, pb::GameStatus::Ongoing as i32);
            assert_eq!(
                game.draw_offer,
                pb::Color::Unspecified as i32,
                "the move declined it"
            );
        }
    }
}

/// The bot learns its side from GetGame's `seat`: a token that holds no seat in the game (here
/// the other game's) stops it before its engine starts, and the game is left untouched.
#[tokio::test]
async fn a_token_without_a_seat_is_refused() {
    let sf = engine(STOCKFISH);
    let server = Server::start().await;
    let mut client = server.client().await;
    let seats = create(&mut client, pb::Variant::Chess, None).await;
    let other = create(&mut client, pb::Variant::Chess, None).await;
    let bot = Bot::spawn(
        "white",
        &server.url(),
        &seats.id,
        &other.white,
        &["--engine", sf],
        &[],
    );
    let (status, logs) = bot.finish(Duration::from_secs(30)).await;
    assert_eq!(status.code(), Some(1));
    let stopped = logs
        .iter()
        .find(|l| message(l) == "stopped")
        .expect("a `stopped` line");
    let error = field(stopped, "error")
        .and_then(|e| e.as_str())
        .unwrap_or("");
    assert!(error.contains("holds no seat in game"), "{error}");
    assert_eq!(count(&logs, "engine ready"), 0);
    assert_eq!(get(&mut client, &seats.id).await.ply, 0);
}
