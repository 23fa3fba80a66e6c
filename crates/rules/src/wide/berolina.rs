//! Berolina Chess (`berolina`), as `GAMES.md` gives it:
//!
//! > **Pawns move diagonally forward and capture straight forward.** A pawn moves one square
//! > diagonally forward to an empty square, or, from its second rank, two squares along the
//! > same diagonal, provided both squares are empty. It captures the enemy piece directly in
//! > front of it.
//! > **En passant**: after a two-square diagonal step, an enemy pawn standing directly behind
//! > the skipped square (seen from its own direction) may capture by moving straight forward
//! > onto the skipped square, removing the pawn that made the step. Example: a white pawn on
//! > c5, Black plays `d7b5` (skipping c6); White may play `c5c6`, removing b5. Only on the
//! > very next move. Promotion, castling and everything else are standard.
//! > FSF writes the en-passant field as a list of squares (`b5c6` in the example); chessd
//! > writes the skipped square only (`c6`).

use super::attacks::BEROLINA_PAWN;
use super::variant::{CHESS_CASTLING, CHESS_LETTERS, CHESS_PROMOTIONS, GameDef, Pawn, WideVariant};

pub(crate) const DEF: GameDef = GameDef {
    pawn: Pawn::Berolina,
    pawn_captures: &BEROLINA_PAWN,
    ..GameDef::standard(
        WideVariant::Berolina,
        (8, 8),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        CHESS_LETTERS,
        &CHESS_PROMOTIONS,
        true,
        Some(CHESS_CASTLING),
    )
};

#[cfg(test)]
mod tests {
    use super::super::testing::sorted_ucis as ucis;
    use super::super::{WidePosition, WideVariant};

    /// The rule's example: after `d7b5` White's c5 pawn takes en passant on c6, removing b5;
    /// the FEN names the skipped square only.
    #[test]
    fn diagonal_steps_and_en_passant() {
        let mut p =
            WidePosition::from_fen(WideVariant::Berolina, "4k3/3p4/8/2P5/8/8/8/4K3 b - - 0 1")
                .unwrap();
        assert_eq!(ucis(&p).iter().filter(|m| m.starts_with("d7")).count(), 4);
        p.play("d7b5").unwrap();
        assert_eq!(p.fen(), "4k3/8/8/1pP5/8/8/8/4K3 w - c6 0 2");
        assert_eq!(
            WidePosition::from_fen(WideVariant::Berolina, &p.fen()),
            Ok(p)
        );
        p.play("c5c6").unwrap();
        assert_eq!(p.fen(), "4k3/8/2P5/8/8/8/8/4K3 b - - 0 2");
        // A pawn captures straight ahead only, and a double step may not jump a piece.
        let p =
            WidePosition::from_fen(WideVariant::Berolina, "4k3/8/8/8/8/2n1n3/3P4/4K3 w - - 0 1")
                .unwrap();
        let pawn: Vec<String> = ucis(&p)
            .into_iter()
            .filter(|m| m.starts_with("d2"))
            .collect();
        assert!(pawn.is_empty(), "{pawn:?}");
        assert_eq!(WidePosition::new(WideVariant::Berolina).perft(3), 28328);
    }
}
