//! The few facts the bot reads from a FEN the server sent: the side to move, the half-move
//! clock, the identity of a position for repetition counting, and the pieces (for the
//! opening book). All but the pieces read any board the server plays (ranks of up to ten
//! squares, `10` for an empty one); the pieces only chess's.
//!
//! Variants write extra fields (Three-check's `3+3` before the clocks or `+0+0` after them)
//! and pockets (Crazyhouse's `[Qn]`), so the clocks are found as the first two numeric fields
//! after the en passant square rather than at fixed places.

use crate::board::{Piece, Role, Side, Square};

/// The pieces of a standard 8x8 placement, by square.
pub type Board = [Option<Piece>; 64];

/// The side to move (the second field).
#[must_use]
pub fn side_to_move(fen: &str) -> Option<Side> {
    match fen.split_ascii_whitespace().nth(1)? {
        "w" => Some(Side::White),
        "b" => Some(Side::Black),
        _ => None,
    }
}

/// Where the half-move clock stands among the fields: the first pair of whole numbers after
/// the board, side, castling and en passant fields.
fn clock_index(fields: &[&str]) -> Option<usize> {
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (4..fields.len().saturating_sub(1)).find(|&i| number(fields[i]) && number(fields[i + 1]))
}

/// Half-moves since the last capture or pawn move.
#[must_use]
pub fn halfmove_clock(fen: &str) -> Option<u32> {
    let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    fields.get(clock_index(&fields)?)?.parse().ok()
}

/// What makes two positions "the same" for repetition: every field but the two move counters
/// (the server writes an en passant square only when a capture is possible, as the rules of
/// repetition want it; pockets and check counters stay in).
#[must_use]
pub fn repetition_key(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    let skip = clock_index(&fields);
    fields
        .iter()
        .enumerate()
        .filter(|(i, _)| skip.is_none_or(|c| *i != c && *i != c + 1))
        .map(|(_, f)| *f)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The pieces of the placement field, or `None` unless it is a plain 8x8 standard-pieces
/// placement (no pockets, no promoted-piece marks, no wider board's `10` or fairy piece):
/// the book is for standard chess only.
#[must_use]
pub fn board(fen: &str) -> Option<Board> {
    let placement = fen.split_ascii_whitespace().next()?;
    let mut board: Board = [None; 64];
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return None;
    }
    for (row, text) in ranks.iter().enumerate() {
        let rank = 7 - row as u8;
        let mut file = 0u8;
        for c in text.chars() {
            if let Some(skip) = c.to_digit(10) {
                // A `0` is only ever the second digit of a wider board's `10`.
                if skip == 0 {
                    return None;
                }
                file += skip as u8;
                continue;
            }
            let role = Role::from_char(c)?;
            let side = if c.is_ascii_uppercase() {
                Side::White
            } else {
                Side::Black
            };
            let square = Square::new(file, rank)?;
            board[square.index()] = Some(Piece { side, role });
            file += 1;
        }
        if file != 8 {
            return None;
        }
    }
    Some(board)
}

/// The castling field (third), `-` when none.
#[must_use]
pub fn castling(fen: &str) -> Option<&str> {
    fen.split_ascii_whitespace().nth(2)
}

/// The en passant field (fourth), `-` when none.
#[must_use]
pub fn en_passant(fen: &str) -> Option<&str> {
    fen.split_ascii_whitespace().nth(3)
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    /// The side to move and the half-move clock come from their fields.
    #[test]
    fn side_and_clock() {
        assert_eq!(side_to_move(START), Some(Side::White));
        assert_eq!(halfmove_clock(START), Some(0));
        let fen = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ b - - 37 20";
        assert_eq!(side_to_move(fen), Some(Side::Black));
        assert_eq!(halfmove_clock(fen), Some(37));
        assert_eq!(side_to_move("8/8 x - - 0 1"), None);
    }

    /// Three-check's counters, either written before the clocks or after them, do not hide
    /// the half-move clock and stay part of the position's identity.
    #[test]
    fn three_check_fields() {
        let before = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 12 7";
        assert_eq!(halfmove_clock(before), Some(12));
        assert_eq!(
            repetition_key(before),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3"
        );
        let after = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 12 7 +0+1";
        assert_eq!(halfmove_clock(after), Some(12));
        assert_eq!(
            repetition_key(after),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - +0+1"
        );
    }

    /// The same position reached at different move numbers has one repetition key.
    #[test]
    fn repetition_ignores_counters() {
        let a = "r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2";
        let b = "r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 6 4";
        assert_eq!(repetition_key(a), repetition_key(b));
        assert_ne!(repetition_key(a), repetition_key(START));
    }

    /// The placement reads into squares; pockets, promoted marks and bad ranks give no board.
    #[test]
    fn placement() {
        let b = board(START).unwrap();
        let e1 = Square::new(4, 0).unwrap().index();
        assert_eq!(
            b[e1],
            Some(Piece {
                side: Side::White,
                role: Role::King
            })
        );
        assert_eq!(b[Square::new(4, 3).unwrap().index()], None);
        assert!(board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qn] w KQkq - 0 1").is_none());
        assert!(board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1").is_none());
        assert!(board("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").is_none());
    }

    /// The wide family's FENs: ten-square ranks (`10`), ten ranks, pockets: the side, clock and
    /// repetition key read as on chess's board, and no chess board comes out of them.
    #[test]
    fn wide_fens() {
        let grand = "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R b - - 7 12";
        assert_eq!(side_to_move(grand), Some(Side::Black));
        assert_eq!(halfmove_clock(grand), Some(7));
        assert_eq!(
            repetition_key(grand),
            "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R b - -"
        );
        let capablanca = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
        assert_eq!(halfmove_clock(capablanca), Some(0));
        assert!(board(capablanca).is_none());
        assert!(board(grand).is_none());
        let amazon = "rnbakbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBAKBNR w KQkq - 0 1";
        assert!(board(amazon).is_none());
        assert!(board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN10 w KQkq - 0 1").is_none());
        let looped = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pn] b KQkq - 3 9";
        assert_eq!(halfmove_clock(looped), Some(3));
        assert!(repetition_key(looped).contains("[Pn]"));
    }
}
