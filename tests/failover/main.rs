//! Failover tests: chessd on Redis with replicas, the way deployments that outgrow one
//! machine run it, while primaries die under load. A Redis Cluster of three primaries with a
//! replica each has a primary SIGKILLed three times in a row (its replica cut off for 300 ms
//! first, as when a machine dies, so the replica is behind) and the dead node restarted as a
//! replica; a primary with a replica under three Sentinels has its primary SIGKILLed and
//! brought back. With `--redis-min-replicas 1` no acknowledged move is lost, no ply is
//! answered with two moves, every watcher's stream resumes with no gap and no duplicate, and
//! every game goes on; without it the same load reports (prints, does not assert) what a
//! failover loses, and every game still goes on. Needs `redis-server`, `redis-cli` and
//! Redis's Sentinel (`redis-server --sentinel`) on PATH.

mod ack;
mod cluster;
#[path = "../common/mod.rs"]
mod common;
mod load;
mod sentinel;
#[path = "../replicas/support.rs"]
#[allow(dead_code, unused_imports)]
mod support;

use std::time::Duration;

use chessd::ServerConfig;
use chessd::store::{Backend, RedisConfig, RedisTopology, ReplicaAck};

/// What the option-on runs wait for: one replica, at most half a second.
pub const ONE_REPLICA: ReplicaAck = ReplicaAck {
    replicas: 1,
    timeout: Duration::from_millis(500),
    fsync: false,
};

/// A replica's configuration on `url` (seeds or Sentinels) with `ack`, without rate limits
/// (the load is many calls from one address).
pub fn config(url: String, topology: RedisTopology, ack: Option<ReplicaAck>) -> ServerConfig {
    let mut config = ServerConfig::default();
    config.store.backend = Backend::Redis(RedisConfig { url, topology, ack });
    config.security.rate_limits = false;
    config
}

/// One line for the test's output: what the load saw.
pub fn report(what: &str, verdict: &load::Verdict, ledger: &load::Ledger) {
    use std::sync::atomic::Ordering;
    eprintln!(
        "{what}: {} games ({} lost), {} acknowledged moves, {} lost, {} plies forked, {} watch faults, \
         {} watched moves lost, {} watch streams interrupted, {} stuck games; \
         {} calls retried ({} NOT_REPLICATED)",
        verdict.games,
        verdict.games_lost,
        verdict.acked,
        verdict.lost,
        verdict.forks.len(),
        verdict.watch_faults.len(),
        verdict.watched_lost,
        verdict.interrupted,
        verdict.stuck.len(),
        ledger.retries.load(Ordering::Relaxed),
        ledger.not_replicated.load(Ordering::Relaxed),
    );
}
