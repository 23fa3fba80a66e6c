//! Timed games and flaggers: the `--time-control` every game is created with, the share of
//! games whose bot stops moving so its flag falls (`--flag-share`, on the shorter
//! `--flag-time-control`), and the ramp that spreads the games' starts (`--ramp`).
//!
//! A flagger game plays `--flag-after` plies, then the side to move stops: the server ends the
//! game by time forfeit, and `flagfall` measures how late that comes; `many` prints the
//! lines of a timed run at scale (flags, memory per game and per watch stream).

pub mod flagfall;
pub mod many;

use std::time::Duration;

use chessd_proto as pb;
use clap::Args;

use crate::error::BenchError;

/// Plies a flagger game plays at least before its bot stops: each side's first move must come
/// within the first-move timer, or the game is aborted instead of flagged.
const MIN_FLAG_AFTER: u32 = 2;
/// The longest time control: the server refuses more than a day.
const MAX_CLOCK: Duration = Duration::from_secs(24 * 3600);
const MAX_INCREMENT: Duration = Duration::from_secs(3600);
const MAX_RAMP: Duration = Duration::from_secs(3600);

/// A Fischer time control: initial time and increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub initial: Duration,
    pub increment: Duration,
}

impl std::str::FromStr for TimeControl {
    type Err = String;

    /// `5m+0s`, `90s+2s`, or `10m` (no increment).
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let (initial, increment) = text.split_once('+').unwrap_or((text, "0s"));
        let parse = |t: &str| humantime::parse_duration(t.trim()).map_err(|e| format!("{t}: {e}"));
        let tc = TimeControl {
            initial: parse(initial)?,
            increment: parse(increment)?,
        };
        if tc.initial.is_zero() || tc.initial > MAX_CLOCK {
            return Err("the initial time must be above zero and at most 24h".into());
        }
        if tc.increment > MAX_INCREMENT {
            return Err("the increment must be at most 1h".into());
        }
        Ok(tc)
    }
}

impl TimeControl {
    pub fn proto(self) -> pb::TimeControl {
        // Both are within a day: the conversion cannot fail.
        let d = |d: Duration| prost_types::Duration::try_from(d).unwrap_or_default();
        pb::TimeControl {
            initial: Some(d(self.initial)),
            increment: Some(d(self.increment)),
            ..Default::default()
        }
    }
}

/// The flags of timed games, flaggers and the ramp (part of `play`).
#[derive(Args, Clone, Debug)]
pub struct TimedArgs {
    /// Create every game timed, such as 5m+0s (initial+increment); default: untimed.
    #[arg(long)]
    pub time_control: Option<TimeControl>,
    /// The share of tables (0 to 1) whose games end by a flag: after `--flag-after` plies the
    /// side to move stops moving. Needs --time-control.
    #[arg(long, default_value_t = 0.0)]
    pub flag_share: f64,
    /// The time control of the flaggers' games, short so that flags fall within the run.
    #[arg(long, default_value = "15s+0s")]
    pub flag_time_control: TimeControl,
    /// Plies a flagger game plays before its side to move stops (at least 2).
    #[arg(long, default_value_t = 4)]
    pub flag_after: u32,
    /// Spread the tables' first games over this time (0s: all at once), so that creating
    /// thousands of games and their streams does not come as one burst.
    #[arg(long, default_value = "0s", value_parser = humantime::parse_duration)]
    pub ramp: Duration,
}

/// Untimed games, no flaggers, no ramp: what a run without these flags plays.
impl Default for TimedArgs {
    fn default() -> TimedArgs {
        TimedArgs {
            time_control: None,
            flag_share: 0.0,
            flag_time_control: TimeControl {
                initial: Duration::from_secs(15),
                increment: Duration::ZERO,
            },
            flag_after: 4,
            ramp: Duration::ZERO,
        }
    }
}

