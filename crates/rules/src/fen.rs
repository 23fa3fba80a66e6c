//! FEN: parsing text into an unchecked [`Setup`] with errors that name the faulty field, and
//! writing a setup back as text.
//!
//! Beyond the six fields of standard chess this reads every variant's additions: castling as
//! X-FEN (`KQkq`, the outermost rook; a file letter for another) or Shredder-FEN (`HAha`);
//! crazyhouse pockets in brackets (`.../RNBQKBNR[Qp] w`) or as a ninth rank
//! (`.../RNBQKBNR/Qp w`) and promoted pieces marked `~`; three-check counters as the checks left
//! before the clocks (`- 3+3 0 1`, python-chess and Stockfish) or the checks given after them
//! (`- 0 1 +0+0`, lichess). It writes X-FEN castling, bracketed pockets and the checks left.
//!
//! Parsing checks syntax only; the rules (kings, checks, castling against the board) are checked
//! when the setup becomes a position. Four fields (EPD style) are accepted: the clocks then
//! default to `0 1`.

use core::fmt;
use core::str::FromStr;

use crate::{Bitboard, Board, ByColor, Color, File, Piece, Pocket, Rank, Role, Setup, Square};

/// Why a string is not a well-formed FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseFenError {
    /// Fewer than 4 or more than 6 space-separated fields (not counting check counters).
    FieldCount(usize),
    /// The board field does not have 8 ranks separated by `/`.
    RankCount(usize),
    /// A rank (1-8) does not describe exactly 8 squares.
    RankLength(Rank),
    /// A character in the board field that is neither a piece letter, a `~` after a piece, nor
    /// a digit 1-8.
    InvalidPiece(char),
    /// A character in a crazyhouse pocket that is not a piece letter.
    InvalidPocket(char),
    /// The side to move is not `w` or `b`.
    InvalidTurn,
    /// The castling field is not `-`, letters from `KQkq` or rook files (`HAha`).
    InvalidCastling,
    /// The en passant field is not `-` or a square on rank 3 or 6.
    InvalidEpSquare,
    /// A three-check counter that is not of the form `3+3` (left) or `+0+0` (given), or two.
    InvalidChecks,
    /// A three-check counter above 3.
    ChecksOutOfRange,
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
            ParseFenError::InvalidPocket(c) => {
                write!(f, "invalid character {c:?} in the pocket")
            }
            ParseFenError::InvalidTurn => f.write_str("side to move must be 'w' or 'b'"),
            ParseFenError::InvalidCastling => f.write_str(
                "castling field must be '-', letters from 'KQkq' or rook files such as 'HAha'",
            ),
            ParseFenError::InvalidEpSquare => {
                f.write_str("en passant field must be '-' or a square on rank 3 or 6")
            }
            ParseFenError::InvalidChecks => f.write_str(
                "check counter must read like 3+3 (checks left) or +0+0 (checks given), once",
            ),
            ParseFenError::ChecksOutOfRange => {
                f.write_str("check counter out of range: a side has 0 to 3 checks to give")
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

/// The board field and what crazyhouse adds to it.
struct BoardField {
    board: Board,
    promoted: Bitboard,
    pockets: Option<ByColor<Pocket>>,
}

fn parse_board_field(field: &str) -> Result<BoardField, ParseFenError> {
    let (placement, pocket) = if let Some(inner) = field.strip_suffix(']') {
        let (placement, pocket) = inner
            .split_once('[')
            .ok_or(ParseFenError::InvalidPiece(']'))?;
        (placement, Some(pocket))
    } else if field.split('/').count() == 9 {
        let (placement, pocket) = field.rsplit_once('/').unwrap_or((field, ""));
        (placement, Some(pocket))
    } else {
        (field, None)
    };
    let (board, promoted) = parse_placement(placement)?;
    let pockets = pocket.map(parse_pockets).transpose()?;
    Ok(BoardField {
        board,
        promoted,
        pockets,
    })
}

fn parse_placement(field: &str) -> Result<(Board, Bitboard), ParseFenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(ParseFenError::RankCount(ranks.len()));
    }
    let mut board = Board::empty();
    let mut promoted = Bitboard::EMPTY;
    for (i, text) in ranks.iter().enumerate() {
        let rank = Rank::ALL[7 - i];
        let mut file = 0u32;
        let mut last_piece = None;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d;
                last_piece = None;
            } else if let Some(piece) = Piece::from_char(c) {
                let Some(f) = File::new(file) else {
                    return Err(ParseFenError::RankLength(rank));
                };
                let sq = Square::from_coords(f, rank);
                board.set_piece_at(sq, piece);
                last_piece = Some(sq);
                file += 1;
            } else if c == '~' {
                let sq = last_piece.take().ok_or(ParseFenError::InvalidPiece(c))?;
                promoted |= sq;
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
    Ok((board, promoted))
}

