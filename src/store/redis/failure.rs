//! How a Redis failure or damaged data in Redis is reported: logged here with its cause, and
//! turned into the client's error (UNAVAILABLE for a failure, INTERNAL for data that does not
//! decode). Its own file so that every part of the store, the batching of appends included,
//! reports them one way without depending on the replica's shared state.

use ::redis::RedisError;

use crate::error::ServiceError;
use crate::game::GameId;
use crate::store::store_error::StoreError;

/// A Redis failure: logged here, reported to the client as UNAVAILABLE.
pub(super) fn unavailable(e: &RedisError) -> ServiceError {
    use ::redis::{ErrorKind, ServerErrorKind};
    if e.kind() == ErrorKind::Server(ServerErrorKind::ClusterDown) {
        // The cluster refuses while a slot has no reachable primary: it heals by itself once
        // one is back (or a replica is promoted), and so do the calls.
        tracing::warn!(error = %e, "redis cluster is down (a slot has no primary)");
    } else {
        tracing::warn!(error = %e, "redis call failed");
    }
    ServiceError::Store(StoreError::StoreUnavailable)
}

/// Data in Redis that does not decode: logged with its cause, INTERNAL for the client.
pub(super) fn damaged(id: GameId, detail: &str) -> ServiceError {
    tracing::error!(game_id = %id, detail, "damaged game in redis");
    ServiceError::Internal(format!("game {id} in redis: {detail}").into())
}
