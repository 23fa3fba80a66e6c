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
//! Files: here the record and what it reads out, its state in three parts each owned by the
//! file that holds its rules: `history` (the game, the log, the moves taken back, the answered
//! requests; the stored rows and replays), `timing` (its `Timing`: the clock, the first-move timer,
//! the waits since the last move; `clocks` holds their rules: when the clocks start, time given
//! and an arbiter's changes),
//! `offers` (the takeback policy and the standing offers). The rest changes them: `apply`
//! (actions, the flag and abandonment), `takeback` (proposals, answers and the rewind),
//! `claim` (the claim of a game whose side to move left), `setup` (Screen's placements),
//! `entropy` (the players' commit-reveal round before the first move), `catch_up` (the one
//! way back from stored events: a record restored is a new record caught up on them),
//! `answered` (the ring of answered move requests).

mod answered;
mod apply;
mod catch_up;
#[cfg(test)]
mod chance_tests;
mod claim;
mod clocks;
mod entropy;
#[cfg(test)]
mod entropy_tests;
mod history;
mod offers;
mod packed;
mod setup;
mod takeback;
mod timing;

use std::time::{Duration, SystemTime};

use chessd_rules::{
    ByColor, Color, DrawRule,
    any::{AnyGame, AnyPosition},
};
use tokio::time::Instant;

use self::history::History;
use self::offers::Offers;
pub use self::packed::PackedRecord;
use self::timing::Timing;
use super::action::{NewGame, RequestId};
use super::clock::{Clock, ClockReading, TimeControl};
use super::event::EventRow;
use super::header::GameHeader;
use super::log::LogEntry;
use super::replay::Replay;
use super::setup::placeholder;
use super::start::StartRules;
use super::takeback::TakebackPolicy;
use super::time::{Now, epoch_ms, from_epoch_ms, whole_ms, whole_ms_count};
use super::token::Seats;
use super::view::{ChanceView, GameView};

