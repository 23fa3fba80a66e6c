//! The default target: a chessd server in this process, on its own runtime and threads, on
//! `127.0.0.1:0`, stopped when dropped.
//!
//! It is started through `chessd::run` and `chessd::ServerConfig` only: the same server as
//! `chessd serve`, with room for the bench's games and watchers and the rate limits off.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use chessd::ServerConfig;
use chessd::store::Backend;

use crate::error::{BenchError, fail};

/// Where the in-process server keeps its games.
#[derive(Clone, Debug)]
pub enum Store {
    Memory,
    /// The durable store in `dir` (`--data-dir`), with the `--sync` mode of this name.
    Sqlite {
        dir: PathBuf,
        sync: &'static str,
    },
}

/// What the server must make room for.
#[derive(Clone, Copy, Debug)]
pub struct Room {
    /// Live games at once (played and idle).
    pub games: usize,
    pub watchers_per_game: usize,
}

/// A chessd server running in this process on its own runtime.
pub struct LocalServer {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl LocalServer {
    /// Starts a server on 127.0.0.1:0. Its own two-worker runtime stands in for a separate
    /// process (two, as on the two-core machines the figures come from).
    pub fn start(store: &Store, room: Room) -> Result<LocalServer, BenchError> {
        let config = config(store, room)?;
        let listener =
            std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| fail("bind 127.0.0.1:0", e))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| fail("listener", e))?;
        let addr = listener.local_addr().map_err(|e| fail("listener", e))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("chessd-server")
            .enable_all()
            .build()
            .map_err(|e| fail("server runtime", e))?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("chessd-server".into())
            .spawn(move || {
                runtime.block_on(async move {
                    let listener = match tokio::net::TcpListener::from_std(listener) {
                        Ok(l) => l,
                        Err(e) => {
                            tracing::error!(error = %e, "bench server listener");
                            return;
                        }
                    };
                    let shutdown = async {
                        // A dropped sender stops the server too.
                        let _ = stopped.await;
                    };
                    if let Err(e) = chessd::run(listener, config, shutdown).await {
                        tracing::error!(error = %e, "bench server failed");
                    }
                });
            })
            .map_err(|e| fail("server thread", e))?;
        Ok(LocalServer {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            // The server may have stopped by itself already.
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            // A panicked server thread has already reported itself.
            let _ = thread.join();
        }
    }
}

/// The server's configuration: chessd's defaults, with room for the load.
fn config(store: &Store, room: Room) -> Result<ServerConfig, BenchError> {
    let mut config = ServerConfig::default();
    config.store.limits.max_live_games = room.games + 1_000;
    config.store.limits.max_watchers_per_game = room.watchers_per_game + 16;
    // Nobody balances load onto the bench's server: no grace before the drain.
    config.shutdown_grace = Duration::ZERO;
    config.drain_timeout = Duration::from_secs(2);
    // Every bot comes from 127.0.0.1 and plays as fast as the server answers: limits would
    // measure the limiter, not the server (as `chessd serve --no-rate-limits`).
    config.security.rate_limits = false;
    if let Store::Sqlite { dir, sync } = store {
        // By the `--sync` flag's name: the flag is chessd's stable contract, the type
        // behind it is not.
        let sync = clap::ValueEnum::from_str(sync, false)
            .map_err(|e| fail(&format!("sync mode {sync:?}"), e))?;
        config.store.backend = Backend::Sqlite {
            dir: dir.clone(),
            sync,
        };
    }
    Ok(config)
}
