//! `WideSan`, standard algebraic notation for the wide family, written as Fairy-Stockfish
//! writes it: the game's own piece letters (`J` for Janus's janus, `M` and `C` for Embassy's
//! marshal and cardinal), ranks up to 10 (`Rcg10`), disambiguation by file, then rank, then
//! both, among the legal moves only; `=X` promotions (`bxc8=N`), `O-O` when the king castles
//! toward the files past its own, `O-O-O` the other way, in every start array; Loop's drops
//! `P@e5`; `+` after a check and `#` after a mate. Read leniently, as the 8x8 SAN is: a missing or extra `+`/`#`,
//! annotations `!?`, `0-0`, a missing `x` or `=`.

use core::fmt;
use core::str::FromStr;

use super::mv::{WideMove, WideMoveKind};
use super::position::WidePosition;
use super::role::WideRole;
use super::square::WideSquare;

/// A SAN move as written, before it is matched against a position. Pieces are named by their
/// letter, which means a role only in a given game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WideSan {
    Castle {
        /// Toward the a-file.
        long: bool,
    },
    /// A piece of the hand put on `to` (its upper-case letter).
    Put { piece: char, to: WideSquare },
    Normal {
        /// The moving piece's upper-case letter; `None` for a pawn.
        piece: Option<char>,
        /// Disambiguation: the file (from 0) and rank (from 0) the piece leaves.
        file: Option<u8>,
        rank: Option<u8>,
        capture: bool,
        to: WideSquare,
        /// The upper-case letter of the piece a pawn becomes.
        promotion: Option<char>,
    },
}

/// Why a SAN text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WideSanError {
    /// Not SAN at all.
    Syntax(String),
    /// SAN, but no legal move of the position fits it.
    Illegal(String),
    /// SAN that fits more than one legal move.
    Ambiguous(String),
}

impl fmt::Display for WideSanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WideSanError::Syntax(s) => write!(
                f,
                "invalid san move {s:?} (expected a move such as Nf3, exd5, Jji6, Rcg10, e10=C or O-O)"
            ),
            WideSanError::Illegal(s) => write!(f, "illegal move {s} in this position"),
            WideSanError::Ambiguous(s) => {
                write!(f, "ambiguous move {s}: name the piece's file or rank")
            }
        }
    }
}

impl std::error::Error for WideSanError {}

impl FromStr for WideSan {
    type Err = WideSanError;

    fn from_str(text: &str) -> Result<WideSan, WideSanError> {
        let err = || WideSanError::Syntax(text.to_string());
        let s = text.trim().trim_end_matches(['+', '#', '!', '?']);
        match s {
            "O-O" | "0-0" | "o-o" => return Ok(WideSan::Castle { long: false }),
            "O-O-O" | "0-0-0" | "o-o-o" => return Ok(WideSan::Castle { long: true }),
            _ => {}
        }
        if !s.is_ascii() || s.len() < 2 || s.len() > 10 {
            return Err(err());
        }
        if let Some((piece, square)) = s.split_once('@') {
            let piece = match piece.as_bytes() {
                [] => 'P',
                [c] if c.is_ascii_uppercase() => *c as char,
                _ => return Err(err()),
            };
            let to = square.parse().map_err(|_| err())?;
            return Ok(WideSan::Put { piece, to });
        }
        let b = s.as_bytes();
        // A promotion ends the text: `=C`, or a bare upper-case letter after the square.
        let (body, promotion) = match b {
            [.., b'=', p] if p.is_ascii_uppercase() => (&b[..b.len() - 2], Some(*p as char)),
            [.., d, p] if p.is_ascii_uppercase() && d.is_ascii_digit() => {
                (&b[..b.len() - 1], Some(*p as char))
            }
            _ => (b, None),
        };
        // The destination: the last file letter and the digits after it.
        let digits = body.iter().rev().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 || digits > 2 || body.len() < digits + 1 {
            return Err(err());
        }
        let to_at = body.len() - digits - 1;
        let to: WideSquare = core::str::from_utf8(&body[to_at..])
            .map_err(|_| err())?
            .parse()
            .map_err(|_| err())?;
        let mut head = &body[..to_at];
        let piece = match head.first() {
            Some(c) if c.is_ascii_uppercase() => {
                head = &head[1..];
                Some(*c as char)
            }
            _ => None,
        };
        let capture = head.last() == Some(&b'x');
        if capture {
            head = &head[..head.len() - 1];
        }
        let mut file = None;
        if let Some(c) = head.first().filter(|c| c.is_ascii_lowercase()) {
            file = Some(c - b'a');
            head = &head[1..];
        }
        let rank = match head {
            [] => None,
            digits if digits.len() <= 2 && digits.iter().all(u8::is_ascii_digit) => {
                let n: u8 = core::str::from_utf8(digits)
                    .ok()
                    .and_then(|d| d.parse().ok())
                    .filter(|&n| (1..=10).contains(&n))
                    .ok_or_else(err)?;
                Some(n - 1)
            }
            _ => return Err(err()),
        };
        // A pawn names at most its file (when it captures; `ed5` reads as `exd5`), or its
        // square in a capture another pawn on its file could also make (a Knight Relay
        // pawn's leap: `c6xb5`; a quiet one, `e2g3`, is its UCI text and read as such).
        if piece.is_none() && rank.is_some() && !(capture && file.is_some()) {
            return Err(err());
        }
        Ok(WideSan::Normal {
            piece,
            file,
            rank,
            capture,
            to,
            promotion,
        })
    }
}

