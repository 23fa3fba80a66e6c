//! The migration from schema 4 to 5: each event's columns (a kind's number, a seat's index, a
//! termination's index) become one text `body`, the domain codec's line
//! (`game::codec::write_event`), so SQLite stores no enum by position and reads events with
//! the same decoder as every store. The column decoder below is schema 4's, kept only for this.

use std::path::Path;

use chessd_rules::{
    ByColor, Color, Outcome,
    any::{AnyPosition, AnyVariant},
};
use rusqlite::Connection;

use crate::game::codec::{parse_termination, write_event};
use crate::game::takeback::Line;
use crate::game::{ClockChange, EventRow, LogKind};
use crate::store::sqlite::error::OpenError;

/// Event kinds as schema 4 stored them.
const KIND_MOVE: i64 = 0;
const KIND_DRAW_OFFERED: i64 = 1;
const KIND_DRAW_DECLINED: i64 = 2;
const KIND_GAME_OVER: i64 = 3;
const KIND_CLOCK_CHANGED: i64 = 4;
const KIND_TAKEBACK_PROPOSED: i64 = 5;
const KIND_TAKEBACK_DECLINED: i64 = 6;
/// `plies` holds how many; the log clocks the clocks after it.
const KIND_TAKEN_BACK: i64 = 7;

