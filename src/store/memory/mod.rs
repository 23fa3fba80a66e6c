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
//! - The feed (WatchGames) is a [`FeedLog`] in memory: every creation, move and end is
//!   appended under the game's lock (with a journal: by the writer, after the commit), and
//!   consumers read it or follow its live broadcast. Player tokens are a map of digests
//!   (`store::tokens`).
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
mod held;
mod inner;
mod list;
mod tasks;
mod timer;

use std::hash::BuildHasher;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::{broadcast, watch};
use tokio::task::JoinHandle;

use self::durable::Durability;
use self::entry::GameEntry;
use self::inner::Inner;
use crate::error::ServiceError;
use crate::game::{
    Acted, Action, Created, FeedEvent, GameHeader, GameId, GameRecord, GameView, Holder,
    IssuedToken, Labels, NewGame, Now, PlayerId, PlayerToken, Replay, Revoke, Stats, TokenDigest,
    TokenId, VariantStats, epoch_ms,
};
use crate::security::error::LimitError;
use crate::store::config::{FEED_LIVE_BUFFER, StoreLimits};
use crate::store::feed::cursor::FeedCursor;
use crate::store::feed::log::FeedLog;
use crate::store::feed::subscription::{FeedEntry, FeedSubscription};
use crate::store::game_store::{
    Admit, FeedStore, GamePage, Games, ListQuery, PresenceStore, Subscription, TokenStore,
};
use crate::store::journal::{Change, Journal};
use crate::store::stream_error::StreamError;

/// Games in memory, with their own flag timer task (stopped when the store is dropped).
#[derive(Debug)]
pub struct MemoryStore {
    inner: Arc<Inner>,
    timer: JoinHandle<()>,
    /// Whose seats watch which game, in this process.
    presence: Arc<crate::store::presence::Presence>,
}

impl MemoryStore {
    /// An empty store. Spawns the flag timer (and the retention sweep) on the current tokio
    /// runtime.
    #[must_use]
    pub fn new(limits: StoreLimits) -> MemoryStore {
        // A new feed for each process: its cursors mean nothing to another one.
        let epoch = getrandom::u64().unwrap_or_else(|_| epoch_ms(std::time::SystemTime::now()));
        MemoryStore::build(
            limits,
            Durability::default(),
            Arc::new(new_feed(limits, epoch, 0)),
        )
    }

    /// An empty store whose changes go through `journal` and whose feed is `feed` (appended by
    /// the journal's writer; stored games are put back with [`MemoryStore::restore`]).
    #[must_use]
    pub fn with_journal(
        limits: StoreLimits,
        journal: Arc<Journal>,
        feed: Arc<FeedLog>,
    ) -> MemoryStore {
        MemoryStore::build(limits, Durability::journaled(journal), feed)
    }

