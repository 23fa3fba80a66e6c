//! Every game chessd plays, whatever its engine: [`AnyVariant`], [`AnyMove`],
//! [`AnyPosition`] and [`AnyGame`], each an enum over the engine families (the 8x8 engine's
//! `Variant`/`Move`/`Position`/`Game`, the wide family's, the shogi family's and xiangqi's),
//! dispatched once per call. This is the vocabulary the service speaks: it stores, replays and
//! encodes games without knowing which engine plays them, and a family added later is one arm
//! more in `each!` and a `Member` implementation.

/// Evaluates `$body` with `$x` bound to the value in whichever family's arm `$value` holds:
/// the one list of the families, for code that reads the same in each.
macro_rules! each {
    ($ty:ident, $value:expr, $x:ident => $body:expr) => {
        match $value {
            $ty::Std($x) => $body,
            $ty::Wide($x) => $body,
            $ty::Shogi($x) => $body,
            $ty::Xiangqi($x) => $body,
        }
    };
}

mod game;
mod member;
mod mv;
mod perft;
mod position;
mod syntax;
mod unplayed;
mod variant;

pub use game::AnyGame;
pub use mv::{AnyMove, UciText};
pub use position::{AnyFenError, AnyPosition, AnyStart, HandPiece};
pub use syntax::is_move_syntax;
pub use unplayed::Unplayed;
pub use variant::{AnyVariant, ParseAnyVariantError};

use member::Member;
