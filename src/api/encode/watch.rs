//! WatchGame's messages: one game's events, its clock changes off the board, and
//! heartbeats.

use std::time::SystemTime;

use chessd_rules::any::AnyPosition;

use crate::api::encode::entropy;
use crate::api::encode::game::{game, played, unseen};
use crate::api::encode::setup;
use crate::api::encode::values::{clocks, color, maybe_color, outcome, timestamp};
use crate::game::setup::awaiting_setup;
use crate::game::{ClockChange, ClockReading, ClockReason, Event, EventKind, Viewer};
use chessd_proto::wire as pb;

/// A clock change off the board, with both clocks after it.
fn clock_changed(change: ClockChange, c: &ClockReading) -> pb::ClockChanged {
    pb::ClockChanged {
        side: color(change.side),
        by: maybe_color(change.by()),
        reason: (match change.reason {
            ClockReason::Given => pb::ClockChangeReason::Given,
            ClockReason::ArbiterSet => pb::ClockChangeReason::ArbiterSet,
            ClockReason::ArbiterAdded => pb::ClockChangeReason::ArbiterAdded,
            ClockReason::ArbiterSubtracted => pb::ClockChangeReason::ArbiterSubtracted,
        }) as i32,
        clocks: Some(clocks(c)),
    }
}

/// One event of a WatchGame stream, as `viewer` sees it (the whole game once it is over).
#[must_use]
pub fn event(e: &Event, viewer: Viewer) -> pb::WatchGameResponse {
    use pb::watch_game_response::Event as E;
    let body = match &e.kind {
        EventKind::Snapshot(view) => E::Snapshot(game(view, viewer)),
        EventKind::MovePlayed {
            played: m,
            position,
            fen,
            clocks: c,
            draw_offer,
        } => E::MovePlayed(pb::MovePlayed {
            r#move: Some(if viewer.sees_moves_of(m.color) {
                played(m)
            } else {
                unseen(m.ply, m.color, m.seq)
            }),
            fen: if viewer.is_whole() {
                fen.of(position).to_owned()
            } else {
                viewer.fen(position)
            },
            clocks: c.as_ref().map(clocks),
            draw_offer: maybe_color(*draw_offer),
        }),
        EventKind::DrawOffered { by } => E::DrawOffered(pb::DrawOffered { by: color(*by) }),
        EventKind::DrawDeclined { by } => E::DrawDeclined(pb::DrawDeclined { by: color(*by) }),
        EventKind::TakebackProposed { by, plies, ply } => {
            E::TakebackProposed(pb::TakebackProposed {
                by: color(*by),
                plies: u32::from(*plies),
                ply: *ply,
            })
        }
        EventKind::TakebackDeclined { by } => {
            E::TakebackDeclined(pb::TakebackDeclined { by: color(*by) })
        }
        EventKind::TakebackWithdrawn { by } => {
            E::TakebackWithdrawn(pb::TakebackWithdrawn { by: color(*by) })
        }
        EventKind::MovesTakenBack {
            by,
            plies,
            ply,
            position,
            clocks: c,
        } => E::MovesTakenBack(pb::MovesTakenBack {
            by: color(*by),
            plies: u32::from(*plies),
            ply: *ply,
            fen: viewer.fen(position),
            clocks: c.as_ref().map(clocks),
        }),
        EventKind::GameOver {
            outcome: o,
            position,
        } => E::GameOver(pb::GameOver {
            outcome: Some(outcome(*o)),
            fen: if awaiting_setup(position) {
                setup::empty_board()
            } else {
                position.fen()
            },
        }),
        EventKind::ClockChanged { change, clocks: c } => E::ClockChanged(clock_changed(*change, c)),
        EventKind::SetupPlaced { by, step, start } => E::SetupPlaced(pb::SetupPlaced {
            by: color(*by),
            committed: step.is_final(),
            start_fen: start.as_ref().map(AnyPosition::fen).unwrap_or_default(),
        }),
        EventKind::EntropySubmitted {
            by,
            step,
            commitment,
            secrets,
            start,
        } => E::EntropySubmitted(entropy::submitted(
            *by,
            *step,
            commitment.as_ref(),
            secrets.as_ref(),
            start.as_ref(),
        )),
    };
    pb::WatchGameResponse {
        seq: e.seq,
        server_time: Some(timestamp(e.at)),
        event: Some(body),
        seat: pb::Color::Unspecified as i32,
    }
}

/// A heartbeat after event `seq`.
#[must_use]
pub fn heartbeat(seq: u64, at: SystemTime) -> pb::WatchGameResponse {
    pb::WatchGameResponse {
        seq,
        server_time: Some(timestamp(at)),
        event: Some(pb::watch_game_response::Event::Heartbeat(pb::Heartbeat {})),
        seat: pb::Color::Unspecified as i32,
    }
}
