//! `Antichess`: lose every piece to win, as `../shared/RULES.md` specifies it (lichess rules,
//! python-chess's `AntichessBoard`):
//!
//! > Capturing is compulsory: when any capture (en passant included) is available, the player
//! > must capture (any of them). The king is an ordinary piece: no check, no mate, it can be
//! > captured; there is no castling. A pawn may also promote to a king (`a7a8k`, `a8=K`). A
//! > player wins by losing all their pieces, or by having no legal move (stalemate wins for
//! > the stalemated side). Draws: repetition, fifty moves, and python-chess's
//! > insufficient-material cases (for example opposite-coloured lone bishops).
//!
//! The generator is pseudo-legal: with no king to keep safe every move of a piece is legal,
//! and the captures are generated (or counted) first so the quiet moves are only produced
//! when there are none.

use crate::attacks::king_attacks;
use crate::core::{CastlingMode, Core};
use crate::movegen::{self, NO_FILTER, Standard, ep_capturers, gen_ep_moves};
use crate::rules::{core_accessors, start_position};
use crate::sink::{Counter, PawnKind, Sink};
use crate::{
    Bitboard, Color, Move, MoveList, Outcome, PositionError, Role, Rules, Setup, Square,
    Termination, Variant, validate,
};

/// A validated antichess position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Antichess {
    core: Core,
}

impl Antichess {
    /// The moves of the side to move to `targets`, pawns pushing onto `pushes` and capturing
    /// on `captures` (kings move like any piece).
    #[inline(always)]
    fn generate<S: Sink>(
        &self,
        targets: Bitboard,
        pushes: Bitboard,
        captures: Bitboard,
        sink: &mut S,
    ) {
        let core = &self.core;
        let none = Bitboard::EMPTY;
        movegen::gen_pieces::<Standard, S>(core, Square::A1, none, targets, NO_FILTER, sink);
        for king in core.board.by_role(Role::King) & core.board.by_color(core.turn) {
            sink.piece(Role::King, king, king_attacks(king) & targets);
        }
        let king_promotions = PawnKind::PromotionWithKing;
        movegen::gen_pawns(
            core,
            Square::A1,
            none,
            pushes,
            captures,
            false,
            king_promotions,
            sink,
        );
    }

    /// The captures (en passant included) into `sink`.
    #[inline(always)]
    fn gen_captures<S: Sink>(&self, sink: &mut S) {
        let theirs = self.core.board.by_color(!self.core.turn);
        self.generate(theirs, Bitboard::EMPTY, Bitboard::FULL, sink);
        gen_ep_moves(&self.core, ep_capturers(&self.core), sink);
    }

    /// The moves that capture nothing.
    #[inline(always)]
    fn gen_quiet<S: Sink>(&self, sink: &mut S) {
        let empty = !self.core.board.occupied();
        self.generate(empty, Bitboard::FULL, Bitboard::EMPTY, sink);
    }

    /// True if a side has no pieces left (the game is over).
    #[inline(always)]
    fn someone_has_nothing(&self) -> bool {
        let board = &self.core.board;
        board.by_color(Color::White).is_empty() || board.by_color(Color::Black).is_empty()
    }
}

impl Rules for Antichess {
    /// Antichess has no castling, so `mode` changes nothing.
    fn from_setup_with(setup: Setup, mode: CastlingMode) -> Result<Antichess, PositionError> {
        validate::no_variant_state(&setup)?;
        let core = validate::core(&setup, mode)?;
        for color in Color::ALL {
            validate::material(&core.board, color)?;
        }
        validate::pawns_off_back_ranks(&core.board)?;
        if core.castling.any() {
            return Err(PositionError::AntichessCastling);
        }
        validate::en_passant(&core)?;
        let mover = !core.turn;
        if core.board.by_color(mover).is_empty() {
            return Err(PositionError::AntichessNoPieces(mover));
        }
        Ok(Antichess { core })
    }

    start_position!(Variant::Antichess);
    core_accessors!(play);

    /// Any en passant capture is legal (a capture is always allowed).
    fn legal_ep_square(&self) -> Option<Square> {
        // A finished game has no moves, en passant included (python-chess agrees).
        if self.someone_has_nothing() {
            return None;
        }
        self.core
            .ep_square
            .filter(|_| ep_capturers(&self.core).any())
    }

    fn legal_moves_into(&self, moves: &mut MoveList) {
        moves.clear();
        if self.someone_has_nothing() {
            return;
        }
        self.gen_captures(moves);
        if moves.is_empty() {
            self.gen_quiet(moves);
        }
    }

    #[inline(always)]
    fn count_legal_moves(&self) -> u64 {
        if self.someone_has_nothing() {
            return 0;
        }
        let mut counter = Counter::default();
        self.gen_captures(&mut counter);
        if counter.0 == 0 {
            self.gen_quiet(&mut counter);
        }
        counter.0
    }

    /// Never: the king is an ordinary piece.
    fn is_check(&self) -> bool {
        false
    }

