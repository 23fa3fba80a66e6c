//! `GameRecord`: one game's rules of play on top of the engine's `Game`: seats and their
//! token digests, the clock, draw offers, idempotent move retries and the event log.
//!
//! It is synchronous and does no I/O: every change takes the current time as an argument and
//! appends the events it caused to a caller's vector, which the store then publishes. Every
//! store uses it as is.
//!
//! Draw offers: a player may offer at any time; the offer stands until the opponent accepts or
//! declines it, or plays a move (which declines it without a separate event). Offering while the
//! opponent's offer stands accepts it. Offering again while one's own offer stands changes
//! nothing.
//!
//! Takebacks (see `game::takeback` for the rule): the moves taken back leave the game's move
//! list for `undone`, and the log keeps one entry for the takeback, so a move entry's move is
//! found by walking back from the end when a takeback follows it.
//!
//! Files: here the record's state and what it reads out; `apply` (actions, the flag and
//! abandonment), `clocks` (when the clocks start, the first-move timer, time given and an
//! arbiter's changes), `takeback` (proposals, answers and the rewind), `claim` (the claim of
//! a game whose side to move left), `catch_up` (the one way back from stored events: a record
//! restored is a new record caught up on them), `answered` (the ring of answered move
//! requests).

mod answered;
mod apply;
mod catch_up;
mod claim;
mod clocks;
mod takeback;

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use chessd_rules::{ByColor, Color, DrawRule, Game, Move, Position, Rules};
use tokio::time::Instant;

use self::answered::AnsweredRing;
use super::action::{NewGame, RequestId};
use super::clock::{Clock, ClockReading, TimeControl};
use super::event::EventRow;
use super::header::GameHeader;
use super::log::{LogEntry, LogKind};
use super::replay::{Replay, mover_of};
use super::start::StartRules;
use super::takeback::{Rewound, TakebackPolicy, any_taken_back, rewind};
use super::time::{Now, from_epoch_ms, whole_ms};
use super::token::Seats;
use super::view::GameView;

/// A game as storage gives it back (see [`GameRecord::restore`]).
#[derive(Debug)]
pub struct Stored {
    pub start: Position,
    pub draw_rule: DrawRule,
    pub time_control: Option<TimeControl>,
    pub start_rules: StartRules,
    pub takebacks: TakebackPolicy,
    pub seats: Seats,
    pub created_at: SystemTime,
    /// Every event, seq 1 first.
    pub events: Vec<EventRow>,
    /// Time the side to move had used since the last event when the server was last known to
    /// be running (it is charged; the downtime after it is not).
    pub charged: Duration,
    /// The game's grace period before a claim (see `presence`).
    pub claim_after: Duration,
}

/// One game's state.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Shared with the views handed out: a view takes a reference, not a copy of every move,
    /// and the next change copies the game only if a view or a clone still holds it (answers
    /// are encoded and dropped long before the next move; the Redis store clones a record it
    /// acts on unread, to go back to if its append finds the copy stale).
    game: Arc<Game>,
    /// Digests of the seats' tokens (never the tokens: see `token::TokenDigest`).
    seats: Seats,
    clock: Option<Clock>,
    /// When the clocks start, and the first-move timer.
    start_rules: StartRules,
    /// While the side to move has still to make its first move under a first-move timer: when
    /// the game is called off, on the wall clock (as shown and stored) and on the monotonic one
    /// (as timed here).
    first_move: Option<(SystemTime, Instant)>,
    /// The side whose draw offer stands.
    draw_offer: Option<Color>,
    takebacks: TakebackPolicy,
    /// The side whose takeback proposal stands.
    takeback_offer: Option<Color>,
    /// Every move taken back, earliest takeback first, each takeback's moves in the order they
    /// were played (empty in a game without takebacks).
    undone: Vec<Move>,
    /// One entry per event: `log[i]` has seq `i + 1`.
    log: Vec<LogEntry>,
    /// Request ids of recent moves.
    answered: AnsweredRing,
    created_at: SystemTime,
    /// The monotonic time of the latest move (or of the creation, or of the restart that
    /// brought the game back: downtime counts for nobody, as with clocks).
    last_move_at: Instant,
    /// How long the game had already gone without a move at `last_move_at`: zero, except for
    /// a game read from a store shared with other processes (see
    /// [`GameRecord::idle_since_last_move`]).
    idle_before: Duration,
    /// A game with no move for this long is abandoned (see [`GameRecord::expire`]); `None`:
    /// never.
    abandon_after: Option<Duration>,
    /// How long the side to move must be gone before its opponent may claim the game.
    claim_after: Duration,
}

