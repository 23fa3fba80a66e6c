//! Chess clocks: [`TimeControl`], the running [`Clock`] (Fischer: a fixed increment after each
//! move; or [`Byoyomi`]: main time, then periods) and a [`ClockReading`] taken at one moment.
//!
//! Time is measured on tokio's monotonic clock (`tokio::time::Instant`), so it never jumps with
//! the wall clock and tests can pause and advance it. The side to move's clock runs from the
//! moment the game's start rules say (`start`): a clock may be idle (no side's clock runs yet)
//! or armed from a later instant (nothing is charged before it). The increment is added to the
//! mover's clock after each move made while the clocks run. The sides may have different
//! initial times and increments (odds, Armageddon).
//!
//! A byoyomi clock is kept as one duration per side like a Fischer one (see `byoyomi`), so the
//! flag's deadline, the stores and a restart need nothing of their own for it.

use std::time::{Duration, SystemTime};

use chessd_rules::{ByColor, Color};
use tokio::time::Instant;

pub use crate::game::byoyomi::Byoyomi;

/// A time control: White's initial (main) time and increment, and Black's when they differ;
/// with [`Byoyomi`], periods after the main time (and no increment).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    pub initial: Duration,
    pub increment: Duration,
    /// Black's initial time; `None`: the same as White's.
    pub black_initial: Option<Duration>,
    /// Black's increment; `None`: the same as White's.
    pub black_increment: Option<Duration>,
    /// The periods after the main time, the same for both sides.
    pub byoyomi: Option<Byoyomi>,
}

impl TimeControl {
    /// The same initial time and increment for both sides.
    #[must_use]
    pub const fn even(initial: Duration, increment: Duration) -> TimeControl {
        TimeControl {
            initial,
            increment,
            black_initial: None,
            black_increment: None,
            byoyomi: None,
        }
    }

    /// The same main time for both sides, then `byoyomi`.
    #[must_use]
    pub const fn byoyomi(main: Duration, byoyomi: Byoyomi) -> TimeControl {
        TimeControl {
            byoyomi: Some(byoyomi),
            ..TimeControl::even(main, Duration::ZERO)
        }
    }

    /// `side`'s time at the start.
    #[must_use]
    pub fn initial_of(&self, side: Color) -> Duration {
        match side {
            Color::White => self.initial,
            Color::Black => self.black_initial.unwrap_or(self.initial),
        }
    }

    /// What `side` gets after each of its moves.
    #[must_use]
    pub fn increment_of(&self, side: Color) -> Duration {
        match side {
            Color::White => self.increment,
            Color::Black => self.black_increment.unwrap_or(self.increment),
        }
    }

    /// `side`'s time to its flag at the start: its main time and its periods.
    #[must_use]
    pub fn start_of(&self, side: Color) -> Duration {
        let periods = self.byoyomi.map_or(Duration::ZERO, Byoyomi::total);
        self.initial_of(side).saturating_add(periods)
    }

    /// `side`'s time after a move it made with `left` on its clock.
    #[must_use]
    pub fn after_move(&self, side: Color, left: Duration) -> Duration {
        match self.byoyomi {
            Some(b) => b.after_move(left),
            None => left.saturating_add(self.increment_of(side)),
        }
    }
}

/// Clocks as read at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockReading {
    /// Time left per side.
    pub remaining: ByColor<Duration>,
    /// The side whose clock runs.
    pub running: Option<Color>,
    /// The server time of the reading.
    pub read_at: SystemTime,
    /// The game's byoyomi, to tell the periods each side has left.
    pub byoyomi: Option<Byoyomi>,
}

impl ClockReading {
    /// The byoyomi periods `side` has left (0 without byoyomi).
    #[must_use]
    pub fn periods(&self, side: Color) -> u32 {
        self.byoyomi
            .map_or(0, |b| b.periods_left(self.remaining[side]))
    }
}

/// A running or stopped pair of clocks.
#[derive(Clone, Debug)]
pub struct Clock {
    control: TimeControl,
    /// Time left per side when its clock last stopped.
    remaining: ByColor<Duration>,
    /// The side whose clock runs and since when (an instant still to come: the clock is armed
    /// and charges nothing before it); `None` before the clocks start and once the game is
    /// over.
    running: Option<(Color, Instant)>,
}

impl Clock {
    /// Both clocks at their initial time, `turn`'s running from `from` (which may be later
    /// than now: nothing is charged before it).
    #[must_use]
    pub fn start(control: TimeControl, turn: Color, from: Instant) -> Clock {
        Clock {
            control,
            remaining: ByColor::new_with(|side| control.start_of(side)),
            running: Some((turn, from)),
        }
    }

    /// Both clocks at their initial time, neither running until [`Clock::begin`].
    #[must_use]
    pub fn idle(control: TimeControl) -> Clock {
        Clock {
            control,
            remaining: ByColor::new_with(|side| control.start_of(side)),
            running: None,
        }
    }

