//! [`AnyVariant`]: a game chessd plays, by engine family, with the one key every interface
//! names it by.

use core::fmt;
use core::str::FromStr;

use crate::Variant;
use crate::shogi::ShogiVariant;
use crate::wide::WideVariant;

/// A game of any engine family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyVariant {
    /// A game of the 8x8 engine.
    Std(Variant),
    /// A game of the wide family (other boards, fairy pieces, other win rules).
    Wide(WideVariant),
    /// Shogi or minishogi.
    Shogi(ShogiVariant),
    /// Xiangqi, a family of one game.
    Xiangqi,
}

impl From<Variant> for AnyVariant {
    fn from(v: Variant) -> AnyVariant {
        AnyVariant::Std(v)
    }
}

impl From<WideVariant> for AnyVariant {
    fn from(v: WideVariant) -> AnyVariant {
        AnyVariant::Wide(v)
    }
}

impl From<ShogiVariant> for AnyVariant {
    fn from(v: ShogiVariant) -> AnyVariant {
        AnyVariant::Shogi(v)
    }
}

impl AnyVariant {
    /// Standard chess: the default game.
    pub const CHESS: AnyVariant = AnyVariant::Std(Variant::Chess);

    /// How many games there are.
    pub const COUNT: usize =
        Variant::ALL.len() + WideVariant::ALL.len() + ShogiVariant::ALL.len() + 1;

    /// The game's place in [`AnyVariant::all`]: a dense index for per-game tables.
    #[must_use]
    pub fn index(self) -> usize {
        match self {
            AnyVariant::Std(v) => v as usize,
            AnyVariant::Wide(v) => Variant::ALL.len() + v as usize,
            AnyVariant::Shogi(v) => Variant::ALL.len() + WideVariant::ALL.len() + v as usize,
            AnyVariant::Xiangqi => AnyVariant::COUNT - 1,
        }
    }

    /// Every game, the 8x8 engine's first, each family in its own order.
    pub fn all() -> impl Iterator<Item = AnyVariant> {
        Variant::ALL
            .into_iter()
            .map(AnyVariant::Std)
            .chain(WideVariant::ALL.into_iter().map(AnyVariant::Wide))
            .chain(ShogiVariant::ALL.into_iter().map(AnyVariant::Shogi))
            .chain([AnyVariant::Xiangqi])
    }

    /// The game's stable key: lichess's name for its games, Fairy-Stockfish's
    /// `UCI_Variant` name for the others. No two games share one.
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            AnyVariant::Std(v) => v.key(),
            AnyVariant::Wide(v) => v.key(),
            AnyVariant::Shogi(v) => v.name(),
            AnyVariant::Xiangqi => "xiangqi",
        }
    }

    /// The game's name in a PGN `Variant` tag, as Fairy-Stockfish's GUIs write it.
    #[must_use]
    pub const fn pgn_name(self) -> &'static str {
        match self {
            AnyVariant::Std(v) => v.pgn_name(),
            AnyVariant::Wide(v) => v.pgn_name(),
            AnyVariant::Shogi(ShogiVariant::Shogi) => "Shogi",
            AnyVariant::Shogi(ShogiVariant::Minishogi) => "Minishogi",
            AnyVariant::Xiangqi => "Xiangqi",
        }
    }

    /// The game by exactly its key.
    #[must_use]
    pub fn by_key(key: &str) -> Option<AnyVariant> {
        AnyVariant::all().find(|v| v.key() == key)
    }

    /// Whether each player sees only part of the board (Dark Chess): a seat is shown its own
    /// view ([`AnyPosition::fen_seen_by`](crate::any::AnyPosition::fen_seen_by)) and a
    /// spectator no square until the game is over.
    #[must_use]
    pub const fn hides_board(self) -> bool {
        matches!(self, AnyVariant::Wide(WideVariant::Dark))
    }

    /// Whether each side first places its army behind a screen (Screen and Crazy Screen
    /// Chess): the game has no start until both placements are in
    /// ([`screen_start`](crate::wide::screen_start)).
    #[must_use]
    pub const fn has_secret_setup(self) -> bool {
        matches!(
            self,
            AnyVariant::Wide(WideVariant::Screen | WideVariant::CrazyScreen)
        )
    }

    /// Files and ranks of the board.
    #[must_use]
    pub const fn size(self) -> (u8, u8) {
        match self {
            AnyVariant::Std(_) => (8, 8),
            AnyVariant::Wide(v) => (v.width(), v.height()),
            AnyVariant::Shogi(v) => (v.size(), v.size()),
            AnyVariant::Xiangqi => (9, 10),
        }
    }

    #[must_use]
    pub const fn start_fen(self) -> &'static str {
        match self {
            AnyVariant::Std(v) => v.start_fen(),
            AnyVariant::Wide(v) => v.start_fen(),
            AnyVariant::Shogi(v) => v.start_fen(),
            AnyVariant::Xiangqi => crate::xiangqi::START_FEN,
        }
    }

    /// The 8x8 engine's game, if this is one.
    #[must_use]
    pub const fn std(self) -> Option<Variant> {
        match self {
            AnyVariant::Std(v) => Some(v),
            _ => None,
        }
    }
}

impl fmt::Display for AnyVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// A name that is no game's (neither a key nor an alias the 8x8 engine reads).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseAnyVariantError(pub String);

impl fmt::Display for ParseAnyVariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown variant {:?}", self.0)
    }
}

impl std::error::Error for ParseAnyVariantError {}

impl FromStr for AnyVariant {
    type Err = ParseAnyVariantError;

    /// A key, or one of the aliases the 8x8 engine's `Variant` reads (`3check`, ...).
    fn from_str(s: &str) -> Result<AnyVariant, ParseAnyVariantError> {
        if let Ok(v) = s.parse::<Variant>() {
            return Ok(AnyVariant::Std(v));
        }
        if let Ok(v) = s.parse::<WideVariant>() {
            return Ok(AnyVariant::Wide(v));
        }
        if let Ok(v) = s.parse::<ShogiVariant>() {
            return Ok(AnyVariant::Shogi(v));
        }
        match s {
            "xiangqi" => Ok(AnyVariant::Xiangqi),
            _ => Err(ParseAnyVariantError(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key names its game and no other; the families' keys never collide.
    #[test]
    fn keys_are_unique_and_read_back() {
        let all: Vec<AnyVariant> = AnyVariant::all().collect();
        assert_eq!(all.len(), AnyVariant::COUNT);
        for (i, v) in all.iter().enumerate() {
            assert_eq!(v.index(), i);
            assert_eq!(AnyVariant::by_key(v.key()), Some(*v));
            assert_eq!(v.key().parse::<AnyVariant>(), Ok(*v));
        }
        let mut keys: Vec<&str> = all.iter().map(|v| v.key()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), all.len());
        assert_eq!(AnyVariant::by_key("3check"), None);
        assert!("nonsense".parse::<AnyVariant>().is_err());
        assert_eq!(AnyVariant::Wide(WideVariant::Grand).size(), (10, 10));
        assert_eq!(
            AnyVariant::by_key("xiangqi").map(AnyVariant::size),
            Some((9, 10))
        );
        assert_eq!(
            AnyVariant::by_key("minishogi").map(AnyVariant::size),
            Some((5, 5))
        );
    }
}