impl GameRecord {
    /// A new game. The start position must not be decided already (the caller checks).
    #[must_use]
    pub fn new(new: &NewGame, seats: Seats, now: Now) -> GameRecord {
        GameRecord::blank(
            new.start,
            new.draw_rule,
            new.time_control,
            new.start_rules,
            seats,
            // Every store keeps creation times in milliseconds; rounding here makes the
            // creating process report the same time as one that reloads the game.
            whole_ms(now.wall),
            now,
        )
        .with_takebacks(new.takebacks)
        .claimable_after(new.claim_after)
    }

    /// A game with no events yet, created at `created_at`, its clock started as `start_rules`
    /// say (from `now` when on creation).
    fn blank(
        start: Position,
        draw_rule: DrawRule,
        time_control: Option<TimeControl>,
        start_rules: StartRules,
        seats: Seats,
        created_at: SystemTime,
        now: Now,
    ) -> GameRecord {
        let mut record = GameRecord {
            game: Arc::new(Game::new(start, draw_rule)),
            seats,
            clock: time_control.map(|tc| clocks::new_clock(tc, start_rules, start.turn(), now)),
            start_rules,
            first_move: None,
            draw_offer: None,
            takebacks: TakebackPolicy::Off,
            takeback_offer: None,
            undone: Vec::new(),
            log: Vec::new(),
            answered: AnsweredRing::default(),
            created_at,
            last_move_at: now.mono,
            idle_before: Duration::ZERO,
            abandon_after: None,
            claim_after: super::presence::default_claim_after(time_control),
        };
        record.arm_first_move(start_rules.waiting_from(created_at), now);
        record
    }

    /// Allows takebacks as `policy` says (a blank game allows none).
    #[must_use]
    pub fn with_takebacks(mut self, policy: TakebackPolicy) -> GameRecord {
        self.takebacks = policy;
        self
    }

    /// Ends the game once nobody has moved for `after` (the store's `--abandon-after`).
    #[must_use]
    pub fn abandoned_after(mut self, after: Option<Duration>) -> GameRecord {
        self.abandon_after = after;
        self
    }

    /// The events after `after_seq` as storage keeps them, read at `now` (right after the
    /// action that made them). `request_id` is the request id of the move among them, if any.
    #[must_use]
    pub fn rows_after(
        &self,
        after_seq: u64,
        now: Now,
        request_id: Option<&RequestId>,
    ) -> Vec<EventRow> {
        let new = self.log.get(after_seq as usize..).unwrap_or_default();
        // The moves of the new move entries, and the line's length before the first.
        let rewound;
        let (moves, mut depth) = if any_taken_back(new) {
            // A log that does not fit the moves (a bug) gives move rows without their move,
            // which no store restores: the fault shows rather than a wrong game.
            rewound = rewind(self.game.moves(), &self.undone, new).unwrap_or(Rewound {
                line: Vec::new(),
                moves: Vec::new(),
            });
            (&rewound.moves[..], rewound.line.len())
        } else {
            let all = self.game.moves();
            let new_moves = new
                .iter()
                .filter(|e| matches!(e.kind, LogKind::Move { .. }))
                .count();
            let first = all.len().saturating_sub(new_moves);
            (&all[first..], first)
        };
        let mut index = 0;
        let clocks_ms = self.clock.as_ref().map(|c| {
            ByColor::new_with(|side| {
                u64::try_from(c.remaining(side, now.mono).as_millis()).unwrap_or(u64::MAX)
            })
        });
        let mut seq = after_seq;
        new.iter()
            .map(|entry| {
                seq += 1;
                let mut row = EventRow {
                    seq,
                    at_ms: entry.at_ms,
                    kind: entry.kind,
                    mv: None,
                    seat: None,
                    request_id: None,
                    clocks_ms,
                    outcome: None,
                };
                match entry.kind {
                    LogKind::Move { .. } => {
                        row.mv = moves.get(index).copied();
                        row.seat = Some(mover_of(&self.game, depth));
                        row.request_id = request_id.map(|r| r.as_str().to_owned());
                        index += 1;
                        depth += 1;
                    }
                    LogKind::DrawOffered(by)
                    | LogKind::DrawDeclined(by)
                    | LogKind::TakebackProposed(by)
                    | LogKind::TakebackDeclined(by) => row.seat = Some(by),
                    LogKind::TakenBack { plies, by, .. } => {
                        row.seat = Some(by);
                        depth = depth.saturating_sub(usize::from(plies));
                    }
                    LogKind::GameOver => row.outcome = self.game.outcome(),
                    LogKind::ClockChanged { change, .. } => row.seat = change.by(),
                }
                row
            })
            .collect()
    }

    /// The latest event's time (milliseconds since the Unix epoch) and kind, which tell it
    /// apart from another event a store may hold at the same seq (a shared store that went
    /// back in time and then on along another line).
    #[must_use]
    pub fn last_event(&self) -> Option<LogEntry> {
        self.log.last().copied()
    }

