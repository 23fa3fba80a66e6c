//! The feed pump: one task per WatchGames consumer, from the store's feed to the consumer's
//! stream (see the module doc of `feed`).
//!
//! It owns the consumer's cursor. It reads the store's log page by page while the consumer is
//! behind (after its `after_cursor`, or after falling behind the live broadcast), follows the
//! live broadcast once it has caught up, and filters both the same way: every entry moves the
//! cursor, only matching ones are sent. An entry is counted as consumed only once the stream
//! took it, so every resume cursor (the last message's, a heartbeat's, a cut-off's) is exact.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crate::security::access::Sight;
use tokio::sync::{broadcast, mpsc, oneshot, watch};
use tokio::time::{Instant, MissedTickBehavior, interval_at, timeout};
use tokio_util::sync::CancellationToken;

use crate::api::encode;
use crate::api::feed::slots::FeedSlot;
use crate::api::watch::{Feed, PumpConfig, Queued, end_stream};
use crate::error::ServiceError;
use crate::game::{FeedEvent, FeedFilter, PlayerId, PlayerToken};
use crate::metrics::{FEEDS_CUT, FeedGuard};
use crate::proto::WatchGamesResponse;
use crate::security::error::AccessError;
use crate::store::stream_error::StreamError;
use crate::store::{FEED_PAGE, FeedCursor, FeedEntry, FeedSubscription, GameStore};
use crate::transport::StreamReset;
use crate::woken::WhenWoken;

/// What the consumer holds while it is served; dropped as one.
struct Slot {
    _counted: FeedGuard,
    _place: FeedSlot,
}

/// What one consumer reads: its filter and, in player mode, its player.
pub(crate) struct Reader {
    pub filter: FeedFilter,
    pub player: Option<PlayerMode>,
    /// The consumer holds an API key: the platform, which sees hidden games whole.
    pub platform: bool,
}

/// A player-mode stream's player, whose token is checked again at every revocation.
pub(crate) struct PlayerMode {
    pub player: PlayerId,
    pub token: PlayerToken,
}

/// Why feeding stopped.
enum Stop {
    /// The client went away (its stream was dropped).
    Gone,
    /// The client took nothing for the stall timeout.
    TooSlow,
    /// The server drains.
    Draining,
    /// The player token was revoked.
    Revoked,
    /// The store failed, or no longer holds what follows the cursor.
    Store(ServiceError),
    /// The store's feed is gone (the store was dropped).
    Closed,
}

/// One consumer's pump.
pub(crate) struct FeedPump<S> {
    store: Arc<S>,
    cursor: FeedCursor,
    filter: FeedFilter,
    player: Option<PlayerMode>,
    platform: bool,
    revocations: watch::Receiver<u64>,
    running: Vec<FeedEvent>,
    /// New entries (taken by `run`, dropped before the ending is sent).
    live: Option<broadcast::Receiver<Arc<FeedEntry>>>,
    slot: Option<Slot>,
    heartbeat: Duration,
    stall: Duration,
    draining: CancellationToken,
    reset: StreamReset,
    tx: mpsc::Sender<Queued<WatchGamesResponse>>,
    gone: oneshot::Receiver<()>,
}

impl<S: GameStore> FeedPump<S> {
    /// A pump from `subscription` into `feed` for `reader`, holding `place` (the stream's
    /// bound) while it runs.
    #[must_use]
    pub(crate) fn new(
        store: Arc<S>,
        subscription: FeedSubscription,
        reader: Reader,
        place: FeedSlot,
        config: &PumpConfig,
        reset: StreamReset,
        feed: Feed<WatchGamesResponse>,
    ) -> FeedPump<S> {
        let revocations = store.revocations();
        FeedPump {
            store,
            cursor: subscription.start,
            filter: reader.filter,
            player: reader.player,
            platform: reader.platform,
            revocations,
            running: subscription.running,
            live: Some(subscription.live),
            slot: Some(Slot {
                _counted: FeedGuard::new(),
                _place: place,
            }),
            heartbeat: config.heartbeat,
            stall: config.stall,
            draining: config.draining.clone(),
            reset,
            tx: feed.tx,
            gone: feed.gone,
        }
    }

    /// Runs the pump to the end of the stream.
    pub(crate) async fn run(mut self) {
        let stop = match self.live.take() {
            Some(mut live) => self.serve(&mut live).await,
            None => Stop::Closed,
        };
        // The slot goes back first, whatever happens to the ending.
        self.slot = None;
        let cursor = self.cursor.to_string();
        let (why, error) = match stop {
            Stop::Gone => return,
            Stop::TooSlow => (
                "too_slow",
                ServiceError::Stream(StreamError::FeedTooSlow {
                    resume_after_cursor: cursor,
                }),
            ),
            Stop::Draining => (
                "shutting_down",
                ServiceError::Stream(StreamError::FeedShuttingDown {
                    resume_after_cursor: cursor,
                }),
            ),
            Stop::Revoked => ("revoked", ServiceError::Access(AccessError::TokenRevoked)),
            Stop::Store(e @ ServiceError::Stream(StreamError::CursorOutOfRange { .. })) => {
                ("out_of_range", e)
            }
            Stop::Store(e) => ("store", e),
            Stop::Closed => (
                "shutting_down",
                ServiceError::Stream(StreamError::FeedShuttingDown {
                    resume_after_cursor: cursor,
                }),
            ),
        };
        tracing::info!(reason = error.reason(), "feed stream cut");
        ::metrics::counter!(FEEDS_CUT, "reason" => why).increment(1);
        let feed = Feed {
            tx: self.tx,
            gone: self.gone,
        };
        if !end_stream(feed, Some(error), self.stall, &self.reset).await {
            tracing::info!("feed stream reset: the client took nothing");
            ::metrics::counter!(FEEDS_CUT, "reason" => "reset").increment(1);
        }
    }

