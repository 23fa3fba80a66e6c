//! A replica's feed follower: while any of its consumers follows the feed live, one task reads
//! every lane's new entries (after a nudge on the feed channel, which the scripts publish and
//! the replica listens to only while it has such consumers, and at least every
//! [`FEED_RESYNC`]) and sends them, merged by id, on one bounded broadcast that
//! all the replica's consumers share. Redis work grows with the feed's events, not with its
//! consumers; a consumer that lags the broadcast reads the lanes itself (see `feed`).
//!
//! The follower keeps the position it has sent up to in each lane. A consumer subscribes under
//! the same lock, so the positions it gets back are exactly where its receiver starts. With no
//! consumer left the follower stops reading, and the next subscription starts it again from the
//! lanes' ends. If a lane was trimmed past the follower's position (it was stopped for longer
//! than the feed keeps), the broadcast is closed, so every live consumer ends and resumes from
//! its own cursor, which is then checked: a gap is never sent on.

use std::sync::{Arc, Weak};
use std::time::Duration;

use tokio::sync::broadcast;

use crate::error::ServiceError;
use crate::store::feed::codec::Headers;
use crate::store::feed::cursor::LanePos;
use crate::store::feed::subscription::FeedEntry;
use crate::store::redis::feed::LaneRead;
use crate::store::redis::feed_hub::FeedFollow;
use crate::store::redis::hub;
use crate::store::redis::keys::{self, BUCKETS};
use crate::store::redis::state::Inner;

/// How often the follower reads the lanes even without a nudge (a lost one costs this much
/// latency, never an event).
pub(super) const FEED_RESYNC: Duration = Duration::from_secs(1);

/// Entries read per lane per round trip.
const READ_BATCH: usize = 512;

impl FeedFollow {
    /// A receiver of every entry after the returned positions.
    pub(super) async fn subscribe(
        &self,
        inner: &Inner,
        epoch: u64,
    ) -> Result<(broadcast::Receiver<Arc<FeedEntry>>, Vec<LanePos>), ServiceError> {
        let fresh = {
            let state = self.lock();
            state.positions.is_none() || state.epoch != epoch
        };
        let tails = if fresh {
            Some(inner.tails().await?)
        } else {
            None
        };
        let (rx, positions) = {
            let mut state = self.lock();
            if let Some(tails) = tails
                && (state.positions.is_none() || state.epoch != epoch)
            {
                state.positions = Some(tails);
                state.epoch = epoch;
            }
            let Some(positions) = state.positions.clone() else {
                return Err(ServiceError::Internal(
                    "feed follower without positions".into(),
                ));
            };
            (state.tx.subscribe(), positions)
        };
        self.listen_as_needed(inner).await;
        self.nudge.notify_one();
        Ok((rx, positions))
    }

    /// Subscribes the pub/sub connection to the feed channel while the replica has live
    /// consumers, and unsubscribes it once it has none (see `FeedFollow::listening`). Without
    /// the connection nothing changes here: the connection subscribes when it comes back if
    /// consumers are there (see `follow`). A failed command leaves the flag as it was, for the
    /// next round to try again; meanwhile a consumer still gets every entry, at the
    /// follower's resync rather than at once.
    pub(super) async fn listen_as_needed(&self, inner: &Inner) {
        let mut listening = self.listening.lock().await;
        let wanted = self.lock().tx.receiver_count() > 0;
        if wanted == *listening {
            return;
        }
        let Some(mut sink) = inner.hub.sink() else {
            return;
        };
        let done = if wanted {
            hub::answered(sink.subscribe(keys::FEED_CHANNEL)).await
        } else {
            hub::answered(sink.unsubscribe(keys::FEED_CHANNEL)).await
        };
        if done.is_ok() {
            *listening = wanted;
        }
    }

    /// One round: reads every lane after what was sent, and sends what is new.
    async fn round(&self, inner: &Inner) {
        // Also retries a SUBSCRIBE that failed, or an UNSUBSCRIBE, at every round.
        self.listen_as_needed(inner).await;
        let positions = {
            let mut state = self.lock();
            if state.tx.receiver_count() == 0 {
                state.positions = None;
                return;
            }
            match &state.positions {
                Some(p) => p.clone(),
                None => return,
            }
        };
        let mut headers = Headers::new();
        let mut new: Vec<(LanePos, usize, crate::game::FeedEvent)> = Vec::new();
        let mut gap = false;
        for (bucket, &from) in positions.iter().enumerate().take(BUCKETS) {
            let mut at = from;
            loop {
                match inner
                    .read_feed_lane(bucket, at, READ_BATCH, &mut headers)
                    .await
                {
                    Ok(LaneRead::Entries(entries)) => {
                        let full = entries.len() == READ_BATCH;
                        if let Some(&(last, _)) = entries.last() {
                            at = last;
                        }
                        new.extend(entries.into_iter().map(|(p, e)| (p, bucket, e)));
                        if !full {
                            break;
                        }
                    }
                    Ok(LaneRead::Gone | LaneRead::Ahead) => {
                        gap = true;
                        break;
                    }
                    // Redis is unreachable (logged): the next round reads again.
                    Err(_) => return,
                }
            }
        }
        new.sort_by_key(|a| (a.0, a.1));
        let mut guard = self.lock();
        let state = &mut *guard;
        if gap {
            tracing::warn!("feed follower fell behind the feed's retention; live consumers resume");
            state.tx = broadcast::channel(self.capacity).0;
            state.positions = None;
            return;
        }
        let Some(sent) = state.positions.as_mut() else {
            return;
        };
        for (pos, lane, event) in new {
            if sent.get(lane).is_some_and(|&s| pos > s) {
                sent[lane] = pos;
                // An error means nobody listens any more; the next round stops.
                let _ = state.tx.send(Arc::new(FeedEntry { lane, pos, event }));
            }
        }
    }
}

/// The follower task: a round at every nudge and every [`FEED_RESYNC`]. Holds the store weakly.
pub(super) async fn follow(inner: Weak<Inner>) {
    loop {
        let Some(strong) = inner.upgrade() else {
            return;
        };
        let _ = tokio::time::timeout(FEED_RESYNC, strong.feed_follow.nudge.notified()).await;
        strong.feed_follow.round(&strong).await;
    }
}
