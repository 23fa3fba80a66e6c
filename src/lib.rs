//! chessd: a gRPC game-state service for chess and its variants.
//!
//! Backends, bots and platforms create games, submit moves, and watch games live; the server
//! enforces the rules (the `chessd-rules` engine), runs the clocks and records the outcome.
//!
//! Layout, bottom to top (each layer imports only those below it):
//! - `chessd-rules` (crates/rules): the engine.
//! - `game`: the domain: ids, seat tokens, time, clocks, actions, events, `GameRecord`, views.
//!   No storage, no protobuf. `error`: the service error (the sum of each layer's own) and its
//!   single mapping to `tonic::Status`.
//! - `store`: the store's traits, one per concern (`GameStore` is their sum), and its backends
//!   (`memory/`, `sqlite/`: the memory store plus a journal, `redis/`).
//! - `api`: the GameService handlers, decode/encode between protobuf and the domain, the
//!   WatchGame stream, tonic's refusals recoded.
//! - `security`: TLS, API keys, rate limits and their gate, credential redaction.
//! - `transport`: chessd's own accept loop and connection driver over hyper: connection cap,
//!   greeting and idle deadlines, write stalls, per-stream resets.
//! - `server`: [`run`]: the services, health, reflection and the spectator page (`web`) over
//!   the transport, and the shutdown's grace, drain and close.
//! - `config`: flags and environment, building each layer's configuration; `units`: their
//!   parsers. `shutdown`: Ctrl-C or SIGTERM. `perft_cmd`: `chessd perft`.
//!   `play_cmd`: `chessd play`, a person against a local engine; `random_engine`: `chessd
//!   random-engine`, the UCI random mover it falls back on. `woken`: a future polled only
//!   when it woke its task, for select branches that almost never fire.
//! - `telemetry`: OpenTelemetry traces (`--otlp-endpoint`): the call and store spans, the
//!   caller's `traceparent`, the exporter, trace ids in JSON logs.
//! - `metrics`: the Prometheus series and `/metrics`. `logfields`: the text log's field
//!   formatter (`DefaultFields` output, cheaper per call).
//! - [`proto`]: the generated protobuf types, server and client (`proto/chessd/v1`).

#![forbid(unsafe_code)]
// What the binary, the integration tests, the benches and the fuzz targets use is `pub`; every
// other item is `pub(crate)`, and this lint (denied with clippy's `-D warnings`) keeps it so.
#![warn(unreachable_pub)]

pub mod api;
pub mod config;
pub mod error;
pub mod game;
pub mod logfields;
pub mod metrics;
pub mod perft_cmd;
pub mod play_cmd;
pub mod random_engine;
pub mod security;
pub mod server;
pub mod shutdown;
pub mod store;
pub mod telemetry;
pub mod transport;
pub(crate) mod units;
pub(crate) mod woken;

pub use config::ServerConfig;
pub use server::{RunError, run};

/// The `chessd.v1` protobuf types, the server and the client
/// (`proto::game_service_client::GameServiceClient`): the `chessd-proto` crate, which the
/// bot, the bench and Rust clients share.
pub use chessd_proto as proto;

/// The fully qualified name of the game service, as health checks and reflection know it.
pub const SERVICE_NAME: &str = proto::game_service_server::SERVICE_NAME;
