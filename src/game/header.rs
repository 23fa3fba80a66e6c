//! [`GameHeader`]: what never changes in a game once it is created (who plays it, under which
//! rules, from which position, with which labels). Shared (`Arc`) by a store's copy of the game
//! and every feed event about it.

use std::sync::Arc;
use std::time::SystemTime;

use chessd_rules::{DrawRule, Position, Rules, Variant};

use crate::game::action::{NewGame, Players};
use crate::game::clock::TimeControl;
use crate::game::id::GameId;
use crate::game::labels::Labels;
use crate::game::start::StartRules;
use crate::game::time::whole_ms;

/// A game's fixed facts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameHeader {
    pub id: GameId,
    pub players: Players,
    pub labels: Arc<Labels>,
    pub start: Position,
    pub time_control: Option<TimeControl>,
    /// When the clocks start, and the first-move timer.
    pub start_rules: StartRules,
    pub draw_rule: DrawRule,
    /// When the game was created (to the millisecond, as stored).
    pub created_at: SystemTime,
    /// How long the side to move must be gone before its opponent may claim the game.
    pub claim_after: std::time::Duration,
}

impl GameHeader {
    /// The header of a game `new` asked for, made as `id` at `created_at` (kept to the
    /// millisecond, as storage keeps it, so a header read back is the same header).
    #[must_use]
    pub fn of(id: GameId, new: &NewGame, created_at: SystemTime) -> GameHeader {
        let created_at = whole_ms(created_at);
        GameHeader {
            id,
            players: new.players.clone(),
            labels: Arc::new(new.labels.clone()),
            start: new.start,
            time_control: new.time_control,
            start_rules: new.start_rules,
            draw_rule: new.draw_rule,
            created_at,
            claim_after: new.claim_after,
        }
    }

    #[must_use]
    pub fn variant(&self) -> Variant {
        self.start.variant()
    }
}
