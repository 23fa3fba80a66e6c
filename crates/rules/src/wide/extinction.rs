//! Extinction Chess (`extinction`), as `GAMES.md` gives it:
//!
//! > Standard start and movement, but **no check**: the king is an ordinary piece that may be
//! > left attacked, moved into attack and captured (castling ignores attacks).
//! > **A player loses when any of their piece types becomes extinct**: no king left, no queen,
//! > no rook, no bishop, no knight, or no pawn. Pawns go extinct by capture or by promoting the
//! > last one. A promoted pawn counts as its new type.
//! > Pawns promote to Q, R, B, N **or K** (`e7e8k`); a promoted king counts as a king.
//! > **Both sides extinct at once** is a **win for the player who moved**. **FSF differs**: it
//! > scores that position as a loss for the mover.
//! > A player with no legal move is stalemated: draw. Insufficient material never applies.
//!
//! No side has a royal piece, so the generator's check and pin code is skipped and castling
//! tests no square for attack; the ends are `WidePosition::outcome`'s.

use super::role::WideRole;
use super::variant::{CHESS_CASTLING, CHESS_LETTERS, End, GameDef, WideVariant};

pub(crate) const DEF: GameDef = GameDef {
    royal: [None; 2],
    end: End::Extinction,
    ..GameDef::standard(
        WideVariant::Extinction,
        (8, 8),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        CHESS_LETTERS,
        &[
            WideRole::Queen,
            WideRole::Rook,
            WideRole::Bishop,
            WideRole::Knight,
            WideRole::King,
        ],
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
        WidePosition::from_fen(WideVariant::Extinction, fen).unwrap()
    }

    /// No check: the king may step into attack and be taken, and castling crosses attacked
    /// squares.
    #[test]
    fn kings_are_ordinary_pieces() {
        // The rook on f2 attacks f1: castling may still cross it, the king may step into
        // attack, and the rook may take the king. (Every type is on the board for both, or
        // the game would be over.)
        let p = pos("rnbqk3/p7/8/8/QBN5/8/P4r2/R3K2R w KQ - 0 1");
        let moves = ucis(&p);
        for m in ["e1g1", "e1c1", "e1f1", "e1f2"] {
            assert!(moves.contains(&m.to_string()), "{m}");
        }
        let p = pos("rnbqk3/p7/8/8/QBN5/8/P3r3/R3K2R b KQ - 0 1");
        assert!(ucis(&p).contains(&"e2e1".to_string()));
        // Once a type is extinct the game is over and has no move.
        let p = pos("rnbqk3/8/8/8/QBN5/8/P3r3/R3K2R b KQ - 0 1");
        assert!(ucis(&p).is_empty());
        assert_eq!(p.outcome().unwrap().winner, Some(crate::Color::White));
    }

    /// Losing the last piece of a type loses; both at once wins for the mover; a pawn
    /// promotes to a king, and a second king keeps its side alive when one is taken.
    #[test]
    fn extinction_ends_the_game() {
        let mut p = pos("4k3/1pqrbnp1/8/8/8/8/1PQRBNP1/3K4 w - - 0 1");
        assert_eq!(p.outcome(), None);
        p.play("c2c7").unwrap();
        // The capture that ends the game leaves no move, as a FEN of the same board does.
        assert!(ucis(&p).is_empty());
        let o = p.outcome().unwrap();
        assert_eq!(
            (o.winner, o.termination),
            (Some(Color::White), Termination::Extinction)
        );
        // White's last pawn takes Black's last bishop and promotes: both are extinct (White's
        // pawns, Black's bishops), and the mover wins.
        let mut p = pos("1b2k3/P1qrnp2/8/8/8/8/2QRBN2/4K3 w - - 0 1");
        p.play("a7b8q").unwrap();
        assert!(p.is_extinct(Color::White) && p.is_extinct(Color::Black));
        assert!(ucis(&p).is_empty());
        // A promotion alone ends it too: White's last pawn becomes a knight.
        let mut p = pos("4k3/P1qrbnp1/8/8/8/8/2QRBN2/4K3 w - - 0 1");
        p.play("a7a8n").unwrap();
        assert!(ucis(&p).is_empty());
        assert_eq!(p.outcome().unwrap().winner, Some(Color::Black));
        // En passant taking Black's last pawn.
        let mut p = pos("4k3/2qr1nb1/8/3Pp3/8/8/2QRBN2/4K3 w - e6 0 1");
        p.play("d5e6").unwrap();
        assert!(ucis(&p).is_empty());
        assert_eq!(p.outcome().unwrap().winner, Some(Color::White));
        assert_eq!(p.outcome().unwrap().winner, Some(Color::White));
        // A promoted king.
        let mut p = pos("4k3/P1qrbnp1/8/8/8/8/1PQRBNP1/4K3 w - - 0 1");
        assert!(ucis(&p).contains(&"a7a8k".to_string()));
        p.play("a7a8k").unwrap();
        assert_eq!(
            p.pieces(Color::White, super::WideRole::King).count_ones(),
            2
        );
    }
}
