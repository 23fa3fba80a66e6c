//! One game as the memory store holds it: what never changes outside the lock
//! ([`GameEntry`]), the rest inside ([`EntryState`]; its record in `held`), a call's view of
//! it with the record unpacked ([`Open`]), and the hand-off of its events to its watchers.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use chessd_rules::any::AnyVariant;
use tokio::sync::broadcast;

use crate::error::ServiceError;
use crate::game::{Event, GameHeader, GameId, GameRecord, GameStatus, Now};
use crate::store::game_store::GameFilter;
use crate::store::memory::held::Held;
use crate::store::memory::timer::Deadline;

/// One game.
#[derive(Debug)]
pub(super) struct GameEntry {
    /// Players, labels, start: shared with every feed event about the game.
    pub header: Arc<GameHeader>,
    /// `GameStatus` as a byte, mirrored from the record under the game lock, so ListGames
    /// filters without taking every game's lock.
    status: AtomicU8,
    state: Mutex<EntryState>,
}

/// What changes, under the game's lock.
#[derive(Debug)]
pub(super) struct EntryState {
    /// The record: packed once the game is over.
    pub held: Held,
    /// Live events for watchers; `None` while nobody watches. Bounded by `watch_buffer`.
    pub watchers: Option<broadcast::Sender<Arc<Event>>>,
    /// The earliest deadline queued for this game, if any.
    pub armed: Option<Deadline>,
    /// The journal ticket of the game's latest change (0: none): a call that saw the game
    /// answers only once it is committed.
    pub ticket: u64,
}

/// The state of a game during a call, its record unpacked: the fields of [`EntryState`] with
/// the record itself in place of its holder.
pub(super) struct Open<'a> {
    pub record: &'a mut GameRecord,
    pub watchers: &'a mut Option<broadcast::Sender<Arc<Event>>>,
    pub armed: &'a mut Option<Deadline>,
    pub ticket: &'a mut u64,
}

impl EntryState {
    /// The state with its record unpacked for a call that may change it (a finished game's
    /// stays unpacked until [`Held::settle`]).
    pub(super) fn open(
        &mut self,
        header: &GameHeader,
        abandon_after: Option<std::time::Duration>,
        now: Now,
    ) -> Result<Open<'_>, ServiceError> {
        let record = self.held.live(header, abandon_after, now)?;
        Ok(Open {
            record,
            watchers: &mut self.watchers,
            armed: &mut self.armed,
            ticket: &mut self.ticket,
        })
    }
}

impl GameEntry {
    /// An entry for `record` (packed if the game is over), whose creation (if journaled) has
    /// ticket `ticket`.
    #[must_use]
    pub(super) fn new(header: Arc<GameHeader>, record: GameRecord, ticket: u64) -> GameEntry {
        let status = GameStatus::of(record.game().outcome());
        let held = Held::of(record, &header, Now::read());
        GameEntry {
            header,
            status: AtomicU8::new(status as u8),
            state: Mutex::new(EntryState {
                held,
                watchers: None,
                armed: None,
                ticket,
            }),
        }
    }

    /// The game's lock. A poisoned lock (a panic inside a critical section, which the code
    /// avoids) is taken over rather than failing every later request on this game.
    pub(super) fn lock(&self) -> MutexGuard<'_, EntryState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(super) fn id(&self) -> GameId {
        self.header.id
    }

    pub(super) fn variant(&self) -> AnyVariant {
        self.header.variant()
    }

    pub(super) fn status(&self) -> GameStatus {
        match self.status.load(Ordering::Acquire) {
            0 => GameStatus::Ongoing,
            1 => GameStatus::Finished,
            _ => GameStatus::Aborted,
        }
    }

    /// Mirrors the record's status (call under the lock, after the game ended).
    pub(super) fn set_status(&self, status: GameStatus) {
        self.status.store(status as u8, Ordering::Release);
    }

    pub(super) fn matches(&self, filter: &GameFilter) -> bool {
        filter.matches(
            self.variant(),
            self.status(),
            &self.header.players,
            &self.header.labels,
        )
    }
}

/// Sends `events` to the game's watchers, and drops the channel once nobody listens or the game
/// has ended (receivers still get what was sent before).
pub(super) fn publish(
    watchers: &mut Option<broadcast::Sender<Arc<Event>>>,
    events: Vec<Event>,
    ended: bool,
) {
    if let Some(tx) = watchers {
        for event in events {
            // An error means every receiver is gone.
            if tx.send(Arc::new(event)).is_err() {
                *watchers = None;
                break;
            }
        }
    }
    if ended || watchers.as_ref().is_some_and(|tx| tx.receiver_count() == 0) {
        *watchers = None;
    }
}
