//! The gRPC API: the GameService handlers over a store, and what sits between them and the
//! wire.
//!
//! - `service`: [`GameApi`], the handlers: decode, call the store, encode.
//! - `call`: what every handler does around its work (span, log line, metrics, status) and the
//!   credentials a call carries.
//! - `decode`, `encode`: the only code that knows both the protobuf types and the domain's
//!   (`clocks`: the clock requests' decoding; `fields`: the smallest fields, shared);
//!   `pgn`: ExportPgn's text; `presence`: seats' presence and claim times on the wire;
//!   `board`: geometry, hands, pockets and check counts; `variant_key`: a game's identity by
//!   its stable key, both ways.
//! - `error`: [`error::RequestError`], what the API refuses in a request before any game
//!   is read.
//! - `watch/`: the WatchGame stream, its pump task and the per-address watcher bounds.
//! - `feed/`: the WatchGames stream (the deployment-wide feed), its pump and its bounds.
//! - `refusals`: tonic's own refusals (oversized, undecodable, unknown method) recoded to
//!   chessd's errors.

pub(crate) mod board;
pub(crate) mod call;
pub mod clocks;
pub mod decode;
pub mod encode;
pub mod error;
pub(crate) mod feed;
pub mod fen;
pub mod fields;
pub mod move_lists;
pub(crate) mod pgn;
pub(crate) mod presence;
pub(crate) mod refusals;
pub(crate) mod service;
pub(crate) mod start;
pub mod variant_key;
pub(crate) mod watch;

pub use self::service::{ApiConfig, GameApi};
