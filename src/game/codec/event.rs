//! An event as stored: the one encoder (`put_event`, as a line by [`write_event`]) and the one
//! decoder ([`decode_fields`], [`decode_event`]) of an [`EventRow`], whatever keeps it (a
//! SQLite row and a Redis stream entry hold the line; Redis entries written before 2026-12-06
//! hold the fields one by one).
//!
//! The fields: `at` (ms since the epoch), `kind` ([`kind_key`]), the kind's own (`log_clocks`
//! `w,b` and `stopped` for a move; `log_clocks`, `change` and `running` for a clock change;
//! `plies`, `log_clocks` and `running` for a takeback; `step` for a setup or an entropy
//! event), then whichever of `uci`, `seat`, `request_id`, `clocks` (`w,b`), `outcome`
//! ([`outcome_text`]), a setup's `placement` and, on its reveal, the game's `start`, an entropy
//! event's `value` (hex) and, on its `start` step, the game's `start` the row has.

use std::collections::HashMap;

use chessd_rules::ByColor;
use chessd_rules::any::AnyPosition;

use crate::game::codec::hex;
use crate::game::codec::outcome::{outcome_text, parse_outcome};
use crate::game::codec::text::{
    FieldSink, LineWriter, flag, pair, parse_pair, parse_side, side, split,
};
use crate::game::entropy::{EntropyStep, parse_value};
use crate::game::setup::SetupStep;
use crate::game::takeback::Line;
use crate::game::{ClockChange, EntropyRow, EventRow, LogKind, SetupRow};

/// A kind's stored key (a Redis entry's `kind` field, part of the key of a game's last event).
#[must_use]
pub(crate) fn kind_key(kind: &LogKind) -> &'static str {
    match kind {
        LogKind::Move { .. } => "move",
        LogKind::DrawOffered(_) => "offer",
        LogKind::DrawDeclined(_) => "decline",
        LogKind::GameOver => "over",
        LogKind::ClockChanged { .. } => "clock",
        LogKind::TakebackProposed(_) => "tb-offer",
        LogKind::TakebackDeclined(_) => "tb-decline",
        LogKind::TakebackWithdrawn(_) => "tb-withdraw",
        LogKind::TakenBack { .. } => "tb",
        LogKind::Setup { .. } => "setup",
        LogKind::Entropy { .. } => "entropy",
    }
}

/// The event's fields, in order.
#[cfg(test)]
#[must_use]
pub(crate) fn event_fields(row: &EventRow) -> Vec<(&'static str, String)> {
    let mut f = Vec::new();
    put_event(row, &mut f);
    f
}

/// The event as one line of text (a SQLite row's `body`, a Redis stream entry's one field).
#[must_use]
pub(crate) fn write_event(row: &EventRow) -> String {
    let mut line = LineWriter::with_capacity(96);
    put_event(row, &mut line);
    line.finish()
}

/// The event's fields, in order, into `f`.
fn put_event(row: &EventRow, f: &mut impl FieldSink) {
    f.put("at", row.at_ms);
    f.put("kind", kind_key(&row.kind));
    match row.kind {
        LogKind::Move {
            clocks_ms,
            clocks_stopped,
        } => {
            f.put("log_clocks", pair(&clocks_ms));
            f.put("stopped", flag(clocks_stopped));
        }
        LogKind::DrawOffered(_)
        | LogKind::DrawDeclined(_)
        | LogKind::GameOver
        | LogKind::TakebackProposed(_)
        | LogKind::TakebackDeclined(_)
        | LogKind::TakebackWithdrawn(_) => {}
        LogKind::ClockChanged {
            clocks_ms,
            change,
            running,
        } => {
            f.put("log_clocks", pair(&clocks_ms));
            f.put("change", change);
            f.put("running", flag(running));
        }
        LogKind::TakenBack {
            plies,
            clocks_ms,
            running,
            ..
        } => {
            f.put("plies", plies);
            f.put("log_clocks", pair(&clocks_ms));
            f.put("running", flag(running));
        }
        LogKind::Setup { step, .. } => f.put("step", step.key()),
        LogKind::Entropy { step, .. } => f.put("step", step.key()),
    }
    if let Some(mv) = row.mv {
        f.put("uci", mv);
    }
    if let Some(seat) = row.seat {
        f.put("seat", side(seat));
    }
    if let Some(rid) = &row.request_id {
        f.put("request_id", rid);
    }
    if let Some(clocks) = row.clocks_ms {
        f.put("clocks", pair(&clocks));
    }
    if let Some(o) = row.outcome {
        f.put("outcome", outcome_text(o));
    }
    if let Some(setup) = &row.setup {
        f.put("placement", &setup.placement);
        if let Some(start) = &setup.start {
            f.put("start", start);
        }
    }
    if let Some(entropy) = &row.entropy {
        f.put("value", hex(&entropy.value));
        if let Some(start) = &entropy.start {
            f.put("start", start);
        }
    }
}

/// Event `seq` from its line, `line` holding the moves standing before it (advanced here past
/// a move or a takeback).
pub(crate) fn decode_event(seq: u64, text: &str, line: &mut Line<'_>) -> Result<EventRow, String> {
    let fields = split(text).map_err(|e| format!("event {seq}: {e}"))?;
    decode_fields(seq, &fields, line)
}

