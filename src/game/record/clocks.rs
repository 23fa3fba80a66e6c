//! A record's clocks beyond the moves: when they start (`StartRules::clock_start`), the
//! first-move timer, time a seat gives its opponent (AddTime) and an arbiter's changes
//! (AdjustClock). Every change off the board is one `ClockChanged` log entry, so watchers,
//! resumed watchers and restored records all see the same clocks.
//!
//! Rules:
//! - A seat may give its opponent time while the game goes on, whoever is to move, in a timed
//!   game; the opponent's clock then holds at most [`MAX_CLOCK`].
//! - An arbiter may set, add to or take from either clock while the game goes on; the result
//!   is at most [`MAX_CLOCK`], and never below zero. A running clock set to zero has its flag
//!   fall at once (the next look at the game ends it on time, as any flag).
//! - The first-move timer runs for the side to move until it has made its first move; its
//!   wall-clock deadline counts from the creation (or the scheduled start) for the first mover
//!   and from the first move for the other. A restart does not move it: a deadline passed
//!   while the server was down aborts the game when it is back (an abort has no result).

use std::time::{Duration, SystemTime};

use chessd_rules::{ByColor, Color, Outcome, Termination};
use tokio::time::Instant;

use crate::game::action::ClockAdjust;
use crate::game::clock::Clock;
use crate::game::error::GameError;
use crate::game::error::InputError;
use crate::game::error::PlayError;
use crate::game::event::{Event, clock_event};
use crate::game::log::{LogEntry, LogKind, clock_ms};
use crate::game::record::GameRecord;
use crate::game::record::timing::mono_at;
use crate::game::start::{ClockChange, ClockReason, ClockStart};
use crate::game::time::{Now, epoch_ms, from_epoch_ms, whole_ms};

/// The most a clock may hold after a change off the board (as a time control's initial time).
pub(super) const MAX_CLOCK: Duration = Duration::from_secs(24 * 60 * 60);

impl GameRecord {
    /// Arms the first-move timer for the side to move, waited for since `since`, if the game
    /// has one and that side has yet to make its first move; disarms it otherwise.
    pub(super) fn arm_first_move(&mut self, since: SystemTime, now: Now) {
        self.timing.first_move = match self.timing.start_rules().first_move_timeout {
            Some(timeout) if !self.history.game.is_over() && self.history.game.ply() < 2 => since
                .checked_add(timeout)
                .map(|wall| (epoch_ms(wall), mono_at(wall, now))),
            _ => None,
        };
    }

    /// Re-arms the first-move timer from the log (after a restore or a catch-up): since the
    /// first move, or since the game began waiting for it.
    pub(super) fn rearm_first_move(&mut self, now: Now) {
        // The timer runs from the latest move, or the latest takeback, that left the side to
        // move its first move to make (`arm_first_move` disarms it otherwise).
        let first = self.history.last_moved().map(|e| e.at());
        let since = match (first, self.timing.start_rules().clock_start) {
            (Some(moved), ClockStart::At(at)) => moved.max(at),
            (Some(moved), _) => moved,
            (None, _) => self
                .timing
                .start_rules()
                .waiting_from(self.timing.created_at()),
        };
        self.arm_first_move(since, now);
    }

    /// While the first-move timer runs: its wall-clock deadline.
    #[must_use]
    pub fn first_move_deadline(&self) -> Option<SystemTime> {
        if self.history.game.is_over() {
            return None;
        }
        self.timing.first_move.map(|(wall, _)| from_epoch_ms(wall))
    }

    /// The outcome if the first-move timer ran out by `now`, before any flag fell.
    pub(super) fn no_start(&self, now: Now) -> Option<Outcome> {
        let (_, at) = self.timing.first_move?;
        let flag = self.timing.clock.as_ref().and_then(Clock::deadline);
        (now.mono >= at && flag.is_none_or(|f| at <= f))
            .then_some(Outcome::draw(Termination::NoStart))
    }

