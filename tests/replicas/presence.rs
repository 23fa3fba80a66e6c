//! Presence across replicas: a seat watching on one replica counts as connected for a claim
//! judged on another, every replica's watchers hear it come and go, and a seat whose replica
//! dies is gone once that replica's lease ends.

use std::time::{Duration, Instant};

use chessd::proto::{self as pb, watch_game_response::Event};
use tonic::{Code, Streaming};
use tonic_types::StatusExt;

use crate::common::next_message;
use crate::support::{self, Client, Process, Redis, Seats, authed};

/// A chess game claimable after `claim_after_secs`, White to move after e2e4 e7e5.
async fn game(client: &mut Client, claim_after_secs: i64) -> Seats {
    let created = client
        .create_game(pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            white_player: "ann".into(),
            black_player: "bob".into(),
            claim_after: Some(prost_types::Duration {
                seconds: claim_after_secs,
                nanos: 0,
            }),
            ..Default::default()
        })
        .await
        .expect("create")
        .into_inner();
    let seats = Seats {
        id: created.game.expect("game").game_id,
        white: created.white_token,
        black: created.black_token,
    };
    support::play(client, &seats, 'w', "e2e4").await;
    support::play(client, &seats, 'b', "e7e5").await;
    seats
}

async fn watch_as(
    client: &mut Client,
    seats: &Seats,
    side: char,
) -> Streaming<pb::WatchGameResponse> {
    client
        .watch_game(authed(
            pb::WatchGameRequest {
                game_id: seats.id.clone(),
                after_seq: 0,
            },
            seats.token(side),
        ))
        .await
        .expect("watch as a seat")
        .into_inner()
}

/// The next presence message of `seat`.
async fn presence_of(
    stream: &mut Streaming<pb::WatchGameResponse>,
    seat: pb::Color,
) -> pb::SeatPresence {
    loop {
        let message = next_message(stream)
            .await
            .expect("stream ok")
            .expect("open");
        if let Some(Event::PlayerPresence(p)) = message.event
            && p.seat == seat as i32
        {
            return p.presence.expect("presence");
        }
    }
}

async fn claim(client: &mut Client, seats: &Seats, side: char) -> Result<pb::Game, tonic::Status> {
    client
        .claim_victory(authed(
            pb::ClaimVictoryRequest {
                game_id: seats.id.clone(),
                draw: false,
            },
            seats.token(side),
        ))
        .await
        .map(|r| r.into_inner().game.expect("game"))
}

/// White watches on replica A: replica B shows it connected and refuses Black's claim; B's
/// spectator hears White leave on A and come back; once White is gone for the grace period,
/// Black's claim on B ends the game for the watchers of both replicas.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_and_claims_hold_across_replicas() {
    let redis = Redis::start();
    let (a, b) = (
        support::replica(&redis).await,
        support::replica(&redis).await,
    );
    let (mut on_a, mut on_b) = (a.client().await, b.client().await);
    let seats = game(&mut on_a, 1).await;
    let mut spectator_b = support::watch(&mut on_b, &seats.id, 0).await;
    let mut spectator_a = support::watch(&mut on_a, &seats.id, 0).await;

    let white = watch_as(&mut on_a, &seats, 'w').await;
    assert!(
        presence_of(&mut spectator_b, pb::Color::White)
            .await
            .connected
    );
    let got = support::get(&mut on_b, &seats.id).await.unwrap();
    assert!(got.white_presence.unwrap().connected, "B reads A's lease");
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let refused = claim(&mut on_b, &seats, 'b').await.unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(
        refused.get_details_error_info().unwrap().reason,
        "OPPONENT_CONNECTED"
    );

    drop(white);
    let gone = presence_of(&mut spectator_b, pb::Color::White).await;
    assert!(!gone.connected);
    assert!(gone.claim_at.is_some(), "White is to move");
    let back = watch_as(&mut on_a, &seats, 'w').await;
    assert!(
        presence_of(&mut spectator_b, pb::Color::White)
            .await
            .connected
    );
    drop(back);
    assert!(
        !presence_of(&mut spectator_b, pb::Color::White)
            .await
            .connected
    );

    tokio::time::sleep(Duration::from_millis(1100)).await;
    let game = claim(&mut on_b, &seats, 'b').await.expect("claim on B");
    assert_eq!(
        game.outcome
            .as_ref()
            .map(|o| (o.pgn_result.as_str(), o.termination)),
        Some(("0-1", pb::Termination::Abandonment as i32))
    );
    for stream in [&mut spectator_a, &mut spectator_b] {
        let (_, _, over) = support::until_game_over(stream).await;
        assert_eq!(over.outcome.unwrap().pgn_result, "0-1");
    }
}

/// White watches on a replica that is then killed: the other replica's watchers hear White
/// gone once the dead replica's lease ends (it never says goodbye), gone since about when it
/// died, and Black's claim then holds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_on_a_killed_replica_is_gone_when_its_lease_ends() {
    let redis = Redis::start();
    let doomed = Process::start(&redis);
    let survivor = support::replica(&redis).await;
    let mut on_doomed = support::client_at(doomed.addr).await;
    let mut on_survivor = survivor.client().await;
    let seats = game(&mut on_survivor, 1).await;
    let mut spectator = support::watch(&mut on_survivor, &seats.id, 0).await;
    let _white = watch_as(&mut on_doomed, &seats, 'w').await;
    assert!(
        presence_of(&mut spectator, pb::Color::White)
            .await
            .connected
    );

    let killed = std::time::SystemTime::now();
    let started = Instant::now();
    doomed.kill();
    let gone = loop {
        let p = presence_of(&mut spectator, pb::Color::White).await;
        if !p.connected {
            break p;
        }
    };
    let waited = started.elapsed();
    // The lease (15 s) ends at most one renewal (5 s) after the last one before the kill.
    assert!(
        waited >= Duration::from_secs(9),
        "gone after {waited:?}: too soon for a lease"
    );
    assert!(waited <= Duration::from_secs(25), "gone after {waited:?}");
    let since = gone.since.expect("gone since");
    let since = std::time::UNIX_EPOCH + Duration::new(since.seconds as u64, since.nanos as u32);
    assert!(
        since <= killed,
        "gone since its last renewal, before the kill"
    );
    assert!(killed.duration_since(since).unwrap() <= Duration::from_secs(6));
    let game = claim(&mut on_survivor, &seats, 'b').await.expect("claim");
    assert_eq!(
        game.outcome.unwrap().termination,
        pb::Termination::Abandonment as i32
    );
}
