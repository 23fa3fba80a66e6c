//! `ShogiSquare`: a square of the 9x9 shogi board (or of minishogi's 5x5 corner of it), named
//! both as Fairy-Stockfish names it (`a1` to `i9`, file `a` on sente's left, rank `1` sente's
//! back rank) and as USI does (`9i` to `1a`: file numbers from sente's right, rank letters from
//! gote's side), and the numbering the family's `u128` bitboards use.
//!
//! The numbering is `rank * 9 + file` with FSF's file and rank from 0, so a step forward for
//! sente is `+9` and one for gote `-9`: a whole side's pawns move with one shift, and the
//! wrap-around a shift by 9 cannot cause needs no mask. Minishogi uses the lower-left 5x5 of
//! the same numbering, so one set of attack tables serves both games.

use core::fmt;
use core::str::FromStr;

/// Files and ranks of the numbering (the 9x9 board).
pub const SIDE: u8 = 9;
/// Squares of the numbering: 81 of a `u128`'s bits.
pub const SQUARES: usize = 81;

crate::grid::grid_square!(
    /// A square: FSF's `file` from 0 (`a`) and `rank` from 0 (`1`), packed as `rank * 9 + file`.
    ShogiSquare,
    files = SIDE,
    ranks = SIDE
);

impl ShogiSquare {
    #[must_use]
    #[inline]
    pub const fn bit(self) -> u128 {
        1 << self.0
    }

    /// The square as USI names it on a board `size` squares wide (9 for shogi, 5 for
    /// minishogi): file number then rank letter (`7g`). `None` off that board.
    #[must_use]
    pub fn usi(self, size: u8) -> Option<UsiSquare> {
        (self.file() < size && self.rank() < size).then(|| UsiSquare {
            file: size - self.file(),
            rank: size - self.rank(),
        })
    }

    /// The square USI's `square` names on a board `size` wide, if that board has it.
    #[must_use]
    pub fn from_usi(square: UsiSquare, size: u8) -> Option<ShogiSquare> {
        if square.file == 0 || square.rank == 0 || square.file > size || square.rank > size {
            return None;
        }
        ShogiSquare::new(size - square.file, size - square.rank)
    }
}

/// A square as USI writes it, before a board size gives it a place: file number 1-9 (from
/// sente's right) and rank 1-9 (`a` = 1, from gote's side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UsiSquare {
    pub file: u8,
    pub rank: u8,
}

impl fmt::Display for UsiSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rank = match self.rank {
            1..=26 => char::from(b'a' + self.rank - 1),
            _ => '?',
        };
        write!(f, "{}{rank}", self.file)
    }
}

/// The text is not a square of the 9x9 board in the expected notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseShogiSquareError;

impl fmt::Display for ParseShogiSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected a square such as e5 (FSF) or 5e (USI)")
    }
}

impl std::error::Error for ParseShogiSquareError {}

impl FromStr for UsiSquare {
    type Err = ParseShogiSquareError;

    fn from_str(s: &str) -> Result<UsiSquare, ParseShogiSquareError> {
        match s.as_bytes() {
            &[f @ b'1'..=b'9', r @ b'a'..=b'i'] => Ok(UsiSquare {
                file: f - b'0',
                rank: r - b'a' + 1,
            }),
            _ => Err(ParseShogiSquareError),
        }
    }
}

impl FromStr for ShogiSquare {
    type Err = ParseShogiSquareError;

    /// FSF's name (`e5`).
    fn from_str(s: &str) -> Result<ShogiSquare, ParseShogiSquareError> {
        match s.as_bytes() {
            &[f @ b'a'..=b'i', r @ b'1'..=b'9'] => {
                ShogiSquare::new(f - b'a', r - b'1').ok_or(ParseShogiSquareError)
            }
            _ => Err(ParseShogiSquareError),
        }
    }
}

impl fmt::Display for ShogiSquare {
    /// FSF's name (`e5`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            char::from(b'a' + self.file()),
            char::from(b'1' + self.rank())
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FSF's `a1` is the traditional 9i, `e5` is 5e and `i9` is 1a; USI `7g` is FSF `c3`.
    #[test]
    fn fsf_and_usi_names_agree() {
        for (fsf, usi) in [("a1", "9i"), ("e5", "5e"), ("i9", "1a"), ("c3", "7g")] {
            let sq: ShogiSquare = fsf.parse().unwrap();
            assert_eq!(sq.to_string(), fsf);
            assert_eq!(sq.usi(9).unwrap().to_string(), usi);
            assert_eq!(
                ShogiSquare::from_usi(usi.parse().unwrap(), 9),
                Some(sq),
                "{usi}"
            );
        }
    }

    /// On minishogi's 5x5 board `a1` is USI 5e and `e5` is 1a; `f1` is off that board.
    #[test]
    fn minishogi_usi_names() {
        let a1: ShogiSquare = "a1".parse().unwrap();
        assert_eq!(a1.usi(5).unwrap().to_string(), "5e");
        let e5: ShogiSquare = "e5".parse().unwrap();
        assert_eq!(e5.usi(5).unwrap().to_string(), "1a");
        assert_eq!("f1".parse::<ShogiSquare>().unwrap().usi(5), None);
        assert_eq!(ShogiSquare::from_usi("6a".parse().unwrap(), 5), None);
    }

    /// A step forward for sente is `+9`.
    #[test]
    fn numbering_is_rank_major() {
        let c3: ShogiSquare = "c3".parse().unwrap();
        let c4: ShogiSquare = "c4".parse().unwrap();
        assert_eq!(c4.index(), c3.index() + 9);
        assert!("j1".parse::<ShogiSquare>().is_err());
        assert!("a0".parse::<ShogiSquare>().is_err());
    }
}
