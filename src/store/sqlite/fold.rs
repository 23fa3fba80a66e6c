//! The recent events' log (`recent_events`, schema 6) and its fold into `events`.
//!
//! Why: `events` is keyed by game, so a commit of moves from N games dirtied N pages of it, and
//! each dirty page is a whole page written to the WAL and flushed. That was most of the
//! writer's time (measured: about one 4 KiB page per move). The writer now appends each event
//! to `recent_events` instead, in commit order, where a commit's rows share a page or two, and
//! every [`FOLD_ROWS`] rows moves them all to `events` in one statement inside a batch's
//! transaction: a game's many moves then land on its page at once. A fold is atomic with the
//! batch it rides in, so every committed event is in exactly one of the two tables; the start
//! folds what is left (see [`fold_all`]) before it loads, so loading reads `events` only.

use std::collections::HashSet;

use rusqlite::{Connection, Transaction, params};

use crate::game::EventRow;
use crate::game::GameId;
use crate::game::codec::write_event;

/// Rows appended before a fold: large enough that each game in play has many moves in a fold
/// (so each of its pages is written once for them), small enough that a fold stays a few
/// milliseconds and that deleting a game found in the log (which folds first) is cheap.
pub(super) const FOLD_ROWS: usize = 4096;

/// What the writer knows of the log: its length and the games in it.
#[derive(Debug, Default)]
pub(super) struct RecentLog {
    rows: usize,
    games: HashSet<GameId>,
}

impl RecentLog {
    /// An empty log (the start folds the file's, see [`fold_all`]).
    #[must_use]
    pub(super) fn new() -> RecentLog {
        RecentLog::default()
    }

    /// Appends a game's new events.
    pub(super) fn append(
        &mut self,
        tx: &Transaction<'_>,
        game: GameId,
        id: &str,
        rows: &[EventRow],
    ) -> rusqlite::Result<()> {
        let mut insert = tx
            .prepare_cached("INSERT INTO recent_events (game_id, seq, body) VALUES (?1, ?2, ?3)")?;
        for row in rows {
            insert.execute(params![id, row.seq as i64, write_event(row)])?;
        }
        self.rows += rows.len();
        if !rows.is_empty() {
            self.games.insert(game);
        }
        Ok(())
    }

    /// Whether any of `games` has events in the log (a deletion must fold first).
    #[must_use]
    pub(super) fn holds_any(&self, games: &[GameId]) -> bool {
        games.iter().any(|g| self.games.contains(g))
    }

    /// Whether the log is long enough to fold.
    #[must_use]
    pub(super) fn full(&self) -> bool {
        self.rows >= FOLD_ROWS
    }

    /// Moves the log to `events`, in `tx`. Its state says "empty" from here on: if `tx` fails
    /// to commit, the writer stops taking changes anyway.
    pub(super) fn fold(&mut self, tx: &Transaction<'_>) -> rusqlite::Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        fold_sql(tx)?;
        self.rows = 0;
        self.games.clear();
        Ok(())
    }
}

/// Moves whatever the log holds to `events` (at start, before loading: a crash may leave rows
/// there). Returns the number of rows moved.
pub(super) fn fold_all(conn: &Connection) -> rusqlite::Result<usize> {
    fold_sql(conn)
}

/// The fold: in key order, so the inserts walk `events` page by page.
fn fold_sql(conn: &Connection) -> rusqlite::Result<usize> {
    let moved = conn
        .prepare_cached(
            "INSERT INTO events (game_id, seq, body)
             SELECT game_id, seq, body FROM recent_events ORDER BY game_id, seq",
        )?
        .execute([])?;
    conn.prepare_cached("DELETE FROM recent_events")?
        .execute([])?;
    Ok(moved)
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime};

    use chessd_rules::Color;

    use super::*;
    use crate::game::LogKind;
    use crate::store::sqlite::migrate_v4::EVENTS;
    use crate::store::sqlite::schema::RECENT_EVENTS;

    fn offer(seq: u64) -> EventRow {
        EventRow {
            seq,
            at_ms: seq * 10,
            kind: LogKind::DrawOffered(Color::White),
            mv: None,
            seat: Some(Color::White),
            request_id: None,
            clocks_ms: None,
            outcome: None,
            setup: None,
            entropy: None,
        }
    }

    fn count(conn: &Connection, table: &str) -> i64 {
        conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
            .unwrap()
    }

    #[test]
    fn a_fold_moves_every_row_once_and_forgets_the_games() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(&format!("{EVENTS} {RECENT_EVENTS}"))
            .unwrap();
        let at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        let (a, b, c) = (GameId::new(at, 1), GameId::new(at, 2), GameId::new(at, 3));
        let mut log = RecentLog::new();
        let tx = conn.transaction().unwrap();
        log.append(&tx, a, &a.to_string(), &[offer(1), offer(2)])
            .unwrap();
        log.append(&tx, b, &b.to_string(), &[offer(1)]).unwrap();
        log.append(&tx, a, &a.to_string(), &[offer(3)]).unwrap();
        tx.commit().unwrap();
        assert_eq!(
            (count(&conn, "recent_events"), count(&conn, "events")),
            (4, 0)
        );
        assert!(log.holds_any(&[c, a]));
        assert!(!log.holds_any(&[c]));
        assert!(!log.full());

        let tx = conn.transaction().unwrap();
        log.fold(&tx).unwrap();
        tx.commit().unwrap();
        assert_eq!(
            (count(&conn, "recent_events"), count(&conn, "events")),
            (0, 4)
        );
        assert!(!log.holds_any(&[a, b]));
        let seqs: Vec<i64> = conn
            .prepare("SELECT seq FROM events WHERE game_id = ?1 ORDER BY seq")
            .unwrap()
            .query_map([a.to_string()], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(seqs, [1, 2, 3]);

        // What a crash leaves in the log, the start moves.
        conn.execute(
            "INSERT INTO recent_events (game_id, seq, body) VALUES (?1, 2, 'x')",
            [b.to_string()],
        )
        .unwrap();
        assert_eq!(fold_all(&conn).unwrap(), 1);
        assert_eq!(
            (count(&conn, "recent_events"), count(&conn, "events")),
            (0, 5)
        );
    }
}
