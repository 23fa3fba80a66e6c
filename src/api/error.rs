//! [`RequestError`]: what the API refuses in a request before any game is read (ids,
//! variants, FENs, page tokens, malformed bodies, unknown methods).
//!
//! The values the domain validates itself (labels, player ids, request ids, move text, clock
//! amounts) are `game::error::InputError`; the error table gives both enums the request
//! layer's rows.

/// A request wrong in itself, whatever the game.
#[derive(Debug)]
pub enum RequestError {
    /// The game id is not 13 characters of Crockford base32.
    InvalidGameId,
    /// The variant is unspecified or not one chessd plays.
    InvalidVariant,
    /// The FEN is malformed, not a legal position of the variant, or already decided.
    InvalidFen { message: String },
    /// The page token did not come from a ListGames response.
    InvalidPageToken,
    /// The request body is not a protobuf message of the method's type (see
    /// `security::malformed`).
    MalformedRequest { detail: &'static str },
    /// No service or method of this server has this path.
    UnknownMethod { path: String },
}
