//! [`StreamError`]: why a WatchGame or WatchGames stream ended early (or could not start where
//! asked), and where it resumes. Raised by the stores (a cursor or seq out of range, a drain)
//! and by the API's stream pumps (a consumer too slow, a drain mid-stream).

/// A watch stream or the feed ended early, or cannot start where asked.
#[derive(Debug)]
pub enum StreamError {
    /// A watcher fell too far behind the live events and was cut off.
    WatcherTooSlow { resume_after_seq: u64 },
    /// The store stopped feeding a watch stream before the game ended: it forgot the game, or
    /// found that events it had sent are no longer the game's (a Redis failover lost them,
    /// without `--redis-min-replicas`). The watcher starts again from a snapshot
    /// (`after_seq` 0), never from where it was.
    WatchInterrupted,
    /// `after_seq` is beyond the game's last event.
    SeqOutOfRange { after_seq: u64, last_seq: u64 },
    /// The server is draining; a stream says from which seq to resume elsewhere.
    ShuttingDown { resume_after_seq: Option<u64> },
    /// The server is draining; a WatchGames stream says from which cursor to resume elsewhere.
    FeedShuttingDown { resume_after_cursor: String },
    /// `after_cursor` is older than the feed keeps (`--feed-retention`), or from another
    /// deployment: resuming would leave a gap. `oldest_cursor` is the oldest that resumes.
    CursorOutOfRange { oldest_cursor: String },
    /// A WatchGames consumer took nothing for the stall timeout and was cut off.
    FeedTooSlow { resume_after_cursor: String },
}
