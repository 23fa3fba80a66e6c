//! `MemoryStore`: every game in this process's memory.
//!
//! - Games live in `SHARDS` ordered maps, each behind its own `RwLock`, keyed by id (whose low
//!   bits are random, so games spread evenly). A map lock is held only to find, insert or remove
//!   an `Arc<Slot>`, never while a game is being changed, so games do not contend with each
//!   other.
//! - Each game has its own `std::sync::Mutex`: critical sections are short and synchronous
//!   (validate and play one move, append to the log, publish to watchers), and nothing awaits
//!   while holding it. Rendering a game for a response happens after the lock is released, on
//!   a copy.
//! - Live events go out on a `tokio::sync::broadcast` channel per game, created when the first
//!   watcher arrives and dropped when the last one has gone or the game ends, so an unwatched
//!   game holds no channel.
//! - One task flags games whose clock ran out (see `timer`).
//! - Finished games are kept up to a limit (and, with a retention, until they are older than
//!   it), then forgotten oldest first. Statistics are counted when games finish, so forgetting a
//!   game does not change them.
//! - With a journal (the durable store, see `journal` and `sqlite`), every change is queued for
//!   commit under the game's lock, and each call waits for the commit of everything it saw of
//!   the game before it answers. Without one (the default) nothing waits.
//!
//! Lock order (never the reverse): creations, then a map, then a game, then the deadline queue
//! or the journal's ticket; the finished-games queue, then a map. No lock is held across an
//! `.await`.

use std::collections::hash_map::RandomState;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock, Weak};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use chessd_rules::{Color, Outcome, Rules, Termination, Variant};
use tokio::sync::broadcast;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::journal::{self, Change, CreatedGame, Journal};
use super::record::Now;
use super::timer::DeadlineQueue;
use super::{
    Acted, Action, Created, Event, EventKind, GameFilter, GameId, GamePage, GameRecord, GameStatus,
    GameStore, GameSummary, ListQuery, NewGame, Players, Replay, RequestId, Stats, Subscription,
    VariantStats,
};
use crate::error::ServiceError;
use crate::metrics;
use crate::token::SeatToken;

/// Independent game maps (a power of two comfortably above the core count).
const SHARDS: usize = 16;

/// Most games ListGames examines for one page, so a filter that matches rarely cannot make one
/// request walk every game; the page then ends early with a token to continue.
pub const MAX_LIST_SCAN: usize = 16_384;

/// CreateGame request ids remembered for retries (the oldest is forgotten first).
pub const CREATE_MEMORY: usize = 16_384;

/// Some of the games, by id.
type Shard = RwLock<BTreeMap<GameId, Arc<Slot>>>;

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
}

/// Games in memory, with their own flag timer task (stopped when the store is dropped).
#[derive(Debug)]
pub struct MemoryStore {
    inner: Arc<Inner>,
    timer: JoinHandle<()>,
}

#[derive(Debug)]
struct Inner {
    shards: Box<[Shard]>,
    limits: StoreLimits,
    /// Ongoing games; reserved before a game is made so the limit is never overshot.
    live: AtomicUsize,
    /// Finished games with the time they ended (ms since the epoch), oldest first, for
    /// retention. A std mutex: push/pop only.
    finished: Mutex<VecDeque<(GameId, u64)>>,
    /// CreateGame request ids already answered. A std mutex held across one creation (no
    /// await), so two concurrent retries cannot both create a game.
    creations: Mutex<Creations>,
    /// Results per variant, indexed like `Variant::ALL`.
    results: [ResultCounters; Variant::ALL.len()],
    deadlines: Arc<DeadlineQueue>,
    /// Keyed SipHash for request ids, so clients cannot aim collisions at each other.
    hasher: RandomState,
    /// Where changes go to be made durable; `None` for a store that lives in memory only.
    journal: Option<Arc<Journal>>,
}

#[derive(Debug, Default)]
struct ResultCounters {
    white: AtomicU64,
    black: AtomicU64,
    draws: AtomicU64,
}

#[derive(Debug, Default)]
struct Creations {
    /// Hashed request id to the creation it made.
    by_key: HashMap<u64, Creation>,
    /// Keys oldest first, at most `CREATE_MEMORY`.
    order: VecDeque<u64>,
}

