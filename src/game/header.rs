//! [`GameHeader`]: what never changes in a game once it is created (who plays it, under which
//! rules, from which position, with which labels). Shared (`Arc`) by a store's copy of the game
//! and every feed event about it.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

pub use chessd_rules::any::AnyStart;
use chessd_rules::{DrawRule, any::AnyVariant};

use crate::game::action::{NewGame, Players};
use crate::game::clock::{Byoyomi, TimeControl};
use crate::game::id::GameId;
use crate::game::labels::Labels;
use crate::game::start::{PackedStartRules, StartRules};
use crate::game::time::{epoch_ms, from_epoch_ms};

/// A game's fixed facts, as given to [`GameHeader::new`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderParts {
    pub id: GameId,
    pub players: Players,
    pub labels: Arc<Labels>,
    pub start: AnyStart,
    pub time_control: Option<TimeControl>,
    /// When the clocks start, and the first-move timer.
    pub start_rules: StartRules,
    pub draw_rule: DrawRule,
    /// When the game was created.
    pub created_at: SystemTime,
    /// How long the side to move must be gone before its opponent may claim the game.
    pub claim_after: Duration,
    /// The delayed public view, in plies (0: none; see `game::delay`).
    pub public_delay: u16,
}

/// A game's fixed facts. Every game a server holds keeps its header, finished games too, so
/// its times are kept in whole milliseconds (as every store keeps them, and as the API's
/// bounds, a day at most, let a `u32` hold them) rather than as `Duration`s and
/// `SystemTime`s four times the size; the accessors give them back as those.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameHeader {
    pub id: GameId,
    pub players: Players,
    pub labels: Arc<Labels>,
    pub start: AnyStart,
    pub draw_rule: DrawRule,
    created_ms: u64,
    /// When the clocks start, and the first-move timer.
    start_rules: PackedStartRules,
    /// The time control: initial, increment, Black's initial and increment; `initial`
    /// [`NONE`]: untimed.
    time_control: [u32; 4],
    byoyomi: Option<Byoyomi>,
    claim_ms: u32,
    public_delay: u16,
}

/// A `u32` that stands for "none" in a kept duration.
const NONE: u32 = u32::MAX;

/// `d` in whole milliseconds, bounded short of [`NONE`].
fn kept_ms(d: Duration) -> u32 {
    u32::try_from(d.as_millis()).map_or(NONE - 1, |ms| ms.min(NONE - 1))
}

fn kept_opt(d: Option<Duration>) -> u32 {
    d.map_or(NONE, kept_ms)
}

fn read_opt(ms: u32) -> Option<Duration> {
    (ms != NONE).then(|| Duration::from_millis(u64::from(ms)))
}

impl GameHeader {
    #[must_use]
    pub fn new(parts: HeaderParts) -> GameHeader {
        let time_control = match parts.time_control {
            Some(tc) => [
                kept_ms(tc.initial),
                kept_ms(tc.increment),
                kept_opt(tc.black_initial),
                kept_opt(tc.black_increment),
            ],
            None => [NONE, 0, NONE, NONE],
        };
        GameHeader {
            id: parts.id,
            players: parts.players,
            labels: parts.labels,
            start: parts.start,
            draw_rule: parts.draw_rule,
            created_ms: epoch_ms(parts.created_at),
            start_rules: parts.start_rules.into(),
            time_control,
            byoyomi: parts.time_control.and_then(|tc| tc.byoyomi),
            claim_ms: kept_ms(parts.claim_after),
            public_delay: parts.public_delay,
        }
    }

    /// The header of a game `new` asked for, made as `id` at `created_at` (kept to the
    /// millisecond, as storage keeps it, so a header read back is the same header).
    #[must_use]
    pub fn of(id: GameId, new: &NewGame, created_at: SystemTime) -> GameHeader {
        GameHeader::new(HeaderParts {
            id,
            players: new.players.clone(),
            labels: new.labels.clone().shared(),
            start: new.start.into(),
            time_control: new.time_control,
            start_rules: new.start_rules,
            draw_rule: new.draw_rule,
            created_at,
            claim_after: new.claim_after,
            public_delay: new.public_delay,
        })
    }

    /// The delayed public view, in plies (0: none; see `game::delay`).
    #[must_use]
    pub fn public_delay(&self) -> u16 {
        self.public_delay
    }

    #[must_use]
    pub fn variant(&self) -> AnyVariant {
        self.start.variant()
    }

    #[must_use]
    pub fn time_control(&self) -> Option<TimeControl> {
        let [initial, increment, black_initial, black_increment] = self.time_control;
        (initial != NONE).then(|| TimeControl {
            initial: Duration::from_millis(u64::from(initial)),
            increment: Duration::from_millis(u64::from(increment)),
            black_initial: read_opt(black_initial),
            black_increment: read_opt(black_increment),
            byoyomi: self.byoyomi,
        })
    }

    #[must_use]
    pub fn start_rules(&self) -> StartRules {
        self.start_rules.into()
    }

    /// When the game was created (to the millisecond).
    #[must_use]
    pub fn created_at(&self) -> SystemTime {
        from_epoch_ms(self.created_ms)
    }

    #[must_use]
    pub fn claim_after(&self) -> Duration {
        Duration::from_millis(u64::from(self.claim_ms))
    }
}
