//! [`Byoyomi`]: the periods a side plays in once its main time is spent, as shogi and xiangqi
//! are played. A byoyomi clock is kept as one duration per side like a Fischer one (main time
//! and the periods left together): after a move made in byoyomi it is rounded up to a whole
//! number of periods, which is the rule "a period is used up only when exceeded".

use std::num::NonZeroU32;
use std::time::Duration;

/// Byoyomi: once a side's main time is spent, it has `periods` periods of `period` each. A
/// move made within a period uses none of it; a period is used up only when exceeded; the
/// flag falls when the last one runs out.
///
/// Kept in whole milliseconds and a byte (the API's bounds: an hour, sixty periods), so a
/// time control with it is no larger than one without.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Byoyomi {
    period_ms: NonZeroU32,
    periods: u8,
}

impl Byoyomi {
    /// The most periods a side may have.
    pub const MAX_PERIODS: u32 = 60;

    /// `periods` periods of `period` (to the whole millisecond); `None` unless `period` is at
    /// least a millisecond and at most 49 days, and `periods` within 1 to
    /// [`Byoyomi::MAX_PERIODS`].
    #[must_use]
    pub fn new(period: Duration, periods: u32) -> Option<Byoyomi> {
        let ms = u32::try_from(period.as_millis()).ok()?;
        let periods = u8::try_from(periods)
            .ok()
            .filter(|&n| (1..=Byoyomi::MAX_PERIODS).contains(&u32::from(n)))?;
        Some(Byoyomi {
            period_ms: NonZeroU32::new(ms)?,
            periods,
        })
    }

    /// One period's length.
    #[must_use]
    pub fn period(self) -> Duration {
        Duration::from_millis(u64::from(self.period_ms.get()))
    }

    /// How many periods each side has.
    #[must_use]
    pub fn periods(self) -> u32 {
        u32::from(self.periods)
    }

    /// All the periods together.
    #[must_use]
    pub fn total(self) -> Duration {
        self.period() * self.periods()
    }

    /// The periods a side with `left` to its flag has, the one it may be in counted: all of
    /// them while it has main time, none once the flag fell.
    #[must_use]
    pub fn periods_left(self, left: Duration) -> u32 {
        if left > self.total() {
            return self.periods();
        }
        let period = u128::from(self.period_ms.get());
        // At most `periods`, so the cast cannot truncate.
        left.as_millis().div_ceil(period) as u32
    }

    /// A side's time after a move it made with `left` to its flag: in byoyomi, rounded up to
    /// its whole periods left (the period it moved in is not used up); in main time, as it
    /// is.
    #[must_use]
    pub fn after_move(self, left: Duration) -> Duration {
        if left > self.total() {
            left
        } else {
            self.period() * self.periods_left(left)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The periods a side has left: all of them in main time, the one it is in counted, none
    /// once its flag fell; a move in byoyomi rounds the time up to whole periods.
    #[test]
    fn periods_left() {
        let b = Byoyomi::new(Duration::from_secs(10), 5).unwrap();
        let s = Duration::from_secs;
        assert_eq!(b.periods_left(s(51)), 5);
        assert_eq!(b.periods_left(s(50)), 5);
        assert_eq!(b.periods_left(s(49)), 5);
        assert_eq!(b.periods_left(s(40)), 4);
        assert_eq!(b.periods_left(Duration::from_millis(1)), 1);
        assert_eq!(b.periods_left(Duration::ZERO), 0);
        assert_eq!(b.after_move(s(75)), s(75));
        assert_eq!(b.after_move(Duration::from_millis(40_001)), s(50));
    }

    /// Out of bounds, a byoyomi is refused rather than cut: no period, no periods, too many.
    #[test]
    fn byoyomi_bounds() {
        assert!(Byoyomi::new(Duration::ZERO, 1).is_none());
        assert!(Byoyomi::new(Duration::from_secs(30), 0).is_none());
        assert!(Byoyomi::new(Duration::from_secs(30), 61).is_none());
        assert!(Byoyomi::new(Duration::from_secs(30), 256).is_none());
        assert_eq!(
            Byoyomi::new(Duration::from_secs(30), 60).map(Byoyomi::total),
            Some(Duration::from_secs(1800))
        );
    }
}