/// A CreateGame answered under a request id.
#[derive(Debug)]
struct Creation {
    /// The fingerprint of the request: a retry must match it.
    fingerprint: u64,
    game: GameId,
    /// The clear seat tokens, so a retry gets the same answer. Held only here, in this
    /// process's memory (game records and storage hold digests), and only for games created
    /// by this process: a game restored from storage has `None`, and a retry of its creation
    /// is told the tokens are gone rather than given new ones.
    tokens: Option<[SeatToken; 2]>,
}

/// One game: what never changes outside the lock, the rest inside.
#[derive(Debug)]
struct Slot {
    id: GameId,
    variant: Variant,
    players: Players,
    /// `GameStatus` as a byte, mirrored from the record under the game lock, so ListGames
    /// filters without taking every game's lock.
    status: AtomicU8,
    state: Mutex<SlotState>,
}

#[derive(Debug)]
struct SlotState {
    record: GameRecord,
    /// Live events for watchers; `None` while nobody watches. Bounded by `watch_buffer`.
    watchers: Option<broadcast::Sender<Arc<Event>>>,
    /// The earliest deadline queued for this game, if any.
    armed: Option<Instant>,
    /// The journal ticket of the game's latest change (0: none): a call that saw the game
    /// answers only once it is committed.
    ticket: u64,
}

impl Slot {
    /// The game's lock. A poisoned lock (a panic inside a critical section, which the code
    /// avoids) is taken over rather than failing every later request on this game.
    fn lock(&self) -> MutexGuard<'_, SlotState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn status(&self) -> GameStatus {
        match self.status.load(Ordering::Acquire) {
            0 => GameStatus::Ongoing,
            1 => GameStatus::Finished,
            _ => GameStatus::Aborted,
        }
    }

    fn matches(&self, filter: &GameFilter) -> bool {
        filter.status.is_none_or(|s| s == self.status())
            && filter.variant.is_none_or(|v| v == self.variant)
            && filter
                .player
                .as_deref()
                .is_none_or(|p| p == self.players.white || p == self.players.black)
    }
}

fn variant_index(v: Variant) -> usize {
    Variant::ALL.iter().position(|&x| x == v).unwrap_or(0)
}

impl MemoryStore {
    /// An empty store. Spawns the flag timer (and the retention sweep) on the current tokio
    /// runtime.
    #[must_use]
    pub fn new(limits: StoreLimits) -> MemoryStore {
        MemoryStore::build(limits, None)
    }

    /// An empty store whose changes go through `journal` (stored games are put back with
    /// [`MemoryStore::restore`]).
    #[must_use]
    pub fn with_journal(limits: StoreLimits, journal: Arc<Journal>) -> MemoryStore {
        MemoryStore::build(limits, Some(journal))
    }

    fn build(limits: StoreLimits, journal: Option<Arc<Journal>>) -> MemoryStore {
        let deadlines = Arc::new(DeadlineQueue::default());
        let inner = Arc::new(Inner {
            shards: (0..SHARDS).map(|_| RwLock::default()).collect(),
            limits,
            live: AtomicUsize::new(0),
            finished: Mutex::default(),
            creations: Mutex::default(),
            results: Default::default(),
            deadlines: deadlines.clone(),
            hasher: RandomState::new(),
            journal,
        });
        let weak = Arc::downgrade(&inner);
        let timer = tokio::spawn(async move {
            match limits.retention {
                Some(retention) => {
                    tokio::join!(
                        flag_timer(deadlines, weak.clone()),
                        retention_sweep(retention, weak)
                    );
                }
                None => flag_timer(deadlines, weak).await,
            }
        });
        MemoryStore { inner, timer }
    }

    /// The key a request id is remembered by (keyed with this process's secret).
    #[must_use]
    pub fn request_key(&self, request_id: &str) -> u64 {
        self.inner.hasher.hash_one(request_id)
    }

