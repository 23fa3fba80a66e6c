//! One primary with a replica under three Sentinels: chessd finds the primary through them and
//! follows two failovers by itself.

use std::time::Duration;

use chessd::store::{RedisTopology, ReplicaAck};
use tonic_health::pb::health_check_response::ServingStatus;

use crate::common::topology::Sentinels;
use crate::load::Load;
use crate::support::replica_with;

async fn two_failovers(ack: Option<ReplicaAck>) -> crate::load::Verdict {
    let mut set = Sentinels::start();
    let urls = set.urls();
    let config = || {
        crate::config(
            urls.clone(),
            RedisTopology::Sentinel {
                master: Sentinels::MASTER.into(),
            },
            ack,
        )
    };
    let a = replica_with(config()).await;
    let b = replica_with(config()).await;
    let load = Load::start(vec![a.addr, b.addr], 16).await;
    assert!(
        load.progress(150, Duration::from_secs(60)).await,
        "the load did not start"
    );
    for round in 0..2 {
        let victim = set.primary().expect("a primary");
        let behind = 1 - victim;
        // Cut off, as when the machine's link goes: the replica stops, and the primary drops
        // its replication link (what it sent before is in the replica's socket and arrives;
        // nothing after does).
        set.data[behind].freeze();
        set.data[victim].command(&["CLIENT", "KILL", "TYPE", "replica"]);
        tokio::time::sleep(Duration::from_millis(300)).await;
        set.data[victim].kill();
        set.data[behind].thaw();
        let promoted =
            tokio::task::block_in_place(|| set.wait_for_failover(victim, Duration::from_secs(30)));
        eprintln!("failover {round}: data node {victim} killed, {promoted} promoted");
        a.wait_for(ServingStatus::Serving).await;
        let port = set.data[promoted].port;
        set.data[victim].revive_as_replica_of(port);
        tokio::task::block_in_place(|| set.wait_until_replicated(Duration::from_secs(60)));
        assert!(
            load.progress(100, Duration::from_secs(60)).await,
            "play did not resume after failover {round}"
        );
    }
    let ledger = load.stop().await;
    let fresh = replica_with(config()).await;
    let verdict = ledger.verify(fresh.addr).await;
    crate::report(
        if ack.is_some() {
            "sentinel, --redis-min-replicas 1"
        } else {
            "sentinel, no --redis-min-replicas"
        },
        &verdict,
        &ledger,
    );
    verdict
}

/// With `--redis-min-replicas 1`: nothing acknowledged is lost, nothing forks, watchers see
/// every event once, every game goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sentinel_failovers_lose_nothing_acknowledged() {
    let verdict = two_failovers(Some(crate::ONE_REPLICA)).await;
    let summary = format!("{verdict:?}");
    assert!(verdict.acked > 250, "{summary}");
    verdict.assert_nothing_lost();
}

/// Without the option: losses reported, every game goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sentinel_failovers_without_the_option_report_losses_and_go_on() {
    let verdict = two_failovers(None).await;
    let summary = format!("{verdict:?}");
    assert!(verdict.acked > 250, "{summary}");
    assert!(verdict.stuck.is_empty(), "{summary}");
}
