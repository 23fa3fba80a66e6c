//! A record's history: the engine's game, the event log, the moves taken back and the
//! answered move requests, which together say what happened and in which order. The stored
//! rows and a watcher's replay are both read out of it here.

use std::sync::Arc;

use chessd_rules::{
    ByColor,
    any::{AnyGame, AnyMove},
};

use super::answered::AnsweredRing;
use crate::game::action::RequestId;
use crate::game::clock::TimeControl;
use crate::game::entropy::{Entropy, EntropyStep};
use crate::game::event::EventRow;
use crate::game::event::{EntropyRow, SetupRow};
use crate::game::log::{LogEntry, LogKind};
use crate::game::replay::{Replay, mover_of};
use crate::game::setup::{Setup, SetupStep, decided_at_reveal};
use crate::game::takeback::{Rewound, any_taken_back, rewind};

/// What a game went through, event by event.
#[derive(Clone, Debug)]
pub(super) struct History {
    /// Shared with the views handed out: a view takes a reference, not a copy of every move,
    /// and the next change copies the game only if a view or a clone still holds it (answers
    /// are encoded and dropped long before the next move; the Redis store clones a record it
    /// acts on unread, to go back to if its append finds the copy stale).
    pub(super) game: Arc<AnyGame>,
    /// One entry per event: `log[i]` has seq `i + 1`.
    pub(super) log: Vec<LogEntry>,
    /// Every move taken back, earliest takeback first, each takeback's moves in the order they
    /// were played (empty in a game without takebacks).
    /// A boxed slice, rebuilt on each takeback: takebacks are rare, every running game has
    /// one of these, and a slice is a word smaller than a `Vec`.
    pub(super) undone: Box<[AnyMove]>,
    /// Request ids of recent moves.
    pub(super) answered: AnsweredRing,
    /// A game of a secret setup: its placements (see `setup`); `None` in other games.
    pub(super) setup: Option<Box<Setup>>,
    /// A game with the players' entropy: its commitments and secrets (see `entropy`); `None`
    /// in other games.
    pub(super) entropy: Option<Box<Entropy>>,
}

impl History {
    /// A game with no events yet.
    pub(super) fn new(game: AnyGame) -> History {
        History {
            game: Arc::new(game),
            log: Vec::new(),
            undone: Box::default(),
            answered: AnsweredRing::default(),
            setup: None,
            entropy: None,
        }
    }

    /// The game to change: copied first only if a view handed out earlier still shares it.
    pub(super) fn game_mut(&mut self) -> &mut AnyGame {
        Arc::make_mut(&mut self.game)
    }

    /// The seq of the latest event (0 before any).
    pub(super) fn last_seq(&self) -> u64 {
        self.log.len() as u64
    }

    /// Logs an event; its seq.
    pub(super) fn push(&mut self, entry: LogEntry) -> u64 {
        self.log.push(entry);
        self.last_seq()
    }

    /// The latest move or takeback in the log: what the side to move has been waiting since
    /// (the first-move timer, abandonment).
    pub(super) fn last_moved(&self) -> Option<LogEntry> {
        self.log
            .iter()
            .rev()
            .find(|e| {
                matches!(
                    e.kind,
                    LogKind::Move { .. }
                        | LogKind::TakenBack { .. }
                        | LogKind::Entropy {
                            step: EntropyStep::Start,
                            ..
                        }
                )
            })
            .copied()
    }

    /// Takes back the last `plies` moves: they move to `undone` and the answers to their
    /// requests are marked.
    pub(super) fn take_back(&mut self, plies: u8) -> Result<(), String> {
        let taken = self
            .game_mut()
            .take_back(usize::from(plies))
            .map_err(|e| e.to_string())?;
        self.undone = self.undone.iter().copied().chain(taken).collect();
        self.answered.take_back_to(self.game.ply());
        Ok(())
    }

