//! `MemoryStore`: every game in this process's memory.
//!
//! - Games live in `SHARDS` ordered maps, each behind its own `RwLock`, keyed by id (whose low
//!   bits are random, so games spread evenly). A map lock is held only to find, insert or remove
//!   an `Arc<GameEntry>`, never while a game is being changed, so games do not contend with
//!   each other.
//! - Each game has its own `std::sync::Mutex`: critical sections are short and synchronous
//!   (validate and play one move, append to the log, publish to watchers), and nothing awaits
//!   while holding it. Rendering a game for a response happens after the lock is released, on
//!   a copy.
//! - Live events go out on a `tokio::sync::broadcast` channel per game, created when the first
//!   watcher arrives and dropped when the last one has gone or the game ends, so an unwatched
//!   game holds no channel.
//! - One task flags games whose clock ran out or that were abandoned (see `timer`, `tasks`).
//! - Finished games are kept up to a limit (and, with a retention, until they are older than
//!   it), then forgotten oldest first. Statistics are counted when games finish, so forgetting a
//!   game does not change them.
//! - With a journal (the durable store, see `durable`), every change is queued for commit
//!   under the game's lock, and each call waits for the commit of everything it saw of the
//!   game before it answers. Without one (the default) nothing waits.
//!
//! Files: `inner` (the shared state), `entry` (one game), `games` (calls on one game, finished
//! games kept and forgotten), `create` (creations and their retries), `list`, `tasks` (flag
//! timer, retention), `timer` (the deadline queue), `durable` (the journal hook),
//! `creations` (the creations remembered for retries).
//!
//! Lock order (never the reverse): creations, then a map, then a game, then the deadline queue
//! or the journal's ticket; the finished-games queue, then a map. No lock is held across an
//! `.await`.

mod create;
mod creations;
mod durable;
mod entry;
mod games;
mod inner;
mod list;
mod tasks;
mod timer;

use std::hash::BuildHasher;
use std::sync::atomic::Ordering;
use std::sync::{Arc, PoisonError};

use chessd_rules::Variant;
use tokio::sync::broadcast;
use tokio::task::JoinHandle;

use self::durable::Durability;
use self::entry::GameEntry;
use self::inner::Inner;
use crate::error::ServiceError;
use crate::game::{
    Acted, Action, Created, GameId, GameRecord, GameView, NewGame, Players, Replay, SeatToken,
    Stats, VariantStats,
};
use crate::store::config::StoreLimits;
use crate::store::game_store::{Admit, GamePage, GameStore, ListQuery, Subscription};
use crate::store::journal::Journal;

/// Games in memory, with their own flag timer task (stopped when the store is dropped).
#[derive(Debug)]
pub struct MemoryStore {
    inner: Arc<Inner>,
    timer: JoinHandle<()>,
}

impl MemoryStore {
    /// An empty store. Spawns the flag timer (and the retention sweep) on the current tokio
    /// runtime.
    #[must_use]
    pub fn new(limits: StoreLimits) -> MemoryStore {
        MemoryStore::build(limits, Durability::default())
    }

    /// An empty store whose changes go through `journal` (stored games are put back with
    /// [`MemoryStore::restore`]).
    #[must_use]
    pub fn with_journal(limits: StoreLimits, journal: Arc<Journal>) -> MemoryStore {
        MemoryStore::build(limits, Durability::journaled(journal))
    }

