//! `--abandon-after` on Redis: a deserted game is ended by a surviving replica after the one
//! that saw its last move is killed, exactly once, with the memory store's outcome (aborted
//! before both sides moved, else lost by the side to move), seen by a watcher on another
//! replica.

use std::time::Duration;

use chessd::proto::{self as pb, watch_game_response::Event};
use tonic::Streaming;

use crate::support::{self, Process, Redis};

/// How long a game may go without a move in this test.
const ABANDON_MS: i64 = 2_000;

fn millis(t: Option<&prost_types::Timestamp>) -> i64 {
    t.map_or(0, |t| t.seconds * 1000 + i64::from(t.nanos) / 1_000_000)
}

/// What a watcher saw of a game up to its end.
struct Seen {
    /// The events before the game over, described.
    events: Vec<String>,
    /// The server time of the last move event, in ms.
    moved_at: i64,
    /// The server time of the game over, in ms.
    over_at: i64,
    outcome: pb::Outcome,
}

/// Reads `stream` to its end, which must come right after one game-over event, within 20 s
/// (heartbeats keep a stream of a game that never ends alive forever).
async fn until_over(stream: &mut Streaming<pb::WatchGameResponse>) -> Seen {
    tokio::time::timeout(Duration::from_secs(20), read_until_over(stream))
        .await
        .expect("the game ended within 20 s")
}

async fn read_until_over(stream: &mut Streaming<pb::WatchGameResponse>) -> Seen {
    let mut events = Vec::new();
    let mut moved_at = 0;
    loop {
        let event = support::next_event(stream)
            .await
            .expect("stream")
            .expect("the game-over event before the stream ends");
        match &event.event {
            Some(Event::GameOver(over)) => {
                assert!(
                    support::next_event(stream).await.expect("stream").is_none(),
                    "the stream ends after the game over"
                );
                return Seen {
                    events,
                    moved_at,
                    over_at: millis(event.server_time.as_ref()),
                    outcome: over.outcome.clone().expect("outcome"),
                };
            }
            Some(Event::MovePlayed(_)) => moved_at = millis(event.server_time.as_ref()),
            _ => {}
        }
        events.push(support::describe(&event));
    }
}

/// Ended on time: not before `--abandon-after` since the last move (1 ms for rounding), and
/// not long after it.
#[track_caller]
fn on_time(seen: &Seen) {
    let idle = seen.over_at - seen.moved_at;
    assert!(
        (ABANDON_MS - 1..ABANDON_MS + 5_000).contains(&idle),
        "ended {idle} ms after the last move, abandon after {ABANDON_MS} ms"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abandoned_games_end_on_a_survivor() {
    let redis = Redis::start();
    let flags = ["--abandon-after", "2s"];
    let a = Process::start_with(&redis, &flags);
    let b = Process::start_with(&redis, &flags);
    let c = Process::start_with(&redis, &flags);
    let mut ca = support::client_at(a.addr).await;
    let mut cb = support::client_at(b.addr).await;
    let mut cc = support::client_at(c.addr).await;

    // Untimed, so no flag can end them: only abandonment.
    let played = support::create(&mut ca, None).await;
    let opened = support::create(&mut ca, None).await;
    let mut watch_played = support::watch(&mut cb, &played.id, 0).await;
    let mut watch_opened = support::watch(&mut cc, &opened.id, 0).await;
    support::play(&mut ca, &played, 'w', "e2e4").await;
    support::play(&mut ca, &played, 'b', "e7e5").await;
    support::play(&mut ca, &opened, 'w', "d2d4").await;
    // A draw offer is not a move: the wait still runs from e7e5.
    let offer = pb::OfferDrawRequest {
        game_id: played.id.clone(),
    };
    ca.offer_draw(support::authed(offer, &played.white))
        .await
        .expect("offer a draw");
    // The only replica that saw the games' last events dies; B and C both sweep.
    a.kill();

    let seen = until_over(&mut watch_played).await;
    assert_eq!(
        seen.events,
        ["snapshot ply 0", "move e2e4", "move e7e5", "offer w"]
    );
    assert_eq!(
        (seen.outcome.termination, seen.outcome.pgn_result.as_str()),
        (pb::Termination::Abandonment as i32, "0-1"),
        "white, to move, walked away"
    );
    on_time(&seen);

    let seen = until_over(&mut watch_opened).await;
    assert_eq!(seen.events, ["snapshot ply 0", "move d2d4"]);
    assert_eq!(
        seen.outcome.termination,
        pb::Termination::Aborted as i32,
        "not both sides moved: aborted"
    );
    on_time(&seen);

    // Exactly one replica ended each game: one game-over event, whoever reads it.
    for client in [&mut cb, &mut cc] {
        let game = support::get(client, &played.id).await.expect("get");
        assert_eq!(game.status, pb::GameStatus::Finished as i32);
        assert_eq!(game.last_seq, 4, "two moves, an offer, one game over");
        let game = support::get(client, &opened.id).await.expect("get");
        assert_eq!(game.status, pb::GameStatus::Aborted as i32);
        assert_eq!(game.last_seq, 2, "one move, one game over");
        let stats = client
            .get_stats(pb::GetStatsRequest::default())
            .await
            .expect("stats")
            .into_inner();
        let chess = &stats.variants[0];
        assert_eq!(
            (chess.white_wins, chess.black_wins, chess.draws),
            (0, 1, 0),
            "the abandoned game counts for black; the aborted one nowhere"
        );
    }
    let mut replay = support::watch(&mut cc, &played.id, 1).await;
    let seen = until_over(&mut replay).await;
    assert_eq!(seen.events, ["move e7e5", "offer w"]);
}
