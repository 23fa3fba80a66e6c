//! Ice Age Chess (`iceage`), as `GAMES.md` gives it:
//!
//! > **Ice cubes.** At the start every empty square holds an ice cube, a neutral immobile
//! > blocker. Sliders and pawns cannot pass or enter it; knights jump over it. Any piece of
//! > either side may capture an ice cube with one of its capturing moves (pawns diagonally
//! > only; the king only where it would not be in check). Ice never attacks or protects
//! > anything.
//! > **The Ice Age.** Immediately after each Black move whose number is a multiple of 20
//! > (moves 20, 40, 60, ...), on the board as it then stands:
//! > 1. every empty square becomes ice, except one whose orthogonal neighbours that exist on
//! >    the board are all occupied by pieces (the board edge counts as closed);
//! > 2. every piece with no piece on any of its eight neighbouring squares is **frozen**:
//! >    removed and replaced by an ice cube.
//! > Ice cubes do not count as pieces in either test. Both tests read the board before either
//! > change.
//! > **End.** A player whose king is frozen loses; both kings frozen is a draw. Otherwise
//! > checkmate wins and stalemate draws, judged after the Ice Age when there is one.
//! > Castling is allowed with the usual conditions; squares between must be empty, not ice.
//! > **No repetition draws.** The fifty-move rule counts ice captures as captures
//! > **(decision)**.
//!
//! Settled later: Black's 20th move is legal by the board before the Ice Age; a square
//! skipped by a double step that freezes allows no en passant; material never draws; a frozen
//! king or rook takes its castling rights along, the fifty-move count is unchanged by the
//! freeze, and a finished game's FEN has no king for a side whose king froze. Ice is `*` in
//! the FEN board. The ice is a mask the position adds to its occupied squares, so sliders,
//! pawns' steps and castling stop at it with no test of their own; captures may land on it.

use super::attacks::{king_attacks, rook_rays};
use super::position::WidePosition;
use super::role::WideRole;
use super::square::squares;
use super::variant::{
    CHESS_CASTLING, CHESS_LETTERS, CHESS_PROMOTIONS, EightByEight, End, GameDef, WideVariant,
};
use crate::Color;

pub(crate) const DEF: GameDef = GameDef {
    ice: true,
    narrow: Some(EightByEight::IceAge),
    end: End::IceAge,
    ..GameDef::standard(
        WideVariant::IceAge,
        (8, 8),
        "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        CHESS_LETTERS,
        &CHESS_PROMOTIONS,
        true,
        Some(CHESS_CASTLING),
    )
};

