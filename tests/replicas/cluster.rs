//! Replicas on a real Redis Cluster (three primaries started by the test, every slot
//! assigned, `--redis-cluster`): games spread over every primary, and play, watching, lists,
//! statistics, races and flags keep the promises they keep on one Redis.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use chessd::proto as pb;
use tonic::Code;
use tonic_health::pb::health_check_response::ServingStatus;

use crate::support::{self, Cluster, Replica};

async fn replicas(cluster: &Cluster) -> [Replica; 2] {
    [
        support::cluster_replica(cluster).await,
        support::cluster_replica(cluster).await,
    ]
}

/// A game played across two replicas on the cluster: each replica's watchers see every
/// event once and in order; GetGame, ListGames and GetStats agree on both. Then games made
/// on both replicas until every primary holds some (the buckets' hash tags spread them),
/// and ListGames pages through all of them newest first, without a gap or a repeat,
/// whichever replica serves each page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_and_lists_across_replicas_on_a_cluster() {
    let cluster = Cluster::start();
    let replicas = replicas(&cluster).await;
    crate::play::play_across(&replicas).await;

    let (mut c0, mut c1) = (replicas[0].client().await, replicas[1].client().await);
    let first = c0
        .list_games(pb::ListGamesRequest::default())
        .await
        .expect("list")
        .into_inner();
    let mut ids: Vec<String> = first.games.into_iter().map(|g| g.game_id).collect();
    for i in 0..200 {
        if i >= 8 && cluster.keys_per_node().iter().all(|&k| k > 0) {
            break;
        }
        let c = if i % 2 == 0 { &mut c0 } else { &mut c1 };
        ids.push(support::create(c, None).await.id);
    }
    let per_node = cluster.keys_per_node();
    assert!(
        per_node.iter().all(|&k| k > 0),
        "games on every primary: {per_node:?}"
    );
    // Fixed-width base32 ids: text order is id order, newest last.
    ids.sort_unstable();
    ids.reverse();
    let listed = support::list_all(&mut c0, &mut c1, 3).await;
    assert_eq!(listed, ids, "pages on {} games", ids.len());
    let unique: HashSet<&String> = listed.iter().collect();
    assert_eq!(unique.len(), listed.len());
}

/// Different moves for one ply sent at once to two replicas on the cluster: exactly one is
/// played, the other refused as on one Redis.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_replicas_on_a_cluster_one_winner_per_ply() {
    let cluster = Cluster::start();
    let [r0, r1] = replicas(&cluster).await;
    crate::race::one_winner_per_ply(&r0, &r1, 8).await;
}

/// A flag falls on the cluster with no call to the game: the replicas' deadline sweep ends it
/// on time, once; a watcher on the other replica sees the time forfeit, and both replicas
/// count the win once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_flag_falls_on_a_cluster() {
    let cluster = Cluster::start();
    let [r0, r1] = replicas(&cluster).await;
    let (mut c0, mut c1) = (r0.client().await, r1.client().await);
    let seats = support::create(&mut c0, Some(support::tc(1, 0))).await;
    let mut watcher = support::watch(&mut c1, &seats.id, 0).await;
    let moved = support::play(&mut c0, &seats, 'w', "e2e4").await;
    let moved_at = Instant::now();
    let black_left = moved
        .game
        .and_then(|g| g.clocks)
        .and_then(|c| c.black_remaining)
        .map_or(0.0, |d| d.seconds as f64 + f64::from(d.nanos) / 1e9);
    assert!(black_left > 0.5, "black has its second: {black_left}");

    let (seen, _, over) = support::until_game_over(&mut watcher).await;
    let outcome = over.outcome.expect("outcome");
    let waited = moved_at.elapsed();
    assert_eq!(seen, ["snapshot ply 0", "move e2e4"]);
    assert_eq!(outcome.termination, pb::Termination::TimeForfeit as i32);
    assert_eq!(outcome.pgn_result, "1-0");
    assert!(
        waited >= Duration::from_secs_f64(black_left - 0.05) && waited < Duration::from_secs(3),
        "the flag fell {waited:?} after the move, black had {black_left} s"
    );
    assert!(
        support::next_event(&mut watcher)
            .await
            .expect("stream")
            .is_none(),
        "the stream ends after the game-over event"
    );
    for c in [&mut c0, &mut c1] {
        let game = support::get(c, &seats.id).await.expect("get");
        assert_eq!(game.status, pb::GameStatus::Finished as i32);
        assert_eq!(game.last_seq, 2, "one move, one game-over event");
        let stats = c
            .get_stats(pb::GetStatsRequest::default())
            .await
            .expect("stats")
            .into_inner();
        let chess = &stats.variants[0];
        assert_eq!(
            (chess.finished_games, chess.white_wins),
            (1, 1),
            "{chess:?}"
        );
    }
}

