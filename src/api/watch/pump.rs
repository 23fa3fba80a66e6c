//! The pump: one task per watcher, from the game's events to the watcher's stream (see the
//! module doc of `watch`). It holds the watcher's slot (the broadcast receiver, counted by the
//! game's watcher limit; the watchers gauge; the per-address place) only while the watcher
//! keeps up, and gives it back the moment the watcher is cut off, whatever the client does.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::time::{Instant, MissedTickBehavior, interval_at, timeout};
use tokio_util::sync::CancellationToken;

use crate::api::encode as convert;
use crate::api::watch::seats::Seats;
use crate::api::watch::{Feed, PeerSlot, Queued};
use crate::error::ServiceError;
use crate::game::delay::{DelayedLine, Seen};
use crate::game::{Event, EventKind, GameId, Replay, Viewer, ends_game};
use crate::metrics::{WATCHERS_CUT, WatcherGuard};
use crate::security::access::Sight;
use crate::store::stream_error::StreamError;
use crate::store::{PresenceGuard, Subscription};
use crate::transport::StreamReset;
use crate::woken::WhenWoken;
use chessd_proto::wire::WatchGameResponse;

/// What the watcher holds while it is served; dropped as one.
struct Slot {
    live: Option<broadcast::Receiver<Arc<Event>>>,
    _counted: WatcherGuard,
    _peer: Option<PeerSlot>,
    /// The watcher's seat counts as connected while it is served.
    _present: Option<PresenceGuard>,
}

/// Why feeding stopped.
enum Stop {
    /// The game-over event was sent.
    GameOver,
    /// The game's channel closed before its game-over event: the store forgot the game, or
    /// found it no longer held what was sent (a Redis failover lost events).
    Interrupted,
    /// The client went away (its stream was dropped).
    Gone,
    /// The client fell behind the broadcast buffer or took nothing for the stall timeout.
    TooSlow,
    /// The server drains.
    Draining,
}

/// One watcher's pump.
pub(crate) struct Pump {
    game_id: GameId,
    replay: Replay,
    slot: Option<Slot>,
    heartbeat: Duration,
    stall: Duration,
    draining: CancellationToken,
    reset: StreamReset,
    /// The seq of the last event sent: where a client resumes.
    last_seq: u64,
    /// Who the watcher is to the game: its seat (told on the snapshot) and what it may see.
    sight: Sight,
    /// The seats' presence, told between events.
    seats: Seats,
    /// The replay was sent: live events flow.
    replay_done: bool,
    /// A spectator's delayed view of the game, once its snapshot showed one applies.
    delay: Option<DelayedLine>,
    tx: mpsc::Sender<Queued<WatchGameResponse>>,
    gone: oneshot::Receiver<()>,
}

/// Ends a stream: sends `error` (if any), then lets the stream end after what is queued;
/// a client that takes nothing for `stall` has its stream reset instead. Returns `false` when
/// it had to reset.
pub(crate) async fn end_stream<T>(
    feed: Feed<T>,
    error: Option<ServiceError>,
    stall: Duration,
    reset: &StreamReset,
) -> bool {
    let Feed { tx, gone } = feed;
    if let Some(error) = error {
        match timeout(stall, tx.send(Box::new(Err(error.status())))).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) => return true,
            Err(_) => {
                reset.reset();
                return false;
            }
        }
    }
    // With the sender dropped, the stream ends after what is queued. A client that takes
    // nothing for the stall timeout never gets there: only a reset ends its stream.
    drop(tx);
    if timeout(stall, gone).await.is_err() {
        reset.reset();
        return false;
    }
    true
}

/// What a pump needs besides its subscription and its stream.
#[derive(Clone, Debug)]
pub(crate) struct PumpConfig {
    /// Quiet time before a heartbeat.
    pub heartbeat: Duration,
    /// How long the client may take no message before it is cut off.
    pub stall: Duration,
    /// Cancelled when the server drains.
    pub draining: CancellationToken,
}