    /// After a move at `now`: with the clocks starting after the first moves, they start
    /// once both sides have moved; the other side's first-move timer runs from the move.
    pub(super) fn after_move_clocks(&mut self, now: Now) {
        if self.history.game.is_over() {
            self.timing.first_move = None;
            return;
        }
        if self.timing.start_rules().clock_start == ClockStart::AfterFirstMoves
            && self.history.game.ply() == 2
            && let Some(clock) = &mut self.timing.clock
        {
            clock.begin(self.history.game.position().turn(), now.mono);
        }
        let moved = whole_ms(now.wall);
        let since = match self.timing.start_rules().clock_start {
            ClockStart::At(at) => at.max(moved),
            _ => moved,
        };
        self.arm_first_move(since, now);
    }

    /// Whether the side to move's clock runs (or is armed) with the game as it stands: not
    /// once it is over, and not before both sides have moved when the clocks start after the
    /// first moves.
    pub(super) fn clock_runs(&self) -> bool {
        !self.history.game.is_over()
            && self.setup_pending().is_none()
            && self.entropy_pending().is_none()
            && (self.timing.start_rules().clock_start != ClockStart::AfterFirstMoves
                || self.history.game.ply() >= 2)
    }

    /// When the side to move's clock, brought back at `now`, runs from: `now`, or a scheduled
    /// start still to come.
    pub(super) fn clock_from(&self, now: Now) -> Instant {
        match self.timing.start_rules().clock_start {
            ClockStart::At(at) => mono_at(at, now).max(now.mono),
            _ => now.mono,
        }
    }

    /// Of `charged`, thinking time since the last event, the part the clock ran for: none of
    /// it before a scheduled start.
    pub(super) fn chargeable(&self, charged: Duration) -> Duration {
        let ClockStart::At(at) = self.timing.start_rules().clock_start else {
            return charged;
        };
        let last = self
            .history
            .log
            .last()
            .map_or(self.timing.created_at(), LogEntry::at);
        charged.saturating_sub(at.duration_since(last).unwrap_or_default())
    }

    /// `seat` gives its opponent `amount` at `now`.
    pub(super) fn add_time(
        &mut self,
        seat: Color,
        amount: Duration,
        now: Now,
        out: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let side = !seat;
        let clock = self.timing.clock.as_mut().ok_or(PlayError::GameUntimed)?;
        let left = clock.remaining(side, now.mono);
        let new = left
            .checked_add(amount)
            .filter(|&d| d <= MAX_CLOCK)
            .ok_or_else(|| {
                GameError::Input(InputError::InvalidField {
                    field: "amount",
                    message: "the opponent's clock would hold more than 24 hours".into(),
                })
            })?;
        clock.set(side, new, now.mono);
        let change = ClockChange {
            side,
            reason: ClockReason::Given,
        };
        self.log_clock(change, now, out);
        Ok(())
    }

    /// An arbiter changes `side`'s clock at `now`.
    pub(super) fn adjust_clock(
        &mut self,
        side: Color,
        adjust: ClockAdjust,
        now: Now,
        out: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let clock = self.timing.clock.as_mut().ok_or(PlayError::GameUntimed)?;
        let left = clock.remaining(side, now.mono);
        let (new, reason) = match adjust {
            ClockAdjust::Set(d) => (Some(d), ClockReason::ArbiterSet),
            ClockAdjust::Add(d) => (left.checked_add(d), ClockReason::ArbiterAdded),
            ClockAdjust::Subtract(d) => {
                (Some(left.saturating_sub(d)), ClockReason::ArbiterSubtracted)
            }
        };
        let new = new.filter(|&d| d <= MAX_CLOCK).ok_or_else(|| {
            GameError::Input(InputError::InvalidField {
                field: "change",
                message: "the clock would hold more than 24 hours".into(),
            })
        })?;
        clock.set(side, new, now.mono);
        self.log_clock(ClockChange { side, reason }, now, out);
        Ok(())
    }