/// Event `seq` from its fields, `line` holding the moves standing before it (advanced here
/// past a move or a takeback). Every field is checked; a wrong one is named, never guessed at.
pub(crate) fn decode_fields(
    seq: u64,
    fields: &HashMap<&str, &str>,
    line: &mut Line<'_>,
) -> Result<EventRow, String> {
    let get = |name: &str| fields.get(name).copied();
    let bad = |what: &str| format!("event {seq}: {what}");
    let at_ms = get("at")
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| bad("time"))?;
    let seat = get("seat").map(parse_side).transpose()?;
    let clocks_ms = match get("clocks") {
        Some(text) => Some(parse_pair(text).ok_or_else(|| bad("clocks"))?),
        None => None,
    };
    let outcome = get("outcome").map(parse_outcome).transpose()?;
    // The log keeps 32-bit milliseconds; a larger stored value saturates as the log would.
    let log_clocks = |what: &str| -> Result<ByColor<u32>, String> {
        get("log_clocks")
            .and_then(parse_pair)
            .map(|ms| ms.map(|ms| u32::try_from(ms).unwrap_or(u32::MAX)))
            .ok_or_else(|| bad(what))
    };
    let running = get("running") == Some("1");
    let side_of = |what: &str| seat.ok_or_else(|| bad(what));
    let mut mv = None;
    let mut setup = None;
    let mut entropy = None;
    let kind = match get("kind") {
        Some("move") => {
            let text = get("uci").ok_or_else(|| bad("a move without its move"))?;
            let position = line.position();
            let m = position
                .parse_uci(text)
                .map_err(|e| bad(&format!("{text} in {}: {e}", position.fen())))?;
            line.play(m);
            mv = Some(m);
            LogKind::Move {
                clocks_ms: log_clocks("move clocks")?,
                clocks_stopped: get("stopped") == Some("1"),
            }
        }
        Some("offer") => LogKind::DrawOffered(side_of("offer without side")?),
        Some("decline") => LogKind::DrawDeclined(side_of("decline without side")?),
        Some("over") => LogKind::GameOver,
        Some("clock") => {
            let clocks_ms = log_clocks("change clocks")?;
            let change: ClockChange = get("change")
                .ok_or_else(|| bad("a clock change without its change"))?
                .parse()
                .map_err(|e: String| bad(&e))?;
            LogKind::ClockChanged {
                clocks_ms,
                change,
                running,
            }
        }
        Some("tb-offer") => LogKind::TakebackProposed(side_of("takeback without side")?),
        Some("tb-decline") => LogKind::TakebackDeclined(side_of("takeback without side")?),
        Some("tb-withdraw") => LogKind::TakebackWithdrawn(side_of("takeback without side")?),
        Some("tb") => {
            let plies: u8 = get("plies")
                .and_then(|t| t.parse().ok())
                .filter(|&p| p > 0)
                .ok_or_else(|| bad("takeback plies"))?;
            line.take_back(plies).map_err(|e| bad(&e))?;
            LogKind::TakenBack {
                plies,
                by: side_of("takeback without side")?,
                clocks_ms: log_clocks("takeback clocks")?,
                running,
            }
        }
        Some("setup") => {
            let step = get("step")
                .and_then(SetupStep::from_key)
                .ok_or_else(|| bad("a setup without its step"))?;
            let placement = get("placement").ok_or_else(|| bad("a setup without its placement"))?;
            let start = get("start").map(str::to_owned);
            // The moves after a reveal are played from the start it gave.
            if let Some(fen) = &start {
                let variant = line.position().variant();
                let position = AnyPosition::from_fen(variant, fen)
                    .map_err(|e| bad(&format!("the start {fen}: {e}")))?;
                *line = Line::from_start(position);
            }
            setup = Some(Box::new(SetupRow {
                placement: placement.to_owned(),
                start,
            }));
            LogKind::Setup {
                seat: side_of("a setup without its side")?,
                step,
            }
        }
        Some("entropy") => {
            let step = get("step")
                .and_then(EntropyStep::from_key)
                .ok_or_else(|| bad("an entropy event without its step"))?;
            let value = get("value")
                .and_then(parse_value)
                .ok_or_else(|| bad("an entropy event without its value"))?;
            let start = get("start").map(str::to_owned);
            // The moves after the phase are played from the start it gave (Dice Chess's
            // first roll).
            if let Some(fen) = &start {
                let variant = line.position().variant();
                let position = AnyPosition::from_fen(variant, fen)
                    .map_err(|e| bad(&format!("the start {fen}: {e}")))?;
                *line = Line::from_start(position);
            }
            entropy = Some(Box::new(EntropyRow { value, start }));
            LogKind::Entropy {
                seat: side_of("an entropy event without its side")?,
                step,
            }
        }
        _ => return Err(bad("unknown kind")),
    };
    Ok(EventRow {
        seq,
        at_ms,
        kind,
        mv,
        seat,
        request_id: get("request_id").map(str::to_owned),
        clocks_ms,
        outcome,
        setup,
        entropy,
    })
}
