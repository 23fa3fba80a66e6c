//! Presence and the claim of a game whose side to move left: a seat's [`SeatPresence`]
//! (whether one of its WatchGame streams is open, and since when), a game's grace period
//! (`claim_after`, with its default from the time control) and the one rule that says when
//! the opponent may claim ([`claim_at`]).
//!
//! Presence is not the game's history: no event of the log, never replayed. The rule: the
//! opponent of a gone side to move may claim once the side has been gone for `claim_after`,
//! counted from the latest of its leaving, the start of its turn (a seat that plays without
//! watching gets the whole grace period on every turn), and the moment the judging server
//! started watching presence (nobody is connected after a restart until they watch again, and
//! the restart itself never makes a claim possible at once).

use std::time::{Duration, SystemTime};

use crate::game::clock::TimeControl;
use crate::game::error::InputError;
use crate::game::time::whole_ms_duration;

/// The shortest grace period a game may ask for.
pub(crate) const MIN_CLAIM_AFTER: Duration = Duration::from_secs(1);
/// The longest grace period a game may ask for.
pub(crate) const MAX_CLAIM_AFTER: Duration = Duration::from_secs(24 * 60 * 60);
/// The default grace period of an untimed game.
pub(crate) const UNTIMED_CLAIM_AFTER: Duration = Duration::from_secs(120);
/// The default grace period of a timed game lies between these.
pub(crate) const TIMED_CLAIM_AFTER: (Duration, Duration) =
    (Duration::from_secs(10), Duration::from_secs(60));

/// A seat's presence as one server sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatPresence {
    /// A stream of the seat is open (here, or on another replica).
    pub connected: bool,
    /// Since when it is connected, or gone; `None`: not seen since presence began.
    pub since: Option<SystemTime>,
    /// From when a gone seat's absence counts: `since`, but never before the judging server
    /// began to watch presence.
    pub absent_from: SystemTime,
}

impl SeatPresence {
    /// A seat never seen since `started`.
    #[must_use]
    pub fn unseen(started: SystemTime) -> SeatPresence {
        SeatPresence {
            connected: false,
            since: None,
            absent_from: started,
        }
    }
}

/// The grace period of a game with time control `tc` that did not choose one: a twelfth of
/// the game's estimated length (lichess's estimate: initial time plus 40 increments; 40
/// periods for a byoyomi clock, whose moves in byoyomi take a period at most) within
/// 10 to 60 seconds, so a bullet game waits 10 seconds and a rapid one a minute; an untimed
/// game waits 2 minutes.
#[must_use]
pub(crate) fn default_claim_after(tc: Option<TimeControl>) -> Duration {
    match tc {
        None => UNTIMED_CLAIM_AFTER,
        Some(tc) => {
            let per_move = tc.byoyomi.map_or(tc.increment, |b| b.period());
            let estimate = tc.initial.saturating_add(per_move.saturating_mul(40));
            (estimate / 12).clamp(TIMED_CLAIM_AFTER.0, TIMED_CLAIM_AFTER.1)
        }
    }
}

/// A requested grace period, validated (`None`: the default of the time control).
pub(crate) fn claim_after(
    asked: Option<Duration>,
    tc: Option<TimeControl>,
) -> Result<Duration, InputError> {
    match asked {
        None => Ok(default_claim_after(tc)),
        Some(d) if (MIN_CLAIM_AFTER..=MAX_CLAIM_AFTER).contains(&d) => Ok(whole_ms_duration(d)),
        Some(_) => Err(InputError::InvalidField {
            field: "claim_after",
            message: "expected 1 second to 24 hours".into(),
        }),
    }
}

/// When a claim against `presence`'s seat, to move since `turn_began`, becomes possible;
/// `None` while the seat is connected.
#[must_use]
pub(crate) fn claim_at(
    presence: SeatPresence,
    turn_began: SystemTime,
    claim_after: Duration,
) -> Option<SystemTime> {
    if presence.connected {
        return None;
    }
    Some(presence.absent_from.max(turn_began) + claim_after)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(initial: u64, increment: u64) -> Option<TimeControl> {
        Some(TimeControl {
            initial: Duration::from_secs(initial),
            increment: Duration::from_secs(increment),
            black_initial: None,
            black_increment: None,
            byoyomi: None,
        })
    }

    /// Bullet waits the floor, rapid and slower the ceiling, blitz in between; untimed two
    /// minutes.
    #[test]
    fn defaults_follow_the_time_control() {
        assert_eq!(default_claim_after(tc(60, 0)), Duration::from_secs(10));
        assert_eq!(
            default_claim_after(tc(180, 2)),
            Duration::from_secs(260) / 12
        );
        assert_eq!(default_claim_after(tc(300, 0)), Duration::from_secs(25));
        assert_eq!(default_claim_after(tc(600, 5)), Duration::from_secs(60));
        assert_eq!(default_claim_after(None), Duration::from_secs(120));
    }

    /// Out-of-range grace periods are refused; none asked takes the default.
    #[test]
    fn asked_grace_periods() {
        assert_eq!(claim_after(None, None).unwrap(), UNTIMED_CLAIM_AFTER);
        assert_eq!(
            claim_after(Some(Duration::from_secs(5)), None).unwrap(),
            Duration::from_secs(5)
        );
        for bad in [
            Duration::from_millis(999),
            MAX_CLAIM_AFTER + Duration::from_secs(1),
        ] {
            assert!(matches!(
                claim_after(Some(bad), None),
                Err(InputError::InvalidField {
                    field: "claim_after",
                    ..
                })
            ));
        }
    }

    /// The wait counts from the latest of leaving, the turn's start and the server's start;
    /// a connected seat gives no claim.
    #[test]
    fn claim_time() {
        let t0 = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let s = Duration::from_secs;
        let gone = |at: u64| SeatPresence {
            connected: false,
            since: Some(t0 + s(at)),
            absent_from: t0 + s(at),
        };
        assert_eq!(claim_at(gone(5), t0, s(30)), Some(t0 + s(35)));
        assert_eq!(claim_at(gone(5), t0 + s(20), s(30)), Some(t0 + s(50)));
        assert_eq!(
            claim_at(SeatPresence::unseen(t0), t0, s(30)),
            Some(t0 + s(30))
        );
        let connected = SeatPresence {
            connected: true,
            ..gone(5)
        };
        assert_eq!(claim_at(connected, t0, s(30)), None);
    }
}
