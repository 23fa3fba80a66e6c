//! The presence registry of one process: which seats watch which game here (a
//! [`PresenceGuard`] per seat's WatchGame stream), since when they are connected or gone, and a
//! `watch` channel per game that this process's watchers follow ([`PresenceWatch`]).
//!
//! Presence is kept apart from the games' records: it is not history, it is never journaled,
//! and a restarted process starts with every seat gone (`SeatPresence::absent_from` then
//! counts from the start, so the restart never makes a claim possible at once). The memory and
//! SQLite stores use it alone; the Redis store also hears of other replicas' seats through it
//! (`set_remote`) and writes this replica's changes for them (the `outbox`, see
//! `redis::presence`).
//!
//! The entry of a game stays while anyone watches it here or a seat of it is connected; a gone
//! entry nobody follows is dropped once it is older than the longest grace period, so the
//! registry does not grow with games that ended.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::SystemTime;

use chessd_rules::{ByColor, Color};
use tokio::sync::{mpsc, watch};

use crate::game::presence::MAX_CLAIM_AFTER;
use crate::game::{GameId, SeatPresence, whole_ms};

/// Every this many joins and follows, gone entries nobody follows are pruned.
const PRUNE_EVERY: u64 = 4096;

/// A seat of this process went from no stream to one, or from one to none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalChange {
    pub game: GameId,
    pub seat: Color,
    pub connected: bool,
    /// When, as this registry's `since` has it: Redis stores this very time, so that when the
    /// other replicas' word on the seat comes back it agrees with the one told here.
    pub at: SystemTime,
}

/// What another replica's streams say of a seat (Redis).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Remote {
    /// A stream of the seat is open on another replica (its lease is current).
    pub connected: bool,
    /// When the seat was last seen connected anywhere; when it last connected anywhere.
    pub seen: Option<SystemTime>,
    pub connected_since: Option<SystemTime>,
}

#[derive(Clone, Copy, Debug, Default)]
struct SeatState {
    /// Streams open here.
    local: usize,
    remote: Remote,
    since: Option<SystemTime>,
}

impl SeatState {
    fn connected(&self) -> bool {
        self.local > 0 || self.remote.connected
    }
}

#[derive(Debug)]
struct GamePresence {
    seats: ByColor<SeatState>,
    tx: watch::Sender<ByColor<SeatPresence>>,
    /// `PresenceWatch`es open.
    followers: usize,
}

/// One process's presence registry.
#[derive(Debug)]
pub struct Presence {
    games: Mutex<HashMap<GameId, GamePresence>>,
    /// When this registry began: absences count from no earlier.
    started: SystemTime,
    joins: std::sync::atomic::AtomicU64,
    /// Where local changes go for the other replicas (Redis only). Bounded: a Redis that is
    /// slow or down must not let streams opening and closing queue changes without end, and a
    /// change that finds the queue full is not lost for good (see [`Presence::send`]).
    outbox: OnceLock<mpsc::Sender<LocalChange>>,
}

impl Presence {
    #[must_use]
    pub fn new() -> Arc<Presence> {
        Arc::new(Presence {
            games: Mutex::default(),
            started: SystemTime::now(),
            joins: std::sync::atomic::AtomicU64::new(0),
            outbox: OnceLock::new(),
        })
    }

    /// Sends this process's changes to `outbox` from now on (set once, by the Redis store).
    pub fn forward_to(&self, outbox: mpsc::Sender<LocalChange>) {
        let _ = self.outbox.set(outbox);
    }

    /// When this registry began.
    #[must_use]
    pub fn started(&self) -> SystemTime {
        self.started
    }

    fn games(&self) -> MutexGuard<'_, HashMap<GameId, GamePresence>> {
        self.games.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn presence_of(&self, state: &SeatState) -> SeatPresence {
        SeatPresence {
            connected: state.connected(),
            since: state.since,
            absent_from: state.since.unwrap_or(self.started).max(self.started),
        }
    }

