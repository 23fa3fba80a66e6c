//! A Redis Cluster with a replica per primary: three failovers in a row under load.

use std::time::Duration;

use chessd::store::{RedisTopology, ReplicaAck};

use crate::common::topology::ReplicatedCluster;
use crate::load::Load;
use crate::support::replica_with;

/// Kills a primary three times in a row, its replica cut off for 300 ms before (so it is
/// behind when promoted), and restarts the dead node, which joins as a replica; returns the
/// verdict of a fresh replica on what the load was told.
async fn three_failovers(ack: Option<ReplicaAck>) -> (crate::load::Verdict, String) {
    let mut cluster = ReplicatedCluster::start();
    let urls = cluster.urls();
    let config = || crate::config(urls.clone(), RedisTopology::Cluster, ack);
    let a = replica_with(config()).await;
    let b = replica_with(config()).await;
    let load = Load::start(vec![a.addr, b.addr], 16).await;
    assert!(
        load.progress(150, Duration::from_secs(60)).await,
        "the load did not start"
    );
    for round in 0..3 {
        let primaries = cluster.primaries();
        let victim = primaries[round % primaries.len()];
        let behind = cluster
            .replica_of(victim)
            .expect("the victim has a replica");
        // Cut off, as when the machine's link goes: the replica stops, and the primary drops
        // its replication link (what it sent before is in the replica's socket and arrives;
        // nothing after does).
        cluster.nodes[behind].freeze();
        cluster.nodes[victim].command(&["CLIENT", "KILL", "TYPE", "replica"]);
        tokio::time::sleep(Duration::from_millis(300)).await;
        cluster.nodes[victim].kill();
        cluster.nodes[behind].thaw();
        let waited = tokio::task::block_in_place(|| {
            let started = std::time::Instant::now();
            cluster.wait_for_failover(victim, Duration::from_secs(30));
            started.elapsed()
        });
        eprintln!(
            "failover {round}: node {victim} killed, replica {behind} promoted in {waited:?}"
        );
        assert!(
            load.progress(50, Duration::from_secs(60)).await,
            "play did not resume after failover {round}"
        );
        cluster.nodes[victim].revive();
        tokio::task::block_in_place(|| cluster.wait_until_healthy(Duration::from_secs(60)));
        assert!(
            load.progress(100, Duration::from_secs(60)).await,
            "play did not go on after node {victim} came back as a replica"
        );
    }
    let ledger = load.stop().await;
    let fresh = replica_with(config()).await;
    let verdict = ledger.verify(fresh.addr).await;
    let summary = format!("{verdict:?}");
    crate::report(
        if ack.is_some() {
            "cluster, --redis-min-replicas 1"
        } else {
            "cluster, no --redis-min-replicas"
        },
        &verdict,
        &ledger,
    );
    (verdict, summary)
}

/// With `--redis-min-replicas 1`: nothing acknowledged is lost, nothing forks, watchers see
/// every event once, every game goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn cluster_failovers_lose_nothing_acknowledged() {
    let (verdict, summary) = three_failovers(Some(crate::ONE_REPLICA)).await;
    assert!(verdict.acked > 300, "{summary}");
    verdict.assert_nothing_lost();
}

/// Without the option the failovers may lose acknowledged moves (reported, for the docs), but
/// every game goes on: no replica acts on a copy of a game that Redis no longer holds.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn cluster_failovers_without_the_option_report_losses_and_go_on() {
    let (verdict, summary) = three_failovers(None).await;
    assert!(verdict.acked > 300, "{summary}");
    assert!(verdict.stuck.is_empty(), "{summary}");
}

/// A game whose flag falls while its primary is dead: the sweep on the promoted replica ends
/// it once, on time, with the replica that saw its last move still up (the deadline was
/// replicated with the move that set it).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_flag_falls_once_across_a_failover() {
    let mut cluster = ReplicatedCluster::start();
    let config = crate::config(
        cluster.urls(),
        RedisTopology::Cluster,
        Some(crate::ONE_REPLICA),
    );
    let server = replica_with(config).await;
    let mut c = server.client().await;
    let seats = crate::support::create(&mut c, Some(crate::support::tc(4, 0))).await;
    crate::support::play(&mut c, &seats, 'w', "e2e4").await;
    crate::support::play(&mut c, &seats, 'b', "e7e5").await;
    let last = crate::support::play(&mut c, &seats, 'w', "g1f3").await;
    let last_seq = last.game.expect("game").last_seq;
    // The primary that holds the game dies at once; Black's clock runs out meanwhile.
    let bucket = chessd_bucket_key(&seats.id);
    let holder = cluster
        .primaries()
        .into_iter()
        .find(|&i| {
            cluster.nodes[i]
                .command(&["EXISTS", &bucket])
                .starts_with(":1")
        })
        .expect("a primary holds the game");
    cluster.nodes[holder].kill();
    tokio::task::block_in_place(|| cluster.wait_for_failover(holder, Duration::from_secs(30)));
    // The promoted replica confirms nothing until a replica of its own is back: the dead node
    // returns as one (watchers are sent only what a replica holds).
    cluster.nodes[holder].revive();
    tokio::task::block_in_place(|| cluster.wait_until_healthy(Duration::from_secs(60)));
    let mut watcher = loop {
        match c
            .watch_game(chessd::proto::WatchGameRequest {
                game_id: seats.id.clone(),
                after_seq: last_seq,
            })
            .await
        {
            Ok(w) => break w.into_inner(),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    };
    let (before, _, over) = crate::support::until_game_over(&mut watcher).await;
    assert!(before.is_empty(), "events before the flag: {before:?}");
    let outcome = over.outcome.expect("outcome");
    assert_eq!(
        outcome.termination,
        chessd::proto::Termination::TimeForfeit as i32
    );
    assert_eq!(outcome.pgn_result, "1-0");
    assert_eq!(
        crate::support::drain(&mut watcher).await,
        [],
        "nothing after the game-over event"
    );
    // Judged once: one game-over event in the game's stream.
    let game = crate::support::get(&mut c, &seats.id).await.unwrap();
    assert_eq!(game.last_seq, last_seq + 1);
}

/// The key of game `id`'s hash (`keys::game_key`): its bucket's hash tag, then the id.
fn chessd_bucket_key(id: &str) -> String {
    let parsed: chessd::game::GameId = id.parse().expect("a game id");
    let bucket = parsed.get() % 16;
    format!("{{chessd:b{bucket:02}}}:game:{id}")
}
