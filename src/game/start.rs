//! How a game gets going and how its clocks change off the board: [`StartRules`] (when the
//! clocks start, [`ClockStart`], and the first-move timer) and [`ClockChange`] (time given by
//! a seat, an arbiter's change), with the text forms storage keeps them in.
//!
//! The first-move timer: the side to move must make its first move within
//! `first_move_timeout`, counted from the creation (or the scheduled clock start, if later)
//! for the side that moves first and from that move for the other; otherwise the game is
//! called off (`Termination::NoStart`, no result), as lichess aborts a game nobody started.
//! Its deadline is a wall-clock time, the same on every replica and across a restart.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, SystemTime};

use chessd_rules::Color;

use crate::game::time::{epoch_ms, from_epoch_ms};

/// The first-move timer of a timed game created without one (lichess gives about as long).
pub const DEFAULT_FIRST_MOVE_TIMEOUT: Duration = Duration::from_secs(30);

/// The first-move timer of a timed game with a secret setup created without one: the timer
/// covers the setup (`game::setup`), and placing sixteen pieces by hand takes minutes, not
/// the seconds a first move does.
pub const DEFAULT_SETUP_TIMEOUT: Duration = Duration::from_secs(180);

/// When a timed game's clocks start running.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ClockStart {
    /// The side to move's clock runs from the creation.
    #[default]
    OnCreation,
    /// Each side's first move is free; the clocks run once both sides have moved.
    AfterFirstMoves,
    /// The clocks run from this time (to the millisecond); a move before it is free.
    At(SystemTime),
}

/// A game's start rules, fixed at its creation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StartRules {
    pub clock_start: ClockStart,
    /// The first-move timer; `None`: none.
    pub first_move_timeout: Option<Duration>,
}

impl StartRules {
    /// When the side that moves first starts being waited for: the creation, or a scheduled
    /// clock start after it.
    #[must_use]
    pub fn waiting_from(&self, created_at: SystemTime) -> SystemTime {
        match self.clock_start {
            ClockStart::At(at) => at.max(created_at),
            _ => created_at,
        }
    }
}

/// [`StartRules`] as a game's header and its running record keep them: two words where the
/// rules take four (every game a server holds has both). To the millisecond, as every store
/// keeps them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PackedStartRules {
    /// `ClockStart::At`'s time in milliseconds since the Unix epoch (0 for the other starts).
    at_ms: u64,
    /// The first-move timer in milliseconds; `u32::MAX`: none (the API allows a day at most).
    first_move_ms: u32,
    /// `ClockStart`: 0 on creation, 1 after the first moves, 2 at `at_ms`.
    clock_start: u8,
}

impl From<StartRules> for PackedStartRules {
    fn from(rules: StartRules) -> PackedStartRules {
        let (clock_start, at_ms) = match rules.clock_start {
            ClockStart::OnCreation => (0, 0),
            ClockStart::AfterFirstMoves => (1, 0),
            ClockStart::At(at) => (2, epoch_ms(at)),
        };
        PackedStartRules {
            at_ms,
            first_move_ms: rules.first_move_timeout.map_or(u32::MAX, |d| {
                u32::try_from(d.as_millis()).map_or(u32::MAX - 1, |ms| ms.min(u32::MAX - 1))
            }),
            clock_start,
        }
    }
}

impl From<PackedStartRules> for StartRules {
    fn from(p: PackedStartRules) -> StartRules {
        StartRules {
            clock_start: match p.clock_start {
                0 => ClockStart::OnCreation,
                1 => ClockStart::AfterFirstMoves,
                _ => ClockStart::At(from_epoch_ms(p.at_ms)),
            },
            first_move_timeout: (p.first_move_ms != u32::MAX)
                .then(|| Duration::from_millis(u64::from(p.first_move_ms))),
        }
    }
}

impl fmt::Display for ClockStart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClockStart::OnCreation => f.write_str("creation"),
            ClockStart::AfterFirstMoves => f.write_str("first-moves"),
            ClockStart::At(at) => write!(f, "at:{}", epoch_ms(*at)),
        }
    }
}

impl FromStr for ClockStart {
    type Err = String;

