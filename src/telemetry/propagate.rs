//! The caller's trace context into each request: W3C Trace Context (`traceparent`,
//! `tracestate`) read from the request's headers, which carry gRPC metadata and gRPC-Web's
//! headers alike, and put in its extensions as a [`TraceParent`] for the call's span to join.
//! Installed only when traces are exported; a malformed `traceparent` is ignored (the call
//! starts a trace of its own), as the W3C recommendation asks.

use std::task::{Context, Poll};

use http::HeaderMap;
use opentelemetry::propagation::{Extractor, TextMapPropagator};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use tower::{Layer, Service};

use crate::telemetry::spans::TraceParent;

/// The layer.
#[derive(Clone, Debug, Default)]
pub struct PropagateLayer;

impl<S> Layer<S> for PropagateLayer {
    type Service = Propagate<S>;

    fn layer(&self, inner: S) -> Propagate<S> {
        Propagate { inner }
    }
}

/// Hands each request its caller's trace context.
#[derive(Clone, Debug)]
pub struct Propagate<S> {
    inner: S,
}

impl<S, B> Service<http::Request<B>> for Propagate<S>
where
    S: Service<http::Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: http::Request<B>) -> S::Future {
        let parent = extract(request.headers());
        request.extensions_mut().insert(parent);
        self.inner.call(request)
    }
}

/// The trace context in `headers` (an empty context when there is none, or it is malformed).
pub(crate) fn extract(headers: &HeaderMap) -> TraceParent {
    let shaped = headers
        .get("traceparent")
        .and_then(|v| v.to_str().ok())
        .is_some_and(well_formed);
    if !shaped {
        return TraceParent::default();
    }
    // From an empty context, not the thread's current one: a call's trace is its caller's.
    let cx = TraceContextPropagator::new()
        .extract_with_context(&opentelemetry::Context::new(), &Headers(headers));
    TraceParent(cx)
}

/// Whether `value` has the shape W3C Trace Context gives `traceparent`: version, trace id,
/// parent id and flags of exactly 2, 32, 16 and 2 lowercase hex digits (a later version may
/// add fields after them). The propagator checks the values but not every length: a short
/// trace id would otherwise be read with leading zeros, a trace the caller never had.
fn well_formed(value: &str) -> bool {
    let mut fields = value.trim().split('-');
    let hex = |field: Option<&str>, len: usize| {
        field.is_some_and(|f| {
            f.len() == len
                && f.bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        })
    };
    let version = fields.next();
    let shaped = hex(version, 2)
        && hex(fields.next(), 32)
        && hex(fields.next(), 16)
        && hex(fields.next(), 2);
    // Version 00 has nothing more.
    shaped && (version != Some("00") || fields.next().is_none())
}

/// Headers as the propagator reads them.
struct Headers<'a>(&'a HeaderMap);

impl Extractor for Headers<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|v| v.to_str().ok())
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(http::HeaderName::as_str).collect()
    }
}

#[cfg(test)]
mod tests {
    use opentelemetry::trace::{TraceContextExt, TraceId};

    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.insert(*k, v.parse().unwrap());
        }
        map
    }

    /// A valid `traceparent` gives its trace id, parent span id and sampled flag, as a remote
    /// parent; `tracestate` comes along.
    #[test]
    fn reads_traceparent() {
        let parent = extract(&headers(&[
            (
                "traceparent",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            ),
            ("tracestate", "vendor=value"),
        ]));
        let span = parent.0.span();
        let sc = span.span_context();
        assert!(sc.is_valid() && sc.is_remote() && sc.is_sampled());
        assert_eq!(
            sc.trace_id(),
            TraceId::from_hex("4bf92f3577b34da6a3ce929d0e0e4736").unwrap()
        );
        assert_eq!(format!("{}", sc.span_id()), "00f067aa0ba902b7");
        assert_eq!(sc.trace_state().get("vendor"), Some("value"));
    }

    /// A later version may carry more fields after the four it shares with 00.
    #[test]
    fn reads_later_versions() {
        let parent = extract(&headers(&[(
            "traceparent",
            "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-later",
        )]));
        assert!(parent.0.span().span_context().is_valid());
    }

    /// No header, or a malformed one (bad version, all-zero ids, wrong length), gives an
    /// empty context: the call starts its own trace.
    #[test]
    fn ignores_missing_or_malformed() {
        for value in [
            None,
            Some("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
            Some("00-00000000000000000000000000000000-00f067aa0ba902b7-01"),
            Some("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01"),
            Some("00-4bf92f3577b34da6a3ce929d0e0e47-00f067aa0ba902b7-01"),
            Some("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902-01"),
            Some("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01"),
            Some("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra"),
            Some("0-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
            Some("not a traceparent"),
        ] {
            let map = match value {
                None => HeaderMap::new(),
                Some(v) => headers(&[("traceparent", v)]),
            };
            let parent = extract(&map);
            assert!(!parent.0.span().span_context().is_valid(), "{value:?}");
        }
    }
}