/// A game as storage gives it back (see [`GameRecord::restore`]).
#[derive(Debug)]
pub struct Stored {
    pub start: AnyPosition,
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

/// One game's state, split as its files split the logic: each part is changed by the file
/// that holds its rules.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The game, its log, the moves taken back, the answered requests (`history`).
    history: History,
    /// Digests of the seats' tokens (never the tokens: see `token::TokenDigest`).
    seats: Seats,
    /// The clocks, the first-move timer and the waits since the last move (`clocks`).
    timing: Timing,
    /// The takeback policy and the offers that stand (`offers`).
    offers: Offers,
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
        start: AnyPosition,
        draw_rule: DrawRule,
        time_control: Option<TimeControl>,
        start_rules: StartRules,
        seats: Seats,
        created_at: SystemTime,
        now: Now,
    ) -> GameRecord {
        // A game of a secret setup has no start until both placements are in.
        let start = if start.variant().has_secret_setup() {
            placeholder(start.variant())
        } else {
            start
        };
        let mut record = GameRecord {
            history: History::new(AnyGame::new(start, draw_rule)),
            seats,
            timing: Timing {
                clock: time_control.map(|tc| timing::new_clock(tc, start_rules, start.turn(), now)),
                start: start_rules.into(),
                first_move: None,
                created_ms: epoch_ms(created_at),
                last_move_at: now.mono,
                idle_before_ms: 0,
                abandon_after_ms: u64::MAX,
                claim_after_ms: whole_ms_count(super::presence::default_claim_after(time_control)),
            },
            offers: Offers::new(TakebackPolicy::Off),
        };
        record.history.setup = record.new_setup(now);
        if record.seats.player_entropy() {
            record.history.entropy = Some(Box::default());
        }
        if (record.history.setup.is_some() || record.history.entropy.is_some())
            && let Some(clock) = &mut record.timing.clock
        {
            // Both clocks run during the setup, each until its seat's placement is final
            // (`setup`): the game's clock starts at the reveal. Neither runs during the
            // players' entropy (`entropy`): it starts with the second secret.
            *clock = Clock::idle(clock.control());
        }
        record.arm_first_move(start_rules.waiting_from(created_at), now);
        record
    }

    /// Allows takebacks as `policy` says (a blank game allows none).
    #[must_use]
    pub fn with_takebacks(mut self, policy: TakebackPolicy) -> GameRecord {
        self.offers.policy = policy;
        self
    }

    /// Ends the game once nobody has moved for `after` (the store's `--abandon-after`).
    #[must_use]
    pub fn abandoned_after(mut self, after: Option<Duration>) -> GameRecord {
        self.timing.abandon_after_ms = after.map_or(u64::MAX, |d| {
            u64::try_from(d.as_millis()).map_or(u64::MAX - 1, |ms| ms.min(u64::MAX - 1))
        });
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
        let clocks_ms = self.timing.clock.as_ref().map(|c| {
            ByColor::new_with(|side| {
                u64::try_from(c.remaining(side, now.mono).as_millis()).unwrap_or(u64::MAX)
            })
        });
        self.history.rows_after(after_seq, clocks_ms, request_id)
    }

    /// The latest event's time (milliseconds since the Unix epoch) and kind, which tell it
    /// apart from another event a store may hold at the same seq (a shared store that went
    /// back in time and then on along another line).
    #[must_use]
    pub fn last_event(&self) -> Option<LogEntry> {
        self.history.log.last().copied()
    }

    /// Event `seq`'s time and kind (see [`last_event`](GameRecord::last_event)); `None` for
    /// seq 0 and beyond the last.
    #[must_use]
    pub fn event(&self, seq: u64) -> Option<LogEntry> {
        let index = usize::try_from(seq.checked_sub(1)?).ok()?;
        self.history.log.get(index).copied()
    }

    /// When the game ended, in milliseconds since the Unix epoch (its game-over event).
    #[must_use]
    pub fn ended_at_ms(&self) -> Option<u64> {
        if self.history.game.is_over() {
            self.history.log.last().map(|e| e.at_ms)
        } else {
            None
        }
    }

    /// The seats' token digests (for storage, and for `Holder::seat_in`).
    #[must_use]
    pub fn seats(&self) -> &Seats {
        &self.seats
    }

    #[must_use]
    pub fn game(&self) -> &AnyGame {
        &self.history.game
    }

    #[must_use]
    pub fn is_over(&self) -> bool {
        self.history.game.is_over()
    }

    /// The side to move, `None` once the game is over.
    #[must_use]
    pub fn turn(&self) -> Option<Color> {
        (!self.history.game.is_over()).then(|| self.history.game.position().turn())
    }

    /// The seq of the latest event (0 before any).
    #[must_use]
    pub fn last_seq(&self) -> u64 {
        self.history.last_seq()
    }

    /// When the game ends by itself if nobody acts, while it goes on: the running side's flag
    /// falls, the first-move timer runs out, or the game is abandoned, whichever comes first.
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        if self.history.game.is_over() {
            return None;
        }
        let flag = self.timing.clock.as_ref().and_then(Clock::deadline);
        let first_move = self.timing.first_move.map(|(_, mono)| mono);
        [
            flag,
            first_move,
            self.timing.abandon_deadline(),
            self.setup_deadline(),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// Times abandonment from the wall time of the last move or takeback in the log (or of the
    /// creation)
    /// rather than from when this process read the game. For a store shared by several
    /// processes (Redis replicas): the game sat idle while no process held it, and unlike a
    /// restart's downtime that counts, or a game would never be abandoned once the replica that
    /// saw its last move is gone.
    pub fn idle_since_last_move(&mut self, now: Now) {
        let moved = self
            .history
            .last_moved()
            .map_or(self.timing.created_at(), |e| from_epoch_ms(e.at_ms));
        self.timing.last_move_at = now.mono;
        self.timing.idle_before_ms = epoch_ms(now.wall).saturating_sub(epoch_ms(moved));
    }

    /// The game as it is at `now`, for rendering outside the lock.
    #[must_use]
    pub fn view(&self, header: &GameHeader, now: Now) -> GameView {
        GameView {
            id: header.id,
            players: header.players.clone(),
            labels: header.labels.clone(),
            game: self.history.game.clone(),
            time_control: self.timing.clock.as_ref().map(Clock::control),
            clocks: match self.setup_pending() {
                Some(_) => self.setup_clocks(now),
                None => self.timing.clock.as_ref().map(|c| ClockReading {
                    remaining: ByColor::new_with(|side| c.remaining(side, now.mono)),
                    running: if self.history.game.is_over() {
                        None
                    } else {
                        c.running_at(now.mono)
                    },
                    read_at: now.wall,
                    byoyomi: c.control().byoyomi,
                }),
            },
            start_rules: self.timing.start_rules(),
            first_move_deadline: self.first_move_deadline(),
            draw_offer: self.offers.draw,
            takebacks: self.offers.policy,
            takeback_offer: self.offers.takeback,
            last_seq: self.last_seq(),
            created_at: self.timing.created_at(),
            claim_after: self.timing.claim_after(),
            turn_began: self.turn_began(now),
            chance: self.seats.seed().map(|seed| ChanceView {
                commitment: seed.commitment(),
                seed: self.history.game.is_over().then(|| seed.clone()),
            }),
            setup: self.setup_view(now),
            entropy: self.entropy().cloned(),
            public_delay: header.public_delay(),
            delayed: false,
        }
    }

    /// The events after `after_seq` (at most `last_seq`), to be made outside the lock.
    #[must_use]
    pub fn replay_after(&self, after_seq: u64) -> Replay {
        self.history
            .replay_after(self.timing.clock.as_ref().map(Clock::control), after_seq)
    }

    /// The takeback policy, for fingerprints of retried creations.
    #[must_use]
    pub fn takebacks(&self) -> TakebackPolicy {
        self.offers.policy
    }

    /// The time control, for fingerprints of retried creations.
    #[must_use]
    pub fn time_control(&self) -> Option<TimeControl> {
        self.timing.clock.as_ref().map(Clock::control)
    }

    /// Bytes this game holds on the heap (its fixed size is `size_of::<GameRecord>()`).
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        self.history.heap_bytes()
    }
}