impl fmt::Display for WideSan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            WideSan::Castle { long: false } => f.write_str("O-O"),
            WideSan::Castle { long: true } => f.write_str("O-O-O"),
            WideSan::Put { piece, to } => write!(f, "{piece}@{to}"),
            WideSan::Normal {
                piece,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if let Some(p) = piece {
                    write!(f, "{p}")?;
                }
                if let Some(file) = file {
                    write!(f, "{}", char::from(b'a' + file))?;
                }
                if let Some(rank) = rank {
                    write!(f, "{}", rank + 1)?;
                }
                if capture {
                    f.write_str("x")?;
                }
                write!(f, "{to}")?;
                if let Some(p) = promotion {
                    write!(f, "={p}")?;
                }
                Ok(())
            }
        }
    }
}

impl WideSan {
    /// The legal move of `position` this SAN names.
    pub fn to_move(&self, position: &WidePosition) -> Result<WideMove, WideSanError> {
        self.to_move_among(position, &position.legal_moves())
    }

    /// [`WideSan::to_move`] with the position's legal moves already generated (`legal`).
    pub fn to_move_among(
        &self,
        position: &WidePosition,
        legal: &[WideMove],
    ) -> Result<WideMove, WideSanError> {
        let mut found = legal.iter().filter(|&&m| self.fits(position, m));
        let Some(&first) = found.next() else {
            return Err(WideSanError::Illegal(self.to_string()));
        };
        if found.next().is_some() {
            return Err(WideSanError::Ambiguous(self.to_string()));
        }
        Ok(first)
    }

    /// Whether legal move `m` of `position` is one this SAN may name (leniently: a capture
    /// mark is not required).
    fn fits(&self, position: &WidePosition, m: WideMove) -> bool {
        let castle = m.kind() == WideMoveKind::Castle;
        let drop = m.kind() == WideMoveKind::Drop;
        match *self {
            WideSan::Castle { long } => castle && is_long(m) == long,
            WideSan::Put { piece, to } => {
                drop && m.to() == to
                    && m.promotion().map(|r| upper_letter(position, r)) == Some(piece)
            }
            WideSan::Normal {
                piece,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                let Some(moving) = position.piece_at(m.from()) else {
                    return false;
                };
                let letter = upper_letter(position, moving.role);
                !castle
                    && !drop
                    && m.to() == to
                    && match piece {
                        None => moving.role == WideRole::Pawn,
                        Some(p) => moving.role != WideRole::Pawn && letter == p,
                    }
                    && file.is_none_or(|f| m.from().file() == f)
                    && rank.is_none_or(|r| m.from().rank() == r)
                    && (!capture || is_capture(position, m))
                    && m.promotion().map(|r| upper_letter(position, r)) == promotion
            }
        }
    }
}

