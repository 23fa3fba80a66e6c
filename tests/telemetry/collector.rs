//! A real OTLP/gRPC receiver: OpenTelemetry's `TraceService` (the `opentelemetry-proto`
//! definitions, served by tonic) on a loopback port, keeping every span it is sent with the
//! service name of its resource, for the tests to wait on.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::{
    TraceService, TraceServiceServer,
};
use opentelemetry_proto::tonic::collector::trace::v1::{
    ExportTraceServiceRequest, ExportTraceServiceResponse,
};
use opentelemetry_proto::tonic::common::v1::KeyValue;
use opentelemetry_proto::tonic::common::v1::any_value::Value;
use opentelemetry_proto::tonic::trace::v1::Span;
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tonic::codec::CompressionEncoding;
use tonic::transport::{Identity, Server, ServerTlsConfig};
use tonic::{Request, Response, Status};

/// One span as the collector received it.
#[derive(Clone, Debug)]
pub struct Received {
    /// `service.name` of the span's resource.
    pub service: Option<String>,
    pub span: Span,
}

impl Received {
    pub fn name(&self) -> &str {
        &self.span.name
    }

    pub fn trace_id(&self) -> String {
        hex(&self.span.trace_id)
    }

    pub fn span_id(&self) -> String {
        hex(&self.span.span_id)
    }

    /// The parent's span id, empty for a root span.
    pub fn parent_id(&self) -> String {
        hex(&self.span.parent_span_id)
    }

    /// An attribute's value as text (integers in decimal), if the span has it.
    pub fn attr(&self, key: &str) -> Option<String> {
        attribute(&self.span.attributes, key)
    }
}

/// An attribute's value as text.
pub fn attribute(attributes: &[KeyValue], key: &str) -> Option<String> {
    let value = attributes.iter().find(|kv| kv.key == key)?.value.as_ref()?;
    Some(match value.value.as_ref()? {
        Value::StringValue(s) => s.clone(),
        Value::IntValue(i) => i.to_string(),
        Value::BoolValue(b) => b.to_string(),
        Value::DoubleValue(d) => d.to_string(),
        other => format!("{other:?}"),
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[derive(Default)]
struct Shared {
    spans: Mutex<Vec<Received>>,
    /// The `grpc-encoding` of each export request (`identity` when none).
    encodings: Mutex<Vec<String>>,
    arrived: Notify,
}

/// The service: every export request's spans are kept.
struct Receiver(Arc<Shared>);

#[tonic::async_trait]
impl TraceService for Receiver {
    async fn export(
        &self,
        request: Request<ExportTraceServiceRequest>,
    ) -> Result<Response<ExportTraceServiceResponse>, Status> {
        let encoding = request
            .metadata()
            .get("grpc-encoding")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("identity")
            .to_owned();
        self.0.encodings.lock().unwrap().push(encoding);
        let mut kept = Vec::new();
        for resource_spans in request.into_inner().resource_spans {
            let service = resource_spans
                .resource
                .as_ref()
                .and_then(|r| attribute(&r.attributes, "service.name"));
            for scope_spans in resource_spans.scope_spans {
                for span in scope_spans.spans {
                    kept.push(Received {
                        service: service.clone(),
                        span,
                    });
                }
            }
        }
        self.0.spans.lock().unwrap().extend(kept);
        self.0.arrived.notify_waiters();
        Ok(Response::new(ExportTraceServiceResponse {
            partial_success: None,
        }))
    }
}

/// The running receiver; it stops with the test's runtime.
pub struct Collector {
    addr: SocketAddr,
    shared: Arc<Shared>,
    tls: bool,
}

impl Collector {
    /// A plaintext receiver.
    pub async fn start() -> Collector {
        Collector::serve(None).await
    }

    /// A receiver over TLS with this PEM certificate and key (for `localhost`).
    pub async fn start_tls(cert: &str, key: &str) -> Collector {
        Collector::serve(Some(
            ServerTlsConfig::new().identity(Identity::from_pem(cert, key)),
        ))
        .await
    }

    async fn serve(tls: Option<ServerTlsConfig>) -> Collector {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().unwrap();
        let shared = Arc::new(Shared::default());
        let service = TraceServiceServer::new(Receiver(shared.clone()))
            .accept_compressed(CompressionEncoding::Gzip);
        let mut server = Server::builder();
        if let Some(tls) = &tls {
            server = server.tls_config(tls.clone()).expect("TLS configuration");
        }
        tokio::spawn(
            server
                .add_service(service)
                .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
        );
        Collector {
            addr,
            shared,
            tls: tls.is_some(),
        }
    }

    /// The endpoint to give `--otlp-endpoint`.
    pub fn endpoint(&self) -> String {
        if self.tls {
            format!("https://localhost:{}", self.addr.port())
        } else {
            format!("http://{}", self.addr)
        }
    }

    /// The encoding of every export request so far.
    pub fn encodings(&self) -> Vec<String> {
        self.shared.encodings.lock().unwrap().clone()
    }

    /// Every span received so far.
    pub fn spans(&self) -> Vec<Received> {
        self.shared.spans.lock().unwrap().clone()
    }

    /// Waits until `found` picks something out of the spans received, up to 20 s; `what`
    /// names it in the failure, which lists what did arrive.
    pub async fn wait_for<T>(&self, what: &str, found: impl Fn(&[Received]) -> Option<T>) -> T {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let arrived = self.shared.arrived.notified();
            if let Some(t) = found(&self.spans()) {
                return t;
            }
            if tokio::time::timeout_at(deadline, arrived).await.is_err() {
                let names: Vec<String> = self
                    .spans()
                    .iter()
                    .map(|r| format!("{} ({} < {})", r.name(), r.trace_id(), r.parent_id()))
                    .collect();
                panic!("no {what} within 20 s; received: {names:#?}");
            }
        }
    }

    /// Waits for the span named `name` in trace `trace_id`.
    pub async fn span(&self, name: &str, trace_id: &str) -> Received {
        self.wait_for(&format!("span {name} in trace {trace_id}"), |spans| {
            spans
                .iter()
                .find(|r| r.name() == name && r.trace_id() == trace_id)
                .cloned()
        })
        .await
    }

    /// Waits for a child of `parent` named `name`.
    pub async fn child(&self, parent: &Received, name: &str) -> Received {
        let (trace, id) = (parent.trace_id(), parent.span_id());
        self.wait_for(&format!("span {name} under {}", parent.name()), |spans| {
            spans
                .iter()
                .find(|r| r.name() == name && r.trace_id() == trace && r.parent_id() == id)
                .cloned()
        })
        .await
    }
}
