//! UCI long algebraic notation: `e2e4`, `e7e8q`, castling as the king's two-square move `e1g1`
//! (the king-takes-rook form `e1h1` is also understood).

use core::fmt;
use core::str::FromStr;

use crate::{Move, PlayError, Role, Rules, Square};

/// A move as UCI writes it, before it is matched against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UciMove {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<Role>,
}

/// Why a string is not a UCI move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseUciError {
    /// Not 4 or 5 characters of the form `e2e4` / `e7e8q`.
    Syntax,
    /// `0000`, the null move, which is never playable.
    NullMove,
    /// A fifth character that is not `q`, `r`, `b` or `n`.
    Promotion(char),
}

impl fmt::Display for ParseUciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseUciError::Syntax => f.write_str("expected a uci move such as e2e4 or e7e8q"),
            ParseUciError::NullMove => f.write_str("the null move 0000 cannot be played"),
            ParseUciError::Promotion(c) => {
                write!(f, "invalid promotion piece {c:?}: expected q, r, b or n")
            }
        }
    }
}

impl std::error::Error for ParseUciError {}

impl FromStr for UciMove {
    type Err = ParseUciError;

    fn from_str(s: &str) -> Result<UciMove, ParseUciError> {
        let b = s.as_bytes();
        if s == "0000" {
            return Err(ParseUciError::NullMove);
        }
        if b.len() != 4 && b.len() != 5 {
            return Err(ParseUciError::Syntax);
        }
        let from = Square::from_ascii(&b[0..2]).map_err(|_| ParseUciError::Syntax)?;
        let to = Square::from_ascii(&b[2..4]).map_err(|_| ParseUciError::Syntax)?;
        let promotion = match b.get(4) {
            None => None,
            Some(&c) => match Role::from_char(c as char) {
                Some(r) if Role::PROMOTIONS.contains(&r) && c.is_ascii_lowercase() => Some(r),
                _ => return Err(ParseUciError::Promotion(c as char)),
            },
        };
        if from == to {
            return Err(ParseUciError::Syntax);
        }
        Ok(UciMove {
            from,
            to,
            promotion,
        })
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(r) = self.promotion {
            write!(f, "{}", r.char())?;
        }
        Ok(())
    }
}

impl UciMove {
    /// The legal move of `pos` this UCI text names.
    pub fn to_move<P: Rules>(&self, pos: &P) -> Result<Move, PlayError> {
        self.to_move_among(pos, &pos.legal_moves())
    }

    /// The move of `legal` (the legal moves of `pos`) this UCI text names.
    pub fn to_move_among<P: Rules>(&self, pos: &P, legal: &[Move]) -> Result<Move, PlayError> {
        let found = legal.iter().copied().find(|m| {
            m.from() == self.from
                && m.promotion() == self.promotion
                && (m.to() == self.to || is_king_takes_rook(pos, *m, self.to))
        });
        found.ok_or_else(|| PlayError::Illegal(format!("{self} is not legal in {}", pos.fen())))
    }
}

/// `e1h1` for `e1g1`: castling written as the king capturing its own rook.
fn is_king_takes_rook<P: Rules>(pos: &P, m: Move, to: Square) -> bool {
    m.is_castle() && pos.castling_rights().contains(to) && to.rank() == m.to().rank() && {
        let king_side = m.to() > m.from();
        (to > m.from()) == king_side
    }
}

impl From<Move> for UciMove {
    fn from(m: Move) -> UciMove {
        UciMove {
            from: m.from(),
            to: m.to(),
            promotion: m.promotion(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Chess, Rules};

    /// UCI parses and prints back, and rejects malformed text with a reason.
    #[test]
    fn parse_and_print() {
        for s in ["e2e4", "e7e8q", "a7b8n"] {
            assert_eq!(s.parse::<UciMove>().unwrap().to_string(), s);
        }
        assert_eq!("0000".parse::<UciMove>(), Err(ParseUciError::NullMove));
        assert_eq!(
            "e7e8k".parse::<UciMove>(),
            Err(ParseUciError::Promotion('k'))
        );
        assert_eq!("e2e2".parse::<UciMove>(), Err(ParseUciError::Syntax));
        assert_eq!("e2".parse::<UciMove>(), Err(ParseUciError::Syntax));
        assert_eq!("é2e4".parse::<UciMove>(), Err(ParseUciError::Syntax));
    }

    /// Castling is the king's two-square move; king-takes-rook text means the same move.
    #[test]
    fn castling_forms() {
        let pos: Chess =
            Rules::from_setup("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap()).unwrap();
        let a = "e1g1".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        let b = "e1h1".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        assert_eq!(a, b);
        assert!(a.is_castle());
        let c = "e1a1".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        assert_eq!(c.to(), Square::C1);
        assert!("e1f2".parse::<UciMove>().unwrap().to_move(&pos).is_ok());
        assert!("e1e3".parse::<UciMove>().unwrap().to_move(&pos).is_err());
    }
}
