//! What a store is opened with: which store and where ([`Backend`]), and the limits every store
//! enforces ([`StoreLimits`]), plus the bounds all stores share.

use std::path::PathBuf;
use std::time::Duration;

/// Most games ListGames examines for one page, so a filter that matches rarely cannot make one
/// request walk every game; the page then ends early with a token to continue.
pub const MAX_LIST_SCAN: usize = 16_384;

/// CreateGame requests whose answer (tokens included) a process remembers for retries, the
/// oldest forgotten first. The tokens live only in that process's memory.
pub const REMEMBERED_CREATIONS: usize = 16_384;

/// A store's configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreConfig {
    pub backend: Backend,
    pub limits: StoreLimits,
}

/// Where games are kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// In this process's memory only (the default).
    #[default]
    Memory,
    /// In memory, every change committed to SQLite in `dir` first (`--data-dir`).
    Sqlite { dir: PathBuf, sync: SyncMode },
    /// In a Redis shared by replicas (`--redis`): one server, a Redis Cluster, or a primary
    /// that Sentinels name.
    Redis(RedisConfig),
}

/// Where the Redis store's Redis is, and what it waits for before it acknowledges a change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RedisConfig {
    /// One URL; with [`RedisTopology::Cluster`] the seed nodes, with
    /// [`RedisTopology::Sentinel`] the Sentinels, comma-separated.
    pub url: String,
    pub topology: RedisTopology,
    /// Replicas that must hold a change before it is acknowledged (`--redis-min-replicas`);
    /// `None`: acknowledged once the primary has it.
    pub ack: Option<ReplicaAck>,
}

impl RedisConfig {
    /// One Redis at `url`, acknowledging what its primary holds.
    #[must_use]
    pub fn single(url: String) -> RedisConfig {
        RedisConfig {
            url,
            topology: RedisTopology::Single,
            ack: None,
        }
    }

    /// The Redis Cluster whose seed nodes `urls` lists, comma-separated.
    #[must_use]
    pub fn cluster(urls: String) -> RedisConfig {
        RedisConfig {
            url: urls,
            topology: RedisTopology::Cluster,
            ack: None,
        }
    }
}

/// How the store finds its primary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum RedisTopology {
    /// The URL is the primary (or the only server).
    #[default]
    Single,
    /// The URLs are seed nodes of a Redis Cluster (`--redis-cluster`).
    Cluster,
    /// The URLs are Sentinels, asked for the primary of the set named `master`
    /// (`--redis-sentinel`), again after every failover.
    Sentinel { master: String },
}

/// A change is acknowledged only once `replicas` replicas of its primary confirm they hold it
/// (`WAIT`; with `fsync`, `WAITAOF`: on their disks), within `timeout`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplicaAck {
    pub replicas: u32,
    pub timeout: Duration,
    pub fsync: bool,
}

/// How hard the durable store pushes each commit to the disk (`--sync`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum SyncMode {
    /// Flush the write-ahead log at every commit: acknowledged moves survive a process crash
    /// and a power loss.
    #[default]
    Full,
    /// Flush at checkpoints only: acknowledged moves survive a process crash, not a crash of
    /// the machine.
    Normal,
}

/// The limits a store enforces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoreLimits {
    /// Ongoing games at once; CreateGame beyond it fails with RESOURCE_EXHAUSTED.
    pub max_live_games: usize,
    /// Finished and aborted games kept for GetGame, ListGames and ExportPgn; the oldest is
    /// forgotten beyond it.
    pub max_finished_games: usize,
    /// Open WatchGame streams per game.
    pub max_watchers_per_game: usize,
    /// Events buffered per game for its watchers; a watcher this far behind is cut off.
    pub watch_buffer: usize,
    /// How long a finished game is kept after it ended; `None`: until the count limit.
    pub retention: Option<Duration>,
    /// An ongoing game with no move for this long is abandoned (aborted before both sides
    /// moved, else lost by the side to move); `None`: never.
    pub abandon_after: Option<Duration>,
    /// How long the feed (WatchGames) keeps an event: a cursor older than that is refused.
    pub feed_retention: Duration,
    /// Feed events kept at most (the oldest are forgotten first), whatever their age.
    pub feed_max_events: usize,
}

/// Feed entries a consumer reads from the log per round while it catches up.
pub const FEED_PAGE: usize = 256;

/// New feed entries buffered for the consumers that follow live; one further behind reads the
/// log instead (it is not cut off for that: the log, not a per-consumer buffer, holds what it
/// has not read).
pub const FEED_LIVE_BUFFER: usize = 1024;
