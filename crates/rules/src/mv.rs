//! `Move`: a legal-move candidate as the generator produces it, and `MoveList`, a fixed-capacity
//! list that never allocates.

use core::fmt;
use core::ops::Deref;

use crate::{Role, Square};

/// What kind of move this is, beyond "a piece goes from one square to another".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A quiet move or a capture (including a single pawn step).
    Normal,
    /// A pawn's two-square first step.
    DoublePush,
    /// A pawn capturing en passant.
    EnPassant,
    /// Castling, stored as the king's two-square move (`e1g1`).
    Castle,
    /// A pawn reaching the last rank and becoming this role.
    Promotion(Role),
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
}

impl fmt::Display for Move {
    /// The move in UCI notation: `e2e4`, `e7e8q`, castling as `e1g1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Built in a buffer and written once: every move the service lists goes through here.
        let mut buf = [0u8; 5];
        let squares = [self.from, self.to];
        for (pair, sq) in buf.chunks_exact_mut(2).zip(squares) {
            pair[0] = sq.file().char() as u8;
            pair[1] = sq.rank().char() as u8;
        }
        let len = match self.promotion() {
            Some(r) => {
                buf[4] = r.char() as u8;
                5
            }
            None => 4,
        };
        // Square and role letters are ASCII.
        f.write_str(core::str::from_utf8(&buf[..len]).unwrap_or("?"))
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} ({:?})", self.role, self, self.kind)
    }
}

/// The most legal moves any chess position has is 218; 256 leaves headroom.
pub const MAX_MOVES: usize = 256;

/// A list of moves on the stack: the generator's output, with no heap allocation.
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; MAX_MOVES],
}

const PLACEHOLDER: Move = Move::new(Role::Pawn, Square::A1, Square::A1, MoveKind::Normal);

impl MoveList {
    #[must_use]
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [PLACEHOLDER; MAX_MOVES],
        }
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, m: Move) {
        // A legal position never exceeds MAX_MOVES, so this index is in bounds; the check stays
        // as a guard against a generator bug turning into memory corruption.
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Keeps the moves for which `f` is true, in order.
    pub fn retain(&mut self, mut f: impl FnMut(&Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            if f(&self.moves[i]) {
                self.moves[kept] = self.moves[i];
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Sorts the moves by their UCI text, the stable order the service and tests show.
    pub fn sort_uci(&mut self) {
        self.moves[..self.len].sort_by_key(|m| {
            (
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
        &self.moves[..self.len]
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