    /// Puts back a game read from storage; `create_request` is the request id that created
    /// it. Ongoing games count as live even beyond the limit (none is dropped); finished games
    /// must come oldest-ended first, so retention forgets them in order. Returns the finished
    /// games forgotten beyond the count limit (to be deleted from storage too).
    pub fn restore(
        &self,
        id: GameId,
        players: Players,
        record: GameRecord,
        create_request: Option<&str>,
    ) -> Vec<GameId> {
        let inner = &self.inner;
        let variant = record.game().start().variant();
        let record = record.abandoned_after(inner.limits.abandon_after);
        let status = GameStatus::of(record.game().outcome());
        let ended_ms = record.ended_at_ms();
        if let Some(rid) = create_request {
            let key = inner.hasher.hash_one(rid);
            let fingerprint = inner.hasher.hash_one((
                record.game().start(),
                &record.time_control(),
                &players,
                record.game().draw_rule(),
            ));
            let mut creations = inner
                .creations
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            remember_creation(
                &mut creations,
                key,
                Creation {
                    fingerprint,
                    game: id,
                    tokens: None,
                },
            );
        }
        let slot = Arc::new(Slot {
            id,
            variant,
            players,
            status: AtomicU8::new(status as u8),
            state: Mutex::new(SlotState {
                record,
                watchers: None,
                armed: None,
                ticket: 0,
            }),
        });
        inner
            .shard(id)
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, slot.clone());
        match ended_ms {
            None => {
                inner.live.fetch_add(1, Ordering::AcqRel);
                inner.rearm(id, &mut slot.lock());
                Vec::new()
            }
            Some(ended_ms) => inner.keep_finished(id, ended_ms),
        }
    }

    /// Sets the result counts of a variant (read back from storage).
    pub fn restore_stats(&self, stats: VariantStats) {
        let c = &self.inner.results[variant_index(stats.variant)];
        c.white.store(stats.white_wins, Ordering::Relaxed);
        c.black.store(stats.black_wins, Ordering::Relaxed);
        c.draws.store(stats.draws, Ordering::Relaxed);
    }

    /// Games held (ongoing and finished).
    #[must_use]
    pub fn len(&self) -> usize {
        self.inner
            .shards
            .iter()
            .map(|s| s.read().unwrap_or_else(PoisonError::into_inner).len())
            .sum()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Drop for MemoryStore {
    fn drop(&mut self) {
        self.timer.abort();
    }
}

/// Ends games whose flag fell. Holds the store weakly: it stops once the store is gone.
async fn flag_timer(deadlines: Arc<DeadlineQueue>, inner: Weak<Inner>) {
    loop {
        let due = deadlines.next_due().await;
        let Some(inner) = inner.upgrade() else { return };
        for (at, id) in due {
            // A game that was forgotten meanwhile has nothing left to flag; a journal failure
            // was logged by its writer and fails every later call.
            let _ = inner
                .on_game(id, None, |_, state, _, _| {
                    if state.armed == Some(at) {
                        state.armed = None;
                    }
                    Ok(())
                })
                .await;
        }
    }
}

/// Forgets finished games older than `retention`, checking a few times per retention period
/// (at most every minute, at least every 50 ms).
async fn retention_sweep(retention: Duration, inner: Weak<Inner>) {
    let period = (retention / 4).clamp(Duration::from_millis(50), Duration::from_secs(60));
    let mut tick = tokio::time::interval(period);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(inner) = inner.upgrade() else { return };
        let cutoff = epoch_ms(SystemTime::now())
            .saturating_sub(u64::try_from(retention.as_millis()).unwrap_or(u64::MAX));
        let expired = inner.forget_ended_before(cutoff);
        inner.forget_durably(expired).await;
    }
}

