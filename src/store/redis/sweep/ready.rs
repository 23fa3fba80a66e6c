//! The readiness probe: every [`PROBE_PERIOD`] a PING (on a Cluster, `CLUSTER INFO` saying
//! `cluster_state:ok`: every slot has a primary; through Sentinels, `ROLE` saying the server
//! is still the primary, else the connection asks the Sentinels again) and a look for keys
//! of the layout before buckets; the result is the store's readiness (health SERVING or
//! NOT_SERVING). With `--redis-replica-fsync` it also checks that Redis knows `WAITAOF`. Old-layout
//! keys keep a replica NOT_SERVING, with an error in the log, and make it refuse every call
//! (UNAVAILABLE): their games would be invisible to this version, and serving beside them
//! would look like losing them.

use std::sync::Weak;
use std::sync::atomic::Ordering;
use std::time::Duration;

use ::redis::RedisError;

use crate::store::redis::conn::Conn;
use crate::store::redis::keys;
use crate::store::redis::state::Inner;

/// How often Redis is probed.
pub(super) const PROBE_PERIOD: Duration = Duration::from_millis(500);

/// Why a probe found the store not ready.
enum Down {
    Redis(RedisError),
    ClusterState(String),
    NotPrimary(String),
    NoWaitAof,
    OldLayout(u64),
}

impl std::fmt::Display for Down {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Down::Redis(e) => write!(f, "{e}"),
            Down::ClusterState(state) => write!(f, "redis cluster state is {state:?}, not ok"),
            Down::NotPrimary(role) => write!(
                f,
                "the server the sentinels named is a {role} now (a failover): asking them again"
            ),
            Down::NoWaitAof => f.write_str(
                "--redis-replica-fsync needs WAITAOF, which this Redis does not know (Redis 7.2 or later has it)",
            ),
            Down::OldLayout(n) => write!(
                f,
                "redis holds {n} key(s) of the key layout before buckets ({}): finish or \
                 delete those games with the chessd version that wrote them, or use another \
                 Redis; this version will not serve beside them",
                keys::OLD_LAYOUT_KEYS.join(", ")
            ),
        }
    }
}

/// One probe: Redis answers, a Cluster has every slot served, and no old-layout key exists.
async fn check(inner: &Inner) -> Result<(), Down> {
    let mut conn = inner.conn();
    if inner.conn.is_cluster() {
        let info: String = ::redis::cmd("CLUSTER")
            .arg("INFO")
            .query_async(&mut conn)
            .await
            .map_err(Down::Redis)?;
        let state = info
            .lines()
            .find_map(|l| l.trim().strip_prefix("cluster_state:"))
            .unwrap_or("unknown");
        if state != "ok" {
            return Err(Down::ClusterState(state.to_owned()));
        }
    } else if matches!(inner.conn, Conn::Sentinel(_)) {
        let role: Vec<::redis::Value> = ::redis::cmd("ROLE")
            .query_async(&mut conn)
            .await
            .map_err(Down::Redis)?;
        let role = match role.first() {
            Some(::redis::Value::BulkString(name)) => String::from_utf8_lossy(name).into_owned(),
            Some(::redis::Value::SimpleString(name)) => name.clone(),
            _ => "server of unknown role".to_owned(),
        };
        if role != "master" {
            inner.conn.not_primary();
            return Err(Down::NotPrimary(role));
        }
    } else {
        ::redis::cmd("PING")
            .query_async::<String>(&mut conn)
            .await
            .map_err(Down::Redis)?;
    }
    if inner.acks.as_ref().is_some_and(|a| a.need().fsync) {
        let known: Vec<::redis::Value> = ::redis::cmd("COMMAND")
            .arg("INFO")
            .arg("WAITAOF")
            .query_async(&mut conn)
            .await
            .map_err(Down::Redis)?;
        if known
            .first()
            .is_none_or(|v| matches!(v, ::redis::Value::Nil))
        {
            return Err(Down::NoWaitAof);
        }
    }
    // EXISTS over keys of several slots: the cluster client splits it by slot and adds up.
    let old: u64 = ::redis::cmd("EXISTS")
        .arg(&keys::OLD_LAYOUT_KEYS[..])
        .query_async(&mut conn)
        .await
        .map_err(Down::Redis)?;
    if old > 0 {
        return Err(Down::OldLayout(old));
    }
    Ok(())
}

/// Sets the store's readiness from a [`check`] every [`PROBE_PERIOD`].
pub(crate) async fn probe(inner: Weak<Inner>) {
    let mut tick = tokio::time::interval(PROBE_PERIOD);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // Logged on a change only, and once for the first answer: a store that is never ready
    // (a Redis down from the start, a missing WAITAOF) says why.
    let mut told = None;
    let mut replicas_short = false;
    loop {
        tick.tick().await;
        let Some(inner) = inner.upgrade() else { return };
        let answer = check(&inner).await;
        match &answer {
            Ok(()) => inner.old_layout.store(false, Ordering::Relaxed),
            Err(Down::OldLayout(_)) => inner.old_layout.store(true, Ordering::Relaxed),
            // Redis did not answer: what the last answer said still holds.
            Err(_) => {}
        }
        let up = answer.is_ok();
        if told != Some(up) {
            match &answer {
                Ok(()) => tracing::info!("redis reachable: serving"),
                Err(e @ (Down::OldLayout(_) | Down::NoWaitAof)) => {
                    tracing::error!(error = %e, "not serving");
                }
                Err(e) => tracing::warn!(error = %e, "redis unreachable: not serving"),
            }
            told = Some(up);
        }
        inner.ready.send_if_modified(|ready| {
            let changed = *ready != up;
            *ready = up;
            changed
        });
        if up && let Some(short) = replicas_missing(&inner).await {
            if short.is_some() != replicas_short
                && let Some((connected, required)) = short
            {
                tracing::warn!(
                    connected,
                    required,
                    "fewer redis replicas connected than --redis-min-replicas: changes fail NOT_REPLICATED until they are back"
                );
            }
            replicas_short = short.is_some();
        }
    }
}

/// With `--redis-min-replicas` on one primary (alone or through Sentinels): `Some(None)`
/// while enough replicas are connected, `Some(Some((connected, required)))` while too few
/// are; `None` when there is nothing to check or no answer (a Cluster's primaries are
/// checked by each change's WAIT alone).
async fn replicas_missing(inner: &Inner) -> Option<Option<(u32, u32)>> {
    let required = inner.acks.as_ref()?.need().replicas;
    if inner.conn.is_cluster() {
        return None;
    }
    let info: String = ::redis::cmd("INFO")
        .arg("replication")
        .query_async(&mut inner.conn())
        .await
        .ok()?;
    let connected: u32 = info
        .lines()
        .find_map(|l| l.trim().strip_prefix("connected_slaves:"))
        .and_then(|n| n.parse().ok())?;
    Some((connected < required).then_some((connected, required)))
}
