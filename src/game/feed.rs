//! The deployment-wide feed as the domain sees it: [`FeedEvent`], one game's creation, move,
//! takeback, step of the players' entropy or end, self-contained (it carries the game's header, so it can be filtered and shown without
//! the game, which may be forgotten long before the feed forgets the event), and
//! [`FeedFilter`], what a consumer asks to see.
//!
//! Feed events are made from the same game events watchers get (`event`), so the feed and a
//! game's own stream never disagree about a move.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use chessd_rules::any::{AnyVariant, UciText};
use chessd_rules::{ByColor, Color, Outcome};

use crate::game::clock::{Byoyomi, ClockReading};
use crate::game::codec::hex;
use crate::game::event::{Event, EventKind};
use crate::game::header::GameHeader;
use crate::game::labels::Labels;
use crate::game::log::clock_ms;
use crate::game::player::PlayerId;
use crate::game::time::{epoch_ms, from_epoch_ms};
use crate::game::view::MoveInfo;

/// Something that happened to a game, as the feed tells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeedEvent {
    pub game: Arc<GameHeader>,
    /// When it happened (to the millisecond).
    pub at: SystemTime,
    pub kind: FeedKind,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FeedKind {
    /// The game was created (its header says how).
    Created,
    /// A move was played.
    Moved {
        played: FeedMove,
        /// The position after the move, as FEN.
        fen: Box<str>,
        /// The clocks right after the move (timed games).
        clocks: Option<FeedClocks>,
        /// The side whose draw offer stands after the move.
        draw_offer: Option<Color>,
    },
    /// Moves were taken back: the game is back at ply `ply` (shown with the moves: a consumer
    /// that follows them drops those after `ply`).
    TakenBack {
        ply: u32,
        /// The position now, as FEN.
        fen: Box<str>,
        /// The clocks right after it (timed games).
        clocks: Option<FeedClocks>,
        /// The seq of the game event (WatchGame).
        seq: u64,
    },
    /// The game ended.
    Finished {
        outcome: Outcome,
        /// The final position, as FEN.
        fen: Box<str>,
        /// Half-moves played.
        ply: u32,
    },
    /// A seat sent its commitment or its secret (the players' entropy); boxed, as most games
    /// never have one.
    Entropy(Box<FeedEntropy>),
}

/// A commitment or secret as the feed tells it: what WatchGame's `EntropySubmitted` shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeedEntropy {
    pub by: Color,
    /// A secret (a commitment otherwise).
    pub revealed: bool,
    /// A commitment's value, in hex (empty for a secret).
    pub commitment: Box<str>,
    /// On the second secret: both secrets in hex, and the start play begins from as FEN.
    pub secrets: Option<ByColor<Box<str>>>,
    pub start: Option<Box<str>>,
    /// The seq of the game event (WatchGame).
    pub seq: u64,
}

/// A move as the feed keeps it: its notations rather than the engine's move, so a stored
/// event reads back without the position before it (the UCI form inline: the feed keeps up to
/// `--feed-max-events` of these for a day).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeedMove {
    pub uci: UciText,
    pub san: Box<str>,
    /// 1 for the first move of the game.
    pub ply: u32,
    pub color: Color,
    /// The seq of the game event that announced it (WatchGame).
    pub seq: u64,
}

/// The clocks as the feed keeps them: in milliseconds, the precision every store writes them
/// with (saturating at 49 days, as a game's log does), so a kept event stays small.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeedClocks {
    pub remaining_ms: ByColor<u32>,
    /// The side whose clock runs.
    pub running: Option<Color>,
    /// The server time of the reading, in milliseconds since the Unix epoch.
    pub read_at_ms: u64,
}

impl From<&ClockReading> for FeedClocks {
    fn from(c: &ClockReading) -> FeedClocks {
        FeedClocks {
            remaining_ms: c.remaining.map(clock_ms),
            running: c.running,
            read_at_ms: epoch_ms(c.read_at),
        }
    }
}

impl FeedClocks {
    /// The reading these clocks were kept from, to the millisecond, in a game with `byoyomi`.
    #[must_use]
    pub fn reading(&self, byoyomi: Option<Byoyomi>) -> ClockReading {
        ClockReading {
            remaining: self
                .remaining_ms
                .map(|ms| Duration::from_millis(u64::from(ms))),
            running: self.running,
            read_at: from_epoch_ms(self.read_at_ms),
            byoyomi,
        }
    }
}

