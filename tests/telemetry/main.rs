//! Traces end to end: the real binary with `--otlp-endpoint` (or the standard variables)
//! exporting to a real OTLP/gRPC receiver the test starts (`collector`), calls sent with a
//! W3C `traceparent` over gRPC and gRPC-Web, and the spans that arrive checked: in the
//! caller's trace under the caller's span, named after the RPC, with the game id, request id
//! and gRPC code; the store's journal, SQLite commit and Redis scripts as their children;
//! `trace_id` in the JSON log lines; nothing of it without an endpoint.

mod collector;
#[path = "../common/mod.rs"]
mod common;

use std::time::Duration;

use chessd::proto::game_service_client::GameServiceClient;
use chessd::proto::{self as pb};
use prost::Message;
use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tonic::Request;
use tonic::transport::Channel;

use crate::collector::{Collector, Received};
use crate::common::process::Chessd;
use crate::common::redis::Redis;

/// The exporter's batch delay in these tests (the SDK's default is 5 s).
const BATCH_DELAY_MS: &str = "50";

/// A trace the caller started: its trace id and the caller's span id.
struct Caller {
    trace_id: &'static str,
    span_id: &'static str,
}

impl Caller {
    fn traceparent(&self) -> String {
        format!("00-{}-{}-01", self.trace_id, self.span_id)
    }

    /// `message` with this caller's `traceparent`.
    fn request<T>(&self, message: T) -> Request<T> {
        let mut request = Request::new(message);
        request
            .metadata_mut()
            .insert("traceparent", self.traceparent().parse().unwrap());
        request
    }

    /// Checks that `span` is a server span in this caller's trace, under the caller's span.
    #[track_caller]
    fn assert_parent_of(&self, span: &Received) {
        assert_eq!(span.trace_id(), self.trace_id, "{span:?}");
        assert_eq!(span.parent_id(), self.span_id, "{span:?}");
        assert_eq!(span.span.kind, SERVER, "{span:?}");
    }
}

/// OTLP's `SPAN_KIND_SERVER` and `SPAN_KIND_CLIENT`.
const SERVER: i32 = 2;
const CLIENT: i32 = 3;

const CREATE: Caller = Caller {
    trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
    span_id: "00f067aa0ba902b7",
};
const MOVE: Caller = Caller {
    trace_id: "0af7651916cd43dd8448eb211c80319c",
    span_id: "b7ad6b7169203331",
};
const MISSING: Caller = Caller {
    trace_id: "5c4b3a29180f1e2d3c4b5a6978f0e1d2",
    span_id: "1a2b3c4d5e6f7081",
};

/// A temporary directory removed when dropped.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("chessd-telemetry-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

async fn client(server: &Chessd) -> GameServiceClient<Channel> {
    GameServiceClient::new(common::channel_at(server.addr).await)
}

/// Creates a game with `caller`'s traceparent; returns its id and the tokens.
async fn create(
    client: &mut GameServiceClient<Channel>,
    caller: &Caller,
    request_id: &str,
) -> (String, [String; 2]) {
    let created = client
        .create_game(caller.request(pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            request_id: request_id.into(),
            ..Default::default()
        }))
        .await
        .expect("create game")
        .into_inner();
    let id = created.game.unwrap().game_id;
    (id, [created.white_token, created.black_token])
}

/// Plays e4 as white with `caller`'s traceparent.
async fn play_e4(
    client: &mut GameServiceClient<Channel>,
    caller: &Caller,
    game_id: &str,
    white: &str,
) {
    let mut request = caller.request(pb::SubmitMoveRequest {
        game_id: game_id.into(),
        r#move: "e4".into(),
        ..Default::default()
    });
    request
        .metadata_mut()
        .insert("authorization", format!("Bearer {white}").parse().unwrap());
    client.submit_move(request).await.expect("e4");
}