    fn gives_check(&self, _: Move) -> bool {
        false
    }

    /// A side with no pieces has won; so has a side to move without a move; else the draw by
    /// insufficient material.
    fn outcome(&self) -> Option<Outcome> {
        let board = &self.core.board;
        if let Some(winner) = Color::ALL
            .into_iter()
            .find(|&c| board.by_color(c).is_empty())
        {
            return Some(Outcome::win(winner, Termination::AllPiecesLost));
        }
        if self.count_legal_moves() == 0 {
            return Some(Outcome::win(self.core.turn, Termination::StalemateWin));
        }
        if self.has_insufficient_material(Color::White)
            && self.has_insufficient_material(Color::Black)
        {
            return Some(Outcome::draw(Termination::InsufficientMaterial));
        }
        None
    }

    /// python-chess's rule: a side with pieces left can never lose them all when only bishops
    /// remain and its bishops can never be captured by the opponent's (all on the other square
    /// colour), or when two knights remain and their square colours and the turn keep them
    /// from ever meeting.
    fn has_insufficient_material(&self, color: Color) -> bool {
        let board = &self.core.board;
        let (ours, theirs) = (board.by_color(color), board.by_color(!color));
        if ours.is_empty() {
            return false;
        }
        if theirs.is_empty() {
            return true;
        }
        let occ = board.occupied();
        if occ == board.by_role(Role::Bishop) {
            let (light, dark) = (Bitboard::LIGHT_SQUARES, Bitboard::DARK_SQUARES);
            let they_all_dark = (theirs & light).is_empty();
            let they_all_light = (theirs & dark).is_empty();
            return ((ours & light).any() && they_all_dark)
                || ((ours & dark).any() && they_all_light);
        }
        if occ == board.by_role(Role::Knight) && occ.count() == 2 {
            let white_light = (board.by_color(Color::White) & Bitboard::LIGHT_SQUARES).any();
            let black_dark = (board.by_color(Color::Black) & Bitboard::DARK_SQUARES).any();
            return self.core.turn.is_white() == (color.is_white() ^ white_light ^ black_dark);
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{UciMove, san_plus};

    fn pos(fen: &str) -> Antichess {
        Antichess::from_setup(fen.parse().unwrap()).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    fn moves(fen: &str) -> Vec<String> {
        let mut list = pos(fen).legal_moves();
        list.sort_uci();
        list.iter().map(ToString::to_string).collect()
    }

    /// When a capture exists only captures may be played, en passant included.
    #[test]
    fn captures_are_compulsory() {
        assert_eq!(moves("8/8/8/8/8/3p4/4P3/K7 w - - 0 1"), ["e2d3"]);
        assert_eq!(moves("8/8/8/3pP3/8/8/8/K7 w - d6 0 1"), ["e5d6"]);
        // The king is an ordinary piece: it may walk into attack, and it may capture.
        assert_eq!(moves("8/8/8/8/8/8/1r6/K7 w - - 0 1"), ["a1b2"]);
        assert!(moves("8/8/8/8/8/8/8/K6r w - - 0 1").contains(&"a1a2".to_string()));
    }

    /// Pawns promote to a king too; SAN writes it `=K` and never carries a check suffix.
    #[test]
    fn king_promotion() {
        let p = pos("8/P7/8/8/8/8/8/7k w - - 0 1");
        assert_eq!(p.count_legal_moves(), 5);
        let m = "a7a8k".parse::<UciMove>().unwrap().to_move(&p).unwrap();
        assert_eq!(san_plus(&p, m), "a8=K");
        assert_eq!(p.play(m).unwrap().fen(), "K7/8/8/8/8/8/8/7k b - - 0 1");
    }

    /// Losing every piece wins, being stalemated wins, lone bishops on opposite colours draw.
    #[test]
    fn outcomes() {
        let p = pos("8/8/8/8/8/8/8/K7 b - - 0 1");
        assert_eq!(
            p.outcome(),
            Some(Outcome::win(Color::Black, Termination::AllPiecesLost))
        );
        assert_eq!(p.count_legal_moves(), 0);
        let stuck = pos("8/8/8/8/8/p7/P7/8 w - - 0 1");
        assert_eq!(
            stuck.outcome(),
            Some(Outcome::win(Color::White, Termination::StalemateWin))
        );
        let bishops = pos("8/8/8/8/8/8/b7/B7 w - - 0 1");
        assert_eq!(
            bishops.outcome(),
            Some(Outcome::draw(Termination::InsufficientMaterial))
        );
        let err = |fen: &str| Antichess::from_setup(fen.parse().unwrap()).unwrap_err();
        assert_eq!(
            err("r3k3/8/8/8/8/8/8/4K3 w q - 0 1"),
            PositionError::AntichessCastling
        );
        assert_eq!(
            err("8/8/8/8/8/8/8/K7 w - - 0 1"),
            PositionError::AntichessNoPieces(Color::Black)
        );
    }
}
