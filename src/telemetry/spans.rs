//! The spans a call is traced with, shared by the log and the trace exporter: the span of one
//! GameService call, the child spans of the store's work inside it, and the caller's trace
//! context, which the propagation layer hands the call.
//!
//! Logs show these spans with the names and fields given here; `conventions` renames them
//! for OpenTelemetry. Nothing here costs anything when traces are off: the call's span is the
//! one the log always had, and the child spans are debug spans, made only when some
//! subscriber takes debug spans (the exporter does; the log does at `RUST_LOG=debug`).

use opentelemetry::Context;
use opentelemetry::trace::Status;
use tracing::Span;
use tracing::level_filters::LevelFilter;
use tracing_opentelemetry::OpenTelemetrySpanExt;

/// The span of one GameService call.
pub(crate) const RPC: &str = "rpc";
/// A change's way through the durable store's journal: from being queued until it is
/// committed.
pub(crate) const JOURNAL: &str = "journal";
/// The SQLite transaction that committed a change (with the others of its group).
pub(crate) const SQLITE: &str = "sqlite";
/// One Redis command, script or pipeline.
pub(crate) const REDIS: &str = "redis";

/// The caller's trace context (W3C `traceparent` and `tracestate`), empty when the caller sent
/// none. Requests carry it in their extensions only when traces are exported, so its absence
/// tells a handler that there is nothing to record beyond the log's fields.
#[derive(Clone, Debug, Default)]
pub struct TraceParent(pub Context);

/// The span of one call: `method`, and the game id and request id when known. With `parent`
/// (traces on) the span joins the caller's trace, or starts one when the caller sent none.
pub(crate) fn rpc(
    method: &'static str,
    game_id: Option<&str>,
    request_id: Option<&str>,
    parent: Option<&TraceParent>,
) -> Span {
    let span = tracing::info_span!(RPC, method, game_id, request_id);
    if let Some(parent) = parent {
        // Fails only when the span is disabled (every layer filtered it out): nothing to join.
        let _ = span.set_parent(parent.0.clone());
    }
    span
}

/// Records how a traced call ended: its gRPC code, and an error status for the codes that
/// mean the server failed (OpenTelemetry's gRPC conventions: the others are the caller's
/// doing, and leave the span's status unset).
pub(crate) fn record_code(span: &Span, code: tonic::Code) {
    span.set_attribute("rpc.grpc.status_code", code as i64);
    if server_fault(code) {
        span.set_status(Status::error(code.description()));
    }
}

/// Marks a traced span as failed, with a message that may reach the collector (never the
/// client): a store's failure.
pub(crate) fn record_failure(span: &Span, message: &str) {
    span.set_status(Status::error(message.to_owned()));
}

/// The codes OpenTelemetry's conventions count as a server's failure.
fn server_fault(code: tonic::Code) -> bool {
    use tonic::Code::{DataLoss, DeadlineExceeded, Internal, Unavailable, Unimplemented, Unknown};
    matches!(
        code,
        Unknown | DeadlineExceeded | Unimplemented | Internal | Unavailable | DataLoss
    )
}

/// A child of the current call's span, made by `make`; [`Span::none`] outside a call (the
/// store's background work: heartbeats, sweeps, followers), and at the cost of one atomic
/// load when no subscriber takes debug spans.
pub(crate) fn in_call(make: impl FnOnce(&Span) -> Span) -> Span {
    if LevelFilter::current() < LevelFilter::DEBUG {
        return Span::none();
    }
    let current = Span::current();
    if current.is_none() {
        return Span::none();
    }
    make(&current)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The server-fault codes are exactly the six of OpenTelemetry's gRPC conventions.
    #[test]
    fn server_faults() {
        use tonic::Code;
        let faults: Vec<Code> = (0..=16)
            .map(Code::from_i32)
            .filter(|&c| server_fault(c))
            .collect();
        assert_eq!(
            faults,
            [
                Code::Unknown,
                Code::DeadlineExceeded,
                Code::Unimplemented,
                Code::Internal,
                Code::Unavailable,
                Code::DataLoss
            ]
        );
    }

    /// Under a subscriber that takes nothing below info, a call has no child spans.
    #[test]
    fn no_child_span_at_info() {
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::INFO)
            .with_writer(std::io::sink)
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            let call = rpc("GetGame", None, None, None);
            let _entered = call.enter();
            let child = in_call(|parent| tracing::debug_span!(parent: parent, JOURNAL, ticket = 1));
            assert!(child.is_none());
        });
    }

    /// At debug, a child is made inside a call only.
    #[test]
    fn child_span_inside_a_call_only() {
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::DEBUG)
            .with_writer(std::io::sink)
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            let outside = in_call(|_| panic!("made a child span outside a call"));
            assert!(outside.is_none());
            let call = rpc("GetGame", None, None, None);
            let _entered = call.enter();
            let child = in_call(|parent| tracing::debug_span!(parent: parent, JOURNAL, ticket = 1));
            assert!(!child.is_none());
        });
    }
}