/// On the durable store, with the flag: each call is a server span in its caller's trace with
/// the RPC's name, game id, request id and code; a move's journal wait and SQLite commit are
/// its children; the resource names the service; a refused call's log line names its trace
/// and span; and the spans still queued at SIGTERM are flushed before a clean exit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_and_commits_join_the_callers_trace() {
    let collector = Collector::start().await;
    let dir = TempDir::new("sqlite");
    let endpoint = collector.endpoint();
    let mut server = Chessd::start_with_env(
        &["--otlp-endpoint", &endpoint, "--data-dir", dir.path()],
        &[
            ("OTEL_BSP_SCHEDULE_DELAY", BATCH_DELAY_MS),
            ("OTEL_SERVICE_NAME", "chessd-traced"),
        ],
        None,
    )
    .await;
    assert_eq!(server.logged("exporting traces").len(), 1);
    let mut client = client(&server).await;

    let (game_id, [white, _]) = create(&mut client, &CREATE, "create-1").await;
    play_e4(&mut client, &MOVE, &game_id, &white).await;
    let missing = client
        .get_game(MISSING.request(pb::GetGameRequest {
            game_id: "0000000000000".into(),
        }))
        .await;
    assert_eq!(missing.unwrap_err().code(), tonic::Code::NotFound);
    // No traceparent: a trace of its own.
    client
        .get_game(pb::GetGameRequest {
            game_id: game_id.clone(),
        })
        .await
        .expect("get game");

    let created = collector
        .span("chessd.v1.GameService/CreateGame", CREATE.trace_id)
        .await;
    CREATE.assert_parent_of(&created);
    assert_eq!(created.service.as_deref(), Some("chessd-traced"));
    assert_eq!(created.attr("rpc.system").as_deref(), Some("grpc"));
    assert_eq!(
        created.attr("rpc.service").as_deref(),
        Some("chessd.v1.GameService")
    );
    assert_eq!(created.attr("rpc.method").as_deref(), Some("CreateGame"));
    assert_eq!(created.attr("request_id").as_deref(), Some("create-1"));
    // Known only once the game is made, and recorded then.
    assert_eq!(created.attr("game_id").as_deref(), Some(game_id.as_str()));
    assert_eq!(created.attr("rpc.grpc.status_code").as_deref(), Some("0"));

    let moved = collector
        .span("chessd.v1.GameService/SubmitMove", MOVE.trace_id)
        .await;
    MOVE.assert_parent_of(&moved);
    assert_eq!(moved.attr("game_id").as_deref(), Some(game_id.as_str()));
    assert_eq!(moved.attr("rpc.grpc.status_code").as_deref(), Some("0"));
    let journal = collector.child(&moved, "journal").await;
    assert!(journal.attr("ticket").is_some(), "{journal:?}");
    let commit = collector.child(&journal, "COMMIT").await;
    assert_eq!(commit.span.kind, CLIENT);
    assert_eq!(commit.attr("db.system.name").as_deref(), Some("sqlite"));
    assert!(commit.attr("changes").is_some(), "{commit:?}");
    // The creation was committed in its own call's trace too.
    let created_journal = collector.child(&created, "journal").await;
    collector.child(&created_journal, "COMMIT").await;

    let refused = collector
        .span("chessd.v1.GameService/GetGame", MISSING.trace_id)
        .await;
    MISSING.assert_parent_of(&refused);
    assert_eq!(refused.attr("rpc.grpc.status_code").as_deref(), Some("5"));
    // NOT_FOUND is the caller's doing: the span's status stays unset.
    assert_eq!(refused.span.status.as_ref().map_or(0, |s| s.code), 0);
    // The refusal's log line is in the trace, at the call's span, and the only one.
    let line = server.wait_logged(MISSING.trace_id).await;
    let lines = server.logged(MISSING.trace_id);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    let line: serde_json::Value = serde_json::from_str(&line).expect("a JSON line");
    assert_eq!(line["trace_id"], MISSING.trace_id);
    assert_eq!(line["span_id"], refused.span_id());
    assert_eq!(line["fields"]["message"], "refused");

    let own = collector
        .wait_for("GetGame without a traceparent", |spans| {
            spans
                .iter()
                .find(|r| {
                    r.name() == "chessd.v1.GameService/GetGame"
                        && r.attr("game_id").as_deref() == Some(game_id.as_str())
                })
                .cloned()
        })
        .await;
    assert_eq!(own.parent_id(), "", "a root span: {own:?}");
    for caller in [&CREATE, &MOVE, &MISSING] {
        assert_ne!(own.trace_id(), caller.trace_id);
    }
    // Nothing but chessd's own spans: no HTTP/2, Redis client or exporter internals.
    for span in collector.spans() {
        assert!(
            span.name().starts_with("chessd.v1.GameService/")
                || ["journal", "COMMIT"].contains(&span.name()),
            "unexpected span {span:?}"
        );
    }

    // At SIGTERM what is queued is sent before the exit, whatever the batch delay.
    let before = collector.spans().len();
    client
        .get_game(CREATE.request(pb::GetGameRequest {
            game_id: game_id.clone(),
        }))
        .await
        .expect("get game");
    server.terminate();
    let status = server.exit_within(Duration::from_secs(15)).await;
    assert!(status.success(), "{status:?}");
    server.wait_logged("traces flushed").await;
    assert!(collector.spans().len() > before);
    collector
        .span("chessd.v1.GameService/GetGame", CREATE.trace_id)
        .await;
}

