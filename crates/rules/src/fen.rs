//! FEN: parsing text into an unchecked [`Setup`] with errors that name the faulty field, and
//! writing a setup back as text.
//!
//! Parsing checks syntax only; the rules (kings, checks, castling against the board) are checked
//! when the setup becomes a position. Four fields (EPD style) are accepted: the clocks then
//! default to `0 1`.

use core::fmt;
use core::str::FromStr;

use crate::{Bitboard, Board, Color, File, Piece, Rank, Setup, Square};

/// Why a string is not a well-formed FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseFenError {
    /// Fewer than 4 or more than 6 space-separated fields.
    FieldCount(usize),
    /// The board field does not have 8 ranks separated by `/`.
    RankCount(usize),
    /// A rank (1-8) does not describe exactly 8 squares.
    RankLength(Rank),
    /// A character in the board field that is neither a piece letter nor a digit 1-8.
    InvalidPiece(char),
    /// The side to move is not `w` or `b`.
    InvalidTurn,
    /// The castling field is not `-` or a set of `KQkq`.
    InvalidCastling,
    /// The en passant field is not `-` or a square on rank 3 or 6.
    InvalidEpSquare,
    /// The half-move clock is not a number (up to 65535).
    InvalidHalfmoves,
    /// The move number is not a number (up to 65535).
    InvalidFullmoves,
}

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseFenError::FieldCount(n) => {
                write!(f, "expected 4 to 6 space-separated fen fields, found {n}")
            }
            ParseFenError::RankCount(n) => {
                write!(
                    f,
                    "expected 8 ranks separated by '/' in the board field, found {n}"
                )
            }
            ParseFenError::RankLength(r) => {
                write!(f, "rank {} does not describe exactly 8 squares", r.char())
            }
            ParseFenError::InvalidPiece(c) => {
                write!(f, "invalid character {c:?} in the board field")
            }
            ParseFenError::InvalidTurn => f.write_str("side to move must be 'w' or 'b'"),
            ParseFenError::InvalidCastling => {
                f.write_str("castling field must be '-' or letters from 'KQkq'")
            }
            ParseFenError::InvalidEpSquare => {
                f.write_str("en passant field must be '-' or a square on rank 3 or 6")
            }
            ParseFenError::InvalidHalfmoves => {
                f.write_str("half-move clock must be a number from 0 to 65535")
            }
            ParseFenError::InvalidFullmoves => {
                f.write_str("move number must be a number from 1 to 65535")
            }
        }
    }
}

impl std::error::Error for ParseFenError {}

/// The largest clock values accepted; larger values are typos, not games.
const MAX_CLOCK: u32 = u16::MAX as u32;

fn parse_board(field: &str) -> Result<Board, ParseFenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(ParseFenError::RankCount(ranks.len()));
    }
    let mut board = Board::empty();
    for (i, text) in ranks.iter().enumerate() {
        let rank = Rank::ALL[7 - i];
        let mut file = 0u32;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d;
            } else if let Some(piece) = Piece::from_char(c) {
                let Some(f) = File::new(file) else {
                    return Err(ParseFenError::RankLength(rank));
                };
                board.set_piece_at(Square::from_coords(f, rank), piece);
                file += 1;
            } else {
                return Err(ParseFenError::InvalidPiece(c));
            }
            if file > 8 {
                return Err(ParseFenError::RankLength(rank));
            }
        }
        if file != 8 {
            return Err(ParseFenError::RankLength(rank));
        }
    }
    Ok(board)
}

fn parse_castling(field: &str) -> Result<Bitboard, ParseFenError> {
    if field == "-" {
        return Ok(Bitboard::EMPTY);
    }
    let mut rights = Bitboard::EMPTY;
    for c in field.chars() {
        let sq = match c {
            'K' => Square::H1,
            'Q' => Square::A1,
            'k' => Square::H8,
            'q' => Square::A8,
            _ => return Err(ParseFenError::InvalidCastling),
        };
        if rights.contains(sq) {
            return Err(ParseFenError::InvalidCastling);
        }
        rights |= sq;
    }
    if rights.is_empty() {
        return Err(ParseFenError::InvalidCastling);
    }
    Ok(rights)
}

fn parse_clock(field: &str, err: ParseFenError) -> Result<u32, ParseFenError> {
    if field.is_empty() || field.len() > 5 || !field.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err);
    }
    field
        .parse::<u32>()
        .ok()
        .filter(|&n| n <= MAX_CLOCK)
        .ok_or(err)
}

