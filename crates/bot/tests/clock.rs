//! Stockfish against Stockfish at 15+0.1, each through its own bot: the clocks the bots give
//! their engines (the server's, less the time since `read_at` and the move overhead) keep
//! both engines on time to the end of the game. Alone in its test binary, so no other test's
//! engines compete for the CPU.

mod support;

use std::time::Duration;

use chessd_bot::proto as pb;
use support::*;

/// A 15+0.1 game ends by the rules, not by a flag.
#[tokio::test]
async fn stockfish_against_stockfish_at_15_plus_0_1_never_flags() {
    let sf = engine(STOCKFISH);
    let server = Server::start().await;
    let mut client = server.client().await;
    let clock = (Duration::from_secs(15), Duration::from_millis(100));
    let seats = create(&mut client, pb::Variant::Chess, Some(clock)).await;
    let args = [
        "--engine",
        sf,
        "--engine-option",
        "Threads=1",
        "--engine-option",
        "Hash=16",
    ];
    let white = Bot::spawn("white", &server.url(), &seats.id, &seats.white, &args, &[]);
    let black = Bot::spawn("black", &server.url(), &seats.id, &seats.black, &args, &[]);
    let (ws, wlogs) = white.finish(Duration::from_secs(120)).await;
    let (bs, blogs) = black.finish(Duration::from_secs(10)).await;
    let game = game_over(&mut client, &seats.id, Duration::from_secs(5)).await;
    assert!(ws.success() && bs.success(), "exits {ws} {bs}");
    let r = result(&game);
    assert!(
        !r.contains("TIME_FORFEIT"),
        "{r} at ply {}, FEN {}",
        game.ply,
        game.fen
    );
    assert!(
        game.ply >= 20,
        "a real game, not an early accident: {r} at ply {}",
        game.ply
    );
    for logs in [&wlogs, &blogs] {
        let over = game_over_line(logs);
        assert_eq!(
            field(&over, "engine_restarts").and_then(|v| v.as_u64()),
            Some(0)
        );
    }
    eprintln!("{r} after {} plies", game.ply);
}
