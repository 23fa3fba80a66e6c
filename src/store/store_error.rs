//! [`StoreError`]: why an open store could not answer a call (no such game, its seat tokens
//! gone, the store unreachable, a change not yet safe). Why a store could not open at all is
//! `error::OpenError`.

use crate::game::id::GameId;

/// Why the store could not answer a call.
#[derive(Debug)]
pub enum StoreError {
    /// No game has this id (or it finished and was evicted).
    GameNotFound { id: GameId },
    /// A retried CreateGame whose game exists, but whose clear seat tokens the server no
    /// longer holds (it keeps only their digests; the clear ones live in the memory of the
    /// process that created the game). Fresh tokens would belong to nobody, so none are made.
    SeatTokensUnavailable { id: GameId },
    /// The shared game store (Redis) cannot be reached or did not answer in time. The cause is
    /// logged where it happened; clients are told to retry (a retry with the same `request_id`
    /// plays nothing twice).
    StoreUnavailable,
    /// The change reached the Redis primary, but fewer replicas than `--redis-min-replicas`
    /// confirmed it in time: it is not acknowledged (a failover now could lose it). A retry
    /// with the same `request_id` answers the same result once it is confirmed, or plays the
    /// change if it was lost; it never plays it twice.
    NotReplicated { confirmed: u32, required: u32 },
}