    /// The events after `after_seq` as storage keeps them, each with `clocks_ms` (the clocks
    /// right after the action that made them). `request_id` is the request id of the move
    /// among them, if any.
    pub(super) fn rows_after(
        &self,
        after_seq: u64,
        clocks_ms: Option<ByColor<u64>>,
        request_id: Option<&RequestId>,
    ) -> Vec<EventRow> {
        let new = self.log.get(after_seq as usize..).unwrap_or_default();
        // The moves of the new move entries, and the line's length before the first.
        let (moves, mut depth) = if any_taken_back(new) {
            // A log that does not fit the moves (a bug) gives move rows without their move,
            // which no store restores: the fault shows rather than a wrong game.
            let rewound = rewind(self.game.moves(), &self.undone, new).unwrap_or(Rewound {
                line: Vec::new(),
                moves: Vec::new(),
            });
            (rewound.moves, rewound.line.len())
        } else {
            let new_moves = new
                .iter()
                .filter(|e| matches!(e.kind, LogKind::Move { .. }))
                .count();
            let first = (self.game.ply() as usize).saturating_sub(new_moves);
            (self.game.moves_from(first).collect(), first)
        };
        let mut index = 0;
        // The placement of each setup entry is the setup's next, counted from the log's start.
        let mut placed = self.log[..(after_seq as usize).min(self.log.len())]
            .iter()
            .filter(|e| matches!(e.kind, LogKind::Setup { .. }))
            .count();
        let mut seq = after_seq;
        new.iter()
            .map(|entry| {
                seq += 1;
                let mut row = EventRow {
                    seq,
                    at_ms: entry.at_ms,
                    kind: entry.kind,
                    mv: None,
                    seat: None,
                    request_id: None,
                    clocks_ms,
                    outcome: None,
                    setup: None,
                    entropy: None,
                };
                match entry.kind {
                    LogKind::Move { .. } => {
                        row.mv = moves.get(index).copied();
                        row.seat = Some(mover_of(&self.game, depth));
                        row.request_id = request_id.map(|r| r.as_str().to_owned());
                        index += 1;
                        depth += 1;
                    }
                    LogKind::DrawOffered(by)
                    | LogKind::DrawDeclined(by)
                    | LogKind::TakebackProposed(by)
                    | LogKind::TakebackDeclined(by)
                    | LogKind::TakebackWithdrawn(by) => row.seat = Some(by),
                    LogKind::TakenBack { plies, by, .. } => {
                        row.seat = Some(by);
                        depth = depth.saturating_sub(usize::from(plies));
                    }
                    LogKind::GameOver => row.outcome = self.game.outcome(),
                    LogKind::ClockChanged { change, .. } => row.seat = change.by(),
                    LogKind::Setup { seat, step } => {
                        row.seat = Some(seat);
                        row.setup = self.setup_row(placed, step);
                        placed += 1;
                    }
                    LogKind::Entropy { seat, step } => {
                        row.seat = Some(seat);
                        row.entropy = self.entropy.as_deref().and_then(|e| {
                            Some(Box::new(EntropyRow {
                                value: *e.value(seat, step)?,
                                start: (step == EntropyStep::Start)
                                    .then(|| self.game.start().fen()),
                            }))
                        });
                    }
                }
                row
            })
            .collect()
    }

    /// The stored part of the `index`th setup entry, a `step`: its placement, and the start
    /// the reveal gave a game that is played from it.
    fn setup_row(&self, index: usize, step: SetupStep) -> Option<Box<SetupRow>> {
        let setup = self.setup.as_deref()?;
        let (_, _, half) = setup.placement(index)?;
        let start = (step == SetupStep::Reveal && !decided_at_reveal(&self.game))
            .then(|| self.game.start().fen());
        Some(Box::new(SetupRow {
            placement: half.to_string(),
            start,
        }))
    }

    /// The events after `after_seq` (at most `last_seq`), for a game with `time_control`.
    pub(super) fn replay_after(&self, time_control: Option<TimeControl>, after_seq: u64) -> Replay {
        Replay::after(&self.game, &self.log, &self.undone, time_control, after_seq)
            .with_entropy(self.entropy.as_deref())
    }

    /// Bytes on the heap.
    pub(super) fn heap_bytes(&self) -> usize {
        self.game.heap_bytes()
            + self.log.capacity() * size_of::<LogEntry>()
            + self.answered.heap_bytes()
            + self.undone.len() * size_of::<AnyMove>()
            + self
                .setup
                .as_ref()
                .map_or(0, |s| size_of::<Setup>() + s.heap_bytes())
            + self.entropy.as_ref().map_or(0, |_| size_of::<Entropy>())
    }
}
