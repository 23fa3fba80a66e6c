//! A game's event log as it is kept: one small fixed-size [`LogEntry`] per event (time, kind,
//! clocks after a move). Everything else an event carries (the move's UCI and SAN, the position
//! after it, the standing draw offer, the outcome) is derived again from the game's move list
//! (see `replay`), so the log of a long game stays a few bytes per move.

use std::time::{Duration, SystemTime};

use chessd_rules::{ByColor, Color};

use crate::game::entropy::EntropyStep;
use crate::game::setup::SetupStep;
use crate::game::start::ClockChange;
use crate::game::time::{epoch_ms, from_epoch_ms};

/// One event as the log keeps it (24 bytes, pinned by a test below).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogEntry {
    /// Server time in milliseconds since the Unix epoch.
    pub at_ms: u64,
    pub kind: LogKind,
}

/// What the entry records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogKind {
    /// The next move of the game's move list. For a timed game: both clocks right after it in
    /// milliseconds (saturating at 49 days), and whether no clock runs right after it (it
    /// ended the game, or the clocks have not started).
    Move {
        clocks_ms: ByColor<u32>,
        clocks_stopped: bool,
    },
    DrawOffered(Color),
    DrawDeclined(Color),
    /// The game ended with the game's outcome (always the last entry).
    GameOver,
    /// A clock changed off the board: both clocks right after the change, in milliseconds,
    /// and whether the side to move's clock was running then.
    ClockChanged {
        clocks_ms: ByColor<u32>,
        change: ClockChange,
        running: bool,
    },
    /// `by` proposed to take back its last move (see `takeback`: what it takes back follows
    /// from the position it was made in).
    TakebackProposed(Color),
    /// `by` declined the opponent's takeback proposal.
    TakebackDeclined(Color),
    /// `by` withdrew its own takeback proposal.
    TakebackWithdrawn(Color),
    /// The last `plies` moves were taken back at `by`'s request (the opponent accepted); both
    /// clocks right after it, in milliseconds, and whether the side now to move's clock runs
    /// (not before the clocks start: `start::ClockStart`). The moves taken
    /// back leave the game's move list for the record's list of moves taken back, so a move
    /// entry's move is found by walking back from the end (`takeback::rewind`).
    TakenBack {
        plies: u8,
        by: Color,
        clocks_ms: ByColor<u32>,
        running: bool,
    },
    /// `seat` placed its army behind the screen (Screen Chess's setup: see `setup`); the
    /// placement itself is the record's (`Setup`), never the log's.
    Setup {
        seat: Color,
        step: SetupStep,
    },
    /// `seat` sent its commitment or its secret (the players' entropy: see `entropy`); the
    /// value is the record's (`Entropy`), never the log's.
    Entropy {
        seat: Color,
        step: EntropyStep,
    },
}

impl LogEntry {
    #[must_use]
    pub fn new(at: SystemTime, kind: LogKind) -> LogEntry {
        LogEntry {
            at_ms: epoch_ms(at),
            kind,
        }
    }

    #[must_use]
    pub fn at(&self) -> SystemTime {
        from_epoch_ms(self.at_ms)
    }
}

/// Milliseconds for the log, saturating.
#[must_use]
pub(crate) fn clock_ms(d: Duration) -> u32 {
    u32::try_from(d.as_millis()).unwrap_or(u32::MAX)
}

/// The standing draw offer after `mover` moves: a move declines the opponent's offer, and keeps
/// the mover's own (offered before moving, it waits for the opponent's answer).
#[must_use]
pub(crate) fn offer_after_move(offer: Option<Color>, mover: Color) -> Option<Color> {
    offer.filter(|&by| by == mover)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Takebacks add kinds, not bytes: an entry stays as small as a move's.
    #[test]
    fn entries_stay_small() {
        assert_eq!(size_of::<LogEntry>(), 24);
        assert_eq!(size_of::<LogKind>(), 12);
    }
}
