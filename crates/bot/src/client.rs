//! The connection to the server and the habits of every call: credentials in the metadata
//! (the seat or player token as `authorization: Bearer`, the API key as `x-api-key`, both
//! marked sensitive so no trace prints them), a deadline, and what a refusal means for a
//! retry.

use std::path::Path;
use std::time::Duration;

use tonic::metadata::AsciiMetadataValue;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint, Identity};
use tonic::{Code, Request, Status};
use tonic_types::StatusExt;

use crate::config::Settings;
use crate::proto::game_service_client::GameServiceClient;

/// How long a unary call may take before it counts as lost.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(10);
/// How long opening a connection may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// HTTP/2 pings on an idle connection, so a dead one (and its watch stream) is noticed.
const KEEPALIVE_INTERVAL: Duration = Duration::from_secs(20);
const KEEPALIVE_TIMEOUT: Duration = Duration::from_secs(10);

/// Why the bot cannot talk to the server at all.
#[derive(Debug)]
pub struct ConnectError(pub String);

impl std::fmt::Display for ConnectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConnectError {}

fn read(what: &str, path: &Path) -> Result<Vec<u8>, ConnectError> {
    std::fs::read(path).map_err(|e| ConnectError(format!("{what} {}: {e}", path.display())))
}

/// The API with the bot's credentials.
#[derive(Clone)]
pub struct Api {
    client: GameServiceClient<Channel>,
    api_key: Option<AsciiMetadataValue>,
}

/// A credential sent as `authorization: Bearer`: a seat token (one seat of one game) or a
/// player token (every seat bound to the player, and the player's feed).
#[derive(Clone)]
pub struct Bearer(AsciiMetadataValue);

impl std::fmt::Debug for Bearer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The token is a secret.
        f.write_str("Bearer(..)")
    }
}

impl Bearer {
    /// `token` as a credential; `flag` names it in the error.
    pub fn new(token: &str, flag: &str) -> Result<Bearer, ConnectError> {
        if token.trim().is_empty() {
            return Err(ConnectError(format!("{flag}: empty")));
        }
        Ok(Bearer(secret(&format!("Bearer {}", token.trim()), flag)?))
    }
}

/// The seat the bot plays: a game and the token that acts for it.
#[derive(Clone)]
pub struct Seat {
    pub game_id: String,
    bearer: Bearer,
}

impl std::fmt::Debug for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Seat")
            .field("game_id", &self.game_id)
            .finish_non_exhaustive()
    }
}

fn secret(value: &str, what: &str) -> Result<AsciiMetadataValue, ConnectError> {
    let mut v: AsciiMetadataValue = value
        .parse()
        .map_err(|_| ConnectError(format!("{what}: not printable ASCII")))?;
    v.set_sensitive(true);
    Ok(v)
}

impl Seat {
    /// The seat of `token` (`--token`) in `game_id`.
    pub fn new(game_id: &str, token: &str) -> Result<Seat, ConnectError> {
        Ok(Seat::of(game_id, &Bearer::new(token, "--token")?))
    }

    /// The seat `bearer` (a player token) holds in `game_id`.
    #[must_use]
    pub fn of(game_id: &str, bearer: &Bearer) -> Seat {
        Seat {
            game_id: game_id.to_owned(),
            bearer: bearer.clone(),
        }
    }

    #[must_use]
    pub fn bearer(&self) -> &Bearer {
        &self.bearer
    }
}

impl Api {
    /// A channel to `settings.addr` (connected on first use, reconnected after a break), with
    /// TLS for `https://` or whenever a TLS option is given. Files are read now, so a missing
    /// CA or key stops the bot before it starts.
    pub fn connect(settings: &Settings) -> Result<Api, ConnectError> {
        let addr = settings.addr.clone();
        let mut endpoint = Endpoint::from_shared(addr.clone())
            .map_err(|e| ConnectError(format!("addr {addr:?}: {e}")))?
            .connect_timeout(CONNECT_TIMEOUT)
            .http2_keep_alive_interval(KEEPALIVE_INTERVAL)
            .keep_alive_timeout(KEEPALIVE_TIMEOUT)
            .keep_alive_while_idle(true);
        let tls = &settings.tls;
        if addr.starts_with("https://") || tls.ca.is_some() || tls.identity.is_some() {
            if addr.starts_with("http://") {
                return Err(ConnectError(format!(
                    "addr {addr:?}: TLS options need an https:// address"
                )));
            }
            let mut config = ClientTlsConfig::new();
            config = match &tls.ca {
                Some(ca) => config.ca_certificate(Certificate::from_pem(read("--tls-ca", ca)?)),
                None => config.with_native_roots(),
            };
            if let Some(domain) = &tls.domain {
                config = config.domain_name(domain.clone());
            }
            if let Some((cert, key)) = &tls.identity {
                config = config.identity(Identity::from_pem(
                    read("--tls-cert", cert)?,
                    read("--tls-key", key)?,
                ));
            }
            endpoint = endpoint
                .tls_config(config)
                .map_err(|e| ConnectError(format!("tls: {e}")))?;
        }
        let api_key = settings
            .api_key
            .as_deref()
            .map(|k| secret(k, "--api-key"))
            .transpose()?;
        Ok(Api {
            client: GameServiceClient::new(endpoint.connect_lazy()),
            api_key,
        })
    }

