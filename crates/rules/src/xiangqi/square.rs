//! `XiangqiSquare`: a point of the 9x10 xiangqi board, named as Fairy-Stockfish names it (files
//! `a` to `i` from Red's left, ranks `1` to `10` from Red's side: `a10`), and the numbering the
//! family's `u128` bitboards use.
//!
//! The numbering is `rank * 9 + file`, unpadded: 90 bits. Sliders scan for the nearest blocker
//! along precomputed rays (no wrap to guard against), and the leapers read precomputed tables,
//! so nothing needs padding columns; an unpadded board keeps every rank's bits contiguous.

use core::fmt;
use core::str::FromStr;

/// Files (points per rank).
pub const FILES: u8 = 9;
/// Ranks.
pub const RANKS: u8 = 10;
/// Points on the board.
pub const SQUARES: usize = (FILES as usize) * (RANKS as usize);
/// Every point of the board as a bitboard.
pub const BOARD: u128 = (1 << SQUARES) - 1;

crate::grid::grid_square!(
    /// A point: `file` from 0 (`a`) and `rank` from 0 (`1`), packed as `rank * 9 + file`.
    XiangqiSquare,
    files = FILES,
    ranks = RANKS
);

impl XiangqiSquare {
    #[must_use]
    #[inline]
    pub const fn bit(self) -> u128 {
        1 << self.0
    }
}

impl fmt::Display for XiangqiSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// A point's name was not a file `a`-`i` followed by a rank `1`-`10`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseXiangqiSquareError;

impl fmt::Display for ParseXiangqiSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected a xiangqi point: a file a-i and a rank 1-10, such as e1 or a10")
    }
}

impl std::error::Error for ParseXiangqiSquareError {}

impl XiangqiSquare {
    /// Reads a point's name from the start of `bytes`, returning it and the bytes it used
    /// (`a10` is three, `a1` two: a move's text `a1a10` is read greedily point by point).
    pub(crate) fn parse_prefix(bytes: &[u8]) -> Option<(XiangqiSquare, usize)> {
        let file = bytes.first()?.checked_sub(b'a').filter(|&f| f < FILES)?;
        let first = bytes
            .get(1)?
            .checked_sub(b'0')
            .filter(|&d| (1..=9).contains(&d))?;
        if first == 1 && bytes.get(2) == Some(&b'0') {
            return Some((XiangqiSquare::new(file, 9)?, 3));
        }
        Some((XiangqiSquare::new(file, first - 1)?, 2))
    }
}

impl FromStr for XiangqiSquare {
    type Err = ParseXiangqiSquareError;

    fn from_str(s: &str) -> Result<XiangqiSquare, ParseXiangqiSquareError> {
        match XiangqiSquare::parse_prefix(s.as_bytes()) {
            Some((sq, used)) if used == s.len() => Ok(sq),
            _ => Err(ParseXiangqiSquareError),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every point's name reads back to it; ranks run 1 to 10, files a to i.
    #[test]
    fn names_round_trip() {
        for i in 0..SQUARES as u8 {
            let sq = XiangqiSquare::from_index(i).unwrap();
            assert_eq!(sq.to_string().parse::<XiangqiSquare>(), Ok(sq));
        }
        assert_eq!(XiangqiSquare::new(0, 9).unwrap().to_string(), "a10");
        assert_eq!(XiangqiSquare::new(8, 0).unwrap().to_string(), "i1");
        for bad in ["", "j1", "a0", "a11", "a", "e100", "A1", "a01"] {
            assert!(bad.parse::<XiangqiSquare>().is_err(), "{bad}");
        }
    }
}
