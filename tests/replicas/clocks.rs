//! The clocks' controls across replicas: the first-move timer aborts a game exactly once
//! with every replica sweeping it (watchers on each see one game over, the log holds one);
//! time given and an arbiter's change made on different replicas reach every watcher, and a
//! watcher resuming on another replica gets them again exactly; start rules and per-side
//! times read the same everywhere.

use std::time::Duration;

use chessd::proto::{self as pb, watch_game_response::Event};

use crate::support::{self, Redis, authed, next_event, replica, watch};

fn dur(secs: i64) -> prost_types::Duration {
    prost_types::Duration {
        seconds: secs,
        nanos: 0,
    }
}

async fn create(client: &mut support::Client, request: pb::CreateGameRequest) -> support::Seats {
    let created = client
        .create_game(pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            white_player: "ann".into(),
            black_player: "bob".into(),
            ..request
        })
        .await
        .unwrap_or_else(|s| panic!("create game: {}", s.message()))
        .into_inner();
    support::Seats {
        id: created.game.expect("game").game_id,
        white: created.white_token,
        black: created.black_token,
    }
}

/// Every message of a stream until it ends (within 20 s).
async fn all(stream: &mut tonic::Streaming<pb::WatchGameResponse>) -> Vec<pb::WatchGameResponse> {
    let mut out = Vec::new();
    while let Some(e) = next_event(stream).await.expect("stream") {
        out.push(e);
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_move_timer_aborts_once_across_replicas() {
    let redis = Redis::start();
    let replicas = [
        replica(&redis).await,
        replica(&redis).await,
        replica(&redis).await,
    ];
    let mut clients = Vec::new();
    for r in &replicas {
        clients.push(r.client().await);
    }
    let request = pb::CreateGameRequest {
        time_control: Some(support::tc(300, 0)),
        first_move_timeout: Some(dur(1)),
        ..Default::default()
    };
    for moves in [0u32, 1] {
        let seats = create(&mut clients[0], request.clone()).await;
        let mut streams = Vec::new();
        for c in &mut clients {
            streams.push(watch(c, &seats.id, 0).await);
        }
        if moves == 1 {
            support::play(&mut clients[1], &seats, 'w', "e2e4").await;
        }
        for stream in &mut streams {
            let seen = all(stream).await;
            let overs: Vec<_> = seen
                .iter()
                .filter_map(|e| match &e.event {
                    Some(Event::GameOver(o)) => Some((e.seq, o.outcome.clone().unwrap())),
                    _ => None,
                })
                .collect();
            assert_eq!(overs.len(), 1, "one game over: {seen:?}");
            assert_eq!(overs[0].0, u64::from(moves) + 1);
            assert_eq!(overs[0].1.termination, pb::Termination::NoStart as i32);
        }
        // Every replica swept the deadline; one appended the abort, the others found the
        // game changed.
        tokio::time::sleep(Duration::from_millis(300)).await;
        for c in &mut clients {
            let game = support::get(c, &seats.id).await.unwrap();
            assert_eq!(game.status, pb::GameStatus::Aborted as i32);
            assert_eq!(game.last_seq, u64::from(moves) + 1, "the log holds one end");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clock_changes_reach_every_replica() {
    let redis = Redis::start();
    let (a, b, c) = (
        replica(&redis).await,
        replica(&redis).await,
        replica(&redis).await,
    );
    let (mut ca, mut cb, mut cc) = (a.client().await, b.client().await, c.client().await);
    let mut odds = support::tc(120, 1);
    odds.black_initial = Some(dur(60));
    let seats = create(
        &mut ca,
        pb::CreateGameRequest {
            time_control: Some(odds),
            clock_start: pb::ClockStart::AfterFirstMoves as i32,
            ..Default::default()
        },
    )
    .await;
    let on_b = support::get(&mut cb, &seats.id).await.unwrap();
    assert_eq!(on_b.time_control, Some(odds));
    assert_eq!(on_b.clock_start, pb::ClockStart::AfterFirstMoves as i32);
    let mut live = watch(&mut ca, &seats.id, 0).await;
    next_event(&mut live).await.unwrap().expect("snapshot");
    support::play(&mut ca, &seats, 'w', "e2e4").await;
    support::play(&mut cb, &seats, 'b', "e7e5").await;
    cb.add_time(authed(
        pb::AddTimeRequest {
            game_id: seats.id.clone(),
            amount: Some(dur(30)),
        },
        &seats.white,
    ))
    .await
    .expect("add time on b");
    let adjusted = cc
        .adjust_clock(pb::AdjustClockRequest {
            game_id: seats.id.clone(),
            side: pb::Color::White as i32,
            change: Some(pb::adjust_clock_request::Change::Subtract(dur(20))),
        })
        .await
        .expect("adjust on c")
        .into_inner()
        .game
        .unwrap();
    let black = adjusted.clocks.as_ref().unwrap().black_remaining.unwrap();
    assert_eq!(black.seconds, 90, "60 s and 30 s given");
    cc.resign(authed(
        pb::ResignRequest {
            game_id: seats.id.clone(),
        },
        &seats.black,
    ))
    .await
    .unwrap();
    let seen = all(&mut live).await;
    let kinds: Vec<String> = seen.iter().map(support::describe).collect();
    let changes = seen
        .iter()
        .filter(|e| matches!(e.event, Some(Event::ClockChanged(_))))
        .count();
    assert_eq!(changes, 2, "{kinds:?}");
    for (client, name) in [(&mut cb, "b"), (&mut cc, "c")] {
        for after in 1..seen.last().unwrap().seq {
            let mut again = watch(client, &seats.id, after).await;
            let replayed = all(&mut again).await;
            let expected: Vec<_> = seen.iter().filter(|e| e.seq > after).cloned().collect();
            assert_eq!(replayed, expected, "on {name} after seq {after}");
        }
    }
}