    /// A client to call with (cheap: the channel is shared).
    #[must_use]
    pub fn client(&self) -> GameServiceClient<Channel> {
        self.client.clone()
    }

    /// `message` with the token, the API key if any, and `timeout`.
    #[must_use]
    pub fn request<T>(&self, bearer: &Bearer, message: T, timeout: Option<Duration>) -> Request<T> {
        let mut request = Request::new(message);
        if let Some(t) = timeout {
            request.set_timeout(t);
        }
        let metadata = request.metadata_mut();
        metadata.insert("authorization", bearer.0.clone());
        if let Some(key) = &self.api_key {
            metadata.insert("x-api-key", key.clone());
        }
        request
    }
}

/// The `google.rpc.ErrorInfo` reason of a refusal (`NOT_YOUR_TURN`), empty if none.
#[must_use]
pub fn reason(status: &Status) -> String {
    status
        .get_details_error_info()
        .map(|info| info.reason)
        .unwrap_or_default()
}

/// What a failed call means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The answer may be lost or the server faltered: the same call again (with the same
    /// request id) is safe.
    Transient,
    /// The server asks the bot to slow down: wait this long, then the same call again.
    Later(Duration),
    /// A retry cannot help (bad token, unknown game, ...).
    Fatal,
}

/// How a failure is handled.
#[must_use]
pub fn failure(status: &Status) -> Failure {
    match status.code() {
        Code::ResourceExhausted if reason(status) == "RATE_LIMITED" => {
            let asked = status
                .get_details_retry_info()
                .and_then(|info| info.retry_delay)
                .unwrap_or(Duration::from_millis(100));
            Failure::Later(asked.clamp(Duration::from_millis(1), Duration::from_secs(5)))
        }
        Code::Unavailable
        | Code::DeadlineExceeded
        | Code::Cancelled
        | Code::Unknown
        | Code::Internal
        | Code::ResourceExhausted => Failure::Transient,
        _ => Failure::Fatal,
    }
}

/// The wait before retry number `failures` (1, 2, ...): doubling from 50 ms, at most 2 s.
#[must_use]
pub fn backoff(failures: u32) -> Duration {
    Duration::from_millis((25u64 << failures.min(7)).min(2_000))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lost answers and overload are retried; refusals about the request are not; a rate
    /// limit waits as long as the server asks, within bounds.
    #[test]
    fn failures() {
        assert_eq!(failure(&Status::unavailable("x")), Failure::Transient);
        assert_eq!(failure(&Status::deadline_exceeded("x")), Failure::Transient);
        assert_eq!(failure(&Status::unauthenticated("x")), Failure::Fatal);
        assert_eq!(failure(&Status::not_found("x")), Failure::Fatal);
        assert_eq!(failure(&Status::failed_precondition("x")), Failure::Fatal);
        let limited = Status::with_error_details_vec(
            Code::ResourceExhausted,
            "slow down",
            [
                tonic_types::ErrorDetail::from(tonic_types::ErrorInfo::new(
                    "RATE_LIMITED",
                    "chessd",
                    std::collections::HashMap::<String, String>::new(),
                )),
                tonic_types::ErrorDetail::from(tonic_types::RetryInfo::new(Some(
                    Duration::from_secs(60),
                ))),
            ],
        );
        assert_eq!(failure(&limited), Failure::Later(Duration::from_secs(5)));
        assert_eq!(reason(&limited), "RATE_LIMITED");
    }

    /// Backoff doubles from 50 ms and stops at 2 s.
    #[test]
    fn backoff_grows_to_a_cap() {
        assert_eq!(backoff(1), Duration::from_millis(50));
        assert_eq!(backoff(2), Duration::from_millis(100));
        assert_eq!(backoff(30), Duration::from_secs(2));
    }

    /// A token that cannot travel as a header is refused up front, and never printed.
    #[test]
    fn seats() {
        assert!(Seat::new("G", "bad\ntoken").is_err());
        assert!(Seat::new("G", " ").is_err());
        let seat = Seat::new("G", "0123abcd").unwrap();
        assert!(!format!("{seat:?}").contains("0123abcd"));
        let player = Bearer::new("chp_0123abcd", "--player-token").unwrap();
        assert!(!format!("{player:?}").contains("0123abcd"));
        let e = Bearer::new("", "--player-token").unwrap_err();
        assert!(e.0.contains("--player-token"), "{e}");
    }
}
