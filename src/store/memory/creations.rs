//! The CreateGame requests answered under a request id, oldest forgotten first beyond
//! `REMEMBERED_CREATIONS`: what a retried creation is answered from.

use std::collections::{HashMap, VecDeque};

use chessd_rules::ByColor;

use crate::game::{GameId, SeatToken};
use crate::store::config::REMEMBERED_CREATIONS;

/// The creations answered under a request id, oldest forgotten first.
#[derive(Debug, Default)]
pub(super) struct Creations {
    /// Hashed request id to the creation it made.
    by_key: HashMap<u64, Creation>,
    /// Keys oldest first, at most `REMEMBERED_CREATIONS`.
    order: VecDeque<u64>,
}

/// A CreateGame answered under a request id.
#[derive(Debug)]
pub(super) struct Creation {
    /// The fingerprint of the request: a retry must match it.
    pub fingerprint: u64,
    pub game: GameId,
    /// The clear seat tokens, so a retry gets the same answer. Held only here, in this
    /// process's memory (game records and storage hold digests), and only for games created
    /// by this process: a game restored from storage has `None`, and a retry of its creation
    /// is told the tokens are gone rather than given new ones.
    pub tokens: Option<ByColor<Option<SeatToken>>>,
}

impl Creations {
    /// The creation answered under `key`.
    pub(super) fn get(&self, key: u64) -> Option<&Creation> {
        self.by_key.get(&key)
    }

    /// Remembers a creation under `key`, forgetting the oldest beyond the bound.
    pub(super) fn remember(&mut self, key: u64, creation: Creation) {
        if self.order.len() == REMEMBERED_CREATIONS
            && let Some(oldest) = self.order.pop_front()
        {
            self.by_key.remove(&oldest);
        }
        self.order.push_back(key);
        self.by_key.insert(key, creation);
    }
}
