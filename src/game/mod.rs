//! The domain: what a game is and how it changes, with no storage and no protobuf.
//!
//! - `id`: [`GameId`], time-ordered ids. `token`: seat tokens and their digests.
//! - `time`: [`Now`] and the one wall-time-to-milliseconds conversion.
//! - `clock`: time controls, the running [`Clock`], readings.
//! - `action`: a new game and a seat's actions, validated.
//! - `log`: the compact per-game event log. `event`: events as watchers see them and as
//!   storage keeps them ([`EventRow`]). `replay`: events rebuilt from the log.
//! - `view`: what the domain hands out (views, summaries, answers, result counts).
//! - `record`: [`GameRecord`], one game's rules of play: seats, moves, clocks, draw offers,
//!   idempotent retries, events; and its one way back from stored events (a new record that
//!   catches up on them).
//!
//! Stores (`store`) keep records and persist what they return; the API (`api`) turns views and
//! events into protobuf.

pub mod action;
pub mod clock;
pub mod event;
pub mod id;
pub mod log;
pub mod record;
pub mod replay;
pub mod time;
pub mod token;
pub mod view;

pub use action::{Action, MoveText, NewGame, Players, RequestId};
pub use clock::{Clock, ClockReading, TimeControl};
pub use event::{Event, EventKind, EventRow, ends_game};
pub use id::{GAME_ID_LEN, GameId, ParseGameIdError};
pub use log::{LogEntry, LogKind};
pub use record::{GameRecord, Stored};
pub use replay::Replay;
pub use time::{Now, epoch_ms, from_epoch_ms};
pub use token::{SeatToken, Seats, TokenDigest};
pub use view::{Acted, Created, GameStatus, GameSummary, GameView, MoveInfo, Stats, VariantStats};
