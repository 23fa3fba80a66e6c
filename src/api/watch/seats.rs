//! What a watcher's pump tells of the seats' presence: both seats in the snapshot, then a
//! `PlayerPresence` whenever what the watcher would see of a seat changes (it connected or
//! left, on any replica, or a move handed a gone seat the turn and with it a claim time).
//! A resumed stream (no snapshot) is told both seats after its replay. These messages carry
//! the seq of the last event sent, as heartbeats do: presence is not history, and resuming
//! with `after_seq` is exact whatever presence messages came between the events.

use std::time::SystemTime;

use chessd_rules::{ByColor, Color};

use crate::api::presence::{ClaimClock, fill, message, seat_presence};
use crate::game::{Event, EventKind};
use crate::store::PresenceWatch;
use chessd_proto::wire::{self as pb, WatchGameResponse};

/// One watcher's view of the seats.
pub(crate) struct Seats {
    watch: PresenceWatch,
    /// Known from the snapshot, or (a resumed stream) from the game read at the start: of
    /// the game as of `clock_seq`.
    clock: Option<ClaimClock>,
    clock_seq: u64,
    /// What the watcher was last told of each seat.
    told: ByColor<Option<pb::SeatPresence>>,
}

impl Seats {
    /// Follows `watch`; `clock` is the game's as of a seq, for a stream without a snapshot.
    #[must_use]
    pub(crate) fn new(watch: PresenceWatch, clock: Option<(ClaimClock, u64)>) -> Seats {
        Seats {
            watch,
            clock: clock.map(|(c, _)| c),
            clock_seq: clock.map_or(0, |(_, seq)| seq),
            told: ByColor::default(),
        }
    }

    /// Before `event` goes out as `message`: a snapshot gets both seats' presence.
    pub(crate) fn before_send(&mut self, event: &Event, message: &mut WatchGameResponse) {
        let EventKind::Snapshot(view) = &event.kind else {
            return;
        };
        let clock = ClaimClock::of(view);
        self.clock = Some(clock);
        self.clock_seq = event.seq;
        let presence = *self.watch.rx.borrow_and_update();
        if let Some(pb::watch_game_response::Event::Snapshot(game)) = &mut message.event {
            fill(game, &clock, &presence);
            self.told = ByColor::new_with(|c| Some(seat_presence(c, presence[c], &clock)));
        }
    }

    /// After `event` went out: the turn it hands over.
    pub(crate) fn after_send(&mut self, event: &Event) {
        if event.seq > self.clock_seq
            && let Some(clock) = &mut self.clock
        {
            clock.after(event);
        }
    }

    /// Whether the game is known to be over.
    #[must_use]
    pub(crate) fn over(&self) -> bool {
        self.clock.is_some_and(|c| c.turn.is_none())
    }

    /// The messages for every seat the watcher was not told of as it is now, after event
    /// `seq`.
    pub(crate) fn news(&mut self, seq: u64) -> Vec<WatchGameResponse> {
        self.news_of(seq, None)
    }

    /// After a move: only the side now to move's claim time is news (the mover's claim time
    /// went with its turn, which the move itself says).
    pub(crate) fn news_after_move(&mut self, seq: u64) -> Vec<WatchGameResponse> {
        let to_move = self.clock.and_then(|c| c.turn);
        self.news_of(seq, to_move)
    }

    fn news_of(&mut self, seq: u64, only: Option<Color>) -> Vec<WatchGameResponse> {
        let Some(clock) = self.clock else {
            return Vec::new();
        };
        let presence = *self.watch.rx.borrow_and_update();
        let now = SystemTime::now();
        let mut out = Vec::new();
        for seat in [Color::White, Color::Black] {
            let current = seat_presence(seat, presence[seat], &clock);
            if self.told[seat].as_ref() != Some(&current) {
                self.told[seat] = Some(current);
                if only.is_none_or(|c| c == seat) {
                    out.push(message(seq, seat, presence[seat], &clock, now));
                }
            }
        }
        out
    }

    /// Resolves when the presence changed (never, once the registry let the game go).
    pub(crate) async fn changed(&mut self) {
        if self.watch.rx.changed().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}
