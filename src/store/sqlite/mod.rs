//! `SqliteStore`: the durable store (`chessd serve --data-dir DIR`). Games live in memory as in
//! [`MemoryStore`], which stays the hot path and the only state machine; every change is also
//! committed to SQLite in `DIR/chessd.db` before the call that made it answers, and every game
//! comes back when the server starts again.
//!
//! - **One writer.** A std thread owns the connection and drains the journal's bounded queue:
//!   whatever is queued when it comes round (up to [`MAX_BATCH`] changes, from any games) goes
//!   into one transaction, so one disk flush serves many moves (group commit). Each call waits
//!   for its ticket (see `journal`); a failed commit fails every waiting and later change with
//!   INTERNAL, and the cause goes to the log, never to clients.
//! - **Durability.** WAL mode. `synchronous=FULL` (the default, `--sync full`) flushes the WAL
//!   to the disk at every commit: an acknowledged move survives a process crash and a power
//!   loss. `--sync normal` flushes only at checkpoints: it still survives a crash of the process
//!   (the WAL is in the operating system's cache) but may lose the last commits if the machine
//!   itself goes down.
//! - **Exclusive.** `locking_mode=EXCLUSIVE`: the file stays locked while the server runs, so a
//!   second server on the same directory stops at start instead of writing beside the first.
//! - **Start.** The database is opened, locked and checked (`PRAGMA quick_check`); its schema
//!   version (`PRAGMA user_version`) must be one this build knows. Any failure stops the server
//!   with one line saying what is wrong; nothing is dropped or overwritten. Each game is then
//!   played again from its events through [`GameRecord::restore`].
//! - **Downtime.** The writer stamps `alive_ms` with every commit and at least every second. On
//!   start, the side to move is charged the time from its last event to the last stamp (it was
//!   thinking while the server ran), never the time the server was down.
//! - **Retention.** Finished games are deleted from the file when the in-memory store forgets
//!   them (count limit, `--retention`), and at start when they are already past retention.
//!   Result counts live in their own table, so statistics outlive the games.
//!
//! - **Seat tokens.** The file holds only their SHA-256 digests (see `token::TokenDigest`):
//!   enough to open the seats after a restart, useless to whoever copies the file. Schema 1
//!   held them in clear; opening such a file migrates it to schema 2 in one transaction
//!   (digests replace the tokens), then vacuums it so no free page keeps a clear token. A
//!   CreateGame retried after a restart therefore cannot be given its tokens again (see
//!   `ServiceError::SeatTokensUnavailable`). The file still holds who played what: protect
//!   the data directory as you would any user data.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use chessd_rules::{Color, DrawRule, Outcome, Position, Rules, Termination, UciMove, Variant};
use rusqlite::{Connection, ErrorCode, OptionalExtension, Transaction, params};
use tokio::task::JoinHandle;

use super::events::LogKind;
use super::journal::{Change, Committed, CreatedGame, EventRow, Journal, Queued, WriterEnds};
use super::memory::epoch_ms;
use super::record::{Now, Stored};
use super::{
    Acted, Action, Created, GameId, GamePage, GameRecord, GameStore, GameView, ListQuery,
    MemoryStore, NewGame, Players, Stats, StoreLimits, Subscription, TimeControl, VariantStats,
};
use crate::config::SyncMode;
use crate::error::ServiceError;
use crate::token::{SeatToken, TokenDigest};

/// The database file inside the data directory.
pub const DB_FILE: &str = "chessd.db";

/// The schema this build writes; older files are migrated to it at start (see
/// [`migrate_v1`]), newer ones are refused.
///
/// - 1: seat tokens in clear (`white_token`, `black_token`).
/// - 2: their SHA-256 digests instead (`white_digest`, `black_digest`, 32-byte blobs).
pub const SCHEMA_VERSION: i64 = 2;

/// Most changes committed in one transaction: large enough that a burst from thousands of
/// games shares one flush, small enough that one transaction stays a few milliseconds.
pub const MAX_BATCH: usize = 1024;

