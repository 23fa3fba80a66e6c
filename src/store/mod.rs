//! The game store: every game's state, its event log and its watchers, behind one trait.
//!
//! Handlers only see [`GameStore`] and the plain domain types below (engine types inside, no
//! protobuf), so a durable (SQLite) or distributed (Redis) store can be added beside
//! [`MemoryStore`] without touching them. Such a store would keep [`GameRecord`] as its state
//! machine (it is synchronous and knows nothing of storage), persist what it returns, and feed
//! its own subscribers.
//!
//! Layout:
//! - `mod.rs`: the trait and the types that cross it.
//! - `id`: [`GameId`], time-ordered ids.
//! - `clock`: [`Clock`], the Fischer clock.
//! - `events`: the compact per-game event log and its replay into [`Event`]s.
//! - `record`: [`GameRecord`], one game's rules of play: seats, moves, clocks, draw offers,
//!   idempotent retries, events.
//! - `memory`: [`MemoryStore`], sharded in-process maps, the flag timer, retention.
//! - `timer`: the deadline queue that ends games whose clock ran out with nobody calling.
//! - `journal`: the ordered queue of changes a durable store commits before answering.
//! - `sqlite`: [`SqliteStore`], the durable store: [`MemoryStore`] with a SQLite journal,
//!   restart recovery and retention.
//! - `redis`: [`RedisStore`], games in a Redis (or a Redis Cluster, `--redis-cluster`) shared
//!   by several replicas (`--redis`): event streams with compare-and-append, games sharded
//!   into buckets of one hash slot each, followers for watchers, swept flag deadlines.
//!
//! [`Store`] is the store the server runs, chosen at start-up ([`open`]).

mod clock;
mod events;
mod id;
mod journal;
mod memory;
mod record;
mod redis;
mod sqlite;
mod timer;

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use chessd_rules::{
    Color, DrawClaim, DrawRule, Game, Move, Outcome, Position, San, UciMove, Variant,
};
use tokio::sync::broadcast;

pub use self::redis::RedisStore;
pub use clock::Clock;
pub use events::Replay;
pub use id::{GAME_ID_LEN, GameId, ParseGameIdError};
pub use memory::{MemoryStore, StoreLimits};
pub use record::GameRecord;
pub use sqlite::{OpenError, SqliteOptions, SqliteStore};

use crate::config::ServerConfig;
use crate::error::ServiceError;
use crate::token::SeatToken;

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
pub fn open(config: &ServerConfig) -> Result<Store, OpenError> {
    match (&config.data_dir, &config.redis_url) {
        (Some(_), Some(_)) => Err(OpenError::Redis {
            cause: "--redis and --data-dir exclude each other: choose one store".into(),
        }),
        (None, Some(url)) => RedisStore::open(url, config.redis_cluster, config.limits)
            .map(Store::Redis)
            .map_err(|cause| OpenError::Redis { cause }),
        (None, None) => Ok(Store::Memory(MemoryStore::new(config.limits))),
        (Some(dir), None) => SqliteStore::open(&SqliteOptions {
            dir: dir.clone(),
            sync: config.sync,
            limits: config.limits,
        })
        .map(Store::Sqlite),
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

    async fn act(
        &self,
        id: GameId,
        token: SeatToken,
        action: Action,
    ) -> Result<Acted, ServiceError> {
        match self {
            Store::Memory(s) => s.act(id, token, action).await,
            Store::Sqlite(s) => s.act(id, token, action).await,
            Store::Redis(s) => s.act(id, token, action).await,
        }
    }

    async fn seat(
        &self,
        id: GameId,
        token: SeatToken,
    ) -> Result<(Color, Option<Color>), ServiceError> {
        match self {
            Store::Memory(s) => s.seat(id, token).await,
            Store::Sqlite(s) => s.seat(id, token).await,
            Store::Redis(s) => s.seat(id, token).await,
        }
    }

    async fn watch(&self, id: GameId, after_seq: u64) -> Result<Subscription, ServiceError> {
        match self {
            Store::Memory(s) => s.watch(id, after_seq).await,
            Store::Sqlite(s) => s.watch(id, after_seq).await,
            Store::Redis(s) => s.watch(id, after_seq).await,
        }
    }

    async fn stats(&self) -> Result<Stats, ServiceError> {
        match self {
            Store::Memory(s) => s.stats().await,
            Store::Sqlite(s) => s.stats().await,
            Store::Redis(s) => s.stats().await,
        }
    }
}

/// Games, their moves and their events.
///
/// Every method is `async` so stores that do I/O fit; the in-memory store never awaits while
/// it holds a lock.
pub trait GameStore: Send + Sync + 'static {
    /// Starts a game (or returns the one an earlier request with the same request id made).
    fn create(&self, new: NewGame) -> impl Future<Output = Result<Created, ServiceError>> + Send;

    /// The game as it is now.
    fn get(&self, id: GameId) -> impl Future<Output = Result<GameView, ServiceError>> + Send;

    /// A page of game summaries, newest first.
    fn list(&self, query: ListQuery)
    -> impl Future<Output = Result<GamePage, ServiceError>> + Send;

    /// Performs a seat's action; the token decides the seat.
    fn act(
        &self,
        id: GameId,
        token: SeatToken,
        action: Action,
    ) -> impl Future<Output = Result<Acted, ServiceError>> + Send;

    /// The seat `token` holds in a game, and the side to move (`None` once the game is over):
    /// for the move floor of the rate limits and for `--private-watch`. Changes nothing.
    fn seat(
        &self,
        id: GameId,
        token: SeatToken,
    ) -> impl Future<Output = Result<(Color, Option<Color>), ServiceError>> + Send;

    /// The events after `after_seq` (a snapshot first when it is 0), then live ones.
    fn watch(
        &self,
        id: GameId,
        after_seq: u64,
    ) -> impl Future<Output = Result<Subscription, ServiceError>> + Send;

    /// Result counts per variant.
    fn stats(&self) -> impl Future<Output = Result<Stats, ServiceError>> + Send;
}

