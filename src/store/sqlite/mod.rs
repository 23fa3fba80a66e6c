//! `SqliteStore`: the durable store (`chessd serve --data-dir DIR`) is the memory store plus a
//! journal. Games live in a [`MemoryStore`], which stays the hot path, the only state machine
//! and the only implementation of the store's traits: the server serves
//! [`SqliteStore::memory`]. What this folder adds is the journal's far end: every change is
//! committed to SQLite in `DIR/chessd.db` before the call that made it answers, and every game
//! comes back when the server starts again. A [`SqliteStore`] is that writer; it is kept until
//! the server stops, and dropping it closes the file.
//!
//! - **One writer.** A std thread owns the connection and drains the journal's bounded queue:
//!   whatever is queued when it comes round (up to [`MAX_BATCH`] changes, from any games) goes
//!   into one transaction, so one disk flush serves many moves (group commit). Each call waits
//!   for its ticket (see `journal`); a failed commit fails every waiting and later change with
//!   INTERNAL, and the cause goes to the log, never to clients.
//! - **Durability.** WAL mode. `--sync full` (the default) flushes the WAL to the disk after
//!   every commit before any of its changes is acknowledged: an acknowledged move survives a
//!   process crash and a power loss. The flush is not SQLite's (`synchronous=FULL`, inside the
//!   commit) but `flush`'s, on threads of its own, so the next batch's SQL and a second flush
//!   overlap it; SQLite runs at `synchronous=NORMAL`, whose checkpoints flush the WAL and the
//!   file in the order that keeps them consistent. `--sync normal` flushes only at checkpoints: it still survives a crash of the process
//!   (the WAL is in the operating system's cache) but may lose the last commits if the machine
//!   itself goes down.
//! - **Events.** The writer appends each game's new events to `recent_events` in commit order
//!   and moves them to `events` (keyed by game) every few thousand rows, in the transaction of
//!   a batch (see `fold`): a batch of moves from many games then writes a page or two, not a
//!   page per game. The start moves whatever a crash left there before it loads.
//! - **Exclusive.** `locking_mode=EXCLUSIVE`: the file stays locked while the server runs, so a
//!   second server on the same directory stops at start instead of writing beside the first.
//! - **Start.** The database is opened, locked and checked (`PRAGMA quick_check`); its schema
//!   version (`PRAGMA user_version`) must be one this build knows. Any failure stops the server
//!   with one line saying what is wrong; nothing is dropped or overwritten. Each game is then
//!   played again from its events through `GameRecord::restore`.
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
//!   `StoreError::SeatTokensUnavailable`). The file still holds who played what: protect
//!   the data directory as you would any user data. Player tokens too are kept as digests
//!   (`player_tokens`); issuing and revoking one is committed before the call answers.
//! - **Feed.** Every feed event is a row of `feed`, numbered by the writer as it commits
//!   (the writer is the feed's only appender, so positions follow commit order and a consumer
//!   never sees an event a crash could take back); rows the feed no longer keeps
//!   (`--feed-retention`, `--feed-max-events`) are deleted in the next commit. The feed's
//!   epoch lives in `meta`, so cursors from before a restart resume, and a cursor from another
//!   database file is refused.

//!
//! Files: `schema` (the file, its schema, opening and migrating it), `migrate_v4` and
//! `migrate_v6` (the migrations that rewrite rows), `columns` (a game's header in its row, by
//! the domain codec), `load` (games back at start), `writer` (the writer thread and the heartbeat), `flush` (a committed batch made durable, then
//! published and acknowledged), `fold` (the recent events' log the
//! writer appends to, and its fold into `events`), `error` ([`OpenError`]).

mod columns;
mod error;
mod flush;
mod fold;
mod load;
mod migrate_v4;
mod migrate_v6;
mod schema;
mod writer;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::task::JoinHandle;

use self::error::LoadError;
pub(super) use self::error::OpenError;
use self::flush::Flush;
pub use self::schema::{DB_FILE, SCHEMA_VERSION, migrate_v1};
use crate::store::config::{StoreLimits, SyncMode};
use crate::store::journal::Journal;
use crate::store::memory::{MemoryStore, new_feed};

/// Where and how to keep games.
#[derive(Clone, Debug)]
pub struct SqliteOptions {
    pub dir: PathBuf,
    pub sync: SyncMode,
    pub limits: StoreLimits,
}

/// The memory store that serves, and the SQLite journal that commits its every change first.
/// Not itself a store: calls go to [`SqliteStore::memory`], which queues its changes in the
/// journal this holds open.
#[derive(Debug)]
pub struct SqliteStore {
    memory: Arc<MemoryStore>,
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
        let mut conn = schema::connect(&path, options.sync)?;
        let (journal, ends) = Journal::new();
        let journal = Arc::new(journal);
        let failed = |e: LoadError| match e {
            LoadError::Sql(e) => schema::sql_error(&path, &e),
            LoadError::Game { game, detail } => OpenError::BadGame {
                path: path.clone(),
                game,
                detail,
            },
        };
        let meta = load::feed_meta(&conn).map_err(failed)?;
        let feed = Arc::new(new_feed(options.limits, meta.epoch, meta.last));
        let memory = MemoryStore::with_journal(options.limits, journal.clone(), feed.clone());
        load::load(&mut conn, &path, &memory, &feed, options.limits).map_err(failed)?;
        let flush = match options.sync {
            SyncMode::Normal => Flush::inline(ends.committed, feed.clone()),
            SyncMode::Full => {
                // From here the flushers make each commit durable (see `flush`); the start's
                // own commits were flushed as they went.
                conn.pragma_update(None, "synchronous", "NORMAL")
                    .map_err(|e| schema::sql_error(&path, &e))?;
                Flush::threads(ends.committed, feed.clone(), flush::wal_sync(&path)).map_err(
                    |e| OpenError::Open {
                        path: path.clone(),
                        cause: format!("cannot start the flush threads: {e}"),
                    },
                )?
            }
        };
        let rx = ends.rx;
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("chessd-sqlite-writer".into())
            .spawn(move || {
                writer::writer(conn, rx, feed, flush);
                // The store may be gone already; nobody to tell then.
                let _ = done_tx.send(());
            })
            .map_err(|e| OpenError::Open {
                path: path.clone(),
                cause: format!("cannot start the writer thread: {e}"),
            })?;
        let heartbeat = tokio::spawn(writer::heartbeat(Arc::downgrade(&journal)));
        tracing::info!(path = %path.display(), sync = ?options.sync, "durable store open");
        Ok(SqliteStore {
            memory: Arc::new(memory),
            journal,
            writer_done: Mutex::new(Some(done_rx)),
            heartbeat,
        })
    }

    /// The store to serve: games in memory, their changes journaled here. Keep `self` while
    /// it serves; once `self` is dropped its changes fail (INTERNAL) instead of going
    /// unrecorded.
    #[must_use]
    pub fn memory(&self) -> Arc<MemoryStore> {
        self.memory.clone()
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
            && done.recv_timeout(writer::CLOSE_TIMEOUT).is_err()
        {
            tracing::warn!("the durable store's writer did not finish in time");
        }
    }
}
