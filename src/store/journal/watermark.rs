//! The committed watermark: how far the writer has got, and the callers waiting for a ticket.
//!
//! Why not a `tokio::sync::watch`: every raise of a watch wakes every waiter, and each then
//! looks at the value and sleeps again unless its own ticket is in. With 64 moves in flight
//! and a commit of 10 to 20 of them, that was 40 to 50 wake-ups for nothing per commit (a
//! task polled through the whole gRPC stack each time), thousands of commits a second. Here a
//! waiter is registered under its ticket and woken once, when that ticket is committed (or
//! when it never will be).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::oneshot;

/// Shared by the journal (its waiters) and the writer (through [`Raiser`]).
#[derive(Debug, Default)]
pub(super) struct Watermark {
    /// Every ticket up to this one is committed. Read without the lock by a waiter whose
    /// ticket is in already; written under it, so a waiter that registers cannot miss a raise.
    through: AtomicU64,
    /// The writer failed (not its normal end): checked before every change is queued.
    failed: AtomicBool,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// Nothing after `through` will ever be committed: the writer failed, or is gone.
    ended: bool,
    /// Waiters by ticket. Each is a call in flight (or a read of a game with a change in
    /// flight), and every ticket waited for is queued already, so the map is bounded by the
    /// calls in flight: each entry goes when its ticket is committed or the writer ends.
    waiters: BTreeMap<u64, Vec<oneshot::Sender<()>>>,
}

/// Where a wait stands.
pub(super) enum Wait {
    /// Committed already.
    Done,
    /// Never will be (the writer failed or is gone).
    Never,
    /// Committed once this answers `Ok`; an error means never.
    Pending(oneshot::Receiver<()>),
}

impl Watermark {
    /// A watermark at 0 and the writer's end of it.
    #[must_use]
    pub(super) fn new() -> (Arc<Watermark>, Raiser) {
        let mark = Arc::new(Watermark::default());
        (mark.clone(), Raiser(mark))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether the writer failed (it commits nothing more).
    pub(super) fn failed(&self) -> bool {
        self.failed.load(Ordering::Acquire)
    }

    /// Where `ticket` stands; registers a waiter unless it is settled.
    pub(super) fn wait(&self, ticket: u64) -> Wait {
        if self.through.load(Ordering::Acquire) >= ticket {
            return Wait::Done;
        }
        let mut state = self.lock();
        if self.through.load(Ordering::Acquire) >= ticket {
            return Wait::Done;
        }
        if state.ended {
            return Wait::Never;
        }
        let (tx, rx) = oneshot::channel();
        state.waiters.entry(ticket).or_default().push(tx);
        Wait::Pending(rx)
    }
}

/// The writer's end: raises the watermark; dropped (the writer gone), whoever still waits
/// learns that their ticket will never be committed.
#[derive(Debug)]
pub struct Raiser(Arc<Watermark>);

impl Raiser {
    /// Every ticket up to `through` is committed: wakes their waiters, and only them.
    pub fn raise(&self, through: u64) {
        let done = {
            let mut state = self.0.lock();
            self.0.through.fetch_max(through, Ordering::AcqRel);
            let later = state.waiters.split_off(&through.saturating_add(1));
            std::mem::replace(&mut state.waiters, later)
        };
        for tx in done.into_values().flatten() {
            // An error means the caller stopped waiting (its call was cancelled).
            let _ = tx.send(());
        }
    }

    /// The writer failed: nothing more will be committed.
    pub fn fail(&self) {
        self.end(true);
    }

    fn end(&self, failed: bool) {
        let waiters = {
            let mut state = self.0.lock();
            state.ended = true;
            if failed {
                self.0.failed.store(true, Ordering::Release);
            }
            std::mem::take(&mut state.waiters)
        };
        // Dropped senders: each waiter's receiver answers an error.
        drop(waiters);
    }
}

impl Drop for Raiser {
    fn drop(&mut self) {
        self.end(false);
    }
}
