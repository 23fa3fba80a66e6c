//! `Move`: a legal-move candidate as the generator produces it, and `MoveList`, a list that
//! stays on the stack for any real position (and spills to the heap rather than fail beyond).

use core::fmt;
use core::ops::Deref;

use crate::{File, Role, Square, Text};

/// What kind of move this is, beyond "a piece goes from one square to another".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A quiet move or a capture (including a single pawn step).
    Normal,
    /// A pawn's two-square first step.
    DoublePush,
    /// A pawn capturing en passant.
    EnPassant,
    /// Castling, stored as UCI writes it: the king's two-square move (`e1g1`) under standard
    /// castling rules, the king taking its own rook (`e1h1`) under Chess960 rules.
    Castle,
    /// A pawn reaching the last rank and becoming this role (a king too, in antichess).
    Promotion(Role),
    /// A piece put from the pocket on an empty square (crazyhouse); `from` is `to`.
    Drop,
}

/// A move of one piece: from, to, the moving role and the kind. Produced by a position's move
/// generator, so a `Move` is only meaningful for the position it came from.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: Square,
    to: Square,
    role: Role,
    kind: MoveKind,
}

impl Move {
    #[must_use]
    #[inline(always)]
    pub const fn new(role: Role, from: Square, to: Square, kind: MoveKind) -> Move {
        Move {
            from,
            to,
            role,
            kind,
        }
    }

    /// A drop of a pocket piece of `role` on `to` (crazyhouse).
    #[must_use]
    #[inline(always)]
    pub const fn drop(role: Role, to: Square) -> Move {
        Move {
            from: to,
            to,
            role,
            kind: MoveKind::Drop,
        }
    }

    /// The square the piece leaves (for a drop, the square it is put on).
    #[must_use]
    #[inline(always)]
    pub const fn from(self) -> Square {
        self.from
    }

    #[must_use]
    #[inline(always)]
    pub const fn to(self) -> Square {
        self.to
    }

    /// The role of the moving piece (a pawn for promotions).
    #[must_use]
    #[inline(always)]
    pub const fn role(self) -> Role {
        self.role
    }

    #[must_use]
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        self.kind
    }

    #[must_use]
    pub const fn promotion(self) -> Option<Role> {
        match self.kind {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        }
    }

    #[must_use]
    pub const fn is_castle(self) -> bool {
        matches!(self.kind, MoveKind::Castle)
    }

    #[must_use]
    pub const fn is_en_passant(self) -> bool {
        matches!(self.kind, MoveKind::EnPassant)
    }

    #[must_use]
    pub const fn is_drop(self) -> bool {
        matches!(self.kind, MoveKind::Drop)
    }

    /// For castling: where the king ends (g1/c1 or g8/c8), whichever way the move is written.
    #[must_use]
    pub const fn castling_king_to(self) -> Square {
        let file = if self.to.index() > self.from.index() {
            File::G
        } else {
            File::C
        };
        Square::from_coords(file, self.from.rank())
    }

    /// For castling: where the rook ends (f1/d1 or f8/d8).
    #[must_use]
    pub const fn castling_rook_to(self) -> Square {
        let file = if self.to.index() > self.from.index() {
            File::F
        } else {
            File::D
        };
        Square::from_coords(file, self.from.rank())
    }
}

impl Move {
    /// The move in UCI notation: `e2e4`, `e7e8q`, castling as `e1g1` (`e1h1` under Chess960
    /// rules), drops as `N@f3`.
    #[must_use]
    pub fn uci_text(self) -> Text {
        let mut text = Text::new();
        if self.is_drop() {
            text.push(self.role.upper_char());
            text.push('@');
        } else {
            text.push(self.from.file().char());
            text.push(self.from.rank().char());
        }
        text.push(self.to.file().char());
        text.push(self.to.rank().char());
        if let Some(r) = self.promotion() {
            text.push(r.char());
        }
        text
    }
}

impl fmt::Display for Move {
    /// [`Move::uci_text`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.uci_text().as_str())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} ({:?})", self.role, self, self.kind)
    }
}

