//! The shutdown signal: Ctrl-C (SIGINT) or, on Unix, SIGTERM (what container runtimes send).
//!
//! Called inside the runtime, [`signal`] installs the handlers at once, not when its future is
//! first polled: a server polls its shutdown future only once it serves, and a SIGTERM that
//! came between the first answer and that poll would have killed the process with the default
//! action instead of draining it.

use std::future::{Future, pending};

#[cfg(unix)]
use tokio::signal::unix::{Signal, SignalKind};

/// Completes when the process is asked to stop. Inside a Tokio runtime it listens from the
/// moment it is called; outside one (nothing can listen yet) from its first poll. A signal that
/// cannot be listened for is logged and ignored (the other one still works).
pub fn signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        let now = tokio::runtime::Handle::try_current().is_ok().then(listen);
        async move {
            let (interrupt, terminate) = match now {
                Some(streams) => streams,
                None => listen(),
            };
            tokio::select! {
                () = wait(interrupt, "ctrl-c") => {}
                () = wait(terminate, "sigterm") => {}
            }
        }
    }
    #[cfg(not(unix))]
    async {
        match tokio::signal::ctrl_c().await {
            Ok(()) => tracing::info!("ctrl-c received"),
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for ctrl-c");
                pending::<()>().await;
            }
        }
    }
}

/// Listens for SIGINT and SIGTERM (must run inside the runtime).
#[cfg(unix)]
fn listen() -> (Option<Signal>, Option<Signal>) {
    let one = |kind: SignalKind, name: &str| match tokio::signal::unix::signal(kind) {
        Ok(stream) => Some(stream),
        Err(e) => {
            tracing::warn!(error = %e, "cannot listen for {name}");
            None
        }
    };
    (
        one(SignalKind::interrupt(), "ctrl-c"),
        one(SignalKind::terminate(), "sigterm"),
    )
}

/// The next signal on `stream`; never, without one.
#[cfg(unix)]
async fn wait(stream: Option<Signal>, name: &str) {
    match stream {
        Some(mut stream) => {
            stream.recv().await;
            tracing::info!("{name} received");
        }
        None => pending::<()>().await,
    }
}
