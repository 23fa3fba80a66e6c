//! Followers: how a replica's watchers get the events any replica appends (the followers
//! themselves are in `hub`).
//!
//! One follower per watched game per replica reads the game's stream and feeds a bounded
//! `tokio::sync::broadcast` channel that all of this replica's watchers of the game share, so
//! Redis work grows with watched games, not with watchers. A watcher that falls more than the
//! channel's capacity behind is cut off with the seq to resume from, as with the memory store.
//!
//! Why pub/sub plus XRANGE, not blocking XREAD: the append script publishes the new seq on the
//! game's channel; each replica holds one pub/sub connection for all its followed games, and a
//! notification makes the game's follower read the stream's tail (XRANGE from its last seq) on
//! the shared multiplexed connection. Nothing blocks a connection per game or per watcher, a
//! quiet game costs nothing, and no multi-key XREAD spans slots. The stream stays the truth: a notification only
//! says "read again", so a lost one costs latency, never an event. Every [`RESYNC`] each
//! follower reads its tail anyway, and after the pub/sub connection comes back every followed
//! game is subscribed again and read again from its last seq.
//!
//! Redis Cluster: the scripts use plain PUBLISH, which a cluster relays to every node, so the
//! one pub/sub connection may be to any node (the first seed that answers; the next one when
//! it drops) and needs no slot map. Sharded pub/sub (SPUBLISH/SSUBSCRIBE) would spare that
//! fan-out, but the `redis` 1.8 cluster client delivers pushes only over RESP3 and through a
//! sender that cannot wait (unbounded, or dropping when full): a second delivery path beside
//! the one that works on one Redis, with its own bound to choose. At one short message per
//! event the broadcast is the simpler correct choice.
//!
//! The same connection carries the feed's nudges ([`keys::FEED_CHANNEL`]: a lane grew, so
//! the feed follower reads) and the revocations ([`keys::REVOKED_CHANNEL`]: open player-mode
//! feeds check their token again); after a reconnect both are assumed missed.
//!
//! Each follower's reads are serialised (one task at a time per follower, started when a
//! notification arrives and running while more come), so events go out once and in order.
//! A follower with no watcher left is dropped (and its channel unsubscribed) at the next
//! resync; one whose game ended is dropped after sending the game-over event.

use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use tokio::sync::broadcast;
use tokio_stream::StreamExt;

use crate::error::ServiceError;
use crate::game::{Event, GameId};
use crate::store::redis::failure::unavailable;
use crate::store::redis::hub::{
    self, CONNECT_TIMEOUT, FollowState, Follower, Hub, RECONNECT_PAUSE,
};
use crate::store::redis::keys;
use crate::store::redis::state::Inner;
use crate::store::store_error::StoreError;

/// How often every follower reads its tail even without a notification, and idle followers
/// are dropped.
pub(super) const RESYNC: Duration = Duration::from_secs(2);

impl Hub {
    /// A receiver of `id`'s events after the follower's last sent seq (which is at most the
    /// game's seq in Redis now).
    pub(super) async fn subscribe(
        &self,
        inner: &Arc<Inner>,
        id: GameId,
        limit: usize,
    ) -> Result<broadcast::Receiver<Arc<Event>>, ServiceError> {
        if let Some((_, rx)) = self.join(id, limit, None)? {
            return Ok(rx);
        }
        // A new follower: subscribe to the game's channel first, then read the game, so every
        // event after the read is announced.
        let mut sink = self.connected_sink().await.ok_or_else(|| {
            tracing::warn!(game_id = %id, "no pub/sub connection to redis");
            ServiceError::Store(StoreError::StoreUnavailable)
        })?;
        hub::answered(sink.subscribe(keys::channel(id)))
            .await
            .map_err(|e| unavailable(&e))?;
        let game = inner.fetch_confirmed(id).await?;
        let follower = Arc::new(Follower {
            tx: broadcast::channel(self.capacity).0,
            state: Mutex::new(FollowState {
                sent: game.record.last_seq(),
                sent_event: game.record.last_event(),
                game: Some(game),
                running: false,
                dirty: false,
            }),
        });
        let Some((follower, rx)) = self.join(id, limit, Some(follower))? else {
            return Err(ServiceError::Internal("follower vanished".into()));
        };
        // Whatever was appended between the subscription and the read.
        kick(&follower, inner, id);
        Ok(rx)
    }

