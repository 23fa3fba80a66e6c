//! The error table's rows for [`Layer::Limits`]: rate limits and the bounds on games, watchers
//! and streams.

use tonic::Code;

use crate::error::table::{Layer, Row, row};
use crate::security::error::LimitError;

/// The rows of the errors `table::row_of` routes here.
pub(super) fn row_of(error: &LimitError) -> Row {
    use Code::ResourceExhausted;
    use LimitError as E;
    match error {
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
    }
}