/// A Fischer time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    pub initial: Duration,
    pub increment: Duration,
}

/// The players' display names or ids, as given at creation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Players {
    pub white: String,
    pub black: String,
}

/// A client's idempotency key: 1 to 128 printable ASCII characters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RequestId(String);

impl RequestId {
    /// The longest request id accepted.
    pub const MAX_LEN: usize = 128;

    /// Validates a request id; `None` for the empty string (no id).
    pub fn parse(text: &str) -> Result<Option<RequestId>, ServiceError> {
        if text.is_empty() {
            return Ok(None);
        }
        if text.len() > RequestId::MAX_LEN || !text.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(ServiceError::InvalidField {
                field: "request_id",
                message: format!(
                    "expected 1 to {} printable ascii characters",
                    RequestId::MAX_LEN
                ),
            });
        }
        Ok(Some(RequestId(text.to_owned())))
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What CreateGame asks for, validated.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The start position (not already decided).
    pub start: Position,
    pub time_control: Option<TimeControl>,
    pub players: Players,
    pub draw_rule: DrawRule,
    pub request_id: Option<RequestId>,
}

/// A new game and its two secrets.
#[derive(Clone, Debug)]
pub struct Created {
    pub view: GameView,
    pub white_token: SeatToken,
    pub black_token: SeatToken,
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum GameStatus {
    Ongoing = 0,
    /// Ended with a result.
    Finished = 1,
    /// Called off before both sides moved.
    Aborted = 2,
}

impl GameStatus {
    /// The status of a game with this outcome so far.
    #[must_use]
    pub fn of(outcome: Option<Outcome>) -> GameStatus {
        match outcome {
            None => GameStatus::Ongoing,
            Some(o) if o.termination == chessd_rules::Termination::Aborted => GameStatus::Aborted,
            Some(_) => GameStatus::Finished,
        }
    }
}

/// Clocks as read at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockReading {
    /// Time left per side, indexed by `Color::index`.
    pub remaining: [Duration; 2],
    /// The side whose clock runs.
    pub running: Option<Color>,
    /// The server time of the reading.
    pub read_at: SystemTime,
}

/// A game's full state, copied out of the store (rendering it needs no lock).
#[derive(Clone, Debug)]
pub struct GameView {
    pub id: GameId,
    pub players: Players,
    /// Start, moves, current position, outcome and draw rule.
    /// Shared with the store's record (see `GameRecord`), so a view costs no copy of the moves.
    pub game: Arc<Game>,
    pub time_control: Option<TimeControl>,
    pub clocks: Option<ClockReading>,
    /// The side whose draw offer stands.
    pub draw_offer: Option<Color>,
    /// The seq of the game's latest event.
    pub last_seq: u64,
    pub created_at: SystemTime,
}

