//! The shutdown signal: Ctrl-C (SIGINT) or, on Unix, SIGTERM (what container runtimes send).

use std::future::pending;

/// Completes when the process is asked to stop. A signal that cannot be listened for is
/// logged and ignored (the other one still works).
pub async fn signal() {
    let ctrl_c = async {
        match tokio::signal::ctrl_c().await {
            Ok(()) => tracing::info!("ctrl-c received"),
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for ctrl-c");
                pending::<()>().await;
            }
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut sigterm) => {
                sigterm.recv().await;
                tracing::info!("sigterm received");
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for sigterm");
                pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}
