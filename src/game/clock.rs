//! Chess clocks: [`TimeControl`], the running [`Clock`] (Fischer: a fixed increment after each
//! move) and a [`ClockReading`] taken at one moment.
//!
//! Time is measured on tokio's monotonic clock (`tokio::time::Instant`), so it never jumps with
//! the wall clock and tests can pause and advance it. The side to move's clock runs from the
//! moment the game is created; the increment is added to the mover's clock after each move.

use std::time::{Duration, SystemTime};

use chessd_rules::{ByColor, Color};
use tokio::time::Instant;

/// A Fischer time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    pub initial: Duration,
    pub increment: Duration,
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
}

/// A running or stopped pair of clocks.
#[derive(Clone, Debug)]
pub struct Clock {
    control: TimeControl,
    /// Time left per side when its clock last stopped.
    remaining: ByColor<Duration>,
    /// The side whose clock runs and since when; `None` once the game is over.
    running: Option<(Color, Instant)>,
}

impl Clock {
    /// Both clocks at the initial time, `turn`'s running from `now`.
    #[must_use]
    pub fn start(control: TimeControl, turn: Color, now: Instant) -> Clock {
        Clock {
            control,
            remaining: ByColor::new(control.initial, control.initial),
            running: Some((turn, now)),
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

    /// The side whose clock runs.
    #[must_use]
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(side, _)| side)
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

    /// The running side moved at `now`: stop its clock, add the increment, start the other one.
    pub fn switch(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            let left = self.remaining(side, now);
            self.remaining[side] = left.saturating_add(self.control.increment);
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
        TimeControl {
            initial: Duration::from_secs(initial),
            increment: Duration::from_secs(increment),
        }
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
