//! The server: [`run`] puts the store, the security set-up, the services and the transport
//! together, serves until shutdown, then stops in the order balancers expect:
//!
//! 1. **Grace** (`--shutdown-grace`): health turns NOT_SERVING at once, while every call is
//!    still served, so balancers and Kubernetes take the replica out before anything is
//!    refused.
//! 2. **Drain** (`--drain-timeout`): the port closes, every connection gets GOAWAY, new calls
//!    get UNAVAILABLE, WatchGame streams end with UNAVAILABLE and the seq to resume from,
//!    health Watch streams end; open calls may finish.
//! 3. **Close**: what is still open when the drain times out is dropped.
//!
//! The store's backend is chosen once, in [`run`]; everything after it (`serve`, the API, the
//! stream pumps) is generic over that one store type, so no call dispatches on the backend.
//!
//! `health`: the health status and the end of health Watch streams. `web`: the spectator
//! page and CORS for gRPC-Web callers.

mod health;
pub mod web;

use std::future::Future;
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::api::GameApi;
use crate::api::refusals;
use crate::config::ServerConfig;
use crate::store::{
    Backend, GameStore, MemoryStore, OpenError, RedisStore, SqliteOptions, SqliteStore,
};
use crate::telemetry::PropagateLayer;
use crate::transport::Transport;
use crate::{proto, security, store};
use chessd_proto::wire::game_service_server::GameServiceServer;

/// Why the server could not run.
#[derive(Debug)]
pub enum RunError {
    /// The reflection service rejected the descriptors (a build problem).
    Reflection(tonic_reflection::server::Error),
    /// The game store could not start (`--data-dir`: unreadable, locked or damaged database).
    Store(store::OpenError),
    /// TLS files or the API key file are missing or unusable.
    Security(security::SetupError),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Reflection(e) => write!(f, "reflection service: {e}"),
            RunError::Store(e) => write!(f, "store: {e}"),
            RunError::Security(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RunError {}

/// Serves chessd on `listener` until `shutdown` completes, then stops as the module doc says
/// and returns.
pub async fn run(
    listener: TcpListener,
    config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), RunError> {
    // Files first: a bad TLS or key file stops the server before anything else starts.
    let security = security::Setup::start(&config.security).map_err(RunError::Security)?;
    let limits = config.store.limits;
    // The one place the backend is chosen: from here on the server is generic over it, so a
    // call goes straight to the backend's method. Opening blocks (a durable store reads every
    // game back), which start-up can afford.
    match &config.store.backend {
        Backend::Memory => {
            let memory = Arc::new(MemoryStore::new(limits));
            serve(memory, None, listener, &config, security, shutdown).await
        }
        Backend::Sqlite { dir, sync } => {
            let options = SqliteOptions {
                dir: dir.clone(),
                sync: *sync,
                limits,
            };
            let durable =
                SqliteStore::open(&options).map_err(|e| RunError::Store(OpenError::Durable(e)))?;
            // The durable store is the memory store plus a journal: the memory store serves,
            // and `durable`, the journal's writer, holds the file until the server has stopped.
            let served = serve(
                durable.memory(),
                None,
                listener,
                &config,
                security,
                shutdown,
            )
            .await;
            drop(durable);
            served
        }
        Backend::Redis(redis) => {
            let shared = RedisStore::open(redis, limits)
                .map_err(|e| RunError::Store(OpenError::Redis(e)))?;
            let readiness = Some(shared.readiness());
            serve(
                Arc::new(shared),
                readiness,
                listener,
                &config,
                security,
                shutdown,
            )
            .await
        }
    }
}

/// Serves `store` (always ready unless `readiness`, a store's own, says otherwise).
async fn serve<S: GameStore>(
    store: Arc<S>,
    readiness: Option<watch::Receiver<bool>>,
    listener: TcpListener,
    config: &ServerConfig,
    security: security::Setup,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), RunError> {
    // Cancelled when the drain begins.
    let draining = CancellationToken::new();
    let api = GameApi::new(store, config.api(), &config.security, draining.clone())
        .with_guard(security.guard.clone());

    let (reporter, health_service) = tonic_health::server::health_reporter();
    let health = health::Health::start(reporter, readiness).await;
    let reflection = || {
        tonic_reflection::server::Builder::configure()
            .register_encoded_file_descriptor_set(proto::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_types::pb::FILE_DESCRIPTOR_SET)
    };
    let reflection_v1 = reflection().build_v1().map_err(RunError::Reflection)?;
    let reflection_v1alpha = reflection().build_v1alpha().map_err(RunError::Reflection)?;

    // One request size limit for every service, so the RESOURCE_EXHAUSTED answer (see
    // `recode`) always names the limit that applied.
    let limit = config.max_request_bytes;
    let routes = tonic::service::Routes::new(health_service.max_decoding_message_size(limit))
        .add_service(reflection_v1.max_decoding_message_size(limit))
        .add_service(reflection_v1alpha.max_decoding_message_size(limit))
        .add_service(GameServiceServer::new(api).max_decoding_message_size(limit));
    // Browsers speak gRPC-Web over HTTP/1.1 (see `web`): CORS answers preflights first, then
    // the page's files are split off, then gRPC-Web becomes gRPC, which the security gate then
    // sees like any other call. With traces on, every call (gRPC or gRPC-Web) first learns its
    // caller's trace, so that even the gate's refusals join it.
    let services = tower::ServiceBuilder::new()
        .option_layer(web::cors_layer(&config.web))
        .layer(web::WebLayer::new(
            &config.web,
            security::page_create::page_json(config.security.page_create.as_ref()),
        ))
        .layer(tonic_web::GrpcWebLayer::new())
        .option_layer(config.traces.then_some(PropagateLayer))
        .layer(security::gate::GateLayer::new(security.guard.clone()))
        .layer(refusals::layer(limit))
        .layer(health::EndWatchesLayer::new(draining.clone()))
        .service(routes);

    if let Ok(addr) = listener.local_addr() {
        tracing::info!(%addr, "chessd listening");
        security.warn_if_exposed(addr);
    }
    let transport = Transport::start(
        listener,
        services,
        config.transport.clone(),
        config.drain_timeout,
        security.tls.clone(),
    );
    shutdown.await;

    tracing::info!(grace = ?config.shutdown_grace, "shutting down: health NOT_SERVING, still serving for the grace period");
    health.stop().await;
    tokio::time::sleep(config.shutdown_grace).await;

    tracing::info!(drain_timeout = ?config.drain_timeout, "draining: GOAWAY to every connection");
    transport.drain();
    draining.cancel();
    if tokio::time::timeout(config.drain_timeout, transport.closed())
        .await
        .is_err()
    {
        tracing::warn!("drain timeout reached: closing the remaining connections");
        transport.close_all();
        transport.closed().await;
    }
    tracing::info!("chessd stopped");
    Ok(())
}
