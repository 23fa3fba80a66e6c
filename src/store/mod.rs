//! The game store: every game's state, its event log and its watchers, behind one trait per
//! concern ([`Games`], [`FeedStore`], [`TokenStore`], [`PresenceStore`]; [`GameStore`] is
//! their sum).
//!
//! Handlers only see [`GameStore`] and the domain's types (`game`: engine types inside, no
//! protobuf). Every store keeps `GameRecord` as its state machine (it is synchronous and knows
//! nothing of storage), persists what it returns, and feeds its own subscribers.
//!
//! Layout (each backend a folder of the same shape: the store type in `mod.rs`, one concern a
//! file beside it):
//! - `game_store`: the traits, the admission check, queries, pages and subscriptions.
//! - `config`: [`StoreConfig`] (which store, where, its limits). `error`: [`OpenError`].
//! - `store_error`: [`StoreError`], why a call failed. `stream_error`: [`StreamError`], why a
//!   stream ended early and where it resumes.
//! - `feed/`: the deployment-wide feed (WatchGames): cursors, entries, the in-memory log and
//!   the stored form of its events. `tokens`: the player tokens of the memory and SQLite
//!   stores. `presence`: the seats watching each game in this process (every store's; the
//!   Redis store adds the other replicas').
//! - `memory/`: [`MemoryStore`], sharded in-process maps, the flag timer, retention.
//! - `journal`: the ordered queue of changes a durable store commits before answering.
//! - `sqlite/`: [`SqliteStore`], the durable store: a [`MemoryStore`] (which serves) plus the
//!   SQLite journal that commits its changes, restart recovery and retention.
//! - `redis/`: [`RedisStore`], games in a Redis (or a Redis Cluster, `--redis-cluster`) shared
//!   by several replicas (`--redis`): event streams with compare-and-append, games sharded
//!   into buckets of one hash slot each, followers for watchers, swept flag deadlines.
//!
//! The server picks one backend at start-up and is generic over it from then on
//! (`server::run`): a call goes straight to the backend's method, with no dispatch of its own.
//! The service suite (`tests/service`) is the conformance suite every backend runs.

mod config;
mod error;
mod feed;
mod game_store;
mod journal;
mod memory;
mod presence;
mod redis;
mod sqlite;
pub(crate) mod store_error;
pub(crate) mod stream_error;
mod tokens;

pub use self::config::{
    Backend, FEED_LIVE_BUFFER, FEED_PAGE, MAX_LIST_SCAN, REMEMBERED_CREATIONS, RedisConfig,
    RedisTopology, ReplicaAck, StoreConfig, StoreLimits, SyncMode,
};
pub use self::error::OpenError;
pub use self::feed::{FeedCursor, FeedEntry, FeedSubscription, LanePos};
pub use self::game_store::{
    Admit, FeedStore, GameFilter, GamePage, GameStore, Games, ListQuery, PresenceStore,
    Subscription, TokenStore,
};
pub use self::memory::MemoryStore;
pub use self::presence::{Presence, PresenceGuard, PresenceWatch};
pub use self::redis::RedisStore;
pub use self::sqlite::{DB_FILE, SCHEMA_VERSION, SqliteOptions, SqliteStore, migrate_v1};
pub use self::store_error::StoreError;
pub use self::stream_error::StreamError;

/// Checks a `--redis` URL (for the command line).
pub fn check_redis_url(url: &str) -> Result<(), String> {
    self::redis::check_url(url)
}
