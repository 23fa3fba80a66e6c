//! `WideRole`, the pieces of the wide family, each defined once by its movement, and
//! `WidePiece`, a role with its colour.
//!
//! A piece is the union of three kinds of movement: a knight's leap, rook lines and bishop
//! lines (the king's and the pawn's steps are their own). The compounds are just unions:
//! archbishop (cardinal, janus) = bishop + knight, chancellor (marshal) = rook + knight, so
//! attack lookups, check detection and pins need no per-piece code. What a piece is called in
//! a FEN depends on the game (the janus is Janus Chess's name for the archbishop), so letters
//! live with each game's definition.

use crate::Color;

/// How a piece moves and captures, apart from the pawn's and king's own steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Movement {
    /// Leaps like a knight.
    pub knight: bool,
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
}

impl WideRole {
    pub const ALL: [WideRole; 8] = [
        WideRole::Pawn,
        WideRole::Knight,
        WideRole::Bishop,
        WideRole::Rook,
        WideRole::Queen,
        WideRole::King,
        WideRole::Archbishop,
        WideRole::Chancellor,
    ];

    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The movement of every piece but the pawn and the king (which step, and have none here).
    #[must_use]
    #[inline]
    pub const fn movement(self) -> Movement {
        let (knight, orthogonal, diagonal) = match self {
            WideRole::Pawn | WideRole::King => (false, false, false),
            WideRole::Knight => (true, false, false),
            WideRole::Bishop => (false, false, true),
            WideRole::Rook => (false, true, false),
            WideRole::Queen => (false, true, true),
            WideRole::Archbishop => (true, false, true),
            WideRole::Chancellor => (true, true, false),
        };
        Movement {
            knight,
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
    /// One byte for the position's square table: 0 is an empty square.
    #[inline]
    pub(crate) const fn code(self) -> u8 {
        1 + self.role as u8 + 8 * self.color as u8
    }

    #[inline]
    pub(crate) const fn from_code(code: u8) -> Option<WidePiece> {
        if code == 0 {
            return None;
        }
        let color = if code > 8 { Color::Black } else { Color::White };
        Some(WidePiece {
            color,
            role: WideRole::ALL[((code - 1) % 8) as usize],
        })
    }
}
