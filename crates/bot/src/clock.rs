//! Clock management: the server's `Clocks` turned into `go wtime btime winc binc`, and the
//! deadlines after which a silent engine is stopped, then killed.
//!
//! A byoyomi clock is planned on the time before a period would be used up (main time and
//! one period): the bot never spends a period on purpose. A USI engine is told it in its own
//! terms (main time and `byoyomi`); a UCI engine, which has none, as that time with the period
//! as its increment, so its own time management keeps each move within one period.
//!
//! The server reads the clocks at `read_at` (its wall time). The running side's clock has run
//! since then for the message's transit plus the time since the bot received it. The bot
//! counts the time since `read_at` by its own wall clock, but never less than the time since
//! it received the reading (its own clock may be behind the server's) and never more than
//! [`MAX_TRANSIT`] beyond that (its own clock may be ahead): a skewed clock costs at most that
//! much thinking time and never gives the engine time it does not have. Then the move
//! overhead (network and the bot's own work after `bestmove`) comes off the engine's side.

use std::time::{Duration, Instant, SystemTime};

use crate::board::Side;
use crate::proto;

/// The most transit time believed between the server reading its clocks and the bot
/// receiving them, whatever the wall clocks say.
pub const MAX_TRANSIT: Duration = Duration::from_secs(1);
/// The least time given to the engine: `wtime 0` makes some engines misbehave.
const MIN_ENGINE_TIME: Duration = Duration::from_millis(1);
/// After the stop deadline, how long the engine has to answer `stop` before it is killed,
/// at most.
const MAX_STOP_GRACE: Duration = Duration::from_secs(2);
/// ... and at least.
const MIN_STOP_GRACE: Duration = Duration::from_millis(200);
/// Slack over a fixed `movetime` before the engine counts as late.
const MOVETIME_SLACK: Duration = Duration::from_millis(500);

/// The clocks as the server read them, and when the bot received them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockReading {
    pub white: Duration,
    pub black: Duration,
    /// The side whose clock runs; `None` once the game is over.
    pub running: Option<Side>,
    pub read_at: SystemTime,
    pub received: Instant,
    /// Byoyomi periods left per side at `read_at` (0 without byoyomi).
    pub white_periods: u32,
    pub black_periods: u32,
}

fn duration(d: Option<&prost_types::Duration>) -> Duration {
    d.and_then(|d| Duration::try_from(*d).ok())
        .unwrap_or(Duration::ZERO)
}

impl ClockReading {
    /// Reads the protobuf clocks received at `received`; `None` without `read_at`.
    #[must_use]
    pub fn from_proto(clocks: &proto::Clocks, received: Instant) -> Option<ClockReading> {
        let read_at = SystemTime::try_from(clocks.read_at?).ok()?;
        Some(ClockReading {
            white: duration(clocks.white_remaining.as_ref()),
            black: duration(clocks.black_remaining.as_ref()),
            running: Side::from_proto(clocks.running),
            read_at,
            received,
            white_periods: clocks.white_periods,
            black_periods: clocks.black_periods,
        })
    }

    /// `side`'s time before a byoyomi period of length `period` would be used up (its main
    /// time and the period it may be in), as of (`wall`, `now`).
    #[must_use]
    pub fn before_a_period_is_used(
        &self,
        side: Side,
        period: Duration,
        wall: SystemTime,
        now: Instant,
    ) -> Duration {
        let periods = match side {
            Side::White => self.white_periods,
            Side::Black => self.black_periods,
        };
        self.remaining(side, wall, now)
            .saturating_sub(period * periods.saturating_sub(1))
    }

    /// How long the running clock has run since `read_at`, as of (`wall`, `now`).
    #[must_use]
    pub fn elapsed(&self, wall: SystemTime, now: Instant) -> Duration {
        let local = now.saturating_duration_since(self.received);
        let by_wall = wall.duration_since(self.read_at).unwrap_or(Duration::ZERO);
        by_wall.clamp(local, local + MAX_TRANSIT)
    }

    /// `side`'s time left as of (`wall`, `now`).
    #[must_use]
    pub fn remaining(&self, side: Side, wall: SystemTime, now: Instant) -> Duration {
        let base = match side {
            Side::White => self.white,
            Side::Black => self.black,
        };
        if self.running == Some(side) {
            base.saturating_sub(self.elapsed(wall, now))
        } else {
            base
        }
    }
}

/// Limits on every search, besides the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// Think time per move in untimed games (when `movetime` is not set).
    pub untimed_movetime: Duration,
}

/// What to tell the engine, and how long to wait for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The `go` line.
    pub go: String,
    /// After this the engine is told to `stop`.
    pub stop_after: Duration,
    /// After this (counted from the start too) the engine is killed.
    pub kill_after: Duration,
}

