//! `ServiceError`: every way a request can fail, and its one mapping to a gRPC `Status`.
//!
//! Each variant carries the facts a client needs to fix its request. [`ServiceError::status`]
//! is the single exhaustive match from variant to code, adding a `google.rpc.ErrorInfo` detail
//! (domain [`ERROR_DOMAIN`], a stable machine-readable `reason`, and metadata such as the ply or
//! the seq to resume from) and, for bad fields, a `google.rpc.BadRequest` naming the field.
//! Internal failures are logged with their cause and reach the client only as "internal error".

use core::fmt;
use std::collections::HashMap;

use chessd_rules::{Color, DrawClaim};
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use crate::game::GameId;

/// The `domain` of every ErrorInfo detail chessd sends.
pub const ERROR_DOMAIN: &str = "chessd";

/// Why a request failed.
#[derive(Debug)]
pub enum ServiceError {
    /// The game id is not 13 characters of Crockford base32.
    InvalidGameId,
    /// The variant is unspecified or not one chessd plays.
    InvalidVariant,
    /// The FEN is malformed, not a legal position of the variant, or already decided.
    InvalidFen { message: String },
    /// The move is neither UCI nor SAN.
    MalformedMove { text: String },
    /// The page token did not come from a ListGames response.
    InvalidPageToken,
    /// Some other field is out of its documented range.
    InvalidField {
        field: &'static str,
        message: String,
    },
    /// The request id was used before for a different request.
    RequestIdReused,
    /// The request body is not a protobuf message of the method's type (see
    /// `security::malformed`).
    MalformedRequest { detail: &'static str },
    /// A retried CreateGame whose game exists, but whose clear seat tokens the server no
    /// longer holds (it keeps only their digests; the clear ones live in the memory of the
    /// process that created the game). Fresh tokens would belong to nobody, so none are made.
    SeatTokensUnavailable { id: GameId },
    /// No game has this id (or it finished and was evicted).
    GameNotFound { id: GameId },
    /// The move is not legal in the current position.
    IllegalMove { message: String },
    /// The SAN fits more than one legal move.
    AmbiguousMove { message: String },
    /// The caller's side is not the side to move.
    NotYourTurn { turn: Color },
    /// The game is already over.
    GameOver,
    /// The game was called off because its side to move did not make its first move within
    /// the first-move timer (`timeout`): a game that is over, saying why.
    NoFirstMove { timeout: std::time::Duration },
    /// The draw claim does not hold now.
    ClaimNotValid { claim: DrawClaim },
    /// Both sides have moved: too late to abort.
    AbortTooLate,
    /// ClaimVictory on the claimant's own turn: only a gone side to move can be claimed against.
    ClaimOnOwnTurn,
    /// ClaimVictory while the opponent (to move) watches the game.
    OpponentConnected { opponent: Color },
    /// ClaimVictory before the opponent has been gone for the game's grace period.
    ClaimTooEarly { claim_at: std::time::SystemTime },
    /// There is no draw offer to answer.
    NoDrawOffer,
    /// The game was created without takebacks (`CreateGame.takebacks`).
    TakebacksOff,
    /// The caller's side has no move of its own to take back.
    NothingToTakeBack,
    /// There is no takeback proposal to answer.
    NoTakebackProposal,
    /// The opponent's takeback proposal stands: it is answered first.
    TakebackPending { by: Color },
    /// A retried move request whose move was taken back since (a new request id plays it
    /// again).
    MoveTakenBack,
    /// `expected_ply` is not the game's ply.
    PlyMismatch { expected: u32, current: u32 },
    /// No `authorization: Bearer <token>` metadata.
    MissingToken,
    /// The token is malformed or is neither seat's token of this game.
    InvalidToken,
    /// A player token that is malformed, was never issued, or was revoked.
    InvalidPlayerToken,
    /// A player token's stream ended because the token was revoked.
    TokenRevoked,
    /// A player token of a player bound to neither seat of the game (or, on WatchGames, a
    /// `player_id` that is not the token's player).
    PlayerNotSeated,
    /// Player tokens exist only where API keys do (`--api-key-file`): without them nobody
    /// could be kept from minting a token for someone else's player id.
    PlayerTokensDisabled,
    /// A valid seat token, but this action belongs to the other seat.
    WrongSeat { seat: Color, required: Color },
    /// A backend call without an API key while `--api-key-file` is set.
    ApiKeyMissing,
    /// The API key presented is not one of the keys in force.
    ApiKeyInvalid,
    /// `--private-watch`: reading a game needs a seat token of it or an API key, and none came.
    ReadCredentialsMissing,
    /// `--private-watch`: the seat token is not one of this game's.
    NotAPlayer,
    /// A rate limit refused the call; retry after the delay.
    RateLimited {
        limit: &'static str,
        retry_after: std::time::Duration,
    },
    /// The live-game limit is reached.
    TooManyGames { limit: usize },
    /// The request message is larger than the server accepts.
    RequestTooLarge { limit: usize },
    /// The per-game watcher limit is reached.
    TooManyWatchers { limit: usize },
    /// The caller's address holds its maximum of WatchGame streams, on this game
    /// (`per_game`) or in all.
    TooManyPeerWatchers { limit: usize, per_game: bool },
    /// No service or method of this server has this path.
    UnknownMethod { path: String },
    /// A watcher fell too far behind the live events and was cut off.
    WatcherTooSlow { resume_after_seq: u64 },
    /// The store stopped feeding a watch stream before the game ended: it forgot the game, or
    /// found that events it had sent are no longer the game's (a Redis failover lost them,
    /// without `--redis-min-replicas`). The watcher starts again from a snapshot
    /// (`after_seq` 0), never from where it was.
    WatchInterrupted,
    /// `after_seq` is beyond the game's last event.
    SeqOutOfRange { after_seq: u64, last_seq: u64 },
    /// The server is draining; a stream says from which seq to resume elsewhere.
    ShuttingDown { resume_after_seq: Option<u64> },
    /// The server is draining; a WatchGames stream says from which cursor to resume elsewhere.
    FeedShuttingDown { resume_after_cursor: String },
    /// `after_cursor` is older than the feed keeps (`--feed-retention`), or from another
    /// deployment: resuming would leave a gap. `oldest_cursor` is the oldest that resumes.
    CursorOutOfRange { oldest_cursor: String },
    /// A WatchGames consumer took nothing for the stall timeout and was cut off.
    FeedTooSlow { resume_after_cursor: String },
    /// The WatchGames streams allowed are open: this address's (`per_peer`), or the server's.
    TooManyFeeds { limit: usize, per_peer: bool },
    /// The shared game store (Redis) cannot be reached or did not answer in time. The cause is
    /// logged where it happened; clients are told to retry (a retry with the same `request_id`
    /// plays nothing twice).
    StoreUnavailable,
    /// The change reached the Redis primary, but fewer replicas than `--redis-min-replicas`
    /// confirmed it in time: it is not acknowledged (a failover now could lose it). A retry
    /// with the same `request_id` answers the same result once it is confirmed, or plays the
    /// change if it was lost; it never plays it twice.
    NotReplicated { confirmed: u32, required: u32 },
    /// A clock action (AddTime, AdjustClock) on a game without clocks.
    GameUntimed,
    /// A fault inside the server (no randomness, a storage failure). Never shown to clients.
    Internal(Box<dyn std::error::Error + Send + Sync>),
}

impl ServiceError {
    /// The machine-readable reason sent in ErrorInfo (stable: clients match on it).
    #[must_use]
    pub fn reason(&self) -> &'static str {
        self.classify().1
    }

