//! The memory store's background work: the flag timer, which ends games whose clock ran out
//! (or that were abandoned) with nobody calling, and the retention sweep. Both hold the store
//! weakly and stop once it is gone.

use std::sync::{Arc, Weak};
use std::time::{Duration, SystemTime};

use crate::game::epoch_ms;
use crate::store::memory::inner::Inner;
use crate::store::memory::timer::DeadlineQueue;

/// Ends games whose deadline came. A game whose deadline moved meanwhile is looked at anyway:
/// looking ends it only if it is due, and re-arms it otherwise.
pub(super) async fn flag_timer(deadlines: Arc<DeadlineQueue>, inner: Weak<Inner>) {
    loop {
        let due = deadlines.next_due().await;
        let Some(inner) = inner.upgrade() else { return };
        for (at, id) in due {
            // A finished game has nothing left to flag: its timer is cleared without unpacking it.
            if inner.find(id).is_ok_and(|entry| {
                let mut state = entry.lock();
                if state.armed == Some(at) && state.held.is_packed() {
                    state.armed = None;
                }
                state.held.is_packed()
            }) {
                continue;
            }
            // A game that was forgotten meanwhile has nothing left to flag; a journal failure
            // was logged by its writer and fails every later call.
            let _ = inner
                .on_game(id, None, |_, state, _, _| {
                    if *state.armed == Some(at) {
                        *state.armed = None;
                    }
                    Ok(())
                })
                .await;
        }
    }
}

/// Forgets finished games older than `retention`, checking a few times per retention period
/// (at most every minute, at least every 50 ms).
pub(super) async fn retention_sweep(retention: Duration, inner: Weak<Inner>) {
    let period = (retention / 4).clamp(Duration::from_millis(50), Duration::from_secs(60));
    let mut tick = tokio::time::interval(period);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(inner) = inner.upgrade() else { return };
        let cutoff = epoch_ms(SystemTime::now())
            .saturating_sub(u64::try_from(retention.as_millis()).unwrap_or(u64::MAX));
        let expired = inner.forget_ended_before(cutoff);
        inner.durable.forget(expired).await;
    }
}
