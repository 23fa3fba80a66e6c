//! Knightmate (`knightmate`), as `GAMES.md` gives it:
//!
//! > **Roles swap.** The royal piece (written `K`, as in FSF) moves as a **knight** and stands
//! > on e1/e8; two non-royal **commoners** (written `M`) stand on b1, g1 / b8, g8 and move as
//! > kings but may be captured like any piece. Check, checkmate and stalemate apply to the
//! > royal knight. **Castling** is done by the royal knight with a rook, with the chess
//! > squares and conditions (`e1g1`, `e1c1`; the royal knight may not be in check or pass or
//! > land on an attacked square). Pawns promote to Q, R, B or **commoner** (`e7e8m`), never
//! > to a knight.
//!
//! So the knight role is royal here and written `K`, and the king role is the commoner `M`.
//! Insufficient material (a decision: the rule's page is silent): only the two royal knights
//! left, since a commoner or any piece with its royal knight can still mate.

use super::role::WideRole;
use super::variant::{CHESS_CASTLING, End, GameDef, WideVariant};

pub(crate) const DEF: GameDef = GameDef {
    royal: [Some(WideRole::Knight); 2],
    castler: [WideRole::Knight; 2],
    end: End::BareRoyals,
    ..GameDef::standard(
        WideVariant::Knightmate,
        (8, 8),
        "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1",
        *b"PKBRQM\0\0\0",
        &[
            WideRole::Queen,
            WideRole::Rook,
            WideRole::Bishop,
            WideRole::King,
        ],
        true,
        Some(CHESS_CASTLING),
    )
};

#[cfg(test)]
mod tests {
    use super::super::{WidePosition, WideVariant};
    use crate::{Color, Termination};

    fn pos(fen: &str) -> WidePosition {
        WidePosition::from_fen(WideVariant::Knightmate, fen).unwrap()
    }

    /// The royal knight is checked and mated as a king is; the commoner is just a piece.
    #[test]
    fn the_royal_knight_is_mated() {
        // The black royal knight on a8 is attacked by the rook on a1; b6 and c7, its only
        // squares, are covered by the white commoner on b7... which also guards a8's escape.
        let p = pos("k7/1M6/8/8/8/8/8/R3K3 b - - 0 1");
        assert!(p.is_check());
        let o = p.outcome().unwrap();
        assert_eq!(o.winner, Some(Color::White));
        assert_eq!(o.termination, Termination::Checkmate);
        // A commoner gives check by stepping next to the royal knight, which cannot take it.
        let p = pos("k7/8/8/8/8/8/8/3mK3 w - - 0 1");
        assert!(p.is_check());
        assert!(
            p.legal_moves()
                .iter()
                .all(|m| m.to_uci(&p).to_string() != "e1d1")
        );
    }

    /// Castling moves the royal knight two squares, as a chess king, and promotion offers the
    /// commoner and never a knight.
    #[test]
    fn castling_and_promotion() {
        let mut p = pos("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let moves: Vec<String> = p
            .legal_moves()
            .iter()
            .map(|m| m.to_uci(&p).to_string())
            .collect();
        for m in ["e1g1", "e1c1", "b7b8m", "b7b8q", "b7a8q"] {
            assert!(moves.contains(&m.to_string()), "{m}");
        }
        assert!(!moves.iter().any(|m| m.ends_with('n') || m.ends_with('k')));
        p.play("e1g1").unwrap();
        assert_eq!(p.fen(), "r3k2r/1P6/8/8/8/8/8/R4RK1 b kq - 1 1");
    }
}
