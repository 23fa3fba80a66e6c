//! Recycle Chess (`recycle`), as `GAMES.md` gives it:
//!
//! > **Self-capture.** A player may capture one of their own pieces (never the king) with any
//! > move that would capture an enemy piece on that square (pawns diagonally forward; the king
//! > may do it too; never en passant); the captured own piece goes to that player's hand.
//! > Enemy pieces captured are removed for good.
//! > **Drops.** Instead of a move, a player may put one piece from the hand on any empty
//! > square; pawns not on rank 1 or 8. A drop may give check or mate or block a check. A pawn
//! > dropped on its second rank may double-step (decision, as in crazyhouse).
//! > **No promotion.** A pawn that reaches the last rank (by a move or a capture) is
//! > **removed from the game**; it does not go to the hand (decision, as vchess). Written
//! > without suffix: `e7e8`.
//! > Check, castling, en passant and mate are standard. A rook that leaves its square by being
//! > self-captured loses its castling right; a dropped rook never has one.
//! > Insufficient material: the chess test applied to board and hand pieces together.
//! > Repetition compares hands.
//!
//! Settled later: a drop does not reset the fifty-move count, a capture of one's own piece
//! does; a bishop in hand may reach either colour; a pawn that captures its own piece on the
//! last rank sends that piece to the hand and itself leaves. The hand is Loop Chess's
//! (`...RNBQKBNR[Qp]`); the generator lets every move that could capture land on our own
//! pieces but the king, and `play_unchecked` keeps only our own captured pieces.

use super::variant::{CHESS_CASTLING, CHESS_LETTERS, GameDef, WideVariant};

pub(crate) const DEF: GameDef = GameDef {
    drops: true,
    self_capture: true,
    promotions: &[],
    promotion_forced: [0, 0],
    pawns_leave: true,
    ..GameDef::standard(
        WideVariant::Recycle,
        (8, 8),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        CHESS_LETTERS,
        &[],
        true,
        Some(CHESS_CASTLING),
    )
};

#[cfg(test)]
mod tests {
    use super::super::testing::ucis;
    use super::super::{WidePosition, WideRole, WideVariant};
    use crate::{Color, Family};

    fn pos(fen: &str) -> WidePosition {
        WidePosition::from_fen(WideVariant::Recycle, fen).unwrap()
    }

    #[test]
    fn a_king_captures_its_own_piece_into_its_hand() {
        let mut p = pos("4k3/8/8/8/8/8/8/3QK3[] w - - 7 1");
        p.play("e1d1").unwrap();
        assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/3K4[Q] b - - 0 1");
    }

    #[test]
    fn the_king_is_never_captured_by_its_own_side() {
        let p = pos("4k3/8/8/8/8/8/8/3RK3[] w - - 0 1");
        assert!(!ucis(&p).contains(&"d1e1".to_string()));
    }

    #[test]
    fn enemy_pieces_captured_leave_the_game() {
        let mut p = pos("4k3/8/8/8/8/8/3n4/4K3[] w - - 0 1");
        p.play("e1d2").unwrap();
        assert_eq!(p.fen(), "4k3/8/8/8/8/8/3K4/8[] b - - 0 1");
    }

    #[test]
    fn a_self_capture_removes_the_rooks_castling_right() {
        let mut p = pos("4k3/8/8/8/8/8/7Q/R3K2R[] w KQ - 0 1");
        p.play("h2h1").unwrap();
        assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/R3K2Q[R] b Q - 0 1");
    }

    #[test]
    fn a_pawn_that_reaches_the_last_rank_leaves_the_game() {
        let mut p = pos("4k3/P7/8/8/8/8/8/4K3[] w - - 0 1");
        assert!(p.play("a7a8q").is_err());
        p.play("a7a8").unwrap();
        assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/4K3[] b - - 0 1");
    }

    #[test]
    fn a_pawn_taking_its_own_piece_on_the_last_rank_sends_it_to_the_hand() {
        let mut p = pos("1N2k3/P7/8/8/8/8/8/4K3[] w - - 0 1");
        p.play("a7b8").unwrap();
        assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/4K3[N] b - - 0 1");
    }