    async fn serve(&mut self, live: &mut broadcast::Receiver<Arc<FeedEntry>>) -> Stop {
        if !self.running.is_empty() {
            for event in std::mem::take(&mut self.running) {
                let sight = self.sight_in(&event);
                // Not a feed event: no cursor (the consumer sees it again only by starting
                // live again).
                if let Err(stop) = self
                    .deliver(encode::feed_event(&event, String::new(), sight))
                    .await
                {
                    return stop;
                }
            }
            // Where the consumer now stands, at once: it can resume from here.
            let beat = encode::feed_heartbeat(self.cursor.to_string(), SystemTime::now());
            if let Err(stop) = self.deliver(beat).await {
                return stop;
            }
        }
        loop {
            if let Err(stop) = self.catch_up().await {
                return stop;
            }
            match self.follow(live).await {
                // Fell behind the broadcast: read the log from the cursor again.
                Ok(()) => {}
                Err(stop) => return stop,
            }
        }
    }

    /// Reads the store's log from the cursor to its end.
    async fn catch_up(&mut self) -> Result<(), Stop> {
        loop {
            if self.draining.is_cancelled() {
                return Err(Stop::Draining);
            }
            if self.tx.is_closed() {
                return Err(Stop::Gone);
            }
            let page = self
                .store
                .feed_page(&self.cursor, FEED_PAGE)
                .await
                .map_err(Stop::Store)?;
            if page.is_empty() {
                return Ok(());
            }
            for entry in page {
                self.consume(&entry).await?;
            }
        }
    }

    /// Follows the live broadcast until the consumer falls behind it (`Ok`) or the stream
    /// stops.
    async fn follow(&mut self, live: &mut broadcast::Receiver<Arc<FeedEntry>>) -> Result<(), Stop> {
        let mut heartbeat = interval_at(Instant::now() + self.heartbeat, self.heartbeat);
        heartbeat.set_missed_tick_behavior(MissedTickBehavior::Delay);
        // Made once and polled only when they wake: the loop turns for every event.
        let draining = WhenWoken::new(self.draining.clone().cancelled_owned());
        let tx = self.tx.clone();
        let gone = WhenWoken::new(async move { tx.closed().await });
        tokio::pin!(draining, gone);
        loop {
            tokio::select! {
                biased;
                () = &mut draining => return Err(Stop::Draining),
                () = &mut gone => return Err(Stop::Gone),
                changed = self.revocations.changed(), if self.player.is_some() => {
                    if changed.is_err() {
                        return Err(Stop::Closed);
                    }
                    self.check_token().await?;
                }
                received = live.recv() => match received {
                    Ok(entry) => {
                        if self.consume(&entry).await? {
                            heartbeat.reset();
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => return Ok(()),
                    Err(broadcast::error::RecvError::Closed) => return Err(Stop::Closed),
                },
                _ = heartbeat.tick() => {
                    // A revocation on another replica is heard through Redis; this also covers
                    // a notice lost while its connection was down.
                    self.check_token().await?;
                    let beat = encode::feed_heartbeat(self.cursor.to_string(), SystemTime::now());
                    self.deliver(beat).await?;
                }
            }
        }
    }

    /// Ends a player-mode stream whose token is no longer in force.
    async fn check_token(&mut self) -> Result<(), Stop> {
        let Some(mode) = &self.player else {
            return Ok(());
        };
        match self.store.player_of(mode.token).await {
            Ok(player) if player == mode.player => Ok(()),
            Ok(_) | Err(ServiceError::Access(AccessError::InvalidPlayerToken)) => {
                Err(Stop::Revoked)
            }
            // The store is unreachable: the token stands until the store says otherwise.
            Err(_) => Ok(()),
        }
    }

    /// Takes one entry: skipped if the cursor has passed it, sent if it matches. Returns
    /// whether something was sent.
    async fn consume(&mut self, entry: &FeedEntry) -> Result<bool, Stop> {
        if !self.cursor.is_before(entry.lane, entry.pos) {
            return Ok(false);
        }
        let mut after = self.cursor.clone();
        after.advance(entry.lane, entry.pos);
        let sent = self.filter.matches(&entry.event);
        if sent {
            let sight = self.sight_in(&entry.event);
            self.deliver(encode::feed_event(&entry.event, after.to_string(), sight))
                .await?;
        }
        self.cursor = after;
        Ok(sent)
    }

    /// Who the consumer is to the event's game: its player's seat there (player mode), and
    /// whether it is the platform.
    fn sight_in(&self, event: &FeedEvent) -> Sight {
        Sight {
            seat: self
                .player
                .as_ref()
                .and_then(|mode| event.game.players.seat_of(&mode.player)),
            platform: self.platform,
        }
    }

    /// Queues a message, waiting at most the stall timeout for the client to make room.
    async fn deliver(&mut self, message: WatchGamesResponse) -> Result<(), Stop> {
        // With room in the queue (a consumer keeping up), no timer and no select; a drain is
        // seen before the next entry or page (the loops look first).
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
