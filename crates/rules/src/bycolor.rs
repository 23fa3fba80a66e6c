//! `ByColor<T>`: one value per side (a side's pieces, pocket or checks left), named by colour
//! rather than by an index into a two-element array.

use core::ops::{Index, IndexMut};

use crate::Color;

/// A value for White and one for Black.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    // An array, not two fields: the board's colour sets are read on every attack test, and an
    // indexed load is cheaper there than choosing between two fields.
    sides: [T; 2],
}

impl<T> ByColor<T> {
    #[must_use]
    pub const fn new(white: T, black: T) -> ByColor<T> {
        ByColor {
            sides: [white, black],
        }
    }

    /// Each side's value from `f(colour)`.
    #[must_use]
    pub fn new_with(mut f: impl FnMut(Color) -> T) -> ByColor<T> {
        ByColor::new(f(Color::White), f(Color::Black))
    }

    #[must_use]
    #[inline(always)]
    pub const fn get(&self, color: Color) -> &T {
        &self.sides[color as usize]
    }

    #[must_use]
    #[inline(always)]
    pub fn get_mut(&mut self, color: Color) -> &mut T {
        &mut self.sides[color as usize]
    }

    #[must_use]
    #[inline(always)]
    pub const fn white(&self) -> &T {
        &self.sides[0]
    }

    #[must_use]
    #[inline(always)]
    pub const fn black(&self) -> &T {
        &self.sides[1]
    }

    /// The same values with the sides swapped (for colour mirrors).
    #[must_use]
    pub fn swap(self) -> ByColor<T> {
        let [white, black] = self.sides;
        ByColor::new(black, white)
    }

    /// Applies `f` to both values.
    #[must_use]
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> ByColor<U> {
        ByColor {
            sides: self.sides.map(f),
        }
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;

    #[inline(always)]
    fn index(&self, color: Color) -> &T {
        self.get(color)
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline(always)]
    fn index_mut(&mut self, color: Color) -> &mut T {
        self.get_mut(color)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Indexing by colour reaches the named field; swapping exchanges them.
    #[test]
    fn index_by_colour() {
        let mut pair = ByColor::new(1, 2);
        pair[Color::Black] += 10;
        assert_eq!((pair[Color::White], *pair.black()), (1, 12));
        assert_eq!(pair.swap(), ByColor::new(12, 1));
        assert_eq!(
            ByColor::new_with(Color::is_white),
            ByColor::new(true, false)
        );
    }
}