    /// Starts `side`'s clock from `from` (the clocks start after the first moves).
    pub fn begin(&mut self, side: Color, from: Instant) {
        self.running = Some((side, from));
    }

    /// Sets `side`'s time left at `now` (an arbiter's change, or time given).
    pub fn set(&mut self, side: Color, left: Duration, now: Instant) {
        self.remaining[side] = left;
        if let Some((running, since)) = &mut self.running
            && *running == side
            && *since < now
        {
            *since = now;
        }
    }

    /// Clocks brought back from storage: `remaining` per side, `running`'s clock running from
    /// `now` (a restart charges nobody for the time the server was down).
    #[must_use]
    pub fn resume(
        control: TimeControl,
        remaining: ByColor<Duration>,
        running: Option<Color>,
        now: Instant,
    ) -> Clock {
        Clock {
            control,
            remaining,
            running: running.map(|side| (side, now)),
        }
    }

    #[must_use]
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// `color`'s time left at `now` (zero at most: a flag never shows negative time).
    #[must_use]
    pub fn remaining(&self, color: Color, now: Instant) -> Duration {
        let left = self.remaining[color];
        match self.running {
            Some((side, since)) if side == color => {
                left.saturating_sub(now.saturating_duration_since(since))
            }
            _ => left,
        }
    }