impl TimedArgs {
    /// Refuses values out of bounds or without the time control they need.
    pub fn check(&self, warmup: Duration) -> Result<(), BenchError> {
        if !(0.0..=1.0).contains(&self.flag_share) {
            return Err(BenchError::new("flag share must be 0 to 1"));
        }
        if self.flag_share > 0.0 && self.time_control.is_none() {
            return Err(BenchError::new("--flag-share needs --time-control"));
        }
        if self.flag_after < MIN_FLAG_AFTER {
            return Err(BenchError::new(format!(
                "--flag-after must be at least {MIN_FLAG_AFTER} (before it the first-move timer aborts the game)"
            )));
        }
        if self.ramp > MAX_RAMP {
            return Err(BenchError::new("the ramp must be at most 1h"));
        }
        if self.ramp > warmup {
            return Err(BenchError::new(
                "the ramp must end within the warm-up, before the measured window",
            ));
        }
        Ok(())
    }

    /// Whether table `i` plays flagger games: spread evenly, `flag_share` of the tables.
    pub fn flagger(&self, i: usize) -> bool {
        let share = self.flag_share;
        ((i + 1) as f64 * share).floor() > (i as f64 * share).floor()
    }

    /// The time control of table `i`'s games, if timed.
    pub fn control(&self, i: usize) -> Option<TimeControl> {
        let tc = self.time_control?;
        Some(if self.flagger(i) {
            self.flag_time_control
        } else {
            tc
        })
    }

    /// When table `i` of `games` starts, after the start of the play phase.
    pub fn start_delay(&self, i: usize, games: usize) -> Duration {
        if games == 0 {
            return Duration::ZERO;
        }
        self.ramp.mul_f64(i as f64 / games as f64)
    }
}

/// Whether a flagger's bot stops rather than play at `ply` (the plies played so far).
pub fn stops(flagger: bool, flag_after: u32, ply: u32) -> bool {
    flagger && ply >= flag_after
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Time controls parse with and without an increment; bad ones are refused.
    #[test]
    fn time_controls() {
        let tc: TimeControl = "5m+2s".parse().unwrap();
        assert_eq!(tc.initial, Duration::from_secs(300));
        assert_eq!(tc.increment, Duration::from_secs(2));
        let tc: TimeControl = "90s".parse().unwrap();
        assert_eq!(tc.increment, Duration::ZERO);
        assert!("0s+1s".parse::<TimeControl>().is_err());
        assert!("25h".parse::<TimeControl>().is_err());
        assert!("5m+2h".parse::<TimeControl>().is_err());
        assert!("five minutes".parse::<TimeControl>().is_err());
        let p = "1m+500ms".parse::<TimeControl>().unwrap().proto();
        assert_eq!(p.initial.unwrap().seconds, 60);
        assert_eq!(p.increment.unwrap().nanos, 500_000_000);
    }

    /// The share picks that many tables, spread out; flaggers get the short clock.
    #[test]
    fn flaggers_are_the_share() {
        let args = TimedArgs {
            time_control: Some("5m".parse().unwrap()),
            flag_share: 0.1,
            flag_time_control: "10s".parse().unwrap(),
            flag_after: 4,
            ramp: Duration::from_secs(10),
        };
        args.check(Duration::from_secs(10)).unwrap();
        let flaggers: Vec<usize> = (0..100).filter(|&i| args.flagger(i)).collect();
        assert_eq!(flaggers.len(), 10);
        assert_eq!(flaggers[0], 9);
        assert_eq!(args.control(9).unwrap().initial, Duration::from_secs(10));
        assert_eq!(args.control(0).unwrap().initial, Duration::from_secs(300));
        assert_eq!(args.start_delay(50, 100), Duration::from_secs(5));
        assert!(stops(true, 4, 4) && !stops(true, 4, 3) && !stops(false, 4, 9));
        let none = TimedArgs {
            flag_share: 0.0,
            ..args.clone()
        };
        assert!((0..100).all(|i| !none.flagger(i)));
        for bad in [
            TimedArgs {
                flag_share: 1.5,
                ..args.clone()
            },
            TimedArgs {
                time_control: None,
                ..args.clone()
            },
            TimedArgs {
                flag_after: 1,
                ..args.clone()
            },
            TimedArgs {
                ramp: Duration::from_secs(11),
                ..args.clone()
            },
        ] {
            assert!(bad.check(Duration::from_secs(10)).is_err(), "{bad:?}");
        }
    }
}