    #[test]
    fn pawns_take_their_own_pieces_only_diagonally_forward() {
        let p = pos("4k3/8/8/8/8/2N1N3/3P4/4K3[] w - - 0 1");
        let moves = ucis(&p);
        assert!(moves.contains(&"d2c3".to_string()) && moves.contains(&"d2e3".to_string()));
        let p = pos("4k3/8/8/8/8/3N4/3P4/4K3[] w - - 0 1");
        assert!(!ucis(&p).iter().any(|m| m.starts_with("d2")));
    }

    #[test]
    fn a_dropped_pawn_may_double_step_and_never_lands_on_rank_1_or_8() {
        let mut p = pos("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1");
        let moves = ucis(&p);
        assert!(!moves.contains(&"P@e1".to_string()) && !moves.contains(&"P@e8".to_string()));
        p.play("P@a2").unwrap();
        p.play("e8d8").unwrap();
        p.play("a2a4").unwrap();
        assert_eq!(p.fen(), "3k4/8/8/8/P7/8/8/4K3[] b - - 0 2");
    }

    #[test]
    fn a_drop_does_not_reset_the_fifty_move_count_a_self_capture_does() {
        let mut p = pos("4k3/8/8/8/8/8/8/3NK3[N] w - - 10 1");
        p.play("N@a3").unwrap();
        assert_eq!(p.halfmoves(), 11);
        p.play("e8d8").unwrap();
        p.play("e1d1").unwrap();
        assert_eq!(p.halfmoves(), 0);
    }

    #[test]
    fn insufficient_material_counts_the_hands() {
        let bare = |fen| pos(fen).is_insufficient_material();
        assert!(bare("4k3/8/8/8/8/8/8/4K3[] w - - 0 1"));
        assert!(bare("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1"));
        assert!(!bare("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1"));
        assert!(bare("4k3/8/8/8/8/8/8/2B1K1B1[] w - - 0 1"));
        // A bishop in hand may be dropped on either colour.
        assert!(!bare("4k3/8/8/8/8/8/8/2B1K1B1[B] w - - 0 1"));
        assert!(pos("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1").has_insufficient_material(Color::White));
        assert!(!pos("4k3/8/8/8/8/8/8/4K3[R] w - - 0 1").has_insufficient_material(Color::White));
    }

    /// The hand is written queen, rook, bishop, knight, pawn, White's first; read in any
    /// order.
    #[test]
    fn the_hand_is_written_q_r_b_n_p_whites_first_and_read_in_any_order() {
        let p = pos("4k3/8/8/8/8/8/8/4K3[pNbPQnrRqB] w - - 0 1");
        assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1");
    }

    #[test]
    fn repetition_compares_the_hands() {
        let a = pos("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
        let b = pos("4k3/8/8/8/8/8/8/4K3[n] w - - 0 1");
        assert_ne!(a.repetition_key(), b.repetition_key());
        assert_eq!(a.hand(Color::White)[WideRole::Knight.index()], 1);
    }

    /// The en passant square is written as chessd writes chess's: only when a capture there
    /// is legal (here the pawn on b5 is pinned by the capture); a FEN that writes it after
    /// every double step is read to the same position.
    #[test]
    fn an_en_passant_square_is_written_only_when_the_capture_is_legal() {
        let mut p = pos("4k3/2p5/8/KP5r/8/8/8/8[] b - - 0 1");
        p.play("c7c5").unwrap();
        assert_eq!(p.fen(), "4k3/8/8/KPp4r/8/8/8/8[] w - - 0 2");
        assert_eq!(pos("4k3/8/8/KPp4r/8/8/8/8[] w - c6 0 2"), p);
        let mut p = pos("4k3/2p5/8/KP6/8/8/8/8[] b - - 0 1");
        p.play("c7c5").unwrap();
        assert_eq!(p.fen(), "4k3/8/8/KPp5/8/8/8/8[] w - c6 0 2");
    }
}
