//! Durability tests: each runs the real `chessd` binary as a child process with `--data-dir`,
//! kills or stops it, starts it again on the same directory and checks over gRPC that nothing
//! acknowledged was lost. One test binary, one module per concern.

mod abandon;
mod clocks;
#[path = "../common/mod.rs"]
mod common;
mod crash;
mod entropy;
mod feed;
mod legacy;
mod presence;
mod recovery;
mod startup;
mod support;
mod takebacks;
mod tokens;
mod variants;
