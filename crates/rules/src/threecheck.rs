//! `ThreeCheck`: the third check wins, as `../shared/RULES.md` specifies it:
//!
//! > A player who gives check for the third time wins at once (a third check that is also
//! > mate is recorded as the third check, as python-chess does); checkmate also wins. FEN
//! > carries the checks: python-chess and Stockfish write the checks *remaining* as an extra
//! > field before the clocks (`... KQkq - 3+3 0 1`), lichess writes the checks *given* at the
//! > end (`... KQkq - 0 1 +0+0`); both are read. Insufficient material: a side with a king
//! > alone can still never win; follow python-chess's `ThreeCheckBoard`.
//!
//! Moves are standard chess's; a position where a side has given its third check has none
//! (the perft convention). FEN is written in python-chess's form (checks left).

use crate::chess::{count_legal_moves_unless, legal_ep_square_unless, legal_moves_unless, outcome};
use crate::core::{CastlingMode, Core};
use crate::rules::{core_accessors, start_position};
use crate::{
    ByColor, Color, Move, MoveList, Outcome, PositionError, Role, Rules, Setup, Square,
    Termination, Variant, validate,
};

/// A validated three-check position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ThreeCheck {
    core: Core,
    /// Checks each side still has to give; 0 means that side has won.
    remaining: ByColor<u8>,
}

impl ThreeCheck {
    /// The checks each side has given (3 minus the checks left), as lichess counts them.
    #[must_use]
    pub fn checks_given(&self) -> ByColor<u8> {
        self.remaining.map(|left| 3 - left)
    }

    /// The side that has given three checks, if any.
    fn winner(&self) -> Option<Color> {
        Color::ALL.into_iter().find(|&c| self.remaining[c] == 0)
    }
}

impl Rules for ThreeCheck {
    fn from_setup_with(mut setup: Setup, mode: CastlingMode) -> Result<ThreeCheck, PositionError> {
        let remaining = setup.remaining_checks.take().unwrap_or(ByColor::new(3, 3));
        if *remaining.white() > 3 || *remaining.black() > 3 {
            return Err(PositionError::ChecksOutOfRange);
        }
        if *remaining.white() == 0 && *remaining.black() == 0 {
            return Err(PositionError::BothChecksSpent);
        }
        Ok(ThreeCheck {
            core: validate::standard(&setup, mode)?,
            remaining,
        })
    }

    start_position!(Variant::ThreeCheck);
    core_accessors!();

    fn remaining_checks(&self) -> Option<ByColor<u8>> {
        Some(self.remaining)
    }

    fn legal_ep_square(&self) -> Option<Square> {
        legal_ep_square_unless(self.winner().is_some(), &self.core)
    }

    fn legal_moves_into(&self, moves: &mut MoveList) {
        legal_moves_unless(self.winner().is_some(), &self.core, moves);
    }

    #[inline(always)]
    fn count_legal_moves(&self) -> u64 {
        count_legal_moves_unless(self.winner().is_some(), &self.core)
    }

    #[inline]
    fn play_unchecked(&mut self, m: Move) {
        let mover = self.core.turn;
        self.core.play_unchecked(m);
        if self.core.checkers().any() {
            let left = &mut self.remaining[mover];
            *left = left.saturating_sub(1);
        }
    }

    fn is_check(&self) -> bool {
        self.core.checkers().any()
    }

    fn gives_check(&self, m: Move) -> bool {
        self.core.gives_check(m)
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner() {
            Some(winner) => Some(Outcome::win(winner, Termination::ThirdCheck)),
            None => outcome(self),
        }
    }

    /// Any piece besides the king can still give check; a bare king cannot.
    fn has_insufficient_material(&self, color: Color) -> bool {
        let board = &self.core.board;
        (board.by_color(color) & !board.by_role(Role::King)).is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{UciMove, san_plus};

    fn pos(fen: &str) -> ThreeCheck {
        ThreeCheck::from_setup(fen.parse().unwrap()).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// Each check counts down the checker's counter; the third wins at once, with no moves left.
    #[test]
    fn third_check_wins() {
        let p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1");
        let m = "a1a8".parse::<UciMove>().unwrap().to_move(&p).unwrap();
        assert_eq!(san_plus(&p, m), "Ra8#");
        let after = p.play(m).unwrap();
        assert_eq!(after.remaining_checks(), Some(ByColor::new(0, 3)));
        assert_eq!(
            after.outcome(),
            Some(Outcome::win(Color::White, Termination::ThirdCheck))
        );
        assert_eq!(after.legal_moves().len(), 0);
        assert_eq!(after.fen(), "R3k3/8/8/8/8/8/8/4K3 b - - 0+3 1 1");
        let quiet = p.play("a1a2".parse::<UciMove>().unwrap().to_move(&p).unwrap());
        assert_eq!(quiet.unwrap().remaining_checks(), Some(ByColor::new(1, 3)));
    }

    /// Counters outside 0-3 and two spent counters are refused; a bare king cannot win.
    #[test]
    fn counters_and_material() {
        let err = |fen: &str| ThreeCheck::from_setup(fen.parse().unwrap()).unwrap_err();
        let mut setup: Setup = "4k3/8/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
        setup.remaining_checks = Some(ByColor::new(4, 3));
        assert_eq!(
            ThreeCheck::from_setup(setup),
            Err(PositionError::ChecksOutOfRange)
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - - 0+0 0 1"),
            PositionError::BothChecksSpent
        );
        let p = pos("4k3/8/8/8/8/8/8/N3K3 w - - 0 1 +2+0");
        assert_eq!(p.checks_given(), ByColor::new(2, 0));
        assert!(!p.has_insufficient_material(Color::White));
        assert!(p.has_insufficient_material(Color::Black));
    }
}