/// The search for `us` (to move, or about to be, when `ponder`).
#[derive(Clone, Copy, Debug)]
pub struct Ask<'a> {
    pub clocks: Option<&'a ClockReading>,
    /// Our increment.
    pub increment: Duration,
    /// The opponent's (a time control may give the sides different ones).
    pub their_increment: Duration,
    /// The byoyomi period of a byoyomi clock.
    pub byoyomi: Option<Duration>,
    /// Whether the engine is told the byoyomi in its own terms (USI's `byoyomi`).
    pub native_byoyomi: bool,
    pub us: Side,
    pub overhead: Duration,
    pub limits: &'a Limits,
    pub ponder: bool,
}

fn ms(d: Duration) -> u128 {
    d.as_millis()
}

/// Plans a search as of (`wall`, `now`).
#[must_use]
pub fn plan(ask: Ask<'_>, wall: SystemTime, now: Instant) -> Plan {
    let mut go = String::from("go");
    if ask.ponder {
        go.push_str(" ponder");
    }
    let limits = ask.limits;
    let (stop_after, kill_after) = match ask.clocks {
        Some(clocks) => {
            let usable = |side: Side| match ask.byoyomi {
                Some(period) => clocks.before_a_period_is_used(side, period, wall, now),
                None => clocks.remaining(side, wall, now),
            };
            let ours = usable(ask.us)
                .saturating_sub(ask.overhead)
                .max(MIN_ENGINE_TIME);
            let theirs = usable(ask.us.opposite()).max(MIN_ENGINE_TIME);
            let (white, black) = match ask.us {
                Side::White => (ours, theirs),
                Side::Black => (theirs, ours),
            };
            match ask.byoyomi {
                Some(period) if ask.native_byoyomi => {
                    // USI: main time, then one byoyomi for both, cut to what our move has.
                    let main = |t: Duration| t.saturating_sub(period);
                    go.push_str(&format!(
                        " wtime {} btime {} byoyomi {}",
                        ms(main(white)),
                        ms(main(black)),
                        ms(ours - main(ours))
                    ));
                }
                Some(period) => go.push_str(&format!(
                    " wtime {} btime {} winc {} binc {}",
                    ms(white),
                    ms(black),
                    ms(period),
                    ms(period)
                )),
                None => {
                    let (winc, binc) = match ask.us {
                        Side::White => (ask.increment, ask.their_increment),
                        Side::Black => (ask.their_increment, ask.increment),
                    };
                    go.push_str(&format!(
                        " wtime {} btime {} winc {} binc {}",
                        ms(white),
                        ms(black),
                        ms(winc),
                        ms(binc)
                    ));
                }
            }
            if let Some(t) = limits.movetime {
                go.push_str(&format!(" movetime {}", ms(t)));
            }
            // No sane engine spends more than half its clock (plus the increment) on one move:
            // past that it is stopped, and if it does not answer in a tenth more, killed.
            let mut stop = (ours / 2 + ask.byoyomi.unwrap_or(ask.increment)).min(ours);
            if let Some(t) = limits.movetime {
                stop = stop.min(t + MOVETIME_SLACK);
            }
            let grace = (ours / 10).clamp(MIN_STOP_GRACE, MAX_STOP_GRACE);
            (stop, stop + grace)
        }
        None => {
            let t = limits.movetime.unwrap_or(limits.untimed_movetime);
            go.push_str(&format!(" movetime {}", ms(t)));
            (t + MOVETIME_SLACK, t + MOVETIME_SLACK + MAX_STOP_GRACE)
        }
    };
    if let Some(d) = limits.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = limits.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    Plan {
        go,
        stop_after,
        kill_after,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NO_LIMITS: Limits = Limits {
        depth: None,
        nodes: None,
        movetime: None,
        untimed_movetime: Duration::from_secs(5),
    };

    fn reading(
        white_ms: u64,
        black_ms: u64,
        running: Side,
        at: SystemTime,
        got: Instant,
    ) -> ClockReading {
        ClockReading {
            white: Duration::from_millis(white_ms),
            black: Duration::from_millis(black_ms),
            running: Some(running),
            read_at: at,
            received: got,
            white_periods: 0,
            black_periods: 0,
        }
    }

    /// The running side loses the time since `read_at`; the other keeps its reading.
    #[test]
    fn running_clock_runs() {
        let (wall, now) = (SystemTime::now(), Instant::now());
        let r = reading(10_000, 8_000, Side::White, wall, now);
        let later = (
            wall + Duration::from_millis(300),
            now + Duration::from_millis(300),
        );
        assert_eq!(
            r.remaining(Side::White, later.0, later.1),
            Duration::from_millis(9_700)
        );
        assert_eq!(
            r.remaining(Side::Black, later.0, later.1),
            Duration::from_millis(8_000)
        );
    }

    /// Wall-clock skew is bounded: a bot clock behind the server's still counts the local
    /// time since receipt; one far ahead counts at most MAX_TRANSIT more.
    #[test]
    fn skew_is_bounded() {
        let (wall, now) = (SystemTime::now(), Instant::now());
        let local = Duration::from_millis(200);
        let behind = reading(10_000, 0, Side::White, wall + Duration::from_secs(60), now);
        assert_eq!(behind.elapsed(wall + local, now + local), local);
        let ahead = reading(10_000, 0, Side::White, wall - Duration::from_secs(60), now);
        assert_eq!(
            ahead.elapsed(wall + local, now + local),
            local + MAX_TRANSIT
        );
        let fair = reading(
            10_000,
            0,
            Side::White,
            wall - Duration::from_millis(40),
            now,
        );
        assert_eq!(
            fair.elapsed(wall + local, now + local),
            local + Duration::from_millis(40)
        );
    }

    /// Byoyomi: the engine plans on its main time and one period, never more. In main time
    /// (White: 10 s and three periods of 5 s left; Black, to move, with 8 s: 2 s into the
    /// first of its two periods), a USI engine hears the main times and the period it may use; a UCI
    /// engine, the time before a period is used up with the period as increment.
    #[test]
    fn go_with_byoyomi() {
        let (wall, now) = (SystemTime::now(), Instant::now());
        let r = ClockReading {
            white_periods: 3,
            black_periods: 2,
            ..reading(25_000, 8_000, Side::Black, wall, now)
        };
        let mut ask = Ask {
            clocks: Some(&r),
            increment: Duration::ZERO,
            their_increment: Duration::ZERO,
            us: Side::Black,
            overhead: Duration::from_millis(500),
            byoyomi: Some(Duration::from_secs(5)),
            native_byoyomi: true,
            limits: &NO_LIMITS,
            ponder: false,
        };
        let p = plan(ask, wall, now);
        assert_eq!(p.go, "go wtime 10000 btime 0 byoyomi 2500");
        assert_eq!(p.stop_after, Duration::from_millis(2_500));
        ask.native_byoyomi = false;
        assert_eq!(
            plan(ask, wall, now).go,
            "go wtime 15000 btime 2500 winc 5000 binc 5000"
        );
    }

    /// `go` carries both clocks, the overhead off the engine's side only, and each side's own
    /// increment.
    #[test]
    fn go_from_clocks() {
        let (wall, now) = (SystemTime::now(), Instant::now());
        let r = reading(15_000, 14_000, Side::Black, wall, now);
        let ask = Ask {
            clocks: Some(&r),
            increment: Duration::from_millis(100),
            their_increment: Duration::from_millis(2_000),
            us: Side::Black,
            overhead: Duration::from_millis(250),
            byoyomi: None,
            native_byoyomi: false,
            limits: &NO_LIMITS,
            ponder: false,
        };
        let later = now + Duration::from_millis(1_000);
        let p = plan(ask, wall + Duration::from_millis(1_000), later);
        assert_eq!(p.go, "go wtime 15000 btime 12750 winc 2000 binc 100");
        assert_eq!(p.stop_after, Duration::from_millis(12_750 / 2 + 100));
        assert_eq!(p.kill_after, p.stop_after + Duration::from_millis(1_275));
    }

    /// Pondering: the opponent's clock runs, ours is only less the overhead; limits follow.
    #[test]
    fn ponder_and_limits() {
        let (wall, now) = (SystemTime::now(), Instant::now());
        let r = reading(5_000, 6_000, Side::Black, wall, now);
        let limits = Limits {
            depth: Some(8),
            nodes: Some(10_000),
            movetime: Some(Duration::from_millis(50)),
            untimed_movetime: Duration::from_secs(5),
        };
        let ask = Ask {
            clocks: Some(&r),
            increment: Duration::ZERO,
            their_increment: Duration::ZERO,
            us: Side::White,
            overhead: Duration::from_millis(100),
            byoyomi: None,
            native_byoyomi: false,
            limits: &limits,
            ponder: true,
        };
        let p = plan(
            ask,
            wall + Duration::from_millis(500),
            now + Duration::from_millis(500),
        );
        assert_eq!(
            p.go,
            "go ponder wtime 4900 btime 5500 winc 0 binc 0 movetime 50 depth 8 nodes 10000"
        );
        assert_eq!(p.stop_after, Duration::from_millis(550));
    }

    /// An empty clock still gives the engine a millisecond; untimed games get a movetime.
    #[test]
    fn floors_and_untimed() {
        let (wall, now) = (SystemTime::now(), Instant::now());
        let r = reading(50, 50, Side::White, wall, now);
        let ask = Ask {
            clocks: Some(&r),
            increment: Duration::ZERO,
            their_increment: Duration::ZERO,
            us: Side::White,
            overhead: Duration::from_millis(100),
            byoyomi: None,
            native_byoyomi: false,
            limits: &NO_LIMITS,
            ponder: false,
        };
        assert!(plan(ask, wall, now).go.starts_with("go wtime 1 btime 50 "));
        let untimed = Ask {
            clocks: None,
            ..ask
        };
        let p = plan(untimed, wall, now);
        assert_eq!(p.go, "go movetime 5000");
        assert!(p.kill_after > p.stop_after && p.stop_after > Duration::from_secs(5));
    }
}
