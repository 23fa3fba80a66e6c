//! What every handler does around its own work: the call's span (method, game id, request
//! What every handler does around its own work: the call's span (method, game id, request
//! id; with traces on, in the caller's trace and with the call's gRPC code), one log line
//! saying how it ended, one count in the metrics (method, code, handling time), the one
//! mapping of its error to a status; and the credentials a call carries (the gate's findings,
//! the seat or player token).

use std::future::Future;
use std::pin::pin;
use std::sync::LazyLock;
use std::time::Instant;

use tonic::metadata::{Ascii, MetadataKey, MetadataMap};
use tonic::{Request, Response, Status};
use tracing::{Instrument, Span};

use crate::error::ServiceError;
use crate::game::error::SeatError;
use crate::game::token::BearerError;
use crate::game::{PlayerToken, SeatToken};
use crate::metrics;
use crate::security::error::AccessError;
use crate::security::gate::Caller;
use crate::telemetry::spans::{self, TraceParent};

/// What the gate learned about the call (nothing when the API runs without the gate).
pub(crate) fn caller<T>(request: &Request<T>) -> Caller {
    request
        .extensions()
        .get::<Caller>()
        .copied()
        .unwrap_or_default()
}

/// The metadata a handler reads, as keys: a key given as text is parsed again on every
/// look-up, and every call looks these up.
static AUTHORIZATION: LazyLock<MetadataKey<Ascii>> =
    LazyLock::new(|| MetadataKey::from_static("authorization"));
static X_REQUEST_ID: LazyLock<MetadataKey<Ascii>> =
    LazyLock::new(|| MetadataKey::from_static("x-request-id"));

/// A token a call carries in `authorization: Bearer <token>`.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Credential {
    Seat(SeatToken),
    Player(PlayerToken),
}

/// The seat or player token from `authorization: Bearer <token>`. A credential written as a
/// player token (`chp_...`) is one, right or wrong; anything else must be a seat token.
pub(crate) fn credential(metadata: &MetadataMap) -> Result<Credential, ServiceError> {
    let header = match metadata.get(&*AUTHORIZATION) {
        None => None,
        // Non-ASCII header bytes cannot be a token.
        Some(value) => Some(value.to_str().map_err(|_| SeatError::InvalidToken)?),
    };
    if let Some(player) = header.and_then(player_bearer) {
        return player
            .parse()
            .map(Credential::Player)
            .map_err(|()| ServiceError::Access(AccessError::InvalidPlayerToken));
    }
    SeatToken::from_bearer(header)
        .map(Credential::Seat)
        .map_err(|e| match e {
            BearerError::Missing => ServiceError::Access(AccessError::MissingToken),
            BearerError::Malformed => ServiceError::Seat(SeatError::InvalidToken),
        })
}

/// The credential of `Bearer <credential>` when it is written as a player token.
fn player_bearer(header: &str) -> Option<&str> {
    let (scheme, token) = header.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && PlayerToken::looks_like(token)).then_some(token)
}

/// One call in progress: its method, span and start, for its log line and its metrics.
pub(crate) struct Call {
    method: &'static str,
    span: Span,
    started: Instant,
    /// Traces are exported: the span also records the call's code.
    traced: bool,
}

/// The span of one call. The request id is the request's own, else the `x-request-id`
/// metadata a proxy may have set.
pub(crate) fn rpc_span<T>(
    method: &'static str,
    request: &Request<T>,
    game_id: &str,
    request_id: &str,
) -> Call {
    let request_id = if request_id.is_empty() {
        request
            .metadata()
            .get(&*X_REQUEST_ID)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
    } else {
        request_id
    };
    // Client text goes into logs only when short; ids are short by construction. The fields
    // are given at creation (an absent one stays empty): recording them afterwards would make
    // the log formatter render the span's fields a second time on every call.
    let game_id = (!game_id.is_empty() && game_id.len() <= 64).then_some(game_id);
    let request_id = (!request_id.is_empty() && request_id.len() <= 128).then_some(request_id);
    // Present only when traces are exported (see `telemetry::propagate`).
    let parent = request.extensions().get::<TraceParent>();
    Call {
        method,
        span: spans::rpc(method, game_id, request_id, parent),
        started: Instant::now(),
        traced: parent.is_some(),
    }
}

/// Runs a handler body in its span, logs how it ended, counts it, and maps the error to its
/// status.
pub(crate) async fn traced<T>(
    call: Call,
    body: impl Future<Output = Result<T, ServiceError>>,
) -> Result<Response<T>, Status> {
    let Call {
        method,
        span,
        started,
        traced,
    } = call;
    // The body runs in the span, which is then borrowed back rather than cloned for it.
    let mut body = pin!(body.instrument(span));
    let result = body.as_mut().await;
    let span = body.span();
    let answer = span.in_scope(|| match result {
        Ok(answer) => {
            tracing::debug!("ok");
            Ok(Response::new(answer))
        }
        Err(error) => {
            let status = error.status();
            match &error {
                ServiceError::Internal(cause) => tracing::error!(error = %cause, "internal error"),
                _ => tracing::info!(code = ?status.code(), reason = error.reason(), error = %error, "refused"),
            }
            Err(status)
        }
    });
    let code = match &answer {
        Ok(_) => tonic::Code::Ok,
        Err(status) => status.code(),
    };
    if traced {
        spans::record_code(span, code);
    }
    metrics::rpc(method, code, started.elapsed());
    answer
}
