//! `KingOfTheHill`: a king on the centre wins, as `../shared/RULES.md` specifies it:
//!
//! > A player whose king reaches one of the four centre squares d4, e4, d5, e5 wins at once
//! > (the king may not step into check to get there). Insufficient material never applies
//! > (a lone king can still reach the hill).
//!
//! Moves are standard chess's; a position with a king on the hill has none (the perft
//! convention).

use crate::chess::{count_legal_moves_unless, legal_ep_square_unless, legal_moves_unless, outcome};
use crate::core::{CastlingMode, Core};
use crate::rules::{core_accessors, start_position};
use crate::{
    Bitboard, Color, Move, MoveList, Outcome, PositionError, Role, Rules, Setup, Square,
    Termination, Variant, validate,
};

/// A validated King of the Hill position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KingOfTheHill {
    core: Core,
}

impl KingOfTheHill {
    /// The side whose king stands on the hill, if any (both cannot: the four squares touch).
    #[inline(always)]
    fn king_on_hill(&self) -> Option<Color> {
        let on_hill = self.core.board.by_role(Role::King) & Bitboard::CENTER;
        if on_hill.is_empty() {
            return None;
        }
        Color::ALL
            .into_iter()
            .find(|&c| (on_hill & self.core.board.by_color(c)).any())
    }
}

impl Rules for KingOfTheHill {
    fn from_setup_with(setup: Setup, mode: CastlingMode) -> Result<KingOfTheHill, PositionError> {
        Ok(KingOfTheHill {
            core: validate::standard(&setup, mode)?,
        })
    }

    start_position!(Variant::KingOfTheHill);
    core_accessors!(play);

    fn legal_ep_square(&self) -> Option<Square> {
        legal_ep_square_unless(self.king_on_hill().is_some(), &self.core)
    }

    fn legal_moves_into(&self, moves: &mut MoveList) {
        legal_moves_unless(self.king_on_hill().is_some(), &self.core, moves);
    }

    #[inline(always)]
    fn count_legal_moves(&self) -> u64 {
        count_legal_moves_unless(self.king_on_hill().is_some(), &self.core)
    }

    fn is_check(&self) -> bool {
        self.core.checkers().any()
    }

    fn gives_check(&self, m: Move) -> bool {
        self.core.gives_check(m)
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.king_on_hill() {
            Some(winner) => Some(Outcome::win(winner, Termination::KingOfTheHill)),
            None => outcome(self),
        }
    }

    fn has_insufficient_material(&self, _color: Color) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::UciMove;

    fn pos(fen: &str) -> KingOfTheHill {
        KingOfTheHill::from_setup(fen.parse().unwrap()).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// A king stepping on e4 wins; it may not step there into check; a lone king can still win.
    #[test]
    fn the_hill() {
        let p = pos("4k3/8/8/8/8/4K3/8/8 w - - 0 1");
        assert!(!p.has_insufficient_material(Color::White));
        let won = p
            .play("e3e4".parse::<UciMove>().unwrap().to_move(&p).unwrap())
            .unwrap();
        assert_eq!(
            won.outcome(),
            Some(Outcome::win(Color::White, Termination::KingOfTheHill))
        );
        assert_eq!(won.count_legal_moves(), 0);
        // A black rook on the fourth rank guards e4 and d4.
        let guarded = pos("4k3/8/8/8/r7/4K3/8/8 w - - 0 1");
        let ms: Vec<String> = guarded
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert!(!ms.iter().any(|m| m == "e3e4" || m == "e3d4"), "{ms:?}");
    }
}