    /// The gRPC code.
    #[must_use]
    pub fn code(&self) -> Code {
        self.classify().0
    }

    /// The one exhaustive mapping from error to code and reason.
    fn classify(&self) -> (Code, &'static str) {
        use ServiceError as E;
        match self {
            E::InvalidGameId => (Code::InvalidArgument, "INVALID_GAME_ID"),
            E::InvalidVariant => (Code::InvalidArgument, "INVALID_VARIANT"),
            E::InvalidFen { .. } => (Code::InvalidArgument, "INVALID_FEN"),
            E::MalformedMove { .. } => (Code::InvalidArgument, "MALFORMED_MOVE"),
            E::InvalidPageToken => (Code::InvalidArgument, "INVALID_PAGE_TOKEN"),
            E::InvalidField { .. } => (Code::InvalidArgument, "INVALID_FIELD"),
            E::RequestIdReused => (Code::InvalidArgument, "REQUEST_ID_REUSED"),
            E::MalformedRequest { .. } => (Code::InvalidArgument, "MALFORMED_REQUEST"),
            E::SeatTokensUnavailable { .. } => (Code::AlreadyExists, "SEAT_TOKENS_UNAVAILABLE"),
            E::GameNotFound { .. } => (Code::NotFound, "GAME_NOT_FOUND"),
            E::IllegalMove { .. } => (Code::FailedPrecondition, "ILLEGAL_MOVE"),
            E::AmbiguousMove { .. } => (Code::FailedPrecondition, "AMBIGUOUS_MOVE"),
            E::NotYourTurn { .. } => (Code::FailedPrecondition, "NOT_YOUR_TURN"),
            E::GameOver | E::NoFirstMove { .. } => (Code::FailedPrecondition, "GAME_OVER"),
            E::ClaimNotValid { .. } => (Code::FailedPrecondition, "DRAW_CLAIM_INVALID"),
            E::AbortTooLate => (Code::FailedPrecondition, "ABORT_NOT_ALLOWED"),
            E::ClaimOnOwnTurn => (Code::FailedPrecondition, "CLAIM_ON_OWN_TURN"),
            E::OpponentConnected { .. } => (Code::FailedPrecondition, "OPPONENT_CONNECTED"),
            E::ClaimTooEarly { .. } => (Code::FailedPrecondition, "CLAIM_TOO_EARLY"),
            E::NoDrawOffer => (Code::FailedPrecondition, "NO_DRAW_OFFER"),
            E::TakebacksOff => (Code::FailedPrecondition, "TAKEBACKS_OFF"),
            E::NothingToTakeBack => (Code::FailedPrecondition, "NOTHING_TO_TAKE_BACK"),
            E::NoTakebackProposal => (Code::FailedPrecondition, "NO_TAKEBACK_PROPOSAL"),
            E::TakebackPending { .. } => (Code::FailedPrecondition, "TAKEBACK_PENDING"),
            E::MoveTakenBack => (Code::FailedPrecondition, "MOVE_TAKEN_BACK"),
            E::PlyMismatch { .. } => (Code::Aborted, "PLY_MISMATCH"),
            E::MissingToken => (Code::Unauthenticated, "TOKEN_MISSING"),
            E::InvalidToken | E::InvalidPlayerToken => (Code::Unauthenticated, "TOKEN_INVALID"),
            E::TokenRevoked => (Code::Unauthenticated, "TOKEN_REVOKED"),
            E::PlayerNotSeated => (Code::PermissionDenied, "PLAYER_NOT_SEATED"),
            E::PlayerTokensDisabled => (Code::FailedPrecondition, "PLAYER_TOKENS_DISABLED"),
            E::WrongSeat { .. } => (Code::PermissionDenied, "WRONG_SEAT"),
            E::ApiKeyMissing => (Code::Unauthenticated, "API_KEY_MISSING"),
            E::ApiKeyInvalid => (Code::Unauthenticated, "API_KEY_INVALID"),
            E::ReadCredentialsMissing => (Code::Unauthenticated, "CREDENTIALS_MISSING"),
            E::NotAPlayer => (Code::PermissionDenied, "NOT_A_PLAYER"),
            E::RateLimited { .. } => (Code::ResourceExhausted, "RATE_LIMITED"),
            E::TooManyGames { .. } => (Code::ResourceExhausted, "TOO_MANY_GAMES"),
            E::TooManyWatchers { .. } => (Code::ResourceExhausted, "TOO_MANY_WATCHERS"),
            E::TooManyPeerWatchers { .. } => (Code::ResourceExhausted, "TOO_MANY_PEER_WATCHERS"),
            E::UnknownMethod { .. } => (Code::Unimplemented, "UNKNOWN_METHOD"),
            E::RequestTooLarge { .. } => (Code::ResourceExhausted, "REQUEST_TOO_LARGE"),
            E::WatcherTooSlow { .. } => (Code::ResourceExhausted, "WATCHER_TOO_SLOW"),
            E::WatchInterrupted => (Code::Aborted, "WATCH_INTERRUPTED"),
            E::SeqOutOfRange { .. } => (Code::OutOfRange, "SEQ_OUT_OF_RANGE"),
            E::ShuttingDown { .. } | E::FeedShuttingDown { .. } => {
                (Code::Unavailable, "SHUTTING_DOWN")
            }
            E::CursorOutOfRange { .. } => (Code::OutOfRange, "CURSOR_OUT_OF_RANGE"),
            E::FeedTooSlow { .. } => (Code::ResourceExhausted, "FEED_TOO_SLOW"),
            E::TooManyFeeds { .. } => (Code::ResourceExhausted, "TOO_MANY_FEEDS"),
            E::StoreUnavailable => (Code::Unavailable, "STORE_UNAVAILABLE"),
            E::NotReplicated { .. } => (Code::Unavailable, "NOT_REPLICATED"),
            E::GameUntimed => (Code::FailedPrecondition, "GAME_UNTIMED"),
            E::Internal(_) => (Code::Internal, "INTERNAL"),
        }
    }

