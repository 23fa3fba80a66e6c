//! The Redis store's background work, run by every replica: the readiness probe, the
//! deadline sweep and the finished-games sweep. Each task holds the store weakly and stops
//! with it.
//!
//! - **Probe**: every [`PROBE_PERIOD`] a PING (on a Cluster, `CLUSTER INFO` saying
//!   `cluster_state:ok`: every slot has a primary; through Sentinels, `ROLE` saying the server
//!   is still the primary, else the connection asks the Sentinels again) and a look for keys
//!   of the layout before buckets; the result is the store's readiness (health SERVING or
//!   NOT_SERVING). With `--redis-replica-fsync` it also checks that Redis knows `WAITAOF`. Old-layout
//!   keys keep a replica NOT_SERVING, with an error in the log, and make it refuse every call
//!   (UNAVAILABLE): their games would be invisible to this version, and serving beside them
//!   would look like losing them.
//! - **Deadlines** (flags and `--abandon-after`): a game's deadline is the earlier of its
//!   flag and its abandonment (the last move's wall time plus `--abandon-after`). Every
//!   [`FLAG_PERIOD`] a replica reads the deadlines that have passed and tries to end those
//!   games. Ending one is an ordinary compare-and-append on the seq the replica read, so when
//!   several replicas sweep the same deadline exactly one appends the time forfeit or the
//!   abandonment and the others find the game changed. No replica owns a game: a game ends on
//!   time as long as any replica runs. The sweep reads the oldest due entries first, a batch
//!   at a time, so an entry that stays due without its game ending would be read again every
//!   sweep and, once a batch is full of them, hide the real deadlines behind it. So every due
//!   entry leaves the due range: a game that does not end (its deadline is later than the
//!   entry said, e.g. after `--abandon-after` was raised or turned off, or a clock skew) gets
//!   its entry rewritten to its true deadline, or removed when it has none (`REDEADLINE`,
//!   only if the game is still at the seq the sweep read, so a concurrent append's deadline
//!   stands); a damaged game's entry is moved to `+inf`, logged once, and left for an
//!   operator.
//! - **Finished games**: beyond `--max-finished-games`, and past `--retention`, the oldest
//!   finished games are deleted (their keys, their place in the list). The limit is the
//!   deployment's: the oldest across every bucket go first. Result counts are kept apart and
//!   stay. Counting, choosing and deleting are separate round trips, so two replicas trimming
//!   at once would each delete the same excess, different games, and leave fewer than the
//!   limit: a replica trims only while it holds a lease (`SET NX PX` on [`TRIM_LEASE_KEY`]),
//!   skips the tick without it, and gives it back when done. The next holder counts after the
//!   last one's deletes. A holder that finds [`TRIM_LEASE`]/2 gone before a delete stops there
//!   rather than delete after its lease may have passed to another replica. A game's label
//!   index entries go with it.
//! - **Feed**: under the same lease, each bucket's feed lane is trimmed to `--feed-retention`
//!   and to its share of `--feed-max-events` (`FEED_TRIM`, which records the last id it
//!   trimmed: what makes an older cursor refused rather than gapped).
//!
//! Every bucket (`keys::BUCKETS`) is swept by every replica, one command per bucket: the
//! buckets are in different cluster slots.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant, SystemTime};

use ::redis::RedisError;

use crate::error::ServiceError;
use crate::game::{GameId, Labels, epoch_ms};
use crate::store::redis::codec::deadline_ms;
use crate::store::redis::conn::Conn;
use crate::store::redis::keys;
use crate::store::redis::keys::BUCKETS;
use crate::store::redis::scripts;
use crate::store::redis::state::{Inner, unavailable};

/// How often Redis is probed.
pub const PROBE_PERIOD: Duration = Duration::from_millis(500);
/// How often passed deadlines are looked for: a flag falls (or an abandoned game ends) at most
/// this late, plus a call.
pub const FLAG_PERIOD: Duration = Duration::from_millis(50);
/// Deadlines handled per sweep at most (the next sweep takes the rest).
const FLAG_BATCH: usize = 256;
/// How often finished games are trimmed.
const FINISHED_PERIOD: Duration = Duration::from_secs(1);
/// Finished games deleted per trim at most.
const FINISHED_BATCH: usize = 1024;
/// The finished-games trim lease: one replica trims at a time. Not a bucket's key: it is a
/// lone key in its own slot, read and written by single-key commands only.
const TRIM_LEASE_KEY: &str = "{chessd:trim}";
/// How long the lease lasts if its holder never gives it back (it died mid-trim). Far longer
/// than a trim's few dozen round trips; a holder stops deleting at half of it.
const TRIM_LEASE: Duration = Duration::from_secs(10);

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
pub async fn probe(inner: Weak<Inner>) {
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

/// Ends the games whose deadline (flag or abandonment) passed.
pub async fn flags(inner: Weak<Inner>) {
    let mut tick = tokio::time::interval(FLAG_PERIOD);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(inner) = inner.upgrade() else { return };
        // Failures were logged; the next sweep tries again.
        let _ = sweep_flags(&inner).await;
    }
}

