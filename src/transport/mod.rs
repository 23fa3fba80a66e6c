//! The transport: chessd's own accept loop and connection driver over hyper, in place of
//! tonic's `Server::serve`. Bounding what a hostile peer can hold needs a hand on every
//! connection and every stream, which tonic's server does not give:
//!
//! - `listener`: the cap on open connections (`--max-connections`), which evicts connections
//!   that have not greeted yet to make room, so silent sockets never lock clients out; accept
//!   errors (out of file descriptors) logged, counted, and met by the same eviction.
//! - `connection`: one connection's life: the greeting deadline (`--handshake-timeout`: TLS
//!   handshake, then the HTTP/2 preface and first SETTINGS or an HTTP/1.1 request), the idle
//!   bound (`--idle-timeout`: GOAWAY after that long without an open call), GOAWAY on drain
//!   and the close grace after it.
//! - `io`: the byte stream under hyper: it spots the HTTP/2 greeting and fails writes the peer
//!   leaves pending past `--stall-timeout`.
//! - `stream`: the per-connection service and executor: open calls counted, and a
//!   [`StreamReset`] for each call, so a stream hyper no longer polls (its peer grants no
//!   flow-control window) can still be ended.
//!
//! What each request carries in its extensions: tonic's `TcpConnectInfo` (the peer's address,
//! over TLS too) and the call's [`StreamReset`].

mod connection;
mod io;
mod listener;
mod stream;

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::time::Instant;
use tokio_rustls::TlsAcceptor;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

pub use stream::StreamReset;

use crate::metrics;

/// How long a new connection has to greet: finish its TLS handshake, then send the HTTP/2
/// preface and SETTINGS (any client does at once) or an HTTP/1.1 request.
pub const DEFAULT_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a connection may stay open with no call before it is sent GOAWAY (clients
/// reconnect when they next need to; keepalive pings alone do not keep it).
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(300);
/// How long a peer may take nothing: no byte of a pending write, or no event of its watch
/// stream. Then the connection is closed, or the watch stream cut.
pub const DEFAULT_STALL_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest an HTTP/1.1 connection waits for a request's headers, idle keep-alive
/// included (hyper's own default, made explicit).
const HTTP1_HEADER_TIMEOUT: Duration = Duration::from_secs(30);
/// Accept-loop warnings are logged at most this often (a flood would otherwise flood the log).
const LOG_EVERY: Duration = Duration::from_secs(10);

/// The transport's bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransportConfig {
    /// Open connections at once.
    pub max_connections: usize,
    /// Concurrent HTTP/2 streams per connection.
    pub max_streams_per_connection: u32,
    /// HTTP/2 keepalive: how often an idle connection is pinged.
    pub keepalive_interval: Duration,
    /// HTTP/2 keepalive: how long a ping may go unanswered.
    pub keepalive_timeout: Duration,
    /// See [`DEFAULT_HANDSHAKE_TIMEOUT`].
    pub handshake_timeout: Duration,
    /// See [`DEFAULT_IDLE_TIMEOUT`].
    pub idle_timeout: Duration,
    /// See [`DEFAULT_STALL_TIMEOUT`].
    pub stall_timeout: Duration,
    /// After GOAWAY for idleness, how long open streams may take before the connection is
    /// dropped.
    pub close_grace: Duration,
}

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

fn closed(reason: Closed) {
    ::metrics::counter!(metrics::CONNECTIONS_CLOSED, "reason" => reason.name()).increment(1);
}

/// What the accept loop and every connection share.
struct Shared<S> {
    service: S,
    config: TransportConfig,
    tls: Option<TlsAcceptor>,
    greeting: Arc<listener::Greeting>,
    /// Cancelled when the drain starts: every connection is sent GOAWAY.
    draining: CancellationToken,
    /// Cancelled when the drain times out: every connection is dropped (each connection's
    /// close token is a child).
    force_close: CancellationToken,
    tasks: TaskTracker,
}

/// A running transport: the handle the server drains it with.
#[derive(Debug)]
pub struct Transport {
    stop_accepting: CancellationToken,
    draining: CancellationToken,
    force_close: CancellationToken,
    tasks: TaskTracker,
}

impl Transport {
    /// Serves `service` on `listener` (TLS when `tls` is given), in tasks of its own.
    pub fn start<S, B>(
        listener: TcpListener,
        service: S,
        config: TransportConfig,
        tls: Option<Arc<tokio_rustls::rustls::ServerConfig>>,
    ) -> Transport
    where
        S: tower::Service<
                http::Request<tonic::body::Body>,
                Response = http::Response<B>,
                Error = Infallible,
            > + Clone
            + Send
            + Sync
            + 'static,
        S::Future: Send + 'static,
        B: http_body::Body<Data = hyper::body::Bytes> + Send + 'static,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let transport = Transport {
            stop_accepting: CancellationToken::new(),
            draining: CancellationToken::new(),
            force_close: CancellationToken::new(),
            tasks: TaskTracker::new(),
        };
        let shared = Arc::new(Shared {
            service,
            config,
            tls: tls.map(TlsAcceptor::from),
            greeting: Arc::default(),
            draining: transport.draining.clone(),
            force_close: transport.force_close.clone(),
            tasks: transport.tasks.clone(),
        });
        transport.tasks.spawn(listener::accept(
            listener,
            shared,
            transport.stop_accepting.clone(),
        ));
        transport
    }

    /// Closes the listening port and sends GOAWAY to every connection: open calls may
    /// finish, new ones go elsewhere.
    pub fn drain(&self) {
        self.stop_accepting.cancel();
        self.draining.cancel();
        self.tasks.close();
    }

    /// Completes when the accept loop and every connection have ended (after [`drain`]).
    ///
    /// [`drain`]: Transport::drain
    pub async fn closed(&self) {
        self.tasks.wait().await;
    }

    /// Drops every connection still open.
    pub fn close_all(&self) {
        self.force_close.cancel();
    }
}

/// Lets a warning through at most once per [`LOG_EVERY`], counting the ones held back.
#[derive(Debug)]
struct Throttle {
    last: Option<Instant>,
    suppressed: u64,
}

impl Throttle {
    fn new() -> Throttle {
        Throttle {
            last: None,
            suppressed: 0,
        }
    }

    /// `Some(warnings held back since the last one)` when a warning may be logged now.
    fn ready(&mut self) -> Option<u64> {
        let now = Instant::now();
        if self.last.is_some_and(|last| now < last + LOG_EVERY) {
            self.suppressed += 1;
            return None;
        }
        self.last = Some(now);
        Some(std::mem::take(&mut self.suppressed))
    }
}
