//! [`AnyMove`]: a move of any engine family, small and `Copy`, whose UCI text needs no
//! position (a move whose letters or squares depend on the board carries its game).

use core::fmt;

use crate::shogi::{ShogiMove, ShogiVariant};
use crate::wide::{WideMove, WideVariant};
use crate::xiangqi::XiangqiMove;
use crate::{Move, Text};

/// A move's UCI text in any family: a move's squares and promotion (`a10a10q`), with a game of
/// chance's draw after it (`a7a8q~SE4`), or an Ambiguous Chess turn (`b2a1q>c5=d4c5`): at most
/// 13 bytes.
pub type UciText = Text<14>;

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

#[cfg(test)]
mod tests {
    use crate::wide::{WidePosition, WideVariant};

    use super::AnyMove;

    /// The longest texts are kept whole: a promotion with the Behemoth's step after it, and an
    /// Ambiguous Chess turn whose execution promotes and whose mark forced a move.
    #[test]
    fn the_longest_uci_texts_fit() {
        let mut p = WidePosition::from_fen(
            WideVariant::Ambiguous,
            "7k/8/8/2p5/3P4/8/1p6/7K w - - 0 1 b1",
        )
        .unwrap();
        let turn = p.play("b2b1q>c5").unwrap();
        let text = AnyMove::Wide(WideVariant::Ambiguous, turn).uci();
        assert_eq!(text.as_str(), "b2b1q>c5=d4c5");
        let p = WidePosition::from_fen(WideVariant::Behemoth, "7k/P7/8/8/3*4/8/8/K7 w - - 0 1")
            .unwrap();
        let m = "a7a8q~SE4"
            .parse::<crate::wide::WideUci>()
            .unwrap()
            .to_move(&p)
            .unwrap();
        let text = AnyMove::Wide(WideVariant::Behemoth, m).uci();
        assert_eq!(text.as_str(), "a7a8q~SE4");
    }
}
