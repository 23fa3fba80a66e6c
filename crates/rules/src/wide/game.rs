//! `WideGame`: a wide-family game record, for the ends a position alone cannot see:
//! threefold repetition and the fifty-move rule, both automatic here (the family has no
//! claim protocol of its own yet; the service's 8x8 `Game` keeps its configurable ones).

use super::mv::{WideMove, WideMoveKind, WideUciError};
use super::position::WidePosition;
use super::square::WideSquare;
use super::variant::WideVariant;
use crate::{Color, Outcome, Termination};

/// What makes two positions the same for repetition: pieces, side, castling rights, the
/// possibility of an en passant capture, and the hands (Loop Chess).
type Key = (
    [u128; super::role::ROLES],
    [u128; 2],
    Color,
    [[Option<WideSquare>; 2]; 2],
    Option<WideSquare>,
    [[u8; super::role::ROLES]; 2],
);

fn key(p: &WidePosition) -> Key {
    // The position keeps a square any pawn attacks; a pinned pawn's is no possibility.
    let ep = p.ep.filter(|_| {
        p.legal_moves()
            .iter()
            .any(|m| m.kind() == WideMoveKind::EnPassant)
    });
    (p.roles, p.colors, p.turn, p.castles, ep, p.hands)
}

/// A game from a start position, move by move.
#[derive(Clone, Debug)]
pub struct WideGame {
    start: WidePosition,
    position: WidePosition,
    moves: Vec<WideMove>,
    /// The keys since the last capture or pawn move (no earlier position can recur), or
    /// since the start in a game with drops.
    keys: Vec<Key>,
}

impl WideGame {
    #[must_use]
    pub fn new(start: WidePosition) -> WideGame {
        WideGame {
            start,
            position: start,
            moves: Vec::new(),
            keys: vec![key(&start)],
        }
    }

    #[must_use]
    pub fn variant(&self) -> WideVariant {
        self.position.variant()
    }

    #[must_use]
    pub fn start(&self) -> &WidePosition {
        &self.start
    }

    #[must_use]
    pub fn position(&self) -> &WidePosition {
        &self.position
    }

    #[must_use]
    pub fn moves(&self) -> &[WideMove] {
        &self.moves
    }

    /// Plays the move `uci` names, unless it is illegal or the game is over.
    pub fn play(&mut self, uci: &str) -> Result<WideMove, WideUciError> {
        if self.outcome().is_some() {
            return Err(WideUciError::GameOver {
                uci: uci.to_string(),
            });
        }
        let m = uci.parse::<super::WideUci>()?.to_move(&self.position)?;
        self.position.play_unchecked(m);
        // No earlier position can recur after a capture or pawn move, except where captured
        // pieces come back as drops (Loop Chess).
        if self.position.halfmoves() == 0 && !self.position.def.drops {
            self.keys.clear();
        }
        self.keys.push(key(&self.position));
        self.moves.push(m);
        Ok(m)
    }

    /// How often the current position has stood on the board with the same side to move.
    #[must_use]
    pub fn repetitions(&self) -> usize {
        let now = key(&self.position);
        self.keys.iter().filter(|k| **k == now).count()
    }

    /// The game's end: checkmate, stalemate and insufficient material first (a mate on the
    /// hundredth half-move still wins), then threefold repetition and the fifty-move rule.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.position.outcome() {
            return Some(o);
        }
        if self.repetitions() >= 3 {
            return Some(Outcome::draw(Termination::Repetition));
        }
        (self.position.halfmoves() >= 100).then_some(Outcome::draw(Termination::FiftyMoveRule))
    }
}
