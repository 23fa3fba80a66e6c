//! A record's offers: whether the game allows takebacks, and the draw offer and takeback
//! proposal that stand (the rules for making and answering them are in `apply` and
//! `takeback`; here is what a move, the game's end or a takeback does to them).

use chessd_rules::Color;

use crate::game::log::offer_after_move;
use crate::game::takeback::TakebackPolicy;

/// The offers of one game.
#[derive(Clone, Copy, Debug)]
pub(super) struct Offers {
    /// The side whose draw offer stands.
    pub(super) draw: Option<Color>,
    /// The side whose takeback proposal stands.
    pub(super) takeback: Option<Color>,
    pub(super) policy: TakebackPolicy,
}

impl Offers {
    /// No offer standing; takebacks as `policy` says.
    pub(super) fn new(policy: TakebackPolicy) -> Offers {
        Offers {
            draw: None,
            takeback: None,
            policy,
        }
    }

    /// `mover` moved: the move declines the opponent's draw offer (a mover's own stands), and
    /// a takeback proposal falls, since it would now take back other moves.
    pub(super) fn after_move(&mut self, mover: Color) {
        self.draw = offer_after_move(self.draw, mover);
        self.takeback = None;
    }

    /// The game ended, or went back to a position the offers were not made in.
    pub(super) fn clear(&mut self) {
        self.draw = None;
        self.takeback = None;
    }
}
