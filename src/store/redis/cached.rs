//! [`Cached`]: a game as a replica last saw it (what never changes, and the record as of its
//! last event this replica read or wrote).

use std::sync::Arc;

use crate::game::GameRecord;
use crate::store::redis::codec::Meta;

/// A game as a replica last saw it.
#[derive(Debug)]
pub(super) struct Cached {
    pub meta: Arc<Meta>,
    /// The game as of its last event this replica read or wrote.
    pub record: GameRecord,
}