    /// Facts for ErrorInfo's metadata, so clients need not parse the message.
    fn metadata(&self) -> HashMap<String, String> {
        use ServiceError as E;
        let pairs: Vec<(&str, String)> = match self {
            E::GameNotFound { id } | E::SeatTokensUnavailable { id } => {
                vec![("game_id", id.to_string())]
            }
            E::NotYourTurn { turn } => vec![("turn", turn.name().into())],
            E::TakebackPending { by } => vec![("proposed_by", by.name().into())],
            E::ClaimNotValid { claim } => vec![("claim", claim_name(*claim).into())],
            E::OpponentConnected { opponent } => vec![("opponent", opponent.name().into())],
            E::ClaimTooEarly { claim_at } => {
                vec![("claim_at_ms", crate::game::epoch_ms(*claim_at).to_string())]
            }
            E::PlyMismatch { expected, current } => {
                vec![
                    ("expected_ply", expected.to_string()),
                    ("current_ply", current.to_string()),
                ]
            }
            E::WrongSeat { seat, required } => vec![
                ("seat", seat.name().into()),
                ("required_seat", required.name().into()),
            ],
            E::TooManyGames { limit }
            | E::TooManyWatchers { limit }
            | E::RequestTooLarge { limit } => {
                vec![("limit", limit.to_string())]
            }
            E::TooManyPeerWatchers { limit, per_game } => vec![
                ("limit", limit.to_string()),
                ("scope", if *per_game { "game" } else { "server" }.into()),
            ],
            E::UnknownMethod { path } => vec![("method", path.clone())],
            E::WatchInterrupted => vec![("resume_after_seq", "0".into())],
            E::WatcherTooSlow { resume_after_seq }
            | E::ShuttingDown {
                resume_after_seq: Some(resume_after_seq),
            } => {
                vec![("resume_after_seq", resume_after_seq.to_string())]
            }
            E::FeedShuttingDown {
                resume_after_cursor,
            }
            | E::FeedTooSlow {
                resume_after_cursor,
            } => vec![("resume_after_cursor", resume_after_cursor.clone())],
            E::CursorOutOfRange { oldest_cursor } => {
                vec![("oldest_cursor", oldest_cursor.clone())]
            }
            E::TooManyFeeds { limit, per_peer } => vec![
                ("limit", limit.to_string()),
                ("scope", if *per_peer { "peer" } else { "server" }.into()),
            ],
            E::SeqOutOfRange {
                after_seq,
                last_seq,
            } => {
                vec![
                    ("after_seq", after_seq.to_string()),
                    ("last_seq", last_seq.to_string()),
                ]
            }
            E::InvalidField { field, .. } => vec![("field", (*field).into())],
            E::NoFirstMove { timeout } => vec![
                ("termination", "no_start".into()),
                ("first_move_timeout_ms", timeout.as_millis().to_string()),
            ],
            E::NotReplicated {
                confirmed,
                required,
            } => vec![
                ("replicas_confirmed", confirmed.to_string()),
                ("replicas_required", required.to_string()),
            ],
            E::RateLimited { limit, retry_after } => vec![
                ("limit", (*limit).into()),
                ("retry_after_ms", retry_after.as_millis().to_string()),
            ],
            _ => Vec::new(),
        };
        pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
    }

