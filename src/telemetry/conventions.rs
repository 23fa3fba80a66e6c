//! chessd's spans as OpenTelemetry's semantic conventions name them. The log keeps the short
//! names and fields of `spans` (`rpc{method=...}`); a collector gets a server span named
//! `chessd.v1.GameService/SubmitMove` with `rpc.*` attributes, and client spans with `db.*`
//! attributes for the store. [`Conventions`] wraps the SDK's tracer and renames each span as
//! it starts, so neither the call sites nor the log carry OpenTelemetry's vocabulary.
//!
//! | span | OpenTelemetry name | kind | attributes added or renamed |
//! | --- | --- | --- | --- |
//! | `rpc` | `chessd.v1.GameService/<method>` | server | `rpc.system`, `rpc.service`, `rpc.method` (from `method`) |
//! | `journal` | `journal` | internal | |
//! | `sqlite` | `COMMIT` | client | `db.system.name`, `db.operation.name` |
//! | `redis` | the command (`EVALSHA <script>` for a script) | client | `db.system.name`, `db.operation.name` (from `command`), `db.stored_procedure.name` (from `script`), `db.operation.batch.size` (from `commands`) |
//!
//! Other fields stay attributes under their own names (`game_id`, `request_id`, `ticket`,
//! `changes`), as in the log.

use std::borrow::Cow;

use opentelemetry::trace::{SpanBuilder, SpanKind, Tracer};
use opentelemetry::{Context, Key, KeyValue, Value};

use crate::telemetry::spans::{JOURNAL, REDIS, RPC, SQLITE};

/// A tracer that applies chessd's conventions to every span before `T` starts it.
#[derive(Clone, Debug)]
pub(crate) struct Conventions<T>(pub T);

impl<T: Tracer> Tracer for Conventions<T> {
    type Span = T::Span;

    fn build_with_context(&self, mut builder: SpanBuilder, parent_cx: &Context) -> T::Span {
        apply(&mut builder);
        self.0.build_with_context(builder, parent_cx)
    }
}

/// Renames the span and its attributes as the table in the module doc says.
pub(crate) fn apply(builder: &mut SpanBuilder) {
    let attributes = builder.attributes.get_or_insert_with(Vec::new);
    match builder.name.as_ref() {
        RPC => {
            let method = rename(attributes, "method", "rpc.method");
            builder.name = Cow::Owned(format!(
                "{}/{}",
                crate::SERVICE_NAME,
                method.unwrap_or_default()
            ));
            builder.span_kind = Some(SpanKind::Server);
            attributes.push(KeyValue::new("rpc.system", "grpc"));
            attributes.push(KeyValue::new("rpc.service", crate::SERVICE_NAME));
        }
        JOURNAL => builder.span_kind = Some(SpanKind::Internal),
        SQLITE => {
            builder.name = Cow::Borrowed("COMMIT");
            builder.span_kind = Some(SpanKind::Client);
            attributes.push(KeyValue::new("db.system.name", "sqlite"));
            attributes.push(KeyValue::new("db.operation.name", "COMMIT"));
        }
        REDIS => {
            let command = rename(attributes, "command", "db.operation.name").unwrap_or_default();
            let script = rename(attributes, "script", "db.stored_procedure.name");
            rename(attributes, "commands", "db.operation.batch.size");
            builder.name = Cow::Owned(match script {
                Some(script) => format!("{command} {script}"),
                None => command,
            });
            builder.span_kind = Some(SpanKind::Client);
            attributes.push(KeyValue::new("db.system.name", "redis"));
        }
        _ => {}
    }
}

