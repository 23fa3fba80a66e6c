//! BrainKing's Horde Chess (`bkhorde`; lichess's is the 8x8 engine's `horde`), as `GAMES.md`
//! gives it:
//!
//! > White has the standard army and moves first. Black has **32 pawns and nothing else**:
//! > all of ranks 5, 6 and 7, rank 8 except d8 and e8, and d4 and e4.
//! > Black pawns double-step only from rank 7; pawns on rank 8 move one square at a time.
//! > En passant is standard for both sides. Black pawns promote on rank 1 to Q, R, B or N.
//! > White wins by capturing every black unit (promoted pieces included). Black wins by
//! > checkmating White. If Black has no legal move the game is drawn; White stalemated is
//! > drawn too. Insufficient material never applies. White may castle (`KQ`).
//!
//! Black has no royal piece, so its moves are never held back by check; its pawns may stand
//! on rank 8, its own first rank.

use super::role::WideRole;
use super::variant::{CHESS_CASTLING, CHESS_LETTERS, CHESS_PROMOTIONS, End, GameDef, WideVariant};

pub(crate) const DEF: GameDef = GameDef {
    royal: [Some(WideRole::King), None],
    first_rank_pawns: [false, true],
    end: End::Horde,
    ..GameDef::standard(
        WideVariant::BkHorde,
        (8, 8),
        "ppp2ppp/pppppppp/pppppppp/pppppppp/3pp3/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
        CHESS_LETTERS,
        &CHESS_PROMOTIONS,
        true,
        Some(CHESS_CASTLING),
    )
};

#[cfg(test)]
mod tests {
    use super::super::{WidePosition, WideVariant};
    use crate::{Color, Termination};

    fn pos(fen: &str) -> WidePosition {
        WidePosition::from_fen(WideVariant::BkHorde, fen).unwrap()
    }

    /// Rank-8 pawns step once, rank-7 pawns may double-step; taking the last black unit wins
    /// for White, and Black with no move draws.
    #[test]
    fn horde_rules() {
        let p = pos("p7/p7/8/8/8/8/8/4K3 b - - 0 1");
        let moves: Vec<String> = p
            .legal_moves()
            .iter()
            .map(|m| m.to_uci(&p).to_string())
            .collect();
        assert_eq!(moves, ["a7a6", "a7a5"]);
        let mut p = pos("8/8/8/8/8/8/3p4/4K3 w - - 0 1");
        p.play("e1d2").unwrap();
        let o = p.outcome().unwrap();
        assert_eq!(
            (o.winner, o.termination),
            (Some(Color::White), Termination::HordeDestroyed)
        );
        let p = pos("8/8/8/8/8/p7/P7/K7 b - - 0 1");
        assert_eq!(p.outcome().unwrap().winner, None);
    }
}
