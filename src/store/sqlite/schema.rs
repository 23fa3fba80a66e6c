//! The database file: its schema, opening it locked and checked, and the migrations: from
//! schema 1 (clear seat tokens) to 2 (their digests), from
//! 2 to 3 (labels, seats bound to player ids, the feed, player tokens), from 3 to 4 (the
//! clocks' start rules, per-side times, clock changes, takebacks, the grace period before a
//! claim); from 4 to 5 (events as text lines) is `migrate_v4`'s; from 5 to 6 (the recent events'
//! log, see `fold`); from 6 to 7 (a game's draw rule and takebacks by key) is `migrate_v6`'s.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, params};

use crate::game::{SeatToken, TokenDigest};
use crate::store::config::SyncMode;
use crate::store::sqlite::columns::{GAMES, GAMES_ENDED};
use crate::store::sqlite::error::OpenError;
use crate::store::sqlite::migrate_v4::{EVENTS, migrate_v4};
use crate::store::sqlite::migrate_v6::migrate_v6;

/// The database file inside the data directory.
pub const DB_FILE: &str = "chessd.db";

/// The schema this build writes; older files are migrated to it at start (see
/// [`migrate_v1`], `migrate_v2`), newer ones are refused.
///
/// - 1: seat tokens in clear (`white_token`, `black_token`).
/// - 2: their SHA-256 digests instead (`white_digest`, `black_digest`, 32-byte blobs).
/// - 3: `games.labels` (see `game::Labels::to_stored`), `games.white_player_id` and
///   `black_player_id` (an empty digest: a seat without a seat token), the `feed` table (one
///   row per feed event, `body` as `feed::codec::line` writes it; `meta` keeps its epoch, its
///   last position and the last one deleted) and `player_tokens` (digests only).
/// - 4: `games.black_initial_ms`, `black_increment_ms` (NULL: as White's), `clock_start`
///   (`game::ClockStart`'s text; empty: on creation), `first_move_timeout_ms` (NULL: no
///   first-move timer), `takebacks` (0 off, 1 on request), `events.clock_change`
///   (`game::ClockChange`'s text, on `KIND_CLOCK_CHANGED` rows) and `events.plies` (a
///   takeback's count), `games.claim_after_ms` (the grace period before ClaimVictory;
///   NULL, in games of earlier files: the default of the game's time control).
///
/// - 5: `events` keeps each event as one text `body`, the domain codec's line
///   (`game::codec::write_event`), instead of a column per field with kinds, seats and
///   terminations by number (see `migrate_v4`).
/// - 6: `recent_events`, the same rows in the order they were committed (see `fold`): the
///   writer appends there and moves them to `events` in bulk, and the start moves what is left.
/// - 7: `games` keeps each column as the domain codec's header field (`columns`):
///   `draw_rule` and `takebacks` by key (`claim`, `on-request`) instead of by number, and
///   `more_fields`, the codec's fields without a column of their own (see `migrate_v6`).
pub const SCHEMA_VERSION: i64 = 7;

const SCHEMA: &str = "
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE stats (
    variant TEXT PRIMARY KEY,
    white_wins INTEGER NOT NULL,
    black_wins INTEGER NOT NULL,
    draws INTEGER NOT NULL
) WITHOUT ROWID;
";