fn parse_pockets(text: &str) -> Result<ByColor<Pocket>, ParseFenError> {
    let mut pockets = ByColor::<Pocket>::default();
    for c in text.chars() {
        let piece = Piece::from_char(c).ok_or(ParseFenError::InvalidPocket(c))?;
        pockets[piece.color].add(piece.role);
    }
    Ok(pockets)
}

/// Castling rights as rook squares. `K`/`Q` name the outermost rook on that side of the king
/// (the corner when there is none, for the validation to reject); a file letter names the rook
/// on that file.
fn parse_castling(field: &str, board: &Board) -> Result<Bitboard, ParseFenError> {
    if field == "-" {
        return Ok(Bitboard::EMPTY);
    }
    let mut rights = Bitboard::EMPTY;
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = color.back_rank();
        let rooks = board.by_piece(Role::Rook.of(color)) & Bitboard::from_rank(rank);
        let king = board.king_of(color);
        let sq = match c.to_ascii_lowercase() {
            'k' => match rooks.last() {
                Some(rook) if king.is_some_and(|k| k < rook) => rook,
                _ => Square::from_coords(File::H, rank),
            },
            'q' => match rooks.first() {
                Some(rook) if king.is_some_and(|k| rook < k) => rook,
                _ => Square::from_coords(File::A, rank),
            },
            letter => match File::from_char(letter) {
                Some(file) => Square::from_coords(file, rank),
                None => return Err(ParseFenError::InvalidCastling),
            },
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

/// A counter `W+B` (one or two digits each) as White's and Black's numbers.
fn parse_counter(text: &str) -> Result<ByColor<u8>, ParseFenError> {
    let number = |s: &str| {
        if s.is_empty() || s.len() > 2 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseFenError::InvalidChecks);
        }
        let n: u8 = s.parse().map_err(|_| ParseFenError::InvalidChecks)?;
        if n > 3 {
            return Err(ParseFenError::ChecksOutOfRange);
        }
        Ok(n)
    };
    let (white, black) = text.split_once('+').ok_or(ParseFenError::InvalidChecks)?;
    Ok(ByColor::new(number(white)?, number(black)?))
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
    /// Parses a FEN (4 to 6 fields, separated by single or repeated spaces, plus a three-check
    /// counter in either form).
    pub fn from_fen(fen: &str) -> Result<Setup, ParseFenError> {
        let mut fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        let mut remaining_checks = None;
        if fields.len() > 4 && fields.last().is_some_and(|f| f.starts_with('+')) {
            let given = parse_counter(&fields.pop().unwrap_or_default()[1..])?;
            remaining_checks = Some(given.map(|g| 3 - g));
        }
        if fields.len() > 4 && fields[4].contains('+') {
            if remaining_checks.is_some() {
                return Err(ParseFenError::InvalidChecks);
            }
            remaining_checks = Some(parse_counter(fields.remove(4))?);
        }
        if !(4..=6).contains(&fields.len()) {
            return Err(ParseFenError::FieldCount(fields.len()));
        }
        let BoardField {
            board,
            promoted,
            pockets,
        } = parse_board_field(fields[0])?;
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return Err(ParseFenError::InvalidTurn),
        };
        let castling_rights = parse_castling(fields[2], &board)?;
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
            pockets,
            remaining_checks,
            promoted,
        })
    }

    /// The castling field as X-FEN: `KQkq` for the outermost rook on each side of the king, the
    /// rook's file for another (`HBhb` letters appear only in Chess960), or `-`.
    #[must_use]
    pub fn castling_fen(&self) -> String {
        let mut out = String::with_capacity(4);
        self.write_castling_fen(&mut out);
        out
    }

    fn write_castling_fen(&self, out: &mut String) {
        let start = out.len();
        for color in Color::ALL {
            let back_rank = Bitboard::from_rank(color.back_rank());
            let king_file = (self.board.by_piece(Role::King.of(color)) & back_rank)
                .first()
                .map_or(File::E, Square::file);
            let rooks = self.board.by_piece(Role::Rook.of(color)) & back_rank;
            // King side first, then queen side (`KQ`), as X-FEN lists them.
            let mut rights = [None; 8];
            for (slot, sq) in rights.iter_mut().zip(self.castling_rights & back_rank) {
                *slot = Some(sq);
            }
            for rook in rights.iter().rev().flatten() {
                let a_side = rook.file() < king_file;
                let outer = Iterator::any(&mut rooks.without(*rook), |other| {
                    (other.file() < rook.file()) == a_side
                });
                let letter = match (outer, a_side) {
                    (true, _) => rook.file().char(),
                    (false, true) => 'q',
                    (false, false) => 'k',
                };
                out.push(match color {
                    Color::White => letter.to_ascii_uppercase(),
                    Color::Black => letter,
                });
            }
        }
        if out.len() == start {
            out.push('-');
        }
    }

    /// The FEN fields as given (the en passant square as stored), with the variant's additions
    /// (pockets, promotion marks, checks left) where the setup has them.
    #[must_use]
    pub fn fen(&self) -> String {
        let mut out = String::with_capacity(90);
        self.write_fen(&mut out);
        out
    }

    /// Appends the FEN to `out`. Written by hand rather than through `fmt`: the service renders
    /// a FEN for every answer and every event.
    pub fn write_fen(&self, out: &mut String) {
        self.board.write_board_fen_marked(out, self.promoted);
        if let Some(pockets) = &self.pockets {
            out.push('[');
            pockets.white().write_fen(Color::White, out);
            pockets.black().write_fen(Color::Black, out);
            out.push(']');
        }
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
        if let Some(checks) = self.remaining_checks {
            out.push(' ');
            push_number(out, u32::from(*checks.white()));
            out.push('+');
            push_number(out, u32::from(*checks.black()));
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
    /// Writes the FEN fields as given (the en passant square as stored).
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

    /// X-FEN and Shredder-FEN castling name the same rooks; X-FEN is written back, with a file
    /// letter only for a rook that is not the outermost on its side.
    #[test]
    fn castling_forms() {
        let xfen: Setup = "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1".parse().unwrap();
        let shredder: Setup = "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1".parse().unwrap();
        assert_eq!(xfen, shredder);
        assert_eq!(xfen.castling_rights.count(), 4);
        assert!(xfen.castling_rights.contains(Square::G1));
        assert_eq!(xfen.castling_fen(), "KQkq");
        // An inner rook beside an outer one is named by its file.
        let inner: Setup = "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1".parse().unwrap();
        assert_eq!(inner.castling_rights, Bitboard::from(Square::B1));
        assert_eq!(inner.castling_fen(), "B");
        let outer: Setup = "4k3/8/8/8/8/8/8/RR2K3 w Q - 0 1".parse().unwrap();
        assert_eq!(outer.castling_rights, Bitboard::from(Square::A1));
    }

    /// Crazyhouse pockets in both forms, promotion marks and both three-check counters.
    #[test]
    fn variant_fields() {
        let brackets: Setup = "4k3/1Q~6/8/8/8/8/8/4K3[QNqp] b - - 0 1".parse().unwrap();
        let ninth: Setup = "4k3/1Q~6/8/8/8/8/8/4K3/QNqp b - - 0 1".parse().unwrap();
        assert_eq!(brackets, ninth);
        assert_eq!(brackets.promoted, Bitboard::from(Square::B7));
        let pockets = brackets.pockets.unwrap();
        assert_eq!(
            (pockets.white().total(), pockets.black().count(Role::Pawn)),
            (2, 1)
        );
        assert_eq!(brackets.fen(), "4k3/1Q~6/8/8/8/8/8/4K3[QNqp] b - - 0 1");
        let empty: Setup = "4k3/8/8/8/8/8/8/4K3/ w - -".parse().unwrap();
        assert_eq!(empty.pockets, Some(ByColor::default()));

        let left: Setup = "4k3/8/8/8/8/8/8/4K3 w - - 2+3 0 1".parse().unwrap();
        let given: Setup = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 +1+0".parse().unwrap();
        assert_eq!(left, given);
        assert_eq!(left.remaining_checks, Some(ByColor::new(2, 3)));
        assert_eq!(given.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 2+3 0 1");
        let epd: Setup = "4k3/8/8/8/8/8/8/4K3 w - - 1+1".parse().unwrap();
        assert_eq!(
            (epd.remaining_checks, epd.fullmoves),
            (Some(ByColor::new(1, 1)), 1)
        );
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
            ("8/8/8/8/8/8/8/8 w Kx - 0 1", ParseFenError::InvalidCastling),
            (
                "8/8/8/8/8/8/8/8[Qx] w - - 0 1",
                ParseFenError::InvalidPocket('x'),
            ),
            (
                "8/8/8/8/8/8/8/8/Q8 w - - 0 1",
                ParseFenError::InvalidPocket('8'),
            ),
            (
                "~8/8/8/8/8/8/8/8 w - - 0 1",
                ParseFenError::InvalidPiece('~'),
            ),
            (
                "8/8/8/8/8/8/8/8 w - - 3+x 0 1",
                ParseFenError::InvalidChecks,
            ),
            (
                "8/8/8/8/8/8/8/8 w - - 4+3 0 1",
                ParseFenError::ChecksOutOfRange,
            ),
            (
                "8/8/8/8/8/8/8/8 w - - 0 1 +4+0",
                ParseFenError::ChecksOutOfRange,
            ),
            (
                "8/8/8/8/8/8/8/8 w - - 3+3 0 1 +0+0",
                ParseFenError::InvalidChecks,
            ),
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