/// Milliseconds since the Unix epoch.
pub(super) fn epoch_ms(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// What a call on one game leaves to do once the game's lock is released.
struct Settle<T> {
    result: Result<T, ServiceError>,
    /// The journal ticket to wait for (0: none).
    ticket: u64,
    /// Finished games forgotten to make room.
    forgotten: Vec<GameId>,
}

fn remember_creation(creations: &mut Creations, key: u64, creation: Creation) {
    if creations.order.len() == CREATE_MEMORY
        && let Some(oldest) = creations.order.pop_front()
    {
        creations.by_key.remove(&oldest);
    }
    creations.order.push_back(key);
    creations.by_key.insert(key, creation);
}

impl Inner {
    fn shard(&self, id: GameId) -> &Shard {
        &self.shards[id.get() as usize % SHARDS]
    }

    fn find(&self, id: GameId) -> Result<Arc<Slot>, ServiceError> {
        let map = self
            .shard(id)
            .read()
            .unwrap_or_else(PoisonError::into_inner);
        map.get(&id)
            .cloned()
            .ok_or(ServiceError::GameNotFound { id })
    }

    /// Runs `f` on a game under its lock (see `with_game`), then, with a journal, waits until
    /// everything the call saw of the game is committed. `request_id` is a move's.
    async fn on_game<T>(
        &self,
        id: GameId,
        request_id: Option<&RequestId>,
        f: impl FnOnce(&Slot, &mut SlotState, Now, &mut Vec<Event>) -> Result<T, ServiceError>,
    ) -> Result<T, ServiceError> {
        let Some(journal) = &self.journal else {
            return self.with_game(id, None, request_id, f).result;
        };
        let tx = journal.sender()?;
        let place = Journal::reserve(&tx).await?;
        let done = self.with_game(id, Some(place), request_id, f);
        self.forget_durably(done.forgotten).await;
        journal.wait(done.ticket).await?;
        done.result
    }

    /// Deletes forgotten games from the journal's storage too. Nobody waits for it: a game
    /// still stored after a crash is forgotten again when the store starts.
    async fn forget_durably(&self, forgotten: Vec<GameId>) {
        let Some(journal) = &self.journal else { return };
        if forgotten.is_empty() {
            return;
        }
        if let Ok(tx) = journal.sender()
            && let Ok(place) = Journal::reserve(&tx).await
        {
            journal.send(place, Change::Forget(forgotten), None);
        }
    }

    /// Runs `f` on a game under its lock, after ending it if its flag fell. Publishes the
    /// events `f` produced (with a journal: queues them in `place`, and the writer publishes
    /// them once committed), re-arms the flag timer, and books a game that just ended.
    fn with_game<T>(
        &self,
        id: GameId,
        place: Option<journal::Slot<'_>>,
        request_id: Option<&RequestId>,
        f: impl FnOnce(&Slot, &mut SlotState, Now, &mut Vec<Event>) -> Result<T, ServiceError>,
    ) -> Settle<T> {
        let slot = match self.find(id) {
            Ok(slot) => slot,
            Err(e) => {
                return Settle {
                    result: Err(e),
                    ticket: 0,
                    forgotten: Vec::new(),
                };
            }
        };
        let now = Now::read();
        let mut events = Vec::new();
        let (result, ended, moves, ticket) = {
            let mut state = slot.lock();
            let was_over = state.record.is_over();
            let seq_before = state.record.last_seq();
            state.record.expire(now, &mut events);
            let result = f(&slot, &mut state, now, &mut events);
            let ended = !was_over && state.record.is_over();
            let moves = events
                .iter()
                .filter(|e| matches!(e.kind, EventKind::MovePlayed { .. }))
                .count();
            match (&self.journal, place) {
                (Some(journal), Some(place)) if state.record.last_seq() > seq_before => {
                    let rows = state.record.journal_rows(seq_before, now, request_id);
                    let publish = state.watchers.clone().map(|tx| (tx, events));
                    if ended
                        || publish
                            .as_ref()
                            .is_some_and(|(tx, _)| tx.receiver_count() == 0)
                    {
                        state.watchers = None;
                    }
                    let change = Change::Events {
                        game: id,
                        variant: slot.variant,
                        rows,
                    };
                    state.ticket = journal.send(place, change, publish);
                }
                // Nothing changed: an unused place goes back to the queue as it is dropped.
                _ => publish(&mut state, events, ended),
            }
            if ended {
                slot.status.store(
                    GameStatus::of(state.record.game().outcome()) as u8,
                    Ordering::Release,
                );
            } else {
                self.rearm(id, &mut state);
            }
            (
                result,
                ended
                    .then(|| {
                        state
                            .record
                            .game()
                            .outcome()
                            .zip(state.record.ended_at_ms())
                    })
                    .flatten(),
                moves,
                state.ticket,
            )
        };
        // Counted after the lock: the recorder does a map look-up.
        for _ in 0..moves {
            metrics::move_played(slot.variant);
        }
        let forgotten = match ended {
            Some((outcome, ended_ms)) => self.book_finished(&slot, outcome, ended_ms),
            None => Vec::new(),
        };
        Settle {
            result,
            ticket,
            forgotten,
        }
    }

    /// Makes sure the flag timer checks this game no later than its deadline.
    fn rearm(&self, id: GameId, state: &mut SlotState) {
        if let Some(deadline) = state.record.deadline()
            && state.armed.is_none_or(|armed| deadline < armed)
        {
            state.armed = Some(deadline);
            self.deadlines.schedule(deadline, id);
        }
    }

    /// A game ended: free its live place, count its result, keep it for a while. Returns the
    /// games forgotten to make room.
    fn book_finished(&self, slot: &Slot, outcome: Outcome, ended_ms: u64) -> Vec<GameId> {
        self.live.fetch_sub(1, Ordering::AcqRel);
        metrics::game_ended(slot.variant, outcome.termination);
        if outcome.termination != Termination::Aborted {
            let counters = &self.results[variant_index(slot.variant)];
            let counter = match outcome.winner {
                Some(Color::White) => &counters.white,
                Some(Color::Black) => &counters.black,
                None => &counters.draws,
            };
            counter.fetch_add(1, Ordering::Relaxed);
        }
        self.keep_finished(slot.id, ended_ms)
    }

    /// Keeps a finished game, forgetting the oldest beyond the count limit; returns those.
    fn keep_finished(&self, id: GameId, ended_ms: u64) -> Vec<GameId> {
        let evicted: Vec<GameId> = {
            let mut finished = self.finished.lock().unwrap_or_else(PoisonError::into_inner);
            finished.push_back((id, ended_ms));
            let excess = finished
                .len()
                .saturating_sub(self.limits.max_finished_games);
            finished.drain(..excess).map(|(id, _)| id).collect()
        };
        self.remove(&evicted);
        evicted
    }

    /// Forgets the finished games that ended before `cutoff_ms`; returns them.
    fn forget_ended_before(&self, cutoff_ms: u64) -> Vec<GameId> {
        let expired: Vec<GameId> = {
            let mut finished = self.finished.lock().unwrap_or_else(PoisonError::into_inner);
            let old = finished
                .iter()
                .take_while(|&&(_, ended)| ended < cutoff_ms)
                .count();
            finished.drain(..old).map(|(id, _)| id).collect()
        };
        self.remove(&expired);
        expired
    }

    fn remove(&self, ids: &[GameId]) {
        for id in ids {
            self.shard(*id)
                .write()
                .unwrap_or_else(PoisonError::into_inner)
                .remove(id);
        }
    }

    /// Makes and inserts a new game; with a journal its creation is queued in `place`, and
    /// the ticket comes back with it.
    fn create_game(
        &self,
        new: &NewGame,
        now: Now,
        place: Option<journal::Slot<'_>>,
    ) -> Result<(super::Created, u64), ServiceError> {
        let limit = self.limits.max_live_games;
        self.live
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < limit).then_some(n + 1)
            })
            .map_err(|_| ServiceError::TooManyGames { limit })?;
        let made = self.insert_game(new, now, place);
        match &made {
            Ok(_) => metrics::game_started(),
            Err(_) => {
                self.live.fetch_sub(1, Ordering::AcqRel);
            }
        }
        made
    }

    fn insert_game(
        &self,
        new: &NewGame,
        now: Now,
        mut place: Option<journal::Slot<'_>>,
    ) -> Result<(super::Created, u64), ServiceError> {
        let entropy = |e| ServiceError::Internal(Box::new(e));
        let tokens = [
            SeatToken::generate().map_err(entropy)?,
            SeatToken::generate().map_err(entropy)?,
        ];
        let record = GameRecord::new(new, tokens.map(|t| t.digest()), now)
            .abandoned_after(self.limits.abandon_after);
        let mut record = Some(record);
        loop {
            let random = getrandom::u64().map_err(|e| ServiceError::Internal(Box::new(e)))?;
            let id = GameId::new(now.wall, random);
            let mut map = self
                .shard(id)
                .write()
                .unwrap_or_else(PoisonError::into_inner);
            // Two games in one millisecond with the same 22 random bits: draw again.
            if map.contains_key(&id) {
                continue;
            }
            let Some(record) = record.take() else {
                return Err(ServiceError::Internal("game record used twice".into()));
            };
            let view = record.view(id, &new.players, now);
            // Queued while the map is locked, before anyone can find the game, so its creation
            // precedes its events in the journal.
            let ticket = match (&self.journal, place.take()) {
                (Some(journal), Some(place)) => {
                    let created = CreatedGame {
                        id,
                        variant: new.start.variant(),
                        start_fen: new.start.fen(),
                        players: new.players.clone(),
                        time_control: new.time_control,
                        draw_rule: new.draw_rule,
                        digests: tokens.map(|t| t.digest()),
                        created_at_ms: epoch_ms(now.wall),
                        request_id: new.request_id.as_ref().map(|r| r.as_str().to_owned()),
                    };
                    journal.send(place, Change::Created(Box::new(created)), None)
                }
                _ => 0,
            };
            let slot = Arc::new(Slot {
                id,
                variant: new.start.variant(),
                players: new.players.clone(),
                status: AtomicU8::new(GameStatus::Ongoing as u8),
                state: Mutex::new(SlotState {
                    record,
                    watchers: None,
                    armed: None,
                    ticket,
                }),
            });
            map.insert(id, slot.clone());
            drop(map);
            self.rearm(id, &mut slot.lock());
            let created = Created {
                view,
                white_token: tokens[0],
                black_token: tokens[1],
            };
            return Ok((created, ticket));
        }
    }

    /// Creates a game, or finds the one an earlier request with the same request id created.
    /// Returns the journal ticket to wait for.
    fn create_or_find(
        &self,
        new: &NewGame,
        place: Option<journal::Slot<'_>>,
    ) -> Result<(Created, u64), ServiceError> {
        let now = Now::read();
        let Some(request_id) = &new.request_id else {
            return self.create_game(new, now, place);
        };
        let key = self.hasher.hash_one(request_id.as_str());
        let fingerprint = self.fingerprint(new);
        let mut creations = self
            .creations
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(creation) = creations.by_key.get(&key) {
            if creation.fingerprint != fingerprint {
                return Err(ServiceError::RequestIdReused);
            }
            let id = creation.game;
            let tokens = creation.tokens;
            drop(creations);
            let slot = self.find(id)?;
            let [white_token, black_token] =
                tokens.ok_or(ServiceError::SeatTokensUnavailable { id })?;
            let state = slot.lock();
            let created = Created {
                view: state.record.view(id, &slot.players, now),
                white_token,
                black_token,
            };
            return Ok((created, state.ticket));
        }
        let (created, ticket) = self.create_game(new, now, place)?;
        remember_creation(
            &mut creations,
            key,
            Creation {
                fingerprint,
                game: created.view.id,
                tokens: Some([created.white_token, created.black_token]),
            },
        );
        Ok((created, ticket))
    }

    /// The fingerprint of a creation request: a retry must match it.
    fn fingerprint(&self, new: &NewGame) -> u64 {
        self.hasher
            .hash_one((&new.start, &new.time_control, &new.players, new.draw_rule))
    }
}

