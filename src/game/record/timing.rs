//! A game's timing state, apart from the rules that change it (`clocks`, `apply`): its clock,
//! the first-move timer, and the waits since the last move that abandonment and claims are
//! timed by; with how a new game's clock starts. `GameRecord` holds it; this file imports
//! nothing of the record, so the record's files can all use it.

use std::time::{Duration, SystemTime};

use chessd_rules::Color;
use tokio::time::Instant;

use crate::game::clock::{Clock, TimeControl};
use crate::game::start::{ClockStart, PackedStartRules, StartRules};
use crate::game::time::{Now, from_epoch_ms};

/// A game's timing: its clock, the first-move timer, and the waits since the last move that
/// abandonment and claims are timed by.
#[derive(Clone, Debug)]
pub(super) struct Timing {
    pub(super) clock: Option<Clock>,
    /// When the clocks start, and the first-move timer (see [`Timing::start_rules`]).
    pub(super) start: PackedStartRules,
    /// While the side to move has still to make its first move under a first-move timer: when
    /// the game is called off, on the wall clock in milliseconds since the Unix epoch (as shown
    /// and stored, and a word where a `SystemTime` takes two) and on the monotonic one (as
    /// timed here).
    pub(super) first_move: Option<(u64, Instant)>,
    /// The creation, in milliseconds since the Unix epoch (as every store keeps it; see
    /// `created_at`).
    pub(super) created_ms: u64,
    /// The monotonic time of the latest move (or of the creation, or of the restart that
    /// brought the game back: downtime counts for nobody, as with clocks).
    pub(super) last_move_at: Instant,
    /// How long the game had already gone without a move at `last_move_at`: zero, except for
    /// a game read from a store shared with other processes (see
    /// `GameRecord::idle_since_last_move`).
    /// (In whole milliseconds, as the fields below: every game a server holds has a record
    /// while it runs, and a `Duration` is twice the size.)
    pub(super) idle_before_ms: u64,
    /// A game with no move for this long is abandoned (see `GameRecord::expire`); `None`:
    /// never.
    /// `u64::MAX`: never.
    pub(super) abandon_after_ms: u64,
    /// How long the side to move must be gone before its opponent may claim the game, in
    /// milliseconds (see `claim_after`).
    pub(super) claim_after_ms: u64,
}

impl Timing {
    /// When the clocks start, and the first-move timer.
    pub(super) fn start_rules(&self) -> StartRules {
        self.start.into()
    }

    /// When the game was created, to the millisecond as every store keeps it (the record
    /// keeps its times and durations in milliseconds, a word each, where a `SystemTime` or a
    /// `Duration` takes two: every game a server holds has a record while it runs).
    pub(super) fn created_at(&self) -> SystemTime {
        from_epoch_ms(self.created_ms)
    }

    pub(super) fn claim_after(&self) -> Duration {
        Duration::from_millis(self.claim_after_ms)
    }

    /// A move or a takeback at `now`: the waits for the side now to move start over.
    pub(super) fn moved(&mut self, now: Now) {
        self.last_move_at = now.mono;
        self.idle_before_ms = 0;
    }

    pub(super) fn idle_before(&self) -> Duration {
        Duration::from_millis(self.idle_before_ms)
    }

    /// When the game is abandoned if nobody moves.
    pub(super) fn abandon_deadline(&self) -> Option<Instant> {
        (self.abandon_after_ms != u64::MAX).then_some(())?;
        let after = Duration::from_millis(self.abandon_after_ms);
        self.last_move_at
            .checked_add(after.saturating_sub(self.idle_before()))
    }
}

/// A new game's clock, started as `rules` say: from `now`, idle until both sides have moved,
/// or armed from the scheduled start.
pub(super) fn new_clock(tc: TimeControl, rules: StartRules, turn: Color, now: Now) -> Clock {
    match rules.clock_start {
        ClockStart::OnCreation => Clock::start(tc, turn, now.mono),
        ClockStart::AfterFirstMoves => Clock::idle(tc),
        ClockStart::At(at) => Clock::start(tc, turn, mono_at(at, now).max(now.mono)),
    }
}

/// `now` as it was at the stored wall time `at_ms`: a restored row replayed at its own time.
pub(super) fn now_at(at_ms: u64, now: Now) -> Now {
    let wall = from_epoch_ms(at_ms);
    Now {
        wall,
        mono: mono_at(wall, now),
    }
}

/// The monotonic instant of wall time `at`, as read at `now`.
pub(super) fn mono_at(at: SystemTime, now: Now) -> Instant {
    match at.duration_since(now.wall) {
        Ok(ahead) => now.mono + ahead,
        Err(e) => now.mono.checked_sub(e.duration()).unwrap_or(now.mono),
    }
}
