//! Knight Relay Chess (`knightrelay`), as `GAMES.md` gives it:
//!
//! > **Relay.** Any piece other than a king or a knight that stands a knight's move from a
//! > friendly knight may, in addition to its own moves, move or capture as a knight. The power
//! > lasts only while the relation holds and is computed on the current position.
//! > **Knights** move as usual but **never capture and are never captured**: no piece may move
//! > onto a square a knight occupies. Knights give no check and attack nothing.
//! > **Relayed pawns** may make knight moves (forward or backward, to empty squares or as
//! > captures) except to rank 1 or rank 8. A pawn that returns to its second rank may
//! > double-step again.
//! > **No en passant.** Check, castling and promotion are standard, with attacks including
//! > relayed knight moves.
//! > **Insufficient material (decision):** a side can still mate if it has a queen, a rook, a
//! > pawn, two bishops on different colours, or a bishop and a knight together; when neither
//! > side can, it is drawn.
//!
//! And as settled later: a relayed pawn does not attack a first- or last-rank square; its
//! knight move is a pawn move (it resets the fifty-move count); an en-passant square in a FEN
//! is accepted and ignored, and written `-`. The moves are the 8x8 generator's (`narrow`).

use super::position::WidePosition;
use super::role::WideRole;
use super::variant::{
    CHESS_CASTLING, CHESS_LETTERS, CHESS_PROMOTIONS, EightByEight, End, GameDef, Site, WideVariant,
};
use crate::Color;

pub(crate) const DEF: GameDef = GameDef {
    site: Site::KnightRelay,
    narrow: Some(EightByEight::KnightRelay),
    end: End::KnightRelay,
    ..GameDef::standard(
        WideVariant::KnightRelay,
        (8, 8),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        CHESS_LETTERS,
        &CHESS_PROMOTIONS,
        true,
        Some(CHESS_CASTLING),
    )
};

