//! WatchGame's server stream.
//!
//! A pump task per watcher (`pump`) holds the subscription (the game's watcher slot): it sends
//! the replay (a snapshot, or every event after the client's seq), then live events from the
//! game's bounded broadcast channel, with a heartbeat after every quiet `heartbeat` interval,
//! into a small bounded channel that [`WatchStream`], the body tonic polls, reads. The stream
//! ends:
//! - after the game-over event (normally);
//! - with RESOURCE_EXHAUSTED (reason WATCHER_TOO_SLOW) when the client fell more than the
//!   broadcast channel's capacity behind, or took no message for the stall timeout: the
//!   server never buffers without bound for a slow reader, and frees the slot at once;
//! - with UNAVAILABLE (reason SHUTTING_DOWN) when the server drains.
//!
//! Both errors carry the seq of the last event sent (message and ErrorInfo metadata
//! `resume_after_seq`): watching again with that `after_seq` continues with no gap and no
//! duplicate. The pump exists because the body alone cannot notice a stalled client: hyper
//! polls a stream's body only while the client grants flow-control window, so a client that
//! grants none would hold its slot for ever. A client that does not take even the ending
//! within the stall timeout has its stream reset (`transport::StreamReset`); gRPC clients see
//! the reset as CANCELLED, and resume from the last seq they saw.
//!
//! `seats` tells a watcher of the seats' presence between events (unnumbered, like heartbeats);
//! the watcher's own seat counts as connected while its pump holds the slot.
//!
//! `peers` bounds the streams one address may hold (`--max-peer-watchers-per-game`,
//! `--max-peer-watchers`). [`WatchStream`] and the pump's ending ([`pump::end_stream`]) also
//! serve WatchGames (`api::feed`), whose messages are of another type.

mod peers;
mod pump;
mod seats;

use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::sync::{mpsc, oneshot};
use tokio_stream::Stream;
use tonic::Status;

pub(crate) use peers::{PeerSlot, PeerWatchers};
pub(crate) use pump::{Pump, PumpConfig, end_stream};
pub(crate) use seats::Seats;

use chessd_proto::wire::WatchGameResponse;

/// Messages queued between a watcher's pump and its stream: enough to ride over a scheduling
/// hiccup, few enough that a stalled client holds almost nothing (the game's broadcast
/// channel is the buffer that `--watch-buffer` sizes).
const QUEUE: usize = 4;

/// A message between a pump and its stream, boxed: tokio's channel allocates its slots 32 at a
/// time whatever its capacity, and a message (its largest event, a move with its clocks, and a
/// status) is a couple of hundred bytes inline, so unboxed slots would cost every open stream
/// kilobytes before it sent anything.
pub(crate) type Queued<T> = Box<Result<T, Status>>;

/// One client's WatchGame (or WatchGames) stream: what its pump sends, in order; the first
/// error ends it.
pub struct WatchStream<T = WatchGameResponse> {
    /// What the stream is of, for Debug (a game id, `feed`).
    what: String,
    queue: mpsc::Receiver<Queued<T>>,
    done: bool,
    /// Dropped with the stream: tells the pump that tonic is done with it (the client took
    /// the end, or went away).
    _alive: oneshot::Sender<()>,
}

/// The pump's end of a [`WatchStream`].
pub struct Feed<T = WatchGameResponse> {
    /// Where the pump sends; dropped to end the stream after what is queued.
    pub tx: mpsc::Sender<Queued<T>>,
    /// Resolves (with an error) once the stream is dropped.
    pub gone: oneshot::Receiver<()>,
}

impl<T> WatchStream<T> {
    /// A stream of `what` and the end its pump feeds.
    #[must_use]
    pub fn channel(what: impl std::fmt::Display) -> (WatchStream<T>, Feed<T>) {
        let (tx, queue) = mpsc::channel(QUEUE);
        let (alive, gone) = oneshot::channel();
        let stream = WatchStream {
            what: what.to_string(),
            queue,
            done: false,
            _alive: alive,
        };
        (stream, Feed { tx, gone })
    }
}

impl<T> Stream for WatchStream<T> {
    type Item = Result<T, Status>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.done {
            return Poll::Ready(None);
        }
        let item = std::task::ready!(self.queue.poll_recv(cx)).map(|queued| *queued);
        if !matches!(item, Some(Ok(_))) {
            self.done = true;
        }
        Poll::Ready(item)
    }
}

impl<T> std::fmt::Debug for WatchStream<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WatchStream")
            .field("of", &self.what)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A queue slot is one pointer: the channel's block of slots stays small for every open
    /// stream, whatever a message holds inline.
    #[test]
    fn a_queued_message_is_one_pointer() {
        assert_eq!(
            std::mem::size_of::<Queued<WatchGameResponse>>(),
            std::mem::size_of::<usize>()
        );
        assert!(std::mem::size_of::<Result<WatchGameResponse, Status>>() > 128);
    }
}
