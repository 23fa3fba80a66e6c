//! chessd: a gRPC game-state service for chess and Racing Kings.
//!
//! Backends, bots and platforms create games, submit moves, and watch games live; the server
//! enforces the rules (the `chessd-rules` engine), runs the clocks and records the outcome.
//!
//! Layout:
//! - [`run`] (here): the server: services, health, reflection, graceful shutdown.
//! - `config`: flags and environment, defaults as documented constants.
//! - `service`: the GameService handlers: decode, call the store, encode.
//! - `convert`: the only module that knows both protobuf and engine types.
//! - `store`: the game store trait, the in-memory store (records, clocks, events, timer), the
//!   durable SQLite store (`--data-dir`) and the Redis store shared by replicas (`--redis`).
//! - `watch`: the WatchGame stream type.
//! - `error`: the service error enum and its single mapping to `tonic::Status`.
//! - `logfields`: the text log's field formatter (`DefaultFields` output, cheaper per call).
//! - `metrics`: the Prometheus series and the `/metrics` endpoint (`--metrics-listen`).
//! - `loadgen`: `chessd bench`, the load generator: bots over real gRPC, latency and memory.
//! - `recode`: tonic's own refusals recoded: oversized requests RESOURCE_EXHAUSTED (tonic says
//!   OUT_OF_RANGE), undecodable ones INVALID_ARGUMENT (tonic says INTERNAL).
//! - `token`: seat tokens (generation, bearer parsing, digests, constant-time comparison).
//! - `security`: TLS, API keys, rate limits, credential redaction, connection bounds.
//! - `shutdown`: Ctrl-C or SIGTERM.
//! - `perft_cmd`: the `chessd perft` command-line entry over the rules engine.
//! - `web`: the spectator page (embedded from `web/dist`, built from `web/src`) and CORS for
//!   gRPC-Web callers; gRPC-Web itself is tonic-web, layered in [`run`].
//! - [`proto`]: the generated protobuf types, server and client (`proto/chessd/v1`).

#![forbid(unsafe_code)]

pub mod config;
pub mod convert;
pub mod error;
pub mod loadgen;
pub mod logfields;
pub mod metrics;
pub mod perft_cmd;
pub mod recode;
pub mod security;
pub mod service;
pub mod shutdown;
pub mod store;
pub mod token;
pub mod watch;
pub mod web;

use std::future::Future;
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tonic::transport::Server;
use tonic_health::ServingStatus;

pub use config::ServerConfig;

use crate::proto::game_service_server::GameServiceServer;
use crate::service::GameApi;

/// The generated code, kept private so its lint exemptions stay here.
mod pb {
    #![allow(
        clippy::all,
        clippy::pedantic,
        missing_docs,
        rustdoc::all,
        unreachable_pub
    )]
    tonic::include_proto!("chessd.v1");

    /// The encoded descriptors of `chessd.v1` and its imports, for server reflection.
    pub const FILE_DESCRIPTOR_SET: &[u8] = tonic::include_file_descriptor_set!("chessd_descriptor");
}

/// The `chessd.v1` protobuf types, the server and the client
/// (`proto::game_service_client::GameServiceClient`).
pub mod proto {
    pub use crate::pb::*;
}

/// The fully qualified name of the game service, as health checks and reflection know it.
pub const SERVICE_NAME: &str = "chessd.v1.GameService";

