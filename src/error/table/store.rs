//! The error table's rows for [`Layer::Store`]: no such game, its seat tokens gone, the store
//! unreachable, or a change not yet safe.

use tonic::Code;

use crate::error::table::{Layer, Row, row};
use crate::store::store_error::StoreError;

/// The rows of the errors `table::row_of` routes here.
pub(super) fn row_of(error: &StoreError) -> Row {
    use Code::{AlreadyExists, NotFound, Unavailable};
    use StoreError as E;
    match error {
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
    }
}
