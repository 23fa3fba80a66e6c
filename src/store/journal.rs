//! The journal: the ordered queue of changes a durable store must commit before it answers.
//!
//! It knows nothing of SQLite: it numbers changes with tickets, carries them to one writer over
//! a bounded channel, and lets callers wait until their ticket is committed. The writer (see
//! `sqlite`) takes whatever is queued, commits it as one transaction (group commit), then
//! publishes the batch's events to watchers and raises the committed watermark.
//!
//! Why it is shaped this way:
//! - A caller reserves a [`Place`] in the channel *before* it takes a game's lock (reserving may
//!   wait when the writer is behind: that is the backpressure), then sends under the lock. Sending is then
//!   instant, so no lock is held across an `.await`, and a game's changes enter the queue in the
//!   order the game made them.
//! - Tickets are drawn and sent under one tiny mutex, so the queue holds them in increasing
//!   order; the writer commits in queue order, so "ticket `t` committed" means "every change up
//!   to `t` committed", and one watermark answers every waiter, each woken only once its own
//!   ticket is in (see `watermark`). A read
//!   of a game waits for that game's last ticket, so nobody sees a change that a crash could
//!   still take back.
//! - Watchers get events only from the writer, after the commit, for the same reason.
//! - With traces on, a change carries the span of its way to the disk (`spans::JOURNAL`, a
//!   child of the call that made it), which the writer ends once the change is committed.

use std::sync::{Arc, Mutex, PoisonError, RwLock};

use chessd_rules::any::AnyVariant;
use tokio::sync::{broadcast, mpsc};
use tracing::Span;

use crate::error::ServiceError;
use crate::game::{
    Event, EventRow, FeedEvent, GameHeader, GameId, PlayerId, Seats, TakebackPolicy, TokenDigest,
    TokenId,
};
use crate::store::stream_error::StreamError;
use crate::telemetry::spans;

mod watermark;

pub(super) use watermark::Raiser;
use watermark::{Wait, Watermark};

/// Changes queued for the writer at most (each a game's creation or one action's events). At
/// about 200 bytes each this bounds the queue near 1 MiB; a full queue makes new actions wait.
pub(super) const JOURNAL_CAPACITY: usize = 4096;

/// A change to commit.
#[derive(Debug)]
pub enum Change {
    /// A new game, with everything needed to rebuild it.
    Created(Box<CreatedGame>),
    /// Events one action (or the flag) added to a game, and what the feed says of them.
    Events {
        game: GameId,
        variant: AnyVariant,
        rows: Vec<EventRow>,
        feed: Vec<FeedEvent>,
    },
    /// A player token issued (its digest only).
    TokenIssued {
        id: TokenId,
        digest: TokenDigest,
        player: PlayerId,
        at_ms: u64,
    },
    /// Player tokens revoked.
    TokensRevoked(Vec<TokenId>),
    /// Finished games the store no longer keeps.
    Forget(Vec<GameId>),
    /// Nothing changed; the writer notes that the server is alive (see `sqlite`'s downtime
    /// rule).
    Alive,
}

/// A game as created (its feed event is its header's creation).
#[derive(Debug)]
pub struct CreatedGame {
    pub header: Arc<GameHeader>,
    /// The seats' token digests (the tokens themselves are never stored).
    pub seats: Seats,
    /// The CreateGame request id, so a retry after a restart still finds the game.
    pub request_id: Option<String>,
    pub takebacks: TakebackPolicy,
}

impl CreatedGame {
    /// The feed's event of this creation.
    #[must_use]
    pub fn feed(&self) -> FeedEvent {
        FeedEvent::created(self.header.clone())
    }
}

/// What travels to the writer.
#[derive(Debug)]
pub struct Queued {
    pub ticket: u64,
    pub change: Change,
    /// Events for the game's watchers, sent once the change is committed.
    pub publish: Option<(broadcast::Sender<Arc<Event>>, Vec<Event>)>,
    /// From queued to committed, in the trace of the call that made the change (`Span::none`
    /// when traces are off, or outside a call).
    pub trace: Span,
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
    committed: Arc<Watermark>,
}

/// A reserved place in the journal's queue, taken before a game's lock; dropped unused, it
/// goes back to the queue.
pub struct Place {
    journal: Arc<Journal>,
    permit: mpsc::OwnedPermit<Queued>,
}

impl std::fmt::Debug for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Place")
    }
}

/// The writer's ends of a new journal.
pub struct WriterEnds {
    pub rx: mpsc::Receiver<Queued>,
    pub committed: Raiser,
}

impl Journal {
    /// A journal and the ends its writer uses.
    #[must_use]
    pub fn new() -> (Journal, WriterEnds) {
        let (tx, rx) = mpsc::channel(JOURNAL_CAPACITY);
        let (committed, committed_tx) = Watermark::new();
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
    fn sender(&self) -> Result<mpsc::Sender<Queued>, ServiceError> {
        if self.committed.failed() {
            return Err(store_failed());
        }
        self.tx
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
            .ok_or(ServiceError::Stream(StreamError::ShuttingDown {
                resume_after_seq: None,
            }))
    }

    /// Reserves a place in the queue (waits while the writer is behind).
    pub async fn reserve(self: &Arc<Journal>) -> Result<Place, ServiceError> {
        let permit = self
            .sender()?
            .reserve_owned()
            .await
            .map_err(|_| store_failed())?;
        Ok(Place {
            journal: self.clone(),
            permit,
        })
    }

    /// A place in the queue if one is free now (`None` also when the journal is closed).
    #[must_use]
    pub fn try_reserve(self: &Arc<Journal>) -> Option<Place> {
        let permit = self.sender().ok()?.try_reserve_owned().ok()?;
        Some(Place {
            journal: self.clone(),
            permit,
        })
    }

    /// Waits until `ticket` is committed (0: nothing to wait for).
    pub async fn wait(&self, ticket: u64) -> Result<(), ServiceError> {
        if ticket == 0 {
            return Ok(());
        }
        let reached = match self.committed.wait(ticket) {
            Wait::Done => true,
            Wait::Never => false,
            Wait::Pending(rx) => rx.await.is_ok(),
        };
        if reached {
            Ok(())
        } else {
            // The writer failed or is gone: the change may not be on disk.
            Err(store_failed())
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

impl Place {
    /// Queues `change` here; returns its ticket.
    pub fn send(
        self,
        change: Change,
        publish: Option<(broadcast::Sender<Arc<Event>>, Vec<Event>)>,
    ) -> u64 {
        // Made before the lock, which every change of every game takes.
        let trace = spans::in_call(
            |parent| tracing::debug_span!(parent: parent, spans::JOURNAL, ticket = tracing::field::Empty),
        );
        let mut last = self
            .journal
            .last_ticket
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        *last += 1;
        self.permit.send(Queued {
            ticket: *last,
            change,
            publish,
            trace,
        });
        *last
    }
}

/// A watermark for tests of the writer's side: whether a ticket is committed, and its raiser.
#[cfg(test)]
pub(super) fn test_watermark() -> (impl Fn(u64) -> bool, Raiser) {
    let (mark, raiser) = Watermark::new();
    (
        move |ticket| matches!(mark.wait(ticket), Wait::Done),
        raiser,
    )
}

/// A change could not be made durable. The cause was logged by the writer; clients only learn
/// that it failed.
pub(super) fn store_failed() -> ServiceError {
    ServiceError::Internal("the durable store cannot commit changes".into())
}
