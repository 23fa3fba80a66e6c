//! Flag accuracy: how late a flag falls, as a watcher sees it.
//!
//! Each `MovePlayed` of a timed game carries the clocks right after the move, read at the
//! move's server time: the side to move's flag is due at `read_at` plus its time left. When
//! the game then ends by time forfeit, the `GameOver` event's receipt minus that moment is the
//! lateness a player feels; the event's own server time minus it is the server's share (its
//! flag timer), the rest is delivery. Both clocks are the same machine's wall clock; the
//! server's times have millisecond precision.

use std::time::{Duration, SystemTime};

use chessd_proto as pb;

use crate::report::measure::Latency;

/// When the running side's flag is due after this move; `None` for an untimed game.
pub fn due(clocks: Option<&pb::Clocks>) -> Option<SystemTime> {
    let clocks = clocks?;
    let read_at = SystemTime::try_from(clocks.read_at?).ok()?;
    let left = match pb::Color::try_from(clocks.running).ok()? {
        pb::Color::White => clocks.white_remaining?,
        pb::Color::Black => clocks.black_remaining?,
        pb::Color::Unspecified => return None,
    };
    read_at.checked_add(Duration::try_from(left).ok()?)
}

/// Whether a game ended by a flag.
pub fn is_flag(over: &pb::GameOver) -> bool {
    over.outcome
        .as_ref()
        .is_some_and(|o| o.termination == pb::Termination::TimeForfeit as i32)
}

/// The lateness of flags seen in the measured window.
#[derive(Clone)]
pub struct FlagStats {
    /// Flag due to the GameOver's receipt.
    pub late: Latency,
    /// Flag due to the GameOver's server time (the server's flag timer).
    pub server_late: Latency,
    /// Flags whose event came before the moment computed (the server time's rounding):
    /// counted as zero lateness too.
    pub early: u64,
    /// Time forfeits seen without a due moment (no clocks on the last move).
    pub unmeasured: u64,
}

impl FlagStats {
    pub fn new() -> Result<FlagStats, crate::error::BenchError> {
        Ok(FlagStats {
            late: Latency::new()?,
            server_late: Latency::new()?,
            early: 0,
            unmeasured: 0,
        })
    }

    /// Records one flag seen at `now`, due at `due`, stamped `server_time` by the server.
    pub fn record(
        &mut self,
        due: Option<SystemTime>,
        server_time: Option<SystemTime>,
        now: SystemTime,
    ) {
        let Some(due) = due else {
            self.unmeasured += 1;
            return;
        };
        match now.duration_since(due) {
            Ok(late) => self.late.record(late),
            Err(_) => {
                self.early += 1;
                self.late.record_nanos(0);
            }
        }
        if let Some(at) = server_time {
            self.server_late
                .record(at.duration_since(due).unwrap_or(Duration::ZERO));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clocks(running: pb::Color, white_ms: u64, black_ms: u64) -> pb::Clocks {
        let d = |ms| prost_types::Duration::try_from(Duration::from_millis(ms)).unwrap();
        pb::Clocks {
            white_remaining: Some(d(white_ms)),
            black_remaining: Some(d(black_ms)),
            running: running as i32,
            read_at: Some(prost_types::Timestamp {
                seconds: 1_000,
                nanos: 0,
            }),
            ..Default::default()
        }
    }

    /// The running side's time left counts from the read, the other side's does not.
    #[test]
    fn due_is_the_running_sides_time_from_the_read() {
        let at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000);
        let white = clocks(pb::Color::White, 1_500, 9_000);
        assert_eq!(due(Some(&white)), Some(at + Duration::from_millis(1_500)));
        let black = clocks(pb::Color::Black, 1_500, 9_000);
        assert_eq!(due(Some(&black)), Some(at + Duration::from_millis(9_000)));
        assert_eq!(due(Some(&clocks(pb::Color::Unspecified, 1, 1))), None);
        assert_eq!(due(None), None);
    }

    /// Lateness is receipt minus due; an early event counts as zero and is counted apart.
    #[test]
    fn lateness() {
        let due = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000);
        let mut s = FlagStats::new().unwrap();
        s.record(
            Some(due),
            Some(due + Duration::from_millis(2)),
            due + Duration::from_millis(5),
        );
        s.record(Some(due), None, due - Duration::from_millis(1));
        s.record(None, None, due);
        assert_eq!(s.late.count(), 2);
        assert!((s.late.max_us() - 5_000.0).abs() < 10.0);
        assert_eq!(s.server_late.count(), 1);
        assert_eq!((s.early, s.unmeasured), (1, 1));
        let flag = pb::GameOver {
            outcome: Some(pb::Outcome {
                termination: pb::Termination::TimeForfeit as i32,
                ..Default::default()
            }),
            fen: String::new(),
        };
        assert!(is_flag(&flag));
        assert!(!is_flag(&pb::GameOver::default()));
    }
}