    fn entry<'a>(
        &self,
        games: &'a mut HashMap<GameId, GamePresence>,
        game: GameId,
    ) -> &'a mut GamePresence {
        games.entry(game).or_insert_with(|| GamePresence {
            seats: ByColor::default(),
            tx: watch::channel(ByColor::new(
                SeatPresence::unseen(self.started),
                SeatPresence::unseen(self.started),
            ))
            .0,
            followers: 0,
        })
    }

    /// Tells the followers of `game` its presence now.
    fn publish(&self, entry: &GamePresence) {
        let now = ByColor::new_with(|c| self.presence_of(&entry.seats[c]));
        entry.tx.send_if_modified(|old| {
            let changed = *old != now;
            *old = now;
            changed
        });
    }

    /// A stream of `seat` opened here; it counts until the guard is dropped.
    #[must_use]
    pub fn join(self: &Arc<Self>, game: GameId, seat: Color) -> PresenceGuard {
        self.count_call();
        let now = whole_ms(SystemTime::now());
        let first = {
            let mut games = self.games();
            let entry = self.entry(&mut games, game);
            let state = &mut entry.seats[seat];
            if !state.connected() {
                state.since = Some(now);
            }
            state.local += 1;
            let first = state.local == 1;
            self.publish(entry);
            first
        };
        if first {
            self.send(LocalChange {
                game,
                seat,
                connected: true,
                at: now,
            });
        }
        PresenceGuard {
            registry: self.clone(),
            game,
            seat,
        }
    }

    fn leave(&self, game: GameId, seat: Color) {
        let now = whole_ms(SystemTime::now());
        let last = {
            let mut games = self.games();
            let Some(entry) = games.get_mut(&game) else {
                return;
            };
            let state = &mut entry.seats[seat];
            state.local = state.local.saturating_sub(1);
            let last = state.local == 0;
            if !state.connected() {
                state.since = Some(now);
            }
            self.publish(entry);
            last
        };
        if last {
            self.send(LocalChange {
                game,
                seat,
                connected: false,
                at: now,
            });
        }
    }

    fn send(&self, change: LocalChange) {
        if let Some(outbox) = self.outbox.get()
            && let Err(mpsc::error::TrySendError::Full(change)) = outbox.try_send(change)
        {
            // The presence task renews every held seat's lease and reads every followed game
            // again each round, so a change dropped here shows within a round; a closed
            // queue (the store is gone) needs nobody to know.
            tracing::debug!(game_id = %change.game, "presence change not queued: the queue is full");
        }
    }

    /// Follows `game`'s presence until the watch is dropped.
    #[must_use]
    pub fn follow(self: &Arc<Self>, game: GameId) -> PresenceWatch {
        self.count_call();
        let rx = {
            let mut games = self.games();
            let entry = self.entry(&mut games, game);
            entry.followers += 1;
            entry.tx.subscribe()
        };
        PresenceWatch {
            registry: self.clone(),
            game,
            rx,
        }
    }

    fn unfollow(&self, game: GameId) {
        if let Some(entry) = self.games().get_mut(&game) {
            entry.followers = entry.followers.saturating_sub(1);
        }
    }

    /// Both seats' presence as this process knows it.
    #[must_use]
    pub fn read(&self, game: GameId) -> ByColor<SeatPresence> {
        let games = self.games();
        match games.get(&game) {
            Some(entry) => ByColor::new_with(|c| self.presence_of(&entry.seats[c])),
            None => ByColor::new_with(|_| SeatPresence::unseen(self.started)),
        }
    }

    /// Both seats' presence with what other replicas say of them (`remote`, read from Redis
    /// just now), without keeping it.
    #[must_use]
    pub fn read_with(&self, game: GameId, remote: ByColor<Remote>) -> ByColor<SeatPresence> {
        let games = self.games();
        let local = games.get(&game).map(|e| e.seats);
        ByColor::new_with(|c| {
            let mut state = local.map(|s| s[c]).unwrap_or_default();
            merge(&mut state, remote[c]);
            self.presence_of(&state)
        })
    }

    /// Takes in what other replicas say of `game`'s seats, if anyone here follows the game.
    pub fn set_remote(&self, game: GameId, remote: ByColor<Remote>) {
        let mut games = self.games();
        let Some(entry) = games.get_mut(&game) else {
            return;
        };
        for c in [Color::White, Color::Black] {
            merge(&mut entry.seats[c], remote[c]);
        }
        self.publish(entry);
    }

    /// The seats with a stream open here (their leases to keep).
    #[must_use]
    pub fn held(&self) -> Vec<(GameId, Color)> {
        let games = self.games();
        let mut held = Vec::new();
        for (id, entry) in games.iter() {
            for c in [Color::White, Color::Black] {
                if entry.seats[c].local > 0 {
                    held.push((*id, c));
                }
            }
        }
        held
    }

    /// The games someone here follows.
    #[must_use]
    pub fn followed(&self) -> Vec<GameId> {
        let games = self.games();
        games
            .iter()
            .filter(|(_, e)| e.followers > 0)
            .map(|(id, _)| *id)
            .collect()
    }

    /// Prunes every [`PRUNE_EVERY`] calls.
    fn count_call(&self) {
        if self
            .joins
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            .is_multiple_of(PRUNE_EVERY)
        {
            self.prune();
        }
    }

    /// Drops the entries nobody follows whose seats have been gone for longer than any grace
    /// period.
    fn prune(&self) {
        let Some(old) = SystemTime::now().checked_sub(MAX_CLAIM_AFTER) else {
            return;
        };
        self.games().retain(|_, e| {
            e.followers > 0
                || [Color::White, Color::Black].into_iter().any(|c| {
                    let s = &e.seats[c];
                    s.connected() || s.since.is_some_and(|t| t > old)
                })
        });
    }
}

/// A seat's state with another replica's word on it: connected if either says so; the
/// times the later of the two.
fn merge(state: &mut SeatState, remote: Remote) {
    let was = state.connected();
    state.remote = remote;
    let now = state.connected();
    let told = if now {
        remote.connected_since
    } else {
        remote.seen
    };
    if was != now {
        state.since = told.or(Some(whole_ms(SystemTime::now())));
    }
    if let Some(told) = told
        && state.local == 0
        && state.since.is_none_or(|s| s < told)
    {
        state.since = Some(told);
    }
}

