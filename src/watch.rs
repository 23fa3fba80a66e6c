//! `WatchStream`: the server stream behind WatchGame.
//!
//! It first sends the subscription's replay (a snapshot, or every event after the client's
//! seq), then live events from the game's bounded broadcast channel, with a heartbeat after
//! every quiet `heartbeat` interval. It ends:
//! - after the game-over event (normally);
//! - with RESOURCE_EXHAUSTED (reason WATCHER_TOO_SLOW) when the client fell more than the
//!   channel's capacity behind: the server never buffers without bound for a slow reader;
//! - with UNAVAILABLE (reason SHUTTING_DOWN) when the server drains.
//!
//! Both errors carry the seq of the last event sent (message and ErrorInfo metadata
//! `resume_after_seq`): watching again with that `after_seq` continues with no gap and no
//! duplicate. The stream is polled only as fast as the transport takes messages (HTTP/2 flow
//! control), which is how a slow client shows up as a lagging receiver.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, SystemTime};

use tokio::time::{Instant, Interval, MissedTickBehavior, interval_at};
use tokio_stream::Stream;
use tokio_stream::wrappers::BroadcastStream;
use tokio_stream::wrappers::errors::BroadcastStreamRecvError;
use tokio_util::sync::{CancellationToken, WaitForCancellationFutureOwned};
use tonic::Status;

use crate::convert;
use crate::error::ServiceError;
use crate::metrics::WatcherGuard;
use crate::proto::WatchGameResponse;
use crate::store::{Event, GameId, Replay, Subscription};

/// One client's WatchGame stream.
pub struct WatchStream {
    game_id: GameId,
    replay: Replay,
    /// `None` once the game was over at subscription (the replay is then all there is).
    live: Option<BroadcastStream<Arc<Event>>>,
    heartbeat: Interval,
    period: Duration,
    /// Resolves when the server starts draining.
    draining: Pin<Box<WaitForCancellationFutureOwned>>,
    /// The seq of the last event sent: where a client resumes.
    last_seq: u64,
    /// Set after the last message (game over or an error): the next poll ends the stream.
    done: bool,
    /// Counts this stream in the watchers gauge while it lives.
    _counted: WatcherGuard,
}

impl WatchStream {
    /// A stream over `subscription`, with a heartbeat every quiet `period`, ended early when
    /// `draining` is cancelled.
    #[must_use]
    pub fn new(
        game_id: GameId,
        subscription: Subscription,
        period: Duration,
        draining: &CancellationToken,
    ) -> Self {
        let mut heartbeat = interval_at(Instant::now() + period, period);
        heartbeat.set_missed_tick_behavior(MissedTickBehavior::Delay);
        WatchStream {
            game_id,
            replay: subscription.replay,
            live: subscription.live.map(BroadcastStream::new),
            heartbeat,
            period,
            draining: Box::pin(draining.clone().cancelled_owned()),
            last_seq: subscription.after_seq,
            done: false,
            _counted: WatcherGuard::new(),
        }
    }

    /// Sends an event: remembers its seq, ends after game over, restarts the quiet period.
    fn deliver(&mut self, event: &Event) -> WatchGameResponse {
        self.last_seq = event.seq;
        let game_over = match &event.kind {
            crate::store::EventKind::Snapshot(view) => view.game.is_over(),
            kind => kind.is_game_over(),
        };
        if game_over {
            self.done = true;
        }
        self.heartbeat.reset_after(self.period);
        convert::event(event)
    }

    /// Ends the stream with `error`.
    fn fail(&mut self, error: ServiceError) -> Poll<Option<Result<WatchGameResponse, Status>>> {
        tracing::info!(game_id = %self.game_id, last_seq = self.last_seq, reason = error.reason(), "watch stream cut");
        self.done = true;
        Poll::Ready(Some(Err(error.status())))
    }
}

impl Stream for WatchStream {
    type Item = Result<WatchGameResponse, Status>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        if this.done {
            return Poll::Ready(None);
        }
        if this.draining.as_mut().poll(cx).is_ready() {
            return this.fail(ServiceError::ShuttingDown {
                resume_after_seq: Some(this.last_seq),
            });
        }
        if let Some(event) = this.replay.next() {
            return Poll::Ready(Some(Ok(this.deliver(&event))));
        }
        let Some(live) = this.live.as_mut() else {
            // The game was over when the watch began and the replay has ended it.
            this.done = true;
            return Poll::Ready(None);
        };
        loop {
            match Pin::new(&mut *live).poll_next(cx) {
                // Live events start right after the replay; this only guards the invariant.
                Poll::Ready(Some(Ok(event))) if event.seq <= this.last_seq => continue,
                Poll::Ready(Some(Ok(event))) => return Poll::Ready(Some(Ok(this.deliver(&event)))),
                Poll::Ready(Some(Err(BroadcastStreamRecvError::Lagged(_)))) => {
                    return this.fail(ServiceError::WatcherTooSlow {
                        resume_after_seq: this.last_seq,
                    });
                }
                // The game's channel closed: it ended (its game-over event came first) or was
                // forgotten. Either way nothing more will come.
                Poll::Ready(None) => {
                    this.done = true;
                    return Poll::Ready(None);
                }
                Poll::Pending => break,
            }
        }
        if this.heartbeat.poll_tick(cx).is_ready() {
            return Poll::Ready(Some(Ok(convert::heartbeat(
                this.last_seq,
                SystemTime::now(),
            ))));
        }
        Poll::Pending
    }
}

impl std::fmt::Debug for WatchStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WatchStream")
            .field("game_id", &self.game_id)
            .field("last_seq", &self.last_seq)
            .finish()
    }
}
