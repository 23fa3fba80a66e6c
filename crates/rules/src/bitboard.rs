//! `Bitboard`: a set of squares as one `u64`, bit `i` for the square with index `i`.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::{File, Rank, Square};

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(!0);
    pub const DARK_SQUARES: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);
    pub const LIGHT_SQUARES: Bitboard = Bitboard(!0xaa55_aa55_aa55_aa55);
    pub const BACKRANKS: Bitboard = Bitboard(0xff00_0000_0000_00ff);
    /// d4, e4, d5 and e5: the hill of King of the Hill.
    pub const CENTER: Bitboard = Bitboard(0x0000_0018_1800_0000);

    #[must_use]
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    #[must_use]
    #[inline]
    pub const fn from_rank(rank: Rank) -> Bitboard {
        Bitboard(0xff << (8 * rank.index()))
    }

    #[must_use]
    #[inline]
    pub const fn from_file(file: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file.index())
    }

    #[must_use]
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[must_use]
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[must_use]
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    #[must_use]
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square in the set.
    #[must_use]
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Exactly one square in the set.
    #[must_use]
    #[inline(always)]
    pub const fn is_single(self) -> bool {
        self.0 != 0 && !self.more_than_one()
    }

    /// The lowest square, if any.
    #[must_use]
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros()))
        }
    }

    /// The highest square, if any.
    #[must_use]
    #[inline(always)]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(63 - self.0.leading_zeros()))
        }
    }

    /// The only square of a set known to be non-empty (for example a side's king).
    #[must_use]
    #[inline(always)]
    pub(crate) const fn lsb_unchecked(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::from_index_unchecked(self.0.trailing_zeros())
    }

    #[must_use]
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    #[must_use]
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// Shifts every square one rank up (towards rank 8); rank 8 falls off.
    #[must_use]
    #[inline(always)]
    pub const fn shift_up(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// Shifts every square one rank down (towards rank 1); rank 1 falls off.
    #[must_use]
    #[inline(always)]
    pub const fn shift_down(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl From<Rank> for Bitboard {
    fn from(rank: Rank) -> Bitboard {
        Bitboard::from_rank(rank)
    }
}

impl From<File> for Bitboard {
    fn from(file: File) -> Bitboard {
        Bitboard::from_file(file)
    }
}

macro_rules! bit_ops {
    ($($trait:ident $method:ident $assign_trait:ident $assign_method:ident $op:tt),*) => {$(
        impl<T: Into<Bitboard>> $trait<T> for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $method(self, rhs: T) -> Bitboard {
                Bitboard(self.0 $op rhs.into().0)
            }
        }
        impl<T: Into<Bitboard>> $assign_trait<T> for Bitboard {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: T) {
                self.0 = self.0 $op rhs.into().0;
            }
        }
    )*};
}

bit_ops!(
    BitAnd bitand BitAndAssign bitand_assign &,
    BitOr bitor BitOrAssign bitor_assign |,
    BitXor bitxor BitXorAssign bitxor_assign ^
);

impl Not for Bitboard {
    type Output = Bitboard;

    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the set as an 8x8 grid, rank 8 at the top, so failing tests are readable.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        draw_grid(f, |sq| if self.contains(sq) { 'x' } else { '.' })
    }
}

/// Writes one character per square as an 8x8 grid, rank 8 at the top (for `Debug` output).
pub(crate) fn draw_grid(
    f: &mut fmt::Formatter<'_>,
    square: impl Fn(Square) -> char,
) -> fmt::Result {
    for rank in Rank::ALL.iter().rev() {
        for file in File::ALL {
            write!(f, "{}", square(Square::from_coords(file, *rank)))?;
        }
        writeln!(f)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Iteration yields squares in index order and the set algebra behaves like sets.
    #[test]
    fn iteration_and_algebra() {
        let bb = Bitboard::from(Square::A1) | Square::H8 | Square::E4;
        assert_eq!(
            bb.collect::<Vec<_>>(),
            vec![Square::A1, Square::E4, Square::H8]
        );
        assert_eq!(bb.count(), 3);
        assert!(bb.more_than_one());
        assert!(Bitboard::from(Square::E4).is_single());
        assert!(!Bitboard::EMPTY.is_single());
        assert_eq!((bb & Square::E4).first(), Some(Square::E4));
        assert_eq!(bb.without(Square::E4).with(Square::E4), bb);
    }

    /// a1 is dark, the light/dark masks partition the board.
    #[test]
    fn square_colour_masks() {
        assert!(Bitboard::DARK_SQUARES.contains(Square::A1));
        assert_eq!(
            Bitboard::DARK_SQUARES | Bitboard::LIGHT_SQUARES,
            Bitboard::FULL
        );
        for sq in Square::all() {
            assert_eq!(Bitboard::DARK_SQUARES.contains(sq), sq.is_dark());
        }
    }
}