    /// Logs a change of the clocks made at `now`, and its event.
    fn log_clock(&mut self, change: ClockChange, now: Now, out: &mut Vec<Event>) {
        let Some(clock) = &self.timing.clock else {
            return;
        };
        let kind = LogKind::ClockChanged {
            clocks_ms: ByColor::new_with(|side| clock_ms(clock.remaining(side, now.mono))),
            change,
            running: clock.running_at(now.mono).is_some(),
        };
        let entry = LogEntry::new(now.wall, kind);
        let seq = self.history.push(entry);
        out.extend(clock_event(
            seq,
            &entry,
            self.history.game.position().turn(),
            clock.control().byoyomi,
        ));
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::game::clock::TimeControl;
    use crate::game::start::StartRules;

    use chessd_rules::{Color, Outcome, Termination};

    use super::*;
    use crate::api::decode;
    use crate::game::action::Action;
    use crate::game::record::Stored;
    use crate::game::record::apply::tests::record_with;
    use crate::game::token::Seats;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn at(now: Now, millis: u64) -> Now {
        Now {
            mono: now.mono + Duration::from_millis(millis),
            wall: now.wall + Duration::from_millis(millis),
        }
    }

    fn mv(text: &str) -> Action {
        Action::Move {
            text: decode::move_text(text).unwrap(),
            expected_ply: None,
            request_id: None,
            offer_draw: false,
        }
    }

    fn timer(secs: u64) -> StartRules {
        StartRules {
            clock_start: ClockStart::OnCreation,
            first_move_timeout: Some(Duration::from_secs(secs)),
        }
    }

    /// The first mover is timed from the creation, the other from the first move; a side that
    /// does not move in time has the game called off, with no result.
    #[test]
    fn first_move_timer() {
        let tc = TimeControl::even(Duration::from_secs(300), Duration::ZERO);
        let (mut rec, _, now) = record_with(START, Some(tc), timer(10));
        // From the creation's time as stored: to the millisecond.
        let early = (now.mono + Duration::from_secs(10)) - rec.deadline().unwrap();
        assert!(early < Duration::from_millis(1), "{early:?}");
        let mut out = Vec::new();
        rec.apply(Color::White, &mv("e4"), None, at(now, 4_000), &mut out)
            .unwrap();
        // From the move's time as stored: to the millisecond.
        let late = (now.mono + Duration::from_secs(14)) - rec.deadline().unwrap();
        assert!(late < Duration::from_millis(1), "{late:?}");
        assert!(!rec.expire(at(now, 13_999), &mut out));
        assert!(rec.expire(at(now, 14_000), &mut out));
        assert_eq!(
            rec.game().outcome(),
            Some(Outcome::draw(Termination::NoStart))
        );
        assert!(out.last().unwrap().kind.is_game_over());
        assert_eq!(rec.first_move_deadline(), None);

        // Both moved: no timer.
        let (mut rec, _, now) = record_with(START, Some(tc), timer(10));
        rec.apply(Color::White, &mv("e4"), None, at(now, 1_000), &mut out)
            .unwrap();
        rec.apply(Color::Black, &mv("e5"), None, at(now, 2_000), &mut out)
            .unwrap();
        assert_eq!(rec.first_move_deadline(), None);
        assert!(!rec.expire(at(now, 60_000), &mut out));
    }

    /// A flag that falls before the first-move timer decides the game.
    #[test]
    fn the_earlier_flag_decides() {
        let tc = TimeControl::even(Duration::from_secs(5), Duration::ZERO);
        let (mut rec, _, now) = record_with(START, Some(tc), timer(10));
        let mut out = Vec::new();
        assert!(rec.expire(at(now, 20_000), &mut out));
        assert_eq!(
            rec.game().outcome(),
            Some(Outcome::win(Color::Black, Termination::TimeForfeit))
        );
    }

    /// Time given and an arbiter's changes are bounded, logged once each, replayed as they
    /// were seen live, and come back with a restored record.
    #[test]
    fn clock_changes_replay_and_restore() {
        let tc = TimeControl::even(Duration::from_secs(60), Duration::from_secs(1));
        let rules = StartRules {
            clock_start: ClockStart::AfterFirstMoves,
            first_move_timeout: None,
        };
        let (mut rec, tokens, now) = record_with(START, Some(tc), rules);
        let script = [
            (Color::White, mv("e4")),
            (
                Color::White,
                Action::AddTime {
                    amount: Duration::from_secs(15),
                },
            ),
            (Color::Black, mv("e5")),
            (
                Color::Black,
                Action::AdjustClock(ClockAdjust::Set(Duration::from_secs(42))),
            ),
            (
                Color::White,
                Action::AdjustClock(ClockAdjust::Subtract(Duration::from_secs(50))),
            ),
            (
                Color::White,
                Action::AdjustClock(ClockAdjust::Add(Duration::from_secs(7))),
            ),
            (Color::White, mv("Nf3")),
        ];
        let mut live = Vec::new();
        let mut rows = Vec::new();
        let mut last = now;
        for (i, (seat, action)) in script.iter().enumerate() {
            last = at(now, 300 * i as u64);
            let before = rec.last_seq();
            rec.apply(*seat, action, None, last, &mut live).unwrap();
            rows.extend(rec.rows_after(before, last, None));
        }
        let clock =
            |r: &GameRecord, side| r.timing.clock.as_ref().unwrap().remaining(side, last.mono);
        assert_eq!(clock(&rec, Color::Black), Duration::from_secs(42));
        // Both first moves were free; White's clock ran from Black's (600 ms), lost 50 s at
        // 1.2 s, got 7 s at 1.5 s, and Nf3 at 1.8 s earned the increment: 60 - 1.2 - 50 + 7 + 1.
        assert_eq!(clock(&rec, Color::White), Duration::from_millis(16_800));
        let too_much = Action::AdjustClock(ClockAdjust::Add(MAX_CLOCK));
        assert!(matches!(
            rec.apply(Color::White, &too_much, None, last, &mut live),
            Err(GameError::Input(InputError::InvalidField { .. }))
        ));
        let live: Vec<_> = live
            .iter()
            .map(|e| crate::api::encode::event(e, crate::game::Viewer::Whole))
            .collect();
        assert_eq!(live.len() as u64, rec.last_seq());
        for after in 1..=rec.last_seq() {
            let replayed: Vec<_> = rec
                .replay_after(after)
                .map(|e| crate::api::encode::event(&e, crate::game::Viewer::Whole))
                .collect();
            assert_eq!(replayed, live[after as usize..], "after seq {after}");
        }
        let stored = Stored {
            start: rec.game().start(),
            draw_rule: rec.game().draw_rule(),
            time_control: Some(tc),
            start_rules: rules,
            takebacks: crate::game::TakebackPolicy::Off,
            claim_after: Duration::from_secs(60),
            seats: Seats::of(&tokens.map(Some)),
            created_at: rec.timing.created_at(),
            events: rows,
            charged: Duration::ZERO,
        };
        let back = GameRecord::restore(stored, |r| r.len() as u64, last).unwrap();
        assert_eq!(back.history.log, rec.history.log);
        for side in [Color::White, Color::Black] {
            assert_eq!(clock(&back, side), clock(&rec, side));
        }
        let events = |r: &GameRecord| -> Vec<_> {
            r.replay_after(1)
                .map(|e| crate::api::encode::event(&e, crate::game::Viewer::Whole))
                .collect()
        };
        assert_eq!(events(&back), events(&rec));
    }

    /// An untimed game has no clock to change.
    #[test]
    fn untimed_games_refuse() {
        let (mut rec, _, now) = record_with(START, None, StartRules::default());
        let mut out = Vec::new();
        assert!(matches!(
            rec.apply(
                Color::White,
                &Action::AddTime {
                    amount: Duration::from_secs(15)
                },
                None,
                now,
                &mut out
            ),
            Err(GameError::Play(PlayError::GameUntimed))
        ));
        assert!(out.is_empty());
    }
}
