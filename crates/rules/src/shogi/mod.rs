//! The shogi family: shogi (9x9) and minishogi (5x5), a third engine beside the 8x8 one and
//! `wide`, sharing only `Color`, `Outcome`, `Termination` and the game record with them. Its
//! boards are `u128` bitboards on one 9x9 numbering; minishogi walls off all but the
//! lower-left 5x5.
//!
//! Layout, bottom to top:
//! - `square`: `ShogiSquare` (FSF and USI names) and the numbering. `attacks`: compile-time
//!   tables and slider lookups. `role`: `ShogiRole`, `ShogiPiece`. `variant`: `ShogiVariant`,
//!   the board data of the two games, each quoting its rule.
//! - `position`: `ShogiPosition` and playing a move. `fen`: FSF's FEN and USI's SFEN both
//!   ways. `mv`: `ShogiMove` (FSF text) and `ShogiUsi`. `sink`: where generated moves go
//!   (`ShogiMoveList`, or a counter). `movegen`: legal moves and perft.
//! - `end`: how the position ends a game (checkmate, no move), the impasse declaration, and
//!   the repetition rules over a record's history. `san`: Western notation (`P-7f`), the
//!   record's SAN. `kif`: KIF export. `family`: what `Game<ShogiPosition>` needs.
//!
//! ```
//! use chessd_rules::shogi::{ShogiPosition, ShogiVariant};
//!
//! let mut pos = ShogiPosition::new(ShogiVariant::Shogi);
//! assert_eq!(pos.perft(2), 900);
//! pos.play("7g7f").unwrap(); // USI; FSF's c3c4 is the same move
//! assert_eq!(
//!     pos.sfen(),
//!     "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
//! );
//! assert!(pos.play("P@e5").is_err());
//! ```

mod attacks;
mod end;
mod family;
mod fen;
mod kif;
mod movegen;
mod mv;
mod position;
mod role;
mod san;
mod sink;
mod square;
mod variant;

pub use attacks::{bishop_attacks, lance_attacks, rook_attacks};
pub use end::{impasse_points, impasse_win, sennichite};
pub use family::{ShogiGame, ShogiStart};
pub use fen::ShogiFenError;
pub use kif::write_kif;
pub use mv::{ParseShogiMoveError, ShogiMove, ShogiUsi, UsiFrom};
pub use position::ShogiPosition;
pub use role::{ShogiPiece, ShogiRole};
pub use san::{western, western_among};
pub use sink::{MAX_SHOGI_MOVES, ShogiMoveList};
pub use square::{ParseShogiSquareError, ShogiSquare, UsiSquare};
pub use variant::{ParseShogiVariantError, ShogiVariant};
