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
    pub start: StartPosition,
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
            start: new.start.into(),
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

/// A game's start position as its header keeps it: the variant's own start by name (most
/// games), any other boxed. Every game a server holds keeps its header, so it is not the size
/// of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// `Position::new(variant)`.
    Standard(Variant),
    Other(Box<Position>),
}

impl From<Position> for StartPosition {
    fn from(position: Position) -> StartPosition {
        let variant = position.variant();
        if position == Position::new(variant) {
            StartPosition::Standard(variant)
        } else {
            StartPosition::Other(Box::new(position))
        }
    }
}

impl StartPosition {
    #[must_use]
    pub fn position(&self) -> Position {
        match self {
            StartPosition::Standard(variant) => Position::new(*variant),
            StartPosition::Other(position) => **position,
        }
    }

    #[must_use]
    pub fn variant(&self) -> Variant {
        match self {
            StartPosition::Standard(variant) => *variant,
            StartPosition::Other(position) => position.variant(),
        }
    }
}

#[cfg(test)]
mod tests {
    use chessd_rules::{Position, Variant};

    use super::StartPosition;

    /// A variant's own start is kept by name, any other by value; both give the position back.
    #[test]
    fn starts_are_kept_small() {
        let standard = Position::new(Variant::Crazyhouse);
        assert_eq!(
            StartPosition::from(standard),
            StartPosition::Standard(Variant::Crazyhouse)
        );
        let other = Position::from_fen(Variant::Chess, "8/8/8/4k3/8/8/8/4K2R w K - 0 1").unwrap();
        let kept = StartPosition::from(other);
        assert!(matches!(kept, StartPosition::Other(_)));
        assert_eq!((kept.position(), kept.variant()), (other, Variant::Chess));
        assert_eq!(StartPosition::from(standard).position(), standard);
        assert_eq!(size_of::<StartPosition>(), 16);
    }
}
