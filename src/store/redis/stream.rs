//! A game's stream in Redis: one entry per event, with id `seq-0`, holding the event in one
//! field, `e`, as the domain codec's line (`game::codec::write_event`, what a SQLite row's
//! body holds), so an operator still reads a game with `XRANGE`; and the key (time and kind)
//! that tells a stored event from another at the same seq.
//!
//! Why one field: every string of an entry is an argument the append script receives, copies
//! and hands to `XADD`, and Redis's replication repeats it; an entry of one field costs Redis
//! markedly less per move than the dozen strings of the codec's fields one by one (see
//! docs/performance.md, "A move on Redis"). Entries written before hold those fields as the
//! entry's own and still read.

use std::collections::HashMap;

use crate::game::codec::{decode_fields, kind_key, split};
use crate::game::takeback::Line;
use crate::game::{EventRow, LogEntry};

/// The one field of an entry in the line form: a game stream's, and a feed lane's (`feed`).
pub(super) const LINE: &str = "e";

/// An entry of the line form as a script's arguments carry it (its strings, after their
/// count): [`LINE`] and the line (an event's, `game::codec::write_event`; a feed event's,
/// `feed::codec::line_with_header`).
#[must_use]
pub(super) fn entry(line: &str) -> [&str; 2] {
    [LINE, line]
}

/// A stream entry as XRANGE returns it: its id and its fields, flattened.
pub(super) type Entry = (String, Vec<String>);

