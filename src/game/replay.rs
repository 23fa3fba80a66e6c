//! [`Replay`]: the events of one game after a seq, rebuilt from its log and its move list.

use std::sync::Arc;
use std::time::SystemTime;

use chessd_rules::{
    ByColor, Color,
    any::{AnyGame, AnyMove, AnyPosition},
};

use crate::game::clock::TimeControl;
use crate::game::entropy::{Entropy, EntropyStep};
use crate::game::event::{
    Event, EventKind, clock_event, game_over_event, move_event, move_info, offer_event,
    takeback_proposed_event, taken_back_event,
};
use crate::game::log::{LogEntry, LogKind, offer_after_move};
use crate::game::setup::{SetupStep, decided_at_reveal};
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
/// event a following replica hears is one). With one, they are found by walking the entries
/// back from the end (`takeback::rewind`), done on the first event, outside the lock.
pub struct Replay {
    /// Sent first when the watch started from seq 0.
    snapshot: Option<Event>,
    game: Arc<AnyGame>,
    /// The log entries still to send, with the seq of the first.
    entries: std::vec::IntoIter<LogEntry>,
    next_seq: u64,
    /// The game's time control, for its events' clocks.
    time_control: Option<TimeControl>,
    /// The position after `played` plies: with the standing source, played from the start
    /// only when an event needs a position other than the game's current one; after a
    /// rewind, always the position after `ply`.
    position: AnyPosition,
    played: usize,
    /// Where the moves come from.
    source: Source,
    /// Half-moves standing as of the last event sent.
    ply: usize,
    /// The standing draw offer as of the last event sent.
    draw_offer: Option<Color>,
    /// The players' entropy, whose commitments and secrets its events show (`None` in a
    /// game without it).
    entropy: Option<Box<Entropy>>,
}

/// Where a replay's moves come from.
enum Source {
    /// The game's move list, from index `ply` on.
    Standing,
    /// Takebacks ahead: the moves taken back (see `GameRecord::undone`) and the log entries
    /// to send, to be rewound on the first event.
    ToRewind { undone: Vec<AnyMove> },
    /// Rewound: the moves standing (the line), and the moves of the move entries to send.
    Rewound {
        line: Vec<AnyMove>,
        moves: std::vec::IntoIter<AnyMove>,
    },
}

impl Replay {
    /// The events after `after_seq` of a game with this log, whose takebacks took back
    /// `undone`. `after_seq` is at most the log's length (the caller checks).
    #[must_use]
    pub fn after(
        game: &Arc<AnyGame>,
        log: &[LogEntry],
        undone: &[AnyMove],
        time_control: Option<TimeControl>,
        after_seq: u64,
    ) -> Replay {
        let seen = (after_seq as usize).min(log.len());
        let rest = &log[seen..];
        let start_turn = game.start().turn();
        let (ply, draw_offer, source) = if any_taken_back(rest) {
            let (ply, draw_offer) = state_forward(start_turn, &log[..seen]);
            let source = Source::ToRewind {
                undone: undone.to_vec(),
            };
            (ply, draw_offer, source)
        } else {
            // No takeback among the entries to send: their moves are the game's last ones, so
            // the state before them is read back from the end of the log, not replayed from
            // its start (a move just made costs the same in a long game as in a short one).
            let moves_ahead = rest
                .iter()
                .filter(|e| matches!(e.kind, LogKind::Move { .. }))
                .count();
            let ply = game.moves().len().saturating_sub(moves_ahead);
            (
                ply,
                offer_before(start_turn, ply, &log[..seen]),
                Source::Standing,
            )
        };
        Replay {
            snapshot: None,
            game: Arc::clone(game),
            entries: Vec::from(rest).into_iter(),
            next_seq: seen as u64 + 1,
            time_control,
            position: game.start(),
            played: 0,
            source,
            ply,
            draw_offer,
            entropy: None,
        }
    }

