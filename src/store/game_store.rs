//! The contract every store keeps: the [`GameStore`] trait and the types that cross it besides
//! the domain's (queries, pages, subscriptions).

use std::future::Future;
use std::sync::Arc;

use chessd_rules::{Color, Variant};
use tokio::sync::broadcast;

use crate::error::ServiceError;
use crate::game::{
    Acted, Action, Created, Event, GameId, GameStatus, GameSummary, GameView, NewGame, Players,
    Replay, SeatToken, Stats,
};

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

    /// Performs a seat's action; the token decides the seat. `admit` is asked first, once,
    /// with the seat and the side to move (`None` once the game is over), where the game
    /// already is (under its lock, after its load): a move costs one seat check, and the
    /// caller's rate limits can tell a move on the seat's own turn from any other.
    fn act<A: Admit>(
        &self,
        id: GameId,
        token: SeatToken,
        action: Action,
        admit: A,
    ) -> impl Future<Output = Result<Acted, ServiceError>> + Send;

    /// The seat `token` holds in a game, and the side to move (`None` once the game is over):
    /// for `--private-watch`. Changes nothing.
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

/// An action's admission check (see [`GameStore::act`]): the seat the token holds and the
/// side to move, or a refusal.
pub trait Admit: FnOnce(Color, Option<Color>) -> Result<(), ServiceError> + Send {}

impl<F: FnOnce(Color, Option<Color>) -> Result<(), ServiceError> + Send> Admit for F {}

/// What a list shows.
#[derive(Clone, Debug, Default)]
pub struct GameFilter {
    pub status: Option<GameStatus>,
    pub variant: Option<Variant>,
    /// An exact name playing either side.
    pub player: Option<String>,
}

impl GameFilter {
    /// Whether a game of `variant`, `status` and `players` is shown. Every store filters with
    /// this one test, so lists agree whatever the store.
    #[must_use]
    pub fn matches(&self, variant: Variant, status: GameStatus, players: &Players) -> bool {
        self.status.is_none_or(|s| s == status)
            && self.variant.is_none_or(|v| v == variant)
            && self
                .player
                .as_deref()
                .is_none_or(|p| p == players.white || p == players.black)
    }
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
