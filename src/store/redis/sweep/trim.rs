//! The finished-games trim: beyond `--max-finished-games`, and past `--retention`, the oldest
//! finished games are deleted (their keys, their place in the list). The limit is the
//! deployment's: the oldest across every bucket go first. Result counts are kept apart and
//! stay. Counting, choosing and deleting are separate round trips, so two replicas trimming
//! at once would each delete the same excess, different games, and leave fewer than the
//! limit: a replica trims only while it holds a lease (`SET NX PX` on [`TRIM_LEASE_KEY`]),
//! skips the tick without it, and gives it back when done. The next holder counts after the
//! last one's deletes. A holder that finds [`TRIM_LEASE`]/2 gone before a delete stops there
//! rather than delete after its lease may have passed to another replica. A game's label
//! index entries go with it.
//!
//! The feed trim: under the same lease, each bucket's feed lane is trimmed to
//! `--feed-retention` and to its share of `--feed-max-events` (`FEED_TRIM`, which records the
//! last id it trimmed: what makes an older cursor refused rather than gapped).

use std::sync::{Arc, Weak};
use std::time::{Duration, Instant, SystemTime};

use crate::error::ServiceError;
use crate::game::{GameId, Labels, epoch_ms};
use crate::store::redis::failure::unavailable;
use crate::store::redis::keys;
use crate::store::redis::keys::BUCKETS;
use crate::store::redis::scripts;
use crate::store::redis::state::Inner;

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

/// Deletes finished games beyond the count limit and past retention.
pub(crate) async fn finished(inner: Weak<Inner>) {
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