impl WidePosition {
    /// The Ice Age, after a Black move whose number is a multiple of 20: both tests read the
    /// board as it stands, then the empty squares that are not enclosed and the isolated
    /// pieces become ice. Kept out of line: `play_unchecked` of every game passes by it.
    #[cold]
    #[inline(never)]
    pub(super) fn ice_age(&mut self) {
        let board = self.def.board;
        let pieces = self.colors[0] | self.colors[1];
        let mut frost = 0;
        for sq in squares(board & !pieces & !self.ice) {
            let sides = king_attacks(sq) & rook_rays(sq) & board;
            if sides & !pieces != 0 {
                frost |= sq.bit();
            }
        }
        let isolated: u128 = squares(pieces)
            .filter(|sq| king_attacks(*sq) & board & pieces == 0)
            .fold(0, |bb, sq| bb | sq.bit());
        for sq in squares(isolated) {
            let Some(piece) = self.remove(sq) else {
                continue;
            };
            let rights = &mut self.castles[piece.color.index()];
            if piece.role == WideRole::King {
                *rights = [None; 2];
            }
            for right in rights.iter_mut().filter(|r| **r == Some(sq)) {
                *right = None;
            }
        }
        self.ice |= frost | isolated;
        if self.ep.is_some_and(|ep| self.ice & ep.bit() != 0) {
            self.ep = None;
            self.ep_victim = None;
        }
        if self.royal(Color::White).is_none() || self.royal(Color::Black).is_none() {
            self.extinct = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::ucis;
    use super::super::{WideGame, WidePosition, WideSquare, WideVariant};
    use crate::{Color, DrawRule, Outcome, Termination};

    fn pos(fen: &str) -> WidePosition {
        WidePosition::from_fen(WideVariant::IceAge, fen).unwrap()
    }

    #[test]
    fn ice_blocks_sliders_and_pawns_and_knights_jump_it() {
        let p = WidePosition::new(WideVariant::IceAge);
        let moves = ucis(&p);
        assert_eq!(moves.len(), 18);
        assert!(moves.contains(&"h2g3".to_string()) && moves.contains(&"g1f3".to_string()));
        assert!(!moves.contains(&"e2e3".to_string()) && !moves.contains(&"e2e4".to_string()));
    }

    #[test]
    fn taking_ice_is_a_capture_for_the_fifty_move_count() {
        let mut p = pos("4k3/8/8/8/8/8/8/4K*2 w - - 10 30");
        p.play("e1f1").unwrap();
        assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/5K2 b - - 0 30");
    }

    #[test]
    fn a_king_may_not_capture_ice_into_check() {
        let p = pos("4k3/8/8/8/8/8/8/r2*K*2 w - - 0 1");
        let moves = ucis(&p);
        assert!(!moves.contains(&"e1d1".to_string()), "{moves:?}");
        assert!(moves.contains(&"e1f1".to_string()));
    }

    #[test]
    fn castling_needs_empty_squares_not_ice() {
        let p = pos("4k3/8/8/8/8/8/8/R3K1*R w KQ - 0 1");
        let moves = ucis(&p);
        assert!(!moves.contains(&"e1g1".to_string()) && moves.contains(&"e1c1".to_string()));
    }

    /// Black's 20th move: the empty squares freeze but d4, whose four neighbours are pieces;
    /// the pieces all have a neighbour and stay. On move 19 nothing happens.
    #[test]
    fn the_ice_age_refreezes_on_the_20th_black_move_and_an_enclosed_square_stays_empty() {
        let fen = |n: u32| format!("4k3/4p3/8/3P4/2P1P3/3P4/4K3/8 b - - 0 {n}");
        let mut p = pos(&fen(19));
        p.play("e8d8").unwrap();
        assert_eq!(p.fen(), "3k4/4p3/8/3P4/2P1P3/3P4/4K3/8 w - - 1 20");
        let mut p = pos(&fen(20));
        p.play("e8d8").unwrap();
        assert_eq!(
            p.fen(),
            "***k****/****p***/********/***P****/**P1P***/***P****/****K***/******** w - - 1 21"
        );
    }

    /// A piece whose only neighbour is ice freezes: ice is no piece.
    #[test]
    fn an_isolated_piece_freezes() {
        let mut p = pos("4k3/3pp3/8/8/8/1*6/N7/4KQ2 b - - 0 40");
        p.play("e7e6").unwrap();
        let a2: WideSquare = "a2".parse().unwrap();
        assert!(
            p.piece_at(a2).is_none() && p.ice() & a2.bit() != 0,
            "{}",
            p.fen()
        );
        assert_eq!(
            p.fen(),
            "****k***/***p****/****p***/********/********/********/********/****KQ** w - - 0 41"
        );
    }

    #[test]
    fn a_frozen_king_loses() {
        let mut p = pos("7k/6p1/8/8/8/8/1P6/K7 b - - 0 40");
        p.play("g7g6").unwrap();
        assert_eq!(
            p.fen(),
            "********/********/********/********/********/********/*P******/K******* w - - 0 41"
        );
        assert!(p.legal_moves().is_empty());
        assert_eq!(
            p.outcome(),
            Some(Outcome::win(Color::White, Termination::KingFrozen))
        );
        assert_eq!(pos(&p.fen()), p);
    }

    #[test]
    fn both_kings_frozen_draw() {
        let mut p = pos("7k/6p1/8/8/8/8/8/K7 b - - 0 40");
        p.play("g7g6").unwrap();
        assert_eq!(p.outcome(), Some(Outcome::draw(Termination::KingFrozen)));
    }

    /// Checkmate is judged after the Ice Age: the rook's mate on move 19 is none on move 20,
    /// where the rook freezes and ice fills the rank.
    #[test]
    fn checkmate_is_judged_after_the_ice_age() {
        let fen = |n: u32| format!("4k2r/4p3/8/8/8/8/PP6/K7 b - - 0 {n}");
        let mut p = pos(&fen(19));
        p.play("h8h1").unwrap();
        assert_eq!(
            p.outcome(),
            Some(Outcome::win(Color::Black, Termination::Checkmate))
        );
        let mut p = pos(&fen(20));
        p.play("h8h1").unwrap();
        assert_eq!(
            p.fen(),
            "****k***/****p***/********/********/********/********/PP******/K******* w - - 1 21"
        );
        assert_eq!(p.outcome(), None);
    }

    /// The skipped square of a double step on Black's 20th move freezes: no en passant onto
    /// it, but White may take the ice there.
    #[test]
    fn a_double_step_whose_skipped_square_freezes_allows_no_en_passant() {
        let mut p = pos("4k3/3p1p2/8/4P3/8/8/3P4/4K3 b - - 0 20");
        p.play("d7d5").unwrap();
        assert_eq!(p.ep_square(), None);
        assert_eq!(
            p.fen(),
            "****k***/*****p**/********/***pP***/********/********/***P****/****K*** w - - 0 21"
        );
        let mut moves = ucis(&p);
        moves.sort();
        assert_eq!(
            moves,
            [
                "d2c3", "d2e3", "e1d1", "e1e2", "e1f1", "e1f2", "e5d6", "e5f6"
            ]
        );
        p.play("e5d6").unwrap();
        assert_eq!(
            p.piece_at("d5".parse().unwrap()).map(|x| x.color),
            Some(Color::Black)
        );
        let mut p = pos("4k3/3p1p2/8/4P3/8/8/3P4/4K3 b - - 0 19");
        p.play("d7d5").unwrap();
        assert!(p.ep_square().is_some());
    }

    /// Black's 20th move is legal by the board it is played on, before the Ice Age: a rook
    /// pinned by a white rook that the Ice Age will freeze still may not leave the file.
    #[test]
    fn black_20th_move_is_legal_by_the_board_before_the_ice_age() {
        let p = pos("4k3/3pr3/8/8/8/8/1P2R3/K7 b - - 0 20");
        let mut moves = ucis(&p);
        moves.sort();
        assert_eq!(
            moves,
            [
                "d7d5", "d7d6", "e7e2", "e7e3", "e7e4", "e7e5", "e7e6", "e8d8", "e8f7", "e8f8"
            ]
        );
        let mut p = p;
        p.play("e8d8").unwrap();
        assert!(
            p.ice() & "e2".parse::<WideSquare>().unwrap().bit() != 0,
            "{}",
            p.fen()
        );
    }

    /// Insufficient material never draws: a freeze wins with any material, and a flag falls
    /// to a loss even against a lone king.
    #[test]
    fn never_drawn_by_material() {
        let p = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 5");
        assert!(!p.is_insufficient_material());
        assert_eq!(p.outcome(), None);
        assert!(!crate::Family::has_insufficient_material(&p, Color::White));
    }

    /// A frozen rook or king takes its castling rights along; the others stay.
    #[test]
    fn freezing_takes_castling_rights_along() {
        let mut p = pos("r3k2r/pp1p4/8/8/8/8/3P2P1/R3K2R b KQkq - 7 20");
        p.play("b7b6").unwrap();
        assert_eq!(
            p.fen(),
            "r***k***/p**p****/*p******/********/********/********/***P**P*/****K**R w Kq - 0 21"
        );
    }

    /// Freezing is no capture: the fifty-move count goes on from the move that caused it.
    #[test]
    fn freezing_leaves_the_fifty_move_count() {
        let mut p = pos("4k3/3p4/8/8/8/8/1P4r1/K7 b - - 7 20");
        p.play("e8d8").unwrap();
        assert_eq!(
            p.fen(),
            "***k****/***p****/********/********/********/********/*P******/K******* w - - 8 21"
        );
    }

    #[test]
    fn no_repetition_draws() {
        let mut game = WideGame::new(WidePosition::new(WideVariant::IceAge), DrawRule::Automatic);
        for m in ["g1f3", "g8f6"] {
            game.play_text(m).unwrap();
        }
        for _ in 0..6 {
            for m in ["f3g1", "f6g8", "g1f3", "g8f6"] {
                game.play_text(m).unwrap();
            }
        }
        assert_eq!(game.outcome(), None);
    }

    /// The en passant square is written as chessd writes chess's: only when a capture there
    /// is legal (here the pawn on b5 is pinned by the capture); a FEN that writes it after
    /// every double step is read to the same position.
    #[test]
    fn an_en_passant_square_is_written_only_when_the_capture_is_legal() {
        let mut p = pos("4k3/2p5/8/KP5r/8/8/8/8 b - - 0 1");
        p.play("c7c5").unwrap();
        assert_eq!(p.fen(), "4k3/8/8/KPp4r/8/8/8/8 w - - 0 2");
        assert_eq!(pos("4k3/8/8/KPp4r/8/8/8/8 w - c6 0 2"), p);
        let mut p = pos("4k3/2p5/8/KP6/8/8/8/8 b - - 0 1");
        p.play("c7c5").unwrap();
        assert_eq!(p.fen(), "4k3/8/8/KPp5/8/8/8/8 w - c6 0 2");
    }
}