/// What schema 3 adds (to a new file, and to a schema 2 file in [`migrate_v2`]).
const SCHEMA_3: &str = "
CREATE TABLE feed (
    pos INTEGER PRIMARY KEY,
    at_ms INTEGER NOT NULL,
    game_id TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE TABLE player_tokens (
    token_id TEXT PRIMARY KEY,
    digest BLOB NOT NULL,
    player_id TEXT NOT NULL,
    issued_at_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX player_tokens_player ON player_tokens (player_id);
";

/// What schema 6 adds: events as committed, before `fold` moves them to `events`. Appended in
/// `pos` order, so a commit of many games' moves writes one or two pages instead of each
/// game's own page of `events`.
pub(super) const RECENT_EVENTS: &str = "
CREATE TABLE recent_events (
    pos INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL
);
";

/// Opens, locks, checks and, when new, creates the database. Nothing is written to a file
/// before it is known to be a healthy chessd database of a known version (or a new one).
pub(super) fn connect(path: &Path, sync: SyncMode) -> Result<Connection, OpenError> {
    let conn = Connection::open(path).map_err(|e| sql_error(path, &e))?;
    let lock = || -> rusqlite::Result<()> {
        // A locked file must fail at once, not after rusqlite's default five-second wait.
        conn.busy_timeout(Duration::ZERO)?;
        conn.pragma_update(None, "locking_mode", "EXCLUSIVE")?;
        // Takes the exclusive lock now; locking_mode=EXCLUSIVE keeps it until the file closes.
        conn.execute_batch("BEGIN EXCLUSIVE; COMMIT;")
    };
    lock().map_err(|e| sql_error(path, &e))?;
    let check: String = conn
        .query_row("PRAGMA quick_check", [], |r| r.get(0))
        .map_err(|e| sql_error(path, &e))?;
    if check != "ok" {
        return Err(OpenError::Corrupt {
            path: path.to_owned(),
            detail: check,
        });
    }
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(|e| sql_error(path, &e))?;
    let mut migrate = None;
    let new = match version {
        0 => {
            let tables: i64 = conn
                .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
                .map_err(|e| sql_error(path, &e))?;
            if tables > 0 {
                return Err(OpenError::Foreign {
                    path: path.to_owned(),
                });
            }
            true
        }
        SCHEMA_VERSION => false,
        1..=6 => {
            migrate = Some(version);
            false
        }
        found => {
            return Err(OpenError::NewerSchema {
                path: path.to_owned(),
                found,
                known: SCHEMA_VERSION,
            });
        }
    };
    let setup = || -> rusqlite::Result<()> {
        let mode: String =
            conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(rusqlite::Error::InvalidParameterName(format!(
                "journal mode {mode} instead of wal"
            )));
        }
        let synchronous = match sync {
            SyncMode::Full => "FULL",
            SyncMode::Normal => "NORMAL",
        };
        conn.pragma_update(None, "synchronous", synchronous)?;
        if new {
            conn.execute_batch(&format!(
                "BEGIN; {SCHEMA} {GAMES} {GAMES_ENDED} {EVENTS} {SCHEMA_3} {RECENT_EVENTS} INSERT INTO meta (key, value) VALUES ('feed_epoch', {});
                 PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;",
                feed_epoch()
            ))?;
        }
        Ok(())
    };
    setup().map_err(|e| sql_error(path, &e))?;
    if migrate == Some(1) {
        migrate_v1(&conn, path)?;
    }
    if migrate.is_some_and(|v| v <= 2) {
        migrate_v2(&conn, path)?;
    }
    if migrate.is_some_and(|v| v <= 3) {
        migrate_v3(&conn, path)?;
    }
    if migrate.is_some_and(|v| v <= 4) {
        migrate_v4(&conn, path)?;
    }
    if migrate.is_some_and(|v| v <= 5) {
        migrate_v5(&conn, path)?;
    }
    if migrate.is_some() {
        migrate_v6(&conn, path)?;
    }
    Ok(conn)
}

/// Migrates a schema 5 database to schema 6: the empty log of recent events.
fn migrate_v5(conn: &Connection, path: &Path) -> Result<(), OpenError> {
    conn.execute_batch(&format!(
        "BEGIN IMMEDIATE; {RECENT_EVENTS} PRAGMA user_version = 6; COMMIT;"
    ))
    .map_err(|e| {
        // The rollback's own failure would only hide the cause.
        let _ = conn.execute_batch("ROLLBACK;");
        OpenError::Migration {
            path: path.to_owned(),
            detail: e.to_string(),
            to: 6,
        }
    })?;
    tracing::info!(path = %path.display(), "database migrated to schema 6: the recent events' log");
    Ok(())
}

/// A new feed's epoch (see `feed::cursor`), as SQLite's signed integer.
fn feed_epoch() -> i64 {
    let n =
        getrandom::u64().unwrap_or_else(|_| crate::game::epoch_ms(std::time::SystemTime::now()));
    i64::from_be_bytes(n.to_be_bytes())
}

/// Migrates a schema 3 database to schema 4, in one transaction: the games' clock columns
/// (every game kept has the same time for both sides, clocks from its creation and no
/// first-move timer, as before) and the events' clock changes (none yet).
pub(super) fn migrate_v3(conn: &Connection, path: &Path) -> Result<(), OpenError> {
    conn.execute_batch(
        "BEGIN IMMEDIATE;
         ALTER TABLE games ADD COLUMN black_initial_ms INTEGER;
         ALTER TABLE games ADD COLUMN black_increment_ms INTEGER;
         ALTER TABLE games ADD COLUMN clock_start TEXT NOT NULL DEFAULT '';
         ALTER TABLE games ADD COLUMN first_move_timeout_ms INTEGER;
         ALTER TABLE events ADD COLUMN clock_change TEXT;
         ALTER TABLE games ADD COLUMN takebacks INTEGER NOT NULL DEFAULT 0;
         ALTER TABLE events ADD COLUMN plies INTEGER;
         ALTER TABLE games ADD COLUMN claim_after_ms INTEGER;
         PRAGMA user_version = 4;
         COMMIT;",
    )
    .map_err(|e| {
        // The rollback's own failure would only hide the cause.
        let _ = conn.execute_batch("ROLLBACK;");
        OpenError::Migration {
            path: path.to_owned(),
            detail: e.to_string(),
            to: 4,
        }
    })?;
    tracing::info!(path = %path.display(), "database migrated to schema 4: clock start rules, per-side times, clock changes, takebacks, claim grace periods");
    Ok(())
}

/// Migrates a schema 2 database to schema 3, in one transaction: the games' new columns (no
/// labels, no player bound), the empty feed (with its epoch) and the empty player tokens.
pub(super) fn migrate_v2(conn: &Connection, path: &Path) -> Result<(), OpenError> {
    let sql = |e: rusqlite::Error| OpenError::Migration {
        path: path.to_owned(),
        detail: e.to_string(),
        to: 3,
    };
    conn.execute_batch(&format!(
        "BEGIN IMMEDIATE;
         ALTER TABLE games ADD COLUMN labels TEXT NOT NULL DEFAULT '';
         ALTER TABLE games ADD COLUMN white_player_id TEXT;
         ALTER TABLE games ADD COLUMN black_player_id TEXT;
         {SCHEMA_3}
         INSERT OR REPLACE INTO meta (key, value) VALUES ('feed_epoch', {});
         PRAGMA user_version = 3;
         COMMIT;",
        feed_epoch()
    ))
    .map_err(|e| {
        // The rollback's own failure would only hide the cause.
        let _ = conn.execute_batch("ROLLBACK;");
        sql(e)
    })?;
    tracing::info!(path = %path.display(), "database migrated to schema 3: labels, player ids, the feed, player tokens");
    Ok(())
}

/// Migrates a schema 1 database to schema 2 (then `migrate_v2` and `migrate_v3` take it on):
/// each game's
/// clear seat tokens become their
/// digests, in one transaction (a failure changes nothing), then the file is vacuumed and its
/// WAL truncated so the clear tokens are gone from every page, not just unlinked.
pub fn migrate_v1(conn: &Connection, path: &Path) -> Result<(), OpenError> {
    let fail = |detail: String| OpenError::Migration {
        path: path.to_owned(),
        detail,
        to: 2,
    };
    let sql = |e: rusqlite::Error| fail(e.to_string());
    conn.execute_batch("PRAGMA secure_delete = ON; BEGIN IMMEDIATE;")
        .map_err(sql)?;
    let migrated = (|| -> Result<usize, OpenError> {
        conn.execute_batch(
            "ALTER TABLE games ADD COLUMN white_digest BLOB NOT NULL DEFAULT x'';
             ALTER TABLE games ADD COLUMN black_digest BLOB NOT NULL DEFAULT x'';",
        )
        .map_err(sql)?;
        let mut rows = Vec::new();
        {
            let mut select = conn
                .prepare("SELECT id, white_token, black_token FROM games")
                .map_err(sql)?;
            let mut found = select.query([]).map_err(sql)?;
            while let Some(row) = found.next().map_err(sql)? {
                let id: String = row.get(0).map_err(sql)?;
                let digest = |i: usize| -> Result<TokenDigest, OpenError> {
                    let text: String = row.get(i).map_err(sql)?;
                    let token: SeatToken = text
                        .parse()
                        .map_err(|()| fail(format!("game {id}: a malformed seat token")))?;
                    Ok(token.digest())
                };
                rows.push((id.clone(), digest(1)?, digest(2)?));
            }
        }
        let mut update = conn
            .prepare("UPDATE games SET white_digest = ?2, black_digest = ?3 WHERE id = ?1")
            .map_err(sql)?;
        for (id, white, black) in &rows {
            update
                .execute(params![id, &white.as_bytes()[..], &black.as_bytes()[..]])
                .map_err(sql)?;
        }
        conn.execute_batch(
            "ALTER TABLE games DROP COLUMN white_token;
             ALTER TABLE games DROP COLUMN black_token;
             PRAGMA user_version = 2;",
        )
        .map_err(sql)?;
        Ok(rows.len())
    })();
    let games = match migrated {
        Ok(games) => {
            conn.execute_batch("COMMIT;").map_err(sql)?;
            games
        }
        Err(e) => {
            // The rollback's own failure would only hide the cause; the transaction is
            // abandoned with the connection either way.
            let _ = conn.execute_batch("ROLLBACK;");
            return Err(e);
        }
    };
    conn.execute_batch("VACUUM; PRAGMA wal_checkpoint(TRUNCATE);")
        .map_err(sql)?;
    tracing::info!(
        path = %path.display(),
        games,
        "database migrated to schema 2: seat tokens replaced by their digests"
    );
    Ok(())
}

/// A SQLite failure at start, said in terms an operator can act on.
pub(super) fn sql_error(path: &Path, e: &rusqlite::Error) -> OpenError {
    let path = path.to_owned();
    match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => OpenError::Locked { path },
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => OpenError::Corrupt {
            path,
            detail: e.to_string(),
        },
        _ => OpenError::Open {
            path,
            cause: e.to_string(),
        },
    }
}
