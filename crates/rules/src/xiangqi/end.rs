//! How a xiangqi game ends on the board alone, as GAMES.md section 4 gives it: "checkmate
//! wins. **Stalemate (no legal move) loses.**" and "**Dead position**: drawn when neither side
//! has a chariot, horse, cannon or soldier." (The repetition and no-capture rules need the
//! game's history: `repetition`.)

use super::position::XiangqiPosition;
use super::role::XiangqiRole;
use crate::{Color, Outcome, Termination};

impl XiangqiPosition {
    /// The end this position decides: the side to move without a legal move loses (by
    /// [`Termination::Checkmate`] in check, else [`Termination::StalemateLoss`]); with no attacking piece left on either side, a draw by
    /// [`Termination::InsufficientMaterial`].
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_move() {
            let termination = if self.is_check() {
                Termination::Checkmate
            } else {
                Termination::StalemateLoss
            };
            return Some(Outcome::win(!self.turn, termination));
        }
        if self.lacks_attackers(Color::White) && self.lacks_attackers(Color::Black) {
            return Some(Outcome::draw(Termination::InsufficientMaterial));
        }
        None
    }

    /// `color` has no chariot, horse, cannon or soldier: general, advisors and elephants
    /// alone never leave their own half (Fairy-Stockfish's insufficient material for a side).
    #[must_use]
    pub fn lacks_attackers(&self, color: Color) -> bool {
        let attackers = self.roles[XiangqiRole::Chariot.index()]
            | self.roles[XiangqiRole::Horse.index()]
            | self.roles[XiangqiRole::Cannon.index()]
            | self.roles[XiangqiRole::Soldier.index()];
        attackers & self.side(color) == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(fen: &str) -> Option<Outcome> {
        XiangqiPosition::from_fen(fen).unwrap().outcome()
    }

    /// Mate by two chariots, the flying general covering e10.
    #[test]
    fn checkmate() {
        assert_eq!(
            outcome("R2k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1"),
            None,
            "d9 is free"
        );
        assert_eq!(
            outcome("R2k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1"),
            Some(Outcome::win(Color::White, Termination::Checkmate))
        );
    }

    /// No legal move and no check: the side to move loses.
    #[test]
    fn stalemate_loses() {
        // Black's general on d10 has e10 (faces Red's general on e1) and d9 (the chariot on
        // the ninth rank) and nothing else.
        assert_eq!(
            outcome("3k5/1R7/9/9/9/9/9/9/9/4K4 b - - 0 1"),
            Some(Outcome::win(Color::White, Termination::StalemateLoss))
        );
    }

    /// Generals, advisors and elephants alone can never mate.
    #[test]
    fn dead_position() {
        assert_eq!(
            outcome("3akab2/9/9/9/9/9/9/9/4A4/3AK1B2 w - - 0 1"),
            Some(Outcome::draw(Termination::InsufficientMaterial))
        );
        assert_eq!(
            outcome("3akab2/9/9/9/9/9/8P/9/4A4/3AK1B2 w - - 0 1").map(|o| o.termination),
            None
        );
    }
}
