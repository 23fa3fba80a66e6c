//! `Crazyhouse`: captured pieces change sides and come back as drops, as `../shared/RULES.md`
//! specifies it:
//!
//! > A captured piece changes colour and goes to the capturer's pocket. Instead of moving, a
//! > player may drop a piece from their pocket on any empty square (a pawn never on rank 1 or
//! > 8); a drop may give check or mate. A piece that was promoted turns back into a pawn when
//! > it is captured. FEN writes the pockets after the board, in brackets
//! > (`...RNBQKBNR[Qnp] w ...`) or as a ninth rank (`.../RNBQKBNR/Qnp w ...`), and marks
//! > promoted pieces with `~` (`Q~`); both forms are read, brackets are written. UCI drops are
//! > `P@e4`, `N@f3`; SAN drops are written `P@e4`, `N@f3` (python-chess writes a pawn drop as
//! > `@e4`; both are read). Repetition compares pockets too. Insufficient material never
//! > applies.
//!
//! Board moves are standard chess's; drops go on the squares the generator says answer a check
//! (every empty square when not in check, the blocking squares in single check, none in double
//! check). No fifty- or seventy-five-move rule applies (see `Variant::has_move_count_rule`).

use crate::chess::{legal_moves_into, outcome};
use crate::core::{CastlingMode, Core};
use crate::movegen::{self, NO_FILTER, Standard, ep_victim};
use crate::rules::{core_accessors, start_position};
use crate::sink::{Counter, Sink};
use crate::{
    Bitboard, ByColor, Color, Move, MoveList, Outcome, Pocket, PositionError, Role, Rules, Setup,
    Square, Variant, validate,
};

/// A validated crazyhouse position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Crazyhouse {
    core: Core,
    pockets: ByColor<Pocket>,
    /// Pieces that were pawns: captured, they go to the pocket as pawns.
    promoted: Bitboard,
}

/// The roles a pocket can drop.
const DROPPABLE: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

impl Crazyhouse {
    /// Drops of the side to move onto `squares` (the empty squares that answer any check).
    #[inline(always)]
    fn gen_drops<S: Sink>(&self, squares: Bitboard, sink: &mut S) {
        let pocket = &self.pockets[self.core.turn];
        let empty = squares & !self.core.board.occupied();
        for role in DROPPABLE {
            if pocket.count(role) > 0 {
                let targets = if role == Role::Pawn {
                    empty & !Bitboard::BACKRANKS
                } else {
                    empty
                };
                sink.drops(role, targets);
            }
        }
    }
}

impl Rules for Crazyhouse {
    fn from_setup_with(mut setup: Setup, mode: CastlingMode) -> Result<Crazyhouse, PositionError> {
        validate::no_checks(&setup)?;
        let pockets = setup.pockets.take().unwrap_or_default();
        let promoted = core::mem::take(&mut setup.promoted);
        let core = validate::core(&setup, mode)?;
        let board = &core.board;
        for color in Color::ALL {
            if pockets[color].count(Role::King) > 0 {
                return Err(PositionError::KingInPocket(color));
            }
            validate::one_king(board, color)?;
        }
        // Captured pieces change sides, so only the totals are bounded.
        let in_hand = pockets.white().total() + pockets.black().total();
        let pawns = board.by_role(Role::Pawn).count()
            + u32::from(pockets.white().count(Role::Pawn))
            + u32::from(pockets.black().count(Role::Pawn));
        if board.occupied().count() + in_hand > 32 || pawns > 16 {
            return Err(PositionError::TooMuchMaterial);
        }
        let promotable = board.occupied() & !board.by_role(Role::Pawn) & !board.by_role(Role::King);
        if (promoted & !promotable).any() {
            return Err(PositionError::InvalidPromotedMark);
        }
        validate::pawns_off_back_ranks(board)?;
        validate::not_opposite_check(&core)?;
        validate::castling(&core)?;
        validate::en_passant(&core)?;
        validate::checkers(&core)?;
        Ok(Crazyhouse {
            core,
            pockets,
            promoted,
        })
    }

    start_position!(Variant::Crazyhouse);
    core_accessors!();

    fn pockets(&self) -> Option<ByColor<Pocket>> {
        Some(self.pockets)
    }

    fn promoted(&self) -> Bitboard {
        self.promoted
    }

    fn legal_ep_square(&self) -> Option<Square> {
        movegen::legal_ep_square(&self.core)
    }

    fn legal_moves_into(&self, moves: &mut MoveList) {
        let answers = legal_moves_into(&self.core, moves);
        self.gen_drops(answers, moves);
    }

