//! Maharajah Chess (`maharajah`), as `GAMES.md` gives it:
//!
//! > White has a single **Maharajah** (`M`) on e1, which moves as a queen or a knight and is
//! > **royal**: it may not move into check, must answer check, and is checkmated like a king.
//! > Black has the standard army and may castle normally.
//! > **Black pawns never promote.** A black pawn that reaches rank 1 stays there as a pawn
//! > that can no longer move (it can still be captured).
//! > Checkmate of either royal piece wins; stalemate is a draw. Insufficient material never
//! > applies.
//!
//! The maharajah is the amazon role, royal for White; Black's royal piece is its king.
//! FSF's `[maharajah]` never lets a black pawn reach rank 1; `GAMES.md`'s `maharajahbk` does.

use super::role::WideRole;
use super::square::{board_mask, rank_mask};
use super::variant::{CHESS_CASTLING, CHESS_PROMOTIONS, End, GameDef, WideVariant};

pub(crate) const DEF: GameDef = GameDef {
    royal: [Some(WideRole::Amazon), Some(WideRole::King)],
    // The maharajah never castles: White has no king, so a FEN's `K` is refused.
    castler: [WideRole::King; 2],
    promotion_forced: [rank_mask(7) & board_mask(8, 8), 0],
    end: End::CheckmateOnly,
    ..GameDef::standard(
        WideVariant::Maharajah,
        (8, 8),
        "rnbqkbnr/pppppppp/8/8/8/8/8/4M3 w kq - 0 1",
        *b"PNBRQK\0\0M",
        &CHESS_PROMOTIONS,
        true,
        Some(CHESS_CASTLING),
    )
};

#[cfg(test)]
mod tests {
    use super::super::testing::ucis;
    use super::super::{WidePosition, WideVariant};
    use crate::{Color, Termination};

    fn pos(fen: &str) -> WidePosition {
        WidePosition::from_fen(WideVariant::Maharajah, fen).unwrap()
    }

    /// A black pawn steps onto rank 1 without promoting and stays; the maharajah may not step
    /// into check and is mated as a king is.
    #[test]
    fn black_never_promotes_and_the_maharajah_is_royal() {
        let mut p = pos("4k3/8/8/8/8/8/p7/7M b - - 0 1");
        assert_eq!(ucis(&p).iter().filter(|m| m.starts_with("a2")).count(), 1);
        p.play("a2a1").unwrap();
        assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/p6M w - - 0 2");
        p.play("h1h2").unwrap();
        assert!(ucis(&p).iter().all(|m| !m.starts_with("a1")));
        // The maharajah may not step next to the queen that checks it.
        let p = pos("k7/8/8/8/8/8/1r6/r2qM3 w - - 0 1");
        assert!(!ucis(&p).contains(&"e1e2".to_string()));
        let p = pos("8/8/8/8/8/5k2/6qp/6rM w - - 0 1");
        let o = p.outcome().unwrap();
        assert_eq!(
            (o.winner, o.termination),
            (Some(Color::Black), Termination::Checkmate)
        );
    }
}