/// A seat's stream counted as connected; dropped with the stream.
#[derive(Debug)]
pub struct PresenceGuard {
    registry: Arc<Presence>,
    game: GameId,
    seat: Color,
}

impl Drop for PresenceGuard {
    fn drop(&mut self) {
        self.registry.leave(self.game, self.seat);
    }
}

/// A watcher's view of a game's presence, as it changes.
#[derive(Debug)]
pub struct PresenceWatch {
    registry: Arc<Presence>,
    game: GameId,
    pub rx: watch::Receiver<ByColor<SeatPresence>>,
}

impl Drop for PresenceWatch {
    fn drop(&mut self) {
        self.registry.unfollow(self.game);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u64) -> GameId {
        GameId::new(
            SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000),
            n,
        )
    }

    /// A seat is connected while any of its streams is open; gone since the last one closed;
    /// followers hear each change.
    #[test]
    fn streams_make_presence() {
        let registry = Presence::new();
        let game = id(1);
        let mut follow = registry.follow(game);
        assert!(!registry.read(game).white().connected);
        let a = registry.join(game, Color::White);
        let b = registry.join(game, Color::White);
        assert!(follow.rx.has_changed().unwrap());
        let seen = *follow.rx.borrow_and_update();
        assert!(seen.white().connected && !seen.black().connected);
        drop(a);
        assert!(registry.read(game).white().connected, "one stream is left");
        drop(b);
        let gone = registry.read(game);
        assert!(!gone.white().connected);
        assert!(gone.white().since.is_some());
        assert!(gone.white().absent_from >= registry.started());
        assert!(!follow.rx.borrow_and_update().white().connected);
    }

    /// Another replica's stream counts as connected; when its lease ends the seat is gone
    /// since it was last seen there.
    #[test]
    fn remote_streams_count() {
        let registry = Presence::new();
        let game = id(2);
        let _follow = registry.follow(game);
        let t = SystemTime::now();
        let on = Remote {
            connected: true,
            seen: Some(t),
            connected_since: Some(t),
        };
        registry.set_remote(game, ByColor::new(Remote::default(), on));
        assert!(registry.read(game).black().connected);
        let off = Remote {
            connected: false,
            ..on
        };
        registry.set_remote(game, ByColor::new(Remote::default(), off));
        let black = *registry.read(game).black();
        assert!(!black.connected);
        assert_eq!(black.since, Some(t));
        assert_eq!(black.absent_from, t.max(registry.started()));
        let read = registry.read_with(id(3), ByColor::new(on, Remote::default()));
        assert!(read.white().connected && !read.black().connected);
    }

    /// An entry nobody follows goes once its seats are gone for longer than any grace period
    /// (a seat never seen at once); a followed or recent one stays.
    #[test]
    fn old_entries_are_pruned() {
        let registry = Presence::new();
        drop(registry.follow(id(5)));
        let _followed = registry.follow(id(6));
        drop(registry.join(id(7), Color::White));
        registry.prune();
        let games = registry.games();
        assert!(!games.contains_key(&id(5)));
        assert!(games.contains_key(&id(6)) && games.contains_key(&id(7)));
    }

    /// The outbox hears only the first stream of a seat and the last one closing.
    #[test]
    fn outbox_hears_transitions() {
        let registry = Presence::new();
        let (tx, mut rx) = mpsc::channel(16);
        registry.forward_to(tx);
        let game = id(4);
        let a = registry.join(game, Color::Black);
        let b = registry.join(game, Color::Black);
        drop(a);
        drop(b);
        let heard: Vec<bool> = std::iter::from_fn(|| rx.try_recv().ok())
            .map(|c| c.connected)
            .collect();
        assert_eq!(heard, [true, false]);
    }

    /// The outbox is told the very time the seat's `since` says, to the millisecond Redis
    /// keeps: another replica's word on the seat, coming back with that time, changes nothing.
    #[test]
    fn outbox_times_agree_with_since() {
        let registry = Presence::new();
        let (tx, mut rx) = mpsc::channel(16);
        registry.forward_to(tx);
        let game = id(8);
        let _follow = registry.follow(game);
        let stream = registry.join(game, Color::White);
        let joined = rx.try_recv().unwrap();
        assert_eq!(Some(joined.at), registry.read(game).white().since);
        drop(stream);
        let left = rx.try_recv().unwrap();
        let gone = *registry.read(game).white();
        assert_eq!(Some(left.at), gone.since);
        assert_eq!(left.at, whole_ms(left.at), "whole milliseconds");
        let back = Remote {
            connected: false,
            seen: Some(left.at),
            connected_since: Some(joined.at),
        };
        registry.set_remote(game, ByColor::new(back, Remote::default()));
        assert_eq!(*registry.read(game).white(), gone);
    }
}
