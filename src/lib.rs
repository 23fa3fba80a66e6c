//! chessd: a gRPC game-state service for chess and Racing Kings.
//!
//! Layout:
//! - `perft_cmd`: the `chessd perft` command-line entry over the rules engine.
//! - The rules engine itself is the `chessd-rules` crate (`crates/rules`).

pub mod perft_cmd;
