//! The gate in front of every service: a tower layer that, before a request is decoded,
//!
//! 1. marks credential metadata sensitive (`redact`), for every service;
//! 2. for GameService calls: checks a presented API key (`x-api-key`, or `authorization:
//!    Bearer` on the calls whose row says the bearer credential is a key) and admits the call
//!    as its row in `access::RPCS` says (API keys for backend calls, player tokens, the feed's
//!    key unless a player token came): the table decides, the gate applies it;
//! 3. charges the per-key limiter (callers with a key) or the per-peer limiter (the others),
//!    refusing with RESOURCE_EXHAUSTED and RetryInfo; except for the calls whose row defers
//!    the refusal to the handler (SubmitMove: a seat's move on its own turn passes under the
//!    move floor, see `limits`);
//! 4. hands the handlers a [`Caller`] in the request's extensions.
//!
//! Under `--page-create` a CreateGame without an API key is let past the key check: it is a
//! game started from the page, which the handler holds to `page_create`'s shape and rate.
//!
//! With traces exported, a refused call still gets its span in the caller's trace (the
//! handler that would have made it never runs).
//!
//! Refusals are answered here with the status of the `ServiceError` (one mapping, as
//! everywhere), without decoding the body. Health checks and reflection pass ungated.

use std::net::IpAddr;
use std::sync::Arc;
use std::task::{Context, Poll};

use futures_util::future::{Either, Ready, ready};
use tonic::transport::server::TcpConnectInfo;
use tower::{Layer, Service};

use crate::error::ServiceError;
use crate::game::PlayerToken;
use crate::game::player::PLAYER_TOKEN_PREFIX;
use crate::security::SecurityConfig;
use crate::security::access::{self, Rpc, Server};
use crate::security::error::AccessError;
use crate::security::error::LimitError;
use crate::security::keys::ApiKeys;
use crate::security::limits::{Limiters, Refused};
use crate::security::page_create::PageCreate;
use crate::telemetry::spans::{self, TraceParent};

// The handlers' view of the caller; it lives with the access table that shapes it.
pub(crate) use crate::security::access::Caller;

/// The security state shared by the gate and the handlers.
#[derive(Debug)]
pub struct Guard {
    /// `None`: no `--api-key-file`, backend calls are open.
    pub keys: Option<Arc<ApiKeys>>,
    pub limiters: Arc<Limiters>,
    /// `false` (`--no-rate-limits`): the limiters are never consulted.
    pub rate_limits: bool,
    pub private_watch: bool,
    /// `--page-create`: CreateGame without an API key is a page's creation, held to this.
    pub page_create: Option<PageCreate>,
}

impl Guard {
    #[must_use]
    pub fn new(keys: Option<Arc<ApiKeys>>, config: &SecurityConfig) -> Guard {
        Guard {
            keys,
            limiters: Arc::new(Limiters::new(config.rates)),
            rate_limits: config.rate_limits,
            private_watch: config.private_watch,
            page_create: config.page_create.clone().map(PageCreate::new),
        }
    }

    /// What access depends on in this server's configuration.
    #[must_use]
    pub fn server(&self) -> Server {
        Server {
            api_keys: self.keys.is_some(),
            private_watch: self.private_watch,
        }
    }

    /// Lets a GameService call in as its row says, or says why not.
    fn admit<B>(&self, rpc: &Rpc, request: &http::Request<B>) -> Result<Caller, ServiceError> {
        let headers = request.headers();
        let authorization = headers.get(http::header::AUTHORIZATION);
        let bearer = authorization.and_then(|v| bearer(v.as_bytes()));
        // Read exactly as the handlers read credentials (`api::call::credential`: visible
        // ASCII only): a row may admit a call for its player token, and the handler must then
        // see that same player token, never fall back to a keyless backend's read.
        let player_token = authorization
            .and_then(|v| v.to_str().ok())
            .and_then(bearer_text)
            .is_some_and(PlayerToken::looks_like);
        let presented = headers
            .get(&crate::security::redact::X_API_KEY)
            .map(http::HeaderValue::as_bytes)
            .or_else(|| {
                bearer.filter(|c| {
                    rpc.access.bearer_is_key() && !c.starts_with(PLAYER_TOKEN_PREFIX.as_bytes())
                })
            });
        let key = match (&self.keys, presented) {
            (Some(keys), Some(presented)) => keys
                .check(presented)
                .map(Some)
                .ok_or(ServiceError::Access(AccessError::ApiKeyInvalid)),
            _ => Ok(None),
        };
        let peer = peer_ip(request);
        let refused = match &key {
            _ if !self.rate_limits => None,
            Ok(Some(key)) => self.limiters.api_key(*key).err(),
            // Callers without a valid key, including wrong keys, spend their address's budget:
            // guessing keys is rate limited like anything else.
            _ => peer.and_then(|ip| self.limiters.peer(ip).err()),
        };
        let key = match refused {
            Some(refused) if !rpc.defers_rate_limit => return Err(rate_limited(refused)),
            _ => key?,
        };
        match rpc.access.admit(self.server(), key.is_some(), player_token) {
            Err(ServiceError::Access(AccessError::ApiKeyMissing))
                if rpc.method == "CreateGame" && self.page_create.is_some() => {}
            admitted => admitted?,
        }
        Ok(Caller {
            key,
            deferred_refusal: refused,
            peer,
        })
    }
}

