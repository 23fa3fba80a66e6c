//! `ServiceError`: every way a request can fail, and its one mapping to a gRPC `Status`.
//!
//! Each variant carries the facts a client needs to fix its request. What the client is told
//! about each (code, stable `reason`, the field at fault, message, ErrorInfo metadata, retry
//! delay), and the [`Layer`] whose concern it is, is one row of the table in `table`; [`ServiceError::status`] turns the row into a
//! status with a `google.rpc.ErrorInfo` detail (domain [`ERROR_DOMAIN`]) and, for bad fields,
//! a `google.rpc.BadRequest` naming the field. `contract.txt` lists every error's code and
//! reason, and a test holds the table to it, so the contract cannot drift unnoticed.
//! Internal failures are logged with their cause and reach the client only as "internal error".

use core::fmt;
use std::collections::HashMap;

use chessd_rules::{Color, DrawClaim};
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use crate::game::GameId;

mod table;

pub use table::Layer;

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
    /// A CreateGame without an API key under `--page-create` (a game started from the page)
    /// sets a field only a platform may set, or a time control the deployment does not offer.
    PageCreateRefused {
        field: &'static str,
        message: String,
    },
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
        table::row_of(self).reason
    }

    /// The gRPC code.
    #[must_use]
    pub fn code(&self) -> Code {
        table::row_of(self).code
    }

    /// The layer whose concern the error is (see [`Layer`]).
    #[must_use]
    pub fn layer(&self) -> Layer {
        table::row_of(self).layer
    }

    /// The status sent to the client: code, message and details, all from the error's row.
    #[must_use]
    pub fn status(&self) -> Status {
        let row = table::row_of(self);
        let metadata: HashMap<String, String> = row
            .metadata
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        let mut details = ErrorDetails::with_error_info(row.reason, ERROR_DOMAIN, metadata);
        if let Some(field) = row.field {
            details.add_bad_request_violation(field, row.message.as_ref());
        }
        if let Some(delay) = row.retry_after {
            details.set_retry_info(Some(delay));
        }
        Status::with_error_details(row.code, row.message.into_owned(), details)
    }
}

impl fmt::Display for ServiceError {
    /// The client-facing message: lowercase, no final period, never an internal detail.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&table::row_of(self).message)
    }
}

impl From<ServiceError> for Status {
    fn from(e: ServiceError) -> Status {
        e.status()
    }
}

#[cfg(test)]
mod tests;
