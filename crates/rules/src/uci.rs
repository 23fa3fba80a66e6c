//! UCI long algebraic notation: `e2e4`, `e7e8q` (`a7a8k` in antichess), castling as the king's
//! two-square move `e1g1` (the king-takes-rook form `e1h1` is also understood) or, under
//! Chess960 rules, as the king taking its own rook, and crazyhouse drops as `N@f3`.

use core::fmt;
use core::str::FromStr;

use crate::core::CastlingMode;
use crate::{Move, PlayError, Role, Rules, Square};

/// A move as UCI writes it, before it is matched against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UciMove {
    /// A piece on the board moves: `e2e4`, `e7e8q`, castling as `e1g1` or `e1h1`.
    Normal {
        from: Square,
        to: Square,
        promotion: Option<Role>,
    },
    /// A crazyhouse drop: `N@f3`.
    Put { role: Role, to: Square },
}

/// Why a string is not a UCI move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseUciError {
    /// Not of the form `e2e4`, `e7e8q` or `N@f3`.
    Syntax,
    /// `0000`, the null move, which is never playable.
    NullMove,
    /// A fifth character that is not `q`, `r`, `b`, `n` or `k`.
    Promotion(char),
    /// A drop of something that is not a piece letter.
    DropPiece(char),
}

impl fmt::Display for ParseUciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseUciError::Syntax => f.write_str("expected a uci move such as e2e4, e7e8q or N@f3"),
            ParseUciError::NullMove => f.write_str("the null move 0000 cannot be played"),
            ParseUciError::Promotion(c) => {
                write!(f, "invalid promotion piece {c:?}: expected q, r, b, n or k")
            }
            ParseUciError::DropPiece(c) => {
                write!(f, "invalid drop piece {c:?}: expected P, N, B, R or Q")
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
        if let [piece, b'@', square @ ..] = b {
            let role =
                Role::from_char(*piece as char).ok_or(ParseUciError::DropPiece(*piece as char))?;
            let to = Square::from_ascii(square).map_err(|_| ParseUciError::Syntax)?;
            return Ok(UciMove::Put { role, to });
        }
        if b.len() != 4 && b.len() != 5 {
            return Err(ParseUciError::Syntax);
        }
        let from = Square::from_ascii(&b[0..2]).map_err(|_| ParseUciError::Syntax)?;
        let to = Square::from_ascii(&b[2..4]).map_err(|_| ParseUciError::Syntax)?;
        let promotion = match b.get(4) {
            None => None,
            Some(&c) => match Role::from_char(c as char) {
                Some(r) if r != Role::Pawn && c.is_ascii_lowercase() => Some(r),
                _ => return Err(ParseUciError::Promotion(c as char)),
            },
        };
        if from == to {
            return Err(ParseUciError::Syntax);
        }
        Ok(UciMove::Normal {
            from,
            to,
            promotion,
        })
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UciMove::Normal {
                from,
                to,
                promotion,
            } => {
                write!(f, "{from}{to}")?;
                if let Some(r) = promotion {
                    write!(f, "{}", r.char())?;
                }
                Ok(())
            }
            UciMove::Put { role, to } => write!(f, "{}@{to}", role.upper_char()),
        }
    }
}

impl UciMove {
    /// The legal move of `pos` this UCI text names.
    pub fn to_move<P: Rules>(&self, pos: &P) -> Result<Move, PlayError> {
        self.to_move_among(pos, &pos.legal_moves())
    }

    /// The move of `legal` (the legal moves of `pos`) this UCI text names. Castling is also
    /// understood in the form the other castling rules write: the king taking its rook
    /// (`e1h1`) in standard chess, the king's destination (`e1g1`) in Chess960 where no
    /// other move is written so and one castling lands the king there.
    pub fn to_move_among<P: Rules>(&self, pos: &P, legal: &[Move]) -> Result<Move, PlayError> {
        let found = match *self {
            UciMove::Put { role, to } => legal
                .iter()
                .copied()
                .find(|m| m.is_drop() && m.role() == role && m.to() == to),
            UciMove::Normal {
                from,
                to,
                promotion,
            } => {
                let exact = legal.iter().copied().find(|m| {
                    !m.is_drop() && m.from() == from && m.to() == to && m.promotion() == promotion
                });
                exact.or_else(|| {
                    let mut castles = legal.iter().copied().filter(|m| {
                        promotion.is_none()
                            && m.is_castle()
                            && m.from() == from
                            && names_castle(pos, *m, to)
                    });
                    let first = castles.next();
                    first.filter(|_| castles.next().is_none())
                })
            }
        };
        found.ok_or_else(|| PlayError::Illegal(format!("{self} is not legal in {}", pos.fen())))
    }
}

/// True if UCI `to` names the castling move `m` in the form the other castling rules write.
fn names_castle<P: Rules>(pos: &P, m: Move, to: Square) -> bool {
    match pos.castling_mode() {
        // `e1h1` for `e1g1`: the king capturing its own rook.
        CastlingMode::Standard => {
            pos.castling_rights().contains(to)
                && to.rank() == m.to().rank()
                && (to > m.from()) == (m.to() > m.from())
        }
        // `e1g1` for `e1h1`: the king's destination.
        CastlingMode::Chess960 => to == m.castling_king_to(),
    }
}

impl From<Move> for UciMove {
    fn from(m: Move) -> UciMove {
        if m.is_drop() {
            UciMove::Put {
                role: m.role(),
                to: m.to(),
            }
        } else {
            UciMove::Normal {
                from: m.from(),
                to: m.to(),
                promotion: m.promotion(),
            }
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
        for s in ["e2e4", "e7e8q", "a7b8n", "a7a8k"] {
            assert_eq!(s.parse::<UciMove>().unwrap().to_string(), s);
        }
        assert_eq!("0000".parse::<UciMove>(), Err(ParseUciError::NullMove));
        assert_eq!(
            "e7e8p".parse::<UciMove>(),
            Err(ParseUciError::Promotion('p'))
        );
        assert_eq!(
            "N@f3".parse::<UciMove>(),
            Ok(UciMove::Put {
                role: Role::Knight,
                to: Square::F3
            })
        );
        assert_eq!("N@f3".parse::<UciMove>().unwrap().to_string(), "N@f3");
        assert_eq!(
            "X@f3".parse::<UciMove>(),
            Err(ParseUciError::DropPiece('X'))
        );
        assert_eq!("N@f9".parse::<UciMove>(), Err(ParseUciError::Syntax));
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
