//! Replica tests: one `redis-server` and several chessd replicas on it (the library's `run`,
//! or the real binary where a replica must die by SIGKILL). Any replica serves any game;
//! watchers on every replica see every event once and in order; racing replicas never both
//! win a ply; a flag falls, and a deserted game is abandoned, with the replica that saw the
//! last move gone; a Redis outage is UNAVAILABLE and NOT_SERVING, then heals by itself. Needs
//! `redis-server` on PATH.

mod abandon;
mod cli;
#[path = "../common/mod.rs"]
mod common;
mod crash;
mod outage;
mod play;
mod race;
mod shared;
mod support;
