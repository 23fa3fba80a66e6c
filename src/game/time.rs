//! Time as the domain reads it: [`Now`], the moment of a change on both clocks, and the one
//! conversion between wall time and the Unix milliseconds that logs, storage and Redis keep.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::time::Instant;

/// The current time on both clocks a game uses.
#[derive(Clone, Copy, Debug)]
pub struct Now {
    /// Monotonic (tokio's clock: pausable in tests), for the chess clocks.
    pub mono: Instant,
    /// Wall time, for the times clients see.
    pub wall: SystemTime,
}

impl Now {
    #[must_use]
    pub fn read() -> Now {
        Now {
            mono: Instant::now(),
            wall: SystemTime::now(),
        }
    }
}

/// Milliseconds since the Unix epoch (0 before it, saturating far after it).
#[must_use]
pub fn epoch_ms(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// The wall time `ms` milliseconds after the Unix epoch.
#[must_use]
pub fn from_epoch_ms(ms: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(ms)
}

/// `d` truncated to the whole millisecond: a game's header and every store keep its
/// durations so, and a game reads the same before it is stored and after.
#[must_use]
pub fn whole_ms_duration(d: Duration) -> Duration {
    Duration::from_millis(whole_ms_count(d))
}

/// `d` in whole milliseconds, saturating (how a record keeps its durations).
#[must_use]
pub(crate) fn whole_ms_count(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// `t` to the whole millisecond, as every store keeps times: a time made here reads the same
/// as one read back.
#[must_use]
pub fn whole_ms(t: SystemTime) -> SystemTime {
    from_epoch_ms(epoch_ms(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Milliseconds round-trip; times before the epoch read as 0.
    #[test]
    fn epoch_milliseconds() {
        let t = from_epoch_ms(1_700_000_000_123);
        assert_eq!(epoch_ms(t), 1_700_000_000_123);
        assert_eq!(epoch_ms(UNIX_EPOCH - Duration::from_secs(1)), 0);
        assert_eq!(whole_ms(t + Duration::from_micros(999)), t);
    }
}
