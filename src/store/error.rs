//! Why a store could not open: the durable store's own errors, or a Redis URL the Redis store
//! cannot use. Each says what to fix, on one line.

use std::fmt;

use crate::store::sqlite;

/// Why the configured store could not start.
#[derive(Debug)]
pub enum OpenError {
    /// The durable store (`--data-dir`): unreadable, locked, damaged or foreign database.
    Durable(sqlite::OpenError),
    /// The Redis store (`--redis`): an unusable URL or set of URLs.
    Redis(String),
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::Durable(e) => write!(f, "{e}"),
            OpenError::Redis(cause) => write!(f, "redis store: {cause}"),
        }
    }
}

impl std::error::Error for OpenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OpenError::Durable(e) => Some(e),
            OpenError::Redis(_) => None,
        }
    }
}
