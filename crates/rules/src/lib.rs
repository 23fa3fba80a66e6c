//! chessd's rules engine: standard chess (FIDE) and Racing Kings (lichess rules), with legal
//! move generation on bitboards, game records and notation. Pure: no I/O, no async, no
//! allocation on the move-generation path.
//!
//! Layout (one concern per file, re-exported flat from here):
//! - `color`, `role`, `square`, `bitboard`: the vocabulary (`Color`, `Role`, `Piece`, `File`,
//!   `Rank`, `Square`, `Bitboard`).
//! - `attacks` (with `build.rs`): attack tables and magic bitboards.
//! - `board`: piece placement. `setup`: an unchecked position and `PositionError`.
//! - `fen`: FEN text <-> `Setup`.
//! - `mv`: `Move`, `MoveList`. `movegen`: the legal move generator both variants share.
//! - `position`: the `Rules` trait, shared state, and `Position`, the enum over variants.
//! - `chess`: standard chess rules. `racingkings`: the Racing Kings rules (quoted there).
//! - `outcome`: `Outcome`, `Termination`. `game`: `Game`, the record with repetition and
//!   move-count rules. `zobrist`: repetition keys.
//! - `uci`, `san`: move notation both ways. `pgn`: PGN export. `perft`: node counting.
//!
//! ```
//! use chessd_rules::{Game, DrawRule, Position, Variant, Rules};
//!
//! let mut game = Game::new(Position::new(Variant::Chess), DrawRule::Claim);
//! for m in ["f3", "e5", "g4", "Qh4#"] {
//!     game.play_text(m).unwrap();
//! }
//! assert_eq!(game.outcome().unwrap().result(), "0-1");
//! assert_eq!(Position::new(Variant::RacingKings).legal_moves().len(), 21);
//! ```

#![forbid(unsafe_code)]

pub mod attacks;
mod bitboard;
mod board;
mod bycolor;
mod color;
mod core;
mod fen;
mod movegen;
mod mv;
mod pocket;
mod role;
mod rules;
mod setup;
mod sink;
mod square;
mod validate;
mod variant;

mod antichess;
mod atomic;
mod chess;
mod chess960;
mod crazyhouse;
mod horde;
mod kingofthehill;
mod racingkings;
mod threecheck;

mod game;
mod outcome;
mod perft;
mod pgn;
mod position;
mod san;
mod uci;
mod zobrist;

pub use crate::core::CastlingMode;
pub use antichess::Antichess;
pub use atomic::Atomic;
pub use bitboard::Bitboard;
pub use board::Board;
pub use bycolor::ByColor;
pub use chess::Chess;
pub use chess960::{Chess960, InvalidStartNumber};
pub use color::Color;
pub use crazyhouse::Crazyhouse;
pub use fen::ParseFenError;
pub use game::{ClaimError, DrawClaim, DrawRule, Game, PlayedMove};
pub use horde::Horde;
pub use kingofthehill::KingOfTheHill;
pub use mv::{MAX_MOVES, Move, MoveKind, MoveList};
pub use outcome::{Outcome, Termination};
pub use perft::{divide, perft};
pub use pgn::{PgnTags, write_pgn};
pub use pocket::Pocket;
pub use position::Position;
pub use racingkings::RacingKings;
pub use role::{Piece, Role};
pub use rules::{FenError, PlayError, Rules};
pub use san::{ParseSanError, San, parse_move, san_of, san_plus};
pub use setup::{PositionError, Setup};
pub use square::{File, ParseSquareError, Rank, Square};
pub use threecheck::ThreeCheck;
pub use uci::{ParseUciError, UciMove};
pub use variant::{ParseVariantError, Variant};
pub use zobrist::zobrist_hash;
