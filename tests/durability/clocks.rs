//! The clocks' controls survive a crash: start rules, per-side times, time given and an
//! arbiter's changes come back as they were, their ClockChanged events replayed exactly; and
//! the first-move timer, a wall-clock deadline, aborts a game once whether its deadline passed
//! while the server was down or after it came back.

use std::time::{Duration, Instant};

use chessd::proto::{self as pb, watch_game_response::Event};
use tonic::Streaming;

use crate::support::{self, Client, DataDir, Seats, Server, authed, secs};

fn dur(secs: i64) -> prost_types::Duration {
    prost_types::Duration {
        seconds: secs,
        nanos: 0,
    }
}

fn millis(t: Option<&prost_types::Timestamp>) -> i64 {
    t.map_or(0, |t| t.seconds * 1000 + i64::from(t.nanos) / 1_000_000)
}

/// The events of a game after `after`, up to its seq `last` (the stream stays open: the game
/// goes on).
async fn events(
    client: &mut Client,
    id: &str,
    after: u64,
    last: u64,
) -> Vec<pb::WatchGameResponse> {
    let mut stream: Streaming<pb::WatchGameResponse> = client
        .watch_game(pb::WatchGameRequest {
            game_id: id.into(),
            after_seq: after,
        })
        .await
        .expect("watch")
        .into_inner();
    let mut out = Vec::new();
    while out
        .last()
        .is_none_or(|e: &pb::WatchGameResponse| e.seq < last)
    {
        let e = tokio::time::timeout(Duration::from_secs(10), stream.message())
            .await
            .expect("an event in time")
            .expect("stream")
            .expect("an event");
        if !matches!(e.event, Some(Event::Heartbeat(_))) {
            out.push(e);
        }
    }
    out
}

/// Waits (up to 20 s) for the game to be over.
async fn until_over(client: &mut Client, id: &str) -> pb::Game {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let game = support::get(client, id).await;
        if game.status != pb::GameStatus::Ongoing as i32 {
            return game;
        }
        assert!(Instant::now() < deadline, "never ended: {game:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clock_controls_survive_a_crash() {
    let dir = DataDir::new("clocks");
    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let mut odds = pb::TimeControl {
        initial: Some(dur(300)),
        increment: Some(dur(2)),
        ..Default::default()
    };
    odds.black_initial = Some(dur(180));
    let seats: Seats = support::create(
        &mut client,
        pb::CreateGameRequest {
            time_control: Some(odds),
            clock_start: pb::ClockStart::AfterFirstMoves as i32,
            first_move_timeout: Some(dur(600)),
            ..support::chess("ann", "bob")
        },
    )
    .await;
    support::play(&mut client, &seats, 0, "e2e4", "")
        .await
        .unwrap();
    support::play(&mut client, &seats, 1, "e7e5", "")
        .await
        .unwrap();
    client
        .add_time(authed(
            pb::AddTimeRequest {
                game_id: seats.id.clone(),
                amount: Some(dur(20)),
            },
            &seats.black,
        ))
        .await
        .unwrap();
    client
        .adjust_clock(pb::AdjustClockRequest {
            game_id: seats.id.clone(),
            side: pb::Color::Black as i32,
            change: Some(pb::adjust_clock_request::Change::SetRemaining(dur(100))),
        })
        .await
        .unwrap();
    let before = support::get(&mut client, &seats.id).await;
    assert_eq!(before.last_seq, 4);
    // From seq 0 a watch starts with a snapshot: the events themselves from seq 1 on.
    let seen = events(&mut client, &seats.id, 1, 4).await;
    server.kill();

    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let after = support::get(&mut client, &seats.id).await;
    assert_eq!(after.time_control, Some(odds));
    assert_eq!(after.clock_start, pb::ClockStart::AfterFirstMoves as i32);
    assert!(after.first_move_deadline.is_none());
    assert_eq!(after.last_seq, 4);
    let (c0, c1) = (before.clocks.unwrap(), after.clocks.unwrap());
    assert_eq!(c1.running, pb::Color::White as i32);
    assert_eq!(secs(c1.black_remaining.as_ref()), 100.0);
    // White's clock ran since the last event before the crash, not through the downtime.
    let lost = secs(c0.white_remaining.as_ref()) - secs(c1.white_remaining.as_ref());
    assert!((-0.5..1.0).contains(&lost), "white lost {lost} s");
    for from in 1..4 {
        let tail = events(&mut client, &seats.id, from, 4).await;
        assert_eq!(tail[..], seen[from as usize - 1..], "after seq {from}");
    }
    let changed = seen
        .iter()
        .filter(|e| matches!(e.event, Some(Event::ClockChanged(_))))
        .count();
    assert_eq!(changed, 2);
}

/// A first-move deadline that passed while the server was down aborts the game when it is
/// back, once; one still to come is the same deadline after the restart, and the restarted
/// server aborts on it, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_move_timer_across_a_restart() {
    let dir = DataDir::new("first-move");
    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let request = |secs: i64| pb::CreateGameRequest {
        time_control: Some(pb::TimeControl {
            initial: Some(dur(300)),
            ..Default::default()
        }),
        first_move_timeout: Some(dur(secs)),
        ..support::chess("ann", "bob")
    };
    let passed = support::create(&mut client, request(1)).await;
    let coming = support::create(&mut client, request(8)).await;
    support::play(&mut client, &coming, 0, "d2d4", "")
        .await
        .unwrap();
    let deadline = support::get(&mut client, &coming.id)
        .await
        .first_move_deadline;
    assert!(deadline.is_some());
    server.kill();
    tokio::time::sleep(Duration::from_millis(1500)).await;

    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let game = until_over(&mut client, &passed.id).await;
    let outcome = game.outcome.expect("outcome");
    assert_eq!(outcome.termination, pb::Termination::NoStart as i32);
    assert_eq!(game.status, pb::GameStatus::Aborted as i32);
    assert_eq!(game.last_seq, 1, "one game-over event");
    let still = support::get(&mut client, &coming.id).await;
    assert_eq!(still.status, pb::GameStatus::Ongoing as i32, "{still:?}");
    assert_eq!(
        millis(still.first_move_deadline.as_ref()),
        millis(deadline.as_ref()),
        "a restart does not move the deadline"
    );
    let game = until_over(&mut client, &coming.id).await;
    assert_eq!(
        game.outcome.unwrap().termination,
        pb::Termination::NoStart as i32
    );
    assert_eq!(game.last_seq, 2, "the move and one game over");
    server.kill();

    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    for (id, last_seq) in [(&passed.id, 1), (&coming.id, 2)] {
        let game = support::get(&mut client, id).await;
        assert_eq!(
            (game.status, game.last_seq),
            (pb::GameStatus::Aborted as i32, last_seq),
            "aborted once, and stays so"
        );
    }
    let stats = client
        .get_stats(pb::GetStatsRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        stats.variants[0].finished_games, 0,
        "an abort is counted nowhere"
    );
}
