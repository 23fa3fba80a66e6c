//! What a connection's parts share: [`ConnState`] (its facts, its open calls, how to close it),
//! the registry of connections still greeting (the ones eviction may close), why the server
//! closed a connection, and [`Shared`], what the accept loop and every connection hold.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;
use tokio_rustls::TlsAcceptor;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::metrics;
use crate::transport::config::TransportConfig;

/// Why the server closed a connection (the `reason` label of `chessd_connections_closed_total`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closed {
    /// It did not greet within the handshake timeout.
    HandshakeTimeout,
    /// It had not greeted and its place was needed (the connection cap or the fd limit).
    Evicted,
    /// No call for the idle timeout (sent GOAWAY).
    Idle,
    /// The peer took no byte of a pending write for the stall timeout.
    WriteStall,
    /// A call reset its HTTP/1.1 connection (a watcher that took no events).
    Reset,
    /// Still open when the drain timeout ran out.
    DrainTimeout,
}

impl Closed {
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Closed::HandshakeTimeout => "handshake_timeout",
            Closed::Evicted => "evicted",
            Closed::Idle => "idle",
            Closed::WriteStall => "write_stall",
            Closed::Reset => "reset",
            Closed::DrainTimeout => "drain_timeout",
        }
    }
}

pub(super) fn closed(reason: Closed) {
    ::metrics::counter!(metrics::CONNECTIONS_CLOSED, "reason" => reason.name()).increment(1);
}

/// What the accept loop and every connection share.
pub(super) struct Shared<S> {
    pub service: S,
    pub config: TransportConfig,
    /// After GOAWAY for idleness, how long open streams may take before the connection is
    /// dropped.
    pub close_grace: Duration,
    pub tls: Option<TlsAcceptor>,
    pub greeting: Arc<Greeting>,
    /// Cancelled when the drain starts: every connection is sent GOAWAY.
    pub draining: CancellationToken,
    /// Cancelled when the drain times out: every connection is dropped (each connection's
    /// close token is a child).
    pub force_close: CancellationToken,
    pub tasks: TaskTracker,
}

/// What a connection's parts share: its facts, its open calls, and how to close it.
#[derive(Debug)]
pub(super) struct ConnState {
    pub id: u64,
    pub peer: SocketAddr,
    pub local: SocketAddr,
    pub greeting: Arc<Greeting>,
    greeted: AtomicBool,
    /// Calls from request to response body dropped.
    open_calls: AtomicUsize,
    /// When the last call ended (or the connection greeted), for the idle timeout. A plain
    /// mutex: held for a read or write of an instant, never across an await.
    idle_since: Mutex<Instant>,
    /// Wakes the connection's task when it greets or its open calls go to or from zero.
    pub changed: Notify,
    /// Cancelled to drop the connection at once; a child of the server's own, which the drain
    /// timeout cancels.
    pub close: CancellationToken,
    /// Why the connection was closed by force, if it was (set before `close` is cancelled).
    pub close_reason: Mutex<Option<Closed>>,
    /// The reset token of the HTTP/2 stream whose task hyper is about to spawn: left by the
    /// service, taken by the executor in the same synchronous step (see `stream`). A plain
    /// mutex, never contended: both run on the connection's task.
    next_stream: Mutex<Option<CancellationToken>>,
}

impl ConnState {
    pub(super) fn new(
        id: u64,
        peer: SocketAddr,
        local: SocketAddr,
        greeting: Arc<Greeting>,
        close: CancellationToken,
    ) -> ConnState {
        ConnState {
            id,
            peer,
            local,
            greeting,
            greeted: AtomicBool::new(false),
            open_calls: AtomicUsize::new(0),
            idle_since: Mutex::new(Instant::now()),
            changed: Notify::new(),
            close,
            close_reason: Mutex::new(None),
            next_stream: Mutex::new(None),
        }
    }

    /// The peer greeted: the handshake deadline no longer applies and the connection may no
    /// longer be evicted.
    pub(super) fn greet(&self) {
        if !self.greeted.swap(true, Ordering::AcqRel) {
            self.greeting.remove(self.id);
            *lock(&self.idle_since) = Instant::now();
            self.changed.notify_one();
        }
    }

    pub(super) fn greeted(&self) -> bool {
        self.greeted.load(Ordering::Acquire)
    }

    /// Closes the connection at once, for `reason` (the first reason given is kept).
    pub(super) fn force_close(&self, reason: Closed) {
        lock(&self.close_reason).get_or_insert(reason);
        self.close.cancel();
    }

    pub(super) fn close_token(&self) -> CancellationToken {
        self.close.clone()
    }

    pub(super) fn write_stalled(&self) {
        lock(&self.close_reason).get_or_insert(Closed::WriteStall);
    }

    pub(super) fn offer_stream_token(&self, token: CancellationToken) {
        *lock(&self.next_stream) = Some(token);
    }

    pub(super) fn take_stream_token(&self) -> Option<CancellationToken> {
        lock(&self.next_stream).take()
    }

    pub(super) fn begin_call(self: &Arc<ConnState>) -> CallGuard {
        if self.open_calls.fetch_add(1, Ordering::AcqRel) == 0 {
            self.changed.notify_one();
        }
        CallGuard(self.clone())
    }

    /// When the connection becomes idle too long, or `None` while a call is open.
    pub(super) fn idle_deadline(&self, idle_timeout: Duration) -> Option<Instant> {
        (self.open_calls.load(Ordering::Acquire) == 0)
            .then(|| *lock(&self.idle_since) + idle_timeout)
    }
}

/// A poisoned lock only means another thread panicked while holding it; the instants and
/// options inside are valid whatever happened.
pub(super) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Counts a call as open on its connection while it lives.
#[derive(Debug)]
pub(super) struct CallGuard(Arc<ConnState>);

impl Drop for CallGuard {
    fn drop(&mut self) {
        if self.0.open_calls.fetch_sub(1, Ordering::AcqRel) == 1 {
            *lock(&self.0.idle_since) = Instant::now();
            self.0.changed.notify_one();
        }
    }
}

/// Connections that have not greeted yet, oldest first: the ones eviction may close.
#[derive(Debug, Default)]
pub(super) struct Greeting {
    /// Keyed by connection id (ids rise, so the first is the oldest). A plain mutex: every
    /// use is one map operation.
    waiting: Mutex<BTreeMap<u64, Arc<ConnState>>>,
}

impl Greeting {
    pub(super) fn insert(&self, conn: Arc<ConnState>) {
        self.lock().insert(conn.id, conn);
    }

    /// Forgets connection `id` (it greeted or closed).
    pub(super) fn remove(&self, id: u64) {
        self.lock().remove(&id);
    }

    pub(super) fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    /// Closes the oldest connection still greeting; `false` if there is none.
    pub(super) fn evict_oldest(&self) -> bool {
        let oldest = self.lock().pop_first();
        match oldest {
            Some((_, conn)) => {
                conn.force_close(Closed::Evicted);
                true
            }
            None => false,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Arc<ConnState>>> {
        // The map stays consistent whatever a panicking holder did: each use is one operation.
        self.waiting
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
