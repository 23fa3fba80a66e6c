//! `Variant`: the games chessd plays, with their names (command line, lichess, UCI_Variant,
//! PGN), start positions and the few facts the game record needs to know per variant.

use core::fmt;

/// The games chessd plays. New variants are appended: the order is the service's numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Standard chess under FIDE rules.
    Chess,
    /// Racing Kings: race the king to rank 8, never giving check.
    RacingKings,
    /// Fischer Random: a shuffled back rank, castling to the standard squares.
    Chess960,
    /// Three-check: the third check wins.
    ThreeCheck,
    /// King of the Hill: a king on d4, e4, d5 or e5 wins.
    KingOfTheHill,
    /// Antichess: captures are compulsory and losing every piece wins.
    Antichess,
    /// Atomic: every capture explodes the pieces around it.
    Atomic,
    /// Horde: 36 white pawns against the black army.
    Horde,
    /// Crazyhouse: captured pieces change sides and are dropped back.
    Crazyhouse,
}

impl Variant {
    pub const ALL: [Variant; 9] = [
        Variant::Chess,
        Variant::RacingKings,
        Variant::Chess960,
        Variant::ThreeCheck,
        Variant::KingOfTheHill,
        Variant::Antichess,
        Variant::Atomic,
        Variant::Horde,
        Variant::Crazyhouse,
    ];

    /// The name used on the command line and in identifiers: `chess`, `racingkings`,
    /// `chess960`, `threecheck`, `kingofthehill`, `antichess`, `atomic`, `horde`, `crazyhouse`.
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::RacingKings => "racingkings",
            Variant::Chess960 => "chess960",
            Variant::ThreeCheck => "threecheck",
            Variant::KingOfTheHill => "kingofthehill",
            Variant::Antichess => "antichess",
            Variant::Atomic => "atomic",
            Variant::Horde => "horde",
            Variant::Crazyhouse => "crazyhouse",
        }
    }

    /// The name PGN's `Variant` tag uses: `Standard`, `Racing Kings`, `Chess960`, ...
    #[must_use]
    pub const fn pgn_name(self) -> &'static str {
        match self {
            Variant::Chess => "Standard",
            Variant::RacingKings => "Racing Kings",
            Variant::Chess960 => "Chess960",
            Variant::ThreeCheck => "Three-check",
            Variant::KingOfTheHill => "King of the Hill",
            Variant::Antichess => "Antichess",
            Variant::Atomic => "Atomic",
            Variant::Horde => "Horde",
            Variant::Crazyhouse => "Crazyhouse",
        }
    }

    /// The variant's start position as FEN (Chess960: the standard arrangement, number 518).
    #[must_use]
    pub const fn start_fen(self) -> &'static str {
        match self {
            Variant::Chess | Variant::Chess960 | Variant::KingOfTheHill | Variant::Atomic => {
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            }
            Variant::RacingKings => "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
            Variant::ThreeCheck => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
            Variant::Antichess => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            Variant::Horde => {
                "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"
            }
            Variant::Crazyhouse => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        }
    }

    /// Whether the fifty- and seventy-five-move rules apply. Not in crazyhouse, where no piece
    /// ever leaves the game (python-chess and lichess agree); there a position can also repeat
    /// across captures and pawn moves, so repetition looks back over the whole game.
    #[must_use]
    pub const fn has_move_count_rule(self) -> bool {
        !matches!(self, Variant::Crazyhouse)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// A variant name that chessd does not play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseVariantError;

impl fmt::Display for ParseVariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "unknown variant: expected chess, racingkings, chess960, threecheck, kingofthehill, \
             antichess, atomic, horde or crazyhouse",
        )
    }
}

impl std::error::Error for ParseVariantError {}

impl core::str::FromStr for Variant {
    type Err = ParseVariantError;

    /// Accepts, in any case and with or without spaces, `-` and `_`: the command-line keys,
    /// lichess's keys (`threeCheck`, `kingOfTheHill`, `racingKings`), the UCI_Variant names
    /// (`3check`, `UCI_Chess960` for Chess960) and the PGN names (`Three-check`,
    /// `King of the Hill`, `Standard`, `Fischerandom`).
    fn from_str(s: &str) -> Result<Variant, ParseVariantError> {
        let name: String = s
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_'))
            .map(|c| c.to_ascii_lowercase())
            .collect();
        Ok(match name.as_str() {
            "chess" | "standard" => Variant::Chess,
            "racingkings" => Variant::RacingKings,
            "chess960" | "ucichess960" | "fischerandom" | "fischerrandom" => Variant::Chess960,
            "threecheck" | "3check" => Variant::ThreeCheck,
            "kingofthehill" | "koth" => Variant::KingOfTheHill,
            "antichess" => Variant::Antichess,
            "atomic" => Variant::Atomic,
            "horde" => Variant::Horde,
            "crazyhouse" => Variant::Crazyhouse,
            _ => return Err(ParseVariantError),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key, PGN name and the aliases RULES.md lists read back as their variant.
    #[test]
    fn names_and_aliases() {
        for variant in Variant::ALL {
            assert_eq!(variant.key().parse(), Ok(variant));
            assert_eq!(variant.pgn_name().parse(), Ok(variant));
        }
        for (alias, variant) in [
            ("3check", Variant::ThreeCheck),
            ("threeCheck", Variant::ThreeCheck),
            ("kingOfTheHill", Variant::KingOfTheHill),
            ("racingKings", Variant::RacingKings),
            ("racing_kings", Variant::RacingKings),
            ("UCI_Chess960", Variant::Chess960),
            ("standard", Variant::Chess),
        ] {
            assert_eq!(alias.parse(), Ok(variant), "{alias}");
        }
        assert_eq!("suicide".parse::<Variant>(), Err(ParseVariantError));
    }
}
