//! `WideRole`, the pieces of the wide family, each defined once by its movement, and
//! `WidePiece`, a role with its colour.
//!
//! A piece is the union of four kinds of movement: a knight's leap, a king's step, rook lines
//! and bishop lines (the pawn's moves are its own). The compounds are just unions: archbishop
//! (cardinal, janus) = bishop + knight, chancellor (marshal) = rook + knight, amazon
//! (Maharajah) = queen + knight, so attack lookups, check detection and pins need no per-piece
//! code. Royalty is not a role's property but a game's: each game names the role that is royal
//! for each side, if any (Knightmate's royal piece is the knight role, written `K`, and its
//! king role is the non-royal commoner `M`). What a piece is called in a FEN depends on the
//! game too, so letters live with each game's definition.

use crate::Color;

/// How a piece moves and captures, apart from the pawn's own moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Movement {
    /// Leaps like a knight.
    pub knight: bool,
    /// Steps one square in any direction, like a king.
    pub step: bool,
    /// Slides along ranks and files.
    pub orthogonal: bool,
    /// Slides along diagonals.
    pub diagonal: bool,
}

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum WideRole {
    Pawn = 0,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
    /// Bishop + knight: Capablanca's archbishop, Embassy's and Grand's cardinal, the janus.
    Archbishop,
    /// Rook + knight: Capablanca's chancellor, Embassy's and Grand's marshal.
    Chancellor,
    /// Queen + knight: Amazon Chess's amazon, Maharajah Chess's maharajah.
    Amazon,
}

/// How many roles there are: the length of every per-role table.
pub const ROLES: usize = 9;

impl WideRole {
    pub const ALL: [WideRole; ROLES] = [
        WideRole::Pawn,
        WideRole::Knight,
        WideRole::Bishop,
        WideRole::Rook,
        WideRole::Queen,
        WideRole::King,
        WideRole::Archbishop,
        WideRole::Chancellor,
        WideRole::Amazon,
    ];

    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The movement of every piece but the pawn (which has none here).
    #[must_use]
    #[inline]
    pub const fn movement(self) -> Movement {
        let (knight, step, orthogonal, diagonal) = match self {
            WideRole::Pawn => (false, false, false, false),
            WideRole::King => (false, true, false, false),
            WideRole::Knight => (true, false, false, false),
            WideRole::Bishop => (false, false, false, true),
            WideRole::Rook => (false, false, true, false),
            WideRole::Queen => (false, false, true, true),
            WideRole::Archbishop => (true, false, false, true),
            WideRole::Chancellor => (true, false, true, false),
            WideRole::Amazon => (true, false, true, true),
        };
        Movement {
            knight,
            step,
            orthogonal,
            diagonal,
        }
    }
}

/// A role and its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WidePiece {
    pub color: Color,
    pub role: WideRole,
}

impl WidePiece {
    /// One byte for the position's square table: 0 is an empty square. Colours are 16 codes
    /// apart so that decoding is a mask, not a division by the number of roles.
    #[inline]
    pub(crate) const fn code(self) -> u8 {
        1 + self.role as u8 + 16 * self.color as u8
    }

    #[inline]
    pub(crate) const fn from_code(code: u8) -> Option<WidePiece> {
        if code == 0 {
            return None;
        }
        let color = if code > 16 {
            Color::Black
        } else {
            Color::White
        };
        Some(WidePiece {
            color,
            role: WideRole::ALL[((code - 1) & 15) as usize],
        })
    }
}
