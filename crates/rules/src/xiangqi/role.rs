//! `XiangqiRole` and `XiangqiPiece`: the seven kinds of xiangqi piece under Fairy-Stockfish's
//! letters (`K A B N R C P`, upper case for Red, lower for Black).

use crate::Color;

/// A kind of piece, named in English as the Western literature names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum XiangqiRole {
    /// `K`: one orthogonal step inside its palace.
    General,
    /// `A`: one diagonal step inside its palace.
    Advisor,
    /// `B`: two diagonal steps on its side of the river, over an empty eye.
    Elephant,
    /// `N`: one orthogonal then one diagonal step outward, over an empty leg.
    Horse,
    /// `R`: a rook.
    Chariot,
    /// `C`: a rook that captures by jumping exactly one screen.
    Cannon,
    /// `P`: one step forward, also sideways once across the river.
    Soldier,
}

/// Roles in the order of the position's bitboards.
pub const ROLES: usize = 7;

impl XiangqiRole {
    pub const ALL: [XiangqiRole; ROLES] = [
        XiangqiRole::General,
        XiangqiRole::Advisor,
        XiangqiRole::Elephant,
        XiangqiRole::Horse,
        XiangqiRole::Chariot,
        XiangqiRole::Cannon,
        XiangqiRole::Soldier,
    ];

    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Fairy-Stockfish's letter, upper case.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            XiangqiRole::General => 'K',
            XiangqiRole::Advisor => 'A',
            XiangqiRole::Elephant => 'B',
            XiangqiRole::Horse => 'N',
            XiangqiRole::Chariot => 'R',
            XiangqiRole::Cannon => 'C',
            XiangqiRole::Soldier => 'P',
        }
    }

    /// The role of an upper-case letter.
    #[must_use]
    pub const fn from_char(c: char) -> Option<XiangqiRole> {
        Some(match c {
            'K' => XiangqiRole::General,
            'A' => XiangqiRole::Advisor,
            'B' => XiangqiRole::Elephant,
            'N' => XiangqiRole::Horse,
            'R' => XiangqiRole::Chariot,
            'C' => XiangqiRole::Cannon,
            'P' => XiangqiRole::Soldier,
            _ => return None,
        })
    }

    /// How many a side has at the start; no piece is ever added, so never more.
    #[must_use]
    pub const fn start_count(self) -> u32 {
        match self {
            XiangqiRole::General => 1,
            XiangqiRole::Soldier => 5,
            _ => 2,
        }
    }
}

/// A piece: a role of a colour (White is Red).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct XiangqiPiece {
    pub color: Color,
    pub role: XiangqiRole,
}

impl XiangqiPiece {
    /// The FEN letter: upper case for Red.
    #[must_use]
    pub const fn char(self) -> char {
        let c = self.role.char();
        if self.color.is_white() {
            c
        } else {
            c.to_ascii_lowercase()
        }
    }

    /// The piece of a FEN letter.
    #[must_use]
    pub const fn from_char(c: char) -> Option<XiangqiPiece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match XiangqiRole::from_char(c.to_ascii_uppercase()) {
            Some(role) => Some(XiangqiPiece { color, role }),
            None => None,
        }
    }
}