    fn from_str(text: &str) -> Result<ClockStart, String> {
        match text {
            "" | "creation" => Ok(ClockStart::OnCreation),
            "first-moves" => Ok(ClockStart::AfterFirstMoves),
            _ => text
                .strip_prefix("at:")
                .and_then(|ms| ms.parse().ok())
                .map(|ms| ClockStart::At(from_epoch_ms(ms)))
                .ok_or_else(|| format!("clock start {text:?}")),
        }
    }
}

/// Why a clock changed off the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClockReason {
    /// The opponent gave time (AddTime).
    Given,
    /// An arbiter set the time left.
    ArbiterSet,
    /// An arbiter added time.
    ArbiterAdded,
    /// An arbiter took time off.
    ArbiterSubtracted,
}

/// A change of one side's clock off the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClockChange {
    /// Whose clock changed.
    pub side: Color,
    pub reason: ClockReason,
}

impl ClockChange {
    /// The seat that made the change (`None`: an arbiter).
    #[must_use]
    pub fn by(&self) -> Option<Color> {
        (self.reason == ClockReason::Given).then_some(!self.side)
    }
}

impl fmt::Display for ClockChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = match self.side {
            Color::White => "w",
            Color::Black => "b",
        };
        let reason = match self.reason {
            ClockReason::Given => "given",
            ClockReason::ArbiterSet => "set",
            ClockReason::ArbiterAdded => "added",
            ClockReason::ArbiterSubtracted => "subtracted",
        };
        write!(f, "{side}:{reason}")
    }
}

impl FromStr for ClockChange {
    type Err = String;

    fn from_str(text: &str) -> Result<ClockChange, String> {
        let bad = || format!("clock change {text:?}");
        let (side, reason) = text.split_once(':').ok_or_else(bad)?;
        let side = match side {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return Err(bad()),
        };
        let reason = match reason {
            "given" => ClockReason::Given,
            "set" => ClockReason::ArbiterSet,
            "added" => ClockReason::ArbiterAdded,
            "subtracted" => ClockReason::ArbiterSubtracted,
            _ => return Err(bad()),
        };
        Ok(ClockChange { side, reason })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every start and change reads back from its text; unknown text is refused.
    #[test]
    fn text_round_trips() {
        for start in [
            ClockStart::OnCreation,
            ClockStart::AfterFirstMoves,
            ClockStart::At(from_epoch_ms(1_700_000_000_123)),
        ] {
            assert_eq!(start.to_string().parse::<ClockStart>(), Ok(start));
        }
        assert!("at:x".parse::<ClockStart>().is_err());
        for side in [Color::White, Color::Black] {
            for reason in [
                ClockReason::Given,
                ClockReason::ArbiterSet,
                ClockReason::ArbiterAdded,
                ClockReason::ArbiterSubtracted,
            ] {
                let change = ClockChange { side, reason };
                assert_eq!(change.to_string().parse::<ClockChange>(), Ok(change));
            }
        }
        assert!("w:gift".parse::<ClockChange>().is_err());
    }

    /// Time given comes from the opponent; an arbiter is no seat.
    #[test]
    fn who_changed() {
        let given = ClockChange {
            side: Color::Black,
            reason: ClockReason::Given,
        };
        assert_eq!(given.by(), Some(Color::White));
        let set = ClockChange {
            side: Color::Black,
            reason: ClockReason::ArbiterSet,
        };
        assert_eq!(set.by(), None);
    }

    /// Packed, the start rules read back as they were (to the millisecond), in half the size.
    #[test]
    fn packed_start_rules_read_back() {
        let at = from_epoch_ms(1_767_225_700_123);
        for clock_start in [
            ClockStart::OnCreation,
            ClockStart::AfterFirstMoves,
            ClockStart::At(at),
            ClockStart::At(from_epoch_ms(0)),
        ] {
            for first_move_timeout in [
                None,
                Some(Duration::ZERO),
                Some(Duration::from_secs(86_400)),
            ] {
                let rules = StartRules {
                    clock_start,
                    first_move_timeout,
                };
                assert_eq!(StartRules::from(PackedStartRules::from(rules)), rules);
            }
        }
        assert!(size_of::<PackedStartRules>() * 2 <= size_of::<StartRules>());
    }
}