/// How often an idle writer stamps `alive_ms` (the downtime rule's resolution).
pub const ALIVE_PERIOD: Duration = Duration::from_secs(1);

/// How long dropping the store waits for the writer to commit what is queued.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(5);

const SCHEMA: &str = "
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    initial_ms INTEGER,
    increment_ms INTEGER,
    draw_rule INTEGER NOT NULL,
    created_at_ms INTEGER NOT NULL,
    request_id TEXT,
    ended_at_ms INTEGER,
    -- Last, where the migration from schema 1 adds them, so both paths give one table.
    white_digest BLOB NOT NULL DEFAULT x'',
    black_digest BLOB NOT NULL DEFAULT x''
) WITHOUT ROWID;
CREATE INDEX games_ended ON games (ended_at_ms) WHERE ended_at_ms IS NOT NULL;
CREATE TABLE events (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    at_ms INTEGER NOT NULL,
    kind INTEGER NOT NULL,
    seat INTEGER,
    mv TEXT,
    request_id TEXT,
    log_white_ms INTEGER,
    log_black_ms INTEGER,
    clocks_stopped INTEGER,
    white_ms INTEGER,
    black_ms INTEGER,
    winner INTEGER,
    termination INTEGER,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE stats (
    variant TEXT PRIMARY KEY,
    white_wins INTEGER NOT NULL,
    black_wins INTEGER NOT NULL,
    draws INTEGER NOT NULL
) WITHOUT ROWID;
";

/// Event kinds as stored.
const KIND_MOVE: i64 = 0;
const KIND_DRAW_OFFERED: i64 = 1;
const KIND_DRAW_DECLINED: i64 = 2;
const KIND_GAME_OVER: i64 = 3;

/// Where and how to keep games.
#[derive(Clone, Debug)]
pub struct SqliteOptions {
    pub dir: PathBuf,
    pub sync: SyncMode,
    pub limits: StoreLimits,
}

/// Why the durable store could not start. Each says what to fix, on one line.
#[derive(Debug)]
pub enum OpenError {
    /// The data directory could not be created or the file not opened.
    Open { path: PathBuf, cause: String },
    /// Another process holds the database.
    Locked { path: PathBuf },
    /// The file is not a healthy SQLite database.
    Corrupt { path: PathBuf, detail: String },
    /// A SQLite database, but not chessd's.
    Foreign { path: PathBuf },
    /// Written by a newer chessd.
    NewerSchema { path: PathBuf, found: i64 },
    /// A schema 1 database could not be migrated.
    Migration { path: PathBuf, detail: String },
    /// The Redis store was asked for with an unusable URL, or together with a data directory.
    Redis { cause: String },
    /// A stored game does not replay.
    BadGame {
        path: PathBuf,
        game: String,
        detail: String,
    },
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::Open { path, cause } => {
                write!(f, "cannot open the database {}: {cause}", path.display())
            }
            OpenError::Locked { path } => write!(
                f,
                "the database {} is locked by another process (is another chessd serving this data directory?)",
                path.display()
            ),
            OpenError::Corrupt { path, detail } => write!(
                f,
                "the database {} is damaged ({detail}); restore it from a backup or move it away",
                path.display()
            ),
            OpenError::Foreign { path } => write!(
                f,
                "{} is a SQLite database that chessd did not create; refusing to use it",
                path.display()
            ),
            OpenError::NewerSchema { path, found } => write!(
                f,
                "the database {} has schema version {found}, newer than this chessd knows ({SCHEMA_VERSION}): upgrade chessd",
                path.display()
            ),
            OpenError::Migration { path, detail } => write!(
                f,
                "cannot migrate the database {} to schema {SCHEMA_VERSION} ({detail}); nothing was changed",
                path.display()
            ),
            OpenError::Redis { cause } => write!(f, "redis store: {cause}"),
            OpenError::BadGame { path, game, detail } => write!(
                f,
                "the database {} is damaged: game {game} does not replay ({detail})",
                path.display()
            ),
        }
    }
}

