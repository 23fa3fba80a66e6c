//! The journal: the ordered queue of changes a durable store must commit before it answers.
//!
//! It knows nothing of SQLite: it numbers changes with tickets, carries them to one writer over
//! a bounded channel, and lets callers wait until their ticket is committed. The writer (see
//! `sqlite`) takes whatever is queued, commits it as one transaction (group commit), then
//! publishes the batch's events to watchers and raises the committed watermark.
//!
//! Why it is shaped this way:
//! - A caller reserves a channel slot *before* it takes a game's lock (reserving may wait when
//!   the writer is behind: that is the backpressure), then sends under the lock. Sending is then
//!   instant, so no lock is held across an `.await`, and a game's changes enter the queue in the
//!   order the game made them.
//! - Tickets are drawn and sent under one tiny mutex, so the queue holds them in increasing
//!   order; the writer commits in queue order, so "ticket `t` committed" means "every change up
//!   to `t` committed", and one watermark (a `tokio::sync::watch`) answers every waiter. A read
//!   of a game waits for that game's last ticket, so nobody sees a change that a crash could
//!   still take back.
//! - Watchers get events only from the writer, after the commit, for the same reason.

use std::sync::{Arc, Mutex, PoisonError, RwLock};

use chessd_rules::{Color, DrawRule, Move, Outcome, Variant};
use tokio::sync::{broadcast, mpsc, watch};

use super::events::LogKind;
use super::{Event, GameId, Players, TimeControl};
use crate::error::ServiceError;
use crate::token::TokenDigest;

/// Changes queued for the writer at most (each a game's creation or one action's events). At
/// about 200 bytes each this bounds the queue near 1 MiB; a full queue makes new actions wait.
pub const JOURNAL_CAPACITY: usize = 4096;

/// A change to commit.
#[derive(Debug)]
pub enum Change {
    /// A new game, with everything needed to rebuild it.
    Created(Box<CreatedGame>),
    /// Events one action (or the flag) added to a game.
    Events {
        game: GameId,
        variant: Variant,
        rows: Vec<EventRow>,
    },
    /// Finished games the store no longer keeps.
    Forget(Vec<GameId>),
    /// Nothing changed; the writer notes that the server is alive (see `sqlite`'s downtime
    /// rule).
    Alive,
}

/// A game as created.
#[derive(Debug)]
pub struct CreatedGame {
    pub id: GameId,
    pub variant: Variant,
    pub start_fen: String,
    pub players: Players,
    pub time_control: Option<TimeControl>,
    pub draw_rule: DrawRule,
    /// The seats' token digests (the tokens themselves are never stored).
    pub digests: [TokenDigest; 2],
    pub created_at_ms: u64,
    /// The CreateGame request id, so a retry after a restart still finds the game.
    pub request_id: Option<String>,
}

/// One event as the journal stores it.
#[derive(Debug)]
pub struct EventRow {
    pub seq: u64,
    pub at_ms: u64,
    pub kind: LogKind,
    /// The move of a move event.
    pub mv: Option<Move>,
    /// Who moved, offered or declined.
    pub seat: Option<Color>,
    /// A move's request id, so a retry after a restart plays nothing twice.
    pub request_id: Option<String>,
    /// Both clocks after the action, in milliseconds (timed games).
    pub clocks_ms: Option<[u64; 2]>,
    /// The outcome of a game-over event.
    pub outcome: Option<Outcome>,
}

/// What travels to the writer.
#[derive(Debug)]
pub struct Queued {
    pub ticket: u64,
    pub change: Change,
    /// Events for the game's watchers, sent once the change is committed.
    pub publish: Option<(broadcast::Sender<Arc<Event>>, Vec<Event>)>,
}

/// How far the writer has got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Committed {
    /// Every ticket up to this one is committed.
    pub through: u64,
    /// The writer failed: nothing after `through` will ever be committed.
    pub failed: bool,
}

/// The sending side of the journal, shared by every request.
#[derive(Debug)]
pub struct Journal {
    /// `None` once closed (shutdown): the writer ends when the last clone is gone. A std
    /// `RwLock`: callers only clone the sender out of it.
    tx: RwLock<Option<mpsc::Sender<Queued>>>,
    /// The last ticket drawn. A std mutex held only to draw a ticket and send (never awaits),
    /// so tickets enter the queue in order.
    last_ticket: Mutex<u64>,
    committed: watch::Receiver<Committed>,
}

/// A reserved place in the journal's queue, taken before a game's lock.
pub struct Slot<'a> {
    permit: mpsc::Permit<'a, Queued>,
}

/// The writer's ends of a new journal.
pub struct WriterEnds {
    pub rx: mpsc::Receiver<Queued>,
    pub committed: watch::Sender<Committed>,
}

impl Journal {
    /// A journal and the ends its writer uses.
    #[must_use]
    pub fn new() -> (Journal, WriterEnds) {
        let (tx, rx) = mpsc::channel(JOURNAL_CAPACITY);
        let (committed_tx, committed) = watch::channel(Committed::default());
        (
            Journal {
                tx: RwLock::new(Some(tx)),
                last_ticket: Mutex::new(0),
                committed,
            },
            WriterEnds {
                rx,
                committed: committed_tx,
            },
        )
    }

    /// The sender, unless the journal is closed or failed.
    pub fn sender(&self) -> Result<mpsc::Sender<Queued>, ServiceError> {
        if self.committed.borrow().failed {
            return Err(store_failed());
        }
        self.tx
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
            .ok_or(ServiceError::ShuttingDown {
                resume_after_seq: None,
            })
    }

    /// Reserves a place in the queue (waits while the writer is behind).
    pub async fn reserve(tx: &mpsc::Sender<Queued>) -> Result<Slot<'_>, ServiceError> {
        tx.reserve()
            .await
            .map(|permit| Slot { permit })
            .map_err(|_| store_failed())
    }

    /// A place in the queue if one is free now.
    #[must_use]
    pub fn try_reserve(tx: &mpsc::Sender<Queued>) -> Option<Slot<'_>> {
        tx.try_reserve().ok().map(|permit| Slot { permit })
    }

    /// Queues `change` in a reserved place; returns its ticket.
    pub fn send(
        &self,
        slot: Slot<'_>,
        change: Change,
        publish: Option<(broadcast::Sender<Arc<Event>>, Vec<Event>)>,
    ) -> u64 {
        let mut last = self
            .last_ticket
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        *last += 1;
        slot.permit.send(Queued {
            ticket: *last,
            change,
            publish,
        });
        *last
    }

    /// Waits until `ticket` is committed (0: nothing to wait for).
    pub async fn wait(&self, ticket: u64) -> Result<(), ServiceError> {
        if ticket == 0 {
            return Ok(());
        }
        let mut committed = self.committed.clone();
        let reached = committed
            .wait_for(|c| c.through >= ticket || c.failed)
            .await
            .map(|c| c.through >= ticket);
        match reached {
            Ok(true) => Ok(()),
            // The writer failed or is gone: the change may not be on disk.
            Ok(false) | Err(_) => Err(store_failed()),
        }
    }

    /// Stops taking changes; the writer ends once the changes already queued are committed.
    pub fn close(&self) {
        self.tx
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
    }
}

/// A change could not be made durable. The cause was logged by the writer; clients only learn
/// that it failed.
pub fn store_failed() -> ServiceError {
    ServiceError::Internal("the durable store cannot commit changes".into())
}