    #[inline(always)]
    fn count_legal_moves(&self) -> u64 {
        let mut counter = Counter::default();
        let answers = movegen::generate::<Standard, _>(&self.core, NO_FILTER, &mut counter);
        self.gen_drops(answers, &mut counter);
        counter.0
    }

    #[inline]
    fn play_unchecked(&mut self, m: Move) {
        let us = self.core.turn;
        if m.is_drop() {
            self.pockets[us].remove(m.role());
            self.core.play_drop(m.role(), m.to());
            return;
        }
        let victim = if m.is_en_passant() {
            Some(ep_victim(us, m.to()))
        } else {
            Some(m.to()).filter(|&to| self.core.board.by_color(!us).contains(to))
        };
        if let Some(sq) = victim {
            let role = if self.promoted.contains(sq) {
                Role::Pawn
            } else {
                self.core.board.role_at_occupied(sq)
            };
            self.pockets[us].add(role);
            self.promoted = self.promoted.without(sq);
        }
        if self.promoted.contains(m.from()) {
            self.promoted = self.promoted.without(m.from()).with(m.to());
        }
        if m.promotion().is_some() {
            self.promoted = self.promoted.with(m.to());
        }
        self.core.play_unchecked(m);
    }

    fn is_check(&self) -> bool {
        self.core.checkers().any()
    }

    fn gives_check(&self, m: Move) -> bool {
        self.core.gives_check(m)
    }

    fn outcome(&self) -> Option<Outcome> {
        outcome(self)
    }

    /// Never: every captured piece comes back.
    fn has_insufficient_material(&self, _color: Color) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Position, UciMove, parse_move, san_plus};

    fn pos(fen: &str) -> Crazyhouse {
        Crazyhouse::from_setup(fen.parse().unwrap()).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// A capture fills the capturer's pocket; a drop empties it; SAN and UCI write `N@f3`.
    #[test]
    fn captures_and_drops() {
        let p = pos("4k3/8/8/3n4/4P3/8/8/4K3[] w - - 0 1");
        let after = p
            .play("e4d5".parse::<UciMove>().unwrap().to_move(&p).unwrap())
            .unwrap();
        assert_eq!(after.fen(), "4k3/8/8/3P4/8/8/8/4K3[N] b - - 0 1");
        let p = pos("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
        let drop = parse_move(&p, "N@f3").unwrap();
        assert_eq!(drop, Move::drop(Role::Knight, Square::F3));
        assert_eq!(san_plus(&p, drop), "N@f3");
        assert_eq!(
            p.play(drop).unwrap().fen(),
            "4k3/8/8/8/8/5N2/8/4K3[] b - - 1 1"
        );
        // Pawns are never dropped on the back ranks.
        let p = pos("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1");
        assert_eq!(p.count_legal_moves(), 5 + 48);
        assert_eq!(parse_move(&p, "@e4"), parse_move(&p, "P@e4"));
    }

    /// A promoted piece is marked and goes back to the pocket as a pawn when captured.
    #[test]
    fn promoted_pieces_revert() {
        let p = pos("3r2k1/2P5/8/8/8/8/8/4K3[] w - - 0 1");
        let m = "c7d8q".parse::<UciMove>().unwrap().to_move(&p).unwrap();
        let after = p.play(m).unwrap();
        assert_eq!(after.fen(), "3Q~2k1/8/8/8/8/8/8/4K3[R] b - - 0 1");
        let back = pos("3Q~2k1/8/8/8/8/8/3r4/4K3[] b - - 0 1");
        let m = "d2d8".parse::<UciMove>().unwrap().to_move(&back).unwrap();
        assert_eq!(
            back.play(m).unwrap().fen(),
            "3r2k1/8/8/8/8/8/8/4K3[p] w - - 0 2"
        );
    }

    /// In check, drops may only block; in double check there are none.
    #[test]
    fn drops_answer_checks() {
        let p = pos("4k3/8/8/8/8/8/8/r3K3[Q] w - - 0 1");
        let drops: Vec<String> = p
            .legal_moves()
            .iter()
            .filter(|m| m.is_drop())
            .map(ToString::to_string)
            .collect();
        assert_eq!(drops, ["Q@b1", "Q@c1", "Q@d1"]);
        let err = |fen: &str| Crazyhouse::from_setup(fen.parse().unwrap()).unwrap_err();
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3[K] w - - 0 1"),
            PositionError::KingInPocket(Color::White)
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3[PPPPPPPPPPPPPPPPP] w - - 0 1"),
            PositionError::TooMuchMaterial
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3[] w - - 2+3 0 1"),
            PositionError::UnexpectedChecks
        );
        assert_eq!(
            Position::from_fen(crate::Variant::Chess, "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1")
                .unwrap_err()
                .to_string(),
            "pockets are only for crazyhouse"
        );
    }
}
