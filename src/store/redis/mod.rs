//! `RedisStore`: games kept in one Redis, or one Redis Cluster, shared by several chessd
//! replicas behind a load balancer (`chessd serve --redis redis://HOST:PORT/`, or
//! `--redis-cluster --redis URL,URL,...`; see `conn`). Any replica serves any game.
//!
//! - **Layout** (see `codec`): per game a hash (what never changes, seat-token digests, the
//!   last seq and a summary for lists) and a stream (one entry per event, id `<seq>-0`). Games
//!   are sharded into [`keys::BUCKETS`] buckets by their id's random bits; each bucket has its
//!   own game list, flag deadlines, finished games, live count and result counts, and all of a
//!   bucket's keys (its games' too) share one hash tag, so a script call on a Cluster
//!   touches one slot (a batch of appends is split by bucket there). Readers that span buckets (ListGames, GetStats, the sweeps) go bucket by bucket.
//! - **Acting** (see `act`, `scripts`): a replica applies the action to its copy of the game
//!   with the same `GameRecord` logic as the memory store, then appends the new events with
//!   a compare-and-append on the seq it played from, in one script call with the other games'
//!   appends that leave at the same time (see `batch`). The seat to move acts on the
//!   cached copy unread, so a move on a current copy is one round trip; any other action, or
//!   a refusal found on an unread copy, first brings the copy up to date with the stream's new
//!   entries. Two replicas racing on one game cannot both append: the loser reads the game
//!   again and applies again, which answers as the
//!   memory store would (a stale `expected_ply` gets PLY_MISMATCH, the side no longer to move
//!   NOT_YOUR_TURN, a retried request id its first answer).
//! - **Watching** (see `follow`): one follower per watched game per replica reads the stream
//!   and feeds a bounded local broadcast channel shared by that replica's watchers.
//! - **Feed** (see `feed`, `feed_follow`): one lane per bucket, a stream the scripts append
//!   to in the same step as the change; a cursor holds a position per lane. Labels are indexed
//!   per bucket (`keys::label_key`), a player's running games too (`keys::player_games_key`).
//! - **Player tokens** (see `tokens`): digests under the token's id, revocations announced to
//!   every replica.
//! - **Presence** (see `presence`): each replica's leases on the seats it holds streams of,
//!   renewed while they last, announced to every replica.
//! - **Clocks and abandonment** (see `sweep`): deadlines (the flag, or `--abandon-after` since
//!   the last move, whichever is earlier) live in a sorted set that every replica sweeps; the
//!   compare-and-append is the claim, so exactly one replica ends a game on time, even when the
//!   replica that saw its last move is gone. Abandonment counts from the last move's wall time
//!   in the stream, not from when a replica read the game.
//! - **Outage**: a Redis error is UNAVAILABLE (`STORE_UNAVAILABLE`) for the call, its cause is
//!   logged; a probe sets the store's readiness, which drives the health service. The
//!   connection manager reconnects by itself. A change is one script: all of it or nothing.
//!
//! Caching: a replica keeps recently used games (bounded) so a call costs at most one XRANGE
//! of the stream's tail plus the script, and events other replicas appended are played onto
//! the cached record (`GameRecord::catch_up`, see `cache`) rather than replaying the whole game.
//! An entry is taken out of the cache while a call uses it (the cache's std mutex is held
//! only to take or put back), so no lock is held across an `.await` and two calls never share
//! a record; a call that finds no entry loads the game.
//!
//! Clocks across replicas: a game's clock is rebuilt from the last event's clock reading and
//! the wall time since that event, so replicas' wall clocks must agree (NTP) to well under
//! the precision clients expect.

//!
//! Files: `state` (the replica's shared state and error reporting), `cache` (loading and
//! catching up), `act` (actions, the compare-and-append, ending overdue games), `batch`
//! (appends of many games per script call), `create`,
//! `list` (ListGames and GetStats across buckets), `keys` (buckets and key names), `codec`
//! (what the keys hold), `conn` (URLs and the connection), `hub` and `follow` (watchers),
//! `feed`, `feed_hub` and `feed_follow` (the feed), `tokens` (player tokens), `presence` (seats'
//! leases), `cached` (a cached game),
//! `scripts` (Lua), `call` (a script call written as one command), `sweep` (probe, flags, trimming).

