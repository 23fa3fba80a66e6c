//! Replica tests: one `redis-server` and several chessd replicas on it (the library's `run`,
//! or the real binary where a replica must die by SIGKILL). Any replica serves any game;
//! watchers on every replica see every event once and in order; racing replicas never both
//! win a ply; a flag falls, and a deserted game is abandoned, with the replica that saw the
//! last move gone; a Redis outage is UNAVAILABLE and NOT_SERVING, then heals by itself; and
//! the same promises on a real three-primary Redis Cluster; due deadlines whose games do not
//! end cannot starve the deadline sweep; the feed resumes on any replica, and a player token
//! revoked on one is refused on every other; entries as earlier builds wrote them still read.
//! Needs `redis-server` and `redis-cli` on PATH.

mod abandon;
mod cli;
mod clocks;
mod cluster;
#[path = "../common/mod.rs"]
mod common;
mod crash;
mod feed;
mod formats;
mod lost_reply;
mod outage;
mod play;
mod presence;
mod race;
mod shared;
mod stale;
mod support;
mod sweep;
mod takebacks;
mod variants;
