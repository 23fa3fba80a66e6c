//! What happens in a game, as watchers see it ([`Event`]) and as storage keeps it
//! ([`EventRow`]), and the functions that build an event from a log entry. Live events and
//! replayed ones are built by the same functions (`move_event`, `offer_event`,
//! `game_over_event`) from the same entry, so a watcher that resumes sees exactly what a live
//! watcher saw.

use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

use chessd_rules::any::{AnyMove, AnyPosition};
use chessd_rules::{ByColor, Color, Outcome};

use crate::game::clock::{Byoyomi, ClockReading, TimeControl};
use crate::game::entropy::{EntropyStep, EntropyValue};
use crate::game::log::{LogEntry, LogKind};
use crate::game::setup::SetupStep;
use crate::game::start::ClockChange;
use crate::game::view::{GameView, MoveInfo};

/// A position's FEN, written by the first reader that needs it and shared by the others.
#[derive(Clone, Debug, Default)]
pub struct SharedFen(OnceLock<Box<str>>);

impl SharedFen {
    /// The FEN of `position`, the position this was made for.
    pub fn of(&self, position: &AnyPosition) -> &str {
        self.0.get_or_init(|| position.fen().into_boxed_str())
    }
}

/// Something that happened in a game, numbered by `seq` (1, 2, 3, ... per game).
#[derive(Clone, Debug)]
pub struct Event {
    pub seq: u64,
    /// When it happened (for a snapshot: when it was taken).
    pub at: SystemTime,
    pub kind: EventKind,
}

/// What happened.
#[derive(Clone, Debug)]
pub enum EventKind {
    /// The whole game as of `seq` (the first event of a watch from seq 0).
    Snapshot(Box<GameView>),
    MovePlayed {
        played: MoveInfo,
        /// The position after the move.
        position: AnyPosition,
        /// Its FEN, written once for the feed, every watcher that shows the whole board (a
        /// hidden board's views are written per viewer) and, on Redis, the game hash's
        /// summary; not at all when nobody reads it.
        fen: SharedFen,
        /// The clocks right after the move, increment included.
        clocks: Option<ClockReading>,
        /// The side whose draw offer stands after the move.
        draw_offer: Option<Color>,
    },
    DrawOffered {
        by: Color,
    },
    DrawDeclined {
        by: Color,
    },
    /// `by` proposed to take back `plies` plies, back to ply `ply`.
    TakebackProposed {
        by: Color,
        plies: u8,
        ply: u32,
    },
    /// `by` declined the opponent's takeback proposal.
    TakebackDeclined {
        by: Color,
    },
    /// `by` withdrew its own takeback proposal.
    TakebackWithdrawn {
        by: Color,
    },
    /// `by`'s takeback of `plies` plies was accepted: the game is back at ply `ply`, in
    /// `position`, with these clocks (no draw offer or takeback proposal stands).
    MovesTakenBack {
        by: Color,
        plies: u8,
        ply: u32,
        position: AnyPosition,
        clocks: Option<ClockReading>,
    },
    /// The last event of a game.
    GameOver {
        outcome: Outcome,
        position: AnyPosition,
    },
    /// A clock changed off the board; `clocks` as right after the change.
    ClockChanged {
        change: ClockChange,
        clocks: ClockReading,
    },
    /// `by` placed its army behind the screen (never shown: what it placed is its own until
    /// the reveal); on the reveal, `start` is the game's start, both halves joined.
    SetupPlaced {
        by: Color,
        step: SetupStep,
        start: Option<AnyPosition>,
    },
    /// `by` sent its commitment (`commitment`, public) or its secret, in a game with the
    /// players' entropy. A secret is shown once both are in: the second one's event (`Start`)
    /// carries both, and the game's start as play begins from it (Dice Chess's first roll
    /// drawn with the key).
    EntropySubmitted {
        by: Color,
        step: EntropyStep,
        commitment: Option<EntropyValue>,
        secrets: Option<ByColor<EntropyValue>>,
        start: Option<AnyPosition>,
    },
}

