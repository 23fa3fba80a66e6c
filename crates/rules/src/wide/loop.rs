//! Loop Chess (`loop`), as `GAMES.md` gives it:
//!
//! > Standard chess plus **drops**, as in crazyhouse: a captured piece changes colour and goes
//! > to the captor's hand; instead of a move, a player may put one piece from the hand on any
//! > empty square. Pawns may not be dropped on rank 1 or 8. A drop takes effect at once: it
//! > may give check or mate and may block a check. A pawn dropped on its second rank may
//! > double-step.
//! > **A promoted piece keeps its promoted type when captured** (crazyhouse turns it back
//! > into a pawn) **(decision)**, so FEN needs no `~` marks.
//! > Repetition compares hands too. Insufficient material never applies.
//!
//! FEN carries the hands after the board, as Fairy-Stockfish writes them: `...RNBQKBNR[Qp]`.
//! A drop does not reset the fifty-move count (GAMES.md's rule for Recycle Chess, the other
//! game with drops).

use super::variant::{CHESS_CASTLING, CHESS_LETTERS, CHESS_PROMOTIONS, End, GameDef, WideVariant};

pub(crate) const DEF: GameDef = GameDef {
    drops: true,
    end: End::CheckmateOnly,
    ..GameDef::standard(
        WideVariant::Loop,
        (8, 8),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        CHESS_LETTERS,
        &CHESS_PROMOTIONS,
        true,
        Some(CHESS_CASTLING),
    )
};

#[cfg(test)]
mod tests {
    use super::super::testing::ucis;
    use super::super::{WidePosition, WideVariant};
    use crate::Color;

    /// A capture fills the hand, a promoted queen stays a queen there, pawns are not dropped
    /// on the first or last rank, and a drop may block a check.
    #[test]
    fn captures_go_to_the_hand() {
        let mut p =
            WidePosition::from_fen(WideVariant::Loop, "4k3/1P6/8/8/8/8/8/4K3[] w - - 0 1").unwrap();
        p.play("b7b8q").unwrap();
        p.play("e8d7").unwrap();
        p.play("b8c7").unwrap();
        p.play("d7c7").unwrap();
        assert_eq!(p.fen(), "8/2k5/8/8/8/8/8/4K3[q] w - - 0 3");
        assert_eq!(
            p.hand(Color::Black)[super::super::WideRole::Queen.index()],
            1
        );
        let p = WidePosition::from_fen(WideVariant::Loop, "4k3/8/8/8/8/8/8/r3K3[Pn] w - - 0 1")
            .unwrap();
        let moves = ucis(&p);
        // In check along rank 1, where no pawn may be dropped: no pawn drop answers it.
        assert!(moves.iter().all(|m| !m.starts_with("P@")), "{moves:?}");
        let p = WidePosition::from_fen(WideVariant::Loop, "4k3/8/8/8/8/8/8/4K2r[Pn] w - - 0 1")
            .unwrap();
        assert!(!ucis(&p).iter().any(|m| m.starts_with("P@")));
        let p =
            WidePosition::from_fen(WideVariant::Loop, "4k3/8/8/8/8/8/8/4K3[Pn] w - - 0 1").unwrap();
        let drops = ucis(&p).iter().filter(|m| m.starts_with("P@")).count();
        assert_eq!(drops, 6 * 8);
        let mut p = p;
        p.play("P@d7").unwrap();
        assert!(p.is_check());
    }
}
