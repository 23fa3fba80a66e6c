//! Cheshire Cat Chess (`cheshirecat`), as `GAMES.md` gives it:
//!
//! > **Vanishing squares.** When a piece moves away from a square, that square vanishes (`*`
//! > in FEN) for the rest of the game. Nothing may move onto a vanished square, but pieces may
//! > pass over it and attack and check across it. A square emptied by a capture [...] or by
//! > an en-passant capture (the captured pawn's square) does not vanish **(decision)**.
//! > **The king's first move** may be any queen move (blocked by pieces, not by vanished
//! > squares, ending on a present square that is not attacked). After a king has moved once,
//! > it moves as a king. There is **no castling**. The FEN's third field holds `K`/`k` while
//! > that king has not moved (`-` when neither).
//! > Pawns may double-step over a vanished square; an en-passant capture is impossible if the
//! > skipped square has vanished.
//!
//! And as settled later: a king that has not moved attacks (and checks) along queen lines, so
//! two unmoved kings may not face each other on an open line; insufficient material never
//! ends the game. The vanished squares live in `WidePosition::vanished`; the moves are the 8x8
//! generator's (`narrow`).

use super::mv::WideMove;
use super::position::WidePosition;
use super::role::WideRole;
use super::variant::{
    CHESS_LETTERS, CHESS_PROMOTIONS, EightByEight, End, GameDef, Site, WideVariant,
};
use crate::Color;

pub(crate) const DEF: GameDef = GameDef {
    site: Site::CheshireCat,
    narrow: Some(EightByEight::CheshireCat),
    end: End::CheckmateOnly,
    ..GameDef::standard(
        WideVariant::CheshireCat,
        (8, 8),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kk - 0 1",
        CHESS_LETTERS,
        &CHESS_PROMOTIONS,
        true,
        None,
    )
};

