//! WatchGame: snapshot and replay, live events, resuming without gap or duplicate, heartbeats,
//! slow watchers, watcher limits.

use std::time::Duration;

use chessd::ServerConfig;
use chessd::proto::game_service_client::GameServiceClient;
use chessd::proto::{self as pb, watch_game_response::Event};
use tonic::Code;
use tonic::transport::Endpoint;
use tonic_types::StatusExt;

use crate::support::*;

/// The moves of a short game that ends in mate, with draw offers and a decline on the way.
async fn scripted_step(client: &mut Client, seats: &Seats, step: usize) -> bool {
    let offer = |token: &str| {
        authed(
            pb::OfferDrawRequest {
                game_id: seats.id.clone(),
            },
            token,
        )
    };
    let decline = |token: &str| {
        authed(
            pb::RespondToDrawRequest {
                game_id: seats.id.clone(),
                accept: false,
            },
            token,
        )
    };
    match step {
        0 => drop(play(client, seats, 'w', "e4").await),
        1 => drop(client.offer_draw(offer(&seats.white)).await.unwrap()),
        2 => drop(client.respond_to_draw(decline(&seats.black)).await.unwrap()),
        3 => drop(play(client, seats, 'b', "e5").await),
        4 => drop(play(client, seats, 'w', "Bc4").await),
        5 => drop(play(client, seats, 'b', "Nc6").await),
        6 => drop(client.offer_draw(offer(&seats.black)).await.unwrap()),
        7 => drop(play(client, seats, 'w', "Qh5").await),
        8 => drop(play(client, seats, 'b', "Nf6").await),
        9 => drop(play(client, seats, 'w', "Qxf7#").await),
        _ => return false,
    }
    true
}

/// A watcher that keeps dropping its stream and resuming with `after_seq` sees exactly the
/// events a watcher that never left saw: same seqs, same content, same times.
#[tokio::test]
async fn resume_sees_every_event_exactly_once() {
    let server = start().await;
    let mut client = server.client().await;
    let mut watcher = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;
    let mut steady = watch(&mut client, &seats.id, 0).await;

    let mut seen: Vec<pb::WatchGameResponse> = Vec::new();
    let mut first_snapshot = None;
    let mut last_seq = 0;
    let mut step = 0;
    loop {
        // Play one or two steps while nobody is connected, then reconnect and read one event.
        for _ in 0..(1 + step % 2) {
            if scripted_step(&mut client, &seats, step).await {
                step += 1;
            }
        }
        let Some(snapshot_seq) = first_snapshot else {
            let mut stream = watch(&mut watcher, &seats.id, 0).await;
            let snapshot = next_event(&mut stream).await.unwrap().unwrap();
            assert!(matches!(snapshot.event, Some(Event::Snapshot(_))));
            first_snapshot = Some(snapshot.seq);
            last_seq = snapshot.seq;
            continue;
        };
        assert!(
            snapshot_seq > 0,
            "the first snapshot follows the first step"
        );
        let mut stream = watch(&mut watcher, &seats.id, last_seq).await;
        match next_event(&mut stream).await.unwrap() {
            Some(event) => {
                assert_eq!(event.seq, last_seq + 1, "no gap, no duplicate");
                last_seq = event.seq;
                let over = matches!(event.event, Some(Event::GameOver(_)));
                seen.push(event);
                if over {
                    break;
                }
            }
            None => panic!("stream ended before game over after seq {last_seq}"),
        }
    }
    // The steady watcher saw everything live from seq 1; the resuming one from its snapshot on.
    let steady_events = drain(&mut steady).await;
    assert_eq!(steady_events[0].seq, 0, "snapshot of the new game");
    let from = first_snapshot.unwrap_or_default();
    let live: Vec<_> = steady_events
        .into_iter()
        .skip(1)
        .filter(|e| e.seq > from)
        .collect();
    assert_eq!(seen, live);
    assert_eq!(describe(live.last().unwrap()), "over 1-0");
    assert_eq!(
        live.iter().map(|e| e.seq).collect::<Vec<_>>(),
        (from + 1..=11).collect::<Vec<_>>()
    );
}

/// Replaying a finished game from any seq gives its events to the end, then closes; from its
/// last seq there is nothing; seq 0 gives a snapshot of the finished game and closes.
#[tokio::test]
async fn replay_of_a_finished_game() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;
    let mut step = 0;
    while scripted_step(&mut client, &seats, step).await {
        step += 1;
    }
    let last = get(&mut client, &seats.id).await.last_seq;
    assert_eq!(last, 11, "8 moves, 2 offers, 1 decline, game over");
    let all: Vec<String> = drain(&mut watch(&mut client, &seats.id, 0).await)
        .await
        .iter()
        .map(describe)
        .collect();
    assert_eq!(all, ["snapshot ply 7"]);
    let tail: Vec<String> = drain(&mut watch(&mut client, &seats.id, 8).await)
        .await
        .iter()
        .map(describe)
        .collect();
    assert_eq!(tail, ["move g8f6", "move h5f7", "over 1-0"]);
    assert!(
        drain(&mut watch(&mut client, &seats.id, last).await)
            .await
            .is_empty()
    );
}

/// `after_seq` beyond the game's last event is OUT_OF_RANGE, with the last seq in the details.
#[tokio::test]
async fn after_seq_beyond_the_end() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;
    play(&mut client, &seats, 'w', "e4").await;
    let result = client
        .watch_game(pb::WatchGameRequest {
            game_id: seats.id.clone(),
            after_seq: 5,
        })
        .await;
    let status = assert_refused(result, Code::OutOfRange, "SEQ_OUT_OF_RANGE");
    assert_eq!(
        status.get_details_error_info().unwrap().metadata["last_seq"],
        "1"
    );
}