/// The refusal as a service error.
#[must_use]
pub(crate) fn rate_limited(refused: Refused) -> ServiceError {
    ServiceError::Limit(LimitError::RateLimited {
        limit: refused.limit.name(),
        retry_after: refused.retry_after,
    })
}

/// The credential of `Bearer <credential>` (the scheme in any case).
fn bearer(value: &[u8]) -> Option<&[u8]> {
    let text = std::str::from_utf8(value).ok()?.trim();
    let (scheme, credential) = text.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| credential.trim().as_bytes())
}

/// [`bearer`] of a header that is text.
fn bearer_text(value: &str) -> Option<&str> {
    bearer(value.as_bytes()).and_then(|c| std::str::from_utf8(c).ok())
}

/// The peer's address (the transport adds it to every request, over TLS too).
fn peer_ip<B>(request: &http::Request<B>) -> Option<IpAddr> {
    request
        .extensions()
        .get::<TcpConnectInfo>()
        .and_then(TcpConnectInfo::remote_addr)
        .map(|a| a.ip())
}

/// The layer.
#[derive(Clone, Debug)]
pub(crate) struct GateLayer {
    guard: Arc<Guard>,
}

impl GateLayer {
    #[must_use]
    pub(crate) fn new(guard: Arc<Guard>) -> GateLayer {
        GateLayer { guard }
    }
}

impl<S> Layer<S> for GateLayer {
    type Service = Gate<S>;

    fn layer(&self, inner: S) -> Gate<S> {
        Gate {
            inner,
            guard: self.guard.clone(),
        }
    }
}

/// The gate around the services.
#[derive(Clone, Debug)]
pub(crate) struct Gate<S> {
    inner: S,
    guard: Arc<Guard>,
}

impl<S, B, RB> Service<http::Request<B>> for Gate<S>
where
    S: Service<http::Request<B>, Response = http::Response<RB>> + Clone,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
    RB: Default + Send + 'static,
{
    type Response = http::Response<RB>;
    type Error = S::Error;
    /// A refusal is answered at once; an admitted call goes on with the inner future, unboxed
    /// (boxing it cost an allocation and a copy of the whole call's future per call).
    type Future = Either<Ready<Result<http::Response<RB>, S::Error>>, S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let mut request = crate::security::redact::mark(request);
        // Headers at trace level help debug clients; credentials print as `Sensitive`.
        tracing::trace!(path = request.uri().path(), headers = ?request.headers(), "call");
        // Any other path (health, reflection, an unknown method) is the router's to answer.
        if let Some(rpc) = access::rpc_of(request.uri().path()) {
            let method = rpc.method;
            let started = std::time::Instant::now();
            match self.guard.admit(rpc, &request) {
                Ok(caller) => {
                    request.extensions_mut().insert(caller);
                }
                Err(refusal) => {
                    // Present only when traces are exported.
                    let span = match request.extensions().get::<TraceParent>() {
                        Some(parent) => {
                            let span = spans::rpc(method, None, None, Some(parent));
                            spans::record_code(&span, refusal.code());
                            span
                        }
                        None => tracing::Span::none(),
                    };
                    span.in_scope(|| {
                        tracing::info!(
                            method,
                            code = ?refusal.code(),
                            reason = refusal.reason(),
                            "refused at the gate"
                        );
                    });
                    crate::metrics::rpc(method, refusal.code(), started.elapsed());
                    let response = refusal.status().into_http();
                    return Either::Left(ready(Ok(response)));
                }
            }
        }
        Either::Right(self.inner.call(request))
    }
}