impl EventKind {
    #[must_use]
    pub fn is_game_over(&self) -> bool {
        matches!(self, EventKind::GameOver { .. })
    }

    /// The game whose board the event shows, for an event that shows one (what a viewer
    /// may see of it depends on the game).
    #[must_use]
    pub fn variant(&self) -> Option<chessd_rules::any::AnyVariant> {
        match self {
            EventKind::Snapshot(view) => Some(view.game.variant()),
            EventKind::MovePlayed { position, .. }
            | EventKind::MovesTakenBack { position, .. }
            | EventKind::GameOver { position, .. } => Some(position.variant()),
            EventKind::SetupPlaced {
                start: Some(start), ..
            }
            | EventKind::EntropySubmitted {
                start: Some(start), ..
            } => Some(start.variant()),
            _ => None,
        }
    }
}

/// Whether the event ends the game (a snapshot of a finished game does too).
#[must_use]
pub fn ends_game(event: &Event) -> bool {
    match &event.kind {
        EventKind::Snapshot(view) => view.game.is_over(),
        kind => kind.is_game_over(),
    }
}

/// One event as storage keeps it (SQLite rows, Redis stream entries): the log entry and what
/// a game needs to be played back from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    pub seq: u64,
    pub at_ms: u64,
    pub kind: LogKind,
    /// The move of a move event.
    pub mv: Option<AnyMove>,
    /// Who moved, offered or declined.
    pub seat: Option<Color>,
    /// A move's request id, so a retry after a restart plays nothing twice.
    pub request_id: Option<String>,
    /// Both clocks after the action, in milliseconds (timed games).
    pub clocks_ms: Option<ByColor<u64>>,
    /// The outcome of a game-over event.
    pub outcome: Option<Outcome>,
    /// A setup event's placement, and the game's start on the reveal.
    pub setup: Option<Box<SetupRow>>,
    /// An entropy event's commitment or secret, and the game's start on its `Start`.
    pub entropy: Option<Box<EntropyRow>>,
}

/// What an entropy event stores besides its entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntropyRow {
    /// The commitment or the secret the seat sent.
    pub value: EntropyValue,
    /// On the second secret: the start play begins from, as FEN.
    pub start: Option<String>,
}

/// What a setup event stores besides its entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupRow {
    /// The half placed: four FEN rows, top to bottom.
    pub placement: String,
    /// On the reveal of a game that is played: its start, as FEN.
    pub start: Option<String>,
}

/// The event of a move entry, numbered `seq`: `played` is the move (its seq is set here),
/// `position` and `draw_offer` the state right after it. `timed` says whether the game has
/// clocks.
#[must_use]
pub(crate) fn move_event(
    seq: u64,
    entry: &LogEntry,
    time_control: Option<TimeControl>,
    mut played: MoveInfo,
    position: AnyPosition,
    draw_offer: Option<Color>,
) -> Event {
    let at = entry.at();
    played.seq = seq;
    let clocks = match (entry.kind, time_control) {
        (
            LogKind::Move {
                clocks_ms,
                clocks_stopped,
            },
            Some(tc),
        ) => Some(ClockReading {
            remaining: clocks_ms.map(|ms| Duration::from_millis(u64::from(ms))),
            running: (!clocks_stopped).then_some(!played.color),
            read_at: at,
            byoyomi: tc.byoyomi,
        }),
        _ => None,
    };
    Event {
        seq,
        at,
        kind: EventKind::MovePlayed {
            played,
            fen: SharedFen::default(),
            position,
            clocks,
            draw_offer,
        },
    }
}

/// The event of a game-over entry: the game ended with `outcome` in `position`.
#[must_use]
pub(crate) fn game_over_event(
    seq: u64,
    entry: &LogEntry,
    outcome: Outcome,
    position: AnyPosition,
) -> Event {
    Event {
        seq,
        at: entry.at(),
        kind: EventKind::GameOver { outcome, position },
    }
}

