//! `grid_square!`: the square type of a family on `u128` bitboards numbered `rank * files +
//! file` (the wide, shogi and xiangqi families). Each family names its own type, its own
//! text (FSF, USI) and its own bit lookup; what they share, the numbering, is written once.

/// Declares `$name`, a square of a `$files` x `$ranks` numbering, with `new`, `from_index`,
/// `at`, `index`, `file` and `rank`.
macro_rules! grid_square {
    ($(#[$doc:meta])* $name:ident, files = $files:expr, ranks = $ranks:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(u8);

        impl $name {
            /// The square at `file` and `rank` (both from 0), if the numbering holds it.
            #[must_use]
            pub const fn new(file: u8, rank: u8) -> Option<$name> {
                if file < $files && rank < $ranks {
                    Some($name(rank * $files + file))
                } else {
                    None
                }
            }

            /// The square numbered `index` (`rank * files + file`).
            #[must_use]
            pub const fn from_index(index: u8) -> Option<$name> {
                if (index as usize) < ($files as usize) * ($ranks as usize) {
                    Some($name(index))
                } else {
                    None
                }
            }

            /// A bit index known to be in the numbering (from a bitboard of its squares).
            #[inline]
            pub(crate) const fn at(index: u32) -> $name {
                $name(index as u8)
            }

            #[must_use]
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            /// The file from 0 (`a`).
            #[must_use]
            #[inline]
            pub const fn file(self) -> u8 {
                self.0 % $files
            }

            /// The rank from 0 (`1`).
            #[must_use]
            #[inline]
            pub const fn rank(self) -> u8 {
                self.0 / $files
            }
        }
    };
}

pub(crate) use grid_square;