    /// Reads every follower's tail again; drops those nobody watches any more.
    async fn resync(&self, inner: &Arc<Inner>) {
        let (idle, busy): (Vec<_>, Vec<_>) = {
            let mut followed = self.followed();
            let idle: Vec<GameId> = followed
                .iter()
                .filter(|(_, f)| f.tx.receiver_count() == 0)
                .map(|(id, _)| *id)
                .collect();
            for id in &idle {
                followed.remove(id);
            }
            let busy: Vec<(GameId, Arc<Follower>)> =
                followed.iter().map(|(id, f)| (*id, f.clone())).collect();
            (idle, busy)
        };
        for id in idle {
            self.unsubscribe(id).await;
        }
        for (id, follower) in busy {
            kick(&follower, inner, id);
        }
    }

    fn kick_game(&self, inner: &Arc<Inner>, id: GameId) {
        let follower = self.followed().get(&id).cloned();
        if let Some(follower) = follower {
            kick(&follower, inner, id);
        }
    }
}

/// Asks `follower` to read its stream's tail; starts its read task unless one runs.
fn kick(follower: &Arc<Follower>, inner: &Arc<Inner>, id: GameId) {
    {
        let mut state = follower.lock();
        state.dirty = true;
        if state.running {
            return;
        }
        state.running = true;
    }
    tokio::spawn(read(follower.clone(), inner.clone(), id));
}

/// A follower's read task: reads the tail and sends the new events until nothing new came.
async fn read(follower: Arc<Follower>, inner: Arc<Inner>, id: GameId) {
    loop {
        let cached = {
            let mut state = follower.lock();
            if !state.dirty {
                state.running = false;
                return;
            }
            state.dirty = false;
            state.game.take()
        };
        // Watchers are sent only what the replicas confirmed (`--redis-min-replicas`), so no
        // watcher ever sees a move a failover then loses.
        let result = match cached {
            Some(game) => inner.catch_up_confirmed(id, game).await,
            None => inner.fetch_confirmed(id).await,
        };
        let game = match result {
            Ok(game) => game,
            Err(ServiceError::Store(StoreError::GameNotFound { .. })) => {
                // Forgotten (retention) or lost with Redis's data: nothing more will come.
                follower.lock().running = false;
                inner.hub.drop_follower(id).await;
                return;
            }
            Err(_) => {
                // Redis is unreachable (logged): the next resync reads again.
                follower.lock().running = false;
                return;
            }
        };
        let (sent, sent_event) = {
            let state = follower.lock();
            (state.sent, state.sent_event)
        };
        if game.record.event(sent) != sent_event {
            // Redis went back in time (a failover lost events the watchers were sent): their
            // streams end, and each starts again from a snapshot of the game as it now is.
            tracing::warn!(game_id = %id, sent, "redis no longer holds the events watchers were sent: ending their streams");
            follower.lock().running = false;
            inner.hub.drop_follower(id).await;
            return;
        }
        let last = game.record.last_seq();
        let mut over = false;
        if last > sent {
            for event in game.record.replay_after(sent) {
                over |= event.kind.is_game_over();
                // An error means no watcher is left; the resync drops the follower.
                let _ = follower.tx.send(Arc::new(event));
            }
        }
        {
            let mut state = follower.lock();
            if last > state.sent {
                state.sent = last;
                state.sent_event = game.record.last_event();
            }
            state.game = Some(game);
        }
        if over {
            // Watchers still get everything sent; the game-over event ends their streams.
            follower.lock().running = false;
            inner.hub.drop_follower(id).await;
            return;
        }
    }
}

