//! TLS and mutual TLS with throwaway certificates (rcgen): a TLS client gets through, a
//! plaintext one does not; with mTLS a client without a certificate, or with one from another
//! CA, is refused; bad files stop the server with one line.

use chessd::ServerConfig;
use chessd::proto::game_service_client::GameServiceClient;
use chessd::security::TlsFiles;
use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Identity};

use crate::TempDir;
use crate::support::{self, TestServer};

/// A CA, a server certificate for `localhost` and a client certificate, all PEM.
struct Pki {
    ca: String,
    server_cert: String,
    server_key: String,
    client_cert: String,
    client_key: String,
}

fn ca() -> CertifiedIssuer<'static, KeyPair> {
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap()
}

fn leaf(issuer: &CertifiedIssuer<'static, KeyPair>, name: &str) -> (String, String) {
    let key = KeyPair::generate().unwrap();
    let cert = CertificateParams::new(vec![name.to_string()])
        .unwrap()
        .signed_by(&key, issuer)
        .unwrap();
    (cert.pem(), key.serialize_pem())
}

fn pki() -> Pki {
    let ca = ca();
    let (server_cert, server_key) = leaf(&ca, "localhost");
    let (client_cert, client_key) = leaf(&ca, "backend-1");
    Pki {
        ca: ca.pem(),
        server_cert,
        server_key,
        client_cert,
        client_key,
    }
}

async fn start_tls(dir: &TempDir, pki: &Pki, mtls: bool) -> TestServer {
    let mut config = ServerConfig::default();
    config.security.tls = Some(TlsFiles {
        cert: dir.write("server.pem", &pki.server_cert),
        key: dir.write("server.key", &pki.server_key),
        client_ca: mtls.then(|| dir.write("ca.pem", &pki.ca)),
    });
    support::start_with(config).await
}

/// A TLS channel trusting `ca`, presenting `identity` if given.
async fn connect(
    server: &TestServer,
    ca: &str,
    identity: Option<(&str, &str)>,
) -> Result<Channel, tonic::transport::Error> {
    let mut tls = ClientTlsConfig::new()
        .ca_certificate(Certificate::from_pem(ca))
        .domain_name("localhost");
    if let Some((cert, key)) = identity {
        tls = tls.identity(Identity::from_pem(cert, key));
    }
    Channel::from_shared(format!("https://{}", server.addr))
        .unwrap()
        .tls_config(tls)?
        .connect()
        .await
}

/// A game over TLS works end to end; a plaintext client cannot talk to the TLS server.
#[tokio::test]
async fn tls_serves_and_plaintext_is_refused() {
    let dir = TempDir::new("tls");
    let pki = pki();
    let server = start_tls(&dir, &pki, false).await;
    let channel = connect(&server, &pki.ca, None).await.expect("TLS connect");
    let mut client = GameServiceClient::new(channel);
    let (_, seats) = support::create(&mut client, "chess", "").await;
    let played = support::play(&mut client, &seats, 'w', "e4").await;
    assert_eq!(played.game.unwrap().ply, 1);

    let plain = Channel::from_shared(server.url()).unwrap().connect().await;
    if let Ok(plain) = plain {
        let refused = GameServiceClient::new(plain)
            .get_stats(chessd::proto::GetStatsRequest::default())
            .await;
        assert!(
            refused.is_err(),
            "plaintext got an answer from a TLS server"
        );
    }
    server.shutdown().await.unwrap();
}

/// With mTLS, a client certificate from the CA gets through; none, or one from another CA,
/// is refused at the handshake.
#[tokio::test]
async fn mtls_requires_a_client_certificate_from_the_ca() {
    let dir = TempDir::new("mtls");
    let pki = pki();
    let server = start_tls(&dir, &pki, true).await;

    let channel = connect(&server, &pki.ca, Some((&pki.client_cert, &pki.client_key)))
        .await
        .expect("mTLS connect with a client certificate");
    let mut client = GameServiceClient::new(channel);
    let (_, seats) = support::create(&mut client, "chess", "").await;
    assert_eq!(seats.id.len(), 13);

    let refused = |result: Result<Channel, tonic::transport::Error>| async move {
        match result {
            Err(_) => true,
            Ok(channel) => GameServiceClient::new(channel)
                .get_stats(chessd::proto::GetStatsRequest::default())
                .await
                .is_err(),
        }
    };
    assert!(
        refused(connect(&server, &pki.ca, None).await).await,
        "a client without a certificate was served"
    );
    let stranger = ca();
    let (cert, key) = leaf(&stranger, "intruder");
    assert!(
        refused(connect(&server, &pki.ca, Some((&cert, &key))).await).await,
        "a client certificate from another CA was accepted"
    );
    server.shutdown().await.unwrap();
}

/// Missing or unusable TLS files stop the binary with one line naming the flag; exit non-zero.
#[test]
fn bad_tls_files_stop_the_server() {
    let dir = TempDir::new("tls-bad");
    let pki = pki();
    let cert = dir.write("server.pem", &pki.server_cert);
    let key = dir.write("server.key", &pki.server_key);
    let garbage = dir.write("garbage.pem", "not pem at all\n");
    let other_key = dir.write("other.key", &KeyPair::generate().unwrap().serialize_pem());
    let missing = dir.path().join("missing.pem");
    let s = |p: &std::path::Path| p.to_str().unwrap().to_owned();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "--tls-cert".into(),
                s(&missing),
                "--tls-key".into(),
                s(&key),
            ],
            "--tls-cert",
        ),
        (
            vec![
                "--tls-cert".into(),
                s(&garbage),
                "--tls-key".into(),
                s(&key),
            ],
            "no PEM certificate",
        ),
        (
            vec![
                "--tls-cert".into(),
                s(&cert),
                "--tls-key".into(),
                s(&garbage),
            ],
            "no private key",
        ),
        (
            vec![
                "--tls-cert".into(),
                s(&cert),
                "--tls-key".into(),
                s(&other_key),
            ],
            "TLS set-up failed",
        ),
        (
            vec![
                "--tls-cert".into(),
                s(&cert),
                "--tls-key".into(),
                s(&key),
                "--tls-client-ca".into(),
                s(&garbage),
            ],
            "--tls-client-ca",
        ),
    ];
    for (args, expected) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (status, output) = crate::start_failing(&args);
        assert!(!status.success(), "{args:?} started");
        assert!(output.contains(expected), "{args:?}: {output}");
        let errors = output.lines().filter(|l| l.contains("ERROR")).count();
        assert_eq!(errors, 1, "one error line: {output}");
    }
}
