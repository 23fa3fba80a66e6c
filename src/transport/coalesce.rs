//! `Coalesced`: what hyper writes during one poll of a connection's task, held and written
//! out in one go when that poll ends, by the connection's driver ([`WriteOut`]).
//!
//! Why: h2 (0.4) writes a DATA frame of more than 256 bytes (a full answer, a stream's
//! snapshot) by chaining it to its buffer for a vectored write, and buffers no further frame
//! until that write is done (`FramedWrite::poll_ready`; hyperium/h2#711). Each large answer
//! then costs a write system call of its own, and its trailers and the frames of the answers
//! after it another. Held here until the poll ends, every frame hyper produced in that poll
//! goes out in one write whatever their sizes (over TLS, in as few records).
//!
//! A poll that leaves little held may put its write-out off by one turn of the scheduler
//! ([`WriteOut::defer`]): the connection's task wakes itself and comes back after the tasks
//! already ready. Those are what fill the connection when it serves streams: each answer is
//! made by its call's task and each stream message by its watcher's, so a move's answer and
//! the messages of its watchers, and the moves of other games meanwhile, go out together
//! instead of in a write each. The cost is one more poll of an idle connection per write.
//!
//! Hyper flushes in the middle of its work, not only when it has done; a flush here promises
//! only that the bytes are written before the task sleeps. That holds because the driver calls
//! [`WriteOut::poll_write_out`] after every poll of the connection: a write the peer leaves
//! pending registers the task's waker, as hyper's own would have, and a shutdown writes out
//! first. At most [`HOLD`] bytes wait: a write beyond that writes out first, and waits while
//! the peer takes nothing, so back-pressure reaches hyper as before (and `Watched`'s stall
//! timeout, underneath, still ends a peer that never reads).

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The most bytes held unwritten: four HTTP/2 frames of the default maximum size.
const HOLD: usize = 64 * 1024;
/// A buffer that grew past this is freed once written out, so an idle connection keeps little.
const KEEP: usize = 4 * 1024;

/// The byte stream hyper is given (see the module doc).
#[derive(Debug)]
pub(super) struct Coalesced<T> {
    held: Arc<Mutex<Held<T>>>,
}

/// The driver's handle on the same stream: writes out what hyper left held.
#[derive(Debug)]
pub(super) struct WriteOut<T> {
    held: Arc<Mutex<Held<T>>>,
}

/// The stream and the bytes accepted from hyper but not written to it yet. Behind a mutex only
/// because hyper's handle must be `Send`: both handles are used from the connection's one
/// task, so it is never contended and never held across an await.
#[derive(Debug)]
struct Held<T> {
    io: T,
    out: Vec<u8>,
    /// How much of `out` is already written (a write the peer took part of).
    written: usize,
    /// Bytes went to the stream since it was last flushed: TLS may hold records of them.
    unflushed: bool,
    /// How many bytes the last write-out wrote: the next poll's likely size, reserved at its
    /// first write so that a busy connection's buffer is allocated once per poll instead of
    /// grown by doubling (each step a copy), while an idle one still keeps at most [`KEEP`].
    last: usize,
    /// The write-out of what is held was put off once, to let other ready tasks add to it.
    deferred: bool,
}

/// Wraps `io`: hyper writes to the first handle, the driver writes out with the second.
pub(super) fn coalesced<T>(io: T) -> (Coalesced<T>, WriteOut<T>) {
    let held = Arc::new(Mutex::new(Held {
        io,
        out: Vec::new(),
        written: 0,
        unflushed: false,
        last: 0,
        deferred: false,
    }));
    (Coalesced { held: held.clone() }, WriteOut { held })
}

fn lock<T>(held: &Mutex<Held<T>>) -> MutexGuard<'_, Held<T>> {
    // A panic while holding it left bytes and a stream that are still what they were: a write
    // either happened or did not.
    held.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<T: AsyncWrite + Unpin> Held<T> {
    fn unwritten(&self) -> usize {
        self.out.len() - self.written
    }

    /// Writes every held byte, or returns `Pending` (the waker registered) once the peer takes
    /// no more.
    fn poll_write_out(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.out.len() {
            let n = ready!(Pin::new(&mut self.io).poll_write(cx, &self.out[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
            self.unflushed = true;
        }
        if !self.out.is_empty() {
            self.last = self.out.len();
        }
        if self.out.capacity() > KEEP {
            self.out = Vec::new();
        } else {
            self.out.clear();
        }
        self.written = 0;
        if self.unflushed {
            // TLS may keep records that the socket did not take; this pushes them, now or
            // (pending) at a later write-out.
            ready!(Pin::new(&mut self.io).poll_flush(cx))?;
            self.unflushed = false;
        }
        Poll::Ready(Ok(()))
    }

    /// Takes `len` bytes from `bufs`, held if they fit, else after writing out what is held
    /// (and straight through if they alone are more than may be held).
    fn poll_take(
        &mut self,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
        len: usize,
    ) -> Poll<io::Result<usize>> {
        if self.unwritten() + len > HOLD {
            ready!(self.poll_write_out(cx))?;
            if len > HOLD {
                let n = ready!(Pin::new(&mut self.io).poll_write_vectored(cx, bufs))?;
                self.unflushed = true;
                return Poll::Ready(Ok(n));
            }
        }
        if self.out.is_empty() {
            self.out.reserve(len.max(self.last.min(HOLD)));
        }
        for buf in bufs {
            self.out.extend_from_slice(buf);
        }
        Poll::Ready(Ok(len))
    }
}

impl<T: AsyncWrite + Unpin> WriteOut<T> {
    /// Writes out what hyper left held; called after every poll of the connection.
    pub(super) fn poll_write_out(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let mut held = lock(&self.held);
        held.deferred = false;
        held.poll_write_out(cx)
    }

    /// Whether to put the write-out of what is held off by one turn of the scheduler: a
    /// little held and not put off yet. The task wakes itself, so it runs again after the
    /// tasks already ready, whose answers and stream messages then go out in the same write.
    pub(super) fn defer(&self, cx: &mut Context<'_>) -> bool {
        let mut held = lock(&self.held);
        if held.deferred || held.unwritten() == 0 || held.unwritten() >= HOLD / 2 {
            return false;
        }
        held.deferred = true;
        cx.waker().wake_by_ref();
        true
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Coalesced<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut lock(&self.held).io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Coalesced<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        lock(&self.held).poll_take(cx, &[io::IoSlice::new(buf)], buf.len())
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let len = bufs.iter().map(|b| b.len()).sum();
        lock(&self.held).poll_take(cx, bufs, len)
    }

    /// Every slice is copied once into the held bytes, so h2 need not copy small payloads into
    /// its own buffer first (it copies up to 1 KiB when the stream is not vectored).
    fn is_write_vectored(&self) -> bool {
        true
    }

    /// The driver writes out when this poll of the connection ends (see the module doc).
    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let mut held = lock(&self.held);
        ready!(held.poll_write_out(cx))?;
        Pin::new(&mut held.io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests;
