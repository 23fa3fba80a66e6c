//! The memory store's shared state ([`Inner`]): the sharded game maps, the live count, the
//! finished games kept, the creations remembered, the result counts, the deadline queue, the
//! feed, the player tokens and the durability hook. The operations on it live beside it, one concern per file (`games`,
//! `create`, `list`).

use std::collections::hash_map::RandomState;
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use chessd_rules::any::AnyVariant;

use crate::error::ServiceError;
use crate::game::GameId;
use crate::store::config::StoreLimits;
use crate::store::feed::log::FeedLog;
use crate::store::memory::creations::Creations;
use crate::store::memory::durable::Durability;
use crate::store::memory::entry::GameEntry;
use crate::store::memory::timer::DeadlineQueue;
use crate::store::store_error::StoreError;
use crate::store::tokens::PlayerTokens;

/// Independent game maps (a power of two comfortably above the core count).
pub(super) const SHARDS: usize = 16;

/// Some of the games, by id. A map lock is held only to find, insert or remove an entry, never
/// while a game is being changed.
pub(super) type Shard = RwLock<BTreeMap<GameId, Arc<GameEntry>>>;

#[derive(Debug)]
pub(super) struct Inner {
    pub shards: Box<[Shard]>,
    pub limits: StoreLimits,
    /// Ongoing games; reserved before a game is made so the limit is never overshot.
    pub live: AtomicUsize,
    /// Finished games with the time they ended (ms since the epoch), oldest first, for
    /// retention. A std mutex: push/pop only.
    pub finished: Mutex<VecDeque<(GameId, u64)>>,
    /// CreateGame request ids already answered. A std mutex held across one creation (no
    /// await), so two concurrent retries cannot both create a game.
    pub creations: Mutex<Creations>,
    /// Results per variant, indexed by the variant's place in `AnyVariant::all`.
    pub results: [ResultCounters; AnyVariant::COUNT],
    pub deadlines: Arc<DeadlineQueue>,
    /// Keyed SipHash for request ids, so clients cannot aim collisions at each other.
    pub hasher: RandomState,
    /// Where changes go to be made durable (the durable store's journal), if anywhere.
    pub durable: Durability,
    /// The feed (WatchGames). Without a journal, changes append to it under the game's lock;
    /// with one, the writer appends what it committed.
    pub feed: Arc<FeedLog>,
    pub tokens: PlayerTokens,
}

/// One variant's result counts.
#[derive(Debug, Default)]
pub(super) struct ResultCounters {
    pub white: AtomicU64,
    pub black: AtomicU64,
    pub draws: AtomicU64,
}

impl Inner {
    pub(super) fn new(limits: StoreLimits, durable: Durability, feed: Arc<FeedLog>) -> Inner {
        Inner {
            shards: (0..SHARDS).map(|_| RwLock::default()).collect(),
            limits,
            live: AtomicUsize::new(0),
            finished: Mutex::default(),
            creations: Mutex::default(),
            results: std::array::from_fn(|_| ResultCounters::default()),
            deadlines: Arc::default(),
            hasher: RandomState::new(),
            durable,
            feed,
            tokens: PlayerTokens::default(),
        }
    }

    pub(super) fn shard(&self, id: GameId) -> &Shard {
        &self.shards[id.get() as usize % SHARDS]
    }

    pub(super) fn find(&self, id: GameId) -> Result<Arc<GameEntry>, ServiceError> {
        let map = self
            .shard(id)
            .read()
            .unwrap_or_else(PoisonError::into_inner);
        map.get(&id)
            .cloned()
            .ok_or(ServiceError::Store(StoreError::GameNotFound { id }))
    }

    pub(super) fn insert(&self, entry: Arc<GameEntry>) {
        self.shard(entry.id())
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(entry.id(), entry);
    }

    pub(super) fn remove(&self, ids: &[GameId]) {
        for id in ids {
            self.shard(*id)
                .write()
                .unwrap_or_else(PoisonError::into_inner)
                .remove(id);
        }
    }

    /// The result counts of `variant`.
    pub(super) fn results(&self, variant: AnyVariant) -> &ResultCounters {
        &self.results[variant.index()]
    }
}
