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
//! - `coalesce`: what hyper writes in one poll of a connection goes out in one write.
//! - `io`: the byte stream under hyper: it spots the HTTP/2 greeting and fails writes the peer
//!   leaves pending past `--stall-timeout`.
//! - `stream`: the per-connection service and executor: open calls counted, and a
//!   [`StreamReset`] for each call, so a stream hyper no longer polls (its peer grants no
//!   flow-control window) can still be ended.
//!
//! What each request carries in its extensions: tonic's `TcpConnectInfo` (the peer's address,
//! over TLS too) and the call's [`StreamReset`].

mod coalesce;
mod config;
mod connection;
mod io;
mod listener;
mod state;
mod stream;
mod throttle;

use std::convert::Infallible;
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

pub use self::config::{
    DEFAULT_HANDSHAKE_TIMEOUT, DEFAULT_IDLE_TIMEOUT, DEFAULT_KEEPALIVE_INTERVAL,
    DEFAULT_KEEPALIVE_TIMEOUT, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_STREAMS_PER_CONNECTION,
    DEFAULT_STALL_TIMEOUT, TransportConfig,
};
pub use self::state::Closed;
use self::state::Shared;
pub use self::stream::StreamReset;

/// A running transport: the handle the server drains it with.
#[derive(Debug)]
pub struct Transport {
    stop_accepting: CancellationToken,
    draining: CancellationToken,
    force_close: CancellationToken,
    tasks: TaskTracker,
}

impl Transport {
    /// Serves `service` on `listener` (TLS when `tls` is given), in tasks of its own. After
    /// GOAWAY for idleness, a connection's open streams get `close_grace` before it is
    /// dropped.
    pub fn start<S, B>(
        listener: TcpListener,
        service: S,
        config: TransportConfig,
        close_grace: std::time::Duration,
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
            close_grace,
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
