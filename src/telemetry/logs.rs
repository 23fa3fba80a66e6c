//! JSON log lines that name their trace: with traces exported, a line logged inside a traced
//! call gets `trace_id` and `span_id` (lowercase hex, as W3C writes them), so a log search
//! finds the trace and a trace viewer finds the lines. Lines outside any call, and every line
//! when traces are off (this formatter is not installed then), are the JSON formatter's own.

use std::fmt;
use std::sync::{Arc, OnceLock};

use opentelemetry::trace::{SpanId, TraceContextExt, TraceId};
use tracing::dispatcher::WeakDispatch;
use tracing::{Dispatch, Event, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;

/// Wraps the JSON event formatter `F`, adding the trace ids of the event's span.
#[derive(Clone, Debug)]
pub struct TraceIds<F> {
    inner: F,
    /// The subscriber whose spans hold the trace contexts, set once it is built (see
    /// [`TraceIds::attach`]). Weak: the subscriber owns this formatter.
    dispatch: Arc<OnceLock<WeakDispatch>>,
}

impl<F> TraceIds<F> {
    #[must_use]
    pub fn new(inner: F) -> TraceIds<F> {
        TraceIds {
            inner,
            dispatch: Arc::default(),
        }
    }

    /// Looks trace contexts up in `dispatch`, the subscriber this formatter (or a clone of it)
    /// was built into. The dispatcher cannot be asked for while an event is being formatted:
    /// tracing hands a nested lookup an empty one.
    pub fn attach(&self, dispatch: &Dispatch) {
        // Set once; a second subscriber (none in chessd) would keep the first.
        let _ = self.dispatch.set(dispatch.downgrade());
    }

    /// The trace and span ids of the innermost span around the event that has a trace.
    fn ids<S, N>(&self, ctx: &FmtContext<'_, S, N>) -> Option<(TraceId, SpanId)>
    where
        S: Subscriber + for<'a> LookupSpan<'a>,
        N: for<'w> FormatFields<'w> + 'static,
    {
        let scope = ctx.event_scope()?;
        let dispatch = self.dispatch.get()?.upgrade()?;
        scope
            .filter_map(|span| tracing_opentelemetry::get_otel_context(&span.id(), &dispatch))
            .map(|cx| {
                let span = cx.span();
                let sc = span.span_context();
                (sc.trace_id(), sc.span_id())
            })
            .find(|&(trace, span)| trace != TraceId::INVALID && span != SpanId::INVALID)
    }
}

impl<S, N, F> FormatEvent<S, N> for TraceIds<F>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'w> FormatFields<'w> + 'static,
    F: FormatEvent<S, N>,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let Some((trace_id, span_id)) = self.ids(ctx) else {
            return self.inner.format_event(ctx, writer, event);
        };
        // The JSON formatter writes one object and a newline; the ids go in before its `}`.
        let mut line = String::with_capacity(256);
        self.inner
            .format_event(ctx, Writer::new(&mut line), event)?;
        let Some(open) = line.trim_end().strip_suffix('}') else {
            return writer.write_str(&line);
        };
        let comma = if open.ends_with('{') { "" } else { "," };
        writeln!(
            writer,
            "{open}{comma}\"trace_id\":\"{trace_id}\",\"span_id\":\"{span_id}\"}}"
        )
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use opentelemetry::trace::TracerProvider as _;
    use opentelemetry_sdk::trace::SdkTracerProvider;
    use tracing_opentelemetry::OpenTelemetrySpanExt;
    use tracing_subscriber::fmt::MakeWriter;
    use tracing_subscriber::fmt::format::JsonFields;
    use tracing_subscriber::layer::SubscriberExt;

    use super::*;
    use crate::telemetry::propagate::extract;

    /// Log output collected in memory.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl<'a> MakeWriter<'a> for Captured {
        type Writer = Captured;
        fn make_writer(&'a self) -> Captured {
            self.clone()
        }
    }

    /// Inside a span joined to a caller's trace, every line is valid JSON with the caller's
    /// trace id and the span's own id; outside, lines have neither.
    #[test]
    fn lines_inside_a_trace_name_it() {
        let out = Captured::default();
        let format = TraceIds::new(
            tracing_subscriber::fmt::format()
                .json()
                .with_current_span(true)
                .with_span_list(false),
        );
        // No exporter: spans get ids all the same.
        let provider = SdkTracerProvider::builder().build();
        let subscriber = tracing_subscriber::registry()
            .with(tracing_opentelemetry::layer().with_tracer(provider.tracer("test")))
            .with(
                tracing_subscriber::fmt::layer()
                    .fmt_fields(JsonFields::new())
                    .event_format(format.clone())
                    .with_writer(out.clone()),
            );
        let dispatch = Dispatch::new(subscriber);
        format.attach(&dispatch);
        let mut headers = http::HeaderMap::new();
        headers.insert(
            "traceparent",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
                .parse()
                .unwrap(),
        );
        let parent = extract(&headers);
        let span_id = tracing::dispatcher::with_default(&dispatch, || {
            tracing::info!("before");
            let span = tracing::info_span!("rpc", method = "GetGame");
            let _ = span.set_parent(parent.0);
            let id = span.in_scope(|| {
                tracing::info!(code = 5, "refused");
                Span::current().context().span().span_context().span_id()
            });
            tracing::info!("after");
            id
        });
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[0].get("trace_id").is_none(), "{text}");
        assert_eq!(lines[1]["trace_id"], "4bf92f3577b34da6a3ce929d0e0e4736");
        assert_eq!(lines[1]["span_id"], span_id.to_string());
        assert_ne!(lines[1]["span_id"], "00f067aa0ba902b7");
        assert_eq!(lines[1]["fields"]["message"], "refused");
        assert_eq!(lines[1]["span"]["method"], "GetGame");
        assert!(lines[2].get("trace_id").is_none(), "{text}");
    }

    use tracing::Span;
}