async fn sweep_flags(inner: &Arc<Inner>) -> Result<(), ServiceError> {
    for bucket in 0..BUCKETS {
        sweep_bucket_flags(inner, bucket).await?;
    }
    Ok(())
}

async fn sweep_bucket_flags(inner: &Arc<Inner>, bucket: usize) -> Result<(), ServiceError> {
    let deadlines = keys::deadlines_key(bucket);
    let now = epoch_ms(SystemTime::now());
    let due: Vec<String> = ::redis::cmd("ZRANGEBYSCORE")
        .arg(&deadlines)
        .arg("-inf")
        .arg(now)
        .arg("LIMIT")
        .arg(0)
        .arg(FLAG_BATCH)
        .query_async(&mut inner.conn())
        .await
        .map_err(|e| unavailable(&e))?;
    for text in due {
        let Ok(id) = text.parse::<GameId>() else {
            // Not a game id: nothing to flag; keep the set clean.
            let _: Result<(), _> = ::redis::cmd("ZREM")
                .arg(&deadlines)
                .arg(&text)
                .query_async(&mut inner.conn())
                .await;
            continue;
        };
        match inner.settled(id).await {
            // Ended, or not due yet: either way the entry must leave the due range, or it
            // would be read again every sweep ahead of the deadlines behind it.
            Ok((game, now)) => {
                let deadline = deadline_ms(&game.record, now);
                let seq = game.record.last_seq();
                inner.put_back(id, game);
                redeadline(inner, id, bucket, seq, deadline).await?;
            }
            Err(ServiceError::GameNotFound { .. }) => {
                let _: Result<(), _> = ::redis::cmd("ZREM")
                    .arg(&deadlines)
                    .arg(&text)
                    .query_async(&mut inner.conn())
                    .await;
            }
            Err(ServiceError::StoreUnavailable) => return Err(ServiceError::StoreUnavailable),
            // Damaged (the load logged why): no sweep can end it, so its entry goes out of the
            // due range, where it no longer hides other deadlines, and stays for an operator.
            Err(_) => {
                ::redis::cmd("ZADD")
                    .arg(&deadlines)
                    .arg("XX")
                    .arg("+inf")
                    .arg(&text)
                    .query_async::<()>(&mut inner.conn())
                    .await
                    .map_err(|e| unavailable(&e))?;
                tracing::error!(
                    game_id = %id,
                    key = %deadlines,
                    "damaged game's deadline set to +inf: it will not end by itself"
                );
            }
        }
    }
    Ok(())
}

/// Sets the deadline entry of a game the sweep read at `seq` to `deadline` (removes it for
/// none), unless the game moved on meanwhile: its append wrote the deadline then.
async fn redeadline(
    inner: &Inner,
    id: GameId,
    bucket: usize,
    seq: u64,
    deadline: Option<u64>,
) -> Result<(), ServiceError> {
    scripts::REDEADLINE
        .prepare_invoke()
        .key(keys::game_key(id))
        .key(keys::deadlines_key(bucket))
        .arg(seq)
        .arg(id.to_string())
        .arg(deadline.map(|d| d.to_string()).unwrap_or_default())
        .invoke_async::<i64>(&mut inner.conn())
        .await
        .map_err(|e| unavailable(&e))?;
    Ok(())
}

/// Deletes finished games beyond the count limit and past retention.
pub async fn finished(inner: Weak<Inner>) {
    let mut tick = tokio::time::interval(FINISHED_PERIOD);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(inner) = inner.upgrade() else { return };
        // Failures were logged; the next trim tries again.
        let _ = trim_finished(&inner).await;
    }
}

/// Trims if this replica gets the lease; another replica trimming now skips this tick.
async fn trim_finished(inner: &Arc<Inner>) -> Result<(), ServiceError> {
    let token = getrandom::u64()
        .map_err(|e| ServiceError::Internal(Box::new(e)))?
        .to_string();
    let taken: Option<String> = ::redis::cmd("SET")
        .arg(TRIM_LEASE_KEY)
        .arg(&token)
        .arg("NX")
        .arg("PX")
        .arg(u64::try_from(TRIM_LEASE.as_millis()).unwrap_or(u64::MAX))
        .query_async(&mut inner.conn())
        .await
        .map_err(|e| unavailable(&e))?;
    if taken.is_none() {
        return Ok(());
    }
    let trimmed = trim_held(inner, Instant::now()).await;
    let trimmed = match trimmed {
        Ok(()) => trim_feed(inner).await,
        Err(e) => Err(e),
    };
    // Not given back (Redis failed): it expires by itself.
    let _: Result<i64, _> = scripts::RELEASE
        .prepare_invoke()
        .key(TRIM_LEASE_KEY)
        .arg(&token)
        .invoke_async(&mut inner.conn())
        .await
        .map_err(|e| unavailable(&e));
    trimmed
}