/// Sends `events` to the game's watchers, and drops the channel once nobody listens or the game
/// has ended (receivers still get what was sent before).
fn publish(state: &mut SlotState, events: Vec<Event>, ended: bool) {
    if let Some(tx) = &state.watchers {
        for event in events {
            // An error means every receiver is gone.
            if tx.send(Arc::new(event)).is_err() {
                state.watchers = None;
                break;
            }
        }
    }
    if ended
        || state
            .watchers
            .as_ref()
            .is_some_and(|tx| tx.receiver_count() == 0)
    {
        state.watchers = None;
    }
}

impl GameStore for MemoryStore {
    async fn create(&self, new: NewGame) -> Result<Created, ServiceError> {
        let inner = &self.inner;
        let Some(journal) = &inner.journal else {
            return inner.create_or_find(&new, None).map(|(created, _)| created);
        };
        let tx = journal.sender()?;
        let place = Journal::reserve(&tx).await?;
        let (created, ticket) = inner.create_or_find(&new, Some(place))?;
        journal.wait(ticket).await?;
        Ok(created)
    }

    async fn seat(
        &self,
        id: GameId,
        token: SeatToken,
    ) -> Result<(Color, Option<Color>), ServiceError> {
        // Read under the game's lock only; nothing changes, so no journal place is taken.
        let slot = self.inner.find(id)?;
        let state = slot.lock();
        let seat = state.record.seat_of(&token)?;
        let game = state.record.game();
        let turn = (!game.is_over()).then(|| game.position().turn());
        Ok((seat, turn))
    }

