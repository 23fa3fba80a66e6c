//! Legan Chess (`legan`), as `GAMES.md` gives it:
//!
//! > The armies face each other across the a8-h1 diagonal: White's king h1, Black's king a8.
//! > Pieces other than pawns move as in chess.
//! > **White pawns move one square diagonally up-left** (toward a8) and **capture one square
//! > up or one square left**; **Black pawns move one square diagonally down-right** and
//! > capture one square down or one square right. No double step, no en passant, no castling.
//! > **Promotion zones**: White promotes on a5, a6, a7, a8, b8, c8, d8; Black on e1, f1, g1,
//! > h1, h2, h3, h4. Promotion is to Q, R, B or N (`b7a8q`).
//!
//! Pawns start on their own first rank (d1, e8), which here is no pawn's last.

use super::attacks::LEGAN_PAWN;
use super::variant::{CHESS_LETTERS, CHESS_PROMOTIONS, GameDef, Pawn, WideVariant};

/// The squares named by (file, rank), from 0.
const fn zone(squares: &[(u8, u8)]) -> u128 {
    let mut bb = 0u128;
    let mut i = 0;
    while i < squares.len() {
        bb |= 1 << (squares[i].1 as u32 * super::square::STRIDE as u32 + squares[i].0 as u32);
        i += 1;
    }
    bb
}

const WHITE_ZONE: u128 = zone(&[(0, 4), (0, 5), (0, 6), (0, 7), (1, 7), (2, 7), (3, 7)]);
const BLACK_ZONE: u128 = zone(&[(4, 0), (5, 0), (6, 0), (7, 0), (7, 1), (7, 2), (7, 3)]);

pub(crate) const DEF: GameDef = GameDef {
    pawn: Pawn::Legan,
    pawn_captures: &LEGAN_PAWN,
    promotion_forced: [WHITE_ZONE, BLACK_ZONE],
    first_rank_pawns: [true; 2],
    ..GameDef::standard(
        WideVariant::Legan,
        (8, 8),
        "knbrp3/bqpp4/npp5/rp1p3P/p3P1PR/5PPN/4PPQB/3PRBNK w - - 0 1",
        CHESS_LETTERS,
        &CHESS_PROMOTIONS,
        false,
        None,
    )
};

#[cfg(test)]
mod tests {
    use super::super::{WidePosition, WideVariant};

    /// White pawns step up-left and capture up or left; they promote on a5-a8 and b8-d8 only;
    /// the start's counts are GAMES.md's (Fairy-Stockfish's `legan`).
    #[test]
    fn pawns_move_along_the_diagonal() {
        let p =
            WidePosition::from_fen(WideVariant::Legan, "k7/8/8/8/2n5/1nP5/8/7K w - - 0 1").unwrap();
        let mut moves: Vec<String> = p
            .legal_moves()
            .iter()
            .map(|m| m.to_uci(&p).to_string())
            .filter(|m| m.starts_with("c3"))
            .collect();
        moves.sort();
        assert_eq!(moves, ["c3b3", "c3b4", "c3c4"]);
        // b5 steps to a6, in the zone; b6 is not in it but holds nothing to capture.
        let p =
            WidePosition::from_fen(WideVariant::Legan, "k7/8/8/1P6/8/8/8/7K w - - 0 1").unwrap();
        let mut moves: Vec<String> = p
            .legal_moves()
            .iter()
            .map(|m| m.to_uci(&p).to_string())
            .filter(|m| m.starts_with("b5"))
            .collect();
        moves.sort();
        assert_eq!(moves, ["b5a6b", "b5a6n", "b5a6q", "b5a6r"]);
        assert_eq!(WidePosition::new(WideVariant::Legan).perft(3), 724);
    }
}
