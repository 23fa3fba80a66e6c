//! The memory store's one hook for durability: without a journal (the default) every step is
//! a no-op; with one (the durable store, see `store::journal` and `store::sqlite`) a call takes
//! a place in the journal's queue before the game's lock, queues its change under the lock,
//! and answers only once the change is committed.

use std::sync::Arc;

use crate::error::ServiceError;
use crate::game::GameId;
use crate::store::journal::{Change, Journal, Place};

/// Where changes go to be made durable, if anywhere.
#[derive(Debug, Default)]
pub(super) struct Durability {
    journal: Option<Arc<Journal>>,
}

impl Durability {
    /// Changes go through `journal`.
    #[must_use]
    pub(super) fn journaled(journal: Arc<Journal>) -> Durability {
        Durability {
            journal: Some(journal),
        }
    }

    /// A place in the queue for one change, taken before a game's lock: reserving waits while
    /// the writer is behind (the backpressure), sending under the lock then never does.
    /// `None` without a journal.
    pub(super) async fn reserve(&self) -> Result<Option<Place>, ServiceError> {
        match &self.journal {
            None => Ok(None),
            Some(journal) => journal.reserve().await.map(Some),
        }
    }

    /// Waits until the change with `ticket` is committed (at once without a journal).
    pub(super) async fn wait(&self, ticket: u64) -> Result<(), ServiceError> {
        match &self.journal {
            None => Ok(()),
            Some(journal) => journal.wait(ticket).await,
        }
    }

    /// Deletes forgotten games from storage too. Nobody waits for it: a game still stored
    /// after a crash is forgotten again when the store starts.
    pub(super) async fn forget(&self, forgotten: Vec<GameId>) {
        let Some(journal) = &self.journal else { return };
        if forgotten.is_empty() {
            return;
        }
        if let Ok(place) = journal.reserve().await {
            place.send(Change::Forget(forgotten), None);
        }
    }
}
