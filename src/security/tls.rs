//! TLS (`--tls-cert`, `--tls-key`) and mutual TLS (`--tls-client-ca`) through rustls with
//! the ring provider. Plaintext stays the default.
//!
//! The files are read and checked here, at start, so a missing file, a file without a PEM
//! certificate or key, or a key that is not the certificate's stops the server with one line
//! naming the flag and the file, instead of a first client's failed handshake. The handshake
//! itself runs in the transport, within `--handshake-timeout`.

use std::path::Path;
use std::sync::Arc;

use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::server::WebPkiClientVerifier;
use tokio_rustls::rustls::{self, RootCertStore, ServerConfig};

use crate::security::{SetupError, TlsFiles};

/// The server's TLS configuration from its files, checked: HTTP/2 offered first by ALPN, and
/// HTTP/1.1 for gRPC-Web clients that do not speak HTTP/2.
pub(crate) fn server_config(files: &TlsFiles) -> Result<Arc<ServerConfig>, SetupError> {
    let cert = read("tls-cert", &files.cert)?;
    let certs = certificates("tls-cert", &files.cert, &cert)?;
    let key = read("tls-key", &files.key)?;
    let key = PrivateKeyDer::from_pem_slice(&key).map_err(|_| SetupError::Content {
        flag: "tls-key",
        path: files.key.clone(),
        problem: "no private key in the file (expected PEM: PKCS#8, PKCS#1 or SEC1)".into(),
    })?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| SetupError::Tls(e.to_string()))?;
    let builder = match &files.client_ca {
        None => builder.with_no_client_auth(),
        Some(ca_path) => {
            let ca = read("tls-client-ca", ca_path)?;
            let mut roots = RootCertStore::empty();
            for ca_cert in certificates("tls-client-ca", ca_path, &ca)? {
                roots.add(ca_cert).map_err(|e| SetupError::Content {
                    flag: "tls-client-ca",
                    path: ca_path.clone(),
                    problem: format!("not a usable CA certificate: {e}"),
                })?;
            }
            let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
                .build()
                .map_err(|e| SetupError::Content {
                    flag: "tls-client-ca",
                    path: ca_path.clone(),
                    problem: e.to_string(),
                })?;
            builder.with_client_cert_verifier(verifier)
        }
    };
    let count = certs.len();
    let mut config = builder.with_single_cert(certs, key).map_err(|e| {
        SetupError::Tls(format!(
            "{e} (does --tls-key belong to the first of the {count} certificate(s) in --tls-cert?)"
        ))
    })?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

fn read(flag: &'static str, path: &Path) -> Result<Vec<u8>, SetupError> {
    std::fs::read(path).map_err(|cause| SetupError::Read {
        flag,
        path: path.to_owned(),
        cause,
    })
}

/// The PEM certificates in `pem`: at least one, all well-formed.
fn certificates(
    flag: &'static str,
    path: &Path,
    pem: &[u8],
) -> Result<Vec<CertificateDer<'static>>, SetupError> {
    let bad = |problem: &str| SetupError::Content {
        flag,
        path: path.to_owned(),
        problem: problem.into(),
    };
    let certs = CertificateDer::pem_slice_iter(pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| bad("malformed PEM certificate"))?;
    if certs.is_empty() {
        return Err(bad("no PEM certificate in the file"));
    }
    Ok(certs)
}
