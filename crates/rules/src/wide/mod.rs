//! The wide family: games on boards other than 8x8, up to 12 files by 10 ranks (120 squares),
//! with Capablanca's compound pieces: Los Alamos (6x6), Janus, Embassy, Capablanca and
//! Capablanca Random (10x8), Grand (10x10); and the 8x8 games whose pieces, royalty or win
//! rules the 8x8 engine does not have: Corner, Fortress, BrainKing's Horde, Extinction,
//! Massacre, Maharajah, Amazon, Knightmate, Berolina, Legan, Loop; and the seed site's own
//! Cylinder, Knight Relay, Cheshire Cat, Recycle, Ice Age; and the king-capture games
//! of chance and hidden information: Dark Chess, Dice Chess, Dice Chess 10x10, Behemoth, Ambiguous Chess; and the secret
//! setups of Screen and Crazy Screen Chess. A second engine beside the 8x8
//! one, sharing only `Color`, `Outcome` and `Termination` with it, so the 8x8 games keep their
//! 64-bit speed.
//!
//! Layout, bottom to top:
//! - `square`: `WideSquare` and the shared 12x10 numbering. `attacks`: compile-time tables
//!   and slider lookups on `u128`. `role`: `WideRole`, each piece defined once by its movement.
//! - `variant`: `WideVariant` and `GameDef`, the data a game is made of; one file per game,
//!   each quoting its rule: `losalamos`, `janus`, `embassy`, `capablanca`, `caparandom`,
//!   `grand`, `corner`, `fortress`, `bkhorde`, `extinction`, `massacre`, `maharajah`,
//!   `amazon`, `knightmate`, `berolina`, `legan`, `loop` (drops: the hand lives in
//!   `position`, drop moves in `movegen` and `mv`), `cylinder`, `knightrelay`, `cheshirecat`
//!   and `iceage` (ice cubes and the refreeze), moved by `narrow`, an 8x8 generator of their
//!   own on `u64`s; `recycle` (captures of one's own pieces); the king-capture games: `dark`
//!   (Dark Chess's moves; what each side sees is the service's), `dice` (Dice Chess and Dice Chess 10x10: the
//!   die's roll is position state the server sets), `behemoth` (its obstacle and its step,
//!   which the server draws); `screen` (Screen and Crazy Screen Chess: a half's placement
//!   checked, the two joined into the start); `ambiguous` (Ambiguous Chess: one legal move is
//!   a whole turn, the opponent's target executed and one's own marked).
//! - `position`: `WidePosition` and playing a move. `end`: how a game ends on the board.
//!   `movegen`: legal moves and perft; `pawns`: the pawns' part of it; `difference`: perft's
//!   last two plies counted by difference where no side has check (Extinction); `narrow`:
//!   the 8x8 generator (moves, attacks, play and perft on `u64`s) of Cylinder, Knight Relay,
//!   Cheshire Cat and Ice Age.
//!   `fen`: FEN both ways. `nature`: the games of chance's draws as one value, and a move
//!   played with the draw that follows it. `mv`: `WideMove` and its UCI text `WideUci`. `san`: `WideSan`.
//!   `family`: what the shared game record (`Game<WidePosition>`, `WideGame`) needs of a
//!   position: repetition keys, SAN with marks, reading UCI or SAN, the flag rule.
//!
//! ```
//! use chessd_rules::wide::{WidePosition, WideVariant};
//!
//! let mut pos = WidePosition::new(WideVariant::Janus);
//! assert_eq!(pos.perft(2), 782);
//! pos.play("e2e4").unwrap();
//! assert_eq!(
//!     pos.fen(),
//!     "rjnbkqbnjr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RJNBKQBNJR b KQkq - 0 1"
//! );
//! assert!(pos.play("e7e4").is_err());
//! ```

mod attacks;
mod difference;
mod end;
mod family;
mod fen;
mod movegen;
mod mv;
mod narrow;
mod nature;
mod pawns;
mod position;
mod role;
mod san;
mod square;
#[cfg(test)]
mod testing;
mod variant;
mod visibility;

mod amazon;
mod ambiguous;
mod ambiguous_text;
mod behemoth;
mod berolina;
mod bkhorde;
mod capablanca;
mod caparandom;
mod corner;
mod dark;
mod dice;
mod embassy;
mod extinction;
mod fortress;
mod grand;
mod iceage;
mod janus;
mod knightmate;
mod legan;
mod r#loop;
mod losalamos;
mod maharajah;
mod massacre;
mod recycle;
mod screen;

mod cheshirecat;
mod cylinder;
mod knightrelay;

pub use attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
pub use behemoth::{BehemothStep, Direction, ParseStepError, StepError};
pub use caparandom::{CAPARANDOM_ARRAYS, caparandom_array, caparandom_arrays, is_caparandom_array};
pub use corner::{CORNER_ARRAYS, corner_array};
pub use dice::{Face, ParseFaceError, RollError};
pub use family::{StartChange, WideGame, WideStart};
pub use fen::WideFenError;
pub use massacre::massacre_fen;
pub use mv::{WideMove, WideMoveKind, WideUci, WideUciError};
pub use nature::{Nature, NatureError, ParseNatureError};
pub use position::WidePosition;
pub use role::{Movement, WidePiece, WideRole};
pub use san::{
    WideSan, WideSanError, wide_san, wide_san_among, wide_san_plus, wide_san_plus_among,
};
pub use screen::{
    ScreenHalf, ScreenSetupError, ScreenStart, screen_decided_start, screen_half, screen_start,
};
pub use square::{ParseWideSquareError, WideSquare, board_mask};
pub use variant::{ParseWideVariantError, WideVariant};