impl Setup {
    /// Parses a FEN (4 to 6 fields, separated by single or repeated spaces).
    pub fn from_fen(fen: &str) -> Result<Setup, ParseFenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(ParseFenError::FieldCount(fields.len()));
        }
        let board = parse_board(fields[0])?;
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return Err(ParseFenError::InvalidTurn),
        };
        let castling_rights = parse_castling(fields[2])?;
        let ep_square = match fields[3] {
            "-" => None,
            text => {
                let sq = text
                    .parse::<Square>()
                    .map_err(|_| ParseFenError::InvalidEpSquare)?;
                if !matches!(sq.rank(), Rank::Third | Rank::Sixth) {
                    return Err(ParseFenError::InvalidEpSquare);
                }
                Some(sq)
            }
        };
        let halfmoves = match fields.get(4) {
            Some(f) => parse_clock(f, ParseFenError::InvalidHalfmoves)?,
            None => 0,
        };
        let fullmoves = match fields.get(5) {
            Some(f) => parse_clock(f, ParseFenError::InvalidFullmoves)?,
            None => 1,
        };
        Ok(Setup {
            board,
            turn,
            castling_rights,
            ep_square,
            halfmoves,
            fullmoves,
        })
    }

    /// The castling field as `KQkq` letters, or `-`.
    #[must_use]
    pub fn castling_fen(&self) -> String {
        let mut out = String::with_capacity(4);
        self.write_castling_fen(&mut out);
        out
    }

    fn write_castling_fen(&self, out: &mut String) {
        let start = out.len();
        for (sq, c) in [
            (Square::H1, 'K'),
            (Square::A1, 'Q'),
            (Square::H8, 'k'),
            (Square::A8, 'q'),
        ] {
            if self.castling_rights.contains(sq) {
                out.push(c);
            }
        }
        if out.len() == start {
            out.push('-');
        }
    }

    /// The six FEN fields as given (the en passant square as stored).
    #[must_use]
    pub fn fen(&self) -> String {
        let mut out = String::with_capacity(90);
        self.write_fen(&mut out);
        out
    }

    /// Appends the six FEN fields to `out`. Written by hand rather than through `fmt`: the
    /// service renders a FEN for every answer and every event.
    pub fn write_fen(&self, out: &mut String) {
        self.board.write_board_fen(out);
        out.push(' ');
        out.push(self.turn.char());
        out.push(' ');
        self.write_castling_fen(out);
        out.push(' ');
        match self.ep_square {
            Some(sq) => {
                out.push(sq.file().char());
                out.push(sq.rank().char());
            }
            None => out.push('-'),
        }
        out.push(' ');
        push_number(out, self.halfmoves);
        out.push(' ');
        push_number(out, self.fullmoves);
    }
}

/// Appends `n` in decimal.
fn push_number(out: &mut String, mut n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        out.push(char::from(d));
    }
}

impl FromStr for Setup {
    type Err = ParseFenError;

    fn from_str(s: &str) -> Result<Setup, ParseFenError> {
        Setup::from_fen(s)
    }
}

impl fmt::Display for Setup {
    /// Writes the six FEN fields as given (the en passant square as stored).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full FEN round-trips through parse and display.
    #[test]
    fn round_trip() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
            "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
        ] {
            assert_eq!(fen.parse::<Setup>().unwrap().to_string(), fen);
        }
    }

    /// Move counters of any length, an en passant square and partial castling rights are
    /// written back exactly (the hand-written writer, not `fmt`, renders them).
    #[test]
    fn writes_every_field() {
        for fen in [
            "r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 0 12345",
            "4k3/8/8/8/8/8/8/4K3 b - - 99 10",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ] {
            let setup: Setup = fen.parse().unwrap();
            assert_eq!(setup.fen(), fen);
            assert_eq!(setup.to_string(), fen);
        }
        let mut setup: Setup = "4k3/8/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
        setup.fullmoves = u32::MAX;
        assert!(setup.fen().ends_with(" 0 4294967295"));
    }

    /// Four fields are accepted with clocks defaulting to `0 1`.
    #[test]
    fn epd_style() {
        let setup: Setup = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - -".parse().unwrap();
        assert_eq!((setup.halfmoves, setup.fullmoves), (0, 1));
    }

    /// Each malformed field gets its own error.
    #[test]
    fn errors_name_the_field() {
        let cases = [
            ("", ParseFenError::FieldCount(0)),
            ("8/8/8/8/8/8/8 w - - 0 1", ParseFenError::RankCount(7)),
            (
                "9/8/8/8/8/8/8/8 w - - 0 1",
                ParseFenError::InvalidPiece('9'),
            ),
            (
                "7/8/8/8/8/8/8/8 w - - 0 1",
                ParseFenError::RankLength(Rank::Eighth),
            ),
            (
                "44p/8/8/8/8/8/8/8 w - - 0 1",
                ParseFenError::RankLength(Rank::Eighth),
            ),
            ("8/8/8/8/8/8/8/8 x - - 0 1", ParseFenError::InvalidTurn),
            ("8/8/8/8/8/8/8/8 w KK - 0 1", ParseFenError::InvalidCastling),
            ("8/8/8/8/8/8/8/8 w - e4 0 1", ParseFenError::InvalidEpSquare),
            (
                "8/8/8/8/8/8/8/8 w - - -1 1",
                ParseFenError::InvalidHalfmoves,
            ),
            (
                "8/8/8/8/8/8/8/8 w - - 0 99999999999",
                ParseFenError::InvalidFullmoves,
            ),
        ];
        for (fen, err) in cases {
            assert_eq!(fen.parse::<Setup>(), Err(err), "{fen:?}");
        }
    }
}