    async fn get(&self, id: GameId) -> Result<super::GameView, ServiceError> {
        self.inner
            .on_game(id, None, |slot, state, now, _| {
                Ok(state.record.view(id, &slot.players, now))
            })
            .await
    }

    async fn list(&self, query: ListQuery) -> Result<GamePage, ServiceError> {
        let page_size = query.page_size.max(1);
        let budget = (MAX_LIST_SCAN / SHARDS).max(1);
        let mut found: Vec<Arc<Slot>> = Vec::new();
        // Every game newer than `floor` was examined; older ones may not have been.
        let mut floor: Option<GameId> = None;
        for shard in self.inner.shards.iter() {
            let map = shard.read().unwrap_or_else(PoisonError::into_inner);
            let range = match query.before {
                Some(before) => map.range(..before),
                None => map.range(..),
            };
            let (mut scanned, mut matched) = (0, 0);
            for (id, slot) in range.rev() {
                if scanned == budget {
                    floor = floor.max(Some(*id));
                    break;
                }
                scanned += 1;
                if slot.matches(&query.filter) {
                    found.push(slot.clone());
                    matched += 1;
                    if matched == page_size {
                        break;
                    }
                }
            }
        }
        found.sort_unstable_by_key(|slot| std::cmp::Reverse(slot.id));
        if let Some(floor) = floor {
            found.retain(|slot| slot.id > floor);
        }
        found.truncate(page_size);
        let next = match (found.len() == page_size, found.last(), floor) {
            (true, Some(last), _) => Some(last.id),
            // The scan budget ran out: continue from the oldest game examined everywhere.
            (_, _, Some(floor)) => Some(floor.successor()),
            _ => None,
        };
        let games = found
            .iter()
            .map(|slot| {
                let state = slot.lock();
                let game = state.record.game();
                GameSummary {
                    id: slot.id,
                    variant: slot.variant,
                    players: slot.players.clone(),
                    outcome: game.outcome(),
                    ply: game.ply(),
                    position: *game.position(),
                    created_at: slot.id.created_at(),
                }
            })
            .collect();
        Ok(GamePage { games, next })
    }

