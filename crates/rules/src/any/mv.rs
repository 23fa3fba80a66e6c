//! [`AnyMove`]: a move of either engine family, small and `Copy`, whose UCI text needs no
//! position (a wide move carries its game, which fixes its letters and castling squares).

use core::fmt;

use crate::{Move, Text};

/// A move's UCI text in either family: at most 7 bytes (`a10a10q`).
pub type UciText = Text<8>;
use crate::wide::{WideMove, WideVariant};

/// A move of a game of either family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    Std(Move),
    /// A wide-family move and the game it is a move of.
    Wide(WideVariant, WideMove),
}

impl From<Move> for AnyMove {
    fn from(m: Move) -> AnyMove {
        AnyMove::Std(m)
    }
}

impl AnyMove {
    /// The 8x8 engine's move, if this is one.
    #[must_use]
    pub const fn std(self) -> Option<Move> {
        match self {
            AnyMove::Std(m) => Some(m),
            AnyMove::Wide(..) => None,
        }
    }
}

impl AnyMove {
    /// The move's UCI text, on the stack.
    #[must_use]
    pub fn uci(self) -> UciText {
        match self {
            AnyMove::Std(m) => Text::from_ascii(m.uci_text().as_str()).unwrap_or_default(),
            AnyMove::Wide(variant, m) => {
                Text::from_ascii(&m.uci_in(variant).to_string()).unwrap_or_default()
            }
        }
    }
}

impl fmt::Display for AnyMove {
    /// UCI as each family writes it: `e2e4`, `N@f3`, `a10a9`, `e7e8c`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyMove::Std(m) => fmt::Display::fmt(m, f),
            AnyMove::Wide(variant, m) => fmt::Display::fmt(&m.uci_in(*variant), f),
        }
    }
}
