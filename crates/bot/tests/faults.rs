//! A misbehaving engine (`tests/data/fake_engine.py`, Stockfish behind a script that injects
//! one fault) against the bot: garbage lines, an engine that exits, one that hangs, one that
//! is slow to answer, one that lies about its move, and one that can never play.

mod support;

use chessd_bot::proto as pb;
use serde_json::Value;
use std::path::PathBuf;
use std::process::ExitStatus;
use support::*;

/// A folder for the fake engine's marker files, removed when dropped.
struct StateDir(PathBuf);

impl StateDir {
    fn new(mode: &str) -> StateDir {
        let dir =
            std::env::temp_dir().join(format!("chessd-bot-fake-{mode}-{}", std::process::id()));
        // A leftover from an earlier run would change the fake engine's behaviour.
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("state dir");
        StateDir(dir)
    }
}

impl Drop for StateDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Plays White with the fake engine in `mode` against a random mover; returns the bot's exit
/// status, its logs and the game.
async fn play(mode: &str) -> (ExitStatus, Vec<Value>, pb::Game) {
    let sf = engine(STOCKFISH).to_owned();
    let state = StateDir::new(mode);
    let mut vs = VsRandom::start().await;
    let script = fake_engine();
    let args = [
        "--engine",
        "python3",
        "--engine-arg",
        &script,
        "--engine-arg",
        &sf,
        "--engine-arg",
        mode,
        "--depth",
        "8",
        "--untimed-movetime",
        "100ms",
    ];
    let dir = state.0.to_str().expect("utf-8 temp dir").to_owned();
    let bot = vs.white(&args, &[("FAKE_ENGINE_STATE", &dir)]);
    vs.end(bot).await
}

fn restarts(logs: &[Value]) -> u64 {
    field(&game_over_line(logs), "engine_restarts")
        .and_then(Value::as_u64)
        .unwrap_or(0)
}

/// Junk around every bestmove (a 100 kB line, bytes that are not UTF-8, broken option and
/// info lines, words) is skipped or ignored: the engine is never restarted.
#[tokio::test]
async fn garbage_lines_are_ignored() {
    let (status, logs, game) = play("garbage").await;
    won_by_mate(status, &game);
    assert_eq!(restarts(&logs), 0);
    assert!(count(&logs, "engine line too long; skipped") >= 1);
    let ignored: Vec<&Value> = logs
        .iter()
        .filter(|l| message(l) == "engine line ignored")
        .collect();
    assert!(
        ignored.iter().any(
            |l| field(l, "line").and_then(Value::as_str) == Some("%%% the quick brown fox %%%")
        ),
        "{ignored:?}"
    );
}

/// An engine that exits mid-game is restarted with the position; the game is won.
#[tokio::test]
async fn an_engine_that_exits_is_restarted() {
    let (status, logs, game) = play("exit-once").await;
    won_by_mate(status, &game);
    assert_eq!(restarts(&logs), 1);
    assert_eq!(restart_reasons(&logs), ["the engine exited"]);
}

/// An engine that stops answering, even `stop`, is killed after its deadline and replaced.
#[tokio::test]
async fn a_hung_engine_is_killed_and_replaced() {
    let (status, logs, game) = play("hang-once").await;
    won_by_mate(status, &game);
    assert_eq!(restarts(&logs), 1);
    assert!(
        count(
            &logs,
            "the engine is past its time for this move; sending stop"
        ) >= 1
    );
    assert_eq!(restart_reasons(&logs), ["the engine did not answer stop"]);
}

/// An engine that thinks past its time is told to stop and its answer played: slow, not
/// broken, so it is not restarted.
#[tokio::test]
async fn a_slow_engine_is_stopped_not_restarted() {
    let (status, logs, game) = play("slow").await;
    won_by_mate(status, &game);
    assert_eq!(restarts(&logs), 0);
    assert_eq!(
        count(
            &logs,
            "the engine is past its time for this move; sending stop"
        ),
        2
    );
}

/// `bestmove (none)` in a game that goes on, a bestmove that is no move, and a move the
/// server refuses as illegal: each is logged, the engine restarted, the game won.
#[tokio::test]
async fn lies_about_the_move_restart_the_engine() {
    let (status, logs, game) = play("lies-once").await;
    won_by_mate(status, &game);
    let whys = restart_reasons(&logs);
    assert_eq!(whys.len(), 3, "{whys:?}");
    assert!(whys[0].contains("bestmove (none)"), "{whys:?}");
    assert!(whys[1].contains("\"banana\" is not a move"), "{whys:?}");
    assert!(
        whys[2].contains("refused the engine's move a1h8"),
        "{whys:?}"
    );
    assert_eq!(restarts(&logs), 3);
}

/// An engine that can never move: after a few restarts in a row the bot gives up with exit
/// code 1 and says why, leaving the game to the clock or the opponent.
#[tokio::test]
async fn an_engine_that_never_moves_makes_the_bot_give_up() {
    let (status, logs, game) = play("always-exit").await;
    assert_eq!(status.code(), Some(1));
    assert_eq!(game.ply, 0, "FEN {}", game.fen);
    let stopped = logs
        .iter()
        .find(|l| message(l) == "stopped")
        .expect("a `stopped` line");
    let error = field(stopped, "error")
        .and_then(Value::as_str)
        .unwrap_or("");
    assert!(
        error.contains("failed 4 times in a row") && error.contains("exited"),
        "{error}"
    );
}
