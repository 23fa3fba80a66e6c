//! `File`, `Rank` and `Square`: coordinates on the board, with their algebraic names.
//!
//! Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63 (little-endian rank-file mapping), the
//! numbering the bitboards use.

use core::fmt;
use core::str::FromStr;

/// A column of the board, `a` to `h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum File {
    A = 0,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

/// A row of the board, `1` to `8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    First = 0,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl File {
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    #[must_use]
    pub const fn new(index: u32) -> Option<File> {
        if index < 8 {
            Some(File::ALL[index as usize])
        } else {
            None
        }
    }

    #[must_use]
    #[inline]
    pub const fn index(self) -> u32 {
        self as u32
    }

    #[must_use]
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    #[must_use]
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => File::new(c as u32 - 'a' as u32),
            _ => None,
        }
    }
}

impl Rank {
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    #[must_use]
    pub const fn new(index: u32) -> Option<Rank> {
        if index < 8 {
            Some(Rank::ALL[index as usize])
        } else {
            None
        }
    }

    #[must_use]
    #[inline]
    pub const fn index(self) -> u32 {
        self as u32
    }

    #[must_use]
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    #[must_use]
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Rank::new(c as u32 - '1' as u32),
            _ => None,
        }
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// One of the 64 squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

macro_rules! square_consts {
    ($($name:ident = $index:expr),* $(,)?) => {
        impl Square {
            $(pub const $name: Square = Square($index);)*
        }
    };
}

square_consts! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// The square with this index (a1 = 0 ... h8 = 63), if the index is on the board.
    #[must_use]
    #[inline]
    pub const fn new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// # Safety-free contract
    /// `index` must be below 64; callers in this crate derive it from a bitboard bit.
    #[must_use]
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(index: u32) -> Square {
        debug_assert!(index < 64);
        Square(index as u8)
    }

    #[must_use]
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank as u8 * 8 + file as u8)
    }

    #[must_use]
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[must_use]
    #[inline]
    pub const fn file(self) -> File {
        File::ALL[(self.0 & 7) as usize]
    }

    #[must_use]
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 >> 3) as usize]
    }

    /// The same square seen from the other side (a1 <-> a8).
    #[must_use]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square `delta` steps further in index order, if it exists.
    #[must_use]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self.0 as i32 + delta;
        if 0 <= i && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// True for the dark squares (a1 is dark).
    #[must_use]
    pub const fn is_dark(self) -> bool {
        (self.0 / 8 + self.0 % 8).is_multiple_of(2)
    }

    /// All squares from a1 to h8.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(|i| Square(i as u8))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = [self.file().char() as u8, self.rank().char() as u8];
        // File and rank letters are ASCII.
        f.write_str(core::str::from_utf8(&name).unwrap_or("?"))
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A string that is not a square name such as `e4`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid square name")
    }
}

impl std::error::Error for ParseSquareError {}

impl Square {
    /// Parses a two-byte square name such as `e4`.
    pub fn from_ascii(s: &[u8]) -> Result<Square, ParseSquareError> {
        match s {
            [f, r] => match (File::from_char(*f as char), Rank::from_char(*r as char)) {
                (Some(file), Some(rank)) => Ok(Square::from_coords(file, rank)),
                _ => Err(ParseSquareError),
            },
            _ => Err(ParseSquareError),
        }
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Square names round-trip and map to the documented indices (a1 = 0, h8 = 63).
    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("a1".parse::<Square>().unwrap().index(), 0);
        assert_eq!("h8".parse::<Square>().unwrap().index(), 63);
        assert_eq!(Square::E4.file(), File::E);
        assert_eq!(Square::E4.rank(), Rank::Fourth);
        assert!("i1".parse::<Square>().is_err());
        assert!("e9".parse::<Square>().is_err());
        assert!("e".parse::<Square>().is_err());
    }

    /// a1 and h8 are dark squares, h1 is light.
    #[test]
    fn square_colours() {
        assert!(Square::A1.is_dark());
        assert!(Square::H8.is_dark());
        assert!(!Square::H1.is_dark());
    }
}
