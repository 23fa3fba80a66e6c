//! The Redis store's background work, run by every replica: the readiness probe, the
//! deadline sweep and the finished-games sweep. Each task holds the store weakly and stops
//! with it.
//!
//! - **Probe**: a PING every [`PROBE_PERIOD`]; its result is the store's readiness (health
//!   SERVING or NOT_SERVING).
//! - **Deadlines** (flags and `--abandon-after`): a game's deadline is the earlier of its
//!   flag and its abandonment (the last move's wall time plus `--abandon-after`). Every
//!   [`FLAG_PERIOD`] a replica reads the deadlines that have passed and tries to end those
//!   games. Ending one is an ordinary compare-and-append on the seq the replica read, so when
//!   several replicas sweep the same deadline exactly one appends the time forfeit or the
//!   abandonment and the others find the game changed. No replica owns a game: a game ends on
//!   time as long as any replica runs.
//! - **Finished games**: beyond `--max-finished-games`, and past `--retention`, the oldest
//!   finished games are deleted (their keys, their place in the list). Deleting is idempotent,
//!   so replicas doing it at once do no harm. Result counts are kept apart and stay.

use std::sync::{Arc, Weak};
use std::time::{Duration, SystemTime};

use super::{Inner, codec, unavailable};
use crate::error::ServiceError;
use crate::store::GameId;

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

/// Sets the store's readiness from a PING every [`PROBE_PERIOD`].
pub async fn probe(inner: Weak<Inner>) {
    let mut tick = tokio::time::interval(PROBE_PERIOD);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(inner) = inner.upgrade() else { return };
        let answer: Result<String, _> = ::redis::cmd("PING").query_async(&mut inner.conn()).await;
        let up = answer.is_ok();
        inner.ready.send_if_modified(|ready| {
            if *ready == up {
                return false;
            }
            match &answer {
                Ok(_) => tracing::info!("redis reachable: serving"),
                Err(e) => tracing::warn!(error = %e, "redis unreachable: not serving"),
            }
            *ready = up;
            true
        });
    }
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
    let now = codec::epoch_ms(SystemTime::now());
    let due: Vec<String> = ::redis::cmd("ZRANGEBYSCORE")
        .arg(codec::DEADLINES)
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
                .arg(codec::DEADLINES)
                .arg(&text)
                .query_async(&mut inner.conn())
                .await;
            continue;
        };
        match inner.settled(id).await {
            // Ended, or not due yet.
            Ok((game, _)) => inner.put_back(id, game),
            Err(ServiceError::GameNotFound { .. }) => {
                let _: Result<(), _> = ::redis::cmd("ZREM")
                    .arg(codec::DEADLINES)
                    .arg(&text)
                    .query_async(&mut inner.conn())
                    .await;
            }
            Err(ServiceError::StoreUnavailable) => return Err(ServiceError::StoreUnavailable),
            // Damaged games were logged by the load and stay in the set for an operator.
            Err(_) => {}
        }
    }
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

async fn trim_finished(inner: &Arc<Inner>) -> Result<(), ServiceError> {
    let mut conn = inner.conn();
    let count: usize = ::redis::cmd("ZCARD")
        .arg(codec::FINISHED)
        .query_async(&mut conn)
        .await
        .map_err(|e| unavailable(&e))?;
    let excess = count
        .saturating_sub(inner.limits.max_finished_games)
        .min(FINISHED_BATCH);
    let mut doomed: Vec<String> = if excess > 0 {
        ::redis::cmd("ZRANGE")
            .arg(codec::FINISHED)
            .arg(0)
            .arg(excess - 1)
            .query_async(&mut conn)
            .await
            .map_err(|e| unavailable(&e))?
    } else {
        Vec::new()
    };
    if let Some(retention) = inner.limits.retention {
        let cutoff = codec::epoch_ms(SystemTime::now())
            .saturating_sub(u64::try_from(retention.as_millis()).unwrap_or(u64::MAX));
        let old: Vec<String> = ::redis::cmd("ZRANGEBYSCORE")
            .arg(codec::FINISHED)
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
    if doomed.is_empty() {
        return Ok(());
    }
    let mut pipe = ::redis::pipe();
    for text in &doomed {
        if let Ok(id) = text.parse::<GameId>() {
            pipe.del(codec::game_key(id))
                .ignore()
                .del(codec::events_key(id))
                .ignore();
        }
        pipe.zrem(codec::GAMES, text)
            .ignore()
            .zrem(codec::FINISHED, text)
            .ignore();
    }
    pipe.query_async::<()>(&mut conn)
        .await
        .map_err(|e| unavailable(&e))?;
    tracing::debug!(games = doomed.len(), "finished games forgotten");
    Ok(())
}
