//! Why the durable store could not start ([`OpenError`]: each says what to fix, on one line),
//! and why loading its games stopped ([`LoadError`], which the start turns into one).

use std::fmt;
use std::path::PathBuf;

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
    NewerSchema {
        path: PathBuf,
        found: i64,
        known: i64,
    },
    /// A schema 1 database could not be migrated.
    Migration {
        path: PathBuf,
        detail: String,
        to: i64,
    },
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
            OpenError::NewerSchema { path, found, known } => write!(
                f,
                "the database {} has schema version {found}, newer than this chessd knows ({known}): upgrade chessd",
                path.display()
            ),
            OpenError::Migration { path, detail, to } => write!(
                f,
                "cannot migrate the database {} to schema {to} ({detail}); nothing was changed",
                path.display()
            ),
            OpenError::BadGame { path, game, detail } => write!(
                f,
                "the database {} is damaged: game {game} does not replay ({detail})",
                path.display()
            ),
        }
    }
}

impl std::error::Error for OpenError {}

/// Why loading the file's games stopped (the start turns it into an [`OpenError`]).
pub(super) enum LoadError {
    Sql(rusqlite::Error),
    Game { game: String, detail: String },
}

impl From<rusqlite::Error> for LoadError {
    fn from(e: rusqlite::Error) -> LoadError {
        LoadError::Sql(e)
    }
}
