//! Calls on one game: under its lock, with what has to follow once the lock is released (the
//! journal's commit, metrics, the bookkeeping of a game that just ended), the flag timer kept
//! armed, and finished games kept up to the limits, then forgotten.

use std::sync::PoisonError;
use std::sync::atomic::Ordering;

use chessd_rules::{Color, Outcome};

use crate::error::ServiceError;
use crate::game::{Event, EventKind, FeedEvent, GameId, GameStatus, Now, PackedRecord, RequestId};
use crate::metrics;
use crate::store::journal::{Change, Place};
use crate::store::memory::entry::{GameEntry, Open, publish};
use crate::store::memory::held::Held;
use crate::store::memory::inner::Inner;

/// What a call on one game leaves to do once the game's lock is released.
struct AfterLock<T> {
    result: Result<T, ServiceError>,
    /// The journal ticket to wait for (0: none).
    ticket: u64,
    /// Finished games forgotten to make room.
    forgotten: Vec<GameId>,
}

impl Inner {
    /// Runs `f` on a game under its lock (see `with_game`), then, with a journal, waits until
    /// everything the call saw of the game is committed. `request_id` is a move's.
    pub(super) async fn on_game<T>(
        &self,
        id: GameId,
        request_id: Option<&RequestId>,
        f: impl FnOnce(&GameEntry, &mut Open<'_>, Now, &mut Vec<Event>) -> Result<T, ServiceError>,
    ) -> Result<T, ServiceError> {
        self.on_game_or_packed(id, request_id, |_, _| None, f).await
    }

    /// [`Inner::on_game`], asking `early` first when the game is over and packed: an answer
    /// from it is the call's, the game left packed (a move sent after the end is refused
    /// without rebuilding the game); `None` goes on as `on_game` does.
    pub(super) async fn on_game_or_packed<T>(
        &self,
        id: GameId,
        request_id: Option<&RequestId>,
        early: impl FnOnce(&GameEntry, &PackedRecord) -> Option<Result<T, ServiceError>>,
        f: impl FnOnce(&GameEntry, &mut Open<'_>, Now, &mut Vec<Event>) -> Result<T, ServiceError>,
    ) -> Result<T, ServiceError> {
        let place = self.durable.reserve().await?;
        let done = self.with_game(id, place, request_id, early, f);
        self.durable.forget(done.forgotten).await;
        self.durable.wait(done.ticket).await?;
        done.result
    }

    /// Runs `f` on a game under its lock, after ending it if its flag fell. Publishes the
    /// events `f` produced (with a journal: queues them in `place`, and the writer publishes
    /// them once committed), re-arms the flag timer, and books a game that just ended.
    fn with_game<T>(
        &self,
        id: GameId,
        place: Option<Place>,
        request_id: Option<&RequestId>,
        early: impl FnOnce(&GameEntry, &PackedRecord) -> Option<Result<T, ServiceError>>,
        f: impl FnOnce(&GameEntry, &mut Open<'_>, Now, &mut Vec<Event>) -> Result<T, ServiceError>,
    ) -> AfterLock<T> {
        let entry = match self.find(id) {
            Ok(entry) => entry,
            Err(e) => {
                return AfterLock {
                    result: Err(e),
                    ticket: 0,
                    forgotten: Vec::new(),
                };
            }
        };
        let now = Now::read();
        let mut events = Vec::new();
        let (result, ended, moves, ticket) = {
            let mut guard = entry.lock();
            if let Held::Packed(packed) = &guard.held
                && let Some(result) = early(&entry, packed)
            {
                // Answered once what the call saw of the game is committed, as any call is.
                return AfterLock {
                    result,
                    ticket: guard.ticket,
                    forgotten: Vec::new(),
                };
            }
            let mut state = match guard.open(&entry.header, self.limits.abandon_after, now) {
                Ok(state) => state,
                Err(e) => {
                    return AfterLock {
                        result: Err(e),
                        ticket: 0,
                        forgotten: Vec::new(),
                    };
                }
            };
            let was_over = state.record.is_over();
            let seq_before = state.record.last_seq();
            state.record.expire(now, &mut events);
            let result = f(&entry, &mut state, now, &mut events);
            let ended = !was_over && state.record.is_over();
            let moves = events
                .iter()
                .filter(|e| matches!(e.kind, EventKind::MovePlayed { .. }))
                .count();
            let ply = state.record.game().ply();
            let feed: Vec<FeedEvent> = events
                .iter()
                .filter_map(|e| FeedEvent::of_event(&entry.header, e, ply))
                .collect();
            match place {
                Some(place) if state.record.last_seq() > seq_before => {
                    let rows = state.record.rows_after(seq_before, now, request_id);
                    let publish = state.watchers.clone().map(|tx| (tx, events));
                    if ended
                        || publish
                            .as_ref()
                            .is_some_and(|(tx, _)| tx.receiver_count() == 0)
                    {
                        *state.watchers = None;
                    }
                    let change = Change::Events {
                        game: id,
                        variant: entry.variant(),
                        rows,
                        feed,
                    };
                    *state.ticket = place.send(change, publish);
                }
                // Without a journal (or when nothing changed, an unused place going back to
                // the queue as it is dropped): watchers and the feed get the events now, under
                // the game's lock, so the feed has them in the game's order.
                _ => {
                    publish(state.watchers, events, ended);
                    self.feed.append(feed);
                }
            }
            if ended {
                entry.set_status(GameStatus::of(state.record.game().outcome()));
                if let Some(at) = state.armed.take() {
                    self.deadlines.cancel(at, id);
                }
            } else {
                self.rearm(id, &mut state);
            }
            let ended = ended
                .then(|| {
                    state
                        .record
                        .game()
                        .outcome()
                        .zip(state.record.ended_at_ms())
                })
                .flatten();
            let ticket = *state.ticket;
            // A game that is over (just now, or read by this call) goes back to its packed form.
            guard.held.settle(&entry.header, now);
            (result, ended, moves, ticket)
        };
        // Counted after the lock: the recorder does a map look-up.
        for _ in 0..moves {
            metrics::move_played(entry.variant());
        }
        let forgotten = match ended {
            Some((outcome, ended_ms)) => self.book_finished(&entry, outcome, ended_ms),
            None => Vec::new(),
        };
        AfterLock {
            result,
            ticket,
            forgotten,
        }
    }

    /// Makes sure the flag timer checks this game no later than its deadline.
    pub(super) fn rearm(&self, id: GameId, state: &mut Open<'_>) {
        if let Some(at) = state.record.deadline()
            && let deadline = self.deadlines.deadline(at)
            && state.armed.is_none_or(|armed| deadline < armed)
        {
            if let Some(armed) = state.armed.replace(deadline) {
                self.deadlines.cancel(armed, id);
            }
            self.deadlines.schedule(deadline, id);
        }
    }

    /// A game ended: free its live place, count its result, keep it for a while. Returns the
    /// games forgotten to make room.
    fn book_finished(&self, entry: &GameEntry, outcome: Outcome, ended_ms: u64) -> Vec<GameId> {
        self.live.fetch_sub(1, Ordering::AcqRel);
        metrics::game_ended(entry.variant(), outcome.termination);
        if !outcome.termination.is_abort() {
            let counters = self.results(entry.variant());
            let counter = match outcome.winner {
                Some(Color::White) => &counters.white,
                Some(Color::Black) => &counters.black,
                None => &counters.draws,
            };
            counter.fetch_add(1, Ordering::Relaxed);
        }
        self.keep_finished(entry.id(), ended_ms)
    }

    /// Keeps a finished game, forgetting the oldest beyond the count limit; returns those.
    pub(super) fn keep_finished(&self, id: GameId, ended_ms: u64) -> Vec<GameId> {
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
    pub(super) fn forget_ended_before(&self, cutoff_ms: u64) -> Vec<GameId> {
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
}
