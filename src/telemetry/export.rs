//! The trace pipeline behind `--otlp-endpoint`: chessd's spans, renamed by `conventions`,
//! batched by the OpenTelemetry SDK and exported over OTLP/gRPC (tonic, on the server's own
//! runtime) to a collector.
//!
//! Why it is shaped this way:
//! - **Calls never wait for the collector.** A finished span goes into the SDK's bounded
//!   queue (2048 spans; beyond it spans are dropped and counted); a thread of its own sends
//!   batches. An unreachable or slow collector costs spans, never a call's time.
//! - **Shutdown is bounded.** [`Telemetry::shutdown`] sends what is queued and waits at most
//!   [`FLUSH_TIMEOUT`]; a collector that does not answer by then loses those spans.
//! - **Only chessd's spans, and its events at info and above** go to the exporter, whatever
//!   `RUST_LOG` says: the log's level does not thin the traces, and a dependency's spans (or
//!   the exporter's own gRPC calls) never become traces.
//! - **Settings that cannot work stop the start**: a CA file that is missing or holds no
//!   certificate, a CA file without https, a protocol other than gRPC. An `https://` endpoint
//!   trusts the system's roots unless a CA file is given.
//! - The standard variables the SDK reads still apply: `OTEL_EXPORTER_OTLP_HEADERS`,
//!   `OTEL_EXPORTER_OTLP_TIMEOUT`, `OTEL_EXPORTER_OTLP_COMPRESSION`, `OTEL_TRACES_SAMPLER`
//!   and `OTEL_TRACES_SAMPLER_ARG`, `OTEL_BSP_*`, `OTEL_RESOURCE_ATTRIBUTES`.

use std::fmt;
use std::path::Path;
use std::time::Duration;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry::{InstrumentationScope, Key, KeyValue};
use opentelemetry_otlp::{SpanExporter, WithExportConfig, WithTonicConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::SdkTracerProvider;
use rustls_pki_types::CertificateDer;
use rustls_pki_types::pem::PemObject;
use tonic::transport::{Certificate, ClientTlsConfig};
use tracing::level_filters::LevelFilter;
use tracing::{Level, Metadata, Subscriber};
use tracing_subscriber::Layer;
use tracing_subscriber::filter::filter_fn;
use tracing_subscriber::registry::LookupSpan;

use crate::telemetry::config::TelemetryConfig;
use crate::telemetry::conventions::Conventions;

/// The longest a shutdown waits for the last spans to reach the collector.
pub(crate) const FLUSH_TIMEOUT: Duration = Duration::from_secs(3);

/// The service name when neither `--otel-service-name` nor `OTEL_RESOURCE_ATTRIBUTES` gives one.
pub(crate) const DEFAULT_SERVICE_NAME: &str = "chessd";

/// The exporter could not be set up.
#[derive(Debug)]
pub struct StartError(String);

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StartError {}

/// The running pipeline.
#[derive(Debug)]
pub struct Telemetry {
    provider: SdkTracerProvider,
    endpoint: String,
}

impl Telemetry {
    /// Sets the exporter up; nothing is dialled until the first batch, so a collector that is
    /// down does not delay the start. Must run inside the tokio runtime that serves (the
    /// exporter's channel lives on it), which must outlive [`Telemetry::shutdown`].
    pub fn start(config: &TelemetryConfig) -> Result<Telemetry, StartError> {
        if let Some((variable, protocol)) = &config.protocol
            && protocol.trim() != "grpc"
        {
            return Err(StartError(format!(
                "{variable} is {protocol:?}, but chessd exports OTLP over gRPC only (grpc)"
            )));
        }
        let mut builder = SpanExporter::builder()
            .with_tonic()
            .with_endpoint(config.endpoint.as_str());
        match (&config.ca_file, config.endpoint.is_https()) {
            (Some(_), false) => {
                return Err(StartError(
                    "--otlp-ca-file is for an https:// endpoint".to_owned(),
                ));
            }
            (Some(path), true) => builder = builder.with_tls_config(trusting(path)?),
            (None, true) => {
                builder = builder.with_tls_config(ClientTlsConfig::new().with_native_roots());
            }
            (None, false) => {}
        }
        let exporter = builder
            .build()
            .map_err(|e| StartError(format!("--otlp-endpoint: {e}")))?;
        let provider = SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .with_resource(resource(config.service_name.as_deref()))
            .build();
        Ok(Telemetry {
            provider,
            endpoint: config.endpoint.to_string(),
        })
    }

    /// The layer that turns chessd's spans into exported traces.
    pub fn layer<S>(&self) -> impl Layer<S> + use<S>
    where
        S: Subscriber + for<'a> LookupSpan<'a>,
    {
        let scope = InstrumentationScope::builder("chessd")
            .with_version(env!("CARGO_PKG_VERSION"))
            .build();
        let tracer = Conventions(self.provider.tracer_with_scope(scope));
        tracing_opentelemetry::layer()
            .with_tracer(tracer)
            // Source locations, threads, targets and busy/idle times would be attributes on
            // every span (and the times a clock read at every poll) that nobody reads.
            .with_location(false)
            .with_threads(false)
            .with_target(false)
            .with_tracked_inactivity(false)
            // Children find their parent through tracing's own span stack.
            .with_context_activation(false)
            .with_filter(
                filter_fn(|meta: &Metadata<'_>| {
                    exported(meta.target(), *meta.level(), meta.is_span())
                })
                .with_max_level_hint(LevelFilter::DEBUG),
            )
    }

    /// Where the traces go, for the start's log line.
    #[must_use]
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Sends the spans still queued, waiting at most `FLUSH_TIMEOUT`; logs how it went.
    pub fn shutdown(self) {
        match self.provider.shutdown_with_timeout(FLUSH_TIMEOUT) {
            Ok(()) => tracing::info!("traces flushed"),
            Err(e) => tracing::warn!(error = %e, "traces not flushed"),
        }
    }
}