    /// The same replay, its entropy events shown from `entropy` (the game's players' entropy).
    #[must_use]
    pub fn with_entropy(mut self, entropy: Option<&Entropy>) -> Replay {
        self.entropy = entropy.map(|e| Box::new(e.clone()));
        self
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
            position: game.start(),
            played: 0,
            game,
            entries: Vec::new().into_iter(),
            next_seq: seq + 1,
            time_control: None,
            source: Source::Standing,
            ply: 0,
            draw_offer: None,
            entropy: None,
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
    fn current(&mut self) -> AnyPosition {
        if !matches!(self.source, Source::Standing) {
            return self.position;
        }
        if self.ply >= self.game.ply() as usize {
            return self.game.position();
        }
        if self.played > self.ply {
            (self.position, self.played) = (self.game.start(), 0);
        }
        for m in self
            .game
            .moves_from(self.played)
            .take(self.ply - self.played)
        {
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
    fn next_move(&mut self) -> Option<AnyMove> {
        match &mut self.source {
            Source::Standing => self.game.move_at(self.ply),
            Source::Rewound { line, moves } => {
                let m = moves.next()?;
                line.push(m);
                Some(m)
            }
            Source::ToRewind { .. } => None,
        }
    }
}

/// Half-moves standing and the standing draw offer after `log` (a game's log from its start),
/// played forward: what a takeback among the entries to send needs.
fn state_forward(start_turn: Color, log: &[LogEntry]) -> (usize, Option<Color>) {
    let mut ply = 0usize;
    let mut draw_offer = None;
    for entry in log {
        match entry.kind {
            LogKind::Move { .. } => {
                draw_offer = offer_after_move(draw_offer, mover(start_turn, ply));
                ply += 1;
            }
            LogKind::DrawOffered(by) => draw_offer = Some(by),
            LogKind::DrawDeclined(_) | LogKind::GameOver => draw_offer = None,
            LogKind::ClockChanged { .. } | LogKind::Setup { .. } | LogKind::Entropy { .. } => {}
            LogKind::TakenBack { plies, .. } => {
                ply = ply.saturating_sub(usize::from(plies));
                draw_offer = None;
            }
            LogKind::TakebackProposed(_)
            | LogKind::TakebackDeclined(_)
            | LogKind::TakebackWithdrawn(_) => {}
        }
    }
    (ply, draw_offer)
}

/// The standing draw offer after `log`, with `ply` half-moves standing then, read from its end:
/// an offer stands if no move by the other side, decline, end or takeback came after it, so
/// the walk stops at the offer or once both sides have moved (at most a few entries back).
fn offer_before(start_turn: Color, mut ply: usize, log: &[LogEntry]) -> Option<Color> {
    let mut moved = ByColor::new(false, false);
    for entry in log.iter().rev() {
        match entry.kind {
            LogKind::Move { .. } => {
                ply = ply.checked_sub(1)?;
                *moved.get_mut(mover(start_turn, ply)) = true;
                if *moved.white() && *moved.black() {
                    return None;
                }
            }
            LogKind::DrawOffered(by) => return (!*moved.get(!by)).then_some(by),
            LogKind::DrawDeclined(_) | LogKind::GameOver | LogKind::TakenBack { .. } => {
                return None;
            }
            LogKind::ClockChanged { .. }
            | LogKind::Setup { .. }
            | LogKind::Entropy { .. }
            | LogKind::TakebackProposed(_)
            | LogKind::TakebackDeclined(_)
            | LogKind::TakebackWithdrawn(_) => {}
        }
    }
    None
}

/// The side that played move `index` (0-based) of a game whose start has `start_turn` to move.
fn mover(start_turn: Color, index: usize) -> Color {
    if index.is_multiple_of(2) {
        start_turn
    } else {
        !start_turn
    }
}

/// The position after `line`, played from `game`'s start.
fn line_position(game: &AnyGame, line: &[AnyMove]) -> AnyPosition {
    let mut position = game.start();
    for &m in line {
        position.play_unchecked(m);
    }
    position
}

/// The side that played move `index` (0-based) of `game`.
pub(crate) fn mover_of(game: &AnyGame, index: usize) -> Color {
    mover(game.start().turn(), index)
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
                    self.time_control,
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
            LogKind::ClockChanged { .. } => clock_event(
                seq,
                &entry,
                self.current().turn(),
                self.time_control.and_then(|tc| tc.byoyomi),
            ),
            LogKind::TakebackDeclined(_) | LogKind::TakebackWithdrawn(_) => {
                offer_event(seq, &entry)
            }
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
                taken_back_event(
                    seq,
                    &entry,
                    self.time_control,
                    self.position,
                    self.ply as u32,
                )
            }
            // A game-over entry is only logged once the outcome is set.
            LogKind::GameOver => Some(game_over_event(
                seq,
                &entry,
                self.game.outcome()?,
                self.game.position(),
            )),
            LogKind::Setup { seat, step } => Some(Event {
                seq,
                at: entry.at(),
                kind: EventKind::SetupPlaced {
                    by: seat,
                    step,
                    start: (step == SetupStep::Reveal && !decided_at_reveal(&self.game))
                        .then(|| self.game.start()),
                },
            }),
            LogKind::Entropy { seat, step } => {
                let entropy = self.entropy.as_deref();
                let started = step == EntropyStep::Start;
                Some(Event {
                    seq,
                    at: entry.at(),
                    kind: EventKind::EntropySubmitted {
                        by: seat,
                        step,
                        commitment: entropy
                            .filter(|_| !step.is_reveal())
                            .and_then(|e| e.commitment(seat).copied()),
                        secrets: entropy.filter(|_| started).and_then(Entropy::secrets),
                        start: started.then(|| self.game.start()),
                    },
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use chessd_rules::ByColor;
    use proptest::prelude::*;

    use super::*;

    fn entry(kind: LogKind) -> LogEntry {
        LogEntry { at_ms: 0, kind }
    }

    /// A log from a script: moves, offers, declines, clock changes, proposals and takebacks
    /// (never more plies than stand), maybe ended; with the plies standing at its end.
    fn log_of(script: &[u8]) -> (Vec<LogEntry>, usize) {
        let clocks_ms = ByColor::new(0, 0);
        let mut log = Vec::new();
        let mut ply = 0usize;
        for &step in script {
            let side = if step % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let kind = match step % 8 {
                0..=2 => {
                    ply += 1;
                    LogKind::Move {
                        clocks_ms,
                        clocks_stopped: false,
                    }
                }
                3 => LogKind::DrawOffered(side),
                4 => LogKind::DrawDeclined(side),
                5 => LogKind::TakebackProposed(side),
                6 if ply > 0 => {
                    let plies = 1 + u8::from(ply > 1 && step > 100);
                    ply -= usize::from(plies);
                    LogKind::TakenBack {
                        plies,
                        by: side,
                        clocks_ms,
                        running: true,
                    }
                }
                _ => LogKind::TakebackDeclined(side),
            };
            log.push(entry(kind));
        }
        if script.first().is_some_and(|&s| s > 200) {
            log.push(entry(LogKind::GameOver));
        }
        (log, ply)
    }

    proptest! {
        /// Before any entry that no takeback follows, the plies standing (the game's, less the
        /// moves still to come) and the draw offer read from the log's end are what playing the
        /// log forward from its start gives, for either side to move first.
        #[test]
        fn the_state_read_back_is_the_state_played_forward(
            script in proptest::collection::vec(any::<u8>(), 0..60),
            black_first in any::<bool>(),
        ) {
            let start_turn = if black_first { Color::Black } else { Color::White };
            let (log, standing) = log_of(&script);
            for seen in 0..=log.len() {
                let rest = &log[seen..];
                if any_taken_back(rest) {
                    continue;
                }
                let ahead = rest
                    .iter()
                    .filter(|e| matches!(e.kind, LogKind::Move { .. }))
                    .count();
                let ply = standing - ahead;
                let forward = state_forward(start_turn, &log[..seen]);
                prop_assert_eq!(ply, forward.0, "plies before entry {}", seen);
                prop_assert_eq!(
                    offer_before(start_turn, ply, &log[..seen]),
                    forward.1,
                    "offer before entry {}",
                    seen
                );
            }
        }
    }
}