impl WidePosition {
    /// Cheshire Cat, after `us` played `m`: the square it left vanishes, a king that moved
    /// loses its queen move, and no en passant crosses a vanished square.
    #[inline(never)]
    pub(crate) fn vanish(&mut self, m: WideMove, us: Color) {
        self.vanished |= m.from().bit();
        if self.pieces(us, WideRole::King) & m.to().bit() != 0 {
            self.fresh_kings[us.index()] = false;
        }
        if self.ep.is_some_and(|ep| self.vanished & ep.bit() != 0) {
            self.ep = None;
            self.ep_victim = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{WidePosition, WideVariant};

    fn pos(fen: &str) -> WidePosition {
        WidePosition::from_fen(WideVariant::CheshireCat, fen).unwrap()
    }

    fn has(p: &WidePosition, m: &str) -> bool {
        p.legal_moves().iter().any(|x| x.to_uci(p).to_string() == m)
    }

    /// The square a piece leaves vanishes, and nothing may land on it again.
    #[test]
    fn a_square_left_vanishes() {
        let mut p = WidePosition::new(WideVariant::CheshireCat);
        p.play("g1f3").unwrap();
        assert_eq!(
            p.fen(),
            "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB*R b Kk - 1 1"
        );
        p.play("a7a6").unwrap();
        assert!(!has(&p, "f3g1"));
        assert!(!has(&p, "h1g1"), "the rook may not land on g1");
    }

    /// A slider crosses a vanished square, and attacks across it.
    #[test]
    fn a_slider_crossing_a_vanished_square() {
        let p = pos("4k3/8/8/8/8/8/8/R*2K3 w - - 0 1");
        assert!(has(&p, "a1c1") && !has(&p, "a1b1"));
        // A rook checks across a vanished square.
        let p = pos("k7/8/8/8/8/8/8/r*2K3 w - - 0 1");
        assert!(p.is_check());
    }

    /// A square emptied by a capture does not vanish.
    #[test]
    fn a_captured_pieces_square_stays() {
        let mut p = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
        p.play("e4d5").unwrap();
        assert_eq!(p.fen(), "4k3/8/8/3P4/4*3/8/8/4K3 b - - 0 1");
    }

    /// The king's first move may be a queen move; after that it moves as a king.
    #[test]
    fn the_kings_first_queen_move() {
        let mut p = pos("7k/8/8/8/8/8/8/4K3 w K - 0 1");
        assert!(has(&p, "e1e7") && has(&p, "e1a5"));
        p.play("e1e5").unwrap();
        assert_eq!(p.fen(), "7k/8/8/4K3/8/8/8/4*3 b - - 1 1");
        p.play("h8h7").unwrap();
        assert!(!has(&p, "e5e3"), "a moved king steps as a king");
        assert!(has(&p, "e5e4"));
    }

    /// An unmoved king attacks along queen lines: two unmoved kings may not face each other.
    #[test]
    fn an_unmoved_king_attacks_as_a_queen() {
        let p = pos("4k3/8/8/8/8/8/8/K7 w Kk - 0 1");
        assert!(!has(&p, "a1a8") && !has(&p, "a1e5"));
        assert!(has(&p, "a1a7"));
        // The black king, unmoved, checks the white king on the open file.
        assert!(
            WidePosition::from_fen(WideVariant::CheshireCat, "4k3/8/8/8/8/8/8/4K3 w k - 0 1")
                .unwrap()
                .is_check()
        );
    }

    /// The unmoved king's first queen move may capture, and leaves a vanished square.
    #[test]
    fn an_unmoved_kings_first_queen_move_may_capture() {
        let mut p = pos("4k3/8/8/8/3r4/8/8/K7 w K - 0 1");
        assert!(has(&p, "a1d4"));
        p.play("a1d4").unwrap();
        assert_eq!(p.fen(), "4k3/8/8/8/3K4/8/8/*7 b - - 0 1");
    }

    /// The third field's `K`/`k` is read as that king's queen-move right, whatever the king's
    /// square: without it the king steps, with it the king has its queen move.
    #[test]
    fn a_k_flag_is_read_as_the_kings_queen_move_right() {
        let p = pos("4k3/8/8/8/8/8/8/K7 w k - 0 1");
        assert!(!has(&p, "a1a3") && has(&p, "a1a2"));
        let p = pos("4k3/8/8/8/8/8/8/K7 w K - 0 1");
        assert!(has(&p, "a1a3") && has(&p, "a1h8"));
        assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/K7 w K - 0 1");
    }

    /// A pawn double-steps over a vanished square, but no en passant lands on it.
    #[test]
    fn an_en_passant_over_a_vanished_square_refused() {
        let mut p = pos("4k3/4p3/4*3/5P2/8/8/8/4K3 b - - 0 1");
        assert!(!has(&p, "e7e6"));
        p.play("e7e5").unwrap();
        assert_eq!(p.fen(), "4k3/4*3/4*3/4pP2/8/8/8/4K3 w - - 0 2");
        assert!(!has(&p, "f5e6"));
        // Over a present square, en passant stands.
        let mut p = pos("4k3/4p3/8/5P2/8/8/8/4K3 b - - 0 1");
        p.play("e7e5").unwrap();
        assert!(has(&p, "f5e6"));
    }

    /// No castling, and `Q`/`q` in the third field are accepted and ignored.
    #[test]
    fn no_castling() {
        let p = pos("r3k2r/4p3/8/8/8/8/4P3/R3K2R w KQkq - 0 1");
        assert_eq!(p.fen(), "r3k2r/4p3/8/8/8/8/4P3/R3K2R w Kk - 0 1");
        // e1g1 is the king's first queen move: the rook stays on h1.
        let mut p = p;
        p.play("e1g1").unwrap();
        assert_eq!(p.fen(), "r3k2r/4p3/8/8/8/8/4P3/R3*1KR b k - 1 1");
        assert!(
            WidePosition::from_fen(WideVariant::CheshireCat, "4k3/8/8/8/8/8/8/4K3 w X - 0 1")
                .is_err()
        );
    }

    /// Insufficient material never ends the game.
    #[test]
    fn bare_kings_play_on() {
        let p = pos("4k3/8/8/8/8/8/8/3K4 w - - 0 1");
        assert!(!p.is_insufficient_material());
        assert_eq!(p.outcome(), None);
        // Nor does a flag fall to a draw: a lone king can still be mated.
        assert!(!crate::Family::has_insufficient_material(
            &p,
            crate::Color::White
        ));
    }

    /// The en passant square is written as chessd writes chess's: only when a capture there
    /// is legal (here the pawn on b5 is pinned by the capture); a FEN that writes it after
    /// every double step is read to the same position.
    #[test]
    fn an_en_passant_square_is_written_only_when_the_capture_is_legal() {
        let mut p = pos("4k3/2p5/8/KP5r/8/8/8/8 b - - 0 1");
        p.play("c7c5").unwrap();
        assert_eq!(p.fen(), "4k3/2*5/8/KPp4r/8/8/8/8 w - - 0 2");
        assert_eq!(pos("4k3/2*5/8/KPp4r/8/8/8/8 w - c6 0 2"), p);
        let mut p = pos("4k3/2p5/8/KP6/8/8/8/8 b - - 0 1");
        p.play("c7c5").unwrap();
        assert_eq!(p.fen(), "4k3/2*5/8/KPp5/8/8/8/8 w - c6 0 2");
    }
}
