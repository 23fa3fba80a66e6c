//! The polyglot key of a position: the Zobrist hash opening books are indexed by.
//!
//! The key XORs one entry of the book format's public table of 781 random numbers
//! (`data/polyglot-random64.txt`, as published with the format) per piece on its square, per
//! castling right, for an en passant file, and for White to move. Polyglot's en passant rule
//! differs from FEN's: the file counts when the last move was a double pawn push and a pawn of
//! the side to move stands beside the pushed pawn, whether or not the capture is legal.

use crate::board::{Role, Side, Square, UciMove};
use crate::fen;

/// The table, parsed from the data file at compile time.
static RANDOM64: [u64; 781] = parse_table(include_str!("../../data/polyglot-random64.txt"));

const CASTLE: usize = 768;
const EN_PASSANT: usize = 772;
const TURN: usize = 780;

/// Reads 781 lines of 16 hex digits; anything else stops the build.
const fn parse_table(text: &str) -> [u64; 781] {
    let bytes = text.as_bytes();
    let mut table = [0u64; 781];
    let mut n = 0;
    let mut i = 0;
    let mut value = 0u64;
    let mut digits = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let nibble = match b {
            b'0'..=b'9' => Some(b - b'0'),
            b'a'..=b'f' => Some(b - b'a' + 10),
            b'\n' => None,
            _ => panic!("polyglot table: unexpected character"),
        };
        match nibble {
            Some(v) => {
                value = (value << 4) | v as u64;
                digits += 1;
            }
            None => {
                assert!(digits == 16, "polyglot table: a line is not 16 hex digits");
                assert!(n < 781, "polyglot table: more than 781 numbers");
                table[n] = value;
                n += 1;
                value = 0;
                digits = 0;
            }
        }
        i += 1;
    }
    assert!(digits == 0, "polyglot table: the last line has no newline");
    assert!(n == 781, "polyglot table: fewer than 781 numbers");
    table
}

/// Polyglot's piece kinds: black pawn 0, white pawn 1, black knight 2, ... white king 11.
const fn kind(side: Side, role: Role) -> usize {
    2 * role as usize + matches!(side, Side::White) as usize
}

/// The key of `fen`, given the move that led to it (`None` at the game's start, where the
/// FEN's en passant square is all there is). `None` when the position is not one a polyglot
/// book can hold: not an 8x8 standard placement, or castling rights written with file letters.
#[must_use]
pub fn key(fen: &str, last_move: Option<&str>) -> Option<u64> {
    let board = fen::board(fen)?;
    let turn = fen::side_to_move(fen)?;
    let mut key = 0u64;
    for (index, piece) in board.iter().enumerate() {
        if let Some(p) = piece {
            key ^= RANDOM64[64 * kind(p.side, p.role) + index];
        }
    }
    for c in fen::castling(fen)?.chars() {
        key ^= match c {
            'K' => RANDOM64[CASTLE],
            'Q' => RANDOM64[CASTLE + 1],
            'k' => RANDOM64[CASTLE + 2],
            'q' => RANDOM64[CASTLE + 3],
            '-' => 0,
            _ => return None,
        };
    }
    if let Some(pushed) = double_push(fen, last_move, turn) {
        let beside = |df: i8| {
            let file = pushed.file() as i8 + df;
            (0..8)
                .contains(&file)
                .then(|| Square::new(file as u8, pushed.rank()))
                .flatten()
                .and_then(|s| board[s.index()])
                .is_some_and(|p| p.side == turn && p.role == Role::Pawn)
        };
        if beside(-1) || beside(1) {
            key ^= RANDOM64[EN_PASSANT + pushed.file() as usize];
        }
    }
    if turn == Side::White {
        key ^= RANDOM64[TURN];
    }
    Some(key)
}

/// The square of the pawn the opponent just pushed two squares, if the last move was that.
fn double_push(fen: &str, last_move: Option<&str>, turn: Side) -> Option<Square> {
    let mover = turn.opposite();
    let (pushed_rank, ep_rank) = match mover {
        Side::White => (3, 2),
        Side::Black => (4, 5),
    };
    match last_move {
        Some(text) => match text.parse::<UciMove>().ok()? {
            UciMove::Normal {
                from,
                to,
                promotion: None,
            } if from.file() == to.file()
                && to.rank() == pushed_rank
                && from.rank().abs_diff(to.rank()) == 2 =>
            {
                let piece = fen::board(fen)?[to.index()]?;
                (piece.side == mover && piece.role == Role::Pawn).then_some(to)
            }
            _ => None,
        },
        None => {
            let ep = fen::en_passant(fen)?.as_bytes();
            match ep {
                [f @ b'a'..=b'h', r] if *r == b'1' + ep_rank => Square::new(f - b'a', pushed_rank),
                _ => None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The test keys published with the book format, each reached by the moves named there
    /// (the last of them gives the en passant context).
    #[test]
    fn published_test_keys() {
        let cases = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                None,
                0x463b96181691fc9c,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                Some("e2e4"),
                0x823c9b50fd114196,
            ),
            (
                "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
                Some("d7d5"),
                0x0756b94461c50fb0,
            ),
            (
                "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
                Some("e4e5"),
                0x662fafb965db29d4,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                Some("f7f5"),
                0x22a48b5a8e47ff78,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
                Some("e1e2"),
                0x652a607ca3f242c1,
            ),
            (
                "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
                Some("e8f7"),
                0x00fdd303c946bdd9,
            ),
            (
                "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
                Some("c2c4"),
                0x3c8123ea7b067637,
            ),
            (
                "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
                Some("a1a3"),
                0x5c3f9b829b279560,
            ),
        ];
        for (fen, last, expected) in cases {
            assert_eq!(key(fen, last), Some(expected), "{fen}");
        }
    }

    /// The en passant file comes from the last move (a double push with a pawn beside it),
    /// not from the FEN, which the server writes with an en passant square only when the
    /// capture is legal (a pinned pawn would hide it from the FEN, not from polyglot).
    #[test]
    fn en_passant_by_adjacency_not_legality() {
        let with_square = "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1";
        let without = "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1";
        assert_eq!(key(without, Some("e2e4")), key(with_square, None));
        assert_ne!(key(without, Some("e2e4")), key(without, None));
    }

    /// Positions a polyglot book cannot hold give no key.
    #[test]
    fn no_key_for_other_positions() {
        assert_eq!(
            key(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
                None
            ),
            None
        );
        assert_eq!(
            key(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
                None
            ),
            None
        );
    }
}