impl Pump {
    /// A pump from `subscription` into `feed` (see [`crate::api::watch::WatchStream::channel`]);
    /// `sight` is the watcher's, for its seat and what it sees; `present` counts it as connected, and
    /// `seats` tells the watcher of both seats' presence.
    #[must_use]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        game_id: GameId,
        subscription: Subscription,
        (peer, present): (Option<PeerSlot>, Option<PresenceGuard>),
        sight: Sight,
        seats: Seats,
        config: &PumpConfig,
        reset: StreamReset,
        feed: Feed,
    ) -> Pump {
        Pump {
            game_id,
            replay: subscription.replay,
            slot: Some(Slot {
                live: subscription.live,
                _counted: WatcherGuard::new(),
                _peer: peer,
                _present: present,
            }),
            heartbeat: config.heartbeat,
            stall: config.stall,
            draining: config.draining.clone(),
            reset,
            last_seq: subscription.after_seq,
            sight,
            seats,
            replay_done: false,
            delay: None,
            tx: feed.tx,
            gone: feed.gone,
        }
    }

    /// Runs the pump to the end of the stream.
    pub(crate) async fn run(mut self) {
        let stop = self.feed().await;
        // The slot goes back first, whatever happens to the ending.
        self.slot = None;
        let Pump {
            game_id,
            last_seq,
            stall,
            reset,
            tx,
            gone,
            ..
        } = self;
        let ending = match stop {
            Stop::Gone => return,
            Stop::GameOver => None,
            Stop::TooSlow => Some((
                "too_slow",
                ServiceError::Stream(StreamError::WatcherTooSlow {
                    resume_after_seq: last_seq,
                }),
            )),
            Stop::Interrupted => Some((
                "interrupted",
                ServiceError::Stream(StreamError::WatchInterrupted),
            )),
            Stop::Draining => Some((
                "shutting_down",
                ServiceError::Stream(StreamError::ShuttingDown {
                    resume_after_seq: Some(last_seq),
                }),
            )),
        };
        if let Some((why, error)) = &ending {
            tracing::info!(%game_id, last_seq, reason = error.reason(), "watch stream cut");
            ::metrics::counter!(WATCHERS_CUT, "reason" => *why).increment(1);
        }
        let feed = Feed { tx, gone };
        if !end_stream(feed, ending.map(|(_, e)| e), stall, &reset).await {
            tracing::info!(%game_id, last_seq, "watch stream reset: the client took nothing");
            ::metrics::counter!(WATCHERS_CUT, "reason" => "reset").increment(1);
        }
    }

    async fn feed(&mut self) -> Stop {
        while let Some(event) = self.replay.next() {
            if self.draining.is_cancelled() {
                return Stop::Draining;
            }
            if let Err(stop) = self.send(&event).await {
                return stop;
            }
            if ends_game(&event) {
                return Stop::GameOver;
            }
        }
        let Some(mut live) = self.slot.as_mut().and_then(|slot| slot.live.take()) else {
            // The game was over when the watch began and the replay has ended it.
            return Stop::GameOver;
        };
        self.replay_done = true;
        if let Err(stop) = self.tell_seats().await {
            return stop;
        }
        let mut heartbeat = interval_at(Instant::now() + self.heartbeat, self.heartbeat);
        heartbeat.set_missed_tick_behavior(MissedTickBehavior::Delay);
        // Made once and polled only when they wake: the loop turns for every event.
        let draining = WhenWoken::new(self.draining.clone().cancelled_owned());
        let tx = self.tx.clone();
        let gone = WhenWoken::new(async move { tx.closed().await });
        tokio::pin!(draining, gone);
        let stop = loop {
            tokio::select! {
                biased;
                () = &mut draining => break Stop::Draining,
                () = &mut gone => break Stop::Gone,
                received = live.recv() => match received {
                    // Live events start right after the replay; this only guards the invariant.
                    Ok(event) if event.seq <= self.last_seq => {}
                    Ok(event) => {
                        if let Err(stop) = self.send(&event).await {
                            break stop;
                        }
                        if ends_game(&event) {
                            break Stop::GameOver;
                        }
                        heartbeat.reset();
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => break Stop::TooSlow,
                    // A game that ended sent its game-over event first (a channel delivers what
                    // it holds before it reports closing): this one was forgotten, or what it
                    // sent is no longer the game's (see `Stop::Interrupted`).
                    Err(broadcast::error::RecvError::Closed) => break Stop::Interrupted,
                },
                () = self.seats.changed() => {
                    if let Err(stop) = self.tell_seats().await {
                        break stop;
                    }
                }
                _ = heartbeat.tick() => {
                    let beat = convert::heartbeat(self.last_seq, SystemTime::now());
                    if let Err(stop) = self.deliver(beat).await {
                        break stop;
                    }
                }
            }
        };
        // Dropped with the slot, not before: the receiver is what the watcher limit counts.
        if let Some(slot) = self.slot.as_mut() {
            slot.live = Some(live);
        }
        stop
    }

    /// Sends an event (or what the watcher is shown of it) and remembers its seq.
    async fn send(&mut self, event: &Event) -> Result<(), Stop> {
        // A spectator of a game with a delayed public view is shown the delayed game, whole.
        let seen = match &event.kind {
            EventKind::Snapshot(view) if self.sight.viewer(view.hides()) == Viewer::Blind => {
                match DelayedLine::of(event) {
                    Some((line, shown)) => {
                        self.delay = Some(line);
                        Seen::Delayed(Box::new(shown))
                    }
                    None => Seen::AsIs,
                }
            }
            _ => match &mut self.delay {
                Some(line) => line.after(event),
                None => Seen::AsIs,
            },
        };
        let (shown, viewer) = match &seen {
            Seen::Delayed(shown) => (&**shown, Viewer::Whole),
            Seen::AsIs => (event, self.viewer(event)),
            Seen::Nothing => {
                self.last_seq = event.seq;
                self.seats.after_send(event);
                return Ok(());
            }
        };
        let mut message = convert::event(shown, viewer);
        if matches!(event.kind, EventKind::Snapshot(_)) {
            message.seat = convert::maybe_color(self.sight.seat);
        }
        self.seats.before_send(event, &mut message);
        self.deliver(message).await?;
        self.last_seq = event.seq;
        self.seats.after_send(event);
        // Presence told during the replay would be of now, between events of the past.
        if matches!(event.kind, EventKind::MovePlayed { .. })
            && self.replay_done
            && !self.seats.over()
        {
            for message in self.seats.news_after_move(self.last_seq) {
                self.deliver(message).await?;
            }
        }
        Ok(())
    }

    /// What the watcher sees of `event`.
    fn viewer(&self, event: &Event) -> Viewer {
        match (&event.kind, event.kind.variant()) {
            (EventKind::Snapshot(view), _) => self.sight.viewer(view.hides()),
            (_, Some(variant)) => self
                .sight
                .viewer(variant.hides_board() && !ends_game(event)),
            (_, None) => Viewer::Whole,
        }
    }

    /// Tells the watcher of every seat whose presence changed since it was last told.
    async fn tell_seats(&mut self) -> Result<(), Stop> {
        for message in self.seats.news(self.last_seq) {
            self.deliver(message).await?;
        }
        Ok(())
    }

    /// Queues a message, waiting at most the stall timeout for the client to make room.
    async fn deliver(&mut self, message: WatchGameResponse) -> Result<(), Stop> {
        // With room in the queue (a watcher keeping up), no timer and no select. A drain is
        // seen before the next event (the feed's loops look first), not before each message.
        let message = match self.tx.try_send(Box::new(Ok(message))) {
            Ok(()) => return Ok(()),
            Err(mpsc::error::TrySendError::Closed(_)) => return Err(Stop::Gone),
            Err(mpsc::error::TrySendError::Full(queued)) => queued,
        };
        tokio::select! {
            biased;
            () = self.draining.cancelled() => Err(Stop::Draining),
            sent = timeout(self.stall, self.tx.send(message)) => match sent {
                Ok(Ok(())) => Ok(()),
                Ok(Err(_)) => Err(Stop::Gone),
                Err(_) => Err(Stop::TooSlow),
            },
        }
    }
}