impl std::error::Error for OpenError {}

/// Games in memory, every change committed to SQLite first.
#[derive(Debug)]
pub struct SqliteStore {
    memory: MemoryStore,
    journal: Arc<Journal>,
    /// Ends when the writer thread has committed everything and closed the file. A std mutex:
    /// only taken in `drop`.
    writer_done: Mutex<Option<std::sync::mpsc::Receiver<()>>>,
    /// Stamps `alive_ms` while the server is idle.
    heartbeat: JoinHandle<()>,
}

impl SqliteStore {
    /// Opens (or creates) the database in `options.dir`, brings every game back, and starts
    /// the writer. Blocking: call it at start-up, inside a tokio runtime (the store spawns
    /// tasks).
    pub fn open(options: &SqliteOptions) -> Result<SqliteStore, OpenError> {
        let path = options.dir.join(DB_FILE);
        std::fs::create_dir_all(&options.dir).map_err(|e| OpenError::Open {
            path: path.clone(),
            cause: format!("cannot create the data directory: {e}"),
        })?;
        let mut conn = connect(&path, options.sync)?;
        let (journal, ends) = Journal::new();
        let journal = Arc::new(journal);
        let memory = MemoryStore::with_journal(options.limits, journal.clone());
        load(&mut conn, &path, &memory, options.limits).map_err(|e| match e {
            LoadError::Sql(e) => sql_error(&path, &e),
            LoadError::Game { game, detail } => OpenError::BadGame {
                path: path.clone(),
                game,
                detail,
            },
        })?;
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("chessd-sqlite-writer".into())
            .spawn(move || {
                writer(conn, ends);
                // The store may be gone already; nobody to tell then.
                let _ = done_tx.send(());
            })
            .map_err(|e| OpenError::Open {
                path: path.clone(),
                cause: format!("cannot start the writer thread: {e}"),
            })?;
        let heartbeat = tokio::spawn(heartbeat(Arc::downgrade(&journal)));
        tracing::info!(path = %path.display(), sync = ?options.sync, "durable store open");
        Ok(SqliteStore {
            memory,
            journal,
            writer_done: Mutex::new(Some(done_rx)),
            heartbeat,
        })
    }
}

impl Drop for SqliteStore {
    /// Stops taking changes and gives the writer a bounded time to commit what is queued and
    /// close the file. Every acknowledged change is committed already; this only spares the
    /// next start a WAL recovery.
    fn drop(&mut self) {
        self.heartbeat.abort();
        self.journal.close();
        let done = self
            .writer_done
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(done) = done
            && done.recv_timeout(CLOSE_TIMEOUT).is_err()
        {
            tracing::warn!("the durable store's writer did not finish in time");
        }
    }
}

impl GameStore for SqliteStore {
    async fn create(&self, new: NewGame) -> Result<Created, ServiceError> {
        self.memory.create(new).await
    }

    async fn get(&self, id: GameId) -> Result<GameView, ServiceError> {
        self.memory.get(id).await
    }

    async fn list(&self, query: ListQuery) -> Result<GamePage, ServiceError> {
        self.memory.list(query).await
    }

    async fn act(
        &self,
        id: GameId,
        token: SeatToken,
        action: Action,
    ) -> Result<Acted, ServiceError> {
        self.memory.act(id, token, action).await
    }

    async fn seat(
        &self,
        id: GameId,
        token: SeatToken,
    ) -> Result<(Color, Option<Color>), ServiceError> {
        self.memory.seat(id, token).await
    }

    async fn watch(&self, id: GameId, after_seq: u64) -> Result<Subscription, ServiceError> {
        self.memory.watch(id, after_seq).await
    }

    async fn stats(&self) -> Result<Stats, ServiceError> {
        self.memory.stats().await
    }
}

