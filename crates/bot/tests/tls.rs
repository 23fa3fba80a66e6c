//! chessd-bot over mutual TLS: a server that requires client certificates from its CA, and two
//! bots given the CA (`--tls-ca`), the server's name (`--tls-domain`) and a client identity
//! (`--tls-cert`, `--tls-key`), which play their game to the end.

mod support;

use std::path::PathBuf;
use std::time::Duration;

use chessd::security::TlsFiles;
use chessd_bot::proto::{self as pb, game_service_client::GameServiceClient};
use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};
use support::*;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Identity};

fn leaf(issuer: &CertifiedIssuer<'static, KeyPair>, name: &str) -> (String, String) {
    let key = KeyPair::generate().unwrap();
    let cert = CertificateParams::new(vec![name.to_owned()])
        .unwrap()
        .signed_by(&key, issuer)
        .unwrap();
    (cert.pem(), key.serialize_pem())
}

fn as_strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Two bots play a game through mutual TLS.
#[tokio::test]
async fn bots_play_over_mutual_tls() {
    let sf = engine(STOCKFISH);
    let dir = std::env::temp_dir().join(format!("chessd-bot-tls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca = CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap();
    let (server_cert, server_key) = leaf(&ca, "localhost");
    let (client_cert, client_key) = leaf(&ca, "bot-1");
    let ca_path = write("ca.pem", &ca.pem());
    let mut config = chessd::ServerConfig::default();
    config.security.tls = Some(TlsFiles {
        cert: write("server.pem", &server_cert),
        key: write("server.key", &server_key),
        client_ca: Some(ca_path.clone()),
    });
    let server = Server::start_with(config).await;
    let url = format!("https://{}", server.addr);

    let tls = ClientTlsConfig::new()
        .ca_certificate(Certificate::from_pem(ca.pem()))
        .domain_name("localhost")
        .identity(Identity::from_pem(&client_cert, &client_key));
    let channel = Channel::from_shared(url.clone())
        .unwrap()
        .tls_config(tls)
        .unwrap()
        .connect()
        .await
        .expect("a TLS connection");
    let mut client = GameServiceClient::new(channel);
    let seats = create(&mut client, pb::Variant::Chess, None).await;

    let cert = write("bot.pem", &client_cert);
    let key = write("bot.key", &client_key);
    let tls_args = |depth: &'static str| {
        vec![
            "--engine".to_owned(),
            sf.to_owned(),
            "--depth".into(),
            depth.into(),
            "--untimed-movetime".into(),
            "30ms".into(),
            "--tls-ca".into(),
            ca_path.display().to_string(),
            "--tls-domain".into(),
            "localhost".into(),
            "--tls-cert".into(),
            cert.display().to_string(),
            "--tls-key".into(),
            key.display().to_string(),
        ]
    };
    let (white_args, black_args) = (tls_args("8"), tls_args("1"));
    // The server's certificate names localhost; the address is 127.0.0.1.
    let white = Bot::spawn(
        "white",
        &url,
        &seats.id,
        &seats.white,
        &as_strs(&white_args),
        &[],
    );
    let black = Bot::spawn(
        "black",
        &url,
        &seats.id,
        &seats.black,
        &as_strs(&black_args),
        &[],
    );
    let (ws, wlogs) = white.finish(Duration::from_secs(90)).await;
    let (bs, _) = black.finish(Duration::from_secs(10)).await;
    let game = game_over(&mut client, &seats.id, Duration::from_secs(5)).await;
    let _ = std::fs::remove_dir_all(&dir);
    assert!(ws.success() && bs.success(), "exits {ws} {bs}");
    assert!(game.outcome.is_some(), "FEN {}", game.fen);
    let over = game_over_line(&wlogs);
    assert_eq!(
        field(&over, "moves_played").and_then(|v| v.as_u64()),
        Some(u64::from(game.ply.div_ceil(2)))
    );
}
