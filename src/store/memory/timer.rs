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
use std::num::NonZeroU64;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::{Instant, sleep_until};

use crate::game::GameId;

/// A deadline as the queue keeps it: one more than the nanoseconds since the queue began, so
/// that a queue entry is two words and a game's `Option<Deadline>` one (every timed game has
/// both, idle ones too; an `Instant` is two words).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct Deadline(NonZeroU64);

/// Deadlines of timed games.
#[derive(Debug)]
pub(super) struct DeadlineQueue {
    /// What deadlines count from: no deadline is asked for before the store exists.
    base: Instant,
    /// Earliest first. A std mutex: critical sections are an insert, a removal or a pop,
    /// never an await.
    heap: Mutex<BTreeSet<(Deadline, GameId)>>,
    /// Wakes the waiting task after a push. `notify_one` keeps a permit when the task is not
    /// waiting yet, so a push between its check and its wait is not lost.
    wake: Notify,
}

impl Default for DeadlineQueue {
    fn default() -> DeadlineQueue {
        DeadlineQueue {
            base: Instant::now(),
            heap: Mutex::default(),
            wake: Notify::new(),
        }
    }
}

impl DeadlineQueue {
    /// `at` as the queue keeps it: to the nanosecond, and an instant before the queue began
    /// (never asked for) as its beginning, which is due at once.
    pub(super) fn deadline(&self, at: Instant) -> Deadline {
        let nanos = u64::try_from(at.saturating_duration_since(self.base).as_nanos())
            .unwrap_or(u64::MAX - 1);
        Deadline(NonZeroU64::MIN.saturating_add(nanos))
    }

    /// The instant `deadline` stands for.
    fn instant(&self, deadline: Deadline) -> Instant {
        self.base + Duration::from_nanos(deadline.0.get() - 1)
    }

    /// Asks for `id` to be checked at `at`.
    pub(super) fn schedule(&self, at: Deadline, id: GameId) {
        self.heap
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert((at, id));
        self.wake.notify_one();
    }

    /// Takes back the check of `id` at `at` (scheduled earlier, and not yet due).
    pub(super) fn cancel(&self, at: Deadline, id: GameId) {
        self.heap
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&(at, id));
    }

    /// Waits until at least one entry is due, then takes every due entry.
    pub(super) async fn next_due(&self) -> Vec<(Deadline, GameId)> {
        loop {
            let earliest = self
                .heap
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .first()
                .map(|e| self.instant(e.0));
            match earliest {
                None => self.wake.notified().await,
                Some(at) if at <= Instant::now() => {
                    let now = self.deadline(Instant::now());
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
    use super::*;

    /// Entries come out at their time, earliest first, even when scheduled while waiting.
    #[tokio::test(start_paused = true)]
    async fn fires_in_time_order() {
        let queue = std::sync::Arc::new(DeadlineQueue::default());
        let t0 = Instant::now();
        let at = |secs| queue.deadline(t0 + Duration::from_secs(secs));
        let (a, b): (GameId, GameId) = (
            "0000000000001".parse().unwrap(),
            "0000000000002".parse().unwrap(),
        );
        queue.schedule(at(10), a);
        let q = queue.clone();
        let waiter = tokio::spawn(async move { q.next_due().await });
        tokio::task::yield_now().await;
        queue.schedule(at(3), b);
        let due = waiter.await.unwrap();
        assert_eq!(due, vec![(at(3), b)]);
        assert!(Instant::now() >= t0 + Duration::from_secs(3));
        assert_eq!(queue.next_due().await, vec![(at(10), a)]);
        assert!(queue.is_empty());
    }

    /// A deadline reads back as the instant it was made from, and one before the queue
    /// began as its beginning; an armed deadline is one word.
    #[tokio::test(start_paused = true)]
    async fn deadlines_to_the_nanosecond() {
        let queue = DeadlineQueue::default();
        let later = queue.base + Duration::from_nanos(1_234_567_891);
        assert_eq!(queue.instant(queue.deadline(later)), later);
        let before = queue.base.checked_sub(Duration::from_secs(1)).unwrap();
        assert_eq!(queue.instant(queue.deadline(before)), queue.base);
        assert!(queue.deadline(before) < queue.deadline(later));
        assert_eq!(size_of::<Option<Deadline>>(), 8);
        assert_eq!(size_of::<(Deadline, GameId)>(), 16);
    }
}
