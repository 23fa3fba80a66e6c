//! What crosses the store trait for the feed: an entry at its place in a lane
//! ([`FeedEntry`]), and a consumer's start ([`FeedSubscription`]).

use std::sync::Arc;

use tokio::sync::broadcast;

use crate::game::FeedEvent;
use crate::store::feed::cursor::{FeedCursor, LanePos};

/// One feed event at its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeedEntry {
    /// Which lane of the feed (0 but on Redis, where it is the game's bucket).
    pub lane: usize,
    pub pos: LanePos,
    pub event: FeedEvent,
}

/// A consumer's start.
///
/// The live receiver is taken before anything is read: every entry after `start` either comes
/// through it or, for a consumer that starts behind or falls behind, is read from the store's
/// log (`GameStore::feed_page`) up to its end, whereupon the receiver takes over. A consumer
/// skips what its cursor has passed, so nothing is missed or sent twice between the two.
pub struct FeedSubscription {
    /// The cursor the stream starts after: the one given, or the feed's end now.
    pub start: FeedCursor,
    /// New entries as the store learns of them. Bounded: a receiver that lags reads the log
    /// instead.
    pub live: broadcast::Receiver<Arc<FeedEntry>>,
    /// Live starts of a player's stream: the creations of the games it is seated in that are
    /// running (created at or before `start`, not ended by it).
    pub running: Vec<FeedEvent>,
}

impl std::fmt::Debug for FeedSubscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FeedSubscription")
            .field("start", &self.start)
            .field("running", &self.running.len())
            .finish_non_exhaustive()
    }
}
