//! `Pocket`: the pieces a crazyhouse player holds in hand, ready to drop, and their FEN letters.

use core::fmt;

use crate::{Color, Role};

/// How many pieces of each role a side holds. A pocket read from a FEN may name a king (so the
/// error can say so); a validated crazyhouse position never holds one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pocket {
    counts: [u8; 6],
}

impl Pocket {
    /// The roles in the order FEN writes a pocket: `QRBNP`.
    pub const FEN_ORDER: [Role; 6] = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ];

    #[must_use]
    pub const fn empty() -> Pocket {
        Pocket { counts: [0; 6] }
    }

    #[must_use]
    #[inline(always)]
    pub const fn count(&self, role: Role) -> u8 {
        self.counts[role.index()]
    }

    /// Adds one piece (saturating: a pocket never holds more than 255 of a role).
    #[inline]
    pub fn add(&mut self, role: Role) {
        let n = &mut self.counts[role.index()];
        *n = n.saturating_add(1);
    }

    /// Takes one piece out; a pocket without that role stays as it is.
    #[inline]
    pub fn remove(&mut self, role: Role) {
        let n = &mut self.counts[role.index()];
        *n = n.saturating_sub(1);
    }

    /// The number of pieces held.
    #[must_use]
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&n| u32::from(n)).sum()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.counts == [0; 6]
    }

    /// Appends the pocket's FEN letters (upper case for White) in `QRBNP` order.
    pub(crate) fn write_fen(&self, color: Color, out: &mut String) {
        for role in Pocket::FEN_ORDER {
            let letter = role.of(color).char();
            for _ in 0..self.count(role) {
                out.push(letter);
            }
        }
    }
}

impl fmt::Display for Pocket {
    /// The pocket's letters in upper case (`QNP`), as for White in a FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::new();
        self.write_fen(Color::White, &mut text);
        f.write_str(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pieces go in and out by role; the text lists them queen first, pawn last.
    #[test]
    fn add_remove_and_text() {
        let mut pocket = Pocket::empty();
        for role in [Role::Pawn, Role::Queen, Role::Pawn, Role::Knight] {
            pocket.add(role);
        }
        assert_eq!(pocket.to_string(), "QNPP");
        pocket.remove(Role::Pawn);
        pocket.remove(Role::Rook);
        assert_eq!((pocket.count(Role::Pawn), pocket.total()), (1, 3));
        let mut black = String::new();
        pocket.write_fen(Color::Black, &mut black);
        assert_eq!(black, "qnp");
    }
}
