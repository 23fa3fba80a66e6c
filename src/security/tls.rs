//! TLS (`--tls-cert`, `--tls-key`) and mutual TLS (`--tls-client-ca`) through rustls, by way
//! of tonic's `tls-ring` feature. Plaintext stays the default.
//!
//! The files are read and checked here, at start, so a missing file, a file without a PEM
//! certificate or key, or a key that is not the certificate's stops the server with one line
//! naming the flag and the file, instead of a first client's failed handshake.

use std::path::Path;

use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use tonic::transport::{Certificate, Identity, ServerTlsConfig};

use super::{SetupError, TlsFiles};

/// How long a client may take over its TLS handshake before the connection is dropped (a
/// stalled handshake otherwise holds a connection slot for nothing).
pub const HANDSHAKE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// The server's TLS configuration from its files, checked.
pub fn server_config(files: &TlsFiles) -> Result<ServerTlsConfig, SetupError> {
    let cert = read("tls-cert", &files.cert)?;
    let certs = certificates("tls-cert", &files.cert, &cert)?;
    let key = read("tls-key", &files.key)?;
    PrivateKeyDer::from_pem_slice(&key).map_err(|_| SetupError::Content {
        flag: "tls-key",
        path: files.key.clone(),
        problem: "no private key in the file (expected PEM: PKCS#8, PKCS#1 or SEC1)".into(),
    })?;
    let mut config = ServerTlsConfig::new()
        .identity(Identity::from_pem(&cert, &key))
        .timeout(HANDSHAKE_TIMEOUT);
    if let Some(ca_path) = &files.client_ca {
        let ca = read("tls-client-ca", ca_path)?;
        certificates("tls-client-ca", ca_path, &ca)?;
        config = config.client_ca_root(Certificate::from_pem(&ca));
    }
    // tonic builds the rustls configuration lazily; building it once here finds a key that
    // does not match the certificate, or a CA file rustls cannot use, at start.
    tonic::transport::Server::builder()
        .tls_config(config.clone())
        .map_err(|e| SetupError::Tls(describe(&e, certs)))?;
    Ok(config)
}

fn read(flag: &'static str, path: &Path) -> Result<Vec<u8>, SetupError> {
    std::fs::read(path).map_err(|cause| SetupError::Read {
        flag,
        path: path.to_owned(),
        cause,
    })
}

/// The number of PEM certificates in `pem`; at least one, all well-formed.
fn certificates(flag: &'static str, path: &Path, pem: &[u8]) -> Result<usize, SetupError> {
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
    Ok(certs.len())
}

/// tonic's error with its causes, on one line.
fn describe(e: &tonic::transport::Error, certs: usize) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    format!(
        "{text} (does --tls-key belong to the first of the {certs} certificate(s) in --tls-cert?)"
    )
}