/// Opens, locks, checks and, when new, creates the database. Nothing is written to a file
/// before it is known to be a healthy chessd database of a known version (or a new one).
fn connect(path: &Path, sync: SyncMode) -> Result<Connection, OpenError> {
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
    let mut migrate = false;
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
        1 => {
            migrate = true;
            false
        }
        found => {
            return Err(OpenError::NewerSchema {
                path: path.to_owned(),
                found,
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
                "BEGIN; {SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
            ))?;
        }
        Ok(())
    };
    setup().map_err(|e| sql_error(path, &e))?;
    if migrate {
        migrate_v1(&conn, path)?;
    }
    Ok(conn)
}

/// Migrates a schema 1 database to schema 2: each game's clear seat tokens become their
/// digests, in one transaction (a failure changes nothing), then the file is vacuumed and its
/// WAL truncated so the clear tokens are gone from every page, not just unlinked.
pub fn migrate_v1(conn: &Connection, path: &Path) -> Result<(), OpenError> {
    let fail = |detail: String| OpenError::Migration {
        path: path.to_owned(),
        detail,
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
        conn.execute_batch(&format!(
            "ALTER TABLE games DROP COLUMN white_token;
             ALTER TABLE games DROP COLUMN black_token;
             PRAGMA user_version = {SCHEMA_VERSION};"
        ))
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
        "database migrated to schema {SCHEMA_VERSION}: seat tokens replaced by their digests"
    );
    Ok(())
}

