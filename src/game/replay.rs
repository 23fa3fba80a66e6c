//! [`Replay`]: the events of one game after a seq, rebuilt from its log and its move list.

use std::sync::Arc;
use std::time::SystemTime;

use chessd_rules::{Color, Game, Move, Position, Rules};

use crate::game::event::{
    Event, EventKind, clock_event, game_over_event, move_event, move_info, offer_event,
    takeback_proposed_event, taken_back_event,
};
use crate::game::log::{LogEntry, LogKind, offer_after_move};
use crate::game::takeback::{Rewound, any_taken_back, rewind};
use crate::game::view::{GameView, MoveInfo};

/// The events of one game after a seq, made one at a time as a watcher reads them.
///
/// It owns a copy of the game and of the log entries it has still to send, so making events
/// (which may replay moves) happens outside the store's locks.
///
/// With no takeback among the entries to send, the moves they play are the last ones of the
/// game's move list: their SAN is the game's record of them, and the position after its last
/// move is the game's current one, so the events of a move just made replay nothing (every
/// append to Redis and every event a following replica hears is one). With one, they are found by walking the entries back from the end
/// (`takeback::rewind`), done on the first event, outside the lock.
pub struct Replay {
    /// Sent first when the watch started from seq 0.
    snapshot: Option<Event>,
    game: Arc<Game>,
    /// The log entries still to send, with the seq of the first.
    entries: std::vec::IntoIter<LogEntry>,
    next_seq: u64,
    timed: bool,
    /// The position after `played` plies: with the standing source, played from the start
    /// only when an event needs a position other than the game's current one; after a
    /// rewind, always the position after `ply`.
    position: Position,
    played: usize,
    /// Where the moves come from.
    source: Source,
    /// Half-moves standing as of the last event sent.
    ply: usize,
    /// The standing draw offer as of the last event sent.
    draw_offer: Option<Color>,
}

/// Where a replay's moves come from.
enum Source {
    /// The game's move list, from index `ply` on.
    Standing,
    /// Takebacks ahead: the moves taken back (see `GameRecord::undone`) and the log entries
    /// to send, to be rewound on the first event.
    ToRewind { undone: Vec<Move> },
    /// Rewound: the moves standing (the line), and the moves of the move entries to send.
    Rewound {
        line: Vec<Move>,
        moves: std::vec::IntoIter<Move>,
    },
}

impl Replay {
    /// The events after `after_seq` of a game with this log, whose takebacks took back
    /// `undone`. `after_seq` is at most the log's length (the caller checks).
    #[must_use]
    pub fn after(
        game: &Arc<Game>,
        log: &[LogEntry],
        undone: &[Move],
        timed: bool,
        after_seq: u64,
    ) -> Replay {
        let seen = (after_seq as usize).min(log.len());
        let mut ply = 0usize;
        let mut draw_offer = None;
        for entry in &log[..seen] {
            match entry.kind {
                LogKind::Move { .. } => {
                    let mover = mover_of(game, ply);
                    draw_offer = offer_after_move(draw_offer, mover);
                    ply += 1;
                }
                LogKind::DrawOffered(by) => draw_offer = Some(by),
                LogKind::DrawDeclined(_) | LogKind::GameOver => draw_offer = None,
                LogKind::ClockChanged { .. } => {}
                LogKind::TakenBack { plies, .. } => {
                    ply = ply.saturating_sub(usize::from(plies));
                    draw_offer = None;
                }
                LogKind::TakebackProposed(_) | LogKind::TakebackDeclined(_) => {}
            }
        }
        let rest = &log[seen..];
        let source = if any_taken_back(rest) {
            Source::ToRewind {
                undone: undone.to_vec(),
            }
        } else {
            Source::Standing
        };
        Replay {
            snapshot: None,
            game: Arc::clone(game),
            entries: Vec::from(rest).into_iter(),
            next_seq: seen as u64 + 1,
            timed,
            position: *game.start(),
            played: 0,
            source,
            ply,
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
            played: 0,
            game,
            entries: Vec::new().into_iter(),
            next_seq: seq + 1,
            timed: false,
            source: Source::Standing,
            ply: 0,
            draw_offer: None,
        }
    }