/// The event of a draw offer or decline entry, or of a declined or withdrawn takeback (`None`
/// for other kinds).
#[must_use]
pub(crate) fn offer_event(seq: u64, entry: &LogEntry) -> Option<Event> {
    let kind = match entry.kind {
        LogKind::DrawOffered(by) => EventKind::DrawOffered { by },
        LogKind::DrawDeclined(by) => EventKind::DrawDeclined { by },
        LogKind::TakebackDeclined(by) => EventKind::TakebackDeclined { by },
        LogKind::TakebackWithdrawn(by) => EventKind::TakebackWithdrawn { by },
        LogKind::Move { .. }
        | LogKind::GameOver
        | LogKind::ClockChanged { .. }
        | LogKind::TakebackProposed(_)
        | LogKind::TakenBack { .. }
        | LogKind::Setup { .. }
        | LogKind::Entropy { .. } => return None,
    };
    Some(Event {
        seq,
        at: entry.at(),
        kind,
    })
}

/// The event of a clock-change entry (`None` for other kinds); `turn` is the side to move
/// when it was made, `byoyomi` the game's.
#[must_use]
pub(crate) fn clock_event(
    seq: u64,
    entry: &LogEntry,
    turn: Color,
    byoyomi: Option<Byoyomi>,
) -> Option<Event> {
    let LogKind::ClockChanged {
        clocks_ms,
        change,
        running,
    } = entry.kind
    else {
        return None;
    };
    let at = entry.at();
    Some(Event {
        seq,
        at,
        kind: EventKind::ClockChanged {
            change,
            clocks: ClockReading {
                remaining: clocks_ms.map(|ms| Duration::from_millis(u64::from(ms))),
                running: running.then_some(turn),
                read_at: at,
                byoyomi,
            },
        },
    })
}

/// The event of a takeback proposal entry, made in `position` at ply `ply` (`None` for other
/// kinds, or a proposal that takes nothing back, which is never logged).
#[must_use]
pub(crate) fn takeback_proposed_event(
    seq: u64,
    entry: &LogEntry,
    position: &AnyPosition,
    ply: u32,
) -> Option<Event> {
    let LogKind::TakebackProposed(by) = entry.kind else {
        return None;
    };
    let plies: u8 = if position.turn() == by { 2 } else { 1 };
    Some(Event {
        seq,
        at: entry.at(),
        kind: EventKind::TakebackProposed {
            by,
            plies,
            ply: ply.checked_sub(u32::from(plies))?,
        },
    })
}

/// The event of a takeback entry: the game is back at ply `ply` in `position` (`None` for
/// other kinds). `time_control` is the game's, if it has clocks.
#[must_use]
pub(crate) fn taken_back_event(
    seq: u64,
    entry: &LogEntry,
    time_control: Option<TimeControl>,
    position: AnyPosition,
    ply: u32,
) -> Option<Event> {
    let LogKind::TakenBack {
        plies,
        by,
        clocks_ms,
        running,
    } = entry.kind
    else {
        return None;
    };
    let at = entry.at();
    let clocks = time_control.map(|tc| ClockReading {
        remaining: clocks_ms.map(|ms| Duration::from_millis(u64::from(ms))),
        running: running.then_some(position.turn()),
        read_at: at,
        byoyomi: tc.byoyomi,
    });
    Some(Event {
        seq,
        at,
        kind: EventKind::MovesTakenBack {
            by,
            plies,
            ply,
            position,
            clocks,
        },
    })
}

/// A move played from `before` as ply `ply` (its seq is set when the event is made).
#[must_use]
pub(crate) fn move_info(before: &AnyPosition, mv: AnyMove, ply: u32) -> MoveInfo {
    MoveInfo {
        mv,
        san: before.san_plus(mv),
        ply,
        color: before.turn(),
        seq: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The FEN is the position's, written by the first reader; the others get those bytes.
    #[test]
    fn a_shared_fen_is_written_once() {
        let position = AnyPosition::new(chessd_rules::any::AnyVariant::CHESS);
        let fen = SharedFen::default();
        let first = fen.of(&position);
        assert_eq!(first, position.fen());
        assert!(std::ptr::eq(first, fen.of(&position)));
    }
}