/// A castling move toward the a-file (the rook is on `to`).
fn is_long(m: WideMove) -> bool {
    m.to().file() < m.from().file()
}

fn is_capture(position: &WidePosition, m: WideMove) -> bool {
    match m.kind() {
        WideMoveKind::EnPassant => true,
        WideMoveKind::Castle | WideMoveKind::Drop => false,
        WideMoveKind::Normal | WideMoveKind::DoubleStep => {
            // Ice Age: taking an ice cube is a capture too.
            position.piece_at(m.to()).is_some() || position.ice & m.to().bit() != 0
        }
    }
}

fn upper_letter(position: &WidePosition, role: WideRole) -> char {
    position.def.letter(role).to_ascii_uppercase()
}

/// The SAN of legal move `m` in `position`, without a check or mate mark.
#[must_use]
pub fn wide_san(position: &WidePosition, m: WideMove) -> WideSan {
    wide_san_among(position, m, &position.legal_moves())
}

/// [`wide_san`] with the position's legal moves already generated (`legal`), so writing the
/// SAN of every legal move generates them once rather than once a move.
#[must_use]
pub fn wide_san_among(position: &WidePosition, m: WideMove, legal: &[WideMove]) -> WideSan {
    match m.kind() {
        WideMoveKind::Castle => return WideSan::Castle { long: is_long(m) },
        WideMoveKind::Drop => {
            return WideSan::Put {
                piece: m.promotion().map_or('P', |r| upper_letter(position, r)),
                to: m.to(),
            };
        }
        _ => {}
    }
    let capture = is_capture(position, m);
    let promotion = m.promotion().map(|r| upper_letter(position, r));
    let Some(moving) = position.piece_at(m.from()) else {
        // Not a move of this position: written as the squares it names, never a panic.
        return WideSan::Normal {
            piece: None,
            file: Some(m.from().file()),
            rank: None,
            capture,
            to: m.to(),
            promotion,
        };
    };
    // The other pieces of the same kind that may also go to `to`.
    let rivals: Vec<WideSquare> = legal
        .iter()
        .copied()
        .filter(|o| {
            o.to() == m.to()
                && o.from() != m.from()
                && o.kind() != WideMoveKind::Castle
                && position
                    .piece_at(o.from())
                    .is_some_and(|p| p.role == moving.role)
        })
        .map(WideMove::from)
        .collect();
    if moving.role == WideRole::Pawn {
        // A capture names its file; so does a quiet step another pawn could also make (a
        // Knight Relay pawn's leap), and its rank too where that pawn shares the file.
        let named = capture || !rivals.is_empty();
        let same_file = rivals.iter().any(|s| s.file() == m.from().file());
        return WideSan::Normal {
            piece: None,
            file: named.then(|| m.from().file()),
            rank: (!rivals.is_empty() && same_file).then(|| m.from().rank()),
            capture,
            to: m.to(),
            promotion,
        };
    }
    let (file, rank) = if rivals.is_empty() {
        (None, None)
    } else if rivals.iter().all(|s| s.file() != m.from().file()) {
        (Some(m.from().file()), None)
    } else if rivals.iter().all(|s| s.rank() != m.from().rank()) {
        (None, Some(m.from().rank()))
    } else {
        (Some(m.from().file()), Some(m.from().rank()))
    };
    WideSan::Normal {
        piece: Some(upper_letter(position, moving.role)),
        file,
        rank,
        capture,
        to: m.to(),
        promotion,
    }
}

/// The SAN of legal move `m` in `position` with its mark: `+` when it gives check, `#` when
/// the opponent then has no legal move.
#[must_use]
pub fn wide_san_plus(position: &WidePosition, m: WideMove) -> String {
    wide_san_plus_among(position, m, &position.legal_moves())
}