mod ack;
mod act;
mod batch;
mod cache;
mod cached;
mod call;
mod codec;
mod conn;
mod create;
mod failure;
mod feed;
mod feed_follow;
mod feed_hub;
mod follow;
mod hub;
mod keys;
mod list;
mod presence;
mod scripts;
mod sentinel;
mod state;
mod stream;
mod sweep;
mod tokens;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use chessd_rules::Color;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use self::ack::Acks;
use self::batch::Batches;
use self::conn::{Conn, Dialer, RESPONSE_TIMEOUT, Target, redact};
use self::feed_hub::FeedFollow;
use self::hub::Hub;
use self::state::Inner;
use crate::error::ServiceError;
use crate::game::{
    Acted, Action, Created, GameId, GameView, Holder, IssuedToken, Labels, NewGame, PlayerId,
    PlayerToken, Replay, Revoke, Stats,
};
use crate::store::config::{FEED_LIVE_BUFFER, RedisConfig, StoreLimits};
use crate::store::feed::cursor::FeedCursor;
use crate::store::feed::subscription::{FeedEntry, FeedSubscription};
use crate::store::game_store::{
    Admit, FeedStore, GamePage, Games, ListQuery, PresenceStore, Subscription, TokenStore,
};
use crate::store::presence::Presence;
use crate::store::stream_error::StreamError;

/// Checks that `text` is a Redis URL this build can use, or several comma-separated (a
/// cluster's seeds; whether several are allowed depends on `--redis-cluster`, checked at open).
pub(super) fn check_url(text: &str) -> Result<(), String> {
    Target::parse(text, true).map(|_| ())
}

/// Games in Redis, shared with the other replicas; background tasks stop when it is dropped.
#[derive(Debug)]
pub struct RedisStore {
    inner: Arc<Inner>,
    tasks: Vec<JoinHandle<()>>,
    ready: watch::Receiver<bool>,
}

impl RedisStore {
    /// A store on the Redis at `url`. Connects lazily: the server starts (not ready) even when
    /// Redis is down, and becomes ready once a probe gets through. Spawns the probe, the
    /// follower hub and the flag sweep on the current tokio runtime.
    ///
    /// `config.url` is one Redis URL, or the comma-separated seed nodes of a Redis Cluster, or
    /// the Sentinels of a primary.
    pub fn open(config: &RedisConfig, limits: StoreLimits) -> Result<RedisStore, String> {
        let target = Target::of(&config.url, config.topology.clone())?;
        let dialer = Dialer::new(&target)?;
        let conn = Conn::open(&dialer, RESPONSE_TIMEOUT)?;
        let acks = config
            .ack
            .map(|need| Acks::open(&dialer, need).map(Arc::new))
            .transpose()?;
        let batches = Batches::new(conn.clone(), acks.clone());
        let (ready_tx, ready) = watch::channel(false);
        let presence = Presence::new();
        let (presence_tx, presence_rx) = tokio::sync::mpsc::channel(presence::CHANGES_QUEUED);
        presence.forward_to(presence_tx);
        let replica = format!(
            "{:016x}",
            getrandom::u64().map_err(|e| format!("no randomness: {e}"))?
        );
        let inner = Arc::new(Inner {
            conn,
            limits,
            cache: std::sync::Mutex::default(),
            creations: std::sync::Mutex::default(),
            acks,
            batches,
            hub: Hub::new(dialer, limits.watch_buffer.max(1)),
            feed_follow: FeedFollow::new(FEED_LIVE_BUFFER),
            revoked: watch::channel(0).0,
            ready: ready_tx,
            old_layout: AtomicBool::new(false),
            presence,
            replica,
        });
        let tasks = vec![
            tokio::spawn(sweep::probe(Arc::downgrade(&inner))),
            tokio::spawn(follow::listen(Arc::downgrade(&inner))),
            tokio::spawn(sweep::flags(Arc::downgrade(&inner))),
            tokio::spawn(sweep::finished(Arc::downgrade(&inner))),
            tokio::spawn(feed_follow::follow(Arc::downgrade(&inner))),
            tokio::spawn(presence::run(Arc::downgrade(&inner), presence_rx)),
        ];
        tracing::info!(
            url = %redact(&config.url),
            topology = ?config.topology,
            min_replicas = config.ack.map_or(0, |a| a.replicas),
            "redis store open"
        );
        Ok(RedisStore {
            inner,
            tasks,
            ready,
        })
    }

    /// Whether Redis answers: `true` while it does; changes as probes succeed or fail.
    #[must_use]
    pub fn readiness(&self) -> watch::Receiver<bool> {
        self.ready.clone()
    }
}

impl Drop for RedisStore {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
        self.inner.hub.stop();
    }
}

impl Games for RedisStore {
    async fn create(&self, new: NewGame) -> Result<Created, ServiceError> {
        self.inner.usable()?;
        self.inner.create(new).await
    }

    async fn get(&self, id: GameId) -> Result<GameView, ServiceError> {
        self.inner.usable()?;
        let (game, now) = self.inner.settled(id).await?;
        let view = game.record.view(&game.meta.header, now);
        self.inner.put_back(id, game);
        Ok(view)
    }

    async fn list(&self, query: ListQuery) -> Result<GamePage, ServiceError> {
        self.inner.usable()?;
        self.inner.list(query).await
    }

