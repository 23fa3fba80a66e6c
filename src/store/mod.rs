//! The game store: every game's state, its event log and its watchers, behind one trait.
//!
//! Handlers only see [`GameStore`] and the domain's types (`game`: engine types inside, no
//! protobuf). Every store keeps `GameRecord` as its state machine (it is synchronous and knows
//! nothing of storage), persists what it returns, and feeds its own subscribers.
//!
//! Layout (each backend a folder of the same shape: the store type in `mod.rs`, one concern a
//! file beside it):
//! - `game_store`: the trait, its admission check, queries, pages and subscriptions.
//! - `config`: [`StoreConfig`] (which store, where, its limits). `error`: [`OpenError`].
//! - `feed/`: the deployment-wide feed (WatchGames): cursors, entries, the in-memory log and
//!   the stored form of its events. `tokens`: the player tokens of the memory and SQLite
//!   stores. `presence`: the seats watching each game in this process (every store's; the
//!   Redis store adds the other replicas').
//! - `memory/`: [`MemoryStore`], sharded in-process maps, the flag timer, retention.
//! - `journal`: the ordered queue of changes a durable store commits before answering.
//! - `sqlite/`: [`SqliteStore`], the durable store: [`MemoryStore`] with a SQLite journal,
//!   restart recovery and retention.
//! - `redis/`: [`RedisStore`], games in a Redis (or a Redis Cluster, `--redis-cluster`) shared
//!   by several replicas (`--redis`): event streams with compare-and-append, games sharded
//!   into buckets of one hash slot each, followers for watchers, swept flag deadlines.
//!
//! [`Store`] is the store the server runs, chosen at start-up ([`open`]).

mod config;
mod error;
mod feed;
mod game_store;
mod journal;
mod memory;
mod presence;
mod redis;
mod sqlite;
mod tokens;

use std::sync::Arc;

use chessd_rules::Color;
use tokio::sync::watch;

pub use self::config::{
    Backend, FEED_LIVE_BUFFER, FEED_PAGE, MAX_LIST_SCAN, REMEMBERED_CREATIONS, RedisConfig,
    RedisTopology, ReplicaAck, StoreConfig, StoreLimits, SyncMode,
};
pub use self::error::OpenError;
pub use self::feed::{FeedCursor, FeedEntry, FeedSubscription, LanePos};
pub use self::game_store::{Admit, GameFilter, GamePage, GameStore, ListQuery, Subscription};
pub use self::memory::MemoryStore;
pub use self::presence::{Presence, PresenceGuard, PresenceWatch};
pub use self::redis::RedisStore;
pub use self::sqlite::{DB_FILE, SCHEMA_VERSION, SqliteOptions, SqliteStore, migrate_v1};
use crate::error::ServiceError;
use crate::game::{
    Acted, Action, Created, GameId, GameView, Holder, IssuedToken, Labels, NewGame, PlayerId,
    PlayerToken, Revoke, Stats,
};

/// The store the server runs: in memory (the default), durable (`--data-dir`) or shared by
/// replicas (`--redis`).
#[derive(Debug)]
pub enum Store {
    Memory(MemoryStore),
    Sqlite(SqliteStore),
    Redis(RedisStore),
}

/// The store `config` asks for: durable when it names a data directory, shared when it names
/// a Redis. Blocking (a durable store reads every game back); call it inside the tokio runtime
/// at start-up.
pub fn open(config: &StoreConfig) -> Result<Store, OpenError> {
    let limits = config.limits;
    match &config.backend {
        Backend::Memory => Ok(Store::Memory(MemoryStore::new(limits))),
        Backend::Sqlite { dir, sync } => SqliteStore::open(&SqliteOptions {
            dir: dir.clone(),
            sync: *sync,
            limits,
        })
        .map(Store::Sqlite)
        .map_err(OpenError::Durable),
        Backend::Redis(redis) => RedisStore::open(redis, limits)
            .map(Store::Redis)
            .map_err(OpenError::Redis),
    }
}

/// Checks a `--redis` URL (for the command line).
pub fn check_redis_url(url: &str) -> Result<(), String> {
    self::redis::check_url(url)
}

impl Store {
    /// Whether the store can serve, as it changes; `None` for a store that is always ready
    /// (it lives in this process).
    #[must_use]
    pub fn readiness(&self) -> Option<tokio::sync::watch::Receiver<bool>> {
        match self {
            Store::Memory(_) | Store::Sqlite(_) => None,
            Store::Redis(s) => Some(s.readiness()),
        }
    }
}

