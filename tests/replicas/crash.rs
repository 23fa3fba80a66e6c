//! Replicas killed with SIGKILL mid-game: play goes on through another one, and the flag
//! still falls when the replica that saw the last move is gone.

use chessd::proto as pb;

use crate::support::{self, Process, Redis};

fn secs(d: Option<&prost_types::Duration>) -> f64 {
    d.map_or(-1.0, |d| d.seconds as f64 + f64::from(d.nanos) / 1e9)
}

fn millis(t: Option<&prost_types::Timestamp>) -> i64 {
    t.map_or(0, |t| t.seconds * 1000 + i64::from(t.nanos) / 1_000_000)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_survives_killed_replicas_and_the_flag_falls() {
    let redis = Redis::start();
    let a = Process::start(&redis);
    let b = Process::start(&redis);
    let c = Process::start(&redis);
    let mut ca = support::client_at(a.addr).await;
    let mut cb = support::client_at(b.addr).await;
    let mut cc = support::client_at(c.addr).await;
    let seats = support::create(&mut ca, Some(support::tc(4, 0))).await;
    let mut watcher = support::watch(&mut cb, &seats.id, 0).await;

    support::play(&mut ca, &seats, 'w', "e2e4").await;
    support::play(&mut ca, &seats, 'b', "e7e5").await;
    a.kill();
    support::play(&mut cb, &seats, 'w', "g1f3").await;
    support::play(&mut cb, &seats, 'b', "b8c6").await;
    // The last move goes through C, which then dies: nobody who saw it is left but B.
    let last = support::play(&mut cc, &seats, 'w', "f1c4").await;
    c.kill();
    let last_game = last.game.expect("game");
    let black_left = secs(
        last_game
            .clocks
            .as_ref()
            .and_then(|c| c.black_remaining.as_ref()),
    );
    assert!(black_left > 0.0, "black still has time after white's move");

    let (seen, over_event, over) = support::until_game_over(&mut watcher).await;
    assert_eq!(
        seen,
        [
            "snapshot ply 0",
            "move e2e4",
            "move e7e5",
            "move g1f3",
            "move b8c6",
            "move f1c4"
        ]
    );
    let outcome = over.outcome.expect("outcome");
    assert_eq!(outcome.termination, pb::Termination::TimeForfeit as i32);
    assert_eq!(outcome.pgn_result, "1-0");
    // Not early: the flag fell after black's whole remaining time had passed.
    let moved_at = millis(last_game.clocks.as_ref().and_then(|c| c.read_at.as_ref()));
    let fell_at = millis(over_event.server_time.as_ref());
    assert!(
        (fell_at - moved_at) as f64 >= black_left * 1000.0 - 1.0,
        "flag at {fell_at} ms, last move at {moved_at} ms with {black_left} s left"
    );
    let game = support::get(&mut cb, &seats.id)
        .await
        .expect("get on the survivor");
    assert_eq!(game.status, pb::GameStatus::Finished as i32);
    assert_eq!(game.moves.len(), 5);
    let clocks = game.clocks.expect("clocks");
    assert_eq!(secs(clocks.black_remaining.as_ref()), 0.0);
}