    /// Nothing to replay (a watch from the game's latest seq).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.snapshot.is_none() && self.entries.len() == 0
    }

    /// The position after `ply` half-moves. With the standing source, the game's own current
    /// position when `ply` is all of its moves (a move just made: no replay at all), else
    /// the moves played forward from where the last call left the position.
    fn current(&mut self) -> Position {
        if !matches!(self.source, Source::Standing) {
            return self.position;
        }
        let moves = self.game.moves();
        if self.ply >= moves.len() {
            return *self.game.position();
        }
        if self.played > self.ply {
            (self.position, self.played) = (*self.game.start(), 0);
        }
        for &m in &moves[self.played..self.ply] {
            self.position.play_unchecked(m);
        }
        self.played = self.ply;
        self.position
    }

    /// After a takeback among the entries to send, finds the line they play (once).
    fn settle(&mut self) {
        if let Source::ToRewind { undone } = &self.source {
            let entries = self.entries.as_slice();
            // A log that does not fit the moves (a bug) replays nothing rather than invent.
            let rewound = rewind(self.game.moves(), undone, entries).unwrap_or(Rewound {
                line: Vec::new(),
                moves: Vec::new(),
            });
            self.position = line_position(&self.game, &rewound.line);
            self.ply = rewound.line.len();
            self.source = Source::Rewound {
                line: rewound.line,
                moves: rewound.moves.into_iter(),
            };
        }
    }

    /// The next move to send, added to the line.
    fn next_move(&mut self) -> Option<Move> {
        match &mut self.source {
            Source::Standing => self.game.moves().get(self.ply).copied(),
            Source::Rewound { line, moves } => {
                let m = moves.next()?;
                line.push(m);
                Some(m)
            }
            Source::ToRewind { .. } => None,
        }
    }
}

/// The position after `line`, played from `game`'s start.
fn line_position(game: &Game, line: &[Move]) -> Position {
    let mut position = *game.start();
    for &m in line {
        position.play_unchecked(m);
    }
    position
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
        let entry = self.entries.as_slice().first().copied()?;
        self.settle();
        self.entries.next();
        let seq = self.next_seq;
        self.next_seq += 1;
        match entry.kind {
            LogKind::Move { .. } => {
                // The log never holds more moves than the game; stop rather than invent one.
                let mv = self.next_move()?;
                let played = if matches!(self.source, Source::Standing) {
                    // A move of the game's own list: its SAN as the game recorded it.
                    let san = self.game.sans_from(self.ply).next()?;
                    let info = MoveInfo {
                        mv,
                        san: san.to_owned(),
                        ply: self.ply as u32 + 1,
                        color: mover_of(&self.game, self.ply),
                        seq: 0,
                    };
                    self.ply += 1;
                    info
                } else {
                    let before = self.position;
                    self.position.play_unchecked(mv);
                    self.ply += 1;
                    move_info(&before, mv, self.ply as u32)
                };
                self.draw_offer = offer_after_move(self.draw_offer, played.color);
                let after = self.current();
                Some(move_event(
                    seq,
                    &entry,
                    self.timed,
                    played,
                    after,
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
            LogKind::ClockChanged { .. } => clock_event(seq, &entry, self.current().turn()),
            LogKind::TakebackDeclined(_) => offer_event(seq, &entry),
            LogKind::TakebackProposed(_) => {
                takeback_proposed_event(seq, &entry, &self.current(), self.ply as u32)
            }
            LogKind::TakenBack { plies, .. } => {
                let Source::Rewound { line, .. } = &mut self.source else {
                    return None;
                };
                line.truncate(line.len().saturating_sub(usize::from(plies)));
                self.ply = line.len();
                self.position = line_position(&self.game, line);
                self.draw_offer = None;
                taken_back_event(seq, &entry, self.timed, self.position, self.ply as u32)
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