impl GameView {
    #[must_use]
    pub fn status(&self) -> GameStatus {
        GameStatus::of(self.game.outcome())
    }
}

/// A game as a list shows it.
#[derive(Clone, Debug)]
pub struct GameSummary {
    pub id: GameId,
    pub variant: Variant,
    pub players: Players,
    pub outcome: Option<Outcome>,
    pub ply: u32,
    pub position: Position,
    pub created_at: SystemTime,
}

/// A move the text of a SubmitMove names, parsed but not yet matched against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveText {
    Uci(UciMove),
    San(San),
}

/// A seat's action on a game.
#[derive(Clone, Debug)]
pub enum Action {
    Move {
        text: MoveText,
        expected_ply: Option<u32>,
        request_id: Option<RequestId>,
        offer_draw: bool,
    },
    Resign,
    OfferDraw,
    RespondToDraw {
        accept: bool,
    },
    ClaimDraw(DrawClaim),
    Abort,
}

/// A move as the game recorded it, with the seq of the event that announced it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveInfo {
    pub mv: Move,
    /// SAN with its check or mate suffix.
    pub san: String,
    /// 1 for the first move of the game.
    pub ply: u32,
    pub color: Color,
    pub seq: u64,
}

/// The answer to an action: the move it played, if any, and the game after it.
#[derive(Clone, Debug)]
pub struct Acted {
    pub played: Option<MoveInfo>,
    pub view: GameView,
}

/// What a list shows.
#[derive(Clone, Debug, Default)]
pub struct GameFilter {
    pub status: Option<GameStatus>,
    pub variant: Option<Variant>,
    /// An exact name playing either side.
    pub player: Option<String>,
}

/// A ListGames request, validated.
#[derive(Clone, Debug)]
pub struct ListQuery {
    /// 1 or more (the service caps it).
    pub page_size: usize,
    /// Only games older than this one (from the previous page's token).
    pub before: Option<GameId>,
    pub filter: GameFilter,
}

/// One page of a list.
#[derive(Clone, Debug)]
pub struct GamePage {
    pub games: Vec<GameSummary>,
    /// The cursor for the next page; `None` on the last one.
    pub next: Option<GameId>,
}

/// Result counts for one variant; aborted games are not counted (they have no result).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantStats {
    pub variant: Variant,
    pub white_wins: u64,
    pub black_wins: u64,
    pub draws: u64,
}

impl VariantStats {
    #[must_use]
    pub fn finished(&self) -> u64 {
        self.white_wins + self.black_wins + self.draws
    }
}

/// Result counts for every variant, chess first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    pub variants: Vec<VariantStats>,
}

/// Something that happened in a game, numbered by `seq` (1, 2, 3, ... per game).
#[derive(Clone, Debug)]
pub struct Event {
    pub seq: u64,
    /// When it happened (for a snapshot: when it was taken).
    pub at: SystemTime,
    pub kind: EventKind,
}

/// What happened.
#[derive(Clone, Debug)]
pub enum EventKind {
    /// The whole game as of `seq` (the first event of a watch from seq 0).
    Snapshot(Box<GameView>),
    MovePlayed {
        played: MoveInfo,
        /// The position after the move.
        position: Position,
        /// The clocks right after the move, increment included.
        clocks: Option<ClockReading>,
        /// The side whose draw offer stands after the move.
        draw_offer: Option<Color>,
    },
    DrawOffered {
        by: Color,
    },
    DrawDeclined {
        by: Color,
    },
    /// The last event of a game.
    GameOver {
        outcome: Outcome,
        position: Position,
    },
}

impl EventKind {
    #[must_use]
    pub fn is_game_over(&self) -> bool {
        matches!(self, EventKind::GameOver { .. })
    }
}

/// A watcher's view of a game: the catch-up events, then the live ones.
///
/// The replay covers every event up to the moment of subscription and the live receiver every
/// event after it: the store takes both under the game's lock, so there is no gap and no
/// duplicate between them.
pub struct Subscription {
    /// The events after the requested seq (a snapshot first from seq 0), made lazily.
    pub replay: Replay,
    /// Live events; `None` when the game is already over (the replay then ends the stream).
    /// The channel is bounded: a receiver that falls more than its capacity behind gets
    /// `Lagged`, which the stream turns into a cut-off that says where to resume.
    pub live: Option<broadcast::Receiver<Arc<Event>>>,
    /// The seq the stream starts after.
    pub after_seq: u64,
}
