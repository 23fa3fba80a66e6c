//! `XiangqiMove`, a legal move of a position, and `XiangqiUci`, a move's text as
//! Fairy-Stockfish writes it (`h3e3`, `b10c8`: the two points, nothing else).

use core::fmt;
use core::str::FromStr;

use super::position::XiangqiPosition;
use super::role::XiangqiRole;
use super::square::XiangqiSquare;

/// A move: the points it joins and the piece that moves (so playing it needs no look-up).
/// Captures are implied by the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct XiangqiMove {
    from: XiangqiSquare,
    to: XiangqiSquare,
    role: XiangqiRole,
}

impl XiangqiMove {
    #[must_use]
    #[inline]
    pub const fn new(role: XiangqiRole, from: XiangqiSquare, to: XiangqiSquare) -> XiangqiMove {
        XiangqiMove { from, to, role }
    }

    #[must_use]
    #[inline]
    pub const fn from(self) -> XiangqiSquare {
        self.from
    }

    #[must_use]
    #[inline]
    pub const fn to(self) -> XiangqiSquare {
        self.to
    }

    #[must_use]
    #[inline]
    pub const fn role(self) -> XiangqiRole {
        self.role
    }

    /// The move's text.
    #[must_use]
    pub const fn uci(self) -> XiangqiUci {
        XiangqiUci {
            from: self.from,
            to: self.to,
        }
    }
}

impl fmt::Display for XiangqiMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.uci().fmt(f)
    }
}

/// A move as text: its two points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct XiangqiUci {
    pub from: XiangqiSquare,
    pub to: XiangqiSquare,
}

impl fmt::Display for XiangqiUci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// Why a move's text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XiangqiUciError {
    /// Not two points such as `h3e3` or `b10c8`.
    Malformed,
    /// Two points, but no legal move joins them here.
    Illegal(XiangqiUci),
}

impl fmt::Display for XiangqiUciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            XiangqiUciError::Malformed => {
                f.write_str("expected a move as two points, such as h3e3 or b10c8")
            }
            XiangqiUciError::Illegal(uci) => write!(f, "{uci} is not a legal move here"),
        }
    }
}

impl std::error::Error for XiangqiUciError {}

impl FromStr for XiangqiUci {
    type Err = XiangqiUciError;

    fn from_str(s: &str) -> Result<XiangqiUci, XiangqiUciError> {
        let bytes = s.as_bytes();
        let (from, used) = XiangqiSquare::parse_prefix(bytes).ok_or(XiangqiUciError::Malformed)?;
        let rest = &bytes[used..];
        let (to, used) = XiangqiSquare::parse_prefix(rest).ok_or(XiangqiUciError::Malformed)?;
        if used != rest.len() {
            return Err(XiangqiUciError::Malformed);
        }
        Ok(XiangqiUci { from, to })
    }
}

impl XiangqiUci {
    /// The legal move of `position` this text names.
    pub fn to_move(&self, position: &XiangqiPosition) -> Result<XiangqiMove, XiangqiUciError> {
        position
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.from == self.from && m.to == self.to)
            .ok_or(XiangqiUciError::Illegal(*self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rank 10 takes two digits, so `a10a9` and `a1a10` read point by point.
    #[test]
    fn text_round_trips() {
        for text in ["h3e3", "b10c8", "a10a9", "a1a10", "i10i1"] {
            assert_eq!(text.parse::<XiangqiUci>().unwrap().to_string(), text);
        }
        for bad in [
            "", "h3", "h3e", "h3e3x", "j1a1", "a0a1", "a11a1", "a1a100", "h3e3q",
        ] {
            assert_eq!(
                bad.parse::<XiangqiUci>(),
                Err(XiangqiUciError::Malformed),
                "{bad}"
            );
        }
    }

    /// A move is found among the legal ones; any other pair of points is refused.
    #[test]
    fn resolves_against_the_position() {
        let pos = XiangqiPosition::new();
        let m = "h3e3".parse::<XiangqiUci>().unwrap().to_move(&pos).unwrap();
        assert_eq!(m.role(), XiangqiRole::Cannon);
        assert!("h3h2".parse::<XiangqiUci>().unwrap().to_move(&pos).is_ok());
        assert!(matches!(
            "e1e3".parse::<XiangqiUci>().unwrap().to_move(&pos),
            Err(XiangqiUciError::Illegal(_))
        ));
    }
}
