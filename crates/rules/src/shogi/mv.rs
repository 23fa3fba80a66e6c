//! `ShogiMove`, a move of the shogi family in two bytes, and its two texts: Fairy-Stockfish's
//! UCI style (`c3c4`, `P@e5`, `b2h8+`; `Display`/`FromStr` on the move itself, as its square
//! names do not depend on the board's size) and USI's (`7g7f`, `P*5e`, `8h2b+`: [`ShogiUsi`],
//! whose squares a board size places).
//!
//! GAMES.md: "Drops are `P@e5`; a shogi promotion is a trailing `+` (`b2h8+`), a move that
//! could promote but does not has no suffix."

use core::fmt;
use core::str::FromStr;

use super::role::{HAND_ROLES, ShogiRole};
use super::square::{ParseShogiSquareError, SQUARES, ShogiSquare, UsiSquare};
use super::variant::ShogiVariant;

/// A move: a piece's step (with or without promotion) or a drop from hand. Bits 0-6 hold the
/// destination, bits 7-13 the origin square or, from 81 on, the dropped kind; bit 14 the
/// promotion.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ShogiMove(u16);

const PROMOTE: u16 = 1 << 14;

impl ShogiMove {
    #[must_use]
    #[inline]
    pub const fn normal(from: ShogiSquare, to: ShogiSquare, promote: bool) -> ShogiMove {
        ShogiMove::raw(from.index() as u32, to.index() as u32, promote)
    }

    #[inline]
    pub(crate) const fn raw(from: u32, to: u32, promote: bool) -> ShogiMove {
        ShogiMove(to as u16 | (from as u16) << 7 | if promote { PROMOTE } else { 0 })
    }

    /// A drop of `role` (one a hand holds: pawn to rook) on `to`.
    #[must_use]
    #[inline]
    pub const fn drop(role: ShogiRole, to: ShogiSquare) -> ShogiMove {
        ShogiMove::raw_drop(role.index(), to.index() as u32)
    }

    #[inline]
    pub(crate) const fn raw_drop(hand_index: usize, to: u32) -> ShogiMove {
        ShogiMove(to as u16 | ((SQUARES + hand_index) as u16) << 7)
    }

    #[must_use]
    #[inline]
    pub const fn to(self) -> ShogiSquare {
        ShogiSquare::at((self.0 & 0x7F) as u32)
    }

    #[inline]
    pub(crate) const fn origin(self) -> usize {
        ((self.0 >> 7) & 0x7F) as usize
    }

    /// The square the piece leaves; `None` for a drop.
    #[must_use]
    #[inline]
    pub const fn from(self) -> Option<ShogiSquare> {
        if self.origin() < SQUARES {
            Some(ShogiSquare::at(self.origin() as u32))
        } else {
            None
        }
    }

    /// The kind dropped; `None` for a step.
    #[must_use]
    #[inline]
    pub const fn drop_role(self) -> Option<ShogiRole> {
        if self.origin() < SQUARES {
            None
        } else {
            Some(ShogiRole::from_index(self.origin() - SQUARES))
        }
    }

    #[must_use]
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.0 & PROMOTE != 0
    }

    /// The move as USI writes it on `variant`'s board.
    #[must_use]
    pub fn usi(self, variant: ShogiVariant) -> ShogiUsi {
        let size = variant.size();
        // Every generated move stays on its board; a hand-built one off it shows as 0 files.
        let place = |sq: ShogiSquare| sq.usi(size).unwrap_or(UsiSquare { file: 0, rank: 1 });
        ShogiUsi {
            from: match (self.from(), self.drop_role()) {
                (Some(sq), _) => UsiFrom::Square(place(sq)),
                (None, role) => UsiFrom::Drop(role.unwrap_or(ShogiRole::Pawn)),
            },
            to: place(self.to()),
            promote: self.is_promotion(),
        }
    }

    /// `text` in either notation (FSF's `c3c4`, `P@e5`; USI's `7g7f`, `P*5e`), placed on
    /// `variant`'s board.
    pub fn parse_any(text: &str, variant: ShogiVariant) -> Result<ShogiMove, ParseShogiMoveError> {
        let usi = text.contains('*') || text.as_bytes().first().is_some_and(u8::is_ascii_digit);
        if usi {
            text.parse::<ShogiUsi>()?
                .to_move(variant)
                .ok_or(ParseShogiMoveError::OffBoard)
        } else {
            let m: ShogiMove = text.parse()?;
            let board = variant.board();
            let on = |sq: ShogiSquare| board & sq.bit() != 0;
            if on(m.to()) && m.from().is_none_or(on) {
                Ok(m)
            } else {
                Err(ParseShogiMoveError::OffBoard)
            }
        }
    }
}

impl fmt::Debug for ShogiMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for ShogiMove {
    /// FSF's text: `c3c4`, `P@e5`, `b2h8+`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.from(), self.drop_role()) {
            (Some(from), _) => write!(f, "{from}{}", self.to())?,
            (None, role) => write!(f, "{}@{}", role.map_or('?', ShogiRole::letter), self.to())?,
        }
        if self.is_promotion() {
            f.write_str("+")?;
        }
        Ok(())
    }
}

/// Move text that is no move in the notation tried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseShogiMoveError {
    /// Not `from` + `to` (+ `+`) or `X@to` / `X*to`.
    Syntax,
    /// A drop of a kind no hand holds (`K@e5`).
    DropRole,
    /// A square this board does not have.
    OffBoard,
}

