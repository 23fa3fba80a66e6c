//! chessd: a gRPC game-state service for chess and Racing Kings.
//!
//! Backends, bots and platforms create games, submit moves, and watch games live; the server
//! enforces the rules (the `chessd-rules` engine), runs the clocks and records the outcome.
//!
//! Layout:
//! - `server`: [`run`]: the services, health and reflection over the transport, and the
//!   shutdown's grace, drain and close.
//! - `transport`: chessd's own accept loop and connection driver over hyper: connection cap,
//!   greeting and idle deadlines, write stalls, per-stream resets.
//! - `config`: flags and environment, defaults as documented constants.
//! - `service`: the GameService handlers: decode, call the store, encode.
//! - `convert`: the only module that knows both protobuf and engine types.
//! - `store`: the game store trait, the in-memory store (records, clocks, events, timer), the
//!   durable SQLite store (`--data-dir`) and the Redis store shared by replicas (`--redis`).
//! - `watch`: the WatchGame stream, its pump task, and the per-address watcher bounds.
//! - `error`: the service error enum and its single mapping to `tonic::Status`.
//! - `logfields`: the text log's field formatter (`DefaultFields` output, cheaper per call).
//! - `metrics`: the Prometheus series and the `/metrics` endpoint (`--metrics-listen`).
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
pub mod logfields;
pub mod metrics;
pub mod perft_cmd;
pub mod recode;
pub mod security;
pub mod server;
pub mod service;
pub mod shutdown;
pub mod store;
pub mod token;
pub mod transport;
pub mod watch;
pub mod web;

pub use config::ServerConfig;
pub use server::{RunError, run};

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
