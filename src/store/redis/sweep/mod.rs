//! The Redis store's background work, run by every replica: the readiness probe, the
//! deadline sweep and the finished-games sweep. Each task holds the store weakly and stops
//! with it.
//!
//! - `ready`: the readiness probe (Redis answers, the cluster is whole, no old-layout keys).
//! - `deadlines`: the deadline sweep (flags and abandonment).
//! - `trim`: the finished-games and feed trims, under one lease.
//!
//! Every bucket (`keys::BUCKETS`) is swept by every replica, one command per bucket: the
//! buckets are in different cluster slots.

mod deadlines;
mod ready;
mod trim;

pub(super) use self::deadlines::flags;
pub(super) use self::ready::probe;
pub(super) use self::trim::finished;
