//! [`AnyVariant`]: a game chessd plays, by engine family, with the one key every interface
//! names it by.

use core::fmt;
use core::str::FromStr;

use crate::Variant;
use crate::wide::WideVariant;

/// A game of either engine family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyVariant {
    /// A game of the 8x8 engine.
    Std(Variant),
    /// A game of the wide family (other boards, fairy pieces, other win rules).
    Wide(WideVariant),
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

impl AnyVariant {
    /// Standard chess: the default game.
    pub const CHESS: AnyVariant = AnyVariant::Std(Variant::Chess);

    /// How many games there are.
    pub const COUNT: usize = Variant::ALL.len() + WideVariant::ALL.len();

    /// The game's place in [`AnyVariant::all`]: a dense index for per-game tables.
    #[must_use]
    pub fn index(self) -> usize {
        match self {
            AnyVariant::Std(v) => v as usize,
            AnyVariant::Wide(v) => Variant::ALL.len() + v as usize,
        }
    }

    /// Every game, the 8x8 engine's first, each family in its own order.
    pub fn all() -> impl Iterator<Item = AnyVariant> {
        Variant::ALL
            .into_iter()
            .map(AnyVariant::Std)
            .chain(WideVariant::ALL.into_iter().map(AnyVariant::Wide))
    }

    /// The game's stable key: lichess's name for its games, Fairy-Stockfish's
    /// `UCI_Variant` name for the others. No two games share one.
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            AnyVariant::Std(v) => v.key(),
            AnyVariant::Wide(v) => v.key(),
        }
    }

    /// The game by exactly its key.
    #[must_use]
    pub fn by_key(key: &str) -> Option<AnyVariant> {
        AnyVariant::all().find(|v| v.key() == key)
    }

    /// Files and ranks of the board.
    #[must_use]
    pub const fn size(self) -> (u8, u8) {
        match self {
            AnyVariant::Std(_) => (8, 8),
            AnyVariant::Wide(v) => (v.width(), v.height()),
        }
    }

    #[must_use]
    pub const fn start_fen(self) -> &'static str {
        match self {
            AnyVariant::Std(v) => v.start_fen(),
            AnyVariant::Wide(v) => v.start_fen(),
        }
    }

    /// The 8x8 engine's game, if this is one.
    #[must_use]
    pub const fn std(self) -> Option<Variant> {
        match self {
            AnyVariant::Std(v) => Some(v),
            AnyVariant::Wide(_) => None,
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
        s.parse::<WideVariant>()
            .map(AnyVariant::Wide)
            .map_err(|_| ParseAnyVariantError(s.to_owned()))
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
    }
}
