//! Integration tests of the gRPC service: each starts the real server (`chessd::run`) on
//! `127.0.0.1:0` and talks to it with the generated client. One test binary, one module per
//! concern.
//!
//! It is also the conformance suite every store backend runs, so no backend can drift from
//! the contract: `CHESSD_TEST_STORE` = `memory` (the default), `sqlite`, `redis` or
//! `redis-cluster` picks the store each test's server uses (see `support`), and CI runs it on
//! each. A test whose expectations depend on the store says so where it checks them.

mod ambiguous;
mod byoyomi;
mod chance;
mod clocks;
#[path = "../common/mod.rs"]
mod common;
mod concurrency;
mod dark;
mod dark_delay;
mod entropy;
mod errors;
mod feed;
mod feed_bounds;
mod games;
mod idempotency;
mod identity;
mod labels;
mod ops;
mod players;
mod presence;
mod screen;
mod screen_leaks;
mod shogi_xiangqi;
mod support;
mod takebacks;
mod variants;
mod views;
mod watch;
mod web;
mod wide_games;