impl From<&MoveInfo> for FeedMove {
    fn from(m: &MoveInfo) -> FeedMove {
        FeedMove {
            uci: m.mv.uci(),
            san: m.san.as_str().into(),
            ply: m.ply,
            color: m.color,
            seq: m.seq,
        }
    }
}

/// A FEN as the feed keeps it: boxed, without the spare capacity `Position::fen` allocates
/// for speed, since the feed keeps its events for a day.
fn kept_fen(position: &chessd_rules::any::AnyPosition) -> Box<str> {
    position.fen().into_boxed_str()
}

impl FeedEvent {
    /// The creation of the game `game` describes.
    #[must_use]
    pub fn created(game: Arc<GameHeader>) -> FeedEvent {
        FeedEvent {
            at: game.created_at(),
            game,
            kind: FeedKind::Created,
        }
    }

    /// The feed's side of a game event: moves, takebacks and the game's end; `None` for draw
    /// offers, takeback proposals and snapshots, which the feed does not carry. `ply` is the game's ply after the event.
    #[must_use]
    pub fn of_event(game: &Arc<GameHeader>, event: &Event, ply: u32) -> Option<FeedEvent> {
        let kind = match &event.kind {
            // Where a setup stands is not the feed's: its consumers learn the start from the
            // game (GetGame) and follow its moves.
            EventKind::SetupPlaced { .. } => return None,
            EventKind::EntropySubmitted {
                by,
                step,
                commitment,
                secrets,
                start,
            } => FeedKind::Entropy(Box::new(FeedEntropy {
                by: *by,
                revealed: step.is_reveal(),
                commitment: commitment
                    .as_ref()
                    .map(|v| hex(v).into_boxed_str())
                    .unwrap_or_default(),
                secrets: secrets
                    .as_ref()
                    .map(|s| s.map(|v| hex(&v).into_boxed_str())),
                start: start.as_ref().map(kept_fen),
                seq: event.seq,
            })),
            EventKind::MovePlayed {
                played,
                position,
                fen,
                clocks,
                draw_offer,
            } => FeedKind::Moved {
                played: FeedMove::from(played),
                fen: fen.of(position).into(),
                clocks: clocks.as_ref().map(FeedClocks::from),
                draw_offer: *draw_offer,
            },
            EventKind::GameOver { outcome, position } => FeedKind::Finished {
                outcome: *outcome,
                fen: kept_fen(position),
                ply,
            },
            EventKind::MovesTakenBack {
                ply,
                position,
                clocks,
                ..
            } => FeedKind::TakenBack {
                ply: *ply,
                fen: kept_fen(position),
                clocks: clocks.as_ref().map(FeedClocks::from),
                seq: event.seq,
            },
            EventKind::Snapshot(_)
            | EventKind::DrawOffered { .. }
            | EventKind::DrawDeclined { .. }
            | EventKind::ClockChanged { .. }
            | EventKind::TakebackProposed { .. }
            | EventKind::TakebackDeclined { .. }
            | EventKind::TakebackWithdrawn { .. } => {
                return None;
            }
        };
        Some(FeedEvent {
            game: game.clone(),
            at: event.at,
            kind,
        })
    }

    /// A move, a takeback or a step of the players' entropy: what a consumer sees only when
    /// it asks for moves.
    #[must_use]
    pub fn is_move(&self) -> bool {
        matches!(
            self.kind,
            FeedKind::Moved { .. } | FeedKind::TakenBack { .. } | FeedKind::Entropy(_)
        )
    }
}

/// What a feed consumer sees: every given label must match, and the player and the variant
/// when given; moves only when asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FeedFilter {
    pub labels: Labels,
    /// Games with this player bound to a seat (a player token's stream always has its own).
    pub player: Option<PlayerId>,
    pub variant: Option<AnyVariant>,
    pub moves: bool,
}

impl FeedFilter {
    #[must_use]
    pub fn matches(&self, event: &FeedEvent) -> bool {
        let game = &event.game;
        (self.moves || !event.is_move())
            && self.variant.is_none_or(|v| v == game.variant())
            && self.player.as_ref().is_none_or(|p| game.players.has(p))
            && game.labels.contains_all(&self.labels)
    }
}
