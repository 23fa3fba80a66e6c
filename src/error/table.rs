//! The error table: for every [`ServiceError`], its gRPC code, stable reason, the request
//! field at fault, the client-facing message, the facts for ErrorInfo's metadata and the retry
//! delay, in one exhaustive `match`.
//!
//! Before, these lived in four parallel matches (code and reason, metadata, field, message)
//! that drifted apart; one row per error makes adding an error one arm here (plus its line in
//! `contract.txt`, which the tests hold the table to). Messages are lowercase, end with no
//! period, and never carry an internal detail.

use std::borrow::Cow;
use std::time::Duration;

use chessd_rules::DrawClaim;
use tonic::Code;

use super::ServiceError;
use crate::game::epoch_ms;

/// The layer whose concern an error is: the one that raises it, and whose docs explain it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// A request wrong in itself, whatever the game (decoding, ids, request ids).
    Request,
    /// The rules of play: the game's state refuses the action.
    Play,
    /// Credentials, and who may call or see what (`security::access`).
    Access,
    /// Rate limits and the bounds on games, watchers and streams.
    Limits,
    /// Where a watch stream or the feed resumes after it ended early.
    Streams,
    /// The game store: no such game, its seat tokens gone, unreachable, or a change not yet
    /// safe.
    Store,
    /// A fault inside the server, never shown.
    Internal,
}

/// Everything the wire says about one error.
#[derive(Debug)]
pub(super) struct Row {
    pub layer: Layer,
    pub code: Code,
    /// ErrorInfo's `reason`: clients match on it, so it never changes.
    pub reason: &'static str,
    /// The request field at fault, for a BadRequest detail.
    pub field: Option<&'static str>,
    pub message: Cow<'static, str>,
    /// ErrorInfo's metadata, so clients need not parse the message.
    pub metadata: Vec<(&'static str, String)>,
    /// RetryInfo's delay.
    pub retry_after: Option<Duration>,
}

/// A row with no field, metadata or retry delay; the builders below add them.
fn row(
    layer: Layer,
    code: Code,
    reason: &'static str,
    message: impl Into<Cow<'static, str>>,
) -> Row {
    Row {
        layer,
        code,
        reason,
        field: None,
        message: message.into(),
        metadata: Vec::new(),
        retry_after: None,
    }
}

impl Row {
    fn field(mut self, field: &'static str) -> Row {
        self.field = Some(field);
        self
    }

    fn meta(mut self, key: &'static str, value: impl ToString) -> Row {
        self.metadata.push((key, value.to_string()));
        self
    }

