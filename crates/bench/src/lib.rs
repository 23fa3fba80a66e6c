//! chessd-bench: the load generator of chessd, a client of its public gRPC API.
//!
//! Every benchmark of the service lives here, and its figures (docs/performance.md) come
//! from this crate's binary, `chessd-bench`:
//! - the default mode (`play`): bot games over real gRPC on loopback, with watchers, then idle
//!   games: SubmitMove throughput and latency, WatchGame delivery latency, server CPU and
//!   memory per idle game;
//! - `stores`: SubmitMove in memory and on SQLite, side by side;
//! - `echo`: a bare-tonic echo service and its loads, the yardstick chessd is read against;
//! - `chessd-heap` (its own binary, `heap`): the bytes the memory store keeps per game,
//!   counted by the allocator.
//!
//! The target is a running chessd (`--addr`, loopback only) or, by default, one started in
//! this process through `chessd::run`.
//!
//! Layout, a folder per concern:
//! - `flags`: the command line and its bounds; `error`: [`error::BenchError`].
//! - `server`: the in-process chessd; `channels`: connections and call deadlines.
//! - `load/`: the default mode end to end: `play` (the play phase), `shared` (what its tasks
//!   share), `bots` (the players) with `skim` (their decoding of answers), `watchers` (the
//!   spectators and delivery latency), `idle` (the idle-games phase).
//! - `timed/`: timed games, flaggers and the ramp; `flagfall`: how late flags fall; `many`:
//!   their report lines (flags, memory per game and stream).
//! - `report/`: the printed lines; `measure`: histograms, `/proc` memory and CPU.
//! - `replicas/`: every replica's and every Redis node's cost over a window; `redis_info`:
//!   Redis's INFO.
//! - `stores`: memory against SQLite.
//! - `echo/`: the yardstick's proto, server and loads.

#![forbid(unsafe_code)]

pub mod channels;
pub mod echo;
pub mod error;
pub mod flags;
pub mod heap;
pub mod load;
pub mod replicas;
pub mod report;
pub mod server;
pub mod stores;
pub mod timed;