/// TLS to a collector whose certificate `path`'s CA signed, read and checked now, so that a
/// wrong file stops the start rather than every export.
fn trusting(path: &Path) -> Result<ClientTlsConfig, StartError> {
    let refuse = |why: String| StartError(format!("--otlp-ca-file {}: {why}", path.display()));
    let pem = std::fs::read(path).map_err(|e| refuse(e.to_string()))?;
    let count = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| refuse("malformed PEM certificate".to_owned()))?
        .len();
    if count == 0 {
        return Err(refuse("no PEM certificate in the file".to_owned()));
    }
    Ok(ClientTlsConfig::new().ca_certificate(Certificate::from_pem(pem)))
}

/// What the exporter takes: chessd's spans (debug and above), and its events at info and
/// above, which become events of their span (a refusal, an internal error).
fn exported(target: &str, level: Level, is_span: bool) -> bool {
    target.starts_with("chessd") && (is_span || level <= Level::INFO)
}

/// The resource every span names: the service (the flag or `OTEL_SERVICE_NAME`, else
/// `OTEL_RESOURCE_ATTRIBUTES`' `service.name`, else `chessd`), its version, and the SDK's.
fn resource(service_name: Option<&str>) -> Resource {
    let detected = Resource::builder().build();
    let name = match service_name {
        Some(name) => name.to_owned(),
        None => detected
            .get(&Key::from_static_str("service.name"))
            .map(|v| v.to_string())
            // The SDK's fallback when nothing names the service.
            .filter(|name| !name.starts_with("unknown_service"))
            .unwrap_or_else(|| DEFAULT_SERVICE_NAME.to_owned()),
    };
    let mut builder = Resource::builder().with_service_name(name);
    if detected
        .get(&Key::from_static_str("service.version"))
        .is_none()
    {
        builder =
            builder.with_attribute(KeyValue::new("service.version", env!("CARGO_PKG_VERSION")));
    }
    builder.build()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// chessd's spans at any level down to debug, and its events at info and above; nothing
    /// of other crates.
    #[test]
    fn exports_chessds_spans_and_notable_events() {
        assert!(exported("chessd::telemetry::spans", Level::INFO, true));
        assert!(exported("chessd::store::journal", Level::DEBUG, true));
        assert!(exported("chessd::api::call", Level::INFO, false));
        assert!(exported("chessd::api::call", Level::ERROR, false));
        assert!(!exported("chessd::api::call", Level::DEBUG, false));
        assert!(!exported("h2::proto", Level::INFO, true));
        assert!(!exported("opentelemetry_sdk", Level::ERROR, false));
    }
}
