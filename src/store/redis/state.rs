//! A replica's shared state ([`Inner`]): the connection, the limits, the cache of recently
//! used games, the follower hub, the feed follower, the creations it remembers, the
//! revocations heard, its readiness. How a Redis failure or damaged data is reported is
//! `failure`'s.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::watch;

use crate::error::ServiceError;
use crate::game::{GameId, SeatToken};
use crate::store::config::StoreLimits;
use crate::store::redis::ack::Acks;
use crate::store::redis::batch::Batches;
use crate::store::redis::cached::Cached;
use crate::store::redis::conn::Conn;
use crate::store::redis::feed_hub::FeedFollow;
use crate::store::redis::hub::Hub;
use crate::store::store_error::StoreError;

/// Games a replica keeps cached; beyond it an arbitrary entry is dropped (it is only a cache).
pub(super) const CACHE_GAMES: usize = 16_384;

/// How many times an action is applied again after losing a race before giving up.
pub(super) const MAX_ATTEMPTS: usize = 16;

/// One remembered creation: its request key, the game, and the seat tokens minted (none for a
/// seat bound to a player without one).
pub(super) type Remembered = (String, GameId, chessd_rules::ByColor<Option<SeatToken>>);

#[derive(Debug)]
pub(super) struct Inner {
    /// Multiplexed and self-reconnecting (one Redis, or every node of a cluster): every call
    /// shares it (cloning is cheap).
    pub conn: Conn,
    /// With `--redis-min-replicas`: the connections whose changes wait for the replicas.
    pub acks: Option<std::sync::Arc<Acks>>,
    /// Appends on their way to Redis, many games per call (see `batch`).
    pub batches: Batches,
    pub limits: StoreLimits,
    /// Recently used games. A std mutex: held only to take or put back an entry.
    pub cache: Mutex<HashMap<GameId, Box<Cached>>>,
    pub hub: Hub,
    /// The replica's follower of the feed's lanes, for its WatchGames consumers.
    pub feed_follow: FeedFollow,
    /// Raised at every revocation, here or (heard on the revocation channel) elsewhere.
    pub revoked: watch::Sender<u64>,
    /// The tokens of this replica's recent creations by request key, oldest first, so a
    /// CreateGame retried here gets its tokens back (Redis keeps only their digests). A std
    /// mutex: held to insert or look up one entry.
    pub creations: Mutex<VecDeque<Remembered>>,
    /// Whether Redis answered the last probe (the health service follows it).
    pub ready: watch::Sender<bool>,
    /// This replica's seats' streams, and what it heard of other replicas' (see `presence`).
    pub presence: std::sync::Arc<crate::store::presence::Presence>,
    /// Names this replica's presence leases (random, new at each start).
    pub replica: String,
    /// The last probe that reached Redis found keys of the layout before buckets: every call
    /// is refused until they are gone, so games this version cannot see never look lost.
    pub old_layout: AtomicBool,
}

impl Inner {
    /// Refuses a call while Redis holds old-layout keys (the probe logged which).
    pub(super) fn usable(&self) -> Result<(), ServiceError> {
        if self.old_layout.load(Ordering::Relaxed) {
            tracing::warn!("call refused: redis holds keys of the layout before buckets");
            return Err(StoreError::StoreUnavailable.into());
        }
        Ok(())
    }

    pub(super) fn conn(&self) -> Conn {
        self.conn.clone()
    }
}
