//! OpenTelemetry traces (`--otlp-endpoint`): off by default, and then free (no exporter, no
//! layer, no per-call work beyond the log's span).
//!
//! With an endpoint, every GameService call is a server span in its caller's trace (W3C
//! `traceparent` from gRPC or gRPC-Web headers), with the game id, request id and gRPC code;
//! inside it, the durable store's journal wait (an internal span) and SQLite transaction, and
//! each Redis command or script (client spans). JSON log lines inside a call name its
//! `trace_id`.
//!
//! Files, bottom to top: `spans` (the spans and the caller's context, used by the API, the
//! gate and the stores), `conventions` (their OpenTelemetry names), `propagate` (the tower
//! layer reading `traceparent`), `logs` (trace ids in JSON lines), `config` (the flags and OpenTelemetry's variables),
//! `export` (the SDK pipeline and its bounded shutdown).

pub(crate) mod config;
pub(crate) mod conventions;
pub(crate) mod export;
pub(crate) mod logs;
pub(crate) mod propagate;
pub(crate) mod spans;

pub use self::config::{OtlpEndpoint, TelemetryArgs, TelemetryConfig};
pub use self::export::{StartError, Telemetry};
pub use self::logs::TraceIds;
pub use self::propagate::PropagateLayer;
pub use self::spans::TraceParent;
