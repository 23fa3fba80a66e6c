//! Domain values into protobuf: moves in UCI and SAN, positions as FEN, times as protobuf
//! `Timestamp`/`Duration`, events for WatchGame and WatchGames, result counts, analyses.
//! What a position holds besides its FEN (geometry, hands, pockets) is `api::board`'s.
//!
//! By what is encoded: `values` (what every message repeats), `game` (a game and the answers
//! that carry one), `watch` (WatchGame's events), `setup` and `entropy` (the rounds before a
//! first move), `feed` (WatchGames' events), `answers` (tokens, stats, analyses). Callers use the flat `encode::*` paths re-exported here.

mod answers;
mod entropy;
mod feed;
mod game;
pub(crate) mod setup;
mod values;
mod watch;

pub use self::answers::{analysis, issued, stats};
pub(crate) use self::feed::feed_event;
pub use self::feed::{feed_heartbeat, header};
pub(crate) use self::game::page;
pub use self::game::{created, game, game_as, played, submitted};
pub use self::values::{maybe_color, outcome, proto_duration, proto_variant, timestamp};
pub use self::watch::{event, heartbeat};
