//! The deadline queue: when each timed game's flag falls, so a game ends on time even when
//! nobody calls.
//!
//! One queue and one task serve every game: an ordered set of `(deadline, game)` entries behind
//! a `std::sync::Mutex` (inserts, removals and pops are tiny and never await), and a `Notify`
//! that wakes the task when an entry might be earlier than the one it sleeps for. A game has
//! at most one entry, the one its `armed` field names: an earlier deadline replaces it, a
//! later one waits for it to fire (the game re-checks its clock then and asks again), and a
//! game that ends takes its entry out, so a finished game leaves nothing here (a set rather
//! than a heap for that removal).

use std::collections::BTreeSet;
use std::sync::{Mutex, PoisonError};

use tokio::sync::Notify;
use tokio::time::{Instant, sleep_until};

use crate::game::GameId;

/// Deadlines of timed games.
#[derive(Debug, Default)]
pub(super) struct DeadlineQueue {
    /// Earliest first. A std mutex: critical sections are an insert, a removal or a pop,
    /// never an await.
    heap: Mutex<BTreeSet<(Instant, GameId)>>,
    /// Wakes the waiting task after a push. `notify_one` keeps a permit when the task is not
    /// waiting yet, so a push between its check and its wait is not lost.
    wake: Notify,
}

impl DeadlineQueue {
    /// Asks for `id` to be checked at `at`.
    pub(super) fn schedule(&self, at: Instant, id: GameId) {
        self.heap
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert((at, id));
        self.wake.notify_one();
    }

    /// Takes back the check of `id` at `at` (scheduled earlier, and not yet due).
    pub(super) fn cancel(&self, at: Instant, id: GameId) {
        self.heap
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&(at, id));
    }

    /// Waits until at least one entry is due, then takes every due entry.
    pub(super) async fn next_due(&self) -> Vec<(Instant, GameId)> {
        loop {
            let earliest = self
                .heap
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .first()
                .map(|e| e.0);
            match earliest {
                None => self.wake.notified().await,
                Some(at) if at <= Instant::now() => {
                    let now = Instant::now();
                    let mut heap = self.heap.lock().unwrap_or_else(PoisonError::into_inner);
                    let mut due = Vec::new();
                    while let Some(&(at, id)) = heap.first() {
                        if at > now {
                            break;
                        }
                        heap.pop_first();
                        due.push((at, id));
                    }
                    return due;
                }
                Some(at) => {
                    tokio::select! {
                        () = sleep_until(at) => {}
                        () = self.wake.notified() => {}
                    }
                }
            }
        }
    }

    /// True when no entry waits.
    #[cfg(test)]
    pub(super) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entries waiting.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.heap
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// Entries come out at their time, earliest first, even when scheduled while waiting.
    #[tokio::test(start_paused = true)]
    async fn fires_in_time_order() {
        let queue = std::sync::Arc::new(DeadlineQueue::default());
        let t0 = Instant::now();
        let (a, b): (GameId, GameId) = (
            "0000000000001".parse().unwrap(),
            "0000000000002".parse().unwrap(),
        );
        queue.schedule(t0 + Duration::from_secs(10), a);
        let q = queue.clone();
        let waiter = tokio::spawn(async move { q.next_due().await });
        tokio::task::yield_now().await;
        queue.schedule(t0 + Duration::from_secs(3), b);
        let due = waiter.await.unwrap();
        assert_eq!(due, vec![(t0 + Duration::from_secs(3), b)]);
        assert!(Instant::now() >= t0 + Duration::from_secs(3));
        assert_eq!(
            queue.next_due().await,
            vec![(t0 + Duration::from_secs(10), a)]
        );
        assert!(queue.is_empty());
    }
}
