//! The deadline sweep (flags and `--abandon-after`): a game's deadline is the earlier of its
//! flag and its abandonment (the last move's wall time plus `--abandon-after`). Every
//! [`FLAG_PERIOD`] a replica reads the deadlines that have passed and tries to end those
//! games. Ending one is an ordinary compare-and-append on the seq the replica read, so when
//! several replicas sweep the same deadline exactly one appends the time forfeit or the
//! abandonment and the others find the game changed. No replica owns a game: a game ends on
//! time as long as any replica runs. The sweep reads the oldest due entries first, a batch
//! at a time, so an entry that stays due without its game ending would be read again every
//! sweep and, once a batch is full of them, hide the real deadlines behind it. So every due
//! entry leaves the due range: a game that does not end (its deadline is later than the
//! entry said, e.g. after `--abandon-after` was raised or turned off, or a clock skew) gets
//! its entry rewritten to its true deadline, or removed when it has none (`REDEADLINE`,
//! only if the game is still at the seq the sweep read, so a concurrent append's deadline
//! stands); a damaged game's entry is moved to `+inf`, logged once, and left for an
//! operator.

use std::sync::{Arc, Weak};
use std::time::{Duration, SystemTime};

use crate::error::ServiceError;
use crate::game::{GameId, epoch_ms};
use crate::store::redis::codec::deadline_ms;
use crate::store::redis::failure::unavailable;
use crate::store::redis::keys;
use crate::store::redis::keys::BUCKETS;
use crate::store::redis::scripts;
use crate::store::redis::state::Inner;
use crate::store::store_error::StoreError;

/// How often passed deadlines are looked for: a flag falls (or an abandoned game ends) at most
/// this late, plus a call.
pub(super) const FLAG_PERIOD: Duration = Duration::from_millis(50);
/// Deadlines handled per sweep at most (the next sweep takes the rest).
const FLAG_BATCH: usize = 256;

/// Ends the games whose deadline (flag or abandonment) passed.
pub(crate) async fn flags(inner: Weak<Inner>) {
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
            Err(ServiceError::Store(StoreError::GameNotFound { .. })) => {
                let _: Result<(), _> = ::redis::cmd("ZREM")
                    .arg(&deadlines)
                    .arg(&text)
                    .query_async(&mut inner.conn())
                    .await;
            }
            Err(ServiceError::Store(StoreError::StoreUnavailable)) => {
                return Err(StoreError::StoreUnavailable.into());
            }
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
