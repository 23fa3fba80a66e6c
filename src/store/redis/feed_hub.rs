//! The state of a replica's feed follower (see `feed_follow`, which runs it): the broadcast
//! its consumers share, the position it has sent up to in each lane, and whether the replica
//! listens on the feed channel. Apart from the
//! follower's work so the replica's state can hold it without importing that work.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::{Notify, broadcast};

use crate::store::feed::cursor::LanePos;
use crate::store::feed::subscription::FeedEntry;

/// The follower's state, shared by the task and the subscriptions.
#[derive(Debug)]
pub(super) struct FeedFollow {
    state: Mutex<FollowState>,
    /// Wakes the task: a lane grew, or a consumer arrived.
    pub nudge: Notify,
    /// The broadcast's capacity (`store::FEED_LIVE_BUFFER`).
    pub capacity: usize,
    /// Whether the pub/sub connection is subscribed to the feed channel. The replica listens
    /// only while it has live consumers: every lane's growth is published to every listening
    /// replica, a message to read and a task to wake per move. A tokio mutex because it is
    /// held across the SUBSCRIBE or UNSUBSCRIBE it decides, so that two changes (a consumer
    /// arriving as the last one leaves, a reconnection) never apply out of order.
    pub listening: tokio::sync::Mutex<bool>,
}

#[derive(Debug)]
pub(super) struct FollowState {
    pub tx: broadcast::Sender<Arc<FeedEntry>>,
    /// What has been sent, per lane; `None` while nobody follows.
    pub positions: Option<Vec<LanePos>>,
    /// The epoch the positions belong to.
    pub epoch: u64,
}

impl FeedFollow {
    #[must_use]
    pub(super) fn new(capacity: usize) -> FeedFollow {
        FeedFollow {
            state: Mutex::new(FollowState {
                tx: broadcast::channel(capacity.max(1)).0,
                positions: None,
                epoch: 0,
            }),
            nudge: Notify::new(),
            capacity: capacity.max(1),
            listening: tokio::sync::Mutex::new(false),
        }
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, FollowState> {
        // Every step leaves the state whole, so a panicking holder cannot break it.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
