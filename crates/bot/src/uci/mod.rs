//! The engine side: UCI over a child process's pipes.
//!
//! - `line`: bounded line reading (an engine's output is untrusted).
//! - `message`: the engine's lines parsed (`uciok`, `option`, `info ... score`, `bestmove`).
//! - `engine`: the process, its handshake and option checks, commands, kill and quit.

pub mod engine;
pub mod line;
pub mod message;

pub use engine::{Engine, EngineError, EngineEvent, EngineSpec, Setup};
pub use message::{EngineMessage, Score};
