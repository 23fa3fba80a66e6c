//! What happens to a batch once its transaction is committed: it is made durable, then its
//! events go to watchers and the feed, and the watermark is raised through its last ticket.
//!
//! With `--sync normal` a committed batch is done at once. With `--sync full` SQLite runs at
//! `synchronous=NORMAL` (its checkpoints still flush the WAL before copying it into the file,
//! and the file before the WAL is reused) and the flush that `FULL` would make inside each
//! commit is made here instead, by [`FLUSHERS`] threads calling `fdatasync` on the WAL. Why:
//! inside the commit, a flush holds the writer, so a move waits for the flush in progress and
//! then for its own, one at a time; here the writer goes on to the next batch's SQL while the
//! last is flushed, and two flushes can be in flight (the disk serves more of them a second
//! from several threads than from one).
//!
//! The rule that keeps every acknowledged change on disk: a flush covers every batch whose
//! commit had returned when the flush began, and only those. A flusher notes the last batch
//! written before it calls `fdatasync`, and once that returns completes every batch up to it,
//! in commit order (under one lock, so two flushers never publish out of order, and the feed
//! is appended in the order the writer numbered it). A failed flush fails every waiting and
//! later change, as a failed commit does.
//!
//! The writer does not commit a batch while an earlier one waits for a free flusher: the
//! changes queue meanwhile and go into one larger batch, which costs the disk one flush, not
//! several.

use std::collections::VecDeque;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::thread::JoinHandle;

use tokio::sync::broadcast;
use tracing::Span;

use crate::game::{Event, FeedEvent};
use crate::store::feed::log::FeedLog;
use crate::store::journal::Raiser;

/// Flushes in flight at most. Two keep the disk busy while the writer prepares the next
/// batch; more would only split the moves that queue meanwhile into smaller batches.
pub(super) const FLUSHERS: usize = 2;

/// Flushes what SQLite wrote: the WAL's `fdatasync` in the server, anything in tests.
pub(super) type FlushFn = Box<dyn Fn() -> io::Result<()> + Send + Sync>;

/// A batch committed, to be completed once it is durable.
#[derive(Debug)]
pub(super) struct Committed {
    /// The batch's last ticket.
    pub(super) through: u64,
    /// Each change's events for its game's watchers.
    pub(super) publish: Vec<(broadcast::Sender<Arc<Event>>, Vec<Event>)>,
    /// The batch's feed events, in the order they were numbered.
    pub(super) feed: Vec<FeedEvent>,
    /// The changes' journal spans: they end when the change is durable.
    pub(super) traces: Vec<Span>,
}

/// The completion of committed batches, shared by the writer and the flushers.
pub(super) struct Flush {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
}

struct Shared {
    state: Mutex<State>,
    /// Signalled when a batch is written, a flush begins or ends, or the store closes or fails.
    changed: Condvar,
    raiser: Raiser,
    feed: Arc<FeedLog>,
    /// `None`: a commit is durable by itself (`--sync normal`).
    sync: Option<FlushFn>,
}

#[derive(Default)]
struct State {
    /// Batches committed and not yet completed, oldest first, each with its number.
    pending: VecDeque<(u64, Committed)>,
    /// Batches committed so far.
    written: u64,
    /// The last batch a flush in flight or done covers.
    claimed: u64,
    failed: bool,
    closing: bool,
}

impl Flush {
    /// Completes each batch as soon as it is committed (`--sync normal`).
    pub(super) fn inline(raiser: Raiser, feed: Arc<FeedLog>) -> Flush {
        Flush::new(raiser, feed, None)
    }

    /// Completes batches once `sync`, called by [`FLUSHERS`] threads, has flushed them.
    pub(super) fn threads(raiser: Raiser, feed: Arc<FeedLog>, sync: FlushFn) -> io::Result<Flush> {
        let mut flush = Flush::new(raiser, feed, Some(sync));
        for i in 0..FLUSHERS {
            let shared = flush.shared.clone();
            let thread = std::thread::Builder::new()
                .name(format!("chessd-sqlite-flush-{i}"))
                .spawn(move || shared.flusher());
            match thread {
                Ok(t) => flush.threads.push(t),
                Err(e) => {
                    flush.fail();
                    return Err(e);
                }
            }
        }
        Ok(flush)
    }

    fn new(raiser: Raiser, feed: Arc<FeedLog>, sync: Option<FlushFn>) -> Flush {
        Flush {
            shared: Arc::new(Shared {
                state: Mutex::new(State::default()),
                changed: Condvar::new(),
                raiser,
                feed,
                sync,
            }),
            threads: Vec::new(),
        }
    }