/// What tells an event apart from another a store may hold at the same seq (see `cache`):
/// its time in milliseconds and its kind's stored key.
pub(super) type EventKey = (u64, &'static str);

/// The key of the copy's event `entry`.
#[must_use]
pub(super) fn event_key(entry: &LogEntry) -> EventKey {
    (entry.at_ms, kind_key(&entry.kind))
}

/// An event key as the game hash keeps it (`last`), `ms:kind`; "" for none.
#[must_use]
pub(super) fn event_key_text(key: Option<EventKey>) -> String {
    key.map(|(ms, kind)| format!("{ms}:{kind}"))
        .unwrap_or_default()
}

/// An entry's event fields by name: the line's (one field, [`LINE`]) or, in an entry written
/// before the line form, the entry's own. A game stream's entries and a feed lane's alike.
pub(super) fn entry_fields(flat: &[String]) -> Result<HashMap<&str, &str>, String> {
    match flat {
        [name, line] if name == LINE => split(line),
        _ => Ok(flat
            .chunks_exact(2)
            .map(|kv| (kv[0].as_str(), kv[1].as_str()))
            .collect()),
    }
}

/// Whether stream entry `entry` is event `seq` with the key `key`.
#[must_use]
pub(super) fn entry_is(entry: &Entry, seq: u64, key: EventKey) -> bool {
    let (id, flat) = entry;
    let Ok(fields) = entry_fields(flat) else {
        return false;
    };
    *id == format!("{seq}-0")
        && fields.get("at").and_then(|t| t.parse::<u64>().ok()) == Some(key.0)
        && fields.get("kind").copied() == Some(key.1)
}

/// Decodes entries that follow event `first_seq - 1` on `line` (the moves standing after the
/// events before them, advanced here past every move and takeback).
pub(super) fn decode_rows(
    line: &mut Line<'_>,
    first_seq: u64,
    entries: &[Entry],
) -> Result<Vec<EventRow>, String> {
    let mut rows = Vec::with_capacity(entries.len());
    for (i, (id, flat)) in entries.iter().enumerate() {
        let seq = first_seq + i as u64;
        if id != &format!("{seq}-0") {
            return Err(format!("entry {id} where event {seq} was expected"));
        }
        let fields = entry_fields(flat).map_err(|e| format!("event {seq}: {e}"))?;
        rows.push(decode_fields(seq, &fields, line)?);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use chessd_rules::{
        ByColor, Color, Outcome, Termination,
        any::{AnyPosition, AnyVariant},
    };

    use super::*;
    use crate::game::codec::{event_fields, write_event};
    use crate::game::{ClockChange, LogKind};

    /// Rows survive the trip through stream fields, moves resolved in their position.
    #[test]
    fn rows_round_trip() {
        let start = AnyPosition::new(AnyVariant::CHESS);
        let e4 = start.parse_uci("e2e4").unwrap();
        let rows = vec![
            EventRow {
                seq: 1,
                at_ms: 1_000,
                kind: LogKind::Move {
                    clocks_ms: ByColor::new(59_000, 60_000),
                    clocks_stopped: false,
                },
                mv: Some(e4),
                seat: Some(Color::White),
                request_id: Some("r 1".into()),
                clocks_ms: Some(ByColor::new(59_000, 60_000)),
                outcome: None,
                setup: None,
                entropy: None,
            },
            EventRow {
                seq: 2,
                at_ms: 1_500,
                kind: LogKind::DrawOffered(Color::Black),
                mv: None,
                seat: Some(Color::Black),
                request_id: None,
                clocks_ms: None,
                outcome: None,
                setup: None,
                entropy: None,
            },
            EventRow {
                seq: 3,
                at_ms: 1_700,
                kind: LogKind::ClockChanged {
                    clocks_ms: ByColor::new(74_000, 60_000),
                    change: ClockChange {
                        side: Color::White,
                        reason: crate::game::ClockReason::Given,
                    },
                    running: true,
                },
                mv: None,
                seat: Some(Color::Black),
                request_id: None,
                clocks_ms: Some(ByColor::new(74_000, 60_000)),
                outcome: None,
                setup: None,
                entropy: None,
            },
            EventRow {
                seq: 4,
                at_ms: 1_600,
                kind: LogKind::TakebackProposed(Color::White),
                mv: None,
                seat: Some(Color::White),
                request_id: None,
                clocks_ms: None,
                outcome: None,
                setup: None,
                entropy: None,
            },
            EventRow {
                seq: 5,
                at_ms: 1_700,
                kind: LogKind::TakebackDeclined(Color::Black),
                mv: None,
                seat: Some(Color::Black),
                request_id: None,
                clocks_ms: None,
                outcome: None,
                setup: None,
                entropy: None,
            },
            EventRow {
                seq: 6,
                at_ms: 1_800,
                kind: LogKind::TakenBack {
                    plies: 1,
                    by: Color::White,
                    clocks_ms: ByColor::new(58_000, 60_000),
                    running: true,
                },
                mv: None,
                seat: Some(Color::White),
                request_id: None,
                clocks_ms: Some(ByColor::new(58_000, 60_000)),
                outcome: None,
                setup: None,
                entropy: None,
            },
            EventRow {
                seq: 7,
                at_ms: 2_000,
                kind: LogKind::GameOver,
                mv: None,
                seat: None,
                request_id: None,
                clocks_ms: Some(ByColor::new(1, 2)),
                outcome: Some(Outcome::win(Color::White, Termination::Resignation)),
                setup: None,
                entropy: None,
            },
        ];
        let lines: Vec<Entry> = rows
            .iter()
            .map(|r| {
                let line = write_event(r);
                let flat = entry(&line).map(str::to_owned).to_vec();
                (format!("{}-0", r.seq), flat)
            })
            .collect();
        // Entries as builds before the line form wrote them: the codec's fields one by one.
        let fields: Vec<Entry> = rows
            .iter()
            .map(|r| {
                let flat = event_fields(r)
                    .into_iter()
                    .flat_map(|(k, v)| [k.to_owned(), v])
                    .collect();
                (format!("{}-0", r.seq), flat)
            })
            .collect();
        assert_eq!(lines[0].1[0], "e");
        assert_eq!(lines[0].1.len(), 2, "one field");
        for entries in [lines, fields] {
            read_back(&rows, &entries, start);
        }
        assert_eq!(event_key_text(Some((1_000, "move"))), "1000:move");
        assert_eq!(event_key_text(None), "");
    }

    /// `entries`, stored from `rows`, decode to them, and each is known by its event's key.
    fn read_back(rows: &[EventRow], entries: &[Entry], start: AnyPosition) {
        let mut line = Line::from_start(start);
        assert_eq!(decode_rows(&mut line, 1, entries).unwrap(), rows);
        assert_eq!(line.position(), &start, "e4 was taken back");
        let mut line = Line::from_start(start);
        assert_eq!(decode_rows(&mut line, 1, &entries[..1]).unwrap(), rows[..1]);
        assert_eq!(line.position().turn(), Color::Black);
        let mut line = Line::from_start(start);
        assert!(decode_rows(&mut line, 2, entries).is_err(), "a gap");
        let mut line = Line::from_start(start);
        assert!(
            decode_rows(&mut line, 6, &entries[5..6]).is_err(),
            "a takeback of more moves than stand"
        );
        // Each stored entry is known again by its event's key, and by no other.
        for (row, entry) in rows.iter().zip(entries) {
            let key = event_key(&LogEntry {
                at_ms: row.at_ms,
                kind: row.kind,
            });
            assert!(entry_is(entry, row.seq, key), "{entry:?}");
            assert!(!entry_is(entry, row.seq + 1, key), "another seq");
            assert!(
                !entry_is(entry, row.seq, (key.0 + 1, key.1)),
                "another time"
            );
        }
        assert!(!entry_is(&entries[0], 1, (1_000, "offer")), "another kind");
    }

    /// A line that is not one (a field without its value) is named, not guessed at.
    #[test]
    fn a_damaged_line_is_refused() {
        let start = AnyPosition::new(AnyVariant::CHESS);
        let entry: Entry = (
            "1-0".into(),
            vec!["e".into(), "at\u{1e}1000\u{1e}kind".into()],
        );
        let mut line = Line::from_start(start);
        let err = decode_rows(&mut line, 1, std::slice::from_ref(&entry)).unwrap_err();
        assert!(err.starts_with("event 1: "), "{err}");
        assert!(!entry_is(&entry, 1, (1_000, "move")));
    }
}
