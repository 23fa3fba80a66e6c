//! The accept loop and the cap on open connections (`--max-connections`).
//!
//! Each connection holds a semaphore permit until it closes. At the cap, the loop makes room
//! only by evicting the oldest connection that has not greeted yet (see `connection`): a flood
//! of silent sockets then churns among itself while a client that greets at once is served.
//! When every place is held by a connection that greeted, new connections wait in the
//! kernel's accept queue, as before the cap. An accept that fails for lack of file descriptors
//! also evicts a silent connection, then retries after a pause; both the cap and accept errors
//! are logged (at most once per `LOG_EVERY`) and counted.

use std::io;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

use crate::transport::connection;
use crate::transport::state::{ConnState, Shared};
use crate::transport::throttle::Throttle;

/// After an accept error, the loop pauses this long rather than spinning on the same error.
const ACCEPT_ERROR_PAUSE: Duration = Duration::from_millis(50);
/// After an eviction at the fd limit, long enough for the evicted connection to close its
/// socket, short enough that a queue of silent sockets drains quickly.
const EVICTION_PAUSE: Duration = Duration::from_millis(2);

/// Accepts connections until `stop` is cancelled, then drops the listener (closing the port
/// at once: new clients are refused rather than left waiting).
pub(super) async fn accept<S, B>(
    listener: TcpListener,
    shared: Arc<Shared<S>>,
    stop: CancellationToken,
) where
    S: tower::Service<
            http::Request<tonic::body::Body>,
            Response = http::Response<B>,
            Error = std::convert::Infallible,
        > + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
    B: http_body::Body<Data = hyper::body::Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let permits = Arc::new(Semaphore::new(
        shared
            .config
            .max_connections
            .clamp(1, Semaphore::MAX_PERMITS),
    ));
    let mut cap_log = Throttle::new();
    let mut error_log = Throttle::new();
    let mut next_id = 0u64;
    loop {
        let mut permit = permits.clone().try_acquire_owned().ok();
        if permit.is_none() {
            metrics::counter!(crate::metrics::CONNECTION_CAP_REACHED).increment(1);
            if let Some(suppressed) = cap_log.ready() {
                tracing::warn!(
                    max_connections = shared.config.max_connections,
                    suppressed,
                    "connection cap reached: evicting connections that have not greeted, else new ones wait"
                );
            }
            if shared.greeting.is_empty() {
                permit = tokio::select! {
                    permit = permits.clone().acquire_owned() => permit.ok(),
                    () = stop.cancelled() => return,
                };
            }
        }
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = stop.cancelled() => return,
        };
        let (tcp, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                let fd_limit = is_fd_limit(&e);
                metrics::counter!(crate::metrics::ACCEPT_ERRORS, "kind" => if fd_limit { "fd_limit" } else { "other" })
                    .increment(1);
                let evicted = fd_limit && shared.greeting.evict_oldest();
                if let Some(suppressed) = error_log.ready() {
                    tracing::warn!(error = %e, fd_limit, evicted, suppressed, "accept failed");
                }
                tokio::time::sleep(if evicted {
                    EVICTION_PAUSE
                } else {
                    ACCEPT_ERROR_PAUSE
                })
                .await;
                continue;
            }
        };
        let permit: OwnedSemaphorePermit = match permit {
            Some(permit) => permit,
            None => {
                // Room is made by the oldest silent connection; if it greeted meanwhile, this
                // one waits for a place like any other.
                shared.greeting.evict_oldest();
                tokio::select! {
                    permit = permits.clone().acquire_owned() => match permit {
                        Ok(permit) => permit,
                        Err(_) => return,
                    },
                    () = stop.cancelled() => return,
                }
            }
        };
        // Moves are small and latency matters more than packet count. Failing to set the
        // option only costs latency.
        let _ = tcp.set_nodelay(true);
        let Ok(local) = tcp.local_addr() else {
            continue;
        };
        next_id += 1;
        let conn = Arc::new(ConnState::new(
            next_id,
            peer,
            local,
            shared.greeting.clone(),
            shared.force_close.child_token(),
        ));
        shared.greeting.insert(conn.clone());
        metrics::gauge!(crate::metrics::CONNECTIONS).increment(1);
        let serving = shared.clone();
        shared.tasks.spawn(async move {
            let _permit = permit;
            connection::serve(tcp, conn, serving).await;
            metrics::gauge!(crate::metrics::CONNECTIONS).decrement(1);
        });
    }
}

/// Out of file descriptors, for the process (EMFILE) or the system (ENFILE). Both numbers are
/// the same on Linux, the BSDs and macOS.
fn is_fd_limit(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(23 | 24))
}