    /// Event `seq`'s time and kind (see [`last_event`](GameRecord::last_event)); `None` for
    /// seq 0 and beyond the last.
    #[must_use]
    pub fn event(&self, seq: u64) -> Option<LogEntry> {
        let index = usize::try_from(seq.checked_sub(1)?).ok()?;
        self.log.get(index).copied()
    }

    /// When the game ended, in milliseconds since the Unix epoch (its game-over event).
    #[must_use]
    pub fn ended_at_ms(&self) -> Option<u64> {
        if self.game.is_over() {
            self.log.last().map(|e| e.at_ms)
        } else {
            None
        }
    }

    /// The seats' token digests (for storage, and for `Holder::seat_in`).
    #[must_use]
    pub fn seats(&self) -> &Seats {
        &self.seats
    }

    /// The game to change: copied first only if a view handed out earlier still shares it.
    fn game_mut(&mut self) -> &mut Game {
        Arc::make_mut(&mut self.game)
    }

    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    #[must_use]
    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The side to move, `None` once the game is over.
    #[must_use]
    pub fn turn(&self) -> Option<Color> {
        (!self.game.is_over()).then(|| self.game.position().turn())
    }

    /// The seq of the latest event (0 before any).
    #[must_use]
    pub fn last_seq(&self) -> u64 {
        self.log.len() as u64
    }

    /// When the game ends by itself if nobody acts, while it goes on: the running side's flag
    /// falls, the first-move timer runs out, or the game is abandoned, whichever comes first.
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        if self.game.is_over() {
            return None;
        }
        let flag = self.clock.as_ref().and_then(Clock::deadline);
        let first_move = self.first_move.map(|(_, mono)| mono);
        [flag, first_move, self.abandon_deadline()]
            .into_iter()
            .flatten()
            .min()
    }

    fn abandon_deadline(&self) -> Option<Instant> {
        self.abandon_after.and_then(|after| {
            self.last_move_at
                .checked_add(after.saturating_sub(self.idle_before))
        })
    }

    /// Times abandonment from the wall time of the last move or takeback in the log (or of the
    /// creation)
    /// rather than from when this process read the game. For a store shared by several
    /// processes (Redis replicas): the game sat idle while no process held it, and unlike a
    /// restart's downtime that counts, or a game would never be abandoned once the replica that
    /// saw its last move is gone.
    pub fn idle_since_last_move(&mut self, now: Now) {
        let moved_ms = self
            .log
            .iter()
            .rev()
            .find(|e| matches!(e.kind, LogKind::Move { .. } | LogKind::TakenBack { .. }))
            .map(|e| e.at_ms);
        let moved = moved_ms.map_or(self.created_at, from_epoch_ms);
        self.last_move_at = now.mono;
        self.idle_before = now.wall.duration_since(moved).unwrap_or_default();
    }

    /// The game as it is at `now`, for rendering outside the lock.
    #[must_use]
    pub fn view(&self, header: &GameHeader, now: Now) -> GameView {
        GameView {
            id: header.id,
            players: header.players.clone(),
            labels: header.labels.clone(),
            game: self.game.clone(),
            time_control: self.clock.as_ref().map(Clock::control),
            clocks: self.clock.as_ref().map(|c| ClockReading {
                remaining: ByColor::new_with(|side| c.remaining(side, now.mono)),
                running: if self.game.is_over() {
                    None
                } else {
                    c.running_at(now.mono)
                },
                read_at: now.wall,
            }),
            start_rules: self.start_rules,
            first_move_deadline: self.first_move_deadline(),
            draw_offer: self.draw_offer,
            takebacks: self.takebacks,
            takeback_offer: self.takeback_offer,
            last_seq: self.last_seq(),
            created_at: self.created_at,
            claim_after: self.claim_after,
            turn_began: self.turn_began(now),
        }
    }

    /// The events after `after_seq` (at most `last_seq`), to be made outside the lock.
    #[must_use]
    pub fn replay_after(&self, after_seq: u64) -> Replay {
        Replay::after(
            &self.game,
            &self.log,
            &self.undone,
            self.clock.is_some(),
            after_seq,
        )
    }

    /// The takeback policy, for fingerprints of retried creations.
    #[must_use]
    pub fn takebacks(&self) -> TakebackPolicy {
        self.takebacks
    }

    /// The time control, for fingerprints of retried creations.
    #[must_use]
    pub fn time_control(&self) -> Option<TimeControl> {
        self.clock.as_ref().map(Clock::control)
    }

    /// Bytes this game holds on the heap (its fixed size is `size_of::<GameRecord>()`).
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        size_of_val(self.game.moves())
            + (self.game.ply() as usize + 1) * size_of::<u64>()
            + self.log.capacity() * size_of::<LogEntry>()
            + self.answered.heap_bytes()
            + self.undone.capacity() * size_of::<Move>()
    }
}