    async fn act(
        &self,
        id: GameId,
        token: SeatToken,
        action: Action,
    ) -> Result<Acted, ServiceError> {
        let inner = &self.inner;
        let request_key = match &action {
            Action::Move {
                request_id: Some(rid),
                ..
            } => Some(inner.hasher.hash_one(rid.as_str())),
            _ => None,
        };
        let request_id = match &action {
            Action::Move { request_id, .. } => request_id.as_ref(),
            _ => None,
        };
        inner
            .on_game(id, request_id, |slot, state, now, events| {
                let seat = state.record.seat_of(&token)?;
                let played = state
                    .record
                    .apply(seat, &action, request_key, now, events)?;
                Ok(Acted {
                    played,
                    view: state.record.view(id, &slot.players, now),
                })
            })
            .await
    }

    async fn watch(&self, id: GameId, after_seq: u64) -> Result<Subscription, ServiceError> {
        let inner = &self.inner;
        let limits = inner.limits;
        // With a journal, the subscription is handed over only once everything its replay
        // holds is committed, and live events come from the writer after their commit.
        inner
            .on_game(id, None, |slot, state, now, _| {
                let last_seq = state.record.last_seq();
                if after_seq > last_seq {
                    return Err(ServiceError::SeqOutOfRange {
                        after_seq,
                        last_seq,
                    });
                }
                let live = if state.record.is_over() {
                    None
                } else {
                    let tx = state
                        .watchers
                        .get_or_insert_with(|| broadcast::channel(limits.watch_buffer.max(1)).0);
                    if tx.receiver_count() >= limits.max_watchers_per_game {
                        return Err(ServiceError::TooManyWatchers {
                            limit: limits.max_watchers_per_game,
                        });
                    }
                    Some(tx.subscribe())
                };
                let replay = if after_seq == 0 {
                    Replay::snapshot(state.record.view(id, &slot.players, now), now.wall)
                } else {
                    state.record.replay_after(after_seq)
                };
                Ok(Subscription {
                    replay,
                    live,
                    after_seq,
                })
            })
            .await
    }

