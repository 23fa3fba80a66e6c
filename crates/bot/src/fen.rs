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

/// A seat's view of a game that hides the board (Dark Chess writes each square the seat does
/// not see as `?`) as a position an engine can read, for the side to move: every unseen square
/// holds an opponent's piece (its king on the first when no opponent king is seen, knights on
/// the others) and the move counters are added. The side to move sees every square it could
/// move to, so none of its moves reaches an unseen square and the engine's moves are its own
/// legal moves: a double step onto an unseen square is blocked there as on the real board.
/// `None` when the view has no side to move.
#[must_use]
pub fn engine_view(view: &str) -> Option<String> {
    let mut fields = view.split_ascii_whitespace();
    let placement = fields.next()?;
    let side = side_to_move(view)?;
    let (king, other) = match side {
        Side::White => ('k', 'n'),
        Side::Black => ('K', 'N'),
    };
    let rest: Vec<&str> = fields.collect();
    // An en passant square: the pawn that skipped it stands beyond it, where the view need
    // not show it, and the square it came from is empty.
    let skipped = rest.get(2).and_then(|ep| {
        let mut chars = ep.chars();
        let file = chars.next().filter(char::is_ascii_lowercase)?;
        let rank: usize = chars.as_str().parse().ok()?;
        let file = usize::from(file as u8 - b'a');
        match side {
            Side::White => Some(((file, rank.checked_sub(1)?), (file, rank + 1))),
            Side::Black => Some(((file, rank + 1), (file, rank.checked_sub(1)?))),
        }
    });
    let pawn = if side == Side::White { 'p' } else { 'P' };
    let ranks = placement.split('/').count();
    let mut king_placed = placement.contains(king);
    let mut rows = Vec::with_capacity(ranks);
    for (i, row) in placement.split('/').enumerate() {
        let rank = ranks - i;
        // The row square by square (`None`: empty), then written again.
        let mut squares: Vec<Option<char>> = Vec::new();
        let mut digits = String::new();
        for c in row.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            squares.extend(std::iter::repeat_n(None, digits.parse().unwrap_or(0)));
            digits.clear();
            let at = (squares.len(), rank);
            squares.push(match c {
                '?' if skipped.is_some_and(|(victim, _)| victim == at) => Some(pawn),
                '?' if skipped.is_some_and(|(_, origin)| origin == at) => None,
                '?' if !king_placed => {
                    king_placed = true;
                    Some(king)
                }
                '?' => Some(other),
                c => Some(c),
            });
        }
        squares.extend(std::iter::repeat_n(None, digits.parse().unwrap_or(0)));
        let mut out = String::new();
        let mut empty = 0;
        for square in squares {
            match square {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(c);
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        rows.push(out);
    }
    let board = rows.join("/");
    let mut fen = format!("{board} {}", rest.join(" "));
    if clock_index(&fen.split_ascii_whitespace().collect::<Vec<_>>()).is_none() {
        fen.push_str(" 0 1");
    }
    Some(fen)
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

    /// Unseen squares become the opponent's pieces, its king first, and counters are added.
    #[test]
    fn a_dark_view_reads_as_a_position() {
        assert_eq!(
            engine_view("????????/????????/????????/????????/8/8/PPPPPPPP/RNBQKBNR w KQ -")
                .as_deref(),
            Some("knnnnnnn/nnnnnnnn/nnnnnnnn/nnnnnnnn/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1")
        );
        assert_eq!(
            engine_view("rnbqkbnr/pppppppp/8/8/??????P?/????????/????????/???????? b kq -")
                .as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/KNNNNNPN/NNNNNNNN/NNNNNNNN/NNNNNNNN b kq - 0 1")
        );
    }

    /// Over random games of Dark Chess, the engine's moves in the side to move's view are
    /// exactly that side's legal moves on the real board.
    #[test]
    fn the_view_has_the_real_moves() {
        use chessd_rules::any::{AnyPosition, AnyVariant};
        let dark = AnyVariant::by_key("dark").unwrap();
        let mut seed = 17u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize % n
        };
        let sorted = |pos: &AnyPosition| {
            let mut moves: Vec<String> =
                pos.legal_moves().iter().map(ToString::to_string).collect();
            moves.sort();
            moves
        };
        let mut positions = 0;
        for _ in 0..60 {
            let mut pos = AnyPosition::new(dark);
            for _ in 0..80 {
                let legal = pos.legal_moves();
                if pos.outcome().is_some() || legal.is_empty() {
                    break;
                }
                let view = pos.fen_seen_by(Some(pos.turn()));
                let fen = engine_view(&view).unwrap();
                let seen = AnyPosition::from_fen(dark, &fen)
                    .unwrap_or_else(|e| panic!("{view} -> {fen}: {e:?} (real {})", pos.fen()));
                assert_eq!(sorted(&seen), sorted(&pos), "{view} from {}", pos.fen());
                positions += 1;
                pos.play_unchecked(legal[next(legal.len())]);
            }
        }
        assert!(positions > 1000, "{positions}");
    }

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
