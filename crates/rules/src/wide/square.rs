//! `WideSquare`: a square of a board up to 12 files by 10 ranks, named as Fairy-Stockfish names
//! it (files `a` to `l`, ranks `1` to `10`: `a10`), and the fixed numbering the `u128` bitboards
//! of the wide family use.
//!
//! Every board of the family shares one numbering, `rank * 12 + file`, whatever its width: a
//! 10x8 or 6x6 board is the lower-left corner of the 12x10 one. One numbering means one set of
//! attack tables for every game; each game masks away the squares it does not have.

use core::fmt;
use core::str::FromStr;

/// Squares per rank in the numbering (not the width of a game's board).
pub const STRIDE: u8 = 12;
/// Ranks the numbering holds.
pub const MAX_RANKS: u8 = 10;
/// Squares the numbering holds: 120 of a `u128`'s bits.
pub const SQUARES: usize = (STRIDE as usize) * (MAX_RANKS as usize);

crate::grid::grid_square!(
    /// A square: `file` from 0 (`a`) and `rank` from 0 (`1`), packed as `rank * 12 + file`.
    WideSquare,
    files = STRIDE,
    ranks = MAX_RANKS
);

impl WideSquare {
    /// The square's bit. Read from a table: a 128-bit shift by a variable amount is a long
    /// sequence on x86-64 (two shifts, a test and two conditional moves), and the generator
    /// and `play` ask for bits at every node.
    #[must_use]
    #[inline]
    pub const fn bit(self) -> u128 {
        BITS[self.0 as usize]
    }
}

/// `BITS[i]`: the bit of square `i` of the numbering.
const BITS: [u128; SQUARES] = {
    let mut t = [0u128; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        t[i] = 1 << i;
        i += 1;
    }
    t
};

impl fmt::Display for WideSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// Text that names no square of the 12x10 numbering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseWideSquareError;

impl fmt::Display for ParseWideSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid square name (files a to l, ranks 1 to 10)")
    }
}

impl std::error::Error for ParseWideSquareError {}

impl FromStr for WideSquare {
    type Err = ParseWideSquareError;

    fn from_str(s: &str) -> Result<WideSquare, ParseWideSquareError> {
        let bytes = s.as_bytes();
        let (&file, rank) = bytes.split_first().ok_or(ParseWideSquareError)?;
        // One or two digits, no sign and no leading zero: "a01" is not a square.
        if !(1..=2).contains(&rank.len()) || rank[0] == b'0' || !rank.iter().all(u8::is_ascii_digit)
        {
            return Err(ParseWideSquareError);
        }
        let rank = rank.iter().fold(0u8, |n, d| n * 10 + (d - b'0'));
        file.checked_sub(b'a')
            .and_then(|f| WideSquare::new(f, rank - 1))
            .ok_or(ParseWideSquareError)
    }
}

/// The squares of `bb`, lowest first. Walks the two 64-bit halves in turn: a 128-bit
/// trailing-zero count and clear-lowest-bit is a longer sequence (a branch on the lower half
/// and borrows across both) than a 64-bit one, and every piece and move the generator lists
/// passes through here.
#[inline]
pub(crate) fn squares(bb: u128) -> impl Iterator<Item = WideSquare> {
    let (mut low, mut high) = (bb as u64, (bb >> 64) as u64);
    core::iter::from_fn(move || {
        if low != 0 {
            let sq = low.trailing_zeros();
            low &= low - 1;
            Some(WideSquare::at(sq))
        } else if high != 0 {
            let sq = high.trailing_zeros();
            high &= high - 1;
            Some(WideSquare::at(sq + 64))
        } else {
            None
        }
    })
}

/// The squares of a `width` x `height` board in the shared numbering.
#[must_use]
pub const fn board_mask(width: u8, height: u8) -> u128 {
    let mut mask = 0u128;
    let mut rank = 0;
    while rank < height {
        let mut file = 0;
        while file < width {
            mask |= 1 << (rank * STRIDE + file);
            file += 1;
        }
        rank += 1;
    }
    mask
}

/// The squares of rank `rank` (from 0, below `MAX_RANKS`) across the full stride. From a
/// table for the same reason as `WideSquare::bit`: castling asks for the first rank at every
/// node while a side keeps a right.
#[must_use]
pub const fn rank_mask(rank: u8) -> u128 {
    RANKS[rank as usize]
}

/// `RANKS[r]`: the squares of rank `r` across the full stride.
const RANKS: [u128; MAX_RANKS as usize] = {
    let mut t = [0u128; MAX_RANKS as usize];
    let mut r = 0;
    while r < MAX_RANKS as usize {
        t[r] = ((1u128 << STRIDE) - 1) << (r * STRIDE as usize);
        r += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Names round-trip, rank 10 included, and bad names are refused.
    #[test]
    fn names() {
        for name in ["a1", "j8", "a10", "j10", "l10", "f6"] {
            assert_eq!(name.parse::<WideSquare>().unwrap().to_string(), name);
        }
        for bad in ["", "a", "a0", "a01", "m1", "a11", "A1", "a1x", "a-1"] {
            assert!(bad.parse::<WideSquare>().is_err(), "{bad}");
        }
        assert_eq!("b3".parse::<WideSquare>().unwrap().index(), 25);
    }
}