/// Trims every bucket's feed lane to the feed's retention and its share of the event cap.
async fn trim_feed(inner: &Arc<Inner>) -> Result<(), ServiceError> {
    let cutoff = epoch_ms(SystemTime::now())
        .saturating_sub(u64::try_from(inner.limits.feed_retention.as_millis()).unwrap_or(u64::MAX));
    let cap = (inner.limits.feed_max_events / BUCKETS).max(1);
    let mut trimmed = 0u64;
    for bucket in 0..BUCKETS {
        let n: u64 = scripts::FEED_TRIM
            .prepare_invoke()
            .key(keys::feed_key(bucket))
            .key(keys::feed_floor_key(bucket))
            .arg(format!("{cutoff}-0"))
            .arg(cap)
            .invoke_async(&mut inner.conn())
            .await
            .map_err(|e| unavailable(&e))?;
        trimmed += n;
    }
    if trimmed > 0 {
        tracing::debug!(events = trimmed, "feed events past retention trimmed");
    }
    Ok(())
}

/// The trim itself, under the lease taken at `leased`.
async fn trim_held(inner: &Arc<Inner>, leased: Instant) -> Result<(), ServiceError> {
    let mut conn = inner.conn();
    let mut counts = [0usize; BUCKETS];
    for (bucket, count) in counts.iter_mut().enumerate() {
        *count = ::redis::cmd("ZCARD")
            .arg(keys::finished_key(bucket))
            .query_async(&mut conn)
            .await
            .map_err(|e| unavailable(&e))?;
    }
    let excess = counts
        .iter()
        .sum::<usize>()
        .saturating_sub(inner.limits.max_finished_games)
        .min(FINISHED_BATCH);
    let mut doomed: Vec<Vec<String>> = vec![Vec::new(); BUCKETS];
    if excess > 0 {
        // The deployment's `excess` oldest are among each bucket's `excess` oldest.
        let mut oldest: Vec<(f64, usize, String)> = Vec::new();
        for bucket in (0..BUCKETS).filter(|&b| counts[b] > 0) {
            let part: Vec<(String, f64)> = ::redis::cmd("ZRANGE")
                .arg(keys::finished_key(bucket))
                .arg(0)
                .arg(excess - 1)
                .arg("WITHSCORES")
                .query_async(&mut conn)
                .await
                .map_err(|e| unavailable(&e))?;
            oldest.extend(part.into_iter().map(|(id, at)| (at, bucket, id)));
        }
        oldest.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.2.cmp(&b.2)));
        for (_, bucket, id) in oldest.into_iter().take(excess) {
            doomed[bucket].push(id);
        }
    }
    if let Some(retention) = inner.limits.retention {
        let cutoff = epoch_ms(SystemTime::now())
            .saturating_sub(u64::try_from(retention.as_millis()).unwrap_or(u64::MAX));
        for (bucket, doomed) in doomed.iter_mut().enumerate() {
            let old: Vec<String> = ::redis::cmd("ZRANGEBYSCORE")
                .arg(keys::finished_key(bucket))
                .arg("-inf")
                .arg(format!("({cutoff}"))
                .arg("LIMIT")
                .arg(0)
                .arg(FINISHED_BATCH)
                .query_async(&mut conn)
                .await
                .map_err(|e| unavailable(&e))?;
            doomed.extend(old);
        }
    }
    let mut forgotten = 0;
    for (bucket, doomed) in doomed.iter().enumerate() {
        if doomed.is_empty() {
            continue;
        }
        if leased.elapsed() >= TRIM_LEASE / 2 {
            // Redis is slow enough that the lease may lapse before this delete lands, and
            // another replica count and choose the same games: leave the rest to a later trim.
            tracing::warn!(
                games = forgotten,
                "finished-games trim took too long; stopped before its lease could lapse"
            );
            break;
        }
        // The labels first, to take the games out of their label indexes too.
        let mut read = ::redis::pipe();
        let ids: Vec<Option<GameId>> = doomed.iter().map(|t| t.parse().ok()).collect();
        for id in ids.iter().flatten() {
            read.cmd("HGET").arg(keys::game_key(*id)).arg("labels");
        }
        let mut labels: std::vec::IntoIter<Option<String>> = read
            .query_async::<Vec<Option<String>>>(&mut conn)
            .await
            .map_err(|e| unavailable(&e))?
            .into_iter();
        // One pipeline per bucket: its keys share a slot.
        let mut pipe = ::redis::pipe();
        for (text, id) in doomed.iter().zip(&ids) {
            let labels = id.and_then(|_| labels.next()).flatten();
            if let Some(id) = *id {
                pipe.del(keys::game_key(id))
                    .ignore()
                    .del(keys::events_key(id))
                    .ignore();
            }
            // Damaged labels leave stale index entries, which every read checks anyway.
            let labels = labels
                .and_then(|l| Labels::from_stored(&l).ok())
                .unwrap_or_default();
            for (k, v) in labels.iter() {
                pipe.zrem(keys::label_key(bucket, k, v), text).ignore();
            }
            pipe.zrem(keys::games_key(bucket), text)
                .ignore()
                .zrem(keys::finished_key(bucket), text)
                .ignore();
        }
        pipe.query_async::<()>(&mut conn)
            .await
            .map_err(|e| unavailable(&e))?;
        forgotten += doomed.len();
    }
    if forgotten > 0 {
        tracing::debug!(games = forgotten, "finished games forgotten");
    }
    Ok(())
}
