//! Player mode against a real server: the bot follows its player's feed with a player token
//! and plays every game the player is seated in, those running when it starts and those
//! created later, at most `--max-games` at once, one engine process per game; the feed cut
//! mid-game is resumed; a revoked token stops the bot; SIGTERM lets the games in progress
//! end, and a second SIGTERM stops at once.

mod support;

use std::collections::HashSet;
use std::time::Duration;

use chessd_bot::proto as pb;
use serde_json::Value;
use support::players::{BoundGame, Keyed};
use support::*;

const PLAYER: &str = "engine-bot";
/// Fast and strong enough to mate a random mover.
const QUICK: [&str; 4] = ["--depth", "8", "--untimed-movetime", "50ms"];

fn str_field<'a>(line: &'a Value, name: &str) -> Option<&'a str> {
    field(line, name).and_then(Value::as_str)
}

/// The line `text` about game `id` (logged with a `game_id` field).
async fn wait_game_line(bot: &Bot, text: &str, id: &str, limit: Duration) -> Value {
    bot.wait_for(&format!("`{text}` for {id}"), limit, |l| {
        message(l) == text && str_field(l, "game_id") == Some(id)
    })
    .await
}

/// The bot's side won by mate.
fn bot_won(game: &pb::Game, bound: &BoundGame) {
    let want = match bound.bot_side {
        pb::Color::White => "1-0 TERMINATION_CHECKMATE",
        _ => "0-1 TERMINATION_CHECKMATE",
    };
    assert_eq!(result(game), want, "game {}, FEN {}", bound.id, game.fen);
}

/// The most games the logs show in progress at once.
fn peak_running(logs: &[Value]) -> usize {
    let (mut now, mut peak) = (0usize, 0usize);
    for line in logs {
        match message(line) {
            "game started" => now += 1,
            "game over" | "game stopped" => now -= 1,
            _ => continue,
        }
        peak = peak.max(now);
    }
    peak
}