impl WidePosition {
    /// Knight Relay: whether `color` can still mate: a queen, a rook or a pawn, bishops on
    /// both colours, or a bishop and a knight.
    pub(crate) fn relay_can_mate(&self, color: Color) -> bool {
        let of = |role: WideRole| self.pieces(color, role);
        if of(WideRole::Queen) | of(WideRole::Rook) | of(WideRole::Pawn) != 0 {
            return true;
        }
        let bishops = of(WideRole::Bishop);
        let light = super::end::light_squares();
        (bishops & light != 0 && bishops & !light != 0)
            || (bishops != 0 && of(WideRole::Knight) != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::sorted_ucis as ucis;
    use super::super::{WidePosition, WideVariant};

    fn pos(fen: &str) -> WidePosition {
        WidePosition::from_fen(WideVariant::KnightRelay, fen).unwrap()
    }

    fn has(p: &WidePosition, m: &str) -> bool {
        ucis(p).iter().any(|x| x == m)
    }

    /// A piece a friendly knight defends also moves and captures as a knight.
    #[test]
    fn a_defended_piece_leaps_as_a_knight() {
        // The knight on c3 defends the rook on d5 (a knight's move away).
        let p = pos("4k3/8/4p3/3R4/8/2N5/8/4K3 w - - 0 1");
        assert!(has(&p, "d5e7"), "{:?}", ucis(&p));
        assert!(has(&p, "d5f6"));
        // Not defended: no leap.
        let p = pos("4k3/8/8/3R4/8/8/2N5/4K3 w - - 0 1");
        assert!(!has(&p, "d5e7"));
    }

    /// Knights never capture and are never captured.
    #[test]
    fn a_knight_that_cannot_be_captured() {
        let p = pos("4k3/8/8/3n4/8/3R4/8/4K2N w - - 0 1");
        assert!(!has(&p, "d3d5"), "the rook may not take the knight");
        assert!(has(&p, "d3d4"));
        // The knight on h1 may not take the pawn on g3.
        let p = pos("4k3/8/8/8/8/6p1/8/4K2N w - - 0 1");
        assert!(!has(&p, "h1g3"));
    }

    /// Knights give no check: a king a knight's move from an enemy knight is not in check.
    #[test]
    fn knights_give_no_check() {
        let p = pos("4k3/8/8/8/8/3n4/8/4K3 w - - 0 1");
        assert!(!p.is_check());
        assert!(has(&p, "e1e2"), "the knight attacks nothing");
    }

    /// A relayed piece gives check as a knight.
    #[test]
    fn a_relayed_piece_checks_as_a_knight() {
        // Black's bishop on d3 is defended by the knight on b4 (b4-d3), and leaps to e1.
        let p = pos("4k3/8/8/8/1n6/3b4/8/4K3 w - - 0 1");
        assert!(p.is_check());
    }

    /// A relayed pawn may leap as a knight, backward too, but never to rank 1 or 8.
    #[test]
    fn a_relayed_pawn_never_reaches_rank_1_or_8() {
        // The pawn on d7 is defended by the knight on e5: it leaps to b6, f6 and c5 (never
        // onto its own knight), not to b8 or f8, and never promotes by a leap.
        let p = pos("k7/3P4/8/4N3/8/8/8/7K w - - 0 1");
        let moves = ucis(&p);
        for m in ["d7b6", "d7f6", "d7c5", "d7d8q"] {
            assert!(moves.contains(&m.to_string()), "{m} {moves:?}");
        }
        for m in ["d7e5", "d7b8", "d7f8", "d7b8q", "d7f8q"] {
            assert!(!moves.contains(&m.to_string()), "{m} {moves:?}");
        }
        // d2's pawn, defended by the knight on f3, leaps backward and forward: b3, c4, e4,
        // but not to b1 or f1.
        let p = pos("k7/8/8/8/8/5N2/3P4/7K w - - 0 1");
        let moves = ucis(&p);
        for m in ["d2b3", "d2c4", "d2e4"] {
            assert!(moves.contains(&m.to_string()), "{m} {moves:?}");
        }
        assert!(!moves.contains(&"d2b1".to_string()) && !moves.contains(&"d2f1".to_string()));
    }

    /// A relayed pawn does not attack a last-rank square it may not move to.
    #[test]
    fn a_relayed_pawn_gives_no_check_on_the_last_rank() {
        let p = pos("3k4/8/4P3/8/3N4/8/8/7K b - - 0 1");
        assert!(!p.is_check(), "e6 may not leap to d8");
        // It still attacks c7 by its leap and d7, f7 as a pawn.
        assert_eq!(ucis(&p), ["d8c8", "d8e7", "d8e8"]);
    }

    /// A pawn's relayed knight move is a pawn move: it resets the fifty-move count.
    #[test]
    fn a_relayed_pawns_leap_resets_the_fifty_move_count() {
        let mut p = pos("4k3/8/8/8/8/8/3P4/4KN2 w - - 9 1");
        p.play("d2e4").unwrap();
        assert_eq!(p.fen(), "4k3/8/8/8/4P3/8/8/4KN2 b - - 0 1");
    }

    /// A pawn back on its second rank double-steps again, and leaves no en passant square.
    #[test]
    fn no_en_passant() {
        let mut p = pos("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
        p.play("e2e4").unwrap();
        assert_eq!(p.fen(), "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
        assert!(!has(&p, "d4e3"));
        // A FEN's en passant square is accepted and ignored.
        let p = pos("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
        assert_eq!(p.fen(), "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
        // Back on its second rank by a relayed leap, a pawn double-steps again.
        let p = pos("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1");
        assert!(has(&p, "d2d4"));
    }

    /// The insufficient-material decision: two knights cannot mate, a bishop and a knight
    /// can, two bishops only on both colours.
    #[test]
    fn insufficient_material() {
        assert!(pos("4k3/8/8/8/8/8/8/NN2K3 w - - 0 1").is_insufficient_material());
        assert!(!pos("4k3/8/8/8/8/8/8/NB2K3 w - - 0 1").is_insufficient_material());
        assert!(pos("4k3/8/8/8/8/8/8/B1B1K3 w - - 0 1").is_insufficient_material());
        assert!(!pos("4k3/8/8/8/8/8/8/BB2K3 w - - 0 1").is_insufficient_material());
        assert!(!pos("4k3/8/8/8/8/8/P7/4K3 w - - 0 1").is_insufficient_material());
    }

    /// Castling is standard, with relayed knight attacks on the king's path.
    #[test]
    fn castling_sees_relayed_attacks() {
        let p = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert!(has(&p, "e1g1"));
        // Black's rook on g3 is defended by the knight on e4 and leaps to f1.
        let p = pos("4k3/8/8/8/4n3/6r1/8/4K2R w K - 0 1");
        assert!(!has(&p, "e1g1"), "{:?}", ucis(&p));
    }

    /// SAN tells a pawn's leap from another pawn's step to the same square by file, and
    /// reads it back.
    #[test]
    fn san_names_a_leaping_pawns_file() {
        let p = WidePosition::new(WideVariant::KnightRelay);
        for (uci, san) in [("e2f4", "ef4"), ("f2f4", "ff4"), ("h2h4", "h4")] {
            let m = uci
                .parse::<super::super::WideUci>()
                .unwrap()
                .to_move(&p)
                .unwrap();
            assert_eq!(super::super::wide_san(&p, m).to_string(), san);
            let read = san
                .parse::<super::super::WideSan>()
                .unwrap()
                .to_move(&p)
                .unwrap();
            assert_eq!(read, m);
        }
    }

    /// The start: chess's 20 moves and eight leaps: b1's knight defends d2 (to b3, c4, e4,
    /// f3), g1's defends e2 (to c3, d4, f4, g3).
    #[test]
    fn start_counts() {
        let p = WidePosition::new(WideVariant::KnightRelay);
        assert_eq!(p.perft(1), 28);
        assert!(has(&p, "d2f3") && has(&p, "e2c3"));
    }
}
