//! A game's event log, kept compact, and its replay into full [`Event`]s.
//!
//! The log stores one small fixed-size [`LogEntry`] per event (time, kind, clocks after a move):
//! everything else an event carries (the move's UCI and SAN, the position after it, the
//! standing draw offer, the outcome) is derived again from the game's move list. Live events and
//! replayed ones are built by the same functions (`move_event`, `offer_event`,
//! `game_over_event`) from the same entry, so a watcher
//! that resumes sees exactly what a live watcher saw.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use chessd_rules::{Color, Game, Move, Outcome, Position, Rules, san_plus};

use super::{ClockReading, Event, EventKind, GameView, MoveInfo};

/// One event as the log keeps it (16 bytes).
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
    /// milliseconds (saturating at 49 days), and whether the clocks stopped with it (it ended
    /// the game).
    Move {
        clocks_ms: [u32; 2],
        clocks_stopped: bool,
    },
    DrawOffered(Color),
    DrawDeclined(Color),
    /// The game ended with the game's outcome (always the last entry).
    GameOver,
}

impl LogEntry {
    #[must_use]
    pub fn new(at: SystemTime, kind: LogKind) -> LogEntry {
        let at_ms = at
            .duration_since(UNIX_EPOCH)
            .unwrap_or(Duration::ZERO)
            .as_millis() as u64;
        LogEntry { at_ms, kind }
    }

    #[must_use]
    pub fn at(&self) -> SystemTime {
        UNIX_EPOCH + Duration::from_millis(self.at_ms)
    }
}

/// Milliseconds for the log, saturating.
#[must_use]
pub fn clock_ms(d: Duration) -> u32 {
    u32::try_from(d.as_millis()).unwrap_or(u32::MAX)
}

/// The standing draw offer after `mover` moves: a move declines the opponent's offer, and keeps
/// the mover's own (offered before moving, it waits for the opponent's answer).
#[must_use]
pub fn offer_after_move(offer: Option<Color>, mover: Color) -> Option<Color> {
    offer.filter(|&by| by == mover)
}

/// The event of a move entry, numbered `seq`: `played` is the move (its seq is set here),
/// `position` and `draw_offer` the state right after it. `timed` says whether the game has
/// clocks.
#[must_use]
pub fn move_event(
    seq: u64,
    entry: &LogEntry,
    timed: bool,
    mut played: MoveInfo,
    position: Position,
    draw_offer: Option<Color>,
) -> Event {
    let at = entry.at();
    played.seq = seq;
    let clocks = match entry.kind {
        LogKind::Move {
            clocks_ms,
            clocks_stopped,
        } if timed => Some(ClockReading {
            remaining: clocks_ms.map(|ms| Duration::from_millis(u64::from(ms))),
            running: (!clocks_stopped).then_some(!played.color),
            read_at: at,
        }),
        _ => None,
    };
    Event {
        seq,
        at,
        kind: EventKind::MovePlayed {
            played,
            position,
            clocks,
            draw_offer,
        },
    }
}

/// The event of a game-over entry: the game ended with `outcome` in `position`.
#[must_use]
pub fn game_over_event(seq: u64, entry: &LogEntry, outcome: Outcome, position: Position) -> Event {
    Event {
        seq,
        at: entry.at(),
        kind: EventKind::GameOver { outcome, position },
    }
}

/// The event of a draw offer or decline entry (`None` for other kinds).
#[must_use]
pub fn offer_event(seq: u64, entry: &LogEntry) -> Option<Event> {
    let kind = match entry.kind {
        LogKind::DrawOffered(by) => EventKind::DrawOffered { by },
        LogKind::DrawDeclined(by) => EventKind::DrawDeclined { by },
        LogKind::Move { .. } | LogKind::GameOver => return None,
    };
    Some(Event {
        seq,
        at: entry.at(),
        kind,
    })
}

/// The events of one game after a seq, made one at a time as a watcher reads them.
///
/// It owns a copy of the game and of the log entries it has still to send, so making events
/// (which replays moves and writes SAN) happens outside the store's locks.
pub struct Replay {
    /// Sent first when the watch started from seq 0.
    snapshot: Option<Event>,
    game: Arc<Game>,
    /// The log entries still to send, with the seq of the first.
    entries: std::vec::IntoIter<LogEntry>,
    next_seq: u64,
    timed: bool,
    /// The position before the next move of `game.moves()` to be sent.
    position: Position,
    /// Index in `game.moves()` of the next move to be sent.
    next_move: usize,
    /// Moves already covered by `after_seq` that the position must still be advanced past
    /// (done lazily on the first event, outside the lock).
    skip_moves: usize,
    /// The standing draw offer as of the last event sent.
    draw_offer: Option<Color>,
}

