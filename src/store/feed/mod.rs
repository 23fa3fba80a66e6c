//! The deployment-wide feed (WatchGames) as the stores keep it: [`FeedCursor`] (where a
//! consumer stands, per lane), [`FeedEntry`] and [`FeedSubscription`] (what crosses the store
//! trait), [`FeedLog`] (the memory and SQLite stores' feed in memory), `codec` (a feed
//! event as fields, the form SQLite rows and Redis stream entries store) and `header` (the
//! game's header among those fields), both in `text`'s form.
//!
//! Every feed event is self-contained: it carries its game's header (players, player ids,
//! labels, time control, start), so the feed can be filtered and read long after the game
//! itself was forgotten (`--retention`), and the feed's own retention (`--feed-retention`,
//! `--feed-max-events`) is independent of the games'.

pub(crate) mod codec;
pub(crate) mod cursor;
pub(crate) mod header;
pub(crate) mod log;
pub(crate) mod subscription;
pub(crate) mod text;

pub use self::cursor::{FeedCursor, LanePos};
pub use self::subscription::{FeedEntry, FeedSubscription};