    fn build(limits: StoreLimits, durable: Durability, feed: Arc<FeedLog>) -> MemoryStore {
        let inner = Arc::new(Inner::new(limits, durable, feed));
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
        MemoryStore {
            inner,
            timer,
            presence: crate::store::presence::Presence::new(),
        }
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
        header: Arc<GameHeader>,
        record: GameRecord,
        create_request: Option<&str>,
    ) -> Vec<GameId> {
        let inner = &self.inner;
        let id = header.id;
        let record = record.abandoned_after(inner.limits.abandon_after);
        let ended_ms = record.ended_at_ms();
        if let Some(rid) = create_request {
            inner.remember_restored(rid, &header, &record);
        }
        if ended_ms.is_none() {
            inner
                .feed
                .restore_running(FeedEvent::created(header.clone()));
        }
        let entry = Arc::new(GameEntry::new(header, record, 0));
        inner.insert(entry.clone());
        match ended_ms {
            None => {
                inner.live.fetch_add(1, Ordering::AcqRel);
                let mut state = entry.lock();
                // An ongoing game's record is held as it is: opening it unpacks nothing.
                if let Ok(mut open) = state.open(&entry.header, None, Now::read()) {
                    inner.rearm(id, &mut open);
                }
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

    /// Puts a player token back in force (read back from storage).
    pub fn restore_token(&self, id: TokenId, digest: TokenDigest, player: PlayerId) {
        self.inner.tokens.insert(id, digest, player);
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

impl Games for MemoryStore {
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
        holder: Holder,
    ) -> Result<(chessd_rules::Color, Option<chessd_rules::Color>), ServiceError> {
        // Read under the game's lock only; nothing changes, so no journal place is taken.
        let entry = self.inner.find(id)?;
        let (seats, turn) = entry.lock().held.seats_and_turn();
        let seat = holder.seat_in(&seats, &entry.header.players)?;
        Ok((seat, turn))
    }

    async fn get(&self, id: GameId) -> Result<GameView, ServiceError> {
        self.inner
            .on_game(id, None, |entry, state, now, _| {
                Ok(state.record.view(&entry.header, now))
            })
            .await
    }

    async fn list(&self, query: ListQuery) -> Result<GamePage, ServiceError> {
        Ok(self.inner.list(&query))
    }

    async fn act<A: Admit>(
        &self,
        id: GameId,
        holder: Holder,
        action: Action,
        admit: A,
    ) -> Result<Acted, ServiceError> {
        let inner = &self.inner;
        let request_id = action.request_id();
        let request_key = request_id.map(|rid| inner.hasher.hash_one(rid.as_str()));
        // Whichever of the two closures answers the call takes `admit`.
        let admit = Mutex::new(Some(admit));
        let take_admit = || admit.lock().unwrap_or_else(PoisonError::into_inner).take();
        inner
            .on_game_or_packed(
                id,
                request_id,
                |entry, packed| {
                    if !matches!(action, Action::Move { .. }) {
                        return None;
                    }
                    let seat = match holder.seat_in(&packed.seats(), &entry.header.players) {
                        Ok(seat) => seat,
                        Err(e) => return Some(Err(e.into())),
                    };
                    let refusal = packed.late_move(&entry.header, seat, request_key)?;
                    let admit = take_admit()?;
                    Some(admit(seat, None).and(Err(refusal.into())))
                },
                |entry, state, now, events| {
                    let seat = holder.seat_in(state.record.seats(), &entry.header.players)?;
                    let admit = take_admit()
                        .ok_or_else(|| ServiceError::Internal("a call admitted twice".into()))?;
                    admit(seat, state.record.turn())?;
                    let played = state
                        .record
                        .apply(seat, &action, request_key, now, events)?;
                    Ok(Acted {
                        played,
                        view: state.record.view(&entry.header, now),
                    })
                },
            )
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
                    return Err(StreamError::SeqOutOfRange {
                        after_seq,
                        last_seq,
                    }
                    .into());
                }
                let live = if state.record.is_over() {
                    None
                } else {
                    let tx = state
                        .watchers
                        .get_or_insert_with(|| broadcast::channel(limits.watch_buffer.max(1)).0);
                    if tx.receiver_count() >= limits.max_watchers_per_game {
                        return Err(LimitError::TooManyWatchers {
                            limit: limits.max_watchers_per_game,
                        }
                        .into());
                    }
                    Some(tx.subscribe())
                };
                let replay = if after_seq == 0 {
                    Replay::snapshot(state.record.view(&entry.header, now), now.wall)
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

    async fn stats(&self, labels: &Labels) -> Result<Stats, ServiceError> {
        if !labels.is_empty() {
            return Ok(self.inner.labelled_stats(labels));
        }
        let variants = crate::game::served::served()
            .map(|variant| {
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

impl FeedStore for MemoryStore {
    async fn feed(
        &self,
        after: Option<FeedCursor>,
        player: Option<PlayerId>,
    ) -> Result<FeedSubscription, ServiceError> {
        self.inner.feed.subscribe(after.as_ref(), player.as_ref())
    }

    async fn feed_page(
        &self,
        after: &FeedCursor,
        limit: usize,
    ) -> Result<Vec<Arc<FeedEntry>>, ServiceError> {
        self.inner.feed.page(after, limit)
    }
}

impl TokenStore for MemoryStore {
    async fn issue_player_token(&self, player: PlayerId) -> Result<IssuedToken, ServiceError> {
        let inner = &self.inner;
        let place = inner.durable.reserve().await?;
        let issued = inner.tokens.issue(player)?;
        if let Some(place) = place {
            let ticket = place.send(
                Change::TokenIssued {
                    id: issued.id,
                    digest: issued.token.digest(),
                    player: issued.player.clone(),
                    at_ms: epoch_ms(std::time::SystemTime::now()),
                },
                None,
            );
            inner.durable.wait(ticket).await?;
        }
        Ok(issued)
    }

    async fn revoke_player_tokens(&self, what: Revoke) -> Result<usize, ServiceError> {
        let inner = &self.inner;
        let place = inner.durable.reserve().await?;
        // Out of force at once; the durable store answers once the file agrees.
        let ended = inner.tokens.revoke(&what);
        let n = ended.len();
        if let Some(place) = place
            && !ended.is_empty()
        {
            let ticket = place.send(Change::TokensRevoked(ended), None);
            inner.durable.wait(ticket).await?;
        }
        Ok(n)
    }

    async fn player_of(&self, token: PlayerToken) -> Result<PlayerId, ServiceError> {
        self.inner.tokens.check(&token)
    }

    fn revocations(&self) -> watch::Receiver<u64> {
        self.inner.tokens.revocations()
    }
}

impl PresenceStore for MemoryStore {
    fn presence(&self) -> &Arc<crate::store::presence::Presence> {
        &self.presence
    }

    async fn read_presence(
        &self,
        id: GameId,
    ) -> Result<chessd_rules::ByColor<crate::game::SeatPresence>, ServiceError> {
        Ok(self.presence.read(id))
    }
}

/// The feed of a store with `limits`, numbered after `last` (0 for a new one).
#[must_use]
pub(super) fn new_feed(limits: StoreLimits, epoch: u64, last: u64) -> FeedLog {
    FeedLog::new(
        epoch,
        limits.feed_retention,
        limits.feed_max_events,
        FEED_LIVE_BUFFER,
        last,
        last,
    )
}

#[cfg(test)]
mod tests;
