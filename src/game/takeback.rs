//! Takebacks as the domain sees them: a game's [`TakebackPolicy`], what a proposal takes back
//! ([`plies_to_take_back`]), and which move each move entry of a log played once takebacks
//! make the log and the game's move list part ways ([`rewind`]); and [`Line`], the position a
//! store reads its next stored move in.
//!
//! The rule (lichess's): a seat asks to take back its own last move. When its opponent is to
//! move (the proposer just moved), that is one ply; when the proposer is to move (the opponent
//! replied), two plies: the opponent's reply and the proposer's move before it. Only the
//! opponent can accept. A proposal stands for the position it was made in: any move clears it
//! (the opponent's declines it, the proposer's own withdraws it, both without an event), and
//! so does the game's end.

use chessd_rules::{
    Color,
    any::{AnyGame, AnyMove, AnyPosition},
};

use crate::game::log::{LogEntry, LogKind};

/// Whether a game allows takebacks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TakebackPolicy {
    /// No takebacks: proposing one is refused (the default: rated and bot games).
    #[default]
    Off,
    /// A seat may propose one; it happens only when the opponent accepts.
    OnRequest,
}

/// How many plies `proposer`'s takeback would take back in `game` now: 1 when the opponent is
/// to move, 2 when the proposer is; `None` when the proposer has no move to take back (or the
/// game is over).
#[must_use]
pub(crate) fn plies_to_take_back(game: &AnyGame, proposer: Color) -> Option<u8> {
    if game.is_over() {
        return None;
    }
    let plies = if game.position().turn() == proposer {
        2
    } else {
        1
    };
    (game.ply() >= u32::from(plies)).then_some(plies)
}

/// Where a log's entries stood: the line (the moves standing) before the first of them, and
/// the move each of their move entries played, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Rewound {
    pub line: Vec<AnyMove>,
    pub moves: Vec<AnyMove>,
}

/// The moves of `entries`, the last entries of a log whose game now stands at `current` and
/// whose takebacks took back `undone` (every takeback's moves, earliest takeback first, each
/// one's moves in the order they were played). Walking back from the end, a move entry's move
/// is the last of the line and leaves it, and a takeback puts back the moves it took.
/// `None` if the entries do not fit the moves (a bug or a damaged store).
#[must_use]
pub(crate) fn rewind(
    current: impl Iterator<Item = AnyMove>,
    undone: &[AnyMove],
    entries: &[LogEntry],
) -> Option<Rewound> {
    let mut line: Vec<AnyMove> = current.collect();
    let mut undone_end = undone.len();
    let mut moves = Vec::new();
    for entry in entries.iter().rev() {
        match entry.kind {
            LogKind::Move { .. } => moves.push(line.pop()?),
            LogKind::TakenBack { plies, .. } => {
                let from = undone_end.checked_sub(usize::from(plies))?;
                line.extend_from_slice(&undone[from..undone_end]);
                undone_end = from;
            }
            _ => {}
        }
    }
    moves.reverse();
    Some(Rewound { line, moves })
}

/// The moves standing as a store reads a game's events back (each move is stored as UCI, read
/// in the position before it): the position after them, and a takeback's rewind. Started from
/// a game already read, it copies none of its moves unless a takeback reaches below them.
#[derive(Clone, Debug)]
pub(crate) struct Line<'a> {
    start: AnyPosition,
    /// The game it started from, whose first `kept` moves stand.
    base: Option<&'a AnyGame>,
    kept: usize,
    /// The moves read since.
    added: Vec<AnyMove>,
    position: AnyPosition,
}

impl<'a> Line<'a> {
    /// A game's line before any event.
    #[must_use]
    pub(crate) fn from_start(start: AnyPosition) -> Line<'static> {
        Line {
            start,
            base: None,
            kept: 0,
            added: Vec::new(),
            position: start,
        }
    }

    /// The line of `game` as it stands.
    #[must_use]
    pub(crate) fn of(game: &'a AnyGame) -> Line<'a> {
        Line {
            start: game.start(),
            base: Some(game),
            kept: game.ply() as usize,
            added: Vec::new(),
            position: game.position(),
        }
    }

    /// The position after the moves standing.
    #[must_use]
    pub(crate) fn position(&self) -> &AnyPosition {
        &self.position
    }

    /// A move read (legal in `position`: the caller resolved it there).
    pub(crate) fn play(&mut self, m: AnyMove) {
        self.position.play_unchecked(m);
        self.added.push(m);
    }

    /// A takeback of `plies` read; an error if fewer moves stand.
    pub(crate) fn take_back(&mut self, plies: u8) -> Result<(), String> {
        let plies = usize::from(plies);
        let standing = self.kept + self.added.len();
        if plies > standing {
            return Err(format!("cannot take back {plies} moves of {standing}"));
        }
        let from_added = plies.min(self.added.len());
        self.added.truncate(self.added.len() - from_added);
        self.kept -= plies - from_added;
        let mut position = self.start;
        let kept = self
            .base
            .into_iter()
            .flat_map(|g| g.moves().take(self.kept));
        for m in kept.chain(self.added.iter().copied()) {
            position.play_unchecked(m);
        }
        self.position = position;
        Ok(())
    }
}