    fn retry(mut self, after: Duration) -> Row {
        self.retry_after = Some(after);
        self
    }
}

/// The wire names of every variant chessd plays, for INVALID_VARIANT's message: generated
/// from the protocol's enum, so a new variant can never be left out of it (the hand-written
/// list once named only chess and Racing Kings).
fn variant_names() -> String {
    use chessd_proto::wire::Variant;
    let names: Vec<&str> = (1..)
        .map_while(|n| Variant::try_from(n).ok())
        .map(|v| v.as_str_name())
        .collect();
    match names.split_last() {
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

fn claim_name(claim: DrawClaim) -> &'static str {
    match claim {
        DrawClaim::ThreefoldRepetition => "threefold repetition",
        DrawClaim::FiftyMoves => "fifty moves",
    }
}

/// The one exhaustive mapping from error to everything the client is told.
#[allow(clippy::too_many_lines)] // one arm per error is the point: a table, not logic
pub(super) fn row_of(error: &ServiceError) -> Row {
    use Code::{
        Aborted, AlreadyExists, FailedPrecondition, Internal, InvalidArgument, NotFound,
        OutOfRange, PermissionDenied, ResourceExhausted, Unauthenticated, Unavailable,
        Unimplemented,
    };
    use ServiceError as E;
    match error {
        // Requests that are wrong in themselves.
        E::InvalidGameId => row(
            Layer::Request,
            InvalidArgument,
            "INVALID_GAME_ID",
            "malformed game id: expected 13 characters of crockford base32",
        )
        .field("game_id"),
        E::InvalidVariant => row(
            Layer::Request,
            InvalidArgument,
            "INVALID_VARIANT",
            format!("unknown or unspecified variant: expected {}", variant_names()),
        )
        .field("variant"),
        E::InvalidFen { message } => {
            row(Layer::Request, InvalidArgument, "INVALID_FEN", format!("invalid fen: {message}")).field("fen")
        }
        E::MalformedMove { text } => row(
            Layer::Request,
            InvalidArgument,
            "MALFORMED_MOVE",
            format!("malformed move {text:?}: expected uci (e2e4, e7e8q) or san (Nf3, exd5, O-O)"),
        )
        .field("move"),
        E::InvalidPageToken => row(
            Layer::Request,
            InvalidArgument,
            "INVALID_PAGE_TOKEN",
            "malformed page token: pass next_page_token from a ListGames response",
        )
        .field("page_token"),
        E::InvalidField { field, message } => row(
            Layer::Request,
            InvalidArgument,
            "INVALID_FIELD",
            format!("invalid {field}: {message}"),
        )
        .field(field)
        .meta("field", field),
        E::RequestIdReused => row(
            Layer::Request,
            InvalidArgument,
            "REQUEST_ID_REUSED",
            "request_id was already used for a different request",
        )
        .field("request_id"),
        E::MalformedRequest { detail } => row(
            Layer::Request,
            InvalidArgument,
            "MALFORMED_REQUEST",
            format!("malformed request: {detail}"),
        ),
        E::UnknownMethod { path } => row(
            Layer::Request,
            Unimplemented,
            "UNKNOWN_METHOD",
            format!(
                "unknown method {path:?}: this server serves chessd.v1.GameService, grpc.health.v1.Health and server reflection"
            ),
        )
        .meta("method", path),

        // The rules of play.
        E::IllegalMove { message } => row(
            Layer::Play,
            FailedPrecondition,
            "ILLEGAL_MOVE",
            format!("illegal move: {message}"),
        ),
        E::AmbiguousMove { message } => row(
            Layer::Play,
            FailedPrecondition,
            "AMBIGUOUS_MOVE",
            format!("ambiguous move: {message}"),
        ),
        E::NotYourTurn { turn } => row(
            Layer::Play,
            FailedPrecondition,
            "NOT_YOUR_TURN",
            format!("not your turn: {turn} is to move"),
        )
        .meta("turn", turn.name()),
        E::GameOver => row(Layer::Play, FailedPrecondition, "GAME_OVER", "the game is over"),
        E::NoFirstMove { timeout } => row(
            Layer::Play,
            FailedPrecondition,
            "GAME_OVER",
            format!(
                "the game is over: aborted, no first move within {} s (the first-move timer: create games when both players are ready, or with first_move_timeout 0 for none)",
                timeout.as_secs()
            ),
        )
        .meta("termination", "no_start")
        .meta("first_move_timeout_ms", timeout.as_millis()),
        E::ClaimNotValid { claim } => row(
            Layer::Play,
            FailedPrecondition,
            "DRAW_CLAIM_INVALID",
            match claim {
                DrawClaim::ThreefoldRepetition => {
                    "no draw by threefold repetition: the current position has not occurred three times"
                }
                DrawClaim::FiftyMoves => {
                    "no draw by the fifty-move rule: fewer than 100 half-moves without a capture or pawn move"
                }
            },
        )
        .meta("claim", claim_name(*claim)),
        E::AbortTooLate => row(
            Layer::Play,
            FailedPrecondition,
            "ABORT_NOT_ALLOWED",
            "too late to abort: both sides have moved (resign instead)",
        ),
        E::ClaimOnOwnTurn => row(
            Layer::Play,
            FailedPrecondition,
            "CLAIM_ON_OWN_TURN",
            "it is your turn: a claim is only against an opponent who left while it is to move",
        ),
        E::OpponentConnected { opponent } => row(
            Layer::Play,
            FailedPrecondition,
            "OPPONENT_CONNECTED",
            format!("{opponent} is connected: no claim while it watches the game"),
        )
        .meta("opponent", opponent.name()),
        E::ClaimTooEarly { claim_at } => row(
            Layer::Play,
            FailedPrecondition,
            "CLAIM_TOO_EARLY",
            format!(
                "too early to claim: the opponent has not been gone for the game's grace period (claim at {} ms since the epoch)",
                epoch_ms(*claim_at)
            ),
        )
        .meta("claim_at_ms", epoch_ms(*claim_at)),
        E::NoDrawOffer => row(
            Layer::Play,
            FailedPrecondition,
            "NO_DRAW_OFFER",
            "there is no draw offer to answer",
        ),
        E::TakebacksOff => row(
            Layer::Play,
            FailedPrecondition,
            "TAKEBACKS_OFF",
            "takebacks are off in this game",
        ),
        E::NothingToTakeBack => row(
            Layer::Play,
            FailedPrecondition,
            "NOTHING_TO_TAKE_BACK",
            "you have no move to take back",
        ),
        E::NoTakebackProposal => row(
            Layer::Play,
            FailedPrecondition,
            "NO_TAKEBACK_PROPOSAL",
            "there is no takeback proposal to answer",
        ),
        E::TakebackPending { by } => row(
            Layer::Play,
            FailedPrecondition,
            "TAKEBACK_PENDING",
            format!("{by}'s takeback proposal stands: answer it with RespondToTakeback"),
        )
        .meta("proposed_by", by.name()),
        E::MoveTakenBack => row(
            Layer::Play,
            FailedPrecondition,
            "MOVE_TAKEN_BACK",
            "the move of this request_id was taken back: send the move again with a new request_id",
        ),
        E::PlyMismatch { expected, current } => row(
            Layer::Play,
            Aborted,
            "PLY_MISMATCH",
            format!("the game is at ply {current}, not at the expected ply {expected}"),
        )
        .meta("expected_ply", expected)
        .meta("current_ply", current),
        E::GameUntimed => row(
            Layer::Play,
            FailedPrecondition,
            "GAME_UNTIMED",
            "the game has no clocks",
        ),

        // Access: credentials and who may do what.
        E::MissingToken => row(
            Layer::Access,
            Unauthenticated,
            "TOKEN_MISSING",
            "missing seat token: send metadata 'authorization: Bearer <token>'",
        ),
        E::InvalidToken => row(
            Layer::Access,
            Unauthenticated,
            "TOKEN_INVALID",
            "invalid seat token: it is neither seat's token of this game",
        ),
        E::InvalidPlayerToken => row(
            Layer::Access,
            Unauthenticated,
            "TOKEN_INVALID",
            "invalid player token: it is malformed, was never issued, or was revoked",
        ),
        E::TokenRevoked => row(
            Layer::Access,
            Unauthenticated,
            "TOKEN_REVOKED",
            "the player token was revoked",
        ),
        E::PlayerNotSeated => row(
            Layer::Access,
            PermissionDenied,
            "PLAYER_NOT_SEATED",
            "the player token's player holds no seat in this game",
        ),
        E::PlayerTokensDisabled => row(
            Layer::Access,
            FailedPrecondition,
            "PLAYER_TOKENS_DISABLED",
            "player tokens need API keys: this server runs without --api-key-file, so it issues and accepts none",
        ),
        E::WrongSeat { seat, required } => row(
            Layer::Access,
            PermissionDenied,
            "WRONG_SEAT",
            format!("this is {required}'s action, and the token is {seat}'s"),
        )
        .meta("seat", seat.name())
        .meta("required_seat", required.name()),
        E::ApiKeyMissing => row(
            Layer::Access,
            Unauthenticated,
            "API_KEY_MISSING",
            "missing API key: this call is for backends; send metadata 'x-api-key: <key>' (or 'authorization: Bearer <key>')",
        ),
        E::ApiKeyInvalid => row(
            Layer::Access,
            Unauthenticated,
            "API_KEY_INVALID",
            "invalid API key: it is not one of the server's keys",
        ),
        E::ReadCredentialsMissing => row(
            Layer::Access,
            Unauthenticated,
            "CREDENTIALS_MISSING",
            "this server keeps games private: send a seat token of this game ('authorization: Bearer <token>') or an API key ('x-api-key: <key>')",
        ),
        E::NotAPlayer => row(
            Layer::Access,
            PermissionDenied,
            "NOT_A_PLAYER",
            "this server keeps games private, and the seat token is not one of this game's",
        ),

        // Limits and bounds.
        E::RateLimited { limit, retry_after } => row(
            Layer::Limits,
            ResourceExhausted,
            "RATE_LIMITED",
            format!(
                "rate limit {limit} reached: retry in {} ms",
                retry_after.as_millis().max(1)
            ),
        )
        .meta("limit", limit)
        .meta("retry_after_ms", retry_after.as_millis())
        .retry(*retry_after),
        E::TooManyGames { limit } => row(
            Layer::Limits,
            ResourceExhausted,
            "TOO_MANY_GAMES",
            format!("the server holds its maximum of {limit} live games"),
        )
        .meta("limit", limit),
        E::RequestTooLarge { limit } => row(
            Layer::Limits,
            ResourceExhausted,
            "REQUEST_TOO_LARGE",
            format!("request too large: the limit is {limit} bytes"),
        )
        .meta("limit", limit),
        E::TooManyWatchers { limit } => row(
            Layer::Limits,
            ResourceExhausted,
            "TOO_MANY_WATCHERS",
            format!("the game has its maximum of {limit} watchers"),
        )
        .meta("limit", limit),
        E::TooManyPeerWatchers { limit, per_game } => row(
            Layer::Limits,
            ResourceExhausted,
            "TOO_MANY_PEER_WATCHERS",
            if *per_game {
                format!(
                    "this address already watches this game {limit} times, its maximum: close a stream first"
                )
            } else {
                format!(
                    "this address already holds {limit} WatchGame streams, its maximum: close a stream first"
                )
            },
        )
        .meta("limit", limit)
        .meta("scope", if *per_game { "game" } else { "server" }),
        E::TooManyFeeds { limit, per_peer } => row(
            Layer::Limits,
            ResourceExhausted,
            "TOO_MANY_FEEDS",
            if *per_peer {
                format!(
                    "this address already holds {limit} WatchGames streams, its maximum: close one first"
                )
            } else {
                format!("the server holds its maximum of {limit} WatchGames streams")
            },
        )
        .meta("limit", limit)
        .meta("scope", if *per_peer { "peer" } else { "server" }),

        // Streams: where a watcher resumes.
        E::WatcherTooSlow { resume_after_seq } => row(
            Layer::Streams,
            ResourceExhausted,
            "WATCHER_TOO_SLOW",
            format!(
                "watcher too slow: events were dropped; watch again with after_seq {resume_after_seq}"
            ),
        )
        .meta("resume_after_seq", resume_after_seq),
        E::WatchInterrupted => row(
            Layer::Streams,
            Aborted,
            "WATCH_INTERRUPTED",
            "the game's events were interrupted (its store lost or forgot them): watch again from the start (after_seq 0)",
        )
        .meta("resume_after_seq", 0),
        E::SeqOutOfRange {
            after_seq,
            last_seq,
        } => row(
            Layer::Streams,
            OutOfRange,
            "SEQ_OUT_OF_RANGE",
            format!("after_seq {after_seq} is beyond the game's last event {last_seq}"),
        )
        .meta("after_seq", after_seq)
        .meta("last_seq", last_seq),
        E::ShuttingDown {
            resume_after_seq: Some(seq),
        } => row(
            Layer::Streams,
            Unavailable,
            "SHUTTING_DOWN",
            format!("server shutting down: watch again elsewhere with after_seq {seq}"),
        )
        .meta("resume_after_seq", seq),
        E::ShuttingDown {
            resume_after_seq: None,
        } => row(
            Layer::Streams,
            Unavailable,
            "SHUTTING_DOWN",
            "server shutting down: retry elsewhere",
        ),
        E::FeedShuttingDown {
            resume_after_cursor,
        } => row(
            Layer::Streams,
            Unavailable,
            "SHUTTING_DOWN",
            "server shutting down: watch again elsewhere with after_cursor set to resume_after_cursor",
        )
        .meta("resume_after_cursor", resume_after_cursor),
        E::CursorOutOfRange { oldest_cursor } => row(
            Layer::Streams,
            OutOfRange,
            "CURSOR_OUT_OF_RANGE",
            "after_cursor is older than the feed keeps (or from another deployment): resume from oldest_cursor, or start live without a cursor",
        )
        .meta("oldest_cursor", oldest_cursor),
        E::FeedTooSlow {
            resume_after_cursor,
        } => row(
            Layer::Streams,
            ResourceExhausted,
            "FEED_TOO_SLOW",
            "feed consumer too slow: it took nothing for the stall timeout; watch again with after_cursor set to resume_after_cursor",
        )
        .meta("resume_after_cursor", resume_after_cursor),

        // The store.
        E::GameNotFound { id } => {
            row(Layer::Store, NotFound, "GAME_NOT_FOUND", format!("no game with id {id}")).meta("game_id", id)
        }
        E::SeatTokensUnavailable { id } => row(
            Layer::Store,
            AlreadyExists,
            "SEAT_TOKENS_UNAVAILABLE",
            format!(
                "this request_id already created game {id}, but its seat tokens are no longer available (the server restarted since and keeps only their digests): create a new game with a new request_id"
            ),
        )
        .meta("game_id", id),
        E::StoreUnavailable => row(
            Layer::Store,
            Unavailable,
            "STORE_UNAVAILABLE",
            "the game store is unreachable: retry shortly (with the same request_id)",
        ),
        E::NotReplicated {
            confirmed,
            required,
        } => row(
            Layer::Store,
            Unavailable,
            "NOT_REPLICATED",
            format!(
                "the change is not yet confirmed by {required} store replicas ({confirmed} did): retry with the same request_id, which plays it at most once"
            ),
        )
        .meta("replicas_confirmed", confirmed)
        .meta("replicas_required", required),
        // The cause is logged where the error is answered (`api::call::traced`), never sent.
        E::Internal(_) => row(Layer::Internal, Internal, "INTERNAL", "internal error"),
    }
}
