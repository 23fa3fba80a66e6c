//! Dark Chess (`dark`), its moves as `GAMES.md` gives them:
//!
//! > **Movement** is standard chess under the king-capture conventions: no check, a king may
//! > move into attack or stay attacked, castling ignores attacks, **capturing the king wins at
//! > once**. Promotion (Q/R/B/N) and en passant are standard.
//!
//! and the king-capture conventions every such game shares:
//!
//! > A move is legal if the piece can make it, even if it leaves or puts its own king
//! > attacked; capturing a king is a legal move, and when it decides the game the game ends
//! > at once. Castling needs the usual unmoved king and rook and empty squares between them,
//! > but attacked squares do not matter. A player with no legal move at all is stalemated: a
//! > draw. Insufficient material never ends these games; time forfeit always loses.
//!
//! and, of what the server decides because neither player can see enough to claim it, the one
//! that is the board's: "a position with only the two kings is an automatic draw".
//!
//! What each side may see is the service's business: this is the game the server referees.
//! No side has a royal piece, so the generator skips check and pins and castling tests no
//! square for attack, as for Extinction; `End::KingCapture` ends the game.

use super::variant::{CHESS_CASTLING, CHESS_LETTERS, CHESS_PROMOTIONS, End, GameDef, WideVariant};

pub(crate) const DEF: GameDef = GameDef {
    royal: [None; 2],
    end: End::KingCapture,
    ..GameDef::standard(
        WideVariant::Dark,
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
    use super::super::testing::sorted_ucis;
    use super::super::{WideGame, WidePosition, WideVariant};
    use crate::{Color, DrawRule, Family, Outcome, Termination};

    fn pos(fen: &str) -> WidePosition {
        WidePosition::from_fen(WideVariant::Dark, fen).unwrap()
    }

    fn has(p: &WidePosition, m: &str) -> bool {
        sorted_ucis(p).iter().any(|x| x == m)
    }

    /// No check: a king may step into attack, stay attacked while another piece moves, and
    /// a pinned piece may leave its line.
    #[test]
    fn there_is_no_check() {
        let p = pos("4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1");
        assert!(!p.is_check());
        assert!(has(&p, "e1d2") && has(&p, "e1f1") && has(&p, "a1a8"));
        let p = pos("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1");
        assert!(
            has(&p, "e2d3"),
            "a bishop pinned to its king may leave the file"
        );
    }

    /// Capturing the king is a legal move and wins at once: no move is left.
    #[test]
    fn capturing_the_king_wins_at_once() {
        let mut p = pos("4k3/8/8/8/8/8/4r3/R3K3 b - - 0 1");
        p.play("e2e1").unwrap();
        assert!(p.legal_moves().is_empty());
        assert_eq!(
            p.outcome(),
            Some(Outcome::win(Color::Black, Termination::KingCaptured))
        );
        // The finished position reads back from its FEN, with the same end.
        assert_eq!(pos(&p.fen()), p);
        assert_eq!(pos(&p.fen()).outcome(), p.outcome());
    }

    /// Castling ignores attacks: out of, through and into attacked squares.
    #[test]
    fn castling_ignores_attacks() {
        let p = pos("4k3/8/8/8/8/8/3r1r2/R3K2R w KQ - 0 1");
        assert!(has(&p, "e1g1") && has(&p, "e1c1"));
        let p = pos("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1");
        assert!(has(&p, "e1g1") && has(&p, "e1c1"), "out of attack");
        // Empty squares between king and rook are still needed.
        let p = pos("4k3/8/8/8/8/8/8/R2QK1NR w KQ - 0 1");
        assert!(!has(&p, "e1g1") && !has(&p, "e1c1"));
    }

    /// Promotion to Q, R, B or N only, and en passant as in chess.
    #[test]
    fn promotion_and_en_passant_are_standard() {
        let p = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        let promotions: Vec<String> = sorted_ucis(&p)
            .into_iter()
            .filter(|m| m.starts_with("a7"))
            .collect();
        assert_eq!(promotions, ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]);
        let mut p = pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
        p.play("d7d5").unwrap();
        assert!(has(&p, "e5d6"));
    }

    /// A side with no legal move draws; the side not to move may stand attacked.
    #[test]
    fn no_legal_move_draws() {
        // Every white piece is boxed in by its own or blocked by a pawn it cannot take.
        let p = pos("7k/8/8/8/1p6/pPp5/PRP5/KB6 w - - 0 1");
        assert!(p.legal_moves().is_empty());
        assert_eq!(p.outcome(), Some(Outcome::draw(Termination::Stalemate)));
        // Black's king attacked with White to move is a legal position: White may take it.
        let p = pos("k7/8/8/8/8/8/8/R6K w - - 0 1");
        assert!(has(&p, "a1a8"));
    }

    /// Insufficient material never ends the game, nor draws a flag: a lone king can still
    /// take a careless king. Only the two bare kings draw (Dark Chess's own rule, which the
    /// server applies because neither player can see enough to claim it).
    #[test]
    fn insufficient_material_never_applies_but_bare_kings_draw() {
        let p = pos("4k3/8/8/8/8/8/8/4KN2 w - - 0 1");
        assert!(!p.is_insufficient_material());
        assert_eq!(p.outcome(), None);
        assert!(!Family::has_insufficient_material(&p, Color::White));
        let p = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(
            p.outcome(),
            Some(Outcome::draw(Termination::InsufficientMaterial))
        );
        assert!(!Family::has_insufficient_material(&p, Color::White));
    }

    /// Repetition and the fifty-move rule work as in every wide game.
    #[test]
    fn repetition_draws() {
        let mut game = WideGame::new(WidePosition::new(WideVariant::Dark), DrawRule::Automatic);
        for _ in 0..2 {
            for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                game.play_text(m).unwrap();
            }
        }
        assert_eq!(game.outcome(), Some(Outcome::draw(Termination::Repetition)));
    }
}