/// Why the server could not run.
#[derive(Debug)]
pub enum RunError {
    /// The reflection service rejected the descriptors (a build problem).
    Reflection(tonic_reflection::server::Error),
    /// The transport failed.
    Transport(tonic::transport::Error),
    /// The game store could not start (`--data-dir`: unreadable, locked or damaged database).
    Store(store::OpenError),
    /// TLS files or the API key file are missing or unusable.
    Security(security::SetupError),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Reflection(e) => write!(f, "reflection service: {e}"),
            RunError::Transport(e) => write!(f, "transport: {e}"),
            RunError::Store(e) => write!(f, "store: {e}"),
            RunError::Security(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RunError {}

/// Keeps the health status in step with a shared store's readiness (Redis reachable or not)
/// until the server drains, which then owns the status.
async fn follow_readiness(
    mut ready: tokio::sync::watch::Receiver<bool>,
    health: tonic_health::server::HealthReporter,
    draining: CancellationToken,
) {
    loop {
        let status = if *ready.borrow_and_update() {
            ServingStatus::Serving
        } else {
            ServingStatus::NotServing
        };
        if draining.is_cancelled() {
            return;
        }
        health.set_service_status("", status).await;
        health.set_service_status(SERVICE_NAME, status).await;
        tokio::select! {
            changed = ready.changed() => if changed.is_err() { return },
            () = draining.cancelled() => return,
        }
    }
}

/// Serves chessd on `listener` until `shutdown` completes, then drains: health turns
/// NOT_SERVING, new calls get UNAVAILABLE, open WatchGame streams end with UNAVAILABLE and the
/// seq to resume from, and the server waits up to `config.drain_timeout` for open calls before
/// returning.
pub async fn run(
    listener: TcpListener,
    config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), RunError> {
    // Files first: a bad TLS or key file stops the server before anything else starts.
    let security = security::Setup::start(&config.security).map_err(RunError::Security)?;
    let store = Arc::new(store::open(&config).map_err(RunError::Store)?);
    let readiness = store.readiness();
    let draining = CancellationToken::new();
    let api = GameApi::new(store, &config, draining.clone()).with_guard(security.guard.clone());

    let (health, health_service) = tonic_health::server::health_reporter();
    match readiness {
        None => {
            health
                .set_service_status(SERVICE_NAME, ServingStatus::Serving)
                .await;
        }
        Some(ready) => {
            // Known from the start (NOT_SERVING until the store answers), so health checks
            // never see an unknown service.
            health
                .set_service_status("", ServingStatus::NotServing)
                .await;
            health
                .set_service_status(SERVICE_NAME, ServingStatus::NotServing)
                .await;
            tokio::spawn(follow_readiness(ready, health.clone(), draining.clone()));
        }
    }
    let reflection = || {
        tonic_reflection::server::Builder::configure()
            .register_encoded_file_descriptor_set(proto::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_types::pb::FILE_DESCRIPTOR_SET)
    };
    let reflection_v1 = reflection().build_v1().map_err(RunError::Reflection)?;
    let reflection_v1alpha = reflection().build_v1alpha().map_err(RunError::Reflection)?;

    if let Ok(addr) = listener.local_addr() {
        tracing::info!(%addr, "chessd listening");
    }
    let sec = &config.security;
    let incoming = security::conn::incoming(listener, sec.max_connections);
    let stop_accepting = draining.clone();
    // One request size limit for every service, so the RESOURCE_EXHAUSTED answer (see
    // `recode`) always names the limit that applied.
    let limit = config.max_request_bytes;
    let mut builder = Server::builder();
    if let Some(tls) = security.tls.clone() {
        builder = builder
            .tls_config(tls)
            .map_err(|e| RunError::Security(security::SetupError::Tls(e.to_string())))?;
    }
    let server = builder
        .http2_keepalive_interval(Some(sec.keepalive_interval))
        .http2_keepalive_timeout(Some(sec.keepalive_timeout))
        .max_concurrent_streams(sec.max_streams_per_connection)
        // Browsers speak gRPC-Web over HTTP/1.1 (see `web`): CORS answers preflights first,
        // then the page's files are split off, then gRPC-Web becomes gRPC, which the
        // security gate then sees like any other call.
        .accept_http1(true)
        .layer(tower::util::option_layer(web::cors_layer(&config.web)))
        .layer(web::WebLayer::new(&config.web))
        .layer(tonic_web::GrpcWebLayer::new())
        .layer(security::gate::GateLayer::new(security.guard.clone()))
        .layer(recode::layer(limit))
        .add_service(health_service.max_decoding_message_size(limit))
        .add_service(reflection_v1.max_decoding_message_size(limit))
        .add_service(reflection_v1alpha.max_decoding_message_size(limit))
        .add_service(GameServiceServer::new(api).max_decoding_message_size(limit))
        .serve_with_incoming_shutdown(incoming, async move { stop_accepting.cancelled().await });
    tokio::pin!(server);

    tokio::select! {
        result = &mut server => return result.map_err(RunError::Transport),
        () = shutdown => {}
    }

    tracing::info!(drain_timeout = ?config.drain_timeout, "shutting down: draining");
    health
        .set_service_status("", ServingStatus::NotServing)
        .await;
    health
        .set_service_status(SERVICE_NAME, ServingStatus::NotServing)
        .await;
    draining.cancel();
    match tokio::time::timeout(config.drain_timeout, server).await {
        Ok(result) => result.map_err(RunError::Transport)?,
        Err(_) => tracing::warn!("drain timeout reached: closing the remaining connections"),
    }
    tracing::info!("chessd stopped");
    Ok(())
}