/// Schema 5's events table (a new file's too).
pub(super) const EVENTS: &str = "
CREATE TABLE events (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
";

/// Migrates a schema 4 database to schema 5, in one transaction: every game's events are
/// played back from their columns and written again as lines (a game that does not play back
/// stops the migration, which then changes nothing).
pub(super) fn migrate_v4(conn: &Connection, path: &Path) -> Result<(), OpenError> {
    let fail = |detail: String| OpenError::Migration {
        path: path.to_owned(),
        detail,
        to: 5,
    };
    let sql = |e: rusqlite::Error| fail(e.to_string());
    conn.execute_batch("BEGIN IMMEDIATE;").map_err(sql)?;
    let migrated = (|| -> Result<usize, OpenError> {
        conn.execute_batch("ALTER TABLE events RENAME TO events_v4;")
            .map_err(sql)?;
        conn.execute_batch(EVENTS).map_err(sql)?;
        let mut games = conn
            .prepare("SELECT id, variant, start_fen FROM games")
            .map_err(sql)?;
        let mut old = conn
            .prepare(
                "SELECT seq, at_ms, kind, seat, mv, request_id, log_white_ms, log_black_ms,
                        clocks_stopped, white_ms, black_ms, winner, termination, clock_change,
                        plies
                 FROM events_v4 WHERE game_id = ?1 ORDER BY seq",
            )
            .map_err(sql)?;
        let mut insert = conn
            .prepare("INSERT INTO events (game_id, seq, body) VALUES (?1, ?2, ?3)")
            .map_err(sql)?;
        let mut events = 0;
        let mut rows = games.query([]).map_err(sql)?;
        while let Some(game) = rows.next().map_err(sql)? {
            let id: String = game.get(0).map_err(sql)?;
            let variant: String = game.get(1).map_err(sql)?;
            let fen: String = game.get(2).map_err(sql)?;
            let bad = |detail: String| fail(format!("game {id}: {detail}"));
            let variant: AnyVariant = variant
                .parse()
                .map_err(|_| bad(format!("variant {variant:?}")))?;
            let start = AnyPosition::from_fen(variant, &fen).map_err(|e| bad(e.to_string()))?;
            let mut line = Line::from_start(start);
            let mut found = old.query([&id]).map_err(sql)?;
            while let Some(r) = found.next().map_err(sql)? {
                let row = event_row(r, &mut line).map_err(|e| match e {
                    RowError::Sql(e) => sql(e),
                    RowError::Bad(detail) => bad(detail),
                })?;
                insert
                    .execute(rusqlite::params![id, row.seq as i64, write_event(&row)])
                    .map_err(sql)?;
                events += 1;
            }
        }
        conn.execute_batch("DROP TABLE events_v4; PRAGMA user_version = 5;")
            .map_err(sql)?;
        Ok(events)
    })();
    match migrated {
        Ok(events) => {
            conn.execute_batch("COMMIT;").map_err(sql)?;
            tracing::info!(path = %path.display(), events, "database migrated to schema 5: events stored as the domain codec's lines");
            Ok(())
        }
        Err(e) => {
            // The rollback's own failure would only hide the cause.
            let _ = conn.execute_batch("ROLLBACK;");
            Err(e)
        }
    }
}

enum RowError {
    Sql(rusqlite::Error),
    Bad(String),
}

impl From<rusqlite::Error> for RowError {
    fn from(e: rusqlite::Error) -> RowError {
        RowError::Sql(e)
    }
}

/// One event as schema 4 kept it, in columns; `line` holds the moves standing before it, advanced past a move or a
/// takeback.
fn event_row(r: &rusqlite::Row<'_>, line: &mut Line<'_>) -> Result<EventRow, RowError> {
    let seq = r.get::<_, i64>(0)?.max(0) as u64;
    let at_ms = r.get::<_, i64>(1)?.max(0) as u64;
    let kind_code: i64 = r.get(2)?;
    let seat = r.get::<_, Option<i64>>(3)?.map(color_of);
    let mv_text: Option<String> = r.get(4)?;
    let request_id: Option<String> = r.get(5)?;
    let log_ms = |i: usize| -> Result<u32, RowError> {
        let v: Option<i64> = r.get(i)?;
        Ok(u32::try_from(v.unwrap_or(0).max(0)).unwrap_or(u32::MAX))
    };
    let clocks_stopped = r.get::<_, Option<i64>>(8)?.unwrap_or(0) != 0;
    let white_ms: Option<i64> = r.get(9)?;
    let black_ms: Option<i64> = r.get(10)?;
    let clocks_ms = white_ms
        .zip(black_ms)
        .map(|(w, b)| ByColor::new(w.max(0) as u64, b.max(0) as u64));
    let winner = r.get::<_, Option<i64>>(11)?.map(color_of);
    // A termination's key; an integer in rows written before the keys (its legacy index).
    let termination: Option<rusqlite::types::Value> = r.get(12)?;
    let seat_of = |what: &str| {
        seat.ok_or_else(|| RowError::Bad(format!("event {seq}: {what} without a side")))
    };
    let mut mv = None;
    let kind = match kind_code {
        KIND_MOVE => {
            let text = mv_text
                .ok_or_else(|| RowError::Bad(format!("event {seq}: a move without its move")))?;
            let position = line.position();
            let m = position.parse_uci(&text).map_err(|e| {
                RowError::Bad(format!("event {seq}: {text} in {}: {e}", position.fen()))
            })?;
            line.play(m);
            mv = Some(m);
            LogKind::Move {
                clocks_ms: ByColor::new(log_ms(6)?, log_ms(7)?),
                clocks_stopped,
            }
        }
        KIND_DRAW_OFFERED => LogKind::DrawOffered(seat_of("a draw offer")?),
        KIND_DRAW_DECLINED => LogKind::DrawDeclined(seat_of("a declined draw")?),
        KIND_GAME_OVER => LogKind::GameOver,
        KIND_CLOCK_CHANGED => {
            let text: Option<String> = r.get(13)?;
            let change = text
                .as_deref()
                .unwrap_or_default()
                .parse::<ClockChange>()
                .map_err(|e| RowError::Bad(format!("event {seq}: {e}")))?;
            LogKind::ClockChanged {
                clocks_ms: ByColor::new(log_ms(6)?, log_ms(7)?),
                change,
                running: !clocks_stopped,
            }
        }
        KIND_TAKEBACK_PROPOSED => LogKind::TakebackProposed(seat_of("a takeback proposal")?),
        KIND_TAKEBACK_DECLINED => LogKind::TakebackDeclined(seat_of("a declined takeback")?),
        KIND_TAKEN_BACK => {
            let plies = r
                .get::<_, Option<i64>>(14)?
                .and_then(|n| u8::try_from(n).ok())
                .filter(|&n| n > 0)
                .ok_or_else(|| RowError::Bad(format!("event {seq}: a takeback without plies")))?;
            line.take_back(plies)
                .map_err(|e| RowError::Bad(format!("event {seq}: {e}")))?;
            LogKind::TakenBack {
                plies,
                by: seat_of("a takeback")?,
                clocks_ms: ByColor::new(log_ms(6)?, log_ms(7)?),
                running: !clocks_stopped,
            }
        }
        other => return Err(RowError::Bad(format!("event {seq}: unknown kind {other}"))),
    };
    let outcome = match termination {
        None => None,
        Some(t) => {
            let termination = match &t {
                rusqlite::types::Value::Integer(i) => parse_termination(&i.to_string()),
                rusqlite::types::Value::Text(key) => parse_termination(key),
                _ => None,
            }
            .ok_or_else(|| RowError::Bad(format!("event {seq}: termination {t:?}")))?;
            Some(Outcome {
                winner,
                termination,
            })
        }
    };
    Ok(EventRow {
        seq,
        at_ms,
        kind,
        mv,
        seat,
        request_id,
        clocks_ms,
        outcome,
        // Version 4 had no games with a setup.
        setup: None,
        entropy: None,
    })
}

fn color_of(index: i64) -> Color {
    if index == 0 {
        Color::White
    } else {
        Color::Black
    }
}
