//! One connection's life, from accept to close:
//!
//! 1. **Greeting**, within the handshake timeout: the TLS handshake (with TLS), then the HTTP/2
//!    preface and first SETTINGS (`io`) or an HTTP/1.1 request (`stream`). Until it greets the
//!    connection may also be evicted to make room for a newcomer (`listener`).
//! 2. **Serving** with hyper (HTTP/2, or HTTP/1.1 for gRPC-Web), while any call is open or the
//!    last one ended less than the idle timeout ago.
//! 3. **Closing**: idle too long, or the server draining, sends GOAWAY (hyper's graceful
//!    shutdown: open calls finish); what is still open after the close grace is dropped. A
//!    forced close (drain timeout, eviction, a reset of an HTTP/1.1 call, a write stall) drops
//!    the connection at once.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::net::TcpStream;
use tokio::sync::Notify;
use tokio::time::{Instant, sleep_until, timeout_at};
use tokio_util::either::Either;
use tokio_util::sync::CancellationToken;

use super::io::Watched;
use super::listener::Greeting;
use super::stream::{ConnService, StreamExec};
use super::{Closed, Shared, closed};

/// What a connection's parts share: its facts, its open calls, and how to close it.
#[derive(Debug)]
pub struct ConnState {
    pub(super) id: u64,
    pub(super) peer: SocketAddr,
    pub(super) local: SocketAddr,
    greeting: Arc<Greeting>,
    greeted: AtomicBool,
    /// Calls from request to response body dropped.
    open_calls: AtomicUsize,
    /// When the last call ended (or the connection greeted), for the idle timeout. A plain
    /// mutex: held for a read or write of an instant, never across an await.
    idle_since: Mutex<Instant>,
    /// Wakes the connection's task when it greets or its open calls go to or from zero.
    changed: Notify,
    /// Cancelled to drop the connection at once; a child of the server's own, which the drain
    /// timeout cancels.
    close: CancellationToken,
    /// Why the connection was closed by force, if it was (set before `close` is cancelled).
    close_reason: Mutex<Option<Closed>>,
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

    fn greeted(&self) -> bool {
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
    fn idle_deadline(&self, idle_timeout: Duration) -> Option<Instant> {
        (self.open_calls.load(Ordering::Acquire) == 0)
            .then(|| *lock(&self.idle_since) + idle_timeout)
    }
}

/// A poisoned lock only means another thread panicked while holding it; the instants and
/// options inside are valid whatever happened.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Counts a call as open on its connection while it lives.
#[derive(Debug)]
pub struct CallGuard(Arc<ConnState>);

impl Drop for CallGuard {
    fn drop(&mut self) {
        if self.0.open_calls.fetch_sub(1, Ordering::AcqRel) == 1 {
            *lock(&self.0.idle_since) = Instant::now();
            self.0.changed.notify_one();
        }
    }
}

/// Serves one accepted connection to its end.
pub(super) async fn serve<S, B>(tcp: TcpStream, conn: Arc<ConnState>, shared: Arc<Shared<S>>)
where
    S: tower::Service<
            http::Request<tonic::body::Body>,
            Response = http::Response<B>,
            Error = std::convert::Infallible,
        > + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
    B: http_body::Body<Data = hyper::body::Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let config = &shared.config;
    let deadline = Instant::now() + config.handshake_timeout;
    let io = match &shared.tls {
        None => Either::Left(tcp),
        Some(acceptor) => {
            let handshake = tokio::select! {
                biased;
                () = conn.close.cancelled() => return finish(&conn, None),
                handshake = timeout_at(deadline, acceptor.accept(tcp)) => handshake,
            };
            match handshake {
                Ok(Ok(tls)) => Either::Right(tls),
                Ok(Err(e)) => {
                    tracing::debug!(peer = %conn.peer, error = %e, "tls handshake failed");
                    return finish(&conn, None);
                }
                Err(_) => return finish(&conn, Some(Closed::HandshakeTimeout)),
            }
        }
    };
    let io = TokioIo::new(Watched::new(io, conn.clone(), config.stall_timeout));
    let mut builder = auto::Builder::new(StreamExec { conn: conn.clone() });
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(config.idle_timeout.min(super::HTTP1_HEADER_TIMEOUT));
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(Some(config.keepalive_interval))
        .keep_alive_timeout(config.keepalive_timeout)
        .max_concurrent_streams(config.max_streams_per_connection);
    let service = ConnService {
        inner: shared.service.clone(),
        conn: conn.clone(),
    };
    let connection = builder.serve_connection(io, service);
    tokio::pin!(connection);

    let mut goaway = false;
    let mut drop_at: Option<Instant> = None;
    let mut idled = false;
    let reason = loop {
        let idle_at = if goaway || !conn.greeted() {
            None
        } else {
            conn.idle_deadline(config.idle_timeout)
        };
        tokio::select! {
            biased;
            () = conn.close.cancelled() => break None,
            served = connection.as_mut() => {
                if let Err(e) = served {
                    tracing::debug!(peer = %conn.peer, error = %e, "connection ended");
                }
                break None;
            }
            () = sleep_until(deadline), if !conn.greeted() => break Some(Closed::HandshakeTimeout),
            () = conn.changed.notified() => {}
            () = sleep_until(idle_at.unwrap_or(deadline)), if idle_at.is_some() => {
                // A call may have begun since the deadline was read.
                if conn.idle_deadline(config.idle_timeout).is_some_and(|at| at <= Instant::now()) {
                    connection.as_mut().graceful_shutdown();
                    goaway = true;
                    idled = true;
                    drop_at = Some(Instant::now() + config.close_grace);
                }
            }
            () = shared.draining.cancelled(), if !goaway => {
                connection.as_mut().graceful_shutdown();
                goaway = true;
                drop_at = None;
            }
            () = sleep_until(drop_at.unwrap_or(deadline)), if drop_at.is_some() => break None,
        }
    };
    let reason = reason.or(idled.then_some(Closed::Idle));
    finish(
        &conn,
        reason.or_else(|| {
            // Cancelled without a reason of its own: the drain timeout (the server's token) or a
            // call's reset of its HTTP/1.1 connection.
            conn.close.is_cancelled().then(|| {
                if shared.force_close.is_cancelled() {
                    Closed::DrainTimeout
                } else {
                    Closed::Reset
                }
            })
        }),
    );
}

/// Counts and logs how a connection ended, when the server ended it (a reason set when it
/// was closed by force comes first).
fn finish(conn: &ConnState, reason: Option<Closed>) {
    // A connection that never greeted is still listed as evictable (the list holds it).
    conn.greeting.remove(conn.id);
    let forced = *lock(&conn.close_reason);
    if let Some(reason) = forced.or(reason) {
        closed(reason);
        tracing::debug!(peer = %conn.peer, reason = reason.name(), "connection closed");
    }
}