/// On Redis, with the endpoint from OTEL_EXPORTER_OTLP_ENDPOINT (and batches gzipped, as
/// OTEL_EXPORTER_OTLP_COMPRESSION asks): a move's Lua script is a client span of the call,
/// named after the command and the script.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_scripts_are_children_of_the_call() {
    let collector = Collector::start().await;
    let redis = Redis::start();
    let endpoint = collector.endpoint();
    let server = Chessd::start_with_env(
        &["--redis", &redis.url()],
        &[
            ("OTEL_BSP_SCHEDULE_DELAY", BATCH_DELAY_MS),
            ("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint),
            ("OTEL_EXPORTER_OTLP_COMPRESSION", "gzip"),
        ],
        None,
    )
    .await;
    let mut client = client(&server).await;
    let (game_id, [white, _]) = create(&mut client, &CREATE, "").await;
    play_e4(&mut client, &MOVE, &game_id, &white).await;

    let created = collector
        .span("chessd.v1.GameService/CreateGame", CREATE.trace_id)
        .await;
    CREATE.assert_parent_of(&created);
    assert_eq!(created.service.as_deref(), Some("chessd"));
    let script = collector.child(&created, "EVALSHA create").await;
    assert_eq!(script.span.kind, CLIENT);

    let moved = collector
        .span("chessd.v1.GameService/SubmitMove", MOVE.trace_id)
        .await;
    MOVE.assert_parent_of(&moved);
    let script = collector.child(&moved, "EVALSHA append").await;
    assert_eq!(script.span.kind, CLIENT);
    assert_eq!(script.attr("db.system.name").as_deref(), Some("redis"));
    assert_eq!(script.attr("db.operation.name").as_deref(), Some("EVALSHA"));
    assert_eq!(
        script.attr("db.stored_procedure.name").as_deref(),
        Some("append")
    );
    let encodings = collector.encodings();
    assert!(encodings.iter().all(|e| e == "gzip"), "{encodings:?}");
    drop(server);
}

/// A gRPC-Web call (HTTP/1.1, as a browser sends it) joins the trace of its `traceparent`
/// header; a call the gate refuses (no API key) still has its span, with the gate's code.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn grpc_web_and_gate_refusals_join_the_callers_trace() {
    const WEB: Caller = Caller {
        trace_id: "11111111111111112222222222222222",
        span_id: "3333333344444444",
    };
    const KEYLESS: Caller = Caller {
        trace_id: "abcdefabcdefabcdefabcdefabcdef01",
        span_id: "0102030405060708",
    };
    let collector = Collector::start().await;
    let dir = TempDir::new("keys");
    let key = "telemetry-test-key-0123456789";
    let keys = dir.0.join("keys");
    std::fs::write(&keys, format!("{key}\n")).unwrap();
    let endpoint = collector.endpoint();
    let server = Chessd::start_with_env(
        &[
            "--otlp-endpoint",
            &endpoint,
            "--api-key-file",
            keys.to_str().unwrap(),
        ],
        &[("OTEL_BSP_SCHEDULE_DELAY", BATCH_DELAY_MS)],
        None,
    )
    .await;

    // ListGames over gRPC-Web: one length-prefixed message in an HTTP/1.1 POST.
    let message = pb::ListGamesRequest::default().encode_to_vec();
    let mut body = vec![0u8];
    body.extend_from_slice(&u32::try_from(message.len()).unwrap().to_be_bytes());
    body.extend_from_slice(&message);
    let head = format!(
        "POST /chessd.v1.GameService/ListGames HTTP/1.1\r\nHost: {}\r\n\
         Content-Type: application/grpc-web+proto\r\nX-Grpc-Web: 1\r\n\
         X-Api-Key: {key}\r\nTraceparent: {}\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        server.addr,
        WEB.traceparent(),
        body.len()
    );
    let mut stream = TcpStream::connect(server.addr).await.expect("connect");
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(&body).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
        .await
        .expect("an answer within 10 s")
        .expect("read");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("grpc-status:0"), "{answer}");

    let listed = collector
        .span("chessd.v1.GameService/ListGames", WEB.trace_id)
        .await;
    WEB.assert_parent_of(&listed);
    assert_eq!(listed.attr("rpc.grpc.status_code").as_deref(), Some("0"));

    // Over gRPC without a key: refused at the gate, before any handler.
    let mut client = client(&server).await;
    let refused = client
        .create_game(KEYLESS.request(pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            ..Default::default()
        }))
        .await;
    assert_eq!(refused.unwrap_err().code(), tonic::Code::Unauthenticated);
    let span = collector
        .span("chessd.v1.GameService/CreateGame", KEYLESS.trace_id)
        .await;
    KEYLESS.assert_parent_of(&span);
    assert_eq!(span.attr("rpc.grpc.status_code").as_deref(), Some("16"));
    let encodings = collector.encodings();
    assert!(encodings.iter().all(|e| e == "identity"), "{encodings:?}");
}