    /// The side whose clock runs or is armed to run.
    #[must_use]
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(side, _)| side)
    }

    /// The side whose clock runs at `now` (`None` while it is only armed for later).
    #[must_use]
    pub fn running_at(&self, now: Instant) -> Option<Color> {
        self.running
            .filter(|&(_, since)| since <= now)
            .map(|(side, _)| side)
    }

    /// When the running side's flag falls, if a clock runs.
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        self.running
            .map(|(side, since)| since + self.remaining[side])
    }

    /// The side whose flag has fallen at `now`.
    #[must_use]
    pub fn flagged(&self, now: Instant) -> Option<Color> {
        let side = self.running()?;
        (self.remaining(side, now).is_zero()).then_some(side)
    }

    /// The running side moved at `now`: stop its clock, add its increment (or keep the period
    /// it moved in), start the other one. A move before an armed clock's start is free: no increment, and the other side's
    /// clock is armed from the same start.
    pub fn switch(&mut self, now: Instant) {
        if let Some((side, since)) = self.running {
            if now < since {
                self.running = Some((!side, since));
                return;
            }
            let left = self.remaining(side, now);
            self.remaining[side] = self.control.after_move(side, left);
            self.running = Some((!side, now));
        }
    }

    /// The game ended at `now`: freeze both clocks.
    pub fn stop(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            self.remaining[side] = self.remaining(side, now);
            self.running = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn control(initial: u64, increment: u64) -> TimeControl {
        TimeControl::even(Duration::from_secs(initial), Duration::from_secs(increment))
    }

    /// Odds: each side starts with its own time and gets its own increment.
    #[test]
    fn per_side_times_and_increments() {
        let t0 = Instant::now();
        let tc = TimeControl {
            black_initial: Some(Duration::from_secs(240)),
            black_increment: Some(Duration::ZERO),
            ..control(300, 2)
        };
        let mut clock = Clock::start(tc, Color::White, t0);
        assert_eq!(clock.remaining(Color::Black, t0), Duration::from_secs(240));
        let t1 = t0 + Duration::from_secs(10);
        clock.switch(t1);
        assert_eq!(clock.remaining(Color::White, t1), Duration::from_secs(292));
        let t2 = t1 + Duration::from_secs(10);
        clock.switch(t2);
        assert_eq!(clock.remaining(Color::Black, t2), Duration::from_secs(230));
    }

    /// An armed clock charges nothing before its start, and a move before it is free; an idle
    /// clock runs only once begun.
    #[test]
    fn armed_and_idle_clocks() {
        let t0 = Instant::now();
        let start = t0 + Duration::from_secs(60);
        let mut clock = Clock::start(control(100, 5), Color::White, start);
        assert_eq!(clock.running_at(t0), None);
        assert_eq!(clock.deadline(), Some(start + Duration::from_secs(100)));
        clock.switch(t0 + Duration::from_secs(10));
        assert_eq!(
            clock.remaining(Color::White, start),
            Duration::from_secs(100)
        );
        assert_eq!(clock.running_at(start), Some(Color::Black));
        assert_eq!(
            clock.remaining(Color::Black, start + Duration::from_secs(30)),
            Duration::from_secs(70)
        );

        let mut idle = Clock::idle(control(100, 5));
        idle.switch(t0);
        assert_eq!(idle.deadline(), None);
        assert_eq!(idle.remaining(Color::White, t0), Duration::from_secs(100));
        idle.begin(Color::White, t0);
        assert_eq!(idle.deadline(), Some(t0 + Duration::from_secs(100)));
    }

    /// Setting the running side's clock restarts its count from the change.
    #[test]
    fn set_running_clock() {
        let t0 = Instant::now();
        let mut clock = Clock::start(control(60, 0), Color::White, t0);
        let t1 = t0 + Duration::from_secs(20);
        clock.set(Color::White, Duration::from_secs(55), t1);
        assert_eq!(
            clock.remaining(Color::White, t1 + Duration::from_secs(5)),
            Duration::from_secs(50)
        );
        clock.set(Color::Black, Duration::from_secs(75), t1);
        assert_eq!(clock.remaining(Color::Black, t1), Duration::from_secs(75));
    }

    /// Only the side to move loses time; the mover gets the increment after the move.
    #[test]
    fn runs_for_the_side_to_move_with_increment() {
        let t0 = Instant::now();
        let mut clock = Clock::start(control(60, 2), Color::White, t0);
        let t1 = t0 + Duration::from_secs(10);
        assert_eq!(clock.remaining(Color::White, t1), Duration::from_secs(50));
        assert_eq!(clock.remaining(Color::Black, t1), Duration::from_secs(60));
        clock.switch(t1);
        assert_eq!(clock.remaining(Color::White, t1), Duration::from_secs(52));
        assert_eq!(clock.running(), Some(Color::Black));
        assert_eq!(clock.deadline(), Some(t1 + Duration::from_secs(60)));
    }

    /// The flag falls exactly at the deadline, and never shows negative time.
    #[test]
    fn flag_falls_at_zero() {
        let t0 = Instant::now();
        let clock = Clock::start(control(5, 0), Color::Black, t0);
        assert_eq!(clock.flagged(t0 + Duration::from_millis(4999)), None);
        assert_eq!(
            clock.flagged(t0 + Duration::from_secs(5)),
            Some(Color::Black)
        );
        assert_eq!(
            clock.remaining(Color::Black, t0 + Duration::from_secs(9)),
            Duration::ZERO
        );
    }

    fn byoyomi(main: u64, period: u64, periods: u32) -> TimeControl {
        TimeControl::byoyomi(
            Duration::from_secs(main),
            Byoyomi::new(Duration::from_secs(period), periods).unwrap(),
        )
    }

    /// Byoyomi: a move within a period uses none of it; a period is used up only when
    /// exceeded; main time runs first, and a move that spends the rest of it and part of a
    /// period keeps every period.
    #[test]
    fn byoyomi_periods_used_only_when_exceeded() {
        let t0 = Instant::now();
        let s = Duration::from_secs;
        let mut clock = Clock::start(byoyomi(60, 30, 3), Color::White, t0);
        assert_eq!(clock.remaining(Color::White, t0), s(150));
        // 70 s: the 60 s of main time and 10 s of the first period, which is not used up.
        let t1 = t0 + s(70);
        clock.switch(t1);
        assert_eq!(clock.remaining(Color::White, t1), s(90));
        let t2 = t1 + s(1);
        clock.switch(t2);
        // 29.999 s in a period: still three.
        let t3 = t2 + Duration::from_millis(29_999);
        clock.switch(t3);
        assert_eq!(clock.remaining(Color::White, t3), s(90));
        // 31 s: one period used up, the move made in the next.
        let t4 = t3 + s(1);
        clock.switch(t4);
        let t5 = t4 + s(31);
        clock.switch(t5);
        assert_eq!(clock.remaining(Color::White, t5), s(60));
        // The flag falls when the last period runs out, not before.
        let t6 = t5 + s(1);
        clock.switch(t6);
        assert_eq!(clock.deadline(), Some(t6 + s(60)));
        assert_eq!(clock.flagged(t6 + Duration::from_millis(59_999)), None);
        assert_eq!(clock.flagged(t6 + s(60)), Some(Color::White));
    }

    /// A reading tells the periods each side has left; none without byoyomi.
    #[test]
    fn readings_tell_the_periods() {
        let b = Byoyomi::new(Duration::from_secs(10), 5).unwrap();
        let s = Duration::from_secs;
        let reading = ClockReading {
            remaining: ByColor::new(s(45), s(3)),
            running: None,
            read_at: SystemTime::UNIX_EPOCH,
            byoyomi: Some(b),
        };
        assert_eq!(
            (reading.periods(Color::White), reading.periods(Color::Black)),
            (5, 1)
        );
        assert_eq!(
            ClockReading {
                byoyomi: None,
                ..reading
            }
            .periods(Color::White),
            0
        );
    }

    /// A stopped clock keeps its times and has no deadline.
    #[test]
    fn stop_freezes() {
        let t0 = Instant::now();
        let mut clock = Clock::start(control(5, 0), Color::White, t0);
        clock.stop(t0 + Duration::from_secs(2));
        assert_eq!(clock.deadline(), None);
        assert_eq!(
            clock.remaining(Color::White, t0 + Duration::from_secs(100)),
            Duration::from_secs(3)
        );
    }
}