impl fmt::Display for ParseShogiMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParseShogiMoveError::Syntax => {
                "expected a move such as c3c4, P@e5, b2h8+ (FSF) or 7g7f, P*5e, 8h2b+ (USI)"
            }
            ParseShogiMoveError::DropRole => "only P, L, N, S, G, B and R are dropped",
            ParseShogiMoveError::OffBoard => "a square off this board",
        })
    }
}

impl std::error::Error for ParseShogiMoveError {}

impl From<ParseShogiSquareError> for ParseShogiMoveError {
    fn from(_: ParseShogiSquareError) -> ParseShogiMoveError {
        ParseShogiMoveError::Syntax
    }
}

fn drop_role(letter: &str) -> Result<ShogiRole, ParseShogiMoveError> {
    let mut chars = letter.chars();
    match (chars.next().and_then(ShogiRole::from_letter), chars.next()) {
        (Some(role), None) if role.index() < HAND_ROLES => Ok(role),
        (Some(_), None) => Err(ParseShogiMoveError::DropRole),
        _ => Err(ParseShogiMoveError::Syntax),
    }
}

/// Splits a trailing `+` off.
fn promotion(s: &str) -> (&str, bool) {
    match s.strip_suffix('+') {
        Some(rest) => (rest, true),
        None => (s, false),
    }
}

impl FromStr for ShogiMove {
    type Err = ParseShogiMoveError;

    /// FSF's text.
    fn from_str(s: &str) -> Result<ShogiMove, ParseShogiMoveError> {
        if let Some((role, to)) = s.split_once('@') {
            return Ok(ShogiMove::drop(drop_role(role)?, to.parse()?));
        }
        let (squares, promote) = promotion(s);
        let (from, to) = squares
            .split_at_checked(2)
            .ok_or(ParseShogiMoveError::Syntax)?;
        Ok(ShogiMove::normal(from.parse()?, to.parse()?, promote))
    }
}

/// Where a USI move starts: a square, or the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UsiFrom {
    Square(UsiSquare),
    Drop(ShogiRole),
}

/// A move as USI writes it (`7g7f`, `P*5e`, `8h2b+`), before a board size places its squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShogiUsi {
    pub from: UsiFrom,
    pub to: UsiSquare,
    pub promote: bool,
}

impl ShogiUsi {
    /// The move on `variant`'s board, if both squares are on it.
    #[must_use]
    pub fn to_move(self, variant: ShogiVariant) -> Option<ShogiMove> {
        let size = variant.size();
        let to = ShogiSquare::from_usi(self.to, size)?;
        Some(match self.from {
            UsiFrom::Square(from) => {
                ShogiMove::normal(ShogiSquare::from_usi(from, size)?, to, self.promote)
            }
            UsiFrom::Drop(role) => ShogiMove::drop(role, to),
        })
    }
}

impl FromStr for ShogiUsi {
    type Err = ParseShogiMoveError;

    fn from_str(s: &str) -> Result<ShogiUsi, ParseShogiMoveError> {
        if let Some((role, to)) = s.split_once('*') {
            return Ok(ShogiUsi {
                from: UsiFrom::Drop(drop_role(role)?),
                to: to.parse()?,
                promote: false,
            });
        }
        let (squares, promote) = promotion(s);
        let (from, to) = squares
            .split_at_checked(2)
            .ok_or(ParseShogiMoveError::Syntax)?;
        Ok(ShogiUsi {
            from: UsiFrom::Square(from.parse()?),
            to: to.parse()?,
            promote,
        })
    }
}

impl fmt::Display for ShogiUsi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.from {
            UsiFrom::Square(from) => write!(f, "{from}{}", self.to)?,
            UsiFrom::Drop(role) => write!(f, "{}*{}", role.letter(), self.to)?,
        }
        if self.promote {
            f.write_str("+")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// USI `7g7f` is FSF `c3c4`, `P*5e` is `P@e5` and `8h2b+` is `b2h8+`; both read back.
    #[test]
    fn both_notations_round_trip() {
        for (fsf, usi) in [("c3c4", "7g7f"), ("P@e5", "P*5e"), ("b2h8+", "8h2b+")] {
            let m: ShogiMove = fsf.parse().unwrap();
            assert_eq!(m.to_string(), fsf);
            assert_eq!(m.usi(ShogiVariant::Shogi).to_string(), usi);
            assert_eq!(ShogiMove::parse_any(usi, ShogiVariant::Shogi), Ok(m));
            assert_eq!(ShogiMove::parse_any(fsf, ShogiVariant::Shogi), Ok(m));
        }
    }

    /// Minishogi's USI squares count from its own 5x5 edge: FSF `a2a3` is `5d5c`.
    #[test]
    fn minishogi_usi() {
        let m = ShogiMove::parse_any("5d5c", ShogiVariant::Minishogi).unwrap();
        assert_eq!(m.to_string(), "a2a3");
        assert_eq!(
            ShogiMove::parse_any("f1f2", ShogiVariant::Minishogi),
            Err(ParseShogiMoveError::OffBoard)
        );
    }

    /// Kings are never dropped; junk is a typed error.
    #[test]
    fn bad_text() {
        assert_eq!(
            "K@e5".parse::<ShogiMove>(),
            Err(ParseShogiMoveError::DropRole)
        );
        for bad in ["", "e", "e5", "e5e", "j1a1", "P@", "@e5", "e5e6++", "ä1a1"] {
            assert!(bad.parse::<ShogiMove>().is_err(), "{bad}");
            assert!(bad.parse::<ShogiUsi>().is_err(), "{bad}");
        }
    }
}