/// Renames attribute `from` to `to`; returns its value as text.
fn rename(attributes: &mut [KeyValue], from: &'static str, to: &'static str) -> Option<String> {
    let kv = attributes.iter_mut().find(|kv| kv.key.as_str() == from)?;
    kv.key = Key::from_static_str(to);
    Some(match &kv.value {
        Value::String(s) => s.as_str().to_owned(),
        other => other.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn built(name: &'static str, attributes: Vec<KeyValue>) -> SpanBuilder {
        let mut builder = SpanBuilder::from_name(name).with_attributes(attributes);
        apply(&mut builder);
        builder
    }

    fn attribute(builder: &SpanBuilder, key: &str) -> Option<String> {
        builder
            .attributes
            .as_ref()?
            .iter()
            .find(|kv| kv.key.as_str() == key)
            .map(|kv| kv.value.to_string())
    }

    /// A call's span is a server span named after the full method, with the rpc attributes,
    /// and keeps the game and request ids.
    #[test]
    fn rpc_span() {
        let b = built(
            RPC,
            vec![
                KeyValue::new("method", "SubmitMove"),
                KeyValue::new("game_id", "6H37FZ6TDPDP5"),
            ],
        );
        assert_eq!(b.name, "chessd.v1.GameService/SubmitMove");
        assert_eq!(b.span_kind, Some(SpanKind::Server));
        assert_eq!(attribute(&b, "rpc.method").as_deref(), Some("SubmitMove"));
        assert_eq!(attribute(&b, "method"), None);
        assert_eq!(attribute(&b, "rpc.system").as_deref(), Some("grpc"));
        assert_eq!(
            attribute(&b, "rpc.service").as_deref(),
            Some("chessd.v1.GameService")
        );
        assert_eq!(attribute(&b, "game_id").as_deref(), Some("6H37FZ6TDPDP5"));
    }

    /// A script's span names the script after the command; a plain command's is the command;
    /// a pipeline's carries its size.
    #[test]
    fn redis_spans() {
        let script = built(
            REDIS,
            vec![
                KeyValue::new("command", "EVALSHA"),
                KeyValue::new("script", "append"),
            ],
        );
        assert_eq!(script.name, "EVALSHA append");
        assert_eq!(script.span_kind, Some(SpanKind::Client));
        assert_eq!(
            attribute(&script, "db.system.name").as_deref(),
            Some("redis")
        );
        assert_eq!(
            attribute(&script, "db.operation.name").as_deref(),
            Some("EVALSHA")
        );
        assert_eq!(
            attribute(&script, "db.stored_procedure.name").as_deref(),
            Some("append")
        );
        let plain = built(REDIS, vec![KeyValue::new("command", "XRANGE")]);
        assert_eq!(plain.name, "XRANGE");
        let pipeline = built(
            REDIS,
            vec![
                KeyValue::new("command", "PIPELINE"),
                KeyValue::new("commands", 3_i64),
            ],
        );
        assert_eq!(
            attribute(&pipeline, "db.operation.batch.size").as_deref(),
            Some("3")
        );
    }

    /// The SQLite transaction is a client COMMIT span; the journal span stays as it is.
    #[test]
    fn store_spans() {
        let sqlite = built(SQLITE, vec![KeyValue::new("changes", 12_i64)]);
        assert_eq!(sqlite.name, "COMMIT");
        assert_eq!(sqlite.span_kind, Some(SpanKind::Client));
        assert_eq!(
            attribute(&sqlite, "db.system.name").as_deref(),
            Some("sqlite")
        );
        assert_eq!(attribute(&sqlite, "changes").as_deref(), Some("12"));
        let journal = built(JOURNAL, vec![KeyValue::new("ticket", 7_i64)]);
        assert_eq!(journal.name, "journal");
        assert_eq!(journal.span_kind, Some(SpanKind::Internal));
    }

    /// Spans chessd does not name (a dependency's) pass unchanged.
    #[test]
    fn other_spans_unchanged() {
        let b = built("connect", vec![KeyValue::new("method", "x")]);
        assert_eq!(b.name, "connect");
        assert_eq!(b.span_kind, None);
        assert_eq!(attribute(&b, "method").as_deref(), Some("x"));
    }
}
