//! The little chess vocabulary the bot needs: sides, squares, pieces and UCI moves.
//!
//! The server is the rules authority: the bot never decides whether a move is legal. It only
//! reads what passes between the server and the engine (a move's syntax, the side to move,
//! the pieces of a FEN for the opening book), so these types check syntax, not rules.

use std::fmt;
use std::str::FromStr;

use crate::proto;

/// A side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    White,
    Black,
}

impl Side {
    /// The other side.
    #[must_use]
    pub const fn opposite(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// The side a protobuf `Color` names; `None` for `COLOR_UNSPECIFIED` or an unknown value.
    #[must_use]
    pub fn from_proto(color: i32) -> Option<Side> {
        match proto::Color::try_from(color) {
            Ok(proto::Color::White) => Some(Side::White),
            Ok(proto::Color::Black) => Some(Side::Black),
            _ => None,
        }
    }

    /// `white` or `black`, for logs.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A square, `a1` = 0 ... `h8` = 63 (file + 8 * rank).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0 = a) and `rank` (0 = rank 1); `None` off the board.
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(file + 8 * rank))
        } else {
            None
        }
    }

    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 / 8
    }

    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Reads `e4` from the first two bytes of `text`.
    fn parse(text: &[u8]) -> Option<Square> {
        match text {
            [f @ b'a'..=b'h', r @ b'1'..=b'8', ..] => Square::new(f - b'a', r - b'1'),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Role {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

impl Role {
    /// The role of a FEN or UCI letter, either case.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }

    /// The lowercase letter.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }
}

/// A piece: a role and a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub side: Side,
    pub role: Role,
}

/// A move in UCI notation: `e2e4`, `e7e8q`, `e1h1` (castling as Chess960 engines write it),
/// `a7a8k` (antichess), or a Crazyhouse drop `N@f3`. `0000` and `(none)` are not moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UciMove {
    Normal {
        from: Square,
        to: Square,
        promotion: Option<Role>,
    },
    Drop {
        role: Role,
        to: Square,
    },
}

/// Why text is not a UCI move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMove {
    /// The text as given (cut to 16 characters: it may come from a misbehaving engine).
    pub text: String,
}

impl fmt::Display for BadMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a uci move: {:?}", self.text)
    }
}

impl std::error::Error for BadMove {}

impl FromStr for UciMove {
    type Err = BadMove;

    fn from_str(text: &str) -> Result<UciMove, BadMove> {
        let bad = || BadMove {
            text: text.chars().take(16).collect(),
        };
        let bytes = text.as_bytes();
        match bytes {
            [piece, b'@', rest @ ..] if rest.len() == 2 => {
                let role = Role::from_char(*piece as char)
                    .filter(|_| piece.is_ascii_uppercase())
                    .ok_or_else(bad)?;
                let to = Square::parse(rest).ok_or_else(bad)?;
                Ok(UciMove::Drop { role, to })
            }
            _ if bytes.len() == 4 || bytes.len() == 5 => {
                let from = Square::parse(bytes).ok_or_else(bad)?;
                let to = Square::parse(&bytes[2..]).ok_or_else(bad)?;
                let promotion = match bytes.get(4) {
                    None => None,
                    Some(&c) if c.is_ascii_lowercase() && c != b'p' => {
                        Some(Role::from_char(c as char).ok_or_else(bad)?)
                    }
                    Some(_) => return Err(bad()),
                };
                if from == to {
                    return Err(bad());
                }
                Ok(UciMove::Normal {
                    from,
                    to,
                    promotion,
                })
            }
            _ => Err(bad()),
        }
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
                if let Some(role) = promotion {
                    write!(f, "{}", role.char())?;
                }
                Ok(())
            }
            UciMove::Drop { role, to } => {
                write!(f, "{}@{to}", role.char().to_ascii_uppercase())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every UCI form an engine may send reads back as written: plain, promotion (to a king
    /// too, for antichess), castling as king-takes-rook, and drops.
    #[test]
    fn uci_moves_round_trip() {
        for text in [
            "e2e4", "e7e8q", "a7a8k", "e1h1", "e1g1", "N@f3", "P@e4", "h7h8n",
        ] {
            let mv: UciMove = text.parse().unwrap();
            assert_eq!(mv.to_string(), text);
        }
    }

    /// Null moves, `(none)`, off-board squares, pawn promotions and junk are not moves.
    #[test]
    fn non_moves_are_refused() {
        for text in [
            "", "0000", "(none)", "e2e9", "i2i4", "e2e4p", "e2e4Q", "e2e2", "n@f3", "X@f3", "P@e",
            "e2e4e5", "Nf3",
        ] {
            assert!(text.parse::<UciMove>().is_err(), "{text:?}");
        }
    }

    /// Squares count from a1 along the files, then up the ranks.
    #[test]
    fn squares() {
        assert_eq!(Square::new(0, 0).unwrap().index(), 0);
        assert_eq!(Square::new(7, 7).unwrap().to_string(), "h8");
        assert_eq!(Square::new(4, 3).unwrap().to_string(), "e4");
        assert!(Square::new(8, 0).is_none());
    }
}