/// Two games run when the bot starts (one as White, one as Black), two more are created
/// once it plays them: with `--max-games 2` the later two wait, and every game is played to
/// a win, never more than two at once. Each game has its own engine: the fake engine crashes
/// in the first one started and only that game's engine is restarted. Every line a game's
/// runner logs carries its game id. SIGTERM with no game in progress exits at once.
#[tokio::test]
async fn plays_every_game_at_most_max_games_at_once() {
    let sf = engine(STOCKFISH).to_owned();
    let mut keyed = Keyed::start().await;
    let token = keyed.issue(PLAYER).await;
    let mut games = vec![
        keyed.game(PLAYER, pb::Color::White).await,
        keyed.game(PLAYER, pb::Color::Black).await,
    ];
    let state = std::env::temp_dir().join(format!("chessd-bot-player-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&state);
    std::fs::create_dir_all(&state).unwrap();
    let script = fake_engine();
    let mut args = vec![
        "--max-games",
        "2",
        "--engine",
        "python3",
        "--engine-arg",
        &script,
        "--engine-arg",
        &sf,
        "--engine-arg",
        "exit-once",
    ];
    args.extend(QUICK);
    let dir = state.to_str().unwrap().to_owned();
    let bot = Bot::player(
        "player",
        &keyed.server.url(),
        &token,
        &args,
        &[("FAKE_ENGINE_STATE", &dir)],
    );
    for g in &games {
        wait_game_line(&bot, "game started", &g.id, Duration::from_secs(20)).await;
    }
    games.push(keyed.game(PLAYER, pb::Color::White).await);
    games.push(keyed.game(PLAYER, pb::Color::Black).await);
    for g in &games[2..] {
        wait_game_line(
            &bot,
            "game waiting for a free slot (its clock runs)",
            &g.id,
            Duration::from_secs(20),
        )
        .await;
    }
    for g in &games {
        let game = game_over(&mut keyed.client, &g.id, Duration::from_secs(180)).await;
        bot_won(&game, g);
        wait_game_line(&bot, "game over", &g.id, Duration::from_secs(10)).await;
    }
    bot.terminate();
    let (status, logs) = bot.finish(Duration::from_secs(10)).await;
    let _ = std::fs::remove_dir_all(&state);
    assert!(status.success(), "exit {status}");
    assert_eq!(peak_running(&logs), 2);
    let ids: HashSet<&str> = games.iter().map(|g| g.id.as_str()).collect();
    let mut restarts = 0;
    for line in logs.iter().filter(|l| message(l) == "game over") {
        let id = str_field(line, "game_id").unwrap();
        assert!(ids.contains(id), "{line}");
        let g = games.iter().find(|g| g.id == id).unwrap();
        let side = if g.bot_side == pb::Color::White {
            "white"
        } else {
            "black"
        };
        assert_eq!(str_field(line, "side"), Some(side), "{line}");
        restarts += field(line, "engine_restarts")
            .and_then(Value::as_u64)
            .unwrap();
    }
    assert_eq!(count(&logs, "game over"), 4);
    assert_eq!(restarts, 1, "only the first engine crashed");
    // The runner's lines carry their game's id in the `game` span.
    let moves: Vec<&Value> = logs
        .iter()
        .filter(|l| message(l) == "move played")
        .collect();
    for g in &games {
        assert!(
            moves
                .iter()
                .any(|l| span_field(l, "game_id") == Some(g.id.as_str())),
            "no move played in {}",
            g.id
        );
    }
    assert!(
        moves
            .iter()
            .all(|l| span_field(l, "game_id").is_some_and(|id| ids.contains(id)))
    );
    let stopped = logs
        .iter()
        .find(|l| message(l) == "stopped: the games in progress have ended")
        .expect("a clean stop");
    assert_eq!(
        field(stopped, "games_over").and_then(Value::as_u64),
        Some(4)
    );
}

/// The connection cut while a game is in progress: the feed resumes after its cursor, the
/// game's stream after its seq, the game goes on, and a game created after the cut is played.
#[tokio::test]
async fn a_cut_feed_is_resumed() {
    let sf = engine(STOCKFISH);
    let mut keyed = Keyed::start().await;
    let token = keyed.issue(PLAYER).await;
    let proxy = Proxy::start(keyed.server.addr).await;
    let mut args = vec!["--max-games", "2", "--engine", sf];
    args.extend(QUICK);
    let bot = Bot::player("player", &proxy.url(), &token, &args, &[]);
    bot.wait_for("following", Duration::from_secs(20), |l| {
        message(l) == "following the player's games"
    })
    .await;
    let first = keyed.game(PLAYER, pb::Color::White).await;
    wait_game_line(&bot, "game started", &first.id, Duration::from_secs(20)).await;
    reach_ply(&mut keyed.client, &first.id, 6, Duration::from_secs(60)).await;
    proxy.cut();
    let second = keyed.game(PLAYER, pb::Color::Black).await;
    for g in [&first, &second] {
        let game = game_over(&mut keyed.client, &g.id, Duration::from_secs(120)).await;
        bot_won(&game, g);
    }
    let over = wait_game_line(&bot, "game over", &first.id, Duration::from_secs(10)).await;
    wait_game_line(&bot, "game over", &second.id, Duration::from_secs(10)).await;
    bot.terminate();
    let (status, logs) = bot.finish(Duration::from_secs(10)).await;
    assert!(status.success(), "exit {status}");
    let broke: Vec<&Value> = logs
        .iter()
        .filter(|l| message(l) == "feed broke; resuming")
        .collect();
    assert!(!broke.is_empty(), "the feed never broke");
    assert!(
        broke
            .iter()
            .all(|l| field(l, "from_cursor") == Some(&Value::Bool(true))),
        "{broke:?}"
    );
    assert!(
        logs.iter()
            .any(|l| message(l) == "following the player's games"
                && field(l, "resumed") == Some(&Value::Bool(true))),
        "the feed was not resumed after its cursor"
    );
    assert!(
        field(&over, "resumes").and_then(Value::as_u64).unwrap() >= 1,
        "{over}"
    );
}

/// Revoking the player's tokens ends the bot: exit code 1 and a line that says the server
/// refused the token; the game in progress is left as it is.
#[tokio::test]
async fn a_revoked_token_stops_the_bot() {
    let sf = engine(STOCKFISH);
    let mut keyed = Keyed::start().await;
    let token = keyed.issue(PLAYER).await;
    let game = keyed.game(PLAYER, pb::Color::White).await;
    let args = [
        "--engine",
        sf,
        "--depth",
        "6",
        "--untimed-movetime",
        "300ms",
    ];
    let bot = Bot::player("player", &keyed.server.url(), &token, &args, &[]);
    reach_ply(&mut keyed.client, &game.id, 2, Duration::from_secs(30)).await;
    keyed.revoke(PLAYER).await;
    let (status, logs) = bot.finish(Duration::from_secs(20)).await;
    assert_eq!(status.code(), Some(1));
    let stopped = logs
        .iter()
        .rev()
        .find(|l| message(l) == "stopped")
        .expect("a `stopped` line");
    let error = str_field(stopped, "error").unwrap_or("");
    assert!(
        error.contains("refused the player token") && error.contains("TOKEN_REVOKED"),
        "{error}"
    );
    let left = get(&mut keyed.client, &game.id).await;
    assert_eq!(left.status, pb::GameStatus::Ongoing as i32);
}

/// SIGTERM: the bot takes no new game, plays the one in progress to its end and exits 0. A
/// bot started again picks up the game that was created meanwhile (running games come first
/// on the feed); two SIGTERMs stop it at once (exit 130), leaving that game as it is.
#[tokio::test]
async fn sigterm_lets_the_games_in_progress_end() {
    let sf = engine(STOCKFISH);
    let mut keyed = Keyed::start().await;
    let token = keyed.issue(PLAYER).await;
    let first = keyed.game(PLAYER, pb::Color::White).await;
    let mut args = vec!["--engine", sf];
    args.extend(QUICK);
    let bot = Bot::player("player", &keyed.server.url(), &token, &args, &[]);
    wait_game_line(&bot, "game started", &first.id, Duration::from_secs(20)).await;
    reach_ply(&mut keyed.client, &first.id, 2, Duration::from_secs(30)).await;
    bot.terminate();
    bot.wait_for("draining", Duration::from_secs(10), |l| {
        message(l).starts_with("stopping: no new games")
    })
    .await;
    let second = keyed.game(PLAYER, pb::Color::White).await;
    let (status, logs) = bot.finish(Duration::from_secs(120)).await;
    assert!(status.success(), "exit {status}");
    let game = get(&mut keyed.client, &first.id).await;
    bot_won(&game, &first);
    assert!(
        !logs
            .iter()
            .any(|l| str_field(l, "game_id") == Some(second.id.as_str())),
        "the draining bot took a new game"
    );
    assert_eq!(get(&mut keyed.client, &second.id).await.ply, 0);

    let bot = Bot::player("again", &keyed.server.url(), &token, &args, &[]);
    wait_game_line(&bot, "game started", &second.id, Duration::from_secs(20)).await;
    reach_ply(&mut keyed.client, &second.id, 2, Duration::from_secs(30)).await;
    bot.terminate();
    bot.wait_for("draining", Duration::from_secs(10), |l| {
        message(l).starts_with("stopping: no new games")
    })
    .await;
    bot.terminate();
    let (status, _) = bot.finish(Duration::from_secs(10)).await;
    assert_eq!(status.code(), Some(130));
    let left = get(&mut keyed.client, &second.id).await;
    assert_eq!(left.status, pb::GameStatus::Ongoing as i32);
}
