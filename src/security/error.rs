//! What the security layer refuses: [`AccessError`] (credentials, and who may do or see what)
//! and [`LimitError`] (rate limits and the bounds on games, watchers and streams).
//!
//! The seat checks the domain makes itself (a seat token of neither seat, a player seated
//! nowhere, the other seat's action) are `game::error::SeatError`; the error table gives both
//! enums the access layer's rows.

/// A credential is missing, unknown or not enough for this call.
#[derive(Debug)]
pub enum AccessError {
    /// No `authorization: Bearer <token>` metadata.
    MissingToken,
    /// A player token that is malformed, was never issued, or was revoked.
    InvalidPlayerToken,
    /// A player token's stream ended because the token was revoked.
    TokenRevoked,
    /// Player tokens exist only where API keys do (`--api-key-file`): without them nobody
    /// could be kept from minting a token for someone else's player id.
    PlayerTokensDisabled,
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
    /// A hidden game's record (ExportPgn) asked for while it is in play by a caller who may
    /// not see all of it: a seat or a spectator; the platform and everyone once it is over.
    RecordHidden,
}

/// A limit or bound refuses the call; some say when to retry.
#[derive(Debug)]
pub enum LimitError {
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
    /// The WatchGames streams allowed are open: this address's (`per_peer`), or the server's.
    TooManyFeeds { limit: usize, per_peer: bool },
}