/// A SQLite failure at start, said in terms an operator can act on.
fn sql_error(path: &Path, e: &rusqlite::Error) -> OpenError {
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

/// Why loading stopped.
enum LoadError {
    Sql(rusqlite::Error),
    Game { game: String, detail: String },
}

impl From<rusqlite::Error> for LoadError {
    fn from(e: rusqlite::Error) -> LoadError {
        LoadError::Sql(e)
    }
}

/// Brings every stored game and the result counts back into `memory`; deletes the finished
/// games already past retention or beyond the count limit.
fn load(
    conn: &mut Connection,
    path: &Path,
    memory: &MemoryStore,
    limits: StoreLimits,
) -> Result<(), LoadError> {
    let now = Now::read();
    let alive_ms: Option<u64> = conn
        .query_row("SELECT value FROM meta WHERE key = 'alive_ms'", [], |r| {
            r.get::<_, i64>(0)
        })
        .optional()?
        .map(|v| v.max(0) as u64);
    let tx = conn.transaction()?;
    if let Some(retention) = limits.retention {
        let cutoff = epoch_ms(now.wall)
            .saturating_sub(u64::try_from(retention.as_millis()).unwrap_or(u64::MAX));
        let expired = tx.execute(
            "DELETE FROM events WHERE game_id IN
                 (SELECT id FROM games WHERE ended_at_ms IS NOT NULL AND ended_at_ms < ?1)",
            [cutoff as i64],
        )?;
        let games = tx.execute(
            "DELETE FROM games WHERE ended_at_ms IS NOT NULL AND ended_at_ms < ?1",
            [cutoff as i64],
        )?;
        if games > 0 {
            tracing::info!(
                games,
                events = expired,
                "finished games past retention deleted"
            );
        }
    }
    {
        let mut stats = tx.prepare("SELECT variant, white_wins, black_wins, draws FROM stats")?;
        let rows = stats.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, i64>(3)?,
            ))
        })?;
        for row in rows {
            let (variant, white, black, draws) = row?;
            let Some(variant) = variant_of(&variant) else {
                return Err(LoadError::Game {
                    game: "-".into(),
                    detail: format!("unknown variant {variant:?} in the statistics"),
                });
            };
            memory.restore_stats(VariantStats {
                variant,
                white_wins: white.max(0) as u64,
                black_wins: black.max(0) as u64,
                draws: draws.max(0) as u64,
            });
        }
    }
    let mut forgotten = Vec::new();
    let mut count = 0usize;
    {
        // Ongoing games first, then finished ones in the order they ended (retention order).
        let mut games = tx.prepare(
            "SELECT id, variant, start_fen, white, black, initial_ms, increment_ms, draw_rule,
                    white_digest, black_digest, created_at_ms, request_id
             FROM games ORDER BY ended_at_ms IS NOT NULL, ended_at_ms, id",
        )?;
        let mut events = tx.prepare(
            "SELECT seq, at_ms, kind, seat, mv, request_id, log_white_ms, log_black_ms,
                    clocks_stopped, white_ms, black_ms, winner, termination
             FROM events WHERE game_id = ?1 ORDER BY seq",
        )?;
        let mut rows = games.query([])?;
        while let Some(row) = rows.next()? {
            let id_text: String = row.get(0)?;
            let bad = |detail: String| LoadError::Game {
                game: id_text.clone(),
                detail,
            };
            let id: GameId = id_text.parse().map_err(|_| bad("bad id".into()))?;
            let variant_text: String = row.get(1)?;
            let variant = variant_of(&variant_text)
                .ok_or_else(|| bad(format!("variant {variant_text:?}")))?;
            let fen: String = row.get(2)?;
            let start = Position::from_fen(variant, &fen)
                .map_err(|e| bad(format!("start position {fen:?}: {e}")))?;
            let players = Players {
                white: row.get(3)?,
                black: row.get(4)?,
            };
            let initial: Option<i64> = row.get(5)?;
            let increment: Option<i64> = row.get(6)?;
            let time_control = initial.map(|initial| TimeControl {
                initial: Duration::from_millis(initial.max(0) as u64),
                increment: Duration::from_millis(increment.unwrap_or(0).max(0) as u64),
            });
            let draw_rule = match row.get::<_, i64>(7)? {
                0 => DrawRule::Claim,
                _ => DrawRule::Automatic,
            };
            let digest = |i: usize| -> Result<TokenDigest, LoadError> {
                let bytes: Vec<u8> = row.get(i)?;
                TokenDigest::from_slice(&bytes)
                    .ok_or_else(|| bad("a malformed seat token digest".into()))
            };
            let digests = [digest(8)?, digest(9)?];
            let created_at_ms = row.get::<_, i64>(10)?.max(0) as u64;
            let request_id: Option<String> = row.get(11)?;

            let mut position = start;
            let mut stored_events = Vec::new();
            let mut event_rows = events.query([&id_text])?;
            while let Some(e) = event_rows.next()? {
                let event = event_row(e, &mut position).map_err(|d| match d {
                    RowError::Sql(e) => LoadError::Sql(e),
                    RowError::Bad(detail) => bad(detail),
                })?;
                stored_events.push(event);
            }
            let last_at = stored_events.last().map_or(created_at_ms, |e| e.at_ms);
            let charged =
                Duration::from_millis(alive_ms.unwrap_or(last_at).saturating_sub(last_at));
            let stored = Stored {
                start,
                draw_rule,
                time_control,
                digests,
                created_at: UNIX_EPOCH + Duration::from_millis(created_at_ms),
                events: stored_events,
                charged,
            };
            let record =
                GameRecord::restore(stored, |rid| memory.request_key(rid), now).map_err(bad)?;
            forgotten.extend(memory.restore(id, players, record, request_id.as_deref()));
            count += 1;
        }
    }
    for id in &forgotten {
        let id = id.to_string();
        tx.execute("DELETE FROM events WHERE game_id = ?1", [&id])?;
        tx.execute("DELETE FROM games WHERE id = ?1", [&id])?;
    }
    tx.commit()?;
    tracing::info!(
        path = %path.display(),
        games = count - forgotten.len(),
        forgotten = forgotten.len(),
        "games restored"
    );
    Ok(())
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