    /// The request field at fault, for a BadRequest detail.
    fn field(&self) -> Option<&'static str> {
        use ServiceError as E;
        match self {
            E::InvalidGameId => Some("game_id"),
            E::InvalidVariant => Some("variant"),
            E::InvalidFen { .. } => Some("fen"),
            E::MalformedMove { .. } => Some("move"),
            E::InvalidPageToken => Some("page_token"),
            E::InvalidField { field, .. } => Some(field),
            E::RequestIdReused => Some("request_id"),
            _ => None,
        }
    }

    /// The status sent to the client: code, message and details.
    #[must_use]
    pub fn status(&self) -> Status {
        let (code, reason) = self.classify();
        let mut details = ErrorDetails::with_error_info(reason, ERROR_DOMAIN, self.metadata());
        if let Some(field) = self.field() {
            details.add_bad_request_violation(field, self.to_string());
        }
        if let ServiceError::RateLimited { retry_after, .. } = self {
            details.set_retry_info(Some(*retry_after));
        }
        Status::with_error_details(code, self.to_string(), details)
    }
}

fn claim_name(claim: DrawClaim) -> &'static str {
    match claim {
        DrawClaim::ThreefoldRepetition => "threefold repetition",
        DrawClaim::FiftyMoves => "fifty moves",
    }
}