    async fn stats(&self) -> Result<Stats, ServiceError> {
        // The API has values for these two variants only, so far.
        let variants = [Variant::Chess, Variant::RacingKings]
            .iter()
            .map(|&variant| {
                let c = &self.inner.results[variant_index(variant)];
                VariantStats {
                    variant,
                    white_wins: c.white.load(Ordering::Relaxed),
                    black_wins: c.black.load(Ordering::Relaxed),
                    draws: c.draws.load(Ordering::Relaxed),
                }
            })
            .collect();
        Ok(Stats { variants })
    }
}

#[cfg(test)]
mod tests {
    use chessd_rules::{DrawRule, Position};

    use super::*;
    use crate::store::{GameView, Players};

    fn limits() -> StoreLimits {
        StoreLimits {
            max_live_games: 10,
            max_finished_games: 2,
            max_watchers_per_game: 4,
            watch_buffer: 8,
            retention: None,
            abandon_after: None,
        }
    }

    fn new_game() -> NewGame {
        NewGame {
            start: Position::new(Variant::Chess),
            time_control: None,
            players: Players {
                white: "alice".into(),
                black: "bob".into(),
            },
            draw_rule: DrawRule::Claim,
            request_id: None,
        }
    }

    /// An idle new game costs well under 2 KiB: the record, its slot and map entry, and what
    /// they hold on the heap (no event log, no channel, no request ids yet).
    #[tokio::test]
    async fn idle_game_is_small() {
        let store = MemoryStore::new(limits());
        let created = store.create(new_game()).await.unwrap();
        let slot = store.inner.find(created.view.id).unwrap();
        let state = slot.lock();
        let bytes = size_of::<Slot>()
            + 2 * size_of::<usize>() // Arc counts
            + size_of::<(GameId, Arc<Slot>)>() * 2 // map entry, with B-tree slack
            + slot.players.white.capacity()
            + slot.players.black.capacity()
            + state.record.heap_bytes();
        eprintln!("an idle game takes {bytes} bytes");
        assert!(bytes <= 1024, "an idle game takes {bytes} bytes");
    }

    /// Finished games beyond the retention limit are forgotten, oldest first; statistics keep
    /// counting them.
    #[tokio::test]
    async fn retention_keeps_stats() {
        let store = MemoryStore::new(limits());
        let mut ids = Vec::new();
        for _ in 0..3 {
            let created = store.create(new_game()).await.unwrap();
            let id = created.view.id;
            store
                .act(id, created.white_token, Action::Resign)
                .await
                .unwrap();
            ids.push(id);
        }
        assert!(matches!(
            store.get(ids[0]).await,
            Err(ServiceError::GameNotFound { .. })
        ));
        let view: GameView = store.get(ids[2]).await.unwrap();
        assert!(view.game.is_over());
        assert_eq!(store.len(), 2);
        let stats = store.stats().await.unwrap();
        assert_eq!(stats.variants[0].black_wins, 3);
    }

    /// Unwatched games hold no broadcast channel; the last watcher leaving drops it at the next
    /// event.
    #[tokio::test]
    async fn channel_only_while_watched() {
        let store = MemoryStore::new(limits());
        let created = store.create(new_game()).await.unwrap();
        let id = created.view.id;
        let slot = store.inner.find(id).unwrap();
        assert!(slot.lock().watchers.is_none());
        let subscription = store.watch(id, 0).await.unwrap();
        assert!(slot.lock().watchers.is_some());
        drop(subscription);
        store
            .act(id, created.white_token, Action::OfferDraw)
            .await
            .unwrap();
        assert!(slot.lock().watchers.is_none());
    }
}