/// Without an endpoint nothing is traced: a caller's `traceparent` is not read, and JSON log
/// lines carry no trace ids.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn off_without_an_endpoint() {
    let server = Chessd::start(&[], None).await;
    assert!(server.logged("exporting traces").is_empty());
    let mut client = client(&server).await;
    let missing = client
        .get_game(MISSING.request(pb::GetGameRequest {
            game_id: "0000000000000".into(),
        }))
        .await;
    assert_eq!(missing.unwrap_err().code(), tonic::Code::NotFound);
    // The refusal is logged, without trace ids.
    let line = server.wait_logged("\"refused\"").await;
    assert!(line.contains("0000000000000"), "{line}");
    assert!(!line.contains("trace_id"), "{line}");
    assert!(!line.contains(MISSING.trace_id), "{line}");
}

/// To a collector over TLS, trusting the CA in `--otlp-ca-file`: the spans arrive.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_to_the_collector() {
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca = CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap();
    let key = KeyPair::generate().unwrap();
    let cert = CertificateParams::new(vec!["localhost".to_owned()])
        .unwrap()
        .signed_by(&key, &ca)
        .unwrap();
    let collector = Collector::start_tls(&cert.pem(), &key.serialize_pem()).await;
    let dir = TempDir::new("tls");
    let ca_file = dir.0.join("ca.pem");
    std::fs::write(&ca_file, ca.pem()).unwrap();
    let endpoint = collector.endpoint();
    assert!(endpoint.starts_with("https://"));
    let server = Chessd::start_with_env(
        &[
            "--otlp-endpoint",
            &endpoint,
            "--otlp-ca-file",
            ca_file.to_str().unwrap(),
        ],
        &[("OTEL_BSP_SCHEDULE_DELAY", BATCH_DELAY_MS)],
        None,
    )
    .await;
    let mut client = client(&server).await;
    create(&mut client, &CREATE, "").await;
    let created = collector
        .span("chessd.v1.GameService/CreateGame", CREATE.trace_id)
        .await;
    CREATE.assert_parent_of(&created);
}

/// `chessd serve` with `args` and `env`, expected to stop at once: its status and output.
fn start_failing(args: &[&str], env: &[(&str, &str)]) -> (std::process::ExitStatus, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_chessd"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(args)
        .envs(env.iter().copied())
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run chessd");
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    (output.status, text)
}

/// A setting that cannot work stops the start with one line saying why, never quoting
/// credentials: an endpoint without a scheme, one for OTLP over HTTP, one with a password, a
/// CA file that is not there, or a protocol other than gRPC.
#[test]
fn bad_settings_stop_the_start() {
    for (args, env, expected) in [
        (
            &["--otlp-endpoint", "collector:4317"][..],
            &[][..],
            "--otlp-endpoint (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT): no scheme",
        ),
        (
            &[],
            &[(
                "OTEL_EXPORTER_OTLP_ENDPOINT",
                "http://collector:4318/v1/traces",
            )][..],
            "OTEL_EXPORTER_OTLP_ENDPOINT: a path (/v1/traces) is for OTLP over HTTP",
        ),
        (
            &["--otlp-endpoint", "http://user:s3cret@collector:4317"],
            &[],
            "OTEL_EXPORTER_OTLP_HEADERS",
        ),
        (
            &[
                "--otlp-endpoint",
                "https://collector:4317",
                "--otlp-ca-file",
                "/nonexistent/ca.pem",
            ],
            &[],
            "--otlp-ca-file /nonexistent/ca.pem",
        ),
        (
            &["--otlp-endpoint", "http://collector:4317"],
            &[("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")],
            "OTEL_EXPORTER_OTLP_PROTOCOL is \"http/protobuf\", but chessd exports OTLP over gRPC only",
        ),
    ] {
        let (status, text) = start_failing(args, env);
        assert!(!status.success(), "{args:?} {env:?}: {text}");
        assert!(text.contains(expected), "{args:?} {env:?}: {text}");
        assert!(!text.contains("s3cret"), "{text}");
        assert!(!text.contains("panicked"), "{text}");
    }
}

/// OTEL_SDK_DISABLED=true turns traces off even with an endpoint.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sdk_disabled_wins() {
    let collector = Collector::start().await;
    let endpoint = collector.endpoint();
    let server = Chessd::start_with_env(
        &["--otlp-endpoint", &endpoint],
        &[("OTEL_SDK_DISABLED", "true")],
        None,
    )
    .await;
    assert!(server.logged("exporting traces").is_empty());
}
