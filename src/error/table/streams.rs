//! The error table's rows for [`Layer::Streams`]: where a WatchGame or WatchGames stream
//! resumes after it ended early.

use tonic::Code;

use crate::error::table::{Layer, Row, row};
use crate::store::stream_error::StreamError;

/// The rows of the errors `table::row_of` routes here.
pub(super) fn row_of(error: &StreamError) -> Row {
    use Code::{Aborted, OutOfRange, ResourceExhausted, Unavailable};
    use StreamError as E;
    match error {
        E::WatcherTooSlow { resume_after_seq } => row(
            Layer::Streams,
            ResourceExhausted,
            "WATCHER_TOO_SLOW",
            format!(
                "watcher too slow: events were dropped; watch again with after_seq {resume_after_seq}"
            ),
        )
        .meta("resume_after_seq", resume_after_seq),
        E::WatchInterrupted => row(
            Layer::Streams,
            Aborted,
            "WATCH_INTERRUPTED",
            "the game's events were interrupted (its store lost or forgot them): watch again from the start (after_seq 0)",
        )
        .meta("resume_after_seq", 0),
        E::SeqOutOfRange {
            after_seq,
            last_seq,
        } => row(
            Layer::Streams,
            OutOfRange,
            "SEQ_OUT_OF_RANGE",
            format!("after_seq {after_seq} is beyond the game's last event {last_seq}"),
        )
        .meta("after_seq", after_seq)
        .meta("last_seq", last_seq),
        E::ShuttingDown {
            resume_after_seq: Some(seq),
        } => row(
            Layer::Streams,
            Unavailable,
            "SHUTTING_DOWN",
            format!("server shutting down: watch again elsewhere with after_seq {seq}"),
        )
        .meta("resume_after_seq", seq),
        E::ShuttingDown {
            resume_after_seq: None,
        } => row(
            Layer::Streams,
            Unavailable,
            "SHUTTING_DOWN",
            "server shutting down: retry elsewhere",
        ),
        E::FeedShuttingDown {
            resume_after_cursor,
        } => row(
            Layer::Streams,
            Unavailable,
            "SHUTTING_DOWN",
            "server shutting down: watch again elsewhere with after_cursor set to resume_after_cursor",
        )
        .meta("resume_after_cursor", resume_after_cursor),
        E::CursorOutOfRange { oldest_cursor } => row(
            Layer::Streams,
            OutOfRange,
            "CURSOR_OUT_OF_RANGE",
            "after_cursor is older than the feed keeps (or from another deployment): resume from oldest_cursor, or start live without a cursor",
        )
        .meta("oldest_cursor", oldest_cursor),
        E::FeedTooSlow {
            resume_after_cursor,
        } => row(
            Layer::Streams,
            ResourceExhausted,
            "FEED_TOO_SLOW",
            "feed consumer too slow: it took nothing for the stall timeout; watch again with after_cursor set to resume_after_cursor",
        )
        .meta("resume_after_cursor", resume_after_cursor),
    }
}