/// Lists up to this many moves stay on the stack. The most legal moves a chess position has is
/// 218; crazyhouse drops and a horde of promoted pieces can exceed it, and then the list moves
/// to the heap instead of failing.
pub const MAX_MOVES: usize = 256;

/// A list of moves: the generator's output, with no heap allocation up to [`MAX_MOVES`].
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; MAX_MOVES],
    /// Every move, once there are more than `MAX_MOVES`; empty before.
    spill: Vec<Move>,
}

const PLACEHOLDER: Move = Move::new(Role::Pawn, Square::A1, Square::A1, MoveKind::Normal);

impl MoveList {
    #[must_use]
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [PLACEHOLDER; MAX_MOVES],
            spill: Vec::new(),
        }
    }

    /// Empties the list, keeping its storage (perft refills one list per depth).
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
        self.spill.clear();
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
        } else {
            self.push_spilled(m);
        }
        self.len += 1;
    }

    #[cold]
    fn push_spilled(&mut self, m: Move) {
        if self.spill.is_empty() {
            self.spill.extend_from_slice(&self.moves);
        }
        self.spill.push(m);
    }

    fn as_mut_slice(&mut self) -> &mut [Move] {
        if self.len <= MAX_MOVES {
            &mut self.moves[..self.len]
        } else {
            &mut self.spill
        }
    }

    /// Keeps the moves for which `f` is true, in order.
    pub fn retain(&mut self, mut f: impl FnMut(&Move) -> bool) {
        let moves = self.as_mut_slice();
        let mut kept = 0;
        for i in 0..moves.len() {
            if f(&moves[i]) {
                moves[kept] = moves[i];
                kept += 1;
            }
        }
        if self.len > MAX_MOVES {
            self.spill.truncate(kept);
            if kept <= MAX_MOVES {
                self.moves[..kept].copy_from_slice(&self.spill);
                self.spill.clear();
            }
        }
        self.len = kept;
    }

    /// Sorts the moves by their UCI text, the stable order the service and tests show (drops,
    /// written `N@f3`, sort before the moves of pieces on the board, as the text does).
    pub fn sort_uci(&mut self) {
        self.as_mut_slice().sort_by_key(|m| {
            (
                !m.is_drop(),
                m.is_drop().then(|| m.role.upper_char()),
                m.from.file(),
                m.from.rank(),
                m.to.file(),
                m.to.rank(),
                m.promotion().map(|r| r.char()),
            )
        });
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];

    #[inline(always)]
    fn deref(&self) -> &[Move] {
        if self.len <= MAX_MOVES {
            &self.moves[..self.len]
        } else {
            &self.spill
        }
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.iter().map(|m| m.to_string()))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// UCI text of each kind: drops `N@f3`, king promotions `a7a8k`.
    #[test]
    fn uci_text() {
        assert_eq!(Move::drop(Role::Knight, Square::F3).to_string(), "N@f3");
        assert_eq!(Move::drop(Role::Pawn, Square::E4).to_string(), "P@e4");
        let promo = Move::new(
            Role::Pawn,
            Square::A7,
            Square::A8,
            MoveKind::Promotion(Role::King),
        );
        assert_eq!(promo.to_string(), "a7a8k");
    }

    /// A list longer than `MAX_MOVES` keeps every move in order, and shrinks back.
    #[test]
    fn spills_beyond_capacity() {
        let mut list = MoveList::new();
        for i in 0..MAX_MOVES + 40 {
            list.push(Move::drop(Role::Pawn, Square::new(i as u32 % 64).unwrap()));
        }
        assert_eq!(list.len(), MAX_MOVES + 40);
        assert_eq!(
            list[MAX_MOVES + 1].to(),
            Square::new((MAX_MOVES as u32 + 1) % 64).unwrap()
        );
        list.retain(|m| m.to() == Square::A1);
        assert_eq!(list.len(), (MAX_MOVES + 40).div_ceil(64));
        assert!(list.iter().all(|m| m.to() == Square::A1));
        list.clear();
        assert!(list.is_empty());
    }
}