impl fmt::Display for ServiceError {
    /// The client-facing message: lowercase, no final period, never an internal detail.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ServiceError as E;
        match self {
            E::InvalidGameId => f.write_str("malformed game id: expected 13 characters of crockford base32"),
            E::InvalidVariant => f.write_str("unknown or unspecified variant: expected VARIANT_CHESS or VARIANT_RACING_KINGS"),
            E::InvalidFen { message } => write!(f, "invalid fen: {message}"),
            E::MalformedMove { text } => {
                write!(f, "malformed move {text:?}: expected uci (e2e4, e7e8q) or san (Nf3, exd5, O-O)")
            }
            E::InvalidPageToken => f.write_str("malformed page token: pass next_page_token from a ListGames response"),
            E::InvalidField { field, message } => write!(f, "invalid {field}: {message}"),
            E::RequestIdReused => f.write_str("request_id was already used for a different request"),
            E::MalformedRequest { detail } => write!(f, "malformed request: {detail}"),
            E::SeatTokensUnavailable { id } => write!(
                f,
                "this request_id already created game {id}, but its seat tokens are no longer available (the server restarted since and keeps only their digests): create a new game with a new request_id"
            ),
            E::GameNotFound { id } => write!(f, "no game with id {id}"),
            E::IllegalMove { message } => write!(f, "illegal move: {message}"),
            E::AmbiguousMove { message } => write!(f, "ambiguous move: {message}"),
            E::NotYourTurn { turn } => write!(f, "not your turn: {turn} is to move"),
            E::GameOver => f.write_str("the game is over"),
            E::NoFirstMove { timeout } => write!(
                f,
                "the game is over: aborted, no first move within {} s (the first-move timer: create games when both players are ready, or with first_move_timeout 0 for none)",
                timeout.as_secs()
            ),
            E::ClaimNotValid { claim } => match claim {
                DrawClaim::ThreefoldRepetition => {
                    f.write_str("no draw by threefold repetition: the current position has not occurred three times")
                }
                DrawClaim::FiftyMoves => f.write_str(
                    "no draw by the fifty-move rule: fewer than 100 half-moves without a capture or pawn move",
                ),
            },
            E::AbortTooLate => f.write_str("too late to abort: both sides have moved (resign instead)"),
            E::ClaimOnOwnTurn => f.write_str(
                "it is your turn: a claim is only against an opponent who left while it is to move",
            ),
            E::OpponentConnected { opponent } => {
                write!(f, "{opponent} is connected: no claim while it watches the game")
            }
            E::ClaimTooEarly { claim_at } => write!(
                f,
                "too early to claim: the opponent has not been gone for the game's grace period (claim at {} ms since the epoch)",
                crate::game::epoch_ms(*claim_at)
            ),
            E::NoDrawOffer => f.write_str("there is no draw offer to answer"),
            E::GameUntimed => f.write_str("the game has no clocks"),
            E::TakebacksOff => f.write_str("takebacks are off in this game"),
            E::NothingToTakeBack => f.write_str("you have no move to take back"),
            E::NoTakebackProposal => f.write_str("there is no takeback proposal to answer"),
            E::TakebackPending { by } => {
                write!(f, "{by}'s takeback proposal stands: answer it with RespondToTakeback")
            }
            E::MoveTakenBack => f.write_str(
                "the move of this request_id was taken back: send the move again with a new request_id",
            ),
            E::PlyMismatch { expected, current } => {
                write!(f, "the game is at ply {current}, not at the expected ply {expected}")
            }
            E::MissingToken => f.write_str("missing seat token: send metadata 'authorization: Bearer <token>'"),
            E::InvalidToken => f.write_str("invalid seat token: it is neither seat's token of this game"),
            E::InvalidPlayerToken => f.write_str("invalid player token: it is malformed, was never issued, or was revoked"),
            E::TokenRevoked => f.write_str("the player token was revoked"),
            E::PlayerNotSeated => f.write_str("the player token's player holds no seat in this game"),
            E::PlayerTokensDisabled => f.write_str(
                "player tokens need API keys: this server runs without --api-key-file, so it issues and accepts none",
            ),
            E::WrongSeat { seat, required } => write!(f, "this is {required}'s action, and the token is {seat}'s"),
            E::ApiKeyMissing => f.write_str(
                "missing API key: this call is for backends; send metadata 'x-api-key: <key>' (or 'authorization: Bearer <key>')",
            ),
            E::ApiKeyInvalid => f.write_str("invalid API key: it is not one of the server's keys"),
            E::ReadCredentialsMissing => f.write_str(
                "this server keeps games private: send a seat token of this game ('authorization: Bearer <token>') or an API key ('x-api-key: <key>')",
            ),
            E::NotAPlayer => f.write_str("this server keeps games private, and the seat token is not one of this game's"),
            E::RateLimited { limit, retry_after } => write!(
                f,
                "rate limit {limit} reached: retry in {} ms",
                retry_after.as_millis().max(1)
            ),
            E::TooManyGames { limit } => write!(f, "the server holds its maximum of {limit} live games"),
            E::TooManyWatchers { limit } => write!(f, "the game has its maximum of {limit} watchers"),
            E::TooManyPeerWatchers { limit, per_game: true } => write!(
                f,
                "this address already watches this game {limit} times, its maximum: close a stream first"
            ),
            E::TooManyPeerWatchers { limit, per_game: false } => write!(
                f,
                "this address already holds {limit} WatchGame streams, its maximum: close a stream first"
            ),
            E::UnknownMethod { path } => write!(
                f,
                "unknown method {path:?}: this server serves chessd.v1.GameService, grpc.health.v1.Health and server reflection"
            ),
            E::RequestTooLarge { limit } => write!(f, "request too large: the limit is {limit} bytes"),
            E::WatcherTooSlow { resume_after_seq } => write!(
                f,
                "watcher too slow: events were dropped; watch again with after_seq {resume_after_seq}"
            ),
            E::WatchInterrupted => f.write_str(
                "the game's events were interrupted (its store lost or forgot them): watch again from the start (after_seq 0)",
            ),
            E::SeqOutOfRange { after_seq, last_seq } => {
                write!(f, "after_seq {after_seq} is beyond the game's last event {last_seq}")
            }
            E::ShuttingDown { resume_after_seq: Some(seq) } => {
                write!(f, "server shutting down: watch again elsewhere with after_seq {seq}")
            }
            E::ShuttingDown { resume_after_seq: None } => f.write_str("server shutting down: retry elsewhere"),
            E::FeedShuttingDown { .. } => f.write_str(
                "server shutting down: watch again elsewhere with after_cursor set to resume_after_cursor",
            ),
            E::CursorOutOfRange { .. } => f.write_str(
                "after_cursor is older than the feed keeps (or from another deployment): resume from oldest_cursor, or start live without a cursor",
            ),
            E::FeedTooSlow { .. } => f.write_str(
                "feed consumer too slow: it took nothing for the stall timeout; watch again with after_cursor set to resume_after_cursor",
            ),
            E::TooManyFeeds { limit, per_peer: true } => write!(
                f,
                "this address already holds {limit} WatchGames streams, its maximum: close one first"
            ),
            E::TooManyFeeds { limit, per_peer: false } => write!(
                f,
                "the server holds its maximum of {limit} WatchGames streams"
            ),
            E::StoreUnavailable => {
                f.write_str("the game store is unreachable: retry shortly (with the same request_id)")
            }
            E::NotReplicated {
                confirmed,
                required,
            } => write!(
                f,
                "the change is not yet confirmed by {required} store replicas ({confirmed} did): retry with the same request_id, which plays it at most once"
            ),
            E::Internal(_) => f.write_str("internal error"),
        }
    }
}