/// One stored event; `position` is the position before it, advanced past a move.
fn event_row(r: &rusqlite::Row<'_>, position: &mut Position) -> Result<EventRow, RowError> {
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
        .map(|(w, b)| [w.max(0) as u64, b.max(0) as u64]);
    let winner = r.get::<_, Option<i64>>(11)?.map(color_of);
    let termination: Option<i64> = r.get(12)?;
    let seat_of = |what: &str| {
        seat.ok_or_else(|| RowError::Bad(format!("event {seq}: {what} without a side")))
    };
    let mut mv = None;
    let kind = match kind_code {
        KIND_MOVE => {
            let text = mv_text
                .ok_or_else(|| RowError::Bad(format!("event {seq}: a move without its move")))?;
            let uci: UciMove = text
                .parse()
                .map_err(|_| RowError::Bad(format!("event {seq}: move {text:?}")))?;
            let m = uci.to_move(position).map_err(|e| {
                RowError::Bad(format!("event {seq}: {text} in {}: {e}", position.fen()))
            })?;
            position.play_unchecked(m);
            mv = Some(m);
            LogKind::Move {
                clocks_ms: [log_ms(6)?, log_ms(7)?],
                clocks_stopped,
            }
        }
        KIND_DRAW_OFFERED => LogKind::DrawOffered(seat_of("a draw offer")?),
        KIND_DRAW_DECLINED => LogKind::DrawDeclined(seat_of("a declined draw")?),
        KIND_GAME_OVER => LogKind::GameOver,
        other => return Err(RowError::Bad(format!("event {seq}: unknown kind {other}"))),
    };
    let outcome = match termination {
        None => None,
        Some(t) => {
            let termination = usize::try_from(t)
                .ok()
                .and_then(|t| Termination::ALL.get(t).copied())
                .ok_or_else(|| RowError::Bad(format!("event {seq}: termination {t}")))?;
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
    })
}

fn variant_of(key: &str) -> Option<Variant> {
    Variant::ALL.into_iter().find(|v| v.key() == key)
}

fn color_of(index: i64) -> Color {
    if index == 0 {
        Color::White
    } else {
        Color::Black
    }
}

fn termination_code(t: Termination) -> i64 {
    Termination::ALL.iter().position(|&x| x == t).unwrap_or(0) as i64
}

/// Stamps `alive_ms` every [`ALIVE_PERIOD`] while the store exists. Skips a beat when the
/// queue is full: the writer is busy then, and every commit stamps the time anyway.
async fn heartbeat(journal: std::sync::Weak<Journal>) {
    let mut tick = tokio::time::interval(ALIVE_PERIOD);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(journal) = journal.upgrade() else {
            return;
        };
        let Ok(tx) = journal.sender() else { return };
        if let Some(place) = Journal::try_reserve(&tx) {
            journal.send(place, Change::Alive, None);
        }
    }
}

/// The writer thread: commits queued changes in groups until the journal closes.
fn writer(mut conn: Connection, ends: WriterEnds) {
    let WriterEnds { mut rx, committed } = ends;
    let mut failed = false;
    while let Some(first) = rx.blocking_recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(q) => batch.push(q),
                Err(_) => break,
            }
        }
        if failed {
            // Drained so that nobody waits on a full queue; their tickets fail.
            continue;
        }
        let through = batch.last().map_or(0, |q| q.ticket);
        match commit(&mut conn, &batch) {
            Ok(()) => {
                for queued in batch {
                    if let Some((tx, events)) = queued.publish {
                        for event in events {
                            // An error means no watcher is left.
                            let _ = tx.send(Arc::new(event));
                        }
                    }
                }
                committed.send_modify(|c| c.through = through);
            }
            Err(e) => {
                tracing::error!(error = %e, "durable store: commit failed; refusing every change from now on");
                failed = true;
                committed.send_modify(|c: &mut Committed| c.failed = true);
            }
        }
    }
    // A clean close checkpoints the WAL into the file; failing that only costs the next start
    // a recovery.
    let _ = conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);");
}