    /// Waits until no committed batch waits for a free flusher; `false` once a flush failed.
    pub(super) fn wait_for_room(&self) -> bool {
        let mut state = self.shared.lock();
        while !state.failed && state.claimed < state.written {
            state = self
                .shared
                .changed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        !state.failed
    }

    /// A batch is committed: completes it now, or once it is flushed.
    pub(super) fn committed(&self, batch: Committed) {
        let mut state = self.shared.lock();
        if state.failed {
            return;
        }
        state.written += 1;
        let number = state.written;
        if self.shared.sync.is_none() {
            state.claimed = number;
            self.shared.complete(batch);
            return;
        }
        state.pending.push_back((number, batch));
        self.shared.changed.notify_all();
    }

    /// A commit failed: nothing more will be acknowledged.
    pub(super) fn fail(&self) {
        self.shared.fail(&mut self.shared.lock());
    }

    /// Whether a commit or a flush failed.
    #[cfg(test)]
    pub(super) fn failed(&self) -> bool {
        self.shared.lock().failed
    }
}

impl Drop for Flush {
    /// Flushes and completes what is committed, then stops the flushers.
    fn drop(&mut self) {
        self.shared.lock().closing = true;
        self.shared.changed.notify_all();
        for thread in self.threads.drain(..) {
            // A flusher that panicked completes nothing more; its waiters learn it when the
            // raiser goes.
            let _ = thread.join();
        }
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn flusher(&self) {
        let Some(sync) = &self.sync else { return };
        let mut state = self.lock();
        loop {
            if state.failed {
                return;
            }
            if state.claimed < state.written {
                let through = state.written;
                state.claimed = through;
                self.changed.notify_all();
                drop(state);
                let flushed = sync();
                state = self.lock();
                match flushed {
                    Ok(()) => {
                        while state.pending.front().is_some_and(|(n, _)| *n <= through) {
                            if let Some((_, batch)) = state.pending.pop_front() {
                                self.complete(batch);
                            }
                        }
                    }
                    Err(e) => {
                        tracing::error!(error = %e, "durable store: flushing the WAL failed; refusing every change from now on");
                        self.fail(&mut state);
                    }
                }
                self.changed.notify_all();
            } else if state.closing {
                return;
            } else {
                state = self
                    .changed
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        }
    }

    /// A batch is durable: its events go out and its tickets are acknowledged. Called under
    /// the lock, so in commit order.
    fn complete(&self, batch: Committed) {
        for (tx, events) in batch.publish {
            for event in events {
                // An error means no watcher is left.
                let _ = tx.send(Arc::new(event));
            }
        }
        self.feed.append(batch.feed);
        self.raiser.raise(batch.through);
        drop(batch.traces);
    }

    fn fail(&self, state: &mut State) {
        state.failed = true;
        state.pending.clear();
        self.raiser.fail();
        self.changed.notify_all();
    }
}

/// `fdatasync` of the WAL beside `db`, opened at the first flush (SQLite creates it once it
/// writes), and the folder's entry for it flushed then too.
pub(super) fn wal_sync(db: &Path) -> FlushFn {
    let path = wal_path(db);
    let wal: OnceLock<File> = OnceLock::new();
    Box::new(move || {
        let file = match wal.get() {
            Some(file) => file,
            None => {
                let file = File::open(&path)?;
                if let Some(dir) = path.parent() {
                    File::open(dir)?.sync_all()?;
                }
                wal.get_or_init(|| file)
            }
        };
        file.sync_data()
    })
}

fn wal_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    fn batch(through: u64) -> Committed {
        Committed {
            through,
            publish: Vec::new(),
            feed: Vec::new(),
            traces: Vec::new(),
        }
    }

    fn feed() -> Arc<FeedLog> {
        Arc::new(FeedLog::new(1, Duration::from_secs(60), 100, 16, 0, 0))
    }

    /// Waits (bounded) for `check` to hold.
    fn eventually(check: impl Fn() -> bool) -> bool {
        for _ in 0..500 {
            if check() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        false
    }

    #[test]
    fn a_batch_is_acknowledged_only_after_a_flush_that_began_after_its_commit() {
        let (mark, raiser) = crate::store::journal::test_watermark();
        let open = Arc::new(AtomicBool::new(false));
        let flushes = Arc::new(AtomicUsize::new(0));
        let (o, f) = (open.clone(), flushes.clone());
        let sync: FlushFn = Box::new(move || {
            while !o.load(Ordering::Acquire) {
                std::thread::sleep(Duration::from_millis(1));
            }
            f.fetch_add(1, Ordering::AcqRel);
            Ok(())
        });
        let flush = Flush::threads(raiser, feed(), sync).unwrap();
        flush.committed(batch(3));
        std::thread::sleep(Duration::from_millis(30));
        assert!(!mark(3), "acknowledged before its flush returned");
        open.store(true, Ordering::Release);
        assert!(eventually(|| mark(3)));
        assert!(flush.wait_for_room());
        flush.committed(batch(7));
        assert!(eventually(|| mark(7)));
        assert!(flushes.load(Ordering::Acquire) >= 2);
    }

    #[test]
    fn a_failed_flush_acknowledges_nothing_more() {
        let (mark, raiser) = crate::store::journal::test_watermark();
        let sync: FlushFn = Box::new(|| Err(io::Error::other("disk gone")));
        let flush = Flush::threads(raiser, feed(), sync).unwrap();
        flush.committed(batch(2));
        assert!(eventually(|| flush.failed()));
        assert!(!flush.wait_for_room());
        flush.committed(batch(5));
        std::thread::sleep(Duration::from_millis(20));
        assert!(!mark(2) && !mark(5));
    }

    #[test]
    fn without_a_flush_a_commit_is_acknowledged_at_once() {
        let (mark, raiser) = crate::store::journal::test_watermark();
        let flush = Flush::inline(raiser, feed());
        flush.committed(batch(4));
        assert!(mark(4));
    }

    #[test]
    fn the_wal_is_the_database_path_with_wal_appended() {
        assert_eq!(
            wal_path(Path::new("/data/chessd.db")),
            Path::new("/data/chessd.db-wal")
        );
    }
}
