//! Presence on the wire: a seat's `SeatPresence` (with the time a claim becomes possible),
//! the `Game` fields that show both seats', and the `PlayerPresence` messages of a WatchGame
//! stream, which like heartbeats carry the seq of the last event sent and are not numbered.

use std::time::{Duration, SystemTime};

use chessd_rules::{ByColor, Color};

use crate::api::encode::{maybe_color, proto_duration, timestamp};
use crate::game::presence::claim_at;
use crate::game::setup::awaiting_setup;
use crate::game::{Event, EventKind, GameView, SeatPresence};
use chessd_proto::wire as pb;

/// What a claim against a seat waits on, besides its presence: whose turn it is and since
/// when, and the game's grace period. A watcher's pump keeps it current from the events it
/// sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ClaimClock {
    pub claim_after: Duration,
    /// The side to move; `None` once the game is over.
    pub turn: Option<Color>,
    pub turn_began: SystemTime,
}

impl ClaimClock {
    #[must_use]
    pub(crate) fn of(view: &GameView) -> ClaimClock {
        ClaimClock {
            claim_after: view.claim_after,
            // In a setup no side is to move (the placeholder's Black is nobody's turn): no
            // claim is possible before the reveal, so none is announced.
            turn: (!view.game.is_over() && !awaiting_setup(&view.game.position()))
                .then(|| view.game.position().turn()),
            turn_began: view.turn_began,
        }
    }

    /// The clock after `event`; true if the side to move changed.
    pub(crate) fn after(&mut self, event: &Event) -> bool {
        let before = self.turn;
        match &event.kind {
            EventKind::Snapshot(view) => *self = ClaimClock::of(view),
            EventKind::MovePlayed { played, .. } => {
                self.turn = Some(!played.color);
                self.turn_began = event.at;
            }
            // The side to move after a takeback starts its turn again.
            EventKind::MovesTakenBack { position, .. } => {
                self.turn = Some(position.turn());
                self.turn_began = event.at;
            }
            EventKind::GameOver { .. } => self.turn = None,
            // The reveal starts White's first turn.
            EventKind::SetupPlaced { start: Some(_), .. } => {
                self.turn = Some(chessd_rules::Color::White);
                self.turn_began = event.at;
            }
            EventKind::SetupPlaced { .. } => {}
            // The second secret starts the first turn.
            EventKind::EntropySubmitted {
                start: Some(start), ..
            } => {
                self.turn = Some(start.turn());
                self.turn_began = event.at;
            }
            EventKind::EntropySubmitted { .. } => {}
            EventKind::DrawOffered { .. }
            | EventKind::DrawDeclined { .. }
            | EventKind::ClockChanged { .. }
            | EventKind::TakebackProposed { .. }
            | EventKind::TakebackDeclined { .. }
            | EventKind::TakebackWithdrawn { .. } => {}
        }
        self.turn != before
    }

    /// When `seat`'s opponent may claim, given `seat`'s presence.
    #[must_use]
    pub(crate) fn claim_at(&self, seat: Color, presence: SeatPresence) -> Option<SystemTime> {
        if self.turn != Some(seat) {
            return None;
        }
        claim_at(presence, self.turn_began, self.claim_after)
    }
}

/// `seat`'s presence on the wire.
#[must_use]
pub(crate) fn seat_presence(
    seat: Color,
    presence: SeatPresence,
    clock: &ClaimClock,
) -> pb::SeatPresence {
    pb::SeatPresence {
        connected: presence.connected,
        since: presence.since.map(timestamp),
        claim_at: clock.claim_at(seat, presence).map(timestamp),
        claim_after: Some(proto_duration(clock.claim_after)),
    }
}

/// Sets `game`'s presence fields.
pub(crate) fn fill(game: &mut pb::Game, clock: &ClaimClock, presence: &ByColor<SeatPresence>) {
    game.fields.white_presence = Some(seat_presence(Color::White, presence[Color::White], clock));
    game.fields.black_presence = Some(seat_presence(Color::Black, presence[Color::Black], clock));
}

/// The message telling a watcher `seat`'s presence, after event `seq`.
#[must_use]
pub(crate) fn message(
    seq: u64,
    seat: Color,
    presence: SeatPresence,
    clock: &ClaimClock,
    at: SystemTime,
) -> pb::WatchGameResponse {
    pb::WatchGameResponse {
        seq,
        server_time: Some(timestamp(at)),
        event: Some(pb::watch_game_response::Event::PlayerPresence(
            pb::PlayerPresence {
                seat: maybe_color(Some(seat)),
                presence: Some(seat_presence(seat, presence, clock)),
            },
        )),
        seat: pb::Color::Unspecified as i32,
    }
}
