//! The smallest request fields, parsed the same way by every decoder (`decode`, `clocks`): a
//! game id and a protobuf duration.

use std::time::Duration;

use crate::error::ServiceError;
use crate::game::GameId;

/// A game id from its text.
pub fn game_id(text: &str) -> Result<GameId, ServiceError> {
    text.trim().parse().map_err(|_| ServiceError::InvalidGameId)
}

/// A duration field (zero when unset); a negative or out-of-range one is refused, named.
pub fn duration(
    field: &'static str,
    d: Option<prost_types::Duration>,
) -> Result<Duration, ServiceError> {
    let Some(d) = d else {
        return Ok(Duration::ZERO);
    };
    Duration::try_from(d).map_err(|_| ServiceError::InvalidField {
        field,
        message: "negative or out of range".into(),
    })
}
