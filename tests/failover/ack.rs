//! `--redis-min-replicas` move by move, on a primary with one replica: a change the replica
//! does not confirm is refused NOT_REPLICATED and kept from watchers, its retry with the same
//! request id is refused the same way until the replica confirms, then answers the one move
//! played; `--redis-replica-fsync` on a Redis without WAITAOF is NOT_SERVING.

use std::time::Duration;

use chessd::proto as pb;
use chessd::store::{RedisTopology, ReplicaAck};
use tokio::time::timeout;
use tonic::Code;
use tonic_health::pb::health_check_response::ServingStatus;

use crate::common::redis::Redis;
use crate::common::{reason, wait_for_health};
use crate::support::{self, next_event, replica_with, start_replica};

/// A primary and its replica, in sync.
fn primary_with_replica() -> (Redis, Redis) {
    let primary = Redis::start();
    let replica = crate::common::topology::replica_of(&primary);
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while crate::common::topology::info_field(&replica, "replication", "master_link_status")
        .as_deref()
        != Some("up")
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the replica never synced"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (primary, replica)
}

/// A chessd replica on `primary` with `--redis-min-replicas 1`.
async fn waiting_for_one_replica(primary: &Redis) -> crate::support::Replica {
    replica_with(crate::config(
        primary.url(),
        RedisTopology::Single,
        Some(crate::ONE_REPLICA),
    ))
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unconfirmed_move_is_refused_and_its_retry_plays_it_once() {
    let (primary, replica) = primary_with_replica();
    let server = waiting_for_one_replica(&primary).await;
    let mut c = server.client().await;
    let seats = support::create(&mut c, None).await;
    let mut watcher = support::watch(&mut c, &seats.id, 0).await;
    assert_eq!(
        support::describe(&next_event(&mut watcher).await.unwrap().unwrap()),
        "snapshot ply 0"
    );

    // The replica stops answering: the move reaches the primary, but is not acknowledged.
    replica.freeze();
    let refused = support::submit(&mut c, &seats, 'w', "e2e4", Some(0), "r1")
        .await
        .expect_err("unconfirmed");
    assert_eq!(
        (refused.code(), reason(&refused).as_str()),
        (Code::Unavailable, "NOT_REPLICATED"),
        "{refused:?}"
    );
    let info = tonic_types::StatusExt::get_details_error_info(&refused).unwrap();
    assert_eq!(info.metadata["replicas_required"], "1");
    assert_eq!(info.metadata["replicas_confirmed"], "0");
    // Its retry finds the move on the primary, and still cannot acknowledge it.
    let again = support::submit(&mut c, &seats, 'w', "e2e4", Some(0), "r1")
        .await
        .expect_err("still unconfirmed");
    assert_eq!(reason(&again), "NOT_REPLICATED", "{again:?}");
    // Watchers are sent only what the replicas hold.
    assert!(
        timeout(Duration::from_millis(1500), next_event(&mut watcher))
            .await
            .is_err(),
        "a watcher was sent an unconfirmed move"
    );

    replica.thaw();
    let answered = support::submit(&mut c, &seats, 'w', "e2e4", Some(0), "r1")
        .await
        .expect("confirmed once the replica answers");
    assert_eq!(answered.r#move.unwrap().uci, "e2e4");
    let game = support::get(&mut c, &seats.id).await.unwrap();
    assert_eq!(game.ply, 1, "played once");
    let event = next_event(&mut watcher).await.unwrap().unwrap();
    assert_eq!(support::describe(&event), "move e2e4");
    assert_eq!(event.seq, 1);
    // And the replica holds it.
    let stream = format!("events:{}", seats.id);
    let held = replica.command(&["KEYS", &format!("*{stream}")]);
    assert!(held.contains(&stream), "the replica lacks the game: {held}");
    support::play(&mut c, &seats, 'b', "e7e5").await;
}

/// A creation and a player token are changes too: refused while unconfirmed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creations_wait_for_the_replicas_too() {
    let (primary, replica) = primary_with_replica();
    let server = waiting_for_one_replica(&primary).await;
    let mut c = server.client().await;
    replica.freeze();
    let request = pb::CreateGameRequest {
        variant: pb::Variant::Chess as i32,
        request_id: "c1".into(),
        ..Default::default()
    };
    let refused = c
        .create_game(request.clone())
        .await
        .expect_err("unconfirmed");
    assert_eq!(reason(&refused), "NOT_REPLICATED", "{refused:?}");
    replica.thaw();
    let created = c
        .create_game(request)
        .await
        .expect("confirmed")
        .into_inner();
    assert!(!created.white_token.is_empty());
    let listed = c
        .list_games(pb::ListGamesRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.games.len(), 1, "created once");
}

/// `--redis-replica-fsync` needs WAITAOF (Redis 7.2): on a Redis without it the replica is
/// never ready, rather than failing every change.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replica_fsync_without_waitaof_is_not_serving() {
    let redis = Redis::start();
    let version = redis.command(&["INFO", "server"]);
    let known = redis.command(&["COMMAND", "INFO", "WAITAOF"]);
    // An unknown command's entry is a nil.
    let has_waitaof = !(known.starts_with("*1\r\n$-1") || known.starts_with("*1\r\n*-1"));
    if has_waitaof {
        eprintln!("this Redis has WAITAOF ({version:.60}): nothing to refuse");
        return;
    }
    let server = start_replica(crate::config(
        redis.url(),
        RedisTopology::Single,
        Some(ReplicaAck {
            fsync: true,
            ..crate::ONE_REPLICA
        }),
    ))
    .await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    wait_for_health(server.addr, ServingStatus::NotServing).await;
}
