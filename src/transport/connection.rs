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
//!    the connection at once. While draining, a connection with no open call is dropped
//!    [`DRAIN_IDLE_CLOSE`] after the drain began or its last call ended, whatever its peer
//!    does: HTTP/2's graceful GOAWAY waits for the peer to answer a PING, and a peer that
//!    stopped reading its socket would otherwise hold the shutdown for the whole drain
//!    timeout.

use std::sync::Arc;
use std::task::Poll;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::net::TcpStream;
use tokio::time::{Instant, sleep_until, timeout_at};
use tokio_util::either::Either;

use crate::transport::coalesce::coalesced;
use crate::transport::config::HTTP1_HEADER_TIMEOUT;
use crate::transport::io::Watched;
use crate::transport::state::{Closed, ConnState, Shared, closed, lock};
use crate::transport::stream::{ConnService, StreamExec};
use crate::woken::WhenWoken;

/// How long a draining connection with no open call is kept: time for a peer's requests
/// already on the wire to arrive (and be served) and for a cooperative peer to close first.
pub(super) const DRAIN_IDLE_CLOSE: std::time::Duration = std::time::Duration::from_secs(1);

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
    let (io, write_out) = coalesced(Watched::new(io, conn.clone(), config.stall_timeout));
    let io = TokioIo::new(io);
    let mut builder = auto::Builder::new(StreamExec { conn: conn.clone() });
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(config.idle_timeout.min(HTTP1_HEADER_TIMEOUT));
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
    // When the drain reached this connection.
    let mut drained_at: Option<Instant> = None;
    let reason = loop {
        let idle_at = if goaway || !conn.greeted() {
            None
        } else {
            conn.idle_deadline(config.idle_timeout)
        };
        let drain_idle_at = drained_at.and_then(|at| {
            conn.idle_deadline(DRAIN_IDLE_CLOSE)
                .map(|idle| idle.max(at + DRAIN_IDLE_CLOSE))
        });
        tokio::select! {
            biased;
            () = WhenWoken::new(conn.close.cancelled()) => break None,
            served = std::future::poll_fn(|cx| {
                let served = connection.as_mut().poll(cx);
                // A little written goes out a turn later, with what the tasks ready now add
                // to it (see `coalesce`): a watched move's answer and its stream messages
                // are made by separate tasks.
                if served.is_pending() && write_out.defer(cx) {
                    return Poll::Pending;
                }
                // What hyper wrote goes out now, in one write (see `coalesce`); a write the
                // peer leaves pending has registered this task's waker.
                match write_out.poll_write_out(cx) {
                    Poll::Ready(Err(e)) => Poll::Ready(Err(e.into())),
                    _ => served,
                }
            }) => {
                if let Err(e) = served {
                    tracing::debug!(peer = %conn.peer, error = %e, "connection ended");
                }
                break None;
            }
            () = sleep_until(deadline), if !conn.greeted() => break Some(Closed::HandshakeTimeout),
            () = WhenWoken::new(conn.changed.notified()) => {}
            () = sleep_until(idle_at.unwrap_or(deadline)), if idle_at.is_some() => {
                // A call may have begun since the deadline was read.
                if conn.idle_deadline(config.idle_timeout).is_some_and(|at| at <= Instant::now()) {
                    connection.as_mut().graceful_shutdown();
                    goaway = true;
                    idled = true;
                    drop_at = Some(Instant::now() + shared.close_grace);
                }
            }
            () = WhenWoken::new(shared.draining.cancelled()), if drained_at.is_none() => {
                if !goaway {
                    connection.as_mut().graceful_shutdown();
                    goaway = true;
                }
                drop_at = None;
                drained_at = Some(Instant::now());
            }
            () = sleep_until(drop_at.unwrap_or(deadline)), if drop_at.is_some() => break None,
            () = sleep_until(drain_idle_at.unwrap_or(deadline)), if drain_idle_at.is_some() => {
                // A call may have begun since the deadline was read.
                if conn.idle_deadline(DRAIN_IDLE_CLOSE).is_some() {
                    break None;
                }
            }
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
