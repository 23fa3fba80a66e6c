//! The smallest request fields, parsed the same way by every decoder (`decode`, `clocks`,
//! `variant_key`): a game id, a protobuf duration, and how much of a bad value a refusal
//! echoes back ([`echo`]).

use std::time::Duration;

use crate::api::error::RequestError;
use crate::error::ServiceError;
use crate::game::GameId;
use crate::game::error::InputError;

/// At most this many characters of a client's text are echoed back in an error message (a
/// malformed move, an unknown variant key): enough to recognise it, never a whole payload.
pub const ECHO_LEN: usize = 32;

/// The first [`ECHO_LEN`] characters of a client's text, for an error message.
#[must_use]
pub fn echo(text: &str) -> String {
    text.chars().take(ECHO_LEN).collect()
}

/// A game id from its text.
pub fn game_id(text: &str) -> Result<GameId, ServiceError> {
    text.trim()
        .parse()
        .map_err(|_| ServiceError::Request(RequestError::InvalidGameId))
}

/// A duration field (zero when unset); a negative or out-of-range one is refused, named.
pub fn duration(
    field: &'static str,
    d: Option<prost_types::Duration>,
) -> Result<Duration, ServiceError> {
    let Some(d) = d else {
        return Ok(Duration::ZERO);
    };
    Duration::try_from(d).map_err(|_| {
        ServiceError::Input(InputError::InvalidField {
            field,
            message: "negative or out of range".into(),
        })
    })
}
