//! The domain: what a game is and how it changes, with no storage and no protobuf.
//!
//! - `id`: [`GameId`], time-ordered ids. `token`: seat tokens and their digests. `player`:
//!   platform player ids and player tokens. `holder`: who asks to act, and which seat that is.
//! - `labels`: a game's validated labels. `header`: what never changes in a game.
//! - `error`: what the domain refuses ([`PlayError`], [`SeatError`], [`InputError`], and
//!   their sum [`GameError`]).
//! - `time`: [`Now`] and the one wall-time-to-milliseconds conversion.
//! - `clock`: time controls, the running [`Clock`], readings. `start`: when the clocks start,
//!   the first-move timer, clock changes off the board.
//! - `action`: a new game and a seat's actions, validated. `presence`: whether a seat watches,
//!   and when its opponent may claim the game.
//! - `log`: the compact per-game event log. `event`: events as watchers see them and as
//!   storage keeps them ([`EventRow`]). `replay`: events rebuilt from the log. `codec`: the
//!   one stored text of events and outcomes, which every store writes and reads.
//! - `takeback`: takeback policies, what a proposal takes back, and the moves of a log with
//!   takebacks.
//! - `chance`: the seed of a game of chance and the derivation of its draws. `entropy`: the
//!   players' commit-reveal round that mixes their secrets into the seed.
//! - `feed`: the deployment-wide feed's events and filters. `served`: which of the rules
//!   engine's games chessd serves.
//! - `view`: what the domain hands out (views, summaries, answers, result counts). `viewer`:
//!   what one caller sees of a game whose players see only part of the board.
//! - `record`: [`GameRecord`], one game's rules of play: seats, moves, clocks, draw offers,
//!   idempotent retries, events; and its one way back from stored events (a new record that
//!   catches up on them).
//!
//! Stores (`store`) keep records and persist what they return; the API (`api`) turns views and
//! events into protobuf.

pub(crate) mod action;
pub(crate) mod byoyomi;
pub(crate) mod chance;
pub(crate) mod clock;
pub(crate) mod codec;
pub(crate) mod delay;
pub(crate) mod entropy;
pub(crate) mod error;
pub(crate) mod event;
pub(crate) mod feed;
pub(crate) mod header;
pub(crate) mod holder;
pub(crate) mod id;
pub(crate) mod labels;
pub(crate) mod log;
pub(crate) mod player;
pub(crate) mod presence;
pub(crate) mod record;
pub(crate) mod replay;
pub(crate) mod served;
pub(crate) mod setup;
pub(crate) mod start;
pub(crate) mod takeback;
pub(crate) mod time;
pub(crate) mod token;
pub(crate) mod view;
pub(crate) mod viewer;

pub use action::{Action, ClockAdjust, MoveText, NewGame, Players, RequestId};
pub use clock::{Byoyomi, Clock, ClockReading, TimeControl};
pub use error::{GameError, InputError, PlayError, SeatError};
pub use event::{EntropyRow, Event, EventKind, EventRow, SetupRow, SharedFen, ends_game};
pub use feed::{FeedClocks, FeedEntropy, FeedEvent, FeedFilter, FeedKind, FeedMove};
pub use header::{AnyStart, GameHeader, HeaderParts};
pub use holder::Holder;
pub use id::{GAME_ID_LEN, GameId, ParseGameIdError};
pub use labels::Labels;
pub use log::{LogEntry, LogKind};
pub use player::{IssuedToken, PlayerId, PlayerToken, Revoke, TokenId};
pub use presence::SeatPresence;
pub use record::{GameRecord, PackedRecord, Stored};
pub use replay::Replay;
pub use start::{
    ClockChange, ClockReason, ClockStart, DEFAULT_FIRST_MOVE_TIMEOUT, DEFAULT_SETUP_TIMEOUT,
    StartRules,
};
pub use takeback::TakebackPolicy;
pub use time::{Now, epoch_ms, from_epoch_ms, whole_ms, whole_ms_duration};
pub use token::{SeatToken, Seats, TokenDigest};
pub use view::{Acted, Created, GameStatus, GameSummary, GameView, MoveInfo, Stats, VariantStats};
pub use viewer::{HIDDEN_MOVE, Viewer};