/// [`wide_san_plus`] with the position's legal moves already generated (`legal`).
#[must_use]
pub fn wide_san_plus_among(position: &WidePosition, m: WideMove, legal: &[WideMove]) -> String {
    if position.def.targets {
        // Ambiguous Chess's turns have no SAN: the record writes GAMES.md's tokens.
        return m.to_uci(position).to_string();
    }
    let mut text = wide_san_among(position, m, legal).to_string();
    let mut after = *position;
    after.play_unchecked(m);
    if after.is_check() {
        text.push(if after.has_legal_move() { '+' } else { '#' });
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wide::WideVariant;

    /// SAN reads back as written, ranks of two digits included; junk is refused, not a panic.
    #[test]
    fn san_text_round_trips() {
        for text in [
            "e4", "exd5", "Nf3", "Jji6", "Rcg10", "R1a3", "Qh4e1", "bxc8=N", "e10=C", "O-O",
            "O-O-O", "Mxe10", "a10", "P@e5", "Q@h10", "c6xb5",
        ] {
            assert_eq!(text.parse::<WideSan>().unwrap().to_string(), text);
        }
        for bad in [
            "", "e", "x", "Z", "e11", "e0", "exd", "e4e5", "N", "=Q", "éf3", "Ra11a1", "e2e4",
            "Nf3x", "O-O-O-O", "p@e4", "PP@e4", "P@",
        ] {
            assert!(bad.parse::<WideSan>().is_err(), "{bad:?}");
        }
        // Lenient reading: marks and annotations dropped, a bare promotion letter.
        assert_eq!("e10C+!?".parse::<WideSan>().unwrap().to_string(), "e10=C");
        assert_eq!("0-0-0#".parse::<WideSan>().unwrap().to_string(), "O-O-O");
        assert_eq!("@e4".parse::<WideSan>().unwrap().to_string(), "P@e4");
    }

    /// Janus castles with its king on the b- or i-file; both read as O-O-O and O-O.
    #[test]
    fn janus_castles_both_ways() {
        let mut pos = WidePosition::from_fen(
            WideVariant::Janus,
            "r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1",
        )
        .unwrap();
        let short = "O-O".parse::<WideSan>().unwrap().to_move(&pos).unwrap();
        let long = "O-O-O".parse::<WideSan>().unwrap().to_move(&pos).unwrap();
        assert_eq!(short.to_uci(&pos).to_string(), "e1i1");
        assert_eq!(long.to_uci(&pos).to_string(), "e1b1");
        assert_eq!(wide_san_plus(&pos, short), "O-O");
        pos.play_unchecked(long);
        assert_eq!(pos.fen(), "r3k4r/10/10/10/10/10/10/1KR6R b kq - 1 1");
    }

    /// Two rooks on one rank reaching the same square are told apart by file; by rank when
    /// they share the file; a pawn capture names its file.
    #[test]
    fn disambiguation() {
        let pos = WidePosition::from_fen(
            WideVariant::Grand,
            "5k4/10/10/10/10/10/10/10/R8R/4K5 w - - 0 1",
        )
        .unwrap();
        let m = "a2e2"
            .parse::<crate::wide::WideUci>()
            .unwrap()
            .to_move(&pos)
            .unwrap();
        assert_eq!(wide_san_plus(&pos, m), "Rae2");
        assert_eq!("Rae2".parse::<WideSan>().unwrap().to_move(&pos), Ok(m));
        assert!(matches!(
            "Re2".parse::<WideSan>().unwrap().to_move(&pos),
            Err(WideSanError::Ambiguous(_))
        ));
        // Rooks on a2 and a9 both reach a5: the rank tells them apart.
        let pos = WidePosition::from_fen(
            WideVariant::Grand,
            "5k4/R9/10/10/10/10/10/10/R9/4K5 w - - 0 1",
        )
        .unwrap();
        let m = "a2a5"
            .parse::<crate::wide::WideUci>()
            .unwrap()
            .to_move(&pos)
            .unwrap();
        assert_eq!(wide_san_plus(&pos, m), "R2a5");
        assert_eq!("R2a5".parse::<WideSan>().unwrap().to_move(&pos), Ok(m));
    }
}
