//! Seat tokens and API keys never reach the logs: every event of every crate, at TRACE level,
//! is captured while games are created and played with tokens and keys (accepted and refused),
//! and none of the secrets appears, while the headers themselves are logged (as `Sensitive`).
//!
//! Its own test binary: it installs the process-wide tracing subscriber.

use std::io::Write;
use std::sync::{Arc, Mutex};

use chessd::ServerConfig;
use chessd::proto as pb;
use chessd::proto::game_service_client::GameServiceClient;
use tokio::net::TcpListener;
use tonic::Request;

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn with<T>(msg: T, name: &'static str, value: &str) -> Request<T> {
    let mut r = Request::new(msg);
    r.metadata_mut().insert(name, value.parse().unwrap());
    r
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secrets_never_reach_the_logs() {
    let captured = Captured::default();
    let writer = captured.clone();
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .init();

    let key = "backend-key-redaction-0123456789abcdef";
    let dir = std::env::temp_dir().join(format!("chessd-redaction-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let key_file = dir.join("keys");
    std::fs::write(&key_file, format!("{key}\n")).unwrap();
    let mut config = ServerConfig::default();
    config.security.api_key_file = Some(key_file);
    config.shutdown_grace = std::time::Duration::ZERO;
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(chessd::run(listener, config, async {
        let _ = stopped.await;
    }));
    let mut client = GameServiceClient::connect(format!("http://{addr}"))
        .await
        .unwrap();

    let create = pb::CreateGameRequest {
        variant: pb::Variant::Chess as i32,
        ..Default::default()
    };
    let created = client
        .create_game(with(create.clone(), "x-api-key", key))
        .await
        .unwrap()
        .into_inner();
    let (white, black) = (created.white_token, created.black_token);
    let id = created.game.unwrap().game_id;
    let bearer = |t: &str| format!("Bearer {t}");
    client
        .submit_move(with(
            pb::SubmitMoveRequest {
                game_id: id.clone(),
                r#move: "e4".into(),
                ..Default::default()
            },
            "authorization",
            &bearer(&white),
        ))
        .await
        .unwrap();
    // Refused calls log too: a wrong seat, a wrong key, a bearer key.
    let wrong_seat = client
        .submit_move(with(
            pb::SubmitMoveRequest {
                game_id: id.clone(),
                r#move: "d4".into(),
                ..Default::default()
            },
            "authorization",
            &bearer(&white),
        ))
        .await;
    assert!(wrong_seat.is_err());
    let wrong_key = "backend-key-wrong-00000000000000000000";
    assert!(
        client
            .create_game(with(create.clone(), "x-api-key", wrong_key))
            .await
            .is_err()
    );
    client
        .get_stats(with(
            pb::GetStatsRequest::default(),
            "authorization",
            &bearer(key),
        ))
        .await
        .unwrap();
    let _ = stop.send(());
    server.await.unwrap().unwrap();
    let _ = std::fs::remove_dir_all(&dir);

    let logs = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    assert!(logs.contains("SubmitMove"), "nothing captured:\n{logs}");
    assert!(
        logs.contains("authorization"),
        "headers are not logged:\n{logs}"
    );
    assert!(logs.contains("Sensitive"), "no redacted value:\n{logs}");
    for secret in [white.as_str(), black.as_str(), key, wrong_key] {
        assert!(!logs.contains(secret), "a secret reached the logs");
    }
}
