//! The engine side: UCI (or USI) over a child process's pipes.
//!
//! - `line`: bounded line reading (an engine's output is untrusted).
//! - `message`: the engine's lines parsed (`uciok`, `option`, `info ... score`, `bestmove`).
//! - `usi`: USI, the shogi engines' protocol, as a dialect: commands and answers converted
//!   between the server's notation and USI's.
//! - `engine`: the process, its handshake and option checks, commands, kill and quit.

pub mod engine;
pub mod line;
pub mod message;
pub mod usi;

pub use engine::{Engine, EngineError, EngineEvent, EngineSpec, Setup};
pub use message::{EngineMessage, Score};
pub use usi::{GameOver, Protocol};