impl From<ServiceError> for Status {
    fn from(e: ServiceError) -> Status {
        e.status()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One example of every variant (a missing arm fails to compile in `classify`; a missing
    /// example here would leave a mapping untested).
    fn examples() -> Vec<(ServiceError, Code, &'static str)> {
        let id: GameId = "0000000000001".parse().unwrap();
        use ServiceError as E;
        vec![
            (E::InvalidGameId, Code::InvalidArgument, "INVALID_GAME_ID"),
            (E::InvalidVariant, Code::InvalidArgument, "INVALID_VARIANT"),
            (
                E::InvalidFen {
                    message: "black king missing".into(),
                },
                Code::InvalidArgument,
                "INVALID_FEN",
            ),
            (
                E::MalformedMove { text: "zz".into() },
                Code::InvalidArgument,
                "MALFORMED_MOVE",
            ),
            (
                E::InvalidPageToken,
                Code::InvalidArgument,
                "INVALID_PAGE_TOKEN",
            ),
            (
                E::InvalidField {
                    field: "white_player",
                    message: "too long".into(),
                },
                Code::InvalidArgument,
                "INVALID_FIELD",
            ),
            (
                E::RequestIdReused,
                Code::InvalidArgument,
                "REQUEST_ID_REUSED",
            ),
            (
                E::MalformedRequest { detail: "x" },
                Code::InvalidArgument,
                "MALFORMED_REQUEST",
            ),
            (
                E::SeatTokensUnavailable { id },
                Code::AlreadyExists,
                "SEAT_TOKENS_UNAVAILABLE",
            ),
            (E::GameNotFound { id }, Code::NotFound, "GAME_NOT_FOUND"),
            (
                E::IllegalMove {
                    message: "e2e5".into(),
                },
                Code::FailedPrecondition,
                "ILLEGAL_MOVE",
            ),
            (
                E::AmbiguousMove {
                    message: "Nd2".into(),
                },
                Code::FailedPrecondition,
                "AMBIGUOUS_MOVE",
            ),
            (
                E::NotYourTurn { turn: Color::White },
                Code::FailedPrecondition,
                "NOT_YOUR_TURN",
            ),
            (E::GameOver, Code::FailedPrecondition, "GAME_OVER"),
            (
                E::NoFirstMove {
                    timeout: std::time::Duration::from_secs(30),
                },
                Code::FailedPrecondition,
                "GAME_OVER",
            ),
            (
                E::ClaimNotValid {
                    claim: DrawClaim::FiftyMoves,
                },
                Code::FailedPrecondition,
                "DRAW_CLAIM_INVALID",
            ),
            (
                E::ClaimOnOwnTurn,
                Code::FailedPrecondition,
                "CLAIM_ON_OWN_TURN",
            ),
            (
                E::OpponentConnected {
                    opponent: Color::Black,
                },
                Code::FailedPrecondition,
                "OPPONENT_CONNECTED",
            ),
            (
                E::ClaimTooEarly {
                    claim_at: std::time::SystemTime::UNIX_EPOCH,
                },
                Code::FailedPrecondition,
                "CLAIM_TOO_EARLY",
            ),
            (
                E::AbortTooLate,
                Code::FailedPrecondition,
                "ABORT_NOT_ALLOWED",
            ),
            (E::NoDrawOffer, Code::FailedPrecondition, "NO_DRAW_OFFER"),
            (E::GameUntimed, Code::FailedPrecondition, "GAME_UNTIMED"),
            (E::TakebacksOff, Code::FailedPrecondition, "TAKEBACKS_OFF"),
            (
                E::NothingToTakeBack,
                Code::FailedPrecondition,
                "NOTHING_TO_TAKE_BACK",
            ),
            (
                E::NoTakebackProposal,
                Code::FailedPrecondition,
                "NO_TAKEBACK_PROPOSAL",
            ),
            (
                E::TakebackPending { by: Color::Black },
                Code::FailedPrecondition,
                "TAKEBACK_PENDING",
            ),
            (
                E::MoveTakenBack,
                Code::FailedPrecondition,
                "MOVE_TAKEN_BACK",
            ),
            (
                E::PlyMismatch {
                    expected: 3,
                    current: 4,
                },
                Code::Aborted,
                "PLY_MISMATCH",
            ),
            (E::MissingToken, Code::Unauthenticated, "TOKEN_MISSING"),
            (E::InvalidToken, Code::Unauthenticated, "TOKEN_INVALID"),
            (
                E::InvalidPlayerToken,
                Code::Unauthenticated,
                "TOKEN_INVALID",
            ),
            (E::TokenRevoked, Code::Unauthenticated, "TOKEN_REVOKED"),
            (
                E::PlayerNotSeated,
                Code::PermissionDenied,
                "PLAYER_NOT_SEATED",
            ),
            (
                E::PlayerTokensDisabled,
                Code::FailedPrecondition,
                "PLAYER_TOKENS_DISABLED",
            ),
            (
                E::WrongSeat {
                    seat: Color::White,
                    required: Color::Black,
                },
                Code::PermissionDenied,
                "WRONG_SEAT",
            ),
            (E::ApiKeyMissing, Code::Unauthenticated, "API_KEY_MISSING"),
            (E::ApiKeyInvalid, Code::Unauthenticated, "API_KEY_INVALID"),
            (
                E::ReadCredentialsMissing,
                Code::Unauthenticated,
                "CREDENTIALS_MISSING",
            ),
            (E::NotAPlayer, Code::PermissionDenied, "NOT_A_PLAYER"),
            (
                E::RateLimited {
                    limit: "per peer address",
                    retry_after: std::time::Duration::from_millis(250),
                },
                Code::ResourceExhausted,
                "RATE_LIMITED",
            ),
            (
                E::TooManyGames { limit: 1 },
                Code::ResourceExhausted,
                "TOO_MANY_GAMES",
            ),
            (
                E::TooManyWatchers { limit: 1 },
                Code::ResourceExhausted,
                "TOO_MANY_WATCHERS",
            ),
            (
                E::TooManyPeerWatchers {
                    limit: 16,
                    per_game: true,
                },
                Code::ResourceExhausted,
                "TOO_MANY_PEER_WATCHERS",
            ),
            (
                E::UnknownMethod {
                    path: "/chessd.v1.GameService/Nope".into(),
                },
                Code::Unimplemented,
                "UNKNOWN_METHOD",
            ),
            (
                E::RequestTooLarge { limit: 1 },
                Code::ResourceExhausted,
                "REQUEST_TOO_LARGE",
            ),
            (
                E::WatcherTooSlow {
                    resume_after_seq: 7,
                },
                Code::ResourceExhausted,
                "WATCHER_TOO_SLOW",
            ),
            (
                E::SeqOutOfRange {
                    after_seq: 9,
                    last_seq: 2,
                },
                Code::OutOfRange,
                "SEQ_OUT_OF_RANGE",
            ),
            (
                E::ShuttingDown {
                    resume_after_seq: Some(5),
                },
                Code::Unavailable,
                "SHUTTING_DOWN",
            ),
            (
                E::FeedShuttingDown {
                    resume_after_cursor: "c".into(),
                },
                Code::Unavailable,
                "SHUTTING_DOWN",
            ),
            (
                E::CursorOutOfRange {
                    oldest_cursor: "c".into(),
                },
                Code::OutOfRange,
                "CURSOR_OUT_OF_RANGE",
            ),
            (
                E::FeedTooSlow {
                    resume_after_cursor: "c".into(),
                },
                Code::ResourceExhausted,
                "FEED_TOO_SLOW",
            ),
            (
                E::TooManyFeeds {
                    limit: 8,
                    per_peer: true,
                },
                Code::ResourceExhausted,
                "TOO_MANY_FEEDS",
            ),
            (E::StoreUnavailable, Code::Unavailable, "STORE_UNAVAILABLE"),
            (E::WatchInterrupted, Code::Aborted, "WATCH_INTERRUPTED"),
            (
                E::NotReplicated {
                    confirmed: 0,
                    required: 1,
                },
                Code::Unavailable,
                "NOT_REPLICATED",
            ),
            (
                E::Internal("disk on fire".into()),
                Code::Internal,
                "INTERNAL",
            ),
        ]
    }

    /// Every variant maps to its documented code, and the status carries ErrorInfo with the
    /// reason in chessd's domain.
    #[test]
    fn mapping_to_status() {
        for (error, code, reason) in examples() {
            let status = error.status();
            assert_eq!(status.code(), code, "{error:?}");
            let info = status
                .get_details_error_info()
                .unwrap_or_else(|| panic!("no ErrorInfo for {error:?}"));
            assert_eq!(info.reason, reason);
            assert_eq!(info.domain, ERROR_DOMAIN);
            assert!(!status.message().is_empty());
            assert!(!status.message().ends_with('.'), "{}", status.message());
        }
    }

    /// Facts travel in metadata; bad fields also get a BadRequest violation.
    #[test]
    fn details_carry_facts() {
        let status = ServiceError::PlyMismatch {
            expected: 3,
            current: 4,
        }
        .status();
        let info = status.get_details_error_info().unwrap();
        assert_eq!(info.metadata["expected_ply"], "3");
        assert_eq!(info.metadata["current_ply"], "4");
        let status = ServiceError::WatcherTooSlow {
            resume_after_seq: 41,
        }
        .status();
        assert_eq!(
            status.get_details_error_info().unwrap().metadata["resume_after_seq"],
            "41"
        );
        assert!(status.message().contains("after_seq 41"));
        let status = ServiceError::InvalidFen {
            message: "black king missing".into(),
        }
        .status();
        let bad = status.get_details_bad_request().unwrap();
        assert_eq!(bad.field_violations[0].field, "fen");
    }

    /// A rate limit refusal says when to retry, in RetryInfo and in ErrorInfo's metadata.
    #[test]
    fn rate_limits_carry_retry_info() {
        let status = ServiceError::RateLimited {
            limit: "per seat token",
            retry_after: std::time::Duration::from_millis(1500),
        }
        .status();
        let retry = status.get_details_retry_info().expect("RetryInfo");
        assert_eq!(
            retry.retry_delay,
            Some(std::time::Duration::from_millis(1500))
        );
        let info = status.get_details_error_info().unwrap();
        assert_eq!(info.metadata["retry_after_ms"], "1500");
        assert_eq!(info.metadata["limit"], "per seat token");
    }

    /// The feed's errors carry the cursor to resume from, or the oldest one that resumes.
    #[test]
    fn feed_errors_carry_cursors() {
        let info = |e: ServiceError| e.status().get_details_error_info().unwrap().metadata;
        let slow = info(ServiceError::FeedTooSlow {
            resume_after_cursor: "AQID".into(),
        });
        assert_eq!(slow["resume_after_cursor"], "AQID");
        let draining = info(ServiceError::FeedShuttingDown {
            resume_after_cursor: "AQIE".into(),
        });
        assert_eq!(draining["resume_after_cursor"], "AQIE");
        let old = info(ServiceError::CursorOutOfRange {
            oldest_cursor: "AQIF".into(),
        });
        assert_eq!(old["oldest_cursor"], "AQIF");
        let full = info(ServiceError::TooManyFeeds {
            limit: 8,
            per_peer: false,
        });
        assert_eq!(
            (full["limit"].as_str(), full["scope"].as_str()),
            ("8", "server")
        );
    }

    /// An internal error never shows its cause to the client.
    #[test]
    fn internals_do_not_leak() {
        let status = ServiceError::Internal("sqlite: disk I/O error at /var/lib/x".into()).status();
        assert_eq!(status.message(), "internal error");
    }
}