/// A primary killed: once the cluster marks it failed, every slot is refused (CLUSTERDOWN, or
/// the dead node's connection errors), so calls fail UNAVAILABLE / STORE_UNAVAILABLE and
/// health turns NOT_SERVING; the node restarted (same port, node file and append-only file),
/// the cluster heals and the replicas serve again by themselves, with every acknowledged move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_primary_is_unavailable_then_heals() {
    let mut cluster = Cluster::start_durable();
    let [r0, r1] = replicas(&cluster).await;
    let (mut c0, mut c1) = (r0.client().await, r1.client().await);
    let seats = support::create(&mut c0, None).await;
    support::play(&mut c1, &seats, 'w', "e2e4").await;

    cluster.nodes[0].kill();
    r0.wait_for(ServingStatus::NotServing).await;
    r1.wait_for(ServingStatus::NotServing).await;
    let refused = support::submit(&mut c0, &seats, 'b', "e7e5", Some(1), "down-1")
        .await
        .expect_err("no cluster, no move");
    assert_eq!(
        (refused.code(), support::reason(&refused).as_str()),
        (Code::Unavailable, "STORE_UNAVAILABLE"),
        "{}",
        refused.message()
    );

    // Both block this worker thread while the node loads and the cluster agrees.
    tokio::task::block_in_place(|| {
        cluster.nodes[0].restart();
        cluster.wait_until_ok();
    });
    r0.wait_for(ServingStatus::Serving).await;
    r1.wait_for(ServingStatus::Serving).await;
    let played = support::submit(&mut c1, &seats, 'b', "e7e5", Some(1), "down-1")
        .await
        .expect("the retry after the outage");
    assert_eq!(played.r#move.expect("move").seq, 2);
    let game = support::get(&mut c0, &seats.id).await.expect("get");
    let moves: Vec<_> = game.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(moves, ["e2e4", "e7e5"], "acknowledged moves survive");
}

/// A replica started on cluster nodes that are not yet a cluster says NOT_SERVING, and serves
/// by itself once the operator forms the cluster.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replica_started_before_the_cluster_is_formed() {
    let cluster = tokio::task::block_in_place(|| Cluster::unformed(false));
    let replica = support::start_replica(support::cluster_config(&cluster)).await;
    replica.wait_for(ServingStatus::NotServing).await;
    tokio::task::block_in_place(|| cluster.form());
    replica.wait_for(ServingStatus::Serving).await;
    let mut client = replica.client().await;
    let seats = support::create(&mut client, None).await;
    support::play(&mut client, &seats, 'w', "e2e4").await;
}

/// Watchers on the cluster are told of each move by pub/sub (the scripts' PUBLISH, relayed to
/// every node), not only by the 2 s resync: every move reaches the other replica's watcher
/// within half a second.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watchers_are_notified_across_the_cluster() {
    let cluster = Cluster::start();
    let [r0, r1] = replicas(&cluster).await;
    let (mut c0, mut c1) = (r0.client().await, r1.client().await);
    let seats = support::create(&mut c0, None).await;
    let mut watcher = support::watch(&mut c1, &seats.id, 0).await;
    let first = support::next_event(&mut watcher).await.expect("stream");
    assert_eq!(
        first.map(|e| support::describe(&e)).as_deref(),
        Some("snapshot ply 0")
    );
    let moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"];
    for (i, mv) in moves.iter().enumerate() {
        let side = if i % 2 == 0 { 'w' } else { 'b' };
        support::play(&mut c0, &seats, side, mv).await;
        let event = tokio::time::timeout(
            Duration::from_millis(500),
            support::next_event(&mut watcher),
        )
        .await
        .unwrap_or_else(|_| panic!("{mv} not delivered within 500 ms"))
        .expect("stream")
        .expect("an event");
        assert_eq!(support::describe(&event), format!("move {mv}"));
    }
}