    fn build(limits: StoreLimits, durable: Durability) -> MemoryStore {
        let inner = Arc::new(Inner::new(limits, durable));
        let deadlines = inner.deadlines.clone();
        let weak = Arc::downgrade(&inner);
        let timer = tokio::spawn(async move {
            match limits.retention {
                Some(retention) => {
                    tokio::join!(
                        tasks::flag_timer(deadlines, weak.clone()),
                        tasks::retention_sweep(retention, weak)
                    );
                }
                None => tasks::flag_timer(deadlines, weak).await,
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
        let record = record.abandoned_after(inner.limits.abandon_after);
        let ended_ms = record.ended_at_ms();
        if let Some(rid) = create_request {
            inner.remember_restored(rid, id, &record, &players);
        }
        let entry = Arc::new(GameEntry::new(id, players, record, 0));
        inner.insert(entry.clone());
        match ended_ms {
            None => {
                inner.live.fetch_add(1, Ordering::AcqRel);
                inner.rearm(id, &mut entry.lock());
                Vec::new()
            }
            Some(ended_ms) => inner.keep_finished(id, ended_ms),
        }
    }

    /// Sets the result counts of a variant (read back from storage).
    pub fn restore_stats(&self, stats: VariantStats) {
        let c = self.inner.results(stats.variant);
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

impl GameStore for MemoryStore {
    async fn create(&self, new: NewGame) -> Result<Created, ServiceError> {
        let inner = &self.inner;
        let place = inner.durable.reserve().await?;
        let (created, ticket) = inner.create_or_find(&new, place)?;
        inner.durable.wait(ticket).await?;
        Ok(created)
    }

    async fn seat(
        &self,
        id: GameId,
        token: SeatToken,
    ) -> Result<(chessd_rules::Color, Option<chessd_rules::Color>), ServiceError> {
        // Read under the game's lock only; nothing changes, so no journal place is taken.
        let entry = self.inner.find(id)?;
        let state = entry.lock();
        Ok((state.record.seat_of(&token)?, state.record.turn()))
    }

    async fn get(&self, id: GameId) -> Result<GameView, ServiceError> {
        self.inner
            .on_game(id, None, |entry, state, now, _| {
                Ok(state.record.view(id, &entry.players, now))
            })
            .await
    }

    async fn list(&self, query: ListQuery) -> Result<GamePage, ServiceError> {
        Ok(self.inner.list(&query))
    }

    async fn act<A: Admit>(
        &self,
        id: GameId,
        token: SeatToken,
        action: Action,
        admit: A,
    ) -> Result<Acted, ServiceError> {
        let inner = &self.inner;
        let request_id = action.request_id();
        let request_key = request_id.map(|rid| inner.hasher.hash_one(rid.as_str()));
        inner
            .on_game(id, request_id, |entry, state, now, events| {
                let seat = state.record.seat_of(&token)?;
                admit(seat, state.record.turn())?;
                let played = state
                    .record
                    .apply(seat, &action, request_key, now, events)?;
                Ok(Acted {
                    played,
                    view: state.record.view(id, &entry.players, now),
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
            .on_game(id, None, |entry, state, now, _| {
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
                    Replay::snapshot(state.record.view(id, &entry.players, now), now.wall)
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
        let variants = Variant::ALL
            .iter()
            .map(|&variant| {
                let c = self.inner.results(variant);
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

    /// Lets every action in.
    fn admit_all(
        _: chessd_rules::Color,
        _: Option<chessd_rules::Color>,
    ) -> Result<(), ServiceError> {
        Ok(())
    }

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
        let entry = store.inner.find(created.view.id).unwrap();
        let state = entry.lock();
        let bytes = size_of::<GameEntry>()
            + 2 * size_of::<usize>() // Arc counts
            + size_of::<(GameId, Arc<GameEntry>)>() * 2 // map entry, with B-tree slack
            + entry.players.white.capacity()
            + entry.players.black.capacity()
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
                .act(id, *created.tokens.white(), Action::Resign, admit_all)
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
        let entry = store.inner.find(id).unwrap();
        assert!(entry.lock().watchers.is_none());
        let subscription = store.watch(id, 0).await.unwrap();
        assert!(entry.lock().watchers.is_some());
        drop(subscription);
        store
            .act(id, *created.tokens.white(), Action::OfferDraw, admit_all)
            .await
            .unwrap();
        assert!(entry.lock().watchers.is_none());
    }
}
