//! chessd's rules engine: standard chess (FIDE), Racing Kings and every other variant lichess
//! plays (Chess960, Three-check, King of the Hill, Antichess, Atomic, Horde, Crazyhouse), with
//! legal move generation on bitboards, game records and notation. Pure: no I/O, no async, no
//! allocation on the move-generation path. The manual is `crates/rules/README.md`.
//!
//! Layout, bottom to top (one concern per file, re-exported flat from here):
//! - `color`, `bycolor`, `role`, `square`, `bitboard`, `pocket`: the vocabulary (`Color`,
//!   `ByColor`, `Role`, `Piece`, `File`, `Rank`, `Square`, `Bitboard`, `Pocket`).
//! - `attacks` (with `build.rs`): attack tables and magic bitboards.
//! - `board`: piece placement. `setup`: an unchecked position and `PositionError`. `fen`: FEN
//!   text <-> `Setup`. `variant`: `Variant`, the games' names. `mv`: `Move`, `MoveList`.
//! - `core`: the state every position shares and unchecked play. `check`: whether a move
//!   gives check, without playing it. `validate`: the checks a
//!   setup passes. `sink`: where generated moves go. `movegen`: the shared generator.
//! - `rules`: the `Rules` trait every position implements, `PlayError`, `FenError`.
//! - One file per variant, each quoting its rule: `chess`, `racingkings`, `chess960`,
//!   `threecheck`, `kingofthehill`, `antichess`, `atomic`, `horde`, `crazyhouse`.
//! - `position`: `Position`, the enum over the variants.
//! - `outcome`: `Outcome`, `Termination`. `game`: `Game`, the record with repetition and
//!   move-count rules. `zobrist`: repetition keys. `uci`, `san`: move notation both ways.
//!   `pgn`: PGN export. `perft`: node counting.
//! - `family`: the `Family` trait a position implements for `Game` to record it; `start`: a
//!   start as a record keeps it (`Start`, by name when it is the variant's own).
//! - `wide`: a second engine family for boards up to 12x10 on `u128` bitboards (Los Alamos,
//!   Janus, Embassy, Capablanca, Capablanca Random, Grand and the 8x8 newcomers), its own
//!   module tree beside the 8x8 one.
//! - `any`: the family-neutral vocabulary the service speaks (`AnyVariant`, `AnyMove`,
//!   `AnyPosition`, `AnyGame`), each an enum over the families, dispatched once per call.
//! - `shogi`: a third engine family, shogi (9x9) and minishogi (5x5) on `u128` bitboards with
//!   drops and promotion, its own module tree; not yet behind `any` or the service.
//! - `xiangqi`: a fourth engine family, Chinese chess on its 9x10 board of points (`u128`
//!   bitboards, 90 bits), its own module tree; not yet behind `any` or the service.
//!
//! ```
//! use chessd_rules::{DrawRule, Game, Position, Rules, Termination, Variant};
//!
//! let mut game = Game::new(Position::new(Variant::Chess), DrawRule::Claim);
//! for m in ["f3", "e5", "g4", "Qh4#"] {
//!     game.play_text(m).unwrap();
//! }
//! assert_eq!(game.outcome().unwrap().result(), "0-1");
//! assert_eq!(Position::new(Variant::RacingKings).legal_moves().len(), 21);
//!
//! // Crazyhouse: a captured pawn goes to the capturer's pocket and is dropped back.
//! let mut zh = Game::new(Position::new(Variant::Crazyhouse), DrawRule::Claim);
//! for m in ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "P@d4"] {
//!     zh.play_text(m).unwrap();
//! }
//! assert_eq!(zh.position().fen(), "rnb1kbnr/ppp1pppp/8/q7/3P4/2N5/PPPP1PPP/R1BQKBNR[p] b KQkq - 3 4");
//!
//! // King of the Hill: the king on d4 wins at once.
//! let mut koth = Game::new(Position::new(Variant::KingOfTheHill), DrawRule::Claim);
//! for m in ["e4", "e5", "Ke2", "Ke7", "Ke3", "Ke6", "d4", "exd4+", "Kxd4"] {
//!     koth.play_text(m).unwrap();
//! }
//! assert_eq!(koth.outcome().unwrap().termination, Termination::KingOfTheHill);
//! ```

#![forbid(unsafe_code)]

// The manual's examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

pub mod attacks;
mod bitboard;
mod board;
mod bycolor;
mod check;
mod color;
mod core;
mod fen;
mod grid;
mod movegen;
mod mv;
mod pocket;
mod role;
mod rules;
mod setup;
mod sink;
mod square;
mod text;
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

mod draw_rule;
mod family;
mod game;
mod outcome;
mod perft;
mod pgn;
mod position;
mod san;
mod start;
mod uci;
mod zobrist;

pub mod any;
pub mod shogi;
pub mod wide;
pub mod xiangqi;

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
pub use draw_rule::{DrawRule, ParseDrawRuleError};
pub use family::Family;
pub use fen::ParseFenError;
pub use game::{ClaimError, DrawClaim, Game, PlayedMove, TakeBackError};
pub use horde::Horde;
pub use kingofthehill::KingOfTheHill;
pub use mv::{MAX_MOVES, Move, MoveKind, MoveList};
pub use outcome::{Outcome, ParseTerminationError, Termination};
pub use perft::{divide, perft};
pub use pgn::{PgnTags, write_pgn};
pub use pocket::Pocket;
pub use position::Position;
pub use racingkings::RacingKings;
pub use role::{Piece, Role};
pub use rules::{FenError, PlayError, Rules};
pub use san::{ParseSanError, San, SanPlus, parse_move, san_of, san_plus, san_plus_among};
pub use setup::{PositionError, Setup};
pub use square::{File, ParseSquareError, Rank, Square};
pub use start::{StandardStart, Start, StartPosition};
pub use text::{Text, WideText};
pub use threecheck::ThreeCheck;
pub use uci::{ParseUciError, UciMove};
pub use variant::{ParseVariantError, Variant};
pub use zobrist::zobrist_hash;