/// The pub/sub connection: subscribes every followed game, turns notifications into reads,
/// resyncs every [`RESYNC`], and reconnects when the connection drops. Holds the store weakly.
pub(super) async fn listen(inner: Weak<Inner>) {
    let mut tick = tokio::time::interval(RESYNC);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut attempt = 0usize;
    loop {
        let Some(dialer) = inner.upgrade().map(|i| i.hub.dialer.clone()) else {
            return;
        };
        let client = dialer.pubsub_client(attempt).await;
        attempt = attempt.wrapping_add(1);
        let connected = match client {
            Some(client) => tokio::time::timeout(CONNECT_TIMEOUT, client.get_async_pubsub())
                .await
                .ok(),
            None => None,
        };
        let Some(Ok(pubsub)) = connected else {
            // Redis is unreachable (the probe reports it); followers still resync, and fail.
            if let Some(strong) = inner.upgrade() {
                strong.hub.resync(&strong).await;
            }
            tokio::time::sleep(RECONNECT_PAUSE).await;
            continue;
        };
        let (mut sink, mut messages) = pubsub.split();
        let Some(strong) = inner.upgrade() else {
            return;
        };
        let ids: Vec<GameId> = strong.hub.followed().keys().copied().collect();
        // Held until the connection is the hub's, so that no consumer's change of the feed
        // channel goes to the old connection or is undone here.
        let mut listening = strong.feed_follow.listening.lock().await;
        let feed_wanted = strong.feed_follow.lock().tx.receiver_count() > 0;
        let mut channels = vec![keys::REVOKED_CHANNEL, keys::PRESENCE_CHANNEL];
        if feed_wanted {
            channels.push(keys::FEED_CHANNEL);
        }
        let mut subscribed = hub::answered(sink.subscribe(&channels[..])).await.is_ok();
        *listening = subscribed && feed_wanted;
        for id in ids {
            if !subscribed
                || hub::answered(sink.subscribe(keys::channel(id)))
                    .await
                    .is_err()
            {
                subscribed = false;
                break;
            }
        }
        if !subscribed {
            *listening = false;
            drop(listening);
            // Refused, not disconnected (an ACL without channel rights, say): pause rather
            // than reconnect in a tight loop.
            tracing::warn!("redis pub/sub: SUBSCRIBE failed, reconnecting");
            tokio::time::sleep(RECONNECT_PAUSE).await;
            continue;
        }
        *strong
            .hub
            .sink
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(sink);
        drop(listening);
        // Whatever was appended, or revoked, while the connection was down.
        strong.hub.resync(&strong).await;
        strong.feed_follow.nudge.notify_one();
        strong.revoked.send_modify(|n| *n += 1);
        drop(strong);
        tracing::info!("redis pub/sub connected");
        loop {
            tokio::select! {
                message = messages.next() => {
                    let Some(message) = message else { break };
                    let Some(strong) = inner.upgrade() else { return };
                    match message.get_channel_name() {
                        keys::FEED_CHANNEL => strong.feed_follow.nudge.notify_one(),
                        keys::REVOKED_CHANNEL => strong.revoked.send_modify(|n| *n += 1),
                        keys::PRESENCE_CHANNEL => {
                            let game = message.get_payload::<String>().ok().and_then(|g| g.parse().ok());
                            if let Some(id) = game.filter(|id| strong.presence.followed().contains(id)) {
                                tokio::spawn(async move { strong.refresh_presence(id).await });
                            }
                        }
                        name => {
                            if let Some(id) = keys::game_of_channel(name) {
                                strong.hub.kick_game(&strong, id);
                            }
                        }
                    }
                }
                _ = tick.tick() => {
                    let Some(strong) = inner.upgrade() else { return };
                    strong.hub.resync(&strong).await;
                }
            }
        }
        tracing::warn!("redis pub/sub connection lost; reconnecting");
        if let Some(strong) = inner.upgrade() {
            *strong
                .hub
                .sink
                .lock()
                .unwrap_or_else(PoisonError::into_inner) = None;
        }
    }
}
