//! Calls refused at the security gate (API key, rate limit) are counted in the RPC metrics
//! like any other call, under their method and code.
//!
//! Its own test binary: the metrics recorder is process-wide.

use chessd::ServerConfig;
use chessd::proto as pb;
use chessd::proto::game_service_client::GameServiceClient;
use chessd::security::Rate;
use tokio::net::TcpListener;

#[tokio::test]
async fn gate_refusals_are_counted() {
    let handle = chessd::metrics::install().expect("metrics recorder");
    let dir = std::env::temp_dir().join(format!("chessd-gate-metrics-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let keys = dir.join("keys");
    std::fs::write(&keys, "gate-metrics-key-0123456789abcdef\n").unwrap();
    let mut config = ServerConfig::default();
    config.security.api_key_file = Some(keys);
    config.security.rates.peer = Rate::new(1, 4);
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(chessd::run(listener, config, std::future::pending()));
    let mut client = GameServiceClient::connect(format!("http://{addr}"))
        .await
        .unwrap();
    let create = pb::CreateGameRequest {
        variant: pb::Variant::Chess as i32,
        ..Default::default()
    };
    // Keyless CreateGame, twice: refused for the key, and charged to the address.
    for _ in 0..2 {
        let refused = client.create_game(create.clone()).await.unwrap_err();
        assert_eq!(refused.code(), tonic::Code::Unauthenticated);
    }
    // The rest of the peer's burst of four, then a refusal.
    let get = || pb::GetGameRequest {
        game_id: "0000000000000".into(),
    };
    for _ in 0..2 {
        let missing = client.get_game(get()).await.unwrap_err();
        assert_eq!(missing.code(), tonic::Code::NotFound);
    }
    let limited = client.get_game(get()).await.unwrap_err();
    assert_eq!(limited.code(), tonic::Code::ResourceExhausted);
    let _ = std::fs::remove_dir_all(&dir);

    let text = handle.render();
    for (series, expected) in [
        (
            r#"chessd_rpc_requests_total{method="CreateGame",code="UNAUTHENTICATED"}"#,
            "2",
        ),
        (
            r#"chessd_rpc_requests_total{method="GetGame",code="RESOURCE_EXHAUSTED"}"#,
            "1",
        ),
        (
            r#"chessd_rpc_requests_total{method="GetGame",code="NOT_FOUND"}"#,
            "2",
        ),
    ] {
        let line = text
            .lines()
            .find(|l| l.starts_with(series))
            .unwrap_or_else(|| panic!("no {series} in:\n{text}"));
        assert_eq!(line.rsplit(' ').next(), Some(expected), "{line}");
    }
}
