//! The shutdown signal: Ctrl-C (SIGINT) or, on Unix, SIGTERM (what container runtimes send).
//!
//! The handlers are installed when [`signal`] is called, not when its future is first polled:
//! a server polls its shutdown future only once it serves, and a SIGTERM that came between the
//! first answer and that poll would have killed the process with the default action instead
//! of draining it.

use std::future::{Future, pending};

/// Completes when the process is asked to stop, listening from the moment it is called. A
/// signal that cannot be listened for is logged and ignored (the other one still works).
pub fn signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let listen = |kind: SignalKind, name: &'static str| match signal(kind) {
            Ok(stream) => Some(stream),
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for {name}");
                None
            }
        };
        let interrupt = listen(SignalKind::interrupt(), "ctrl-c");
        let terminate = listen(SignalKind::terminate(), "sigterm");
        async move {
            let wait = |stream: Option<tokio::signal::unix::Signal>, name: &'static str| async move {
                match stream {
                    Some(mut stream) => {
                        stream.recv().await;
                        tracing::info!("{name} received");
                    }
                    None => pending::<()>().await,
                }
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
