//! Every game chessd plays, whatever its engine: [`AnyVariant`], [`AnyMove`],
//! [`AnyPosition`] and [`AnyGame`], each an enum over the two engine families (the 8x8
//! engine's `Variant`/`Move`/`Position`/`Game` and the wide family's), dispatched once per
//! call. This is the vocabulary the service speaks: it stores, replays and encodes games
//! without knowing which engine plays them, and a family added later is one arm more here.

mod game;
mod mv;
mod position;
mod variant;

pub use game::AnyGame;
pub use mv::{AnyMove, UciText};
pub use position::{AnyFenError, AnyPosition, AnyStart, HandPiece};
pub use variant::{AnyVariant, ParseAnyVariantError};