/// Whether any of `entries` is a takeback.
#[must_use]
pub(crate) fn any_taken_back(entries: &[LogEntry]) -> bool {
    entries
        .iter()
        .any(|e| matches!(e.kind, LogKind::TakenBack { .. }))
}

#[cfg(test)]
mod tests {
    use chessd_rules::{
        ByColor, DrawRule,
        any::{AnyPosition, AnyVariant},
    };
    use proptest::prelude::*;

    use super::*;

    fn game(moves: &str) -> AnyGame {
        let mut g = AnyGame::new(AnyPosition::new(AnyVariant::CHESS), DrawRule::Claim);
        for m in moves.split_whitespace() {
            g.play_text(m).unwrap();
        }
        g
    }

    /// A proposer to move takes back two plies, one who just moved one; a side with no move
    /// of its own has nothing to take back.
    #[test]
    fn what_a_proposal_takes_back() {
        assert_eq!(plies_to_take_back(&game(""), Color::White), None);
        assert_eq!(plies_to_take_back(&game(""), Color::Black), None);
        assert_eq!(plies_to_take_back(&game("e4"), Color::White), Some(1));
        assert_eq!(plies_to_take_back(&game("e4"), Color::Black), None);
        assert_eq!(plies_to_take_back(&game("e4 e5"), Color::White), Some(2));
        assert_eq!(plies_to_take_back(&game("e4 e5"), Color::Black), Some(1));
        let mut over = game("f3 e5 g4 Qh4#");
        assert!(over.is_over());
        assert_eq!(plies_to_take_back(&over, Color::Black), None);
        over = game("e4");
        over.finish(chessd_rules::Outcome::draw(
            chessd_rules::Termination::Agreement,
        ))
        .unwrap();
        assert_eq!(plies_to_take_back(&over, Color::White), None);
    }

    fn move_entry() -> LogEntry {
        LogEntry {
            at_ms: 0,
            kind: LogKind::Move {
                clocks_ms: ByColor::default(),
                clocks_stopped: false,
            },
        }
    }

    fn taken_back(plies: u8) -> LogEntry {
        LogEntry {
            at_ms: 0,
            kind: LogKind::TakenBack {
                plies,
                by: Color::White,
                clocks_ms: ByColor::default(),
                running: true,
            },
        }
    }

    /// A line started from a game already read takes back into that game's moves as well as
    /// into the moves read since.
    #[test]
    fn line_takes_back_across_its_base() {
        let g = game("e4 e5 Nf3");
        let mut line = Line::of(&g);
        let nc6 = g
            .position()
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.to_string() == "b8c6");
        line.play(nc6.unwrap());
        line.take_back(3).unwrap();
        assert_eq!(line.position(), &game("e4").position());
        assert!(line.take_back(2).is_err());
        line.take_back(1).unwrap();
        assert_eq!(line.position(), &AnyPosition::new(AnyVariant::CHESS));
        let mut fresh = Line::from_start(AnyPosition::new(AnyVariant::CHESS));
        assert!(fresh.take_back(1).is_err());
    }

    proptest! {
        /// Whatever the moves and takebacks, walking the log back from any entry gives the
        /// line as it stood there and the moves played after it, as a forward walk saw them.
        #[test]
        fn rewind_matches_the_forward_walk(script in proptest::collection::vec(0u8..6, 0..40)) {
            let mut g = AnyGame::new(AnyPosition::new(AnyVariant::CHESS), DrawRule::Claim);
            let mut log = Vec::new();
            let mut undone = Vec::new();
            // Forward: the line before each entry, and each move entry's move.
            let mut lines = Vec::new();
            let mut played = Vec::new();
            for step in script {
                if g.is_over() {
                    break;
                }
                let before: Vec<AnyMove> = g.moves().collect();
                if step >= 4 && g.ply() >= u32::from(step - 3) {
                    let plies = step - 3;
                    undone.extend(g.take_back(usize::from(plies)).unwrap());
                    log.push(taken_back(plies));
                } else {
                    let legal = g.position().legal_moves();
                    let m = legal[usize::from(step) % legal.len()];
                    g.play(m).unwrap();
                    played.push(m);
                    log.push(move_entry());
                }
                lines.push(before);
            }
            let mut moves_from = played.len();
            for from in (0..=log.len()).rev() {
                let r = rewind(g.moves(), &undone, &log[from..]).unwrap();
                let line_then = lines.get(from).cloned().unwrap_or_else(|| g.moves().collect());
                prop_assert_eq!(&r.line, &line_then);
                if from < log.len() && matches!(log[from].kind, LogKind::Move { .. }) {
                    moves_from -= 1;
                }
                prop_assert_eq!(&r.moves[..], &played[moves_from..]);
            }
        }
    }
}