    async fn seat(
        &self,
        id: GameId,
        holder: Holder,
    ) -> Result<(Color, Option<Color>), ServiceError> {
        self.inner.usable()?;
        let game = self.inner.load(id).await?;
        let seat = holder.seat_in(game.record.seats(), &game.meta.header.players);
        let turn = game.record.turn();
        self.inner.put_back(id, game);
        Ok((seat?, turn))
    }

    async fn act<A: Admit>(
        &self,
        id: GameId,
        holder: Holder,
        action: Action,
        admit: A,
    ) -> Result<Acted, ServiceError> {
        self.inner.usable()?;
        self.inner.act(id, holder, action, admit).await
    }

    async fn watch(&self, id: GameId, after_seq: u64) -> Result<Subscription, ServiceError> {
        self.inner.usable()?;
        let inner = &self.inner;
        let game = inner.load(id).await?;
        let ongoing = !game.record.is_over();
        inner.put_back(id, game);
        // Live events are subscribed to before the replay is read: the replay then reaches at
        // least as far as the follower had sent, and the stream skips what it already sent, so
        // there is neither a gap nor a duplicate.
        let live = if ongoing {
            Some(
                inner
                    .hub
                    .subscribe(inner, id, inner.limits.max_watchers_per_game)
                    .await?,
            )
        } else {
            None
        };
        let (game, now) = inner.settled_confirmed(id).await?;
        let last_seq = game.record.last_seq();
        if after_seq > last_seq {
            inner.put_back(id, game);
            return Err(StreamError::SeqOutOfRange {
                after_seq,
                last_seq,
            }
            .into());
        }
        let replay = if after_seq == 0 {
            Replay::snapshot(game.record.view(&game.meta.header, now), now.wall)
        } else {
            game.record.replay_after(after_seq)
        };
        let live = if game.record.is_over() { None } else { live };
        inner.put_back(id, game);
        Ok(Subscription {
            replay,
            live,
            after_seq,
        })
    }

    async fn stats(&self, labels: &Labels) -> Result<Stats, ServiceError> {
        self.inner.usable()?;
        self.inner.stats(labels).await
    }
}

impl FeedStore for RedisStore {
    async fn feed(
        &self,
        after: Option<FeedCursor>,
        player: Option<PlayerId>,
    ) -> Result<FeedSubscription, ServiceError> {
        self.inner.usable()?;
        self.inner.feed(after, player).await
    }

    async fn feed_page(
        &self,
        after: &FeedCursor,
        limit: usize,
    ) -> Result<Vec<Arc<FeedEntry>>, ServiceError> {
        self.inner.usable()?;
        self.inner.feed_page(after, limit).await
    }
}

impl TokenStore for RedisStore {
    async fn issue_player_token(&self, player: PlayerId) -> Result<IssuedToken, ServiceError> {
        self.inner.usable()?;
        self.inner.issue_player_token(player).await
    }

    async fn revoke_player_tokens(&self, what: Revoke) -> Result<usize, ServiceError> {
        self.inner.usable()?;
        self.inner.revoke_player_tokens(what).await
    }

    async fn player_of(&self, token: PlayerToken) -> Result<PlayerId, ServiceError> {
        self.inner.usable()?;
        self.inner.player_of(token).await
    }

    fn revocations(&self) -> watch::Receiver<u64> {
        self.inner.revoked.subscribe()
    }
}

impl PresenceStore for RedisStore {
    fn presence(&self) -> &Arc<Presence> {
        &self.inner.presence
    }

    async fn read_presence(
        &self,
        id: GameId,
    ) -> Result<chessd_rules::ByColor<crate::game::SeatPresence>, ServiceError> {
        self.inner.usable()?;
        self.inner.read_presence(id).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Passwords stay out of the log.
    #[test]
    fn urls_are_redacted() {
        assert_eq!(
            redact("redis://user:secret@db:6379/0"),
            "redis://***@db:6379/0"
        );
        assert_eq!(redact("redis://db:6379/"), "redis://db:6379/");
        assert_eq!(
            redact("redis://:one@a:7000/,redis://:two@b:7001/"),
            "redis://***@a:7000/,redis://***@b:7001/"
        );
        assert_eq!(
            redact("unix:///run/redis.sock?db=2&pass=secret"),
            "unix:///run/redis.sock?***"
        );
    }

    /// Passwords stay out of the start-up errors too (they go to stderr and logs).
    #[test]
    fn url_errors_are_redacted() {
        let Err(several) = Target::parse("redis://:hunter2@a:7000/,redis://b:7001/", false) else {
            panic!("several urls without --redis-cluster must be refused");
        };
        assert!(several.contains("--redis-cluster"), "{several}");
        assert!(!several.contains("hunter2"), "{several}");
        let Err(bad) = Target::parse("rediss+nonsense://:hunter2@a:7000/", false) else {
            panic!("an unknown scheme must be refused");
        };
        assert!(bad.contains("invalid redis url"), "{bad}");
        assert!(!bad.contains("hunter2"), "{bad}");
    }
}
