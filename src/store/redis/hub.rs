//! The hub of a replica's followed games: one follower per watched game, its bounded channel
//! and its cached game, and the subscribing half of the pub/sub connection (see `follow` for
//! how followers are fed).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use ::redis::RedisResult;
use ::redis::aio::PubSubSink;
use tokio::sync::broadcast;

use crate::error::ServiceError;
use crate::game::{Event, GameId, LogEntry};
use crate::security::error::LimitError;
use crate::store::redis::cached::Cached;
use crate::store::redis::conn::Dialer;
use crate::store::redis::keys;

/// Longest wait for the pub/sub connection, and the pause between attempts.
pub(super) const CONNECT_TIMEOUT: Duration = Duration::from_secs(1);
pub(super) const RECONNECT_PAUSE: Duration = Duration::from_millis(200);

/// Longest wait for Redis's answer to a SUBSCRIBE or UNSUBSCRIBE. The crate's pub/sub
/// connection has no response timeout of its own (the command connections have theirs), so
/// a Redis that holds the connection open and answers nothing would hold the caller (a new
/// watch, a feed consumer, the feed follower's round, the reconnect) for as long as it stays
/// silent.
pub(super) const PUBSUB_TIMEOUT: Duration = Duration::from_secs(2);

/// `command` (a pub/sub sink's SUBSCRIBE or UNSUBSCRIBE), failed once [`PUBSUB_TIMEOUT`]
/// passes without an answer. A command given up on may still reach Redis later: a channel
/// then stays subscribed with nobody to tell, which costs only the messages the replica reads
/// and drops, until the next command on it or the next connection.
pub(super) async fn answered<T>(command: impl Future<Output = RedisResult<T>>) -> RedisResult<T> {
    tokio::time::timeout(PUBSUB_TIMEOUT, command)
        .await
        .unwrap_or_else(|_| {
            Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "redis did not answer a pub/sub command",
            )
            .into())
        })
}

/// The followed games of one replica.
#[derive(Debug)]
pub(super) struct Hub {
    /// Where the pub/sub connection may go: the one Redis, a cluster's seed nodes (tried in
    /// turn), or the primary the Sentinels name.
    pub dialer: Dialer,
    /// Each watched game's channel capacity (`--watch-buffer`).
    pub capacity: usize,
    /// Followed games. A std mutex, held only to find, add or drop a follower and to subscribe
    /// a watcher to one (so a watcher never joins a follower being dropped).
    followed: Mutex<HashMap<GameId, Arc<Follower>>>,
    /// The subscribing half of the pub/sub connection while it is up. A std mutex: cloned out.
    pub sink: Mutex<Option<PubSubSink>>,
}

/// A follower and a new receiver of its events.
pub(super) type Joined = (Arc<Follower>, broadcast::Receiver<Arc<Event>>);

#[derive(Debug)]
pub(super) struct Follower {
    /// Bounded by `--watch-buffer`; the watchers' receivers.
    pub tx: broadcast::Sender<Arc<Event>>,
    /// A std mutex: flags and the cached game, never held across an await.
    pub state: Mutex<FollowState>,
}

#[derive(Debug)]
pub(super) struct FollowState {
    /// The last seq sent to the watchers.
    pub sent: u64,
    /// That event's time and kind: a read that finds another event at `sent` (or none) means
    /// Redis no longer holds what was sent.
    pub sent_event: Option<LogEntry>,
    /// The game as of `sent` (taken while a read is under way).
    pub game: Option<Box<Cached>>,
    /// A read task is running.
    pub running: bool,
    /// The stream may have grown since the running read began.
    pub dirty: bool,
}

impl Follower {
    pub(super) fn lock(&self) -> MutexGuard<'_, FollowState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Hub {
    pub(super) fn new(dialer: Dialer, capacity: usize) -> Hub {
        Hub {
            dialer,
            capacity,
            followed: Mutex::default(),
            sink: Mutex::default(),
        }
    }

    pub(super) fn followed(&self) -> MutexGuard<'_, HashMap<GameId, Arc<Follower>>> {
        self.followed.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(super) fn sink(&self) -> Option<PubSubSink> {
        self.sink
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The pub/sub sink, waiting up to [`CONNECT_TIMEOUT`] for the connection (it is made
    /// in the background, at start and after an outage).
    pub(super) async fn connected_sink(&self) -> Option<PubSubSink> {
        let deadline = tokio::time::Instant::now() + CONNECT_TIMEOUT;
        loop {
            if let Some(sink) = self.sink() {
                return Some(sink);
            }
            if tokio::time::Instant::now() >= deadline {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Drops every follower (their watchers' streams end).
    pub(super) fn stop(&self) {
        self.followed().clear();
    }

    /// Joins `id`'s follower if there is one.
    pub(super) fn join(
        &self,
        id: GameId,
        limit: usize,
        new: Option<Arc<Follower>>,
    ) -> Result<Option<Joined>, ServiceError> {
        let mut followed = self.followed();
        let follower = match (followed.get(&id), new) {
            (Some(f), _) => f.clone(),
            (None, Some(new)) => {
                followed.insert(id, new.clone());
                new
            }
            (None, None) => return Ok(None),
        };
        if follower.tx.receiver_count() >= limit {
            return Err(LimitError::TooManyWatchers { limit }.into());
        }
        let rx = follower.tx.subscribe();
        Ok(Some((follower, rx)))
    }

    /// Drops `id`'s follower and its channel subscription.
    pub(super) async fn drop_follower(&self, id: GameId) {
        self.followed().remove(&id);
        self.unsubscribe(id).await;
    }

    pub(super) async fn unsubscribe(&self, id: GameId) {
        // A watcher may have followed the game again since it was dropped: its follower's
        // subscription must stand (it would otherwise hear of moves only at the resync).
        if self.followed().contains_key(&id) {
            return;
        }
        if let Some(mut sink) = self.sink() {
            // A failure means the connection is gone, and its subscriptions with it.
            let _ = answered(sink.unsubscribe(keys::channel(id))).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A command Redis never answers fails once the bound passes; an answer comes through.
    #[tokio::test(start_paused = true)]
    async fn a_silent_pubsub_command_fails_in_time() {
        let started = tokio::time::Instant::now();
        let silent = answered(std::future::pending::<RedisResult<()>>()).await;
        assert!(silent.is_err_and(|e| e.is_timeout() || e.is_io_error()));
        assert_eq!(started.elapsed(), PUBSUB_TIMEOUT);
        assert_eq!(answered(async { Ok(7) }).await.ok(), Some(7));
    }
}
