//! [`Replay`]: the events of one game after a seq, rebuilt from its log and its move list.

use std::sync::Arc;
use std::time::SystemTime;

use chessd_rules::{Color, Game, Position, Rules};

use crate::game::event::{
    Event, EventKind, clock_event, game_over_event, move_event, move_info, offer_event,
};
use crate::game::log::{LogEntry, LogKind, offer_after_move};
use crate::game::view::GameView;

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
                LogKind::ClockChanged { .. } => {}
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
            LogKind::ClockChanged { .. } => clock_event(seq, &entry, self.position.turn()),
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
