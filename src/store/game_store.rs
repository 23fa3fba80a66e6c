//! The contract every store keeps, one trait per concern ([`Games`], [`FeedStore`],
//! [`TokenStore`], [`PresenceStore`]) and [`GameStore`], their sum, which the API is generic
//! over; and the types that cross them besides the domain's (queries, pages, subscriptions).

use std::future::Future;
use std::sync::Arc;

use chessd_rules::{ByColor, Color, any::AnyVariant};
use tokio::sync::{broadcast, watch};

use crate::error::ServiceError;
use crate::game::{
    Acted, Action, Created, Event, GameId, GameStatus, GameSummary, GameView, Holder, IssuedToken,
    Labels, NewGame, PlayerId, PlayerToken, Players, Replay, Revoke, SeatPresence, Stats,
};
use crate::store::feed::cursor::FeedCursor;
use crate::store::feed::subscription::{FeedEntry, FeedSubscription};
use crate::store::presence::Presence;

/// Games, their moves and their events: the one concern every call on a game goes through.
///
/// Every method is `async` so stores that do I/O fit; the in-memory store never awaits while
/// it holds a lock.
pub trait Games: Send + Sync + 'static {
    /// Starts a game (or returns the one an earlier request with the same request id made).
    fn create(&self, new: NewGame) -> impl Future<Output = Result<Created, ServiceError>> + Send;

    /// The game as it is now.
    fn get(&self, id: GameId) -> impl Future<Output = Result<GameView, ServiceError>> + Send;

    /// A page of game summaries, newest first.
    fn list(&self, query: ListQuery)
    -> impl Future<Output = Result<GamePage, ServiceError>> + Send;

    /// Performs a seat's action; the holder (a seat token, or a player bound to a seat)
    /// decides the seat (see `Holder::seat_in`). `admit` is asked first, once,
    /// with the seat and the side to move (`None` once the game is over), where the game
    /// already is (under its lock, after its load): a move costs one seat check, and the
    /// caller's rate limits can tell a move on the seat's own turn from any other.
    fn act<A: Admit>(
        &self,
        id: GameId,
        holder: Holder,
        action: Action,
        admit: A,
    ) -> impl Future<Output = Result<Acted, ServiceError>> + Send;

    /// The seat `holder` holds in a game, and the side to move (`None` once the game is over):
    /// for `--private-watch` and GetGame's seat. Changes nothing.
    fn seat(
        &self,
        id: GameId,
        holder: Holder,
    ) -> impl Future<Output = Result<(Color, Option<Color>), ServiceError>> + Send;

    /// The events after `after_seq` (a snapshot first when it is 0), then live ones.
    fn watch(
        &self,
        id: GameId,
        after_seq: u64,
    ) -> impl Future<Output = Result<Subscription, ServiceError>> + Send;

    /// Result counts per variant: of every game since the store began, or, with labels, of
    /// the finished games still kept that carry them all.
    fn stats(&self, labels: &Labels) -> impl Future<Output = Result<Stats, ServiceError>> + Send;
}

/// The deployment-wide feed (WatchGames): every creation, move and end, in one order.
pub trait FeedStore: Send + Sync + 'static {
    /// A feed consumer's start: after `after` (CURSOR_OUT_OF_RANGE when the feed no longer
    /// holds what follows it), or live from now; a live start for `player` also gets the
    /// creations of its running games.
    fn feed(
        &self,
        after: Option<FeedCursor>,
        player: Option<PlayerId>,
    ) -> impl Future<Output = Result<FeedSubscription, ServiceError>> + Send;

    /// Up to about `limit` feed entries after `after`, in the feed's order; none once the
    /// cursor is at the end. Lanes are merged by position, so a page may hold somewhat more.
    fn feed_page(
        &self,
        after: &FeedCursor,
        limit: usize,
    ) -> impl Future<Output = Result<Vec<Arc<FeedEntry>>, ServiceError>> + Send;
}

/// Player tokens: issued, checked and revoked.
pub trait TokenStore: Send + Sync + 'static {
    /// A new player token for `player` (stored as a digest only).
    fn issue_player_token(
        &self,
        player: PlayerId,
    ) -> impl Future<Output = Result<IssuedToken, ServiceError>> + Send;

    /// Ends the player tokens `what` names, at once; returns how many.
    fn revoke_player_tokens(
        &self,
        what: Revoke,
    ) -> impl Future<Output = Result<usize, ServiceError>> + Send;

    /// The player `token` acts for (INVALID_PLAYER_TOKEN when it is unknown or revoked).
    fn player_of(
        &self,
        token: PlayerToken,
    ) -> impl Future<Output = Result<PlayerId, ServiceError>> + Send;

    /// Changes at every revocation (on any replica): open player-mode streams then check
    /// their token again.
    fn revocations(&self) -> watch::Receiver<u64>;
}

/// Which seats have a stream open, here and (on Redis) on the other replicas.
pub trait PresenceStore: Send + Sync + 'static {
    /// This process's presence registry: its seats' streams join it, its watchers follow it
    /// (on Redis it also hears of other replicas' seats).
    fn presence(&self) -> &Arc<Presence>;

    /// Both seats' presence now, as a claim is judged on it: on Redis with every replica's
    /// current leases read from Redis.
    fn read_presence(
        &self,
        id: GameId,
    ) -> impl Future<Output = Result<ByColor<SeatPresence>, ServiceError>> + Send;
}

/// A whole store, as the API serves it: the four concerns together. Nothing to implement:
/// every type that has all four is one, so a backend implements each concern where it lives
/// and the API stays generic over the one backend chosen at start-up (static dispatch, no
/// per-call match).
pub trait GameStore: Games + FeedStore + TokenStore + PresenceStore {}

impl<T: Games + FeedStore + TokenStore + PresenceStore> GameStore for T {}

/// An action's admission check (see [`Games::act`]): the seat the token holds and the
/// side to move, or a refusal.
pub trait Admit: FnOnce(Color, Option<Color>) -> Result<(), ServiceError> + Send {}

impl<F: FnOnce(Color, Option<Color>) -> Result<(), ServiceError> + Send> Admit for F {}

/// What a list shows.
#[derive(Clone, Debug, Default)]
pub struct GameFilter {
    pub status: Option<GameStatus>,
    pub variant: Option<AnyVariant>,
    /// An exact name playing either side.
    pub player: Option<String>,
    /// A player id bound to either seat.
    pub player_id: Option<PlayerId>,
    /// Labels every game shown carries.
    pub labels: Labels,
}

impl GameFilter {
    /// Whether a game of `variant`, `status`, `players` and `labels` is shown. Every store
    /// filters with this one test, so lists agree whatever the store.
    #[must_use]
    pub fn matches(
        &self,
        variant: AnyVariant,
        status: GameStatus,
        players: &Players,
        labels: &Labels,
    ) -> bool {
        self.status.is_none_or(|s| s == status)
            && self.variant.is_none_or(|v| v == variant)
            && self
                .player
                .as_deref()
                .is_none_or(|p| p == &*players.white || p == &*players.black)
            && self.player_id.as_ref().is_none_or(|p| players.has(p))
            && labels.contains_all(&self.labels)
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