/// A quiet stream gets a heartbeat carrying the last seq sent (the clock is paused: no wait;
/// off memory the 5 s are real).
#[tokio::test(start_paused = true)]
async fn heartbeat_when_quiet() {
    real_time_off_memory();
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;
    play(&mut client, &seats, 'w', "d4").await;
    // Read before the call: the server's quiet period starts once it has the call, and in
    // real time (off memory) the snapshot reaches us a little after that.
    let before = tokio::time::Instant::now();
    let mut stream = watch(&mut client, &seats.id, 0).await;
    let snapshot = stream.message().await.unwrap().unwrap();
    assert_eq!(snapshot.seq, 1);
    let beat = stream.message().await.unwrap().unwrap();
    assert!(matches!(beat.event, Some(Event::Heartbeat(_))), "{beat:?}");
    assert_eq!(beat.seq, 1);
    assert!(tokio::time::Instant::now() - before >= Duration::from_secs(5));
}

/// Many watchers follow one game; past the per-game limit a watcher is refused with
/// RESOURCE_EXHAUSTED, and a place frees up when a watcher leaves.
#[tokio::test]
async fn many_watchers_and_the_limit() {
    let mut config = ServerConfig::default();
    config.store.limits.max_watchers_per_game = 3;
    let server = start_with(config).await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;
    let mut streams = Vec::new();
    for _ in 0..3 {
        streams.push(watch(&mut client, &seats.id, 0).await);
    }
    let refused = client
        .watch_game(pb::WatchGameRequest {
            game_id: seats.id.clone(),
            after_seq: 0,
        })
        .await;
    assert_refused(refused, Code::ResourceExhausted, "TOO_MANY_WATCHERS");
    play(&mut client, &seats, 'w', "c4").await;
    for stream in &mut streams {
        assert_eq!(
            describe(&next_event(stream).await.unwrap().unwrap()),
            "snapshot ply 0"
        );
        assert_eq!(
            describe(&next_event(stream).await.unwrap().unwrap()),
            "move c2c4"
        );
    }
    drop(streams.pop());
    // The server notices the cancelled stream asynchronously.
    let mut admitted = false;
    for _ in 0..100 {
        if client
            .watch_game(pb::WatchGameRequest {
                game_id: seats.id.clone(),
                after_seq: 1,
            })
            .await
            .is_ok()
        {
            admitted = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(admitted, "a watcher that left frees its place");
}

/// A watcher that does not read is cut off once it is more than the buffer behind, with
/// RESOURCE_EXHAUSTED and the seq to resume from; resuming there yields every later event
/// exactly once. The server never buffers without bound for it.
#[tokio::test]
async fn slow_watcher_is_cut_off_and_resumes() {
    let mut config = ServerConfig::default();
    config.store.limits.watch_buffer = 4;
    let server = start_with(config).await;
    let mut client = server.client().await;
    // A tiny HTTP/2 window: the server can send the slow watcher only a few events ahead.
    let channel = Endpoint::from_shared(server.url())
        .unwrap()
        .initial_stream_window_size(Some(256))
        .connect()
        .await
        .unwrap();
    let mut slow = GameServiceClient::new(channel);
    let (_, seats) = create(&mut client, "chess", "").await;
    let mut stream = watch(&mut slow, &seats.id, 0).await;
    let snapshot = next_event(&mut stream).await.unwrap().unwrap();
    assert_eq!(snapshot.seq, 0);

    // One event read, so the cut-off names a seq to replay from (a watcher cut off before any
    // event resumes from 0, which is a new snapshot, not a replay), then 39 more (offers and
    // declines) while the watcher reads nothing.
    offer_draw(&mut client, &seats, 'w').await;
    let first = next_event(&mut stream).await.unwrap().unwrap();
    let mut seqs = vec![first.seq];
    decline_draw(&mut client, &seats, 'b').await;
    for _ in 1..20 {
        offer_draw(&mut client, &seats, 'w').await;
        decline_draw(&mut client, &seats, 'b').await;
    }
    let status = loop {
        match next_event(&mut stream).await {
            Ok(Some(event)) => seqs.push(event.seq),
            Ok(None) => panic!("stream ended without a cut-off after {seqs:?}"),
            Err(status) => break status,
        }
    };
    assert_eq!(
        (status.code(), reason(&status).as_str()),
        (Code::ResourceExhausted, "WATCHER_TOO_SLOW")
    );
    let resume: u64 = status.get_details_error_info().unwrap().metadata["resume_after_seq"]
        .parse()
        .unwrap();
    assert_eq!(Some(resume), seqs.last().copied());
    assert!(
        status.message().contains(&format!("after_seq {resume}")),
        "{}",
        status.message()
    );
    assert!(
        seqs.len() < 40,
        "the watcher was cut off before getting everything"
    );

    // Resume: the rest, exactly once. End the game so the stream closes.
    let request = authed(
        pb::ResignRequest {
            game_id: seats.id.clone(),
        },
        &seats.black,
    );
    client.resign(request).await.unwrap();
    let mut rest = watch(&mut slow, &seats.id, resume).await;
    seqs.extend(drain(&mut rest).await.iter().map(|e| e.seq));
    assert_eq!(seqs, (1..=41).collect::<Vec<u64>>());
}