impl Replay {
    /// The events after `after_seq` of a game with this log. `after_seq` is at most the log's
    /// length (the caller checks).
    #[must_use]
    pub fn after(game: &Arc<Game>, log: &[LogEntry], timed: bool, after_seq: u64) -> Replay {
        let seen = (after_seq as usize).min(log.len());
        let mut skip_moves = 0;
        let mut draw_offer = None;
        for entry in &log[..seen] {
            match entry.kind {
                LogKind::Move { .. } => {
                    let mover = mover_of(game, skip_moves);
                    draw_offer = offer_after_move(draw_offer, mover);
                    skip_moves += 1;
                }
                LogKind::DrawOffered(by) => draw_offer = Some(by),
                LogKind::DrawDeclined(_) | LogKind::GameOver => draw_offer = None,
            }
        }
        Replay {
            snapshot: None,
            game: Arc::clone(game),
            entries: Vec::from(&log[seen..]).into_iter(),
            next_seq: seen as u64 + 1,
            timed,
            position: *game.start(),
            next_move: 0,
            skip_moves,
            draw_offer,
        }
    }

    /// A snapshot of the whole game as of `view.last_seq`, taken at `at`, and nothing else.
    #[must_use]
    pub fn snapshot(view: GameView, at: SystemTime) -> Replay {
        let game = view.game.clone();
        let seq = view.last_seq;
        Replay {
            snapshot: Some(Event {
                seq,
                at,
                kind: EventKind::Snapshot(Box::new(view)),
            }),
            position: *game.start(),
            game,
            entries: Vec::new().into_iter(),
            next_seq: seq + 1,
            timed: false,
            next_move: 0,
            skip_moves: 0,
            draw_offer: None,
        }
    }

    /// Nothing to replay (a watch from the game's latest seq).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.snapshot.is_none() && self.entries.len() == 0
    }
}

/// The side that played move `index` (0-based) of `game`.
pub fn mover_of(game: &Game, index: usize) -> Color {
    if index.is_multiple_of(2) {
        game.start().turn()
    } else {
        !game.start().turn()
    }
}

impl Iterator for Replay {
    type Item = Event;

    fn next(&mut self) -> Option<Event> {
        if let Some(snapshot) = self.snapshot.take() {
            return Some(snapshot);
        }
        let entry = self.entries.next()?;
        while self.skip_moves > 0 {
            if let Some(&m) = self.game.moves().get(self.next_move) {
                self.position.play_unchecked(m);
            }
            self.next_move += 1;
            self.skip_moves -= 1;
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        match entry.kind {
            LogKind::Move { .. } => {
                // The log never holds more moves than the game; stop rather than invent one.
                let &mv = self.game.moves().get(self.next_move)?;
                let before = self.position;
                self.position.play_unchecked(mv);
                self.next_move += 1;
                self.draw_offer = offer_after_move(self.draw_offer, before.turn());
                let played = move_info(&before, mv, self.next_move as u32);
                Some(move_event(
                    seq,
                    &entry,
                    self.timed,
                    played,
                    self.position,
                    self.draw_offer,
                ))
            }
            LogKind::DrawOffered(by) => {
                self.draw_offer = Some(by);
                offer_event(seq, &entry)
            }
            LogKind::DrawDeclined(_) => {
                self.draw_offer = None;
                offer_event(seq, &entry)
            }
            // A game-over entry is only logged once the outcome is set.
            LogKind::GameOver => Some(game_over_event(
                seq,
                &entry,
                self.game.outcome()?,
                *self.game.position(),
            )),
        }
    }
}

/// A move played from `before` as ply `ply` (its seq is set when the event is made).
#[must_use]
pub fn move_info(before: &Position, mv: Move, ply: u32) -> MoveInfo {
    MoveInfo {
        mv,
        san: san_plus(before, mv),
        ply,
        color: before.turn(),
        seq: 0,
    }
}