/// Commits one batch in one transaction.
fn commit(conn: &mut Connection, batch: &[Queued]) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    for queued in batch {
        match &queued.change {
            Change::Created(game) => insert_game(&tx, game)?,
            Change::Events {
                game,
                variant,
                rows,
            } => insert_events(&tx, *game, *variant, rows)?,
            Change::Forget(ids) => {
                let mut events = tx.prepare_cached("DELETE FROM events WHERE game_id = ?1")?;
                let mut games = tx.prepare_cached("DELETE FROM games WHERE id = ?1")?;
                for id in ids {
                    let id = id.to_string();
                    events.execute([&id])?;
                    games.execute([&id])?;
                }
            }
            Change::Alive => {}
        }
    }
    tx.prepare_cached("INSERT OR REPLACE INTO meta (key, value) VALUES ('alive_ms', ?1)")?
        .execute([epoch_ms(SystemTime::now()) as i64])?;
    tx.commit()
}

fn insert_game(tx: &Transaction<'_>, game: &CreatedGame) -> rusqlite::Result<()> {
    let ms = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
    tx.prepare_cached(
        "INSERT INTO games (id, variant, start_fen, white, black, initial_ms, increment_ms,
             draw_rule, white_digest, black_digest, created_at_ms, request_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?
    .execute(params![
        game.id.to_string(),
        game.variant.key(),
        game.start_fen,
        game.players.white,
        game.players.black,
        game.time_control.map(|tc| ms(tc.initial)),
        game.time_control.map(|tc| ms(tc.increment)),
        match game.draw_rule {
            DrawRule::Claim => 0,
            DrawRule::Automatic => 1,
        },
        &game.digests[0].as_bytes()[..],
        &game.digests[1].as_bytes()[..],
        game.created_at_ms as i64,
        game.request_id,
    ])?;
    Ok(())
}

fn insert_events(
    tx: &Transaction<'_>,
    game: GameId,
    variant: Variant,
    rows: &[EventRow],
) -> rusqlite::Result<()> {
    let id = game.to_string();
    let mut insert = tx.prepare_cached(
        "INSERT INTO events (game_id, seq, at_ms, kind, seat, mv, request_id, log_white_ms,
             log_black_ms, clocks_stopped, white_ms, black_ms, winner, termination)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
    )?;
    for row in rows {
        let (kind, log_ms, stopped) = match row.kind {
            LogKind::Move {
                clocks_ms,
                clocks_stopped,
            } => (KIND_MOVE, Some(clocks_ms), Some(i64::from(clocks_stopped))),
            LogKind::DrawOffered(_) => (KIND_DRAW_OFFERED, None, None),
            LogKind::DrawDeclined(_) => (KIND_DRAW_DECLINED, None, None),
            LogKind::GameOver => (KIND_GAME_OVER, None, None),
        };
        let clock = |i: usize| {
            row.clocks_ms
                .map(|c| i64::try_from(c[i]).unwrap_or(i64::MAX))
        };
        insert.execute(params![
            id,
            row.seq as i64,
            row.at_ms as i64,
            kind,
            row.seat.map(|c| c.index() as i64),
            row.mv.map(|m| m.to_string()),
            row.request_id,
            log_ms.map(|c| i64::from(c[0])),
            log_ms.map(|c| i64::from(c[1])),
            stopped,
            clock(0),
            clock(1),
            row.outcome.and_then(|o| o.winner).map(|c| c.index() as i64),
            row.outcome.map(|o| termination_code(o.termination)),
        ])?;
        if let (LogKind::GameOver, Some(outcome)) = (row.kind, row.outcome) {
            tx.prepare_cached("UPDATE games SET ended_at_ms = ?2 WHERE id = ?1")?
                .execute(params![id, row.at_ms as i64])?;
            if outcome.termination != Termination::Aborted {
                let (w, b, d) = match outcome.winner {
                    Some(Color::White) => (1, 0, 0),
                    Some(Color::Black) => (0, 1, 0),
                    None => (0, 0, 1),
                };
                tx.prepare_cached(
                    "INSERT INTO stats (variant, white_wins, black_wins, draws)
                     VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (variant) DO UPDATE SET
                         white_wins = white_wins + excluded.white_wins,
                         black_wins = black_wins + excluded.black_wins,
                         draws = draws + excluded.draws",
                )?
                .execute(params![variant.key(), w, b, d])?;
            }
        }
    }
    Ok(())
}
