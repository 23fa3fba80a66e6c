//! What each variant asks of a UCI engine: the `UCI_Variant` value Fairy-Stockfish and its
//! kin know it by, `UCI_Chess960` for Chess960, and whether a polyglot opening book applies.
//!
//! The table holds every variant of the rules (RULES.md), keyed by the name of the API's
//! `Variant` value (`VARIANT_RACING_KINGS`), so a variant the server adds to its enum under
//! the name below plays with no change here; a test fails for any value of the enum that the
//! table does not know.

use crate::proto;

/// How one variant is played through UCI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// The bot's name for it: the `--config` section `[variants.NAME]` and the logs.
    pub name: &'static str,
    /// `setoption name UCI_Variant value ...`; `None` for standard chess rules.
    pub uci_variant: Option<&'static str>,
    /// `setoption name UCI_Chess960 value true` (castling as the king taking its rook).
    pub chess960: bool,
    /// Polyglot books hold standard chess positions only.
    pub book: bool,
}

const fn profile(name: &'static str, uci_variant: Option<&'static str>) -> Profile {
    Profile {
        name,
        uci_variant,
        chess960: false,
        book: false,
    }
}

/// Every variant: the API's enum value name, and its profile.
const TABLE: [(&str, Profile); 9] = [
    (
        "VARIANT_CHESS",
        Profile {
            book: true,
            ..profile("chess", None)
        },
    ),
    (
        "VARIANT_CHESS960",
        Profile {
            chess960: true,
            ..profile("chess960", None)
        },
    ),
    (
        "VARIANT_RACING_KINGS",
        profile("racingkings", Some("racingkings")),
    ),
    ("VARIANT_THREE_CHECK", profile("threecheck", Some("3check"))),
    (
        "VARIANT_KING_OF_THE_HILL",
        profile("kingofthehill", Some("kingofthehill")),
    ),
    ("VARIANT_ANTICHESS", profile("antichess", Some("antichess"))),
    ("VARIANT_ATOMIC", profile("atomic", Some("atomic"))),
    ("VARIANT_HORDE", profile("horde", Some("horde"))),
    (
        "VARIANT_CRAZYHOUSE",
        profile("crazyhouse", Some("crazyhouse")),
    ),
];

/// The profile of the game's `variant` (the API's enum number); `None` for unspecified,
/// a number this build's API does not know, or a value the table lacks.
#[must_use]
pub fn of(variant: i32) -> Option<Profile> {
    let name = proto::Variant::try_from(variant).ok()?.as_str_name();
    TABLE.iter().find(|(n, _)| *n == name).map(|(_, p)| *p)
}

/// The profile the bot calls `name` (a `[variants.NAME]` section).
#[must_use]
pub fn named(name: &str) -> Option<Profile> {
    TABLE.iter().find(|(_, p)| p.name == name).map(|(_, p)| *p)
}

/// The API's enum number of the variant the bot calls `name`.
#[must_use]
pub fn api_value(name: &str) -> Option<i32> {
    let (api, _) = TABLE.iter().find(|(_, p)| p.name == name)?;
    proto::Variant::from_str_name(api).map(|v| v as i32)
}

/// The bot's names of every variant, for messages.
#[must_use]
pub fn names() -> Vec<&'static str> {
    TABLE.iter().map(|(_, p)| p.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names go to the API's numbers and back.
    #[test]
    fn api_values() {
        for name in names() {
            let value = api_value(name).expect(name);
            assert_eq!(of(value).map(|p| p.name), Some(name));
        }
        assert_eq!(api_value("shogi"), None);
    }

    /// Every variant the API defines today has a profile: a variant added to the enum under
    /// a name the table lacks fails here, pointing at the table.
    #[test]
    fn every_api_variant_has_a_profile() {
        let mut seen = 0;
        for number in 1..256 {
            if let Ok(v) = proto::Variant::try_from(number) {
                assert!(of(number).is_some(), "{} has no profile", v.as_str_name());
                seen += 1;
            }
        }
        assert!(seen >= 2, "the API has chess and racing kings at least");
        assert_eq!(of(proto::Variant::Unspecified as i32), None);
        assert_eq!(of(999), None);
    }

    /// Today's server variants: chess plain (book allowed), Racing Kings by UCI_Variant.
    #[test]
    fn server_variants() {
        let chess = of(proto::Variant::Chess as i32).unwrap();
        assert_eq!(
            (chess.uci_variant, chess.chess960, chess.book),
            (None, false, true)
        );
        let rk = of(proto::Variant::RacingKings as i32).unwrap();
        assert_eq!(
            (rk.name, rk.uci_variant, rk.book),
            ("racingkings", Some("racingkings"), false)
        );
    }

    /// The rules' other variants use the names engines know them by.
    #[test]
    fn engine_names() {
        assert!(named("chess960").unwrap().chess960);
        assert_eq!(named("threecheck").unwrap().uci_variant, Some("3check"));
        for name in [
            "kingofthehill",
            "antichess",
            "atomic",
            "horde",
            "crazyhouse",
        ] {
            assert_eq!(named(name).unwrap().uci_variant, Some(name));
        }
        assert_eq!(names().len(), 9);
        assert!(named("bughouse").is_none());
    }
}
