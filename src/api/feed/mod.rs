//! WatchGames' server stream: the deployment-wide feed.
//!
//! A pump task per consumer (`pump`) owns its cursor. It sends, for a player-mode stream that
//! starts live, a GameCreated for each running game of its player (with no cursor: these are
//! not feed events), then every feed entry after the cursor that matches the consumer's
//! filter: from the store's log while the consumer is behind, then from the live broadcast.
//! A heartbeat with the current cursor follows every quiet `--heartbeat`; the cursor moves on
//! past entries the filter drops, so a heartbeat's cursor resumes without reading them again.
//!
//! How it is bounded, like a slow watcher (`api::watch`), and where it differs:
//! - A consumer that takes no message for the stall timeout is cut off with
//!   RESOURCE_EXHAUSTED (FEED_TOO_SLOW) and `resume_after_cursor`; one that cannot take even
//!   that ending has its stream reset (`transport::StreamReset`).
//! - A consumer that falls behind the live broadcast (`store::FEED_LIVE_BUFFER` entries) is
//!   not cut off: the feed is a log, so it reads the log from its cursor instead, as it did
//!   when it started behind. What it has not read costs the server nothing per consumer.
//!   Only when it falls behind the feed's retention is it cut off, with CURSOR_OUT_OF_RANGE.
//! - At most `--max-feeds` streams in all, and `--max-peer-feeds` per address for callers
//!   without an API key (`slots`).
//! - A player-mode stream ends with TOKEN_REVOKED as soon as its token is revoked (on any
//!   replica: the store tells every replica), checked again at every heartbeat too.
//!
//! Messages queue in a [`WatchStream`] (the same bounded queue as WatchGame's).

pub(crate) mod pump;
pub(crate) mod slots;

pub(crate) use self::pump::{FeedPump, PlayerMode, Reader};
pub(crate) use self::slots::FeedSlots;

use crate::api::watch::WatchStream;
use crate::proto::WatchGamesResponse;

/// One client's WatchGames stream.
pub(crate) type FeedStream = WatchStream<WatchGamesResponse>;
