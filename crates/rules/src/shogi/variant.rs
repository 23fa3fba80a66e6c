//! `ShogiVariant`: the family's two games, shogi (9x9) and minishogi (5x5), and the board
//! data that is all that tells them apart: which squares exist, the promotion zones, the
//! ranks a piece could never leave, the kinds a hand may hold, and the start position.
//!
//! Shogi (GAMES.md section 4): "Sente (White, upper case, moves first) holds ranks 1-3. Each
//! side's promotion zone is the three farthest ranks (7-9 for sente, 1-3 for gote)."
//! Minishogi: "Shogi on 5x5 with king, gold, silver, bishop, rook and pawn only (no knights
//! or lances) ... Promotion zone: the last rank only (rank 5 for sente, 1 for gote)."

use core::fmt;
use core::str::FromStr;

use super::attacks::FULL;
use crate::Color;

/// One game of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShogiVariant {
    Shogi,
    Minishogi,
}

/// The squares of ranks `from..to` of a board `size` wide.
const fn ranks(from: u32, to: u32, size: u32) -> u128 {
    let mut mask = 0;
    let mut rank = from;
    while rank < to {
        let mut file = 0;
        while file < size {
            mask |= 1 << (rank * 9 + file);
            file += 1;
        }
        rank += 1;
    }
    mask
}

const MINI: u128 = ranks(0, 5, 5);

/// `FAR[variant][color][n - 1]`: that side's farthest `n` ranks, looked up rather than built,
/// as the generator asks for them at every node.
const FAR: [[[u128; 3]; 2]; 2] = {
    let mut far = [[[0; 3]; 2]; 2];
    let mut v = 0;
    while v < 2 {
        let size = if v == 0 { 9 } else { 5 };
        let mut n = 1;
        while n <= 3 {
            far[v][0][n as usize - 1] = ranks(size - n, size, size);
            far[v][1][n as usize - 1] = ranks(0, n, size);
            n += 1;
        }
        v += 1;
    }
    far
};

impl ShogiVariant {
    pub const ALL: [ShogiVariant; 2] = [ShogiVariant::Shogi, ShogiVariant::Minishogi];

    /// Files and ranks of the board.
    #[must_use]
    pub const fn size(self) -> u8 {
        match self {
            ShogiVariant::Shogi => 9,
            ShogiVariant::Minishogi => 5,
        }
    }

    /// The board's squares.
    #[must_use]
    pub const fn board(self) -> u128 {
        match self {
            ShogiVariant::Shogi => FULL,
            ShogiVariant::Minishogi => MINI,
        }
    }

    /// The 9x9 numbering's squares that this board lacks: sliders see them as occupied, so
    /// one set of rays serves the small board.
    #[must_use]
    pub const fn walls(self) -> u128 {
        FULL & !self.board()
    }

    /// `color`'s promotion zone.
    #[must_use]
    #[inline]
    pub const fn zone(self, color: Color) -> u128 {
        FAR[self as usize][color.index()][match self {
            ShogiVariant::Shogi => 2,
            ShogiVariant::Minishogi => 0,
        }]
    }

    /// `color`'s farthest `n` ranks (`n` from 1 to 3).
    #[must_use]
    #[inline]
    pub const fn far_ranks(self, color: Color, n: u32) -> u128 {
        FAR[self as usize][color.index()][n as usize - 1]
    }

    /// Whether a hand may hold (and so the game has) pieces of `role`'s kind.
    #[must_use]
    pub const fn has_hand_role(self, hand_index: usize) -> bool {
        match self {
            ShogiVariant::Shogi => true,
            // Minishogi has no lances or knights.
            ShogiVariant::Minishogi => hand_index != 1 && hand_index != 2,
        }
    }

    /// How many of each hand kind (pawn to rook) the game's set has: a hand can never hold
    /// more.
    #[must_use]
    pub const fn set_count(self, hand_index: usize) -> u8 {
        match self {
            ShogiVariant::Shogi => [18, 4, 4, 4, 4, 2, 2][hand_index],
            ShogiVariant::Minishogi => [2, 0, 0, 2, 2, 2, 2][hand_index],
        }
    }

    /// The start position in Fairy-Stockfish's FEN.
    #[must_use]
    pub const fn start_fen(self) -> &'static str {
        match self {
            ShogiVariant::Shogi => {
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1"
            }
            ShogiVariant::Minishogi => "rbsgk/4p/5/P4/KGSBR[] w - - 0 1",
        }
    }

    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ShogiVariant::Shogi => "shogi",
            ShogiVariant::Minishogi => "minishogi",
        }
    }
}

impl fmt::Display for ShogiVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name is neither `shogi` nor `minishogi`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseShogiVariantError;

impl fmt::Display for ParseShogiVariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected shogi or minishogi")
    }
}

impl std::error::Error for ParseShogiVariantError {}

impl FromStr for ShogiVariant {
    type Err = ParseShogiVariantError;

    fn from_str(s: &str) -> Result<ShogiVariant, ParseShogiVariantError> {
        ShogiVariant::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or(ParseShogiVariantError)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shogi's zone is three ranks of nine; minishogi's one rank of five.
    #[test]
    fn zones() {
        assert_eq!(ShogiVariant::Shogi.zone(Color::White).count_ones(), 27);
        assert_eq!(
            ShogiVariant::Shogi.zone(Color::White).trailing_zeros(),
            6 * 9
        );
        assert_eq!(ShogiVariant::Shogi.zone(Color::Black).trailing_zeros(), 0);
        assert_eq!(ShogiVariant::Minishogi.zone(Color::White).count_ones(), 5);
        assert_eq!(
            ShogiVariant::Minishogi.zone(Color::White).trailing_zeros(),
            4 * 9
        );
        assert_eq!(ShogiVariant::Minishogi.board().count_ones(), 25);
        assert_eq!(ShogiVariant::Minishogi.walls().count_ones(), 56);
    }

    #[test]
    fn names_round_trip() {
        for v in ShogiVariant::ALL {
            assert_eq!(v.name().parse::<ShogiVariant>(), Ok(v));
        }
        assert!("chess".parse::<ShogiVariant>().is_err());
    }
}