impl GameStore for Store {
    async fn create(&self, new: NewGame) -> Result<Created, ServiceError> {
        match self {
            Store::Memory(s) => s.create(new).await,
            Store::Sqlite(s) => s.create(new).await,
            Store::Redis(s) => s.create(new).await,
        }
    }

    async fn get(&self, id: GameId) -> Result<GameView, ServiceError> {
        match self {
            Store::Memory(s) => s.get(id).await,
            Store::Sqlite(s) => s.get(id).await,
            Store::Redis(s) => s.get(id).await,
        }
    }

    async fn list(&self, query: ListQuery) -> Result<GamePage, ServiceError> {
        match self {
            Store::Memory(s) => s.list(query).await,
            Store::Sqlite(s) => s.list(query).await,
            Store::Redis(s) => s.list(query).await,
        }
    }

    async fn act<A: Admit>(
        &self,
        id: GameId,
        holder: Holder,
        action: Action,
        admit: A,
    ) -> Result<Acted, ServiceError> {
        match self {
            Store::Memory(s) => s.act(id, holder, action, admit).await,
            Store::Sqlite(s) => s.act(id, holder, action, admit).await,
            Store::Redis(s) => s.act(id, holder, action, admit).await,
        }
    }

    async fn seat(
        &self,
        id: GameId,
        holder: Holder,
    ) -> Result<(Color, Option<Color>), ServiceError> {
        match self {
            Store::Memory(s) => s.seat(id, holder).await,
            Store::Sqlite(s) => s.seat(id, holder).await,
            Store::Redis(s) => s.seat(id, holder).await,
        }
    }

    async fn watch(&self, id: GameId, after_seq: u64) -> Result<Subscription, ServiceError> {
        match self {
            Store::Memory(s) => s.watch(id, after_seq).await,
            Store::Sqlite(s) => s.watch(id, after_seq).await,
            Store::Redis(s) => s.watch(id, after_seq).await,
        }
    }

    async fn stats(&self, labels: &Labels) -> Result<Stats, ServiceError> {
        match self {
            Store::Memory(s) => s.stats(labels).await,
            Store::Sqlite(s) => s.stats(labels).await,
            Store::Redis(s) => s.stats(labels).await,
        }
    }

    async fn feed(
        &self,
        after: Option<FeedCursor>,
        player: Option<PlayerId>,
    ) -> Result<FeedSubscription, ServiceError> {
        match self {
            Store::Memory(s) => s.feed(after, player).await,
            Store::Sqlite(s) => s.feed(after, player).await,
            Store::Redis(s) => s.feed(after, player).await,
        }
    }

    async fn feed_page(
        &self,
        after: &FeedCursor,
        limit: usize,
    ) -> Result<Vec<Arc<FeedEntry>>, ServiceError> {
        match self {
            Store::Memory(s) => s.feed_page(after, limit).await,
            Store::Sqlite(s) => s.feed_page(after, limit).await,
            Store::Redis(s) => s.feed_page(after, limit).await,
        }
    }

    async fn issue_player_token(&self, player: PlayerId) -> Result<IssuedToken, ServiceError> {
        match self {
            Store::Memory(s) => s.issue_player_token(player).await,
            Store::Sqlite(s) => s.issue_player_token(player).await,
            Store::Redis(s) => s.issue_player_token(player).await,
        }
    }

    async fn revoke_player_tokens(&self, what: Revoke) -> Result<usize, ServiceError> {
        match self {
            Store::Memory(s) => s.revoke_player_tokens(what).await,
            Store::Sqlite(s) => s.revoke_player_tokens(what).await,
            Store::Redis(s) => s.revoke_player_tokens(what).await,
        }
    }

    async fn player_of(&self, token: PlayerToken) -> Result<PlayerId, ServiceError> {
        match self {
            Store::Memory(s) => s.player_of(token).await,
            Store::Sqlite(s) => s.player_of(token).await,
            Store::Redis(s) => s.player_of(token).await,
        }
    }

    fn revocations(&self) -> watch::Receiver<u64> {
        match self {
            Store::Memory(s) => s.revocations(),
            Store::Sqlite(s) => s.revocations(),
            Store::Redis(s) => s.revocations(),
        }
    }

    fn presence(&self) -> &Arc<Presence> {
        match self {
            Store::Memory(s) => s.presence(),
            Store::Sqlite(s) => s.presence(),
            Store::Redis(s) => s.presence(),
        }
    }

    async fn read_presence(
        &self,
        id: GameId,
    ) -> Result<chessd_rules::ByColor<crate::game::SeatPresence>, ServiceError> {
        match self {
            Store::Memory(s) => s.read_presence(id).await,
            Store::Sqlite(s) => s.read_presence(id).await,
            Store::Redis(s) => s.read_presence(id).await,
        }
    }
}
