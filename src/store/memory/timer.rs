//! The deadline queue: when each timed game's flag falls, so a game ends on time even when
//! nobody calls.
//!
//! One queue and one task serve every game: a binary heap of `(deadline, game)` entries behind
//! a `std::sync::Mutex` (pushes and pops are tiny and never await), and a `Notify` that wakes the
//! task when an entry might be earlier than the one it sleeps for. Entries are never removed
//! when a deadline moves: the game re-checks its clock when an entry fires and asks for a new
//! one if needed. A game keeps at most one entry earlier than its real deadline (see
//! `MemoryStore::rearm`), so stale entries are bounded by the moves played within one clock's
//! time and fall out as their time passes.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Mutex, PoisonError};

use tokio::sync::Notify;
use tokio::time::{Instant, sleep_until};

use crate::game::GameId;

/// Deadlines of timed games.
#[derive(Debug, Default)]
pub struct DeadlineQueue {
    /// Earliest first. A std mutex: critical sections are a push or a pop, never an await.
    heap: Mutex<BinaryHeap<Reverse<(Instant, GameId)>>>,
    /// Wakes the waiting task after a push. `notify_one` keeps a permit when the task is not
    /// waiting yet, so a push between its check and its wait is not lost.
    wake: Notify,
}

impl DeadlineQueue {
    /// Asks for `id` to be checked at `at`.
    pub fn schedule(&self, at: Instant, id: GameId) {
        self.heap
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Reverse((at, id)));
        self.wake.notify_one();
    }

    /// Waits until at least one entry is due, then takes every due entry.
    pub async fn next_due(&self) -> Vec<(Instant, GameId)> {
        loop {
            let earliest = self
                .heap
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .peek()
                .map(|e| e.0.0);
            match earliest {
                None => self.wake.notified().await,
                Some(at) if at <= Instant::now() => {
                    let now = Instant::now();
                    let mut heap = self.heap.lock().unwrap_or_else(PoisonError::into_inner);
                    let mut due = Vec::new();
                    while let Some(Reverse((at, id))) = heap.peek().copied() {
                        if at > now {
                            break;
                        }
                        heap.pop();
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

    /// True when no entry waits (stale ones included).
    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.heap
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_empty()
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
