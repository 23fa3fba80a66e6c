//! `LeanFields`: how text logs write span and event fields. The output is exactly that of
//! tracing-subscriber's `DefaultFields`, made cheaper for the common case.
//!
//! Every RPC opens a span with its method, game id and request id, and the text formatter
//! renders a span's fields when the span is created, on every call, logged or not. The
//! default visitor writes a `&str` through `Debug`, escaping character by character and going
//! through `fmt::write` and the ANSI styling types even with colours off. It cost 3,100 of the
//! 85,000 instructions of a SubmitMove (callgrind, README Performance); with this formatter the
//! whole span costs 2,700 instead of 4,200.
//!
//! A string that `Debug` would leave as it is (printable ASCII, no `"` or `\`) is therefore
//! written directly, quoted as `Debug` would quote it. Everything else goes to `DefaultVisitor`:
//! other value types, messages, escapes, and any output with ANSI colours. Client text such as
//! a request id is still escaped whenever it needs escaping.

use std::fmt;

use tracing::field::{Field, Visit};
use tracing_subscriber::field::{RecordFields, VisitOutput};
use tracing_subscriber::fmt::FormatFields;
use tracing_subscriber::fmt::format::{DefaultVisitor, Writer};

/// The field formatter for `--log-format text`.
#[derive(Clone, Copy, Debug, Default)]
pub struct LeanFields;

impl<'writer> FormatFields<'writer> for LeanFields {
    fn format_fields<R: RecordFields>(&self, writer: Writer<'writer>, fields: R) -> fmt::Result {
        let mut visitor = LeanVisitor {
            writer,
            is_empty: true,
            result: Ok(()),
        };
        fields.record(&mut visitor);
        visitor.result
    }
}

/// Writes one record's fields, separated by spaces, like `DefaultVisitor`.
struct LeanVisitor<'writer> {
    writer: Writer<'writer>,
    /// Nothing written yet: the next field needs no separating space.
    is_empty: bool,
    result: fmt::Result,
}

impl LeanVisitor<'_> {
    /// Lets `DefaultVisitor` write one field, continuing the same line.
    fn delegate(&mut self, field: &Field, record: impl FnOnce(&mut DefaultVisitor<'_>)) {
        if self.result.is_err() {
            return;
        }
        let mut visitor = DefaultVisitor::new(self.writer.by_ref(), self.is_empty);
        record(&mut visitor);
        self.result = visitor.finish();
        // DefaultVisitor writes every field except `log.*` metadata (tracing-log).
        self.is_empty = self.is_empty && field.name().starts_with("log.");
    }
}

impl Visit for LeanVisitor<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        let name = field.name();
        let plain = name != "message"
            && !name.starts_with("r#")
            && !name.starts_with("log.")
            && !self.writer.has_ansi_escapes()
            && value
                .bytes()
                .all(|b| (b' '..=b'~').contains(&b) && b != b'"' && b != b'\\');
        if !plain {
            self.delegate(field, |v| v.record_str(field, value));
            return;
        }
        if self.result.is_err() {
            return;
        }
        let pad = if self.is_empty { "" } else { " " };
        self.is_empty = false;
        let w = &mut self.writer;
        self.result = w
            .write_str(pad)
            .and_then(|()| w.write_str(name))
            .and_then(|()| w.write_str("=\""))
            .and_then(|()| w.write_str(value))
            .and_then(|()| w.write_char('"'));
    }

    fn record_error(&mut self, field: &Field, value: &(dyn std::error::Error + 'static)) {
        self.delegate(field, |v| v.record_error(field, value));
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.delegate(field, |v| v.record_debug(field, value));
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex, PoisonError};

    use proptest::prelude::*;
    use tracing_subscriber::fmt::MakeWriter;
    use tracing_subscriber::fmt::format::DefaultFields;

    use super::*;

    /// Log output collected in memory.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .extend_from_slice(buf);
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

    /// What a span and an event inside it log, with the given field formatter.
    fn log_with<N>(fields: N, ansi: bool, method: &str, id: Option<&str>, note: &str) -> String
    where
        N: for<'w> FormatFields<'w> + Send + Sync + 'static,
    {
        let out = Captured::default();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(out.clone())
            .with_ansi(ansi)
            .without_time()
            .fmt_fields(fields)
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            let span = tracing::info_span!("rpc", method, game_id = id, n = 7);
            span.in_scope(|| tracing::info!(note, r#type = "x", error = %"e", "refused {}", 1));
        });
        let bytes = out.0.lock().unwrap_or_else(PoisonError::into_inner).clone();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Plain, escaped, empty and absent fields are written exactly as `DefaultFields` writes
    /// them, with and without colours.
    #[test]
    fn same_output_as_default_fields() {
        for ansi in [false, true] {
            for (method, id, note) in [
                ("SubmitMove", Some("01J5Z8Q3W0XKD"), "ok"),
                ("", None, ""),
                ("a\"b", Some("back\\slash"), "new\nline"),
                ("tab\there", Some("é ünïcode"), "\u{1b}[31mred"),
            ] {
                let lean = log_with(LeanFields, ansi, method, id, note);
                let default = log_with(DefaultFields::new(), ansi, method, id, note);
                assert!(lean.contains("refused 1"), "{lean}");
                assert_eq!(lean, default, "ansi={ansi} method={method:?}");
            }
        }
    }

    proptest! {
        /// Any client text comes out as `DefaultFields` writes it (escaped where needed).
        #[test]
        fn any_text_same_as_default(method in ".{0,20}", id in proptest::option::of(".{0,20}"), note in "[ -~]{0,20}") {
            let lean = log_with(LeanFields, false, &method, id.as_deref(), &note);
            let default = log_with(DefaultFields::new(), false, &method, id.as_deref(), &note);
            prop_assert_eq!(lean, default);
        }
    }
}
