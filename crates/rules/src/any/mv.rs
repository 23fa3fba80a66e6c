//! [`AnyMove`]: a move of any engine family, small and `Copy`, whose UCI text needs no
//! position (a move whose letters or squares depend on the board carries its game).

use core::fmt;

use crate::shogi::{ShogiMove, ShogiVariant};
use crate::wide::{WideMove, WideVariant};
use crate::xiangqi::XiangqiMove;
use crate::{Move, Text};

/// A move's UCI text in any family: at most 7 bytes (`a10a10q`).
pub type UciText = Text<8>;

/// A move of a game of any family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    Std(Move),
    /// A wide-family move and the game it is a move of.
    Wide(WideVariant, WideMove),
    /// A shogi or minishogi move and its game (the board's size fixes its USI text).
    Shogi(ShogiVariant, ShogiMove),
    Xiangqi(XiangqiMove),
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
            _ => None,
        }
    }

    /// The move's UCI text, on the stack.
    #[must_use]
    pub fn uci(self) -> UciText {
        match self {
            AnyMove::Std(m) => Text::from_ascii(m.uci_text().as_str()).unwrap_or_default(),
            other => Text::from_ascii(&other.to_string()).unwrap_or_default(),
        }
    }
}

impl fmt::Display for AnyMove {
    /// UCI as each family writes it, Fairy-Stockfish's text where it plays the game: `e2e4`,
    /// `N@f3`, `a10a9`, `e7e8c`; shogi `c3c4`, `P@e5`, `b2h8+`; xiangqi `h3e3`, `b10c8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyMove::Std(m) => fmt::Display::fmt(m, f),
            AnyMove::Wide(variant, m) => fmt::Display::fmt(&m.uci_in(*variant), f),
            AnyMove::Shogi(_, m) => fmt::Display::fmt(m, f),
            AnyMove::Xiangqi(m) => fmt::Display::fmt(m, f),
        }
    }
}
