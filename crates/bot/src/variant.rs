//! What each game asks of a UCI engine: the `UCI_Variant` value Fairy-Stockfish and its kin
//! know it by, `UCI_Chess960` for Chess960, whether the bot's variants file defines it, and
//! whether a polyglot opening book applies.
//!
//! The table holds every game the server plays, keyed by its stable key (`Game.variant_key`:
//! `chess`, `capablanca`, ...), which is also the bot's name for it. The nine games that have
//! a number in the API's `Variant` enum carry its value's name too (`VARIANT_RACING_KINGS`),
//! so a server that sends only the number (one from before the keys) is still understood.
//! Tests fail for any value of the enum, and any game of the rules crate, that the table does
//! not know.

use crate::proto;

/// How one game is played through UCI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// The game's key, and the bot's name for it: the `--config` section `[variants.NAME]`
    /// and the logs.
    pub name: &'static str,
    /// `setoption name UCI_Variant value ...`; `None` for standard chess rules (also Corner
    /// and Fortress: chess from their own start, which the `position fen` command carries).
    pub uci_variant: Option<&'static str>,
    /// `setoption name UCI_Chess960 value true` (castling as the king taking its rook).
    pub chess960: bool,
    /// Fairy-Stockfish 11.1 has no built-in `uci_variant`: the bot's variants file
    /// (`--variants-file`, loaded with the engine's `VariantPath` option) defines it.
    pub in_variants_file: bool,
    /// Polyglot books hold standard chess positions only.
    pub book: bool,
}

const fn profile(name: &'static str, uci_variant: Option<&'static str>) -> Profile {
    Profile {
        name,
        uci_variant,
        chess960: false,
        in_variants_file: false,
        book: false,
    }
}

/// A game an engine knows by its key, as `UCI_Variant` (Fairy-Stockfish's own spelling).
const fn keyed(name: &'static str) -> Profile {
    profile(name, Some(name))
}

/// A game the bot's variants file defines under its key.
const fn from_file(name: &'static str) -> Profile {
    Profile {
        in_variants_file: true,
        ..keyed(name)
    }
}

/// Every game: the API's enum value name where it has one, and its profile.
const TABLE: [(Option<&str>, Profile); 41] = [
    (
        Some("VARIANT_CHESS"),
        Profile {
            book: true,
            ..profile("chess", None)
        },
    ),
    (
        Some("VARIANT_CHESS960"),
        Profile {
            chess960: true,
            ..profile("chess960", None)
        },
    ),
    (Some("VARIANT_RACING_KINGS"), keyed("racingkings")),
    (
        Some("VARIANT_THREE_CHECK"),
        profile("threecheck", Some("3check")),
    ),
    (Some("VARIANT_KING_OF_THE_HILL"), keyed("kingofthehill")),
    (Some("VARIANT_ANTICHESS"), keyed("antichess")),
    (Some("VARIANT_ATOMIC"), keyed("atomic")),
    (Some("VARIANT_HORDE"), keyed("horde")),
    (Some("VARIANT_CRAZYHOUSE"), keyed("crazyhouse")),
    // The wide family, known by key only. Fairy-Stockfish 11.1 has these built in:
    (None, keyed("losalamos")),
    (None, keyed("janus")),
    (None, keyed("embassy")),
    (None, keyed("capablanca")),
    // Its castling is king-takes-rook without UCI_Chess960: the variant says so itself.
    (None, keyed("caparandom")),
    (None, keyed("grand")),
    (None, keyed("extinction")),
    (None, keyed("amazon")),
    (None, keyed("knightmate")),
    (None, keyed("loop")),
    // Chess from a start of their own, with no castling rights: any chess engine plays them.
    (None, profile("corner", None)),
    (None, profile("fortress", None)),
    // Defined for Fairy-Stockfish by the bot's variants file.
    (None, from_file("bkhorde")),
    (None, from_file("massacre")),
    // No engine but `chessd random-engine` plays these today (FSF 11.1 has none of them; a
    // newer FSF's own maharajah never lets a black pawn reach rank 1, where chessd's may go).
    (None, keyed("maharajah")),
    (None, keyed("berolina")),
    (None, keyed("legan")),
    // The seed site's own games: no engine anywhere plays them.
    (None, keyed("cylinder")),
    (None, keyed("knightrelay")),
    (None, keyed("cheshirecat")),
    // No program plays these at all (GAMES.md section 2).
    (None, keyed("recycle")),
    (None, keyed("iceage")),
    (None, keyed("shogi")),
    (None, keyed("minishogi")),
    (None, keyed("xiangqi")),
    // Hidden information: a seat knows its own view and legal moves, never the position an
    // engine needs, so only `chessd random-engine` plays it.
    (None, keyed("dark")),
    // The die decides which piece type moves, and the Behemoth moves between turns: no
    // engine knows either, so only `chessd random-engine` plays them.
    (None, keyed("dice")),
    (None, keyed("dice10x10")),
    (None, keyed("behemoth")),
    // A secret setup: no engine plays them.
    (None, keyed("screen")),
    (None, keyed("crazyscreen")),
    // Turns of two parts, which no engine knows: only `chessd random-engine` plays them.
    (None, keyed("ambiguous")),
];

/// The profile of the game's `variant` (the API's enum number); `None` for unspecified,
/// a number this build's API does not know, or a value the table lacks.
#[must_use]
pub fn of(variant: i32) -> Option<Profile> {
    let name = proto::Variant::try_from(variant).ok()?.as_str_name();
    TABLE
        .iter()
        .find(|(n, _)| *n == Some(name))
        .map(|(_, p)| *p)
}

/// The profile of a game as the server describes it: by `variant_key` when it names a game
/// the bot knows, else by the `variant` number (a server from before the keys sends none).
#[must_use]
pub fn of_game(variant: i32, variant_key: &str) -> Option<Profile> {
    named(variant_key).or_else(|| of(variant))
}

/// The profile the bot calls `name` (a game's key, a `[variants.NAME]` section).
#[must_use]
pub fn named(name: &str) -> Option<Profile> {
    TABLE.iter().find(|(_, p)| p.name == name).map(|(_, p)| *p)
}

/// The API's enum number of the variant the bot calls `name`; `None` for a game known by key
/// only.
#[must_use]
pub fn api_value(name: &str) -> Option<i32> {
    let (api, _) = TABLE.iter().find(|(_, p)| p.name == name)?;
    proto::Variant::from_str_name((*api)?).map(|v| v as i32)
}

/// The bot's names of every variant, for messages.
#[must_use]
pub fn names() -> Vec<&'static str> {
    TABLE.iter().map(|(_, p)| p.name).collect()
}

#[cfg(test)]
mod tests {
    use chessd_rules::any::AnyVariant;

    use super::*;

    /// Names go to the API's numbers and back; the games beyond the 8x8 engine's have no
    /// number (the server knows them by key only), and only they lack one.
    #[test]
    fn api_values() {
        for name in names() {
            let Some(game) = AnyVariant::by_key(name) else {
                panic!("{name} is no server game");
            };
            if game.std().is_none() {
                assert_eq!(api_value(name), None, "{name}");
                continue;
            }
            let value = api_value(name).expect(name);
            assert_eq!(of(value).map(|p| p.name), Some(name));
        }
        assert_eq!(api_value("shogi"), None);
    }

    /// Every game the server plays has a profile under its key: the rules crate's list of
    /// games is the server's (`AnyVariant::all`), so a game added there and not here fails.
    #[test]
    fn every_server_game_has_a_profile() {
        let mut seen = 0;
        for game in AnyVariant::all() {
            let profile =
                named(game.key()).unwrap_or_else(|| panic!("{} has no profile", game.key()));
            assert_eq!(profile.name, game.key());
            seen += 1;
        }
        assert_eq!(seen, names().len(), "the table has a game the server lacks");
        assert_eq!(named(""), None);
    }

    /// A game is found by key first, by number where the key is missing or unknown.
    #[test]
    fn lookup_by_key_then_number() {
        let unspecified = proto::Variant::Unspecified as i32;
        assert_eq!(of_game(unspecified, "grand").map(|p| p.name), Some("grand"));
        let rk = proto::Variant::RacingKings as i32;
        assert_eq!(of_game(rk, "").map(|p| p.name), Some("racingkings"));
        assert_eq!(
            of_game(rk, "racingkings").map(|p| p.name),
            Some("racingkings")
        );
        assert_eq!(of_game(rk, "bughouse").map(|p| p.name), Some("racingkings"));
        assert_eq!(of_game(unspecified, "bughouse"), None);
        assert_eq!(of_game(unspecified, "shogi").map(|p| p.name), Some("shogi"));
        assert_eq!(of_game(unspecified, ""), None);
    }

    /// The wide family's engines: the games Fairy-Stockfish 11.1 has built in (its `uci`
    /// answer's UCI_Variant list, checked when it is installed) are asked for by their key;
    /// Corner and Fortress are chess from their start; bkhorde and massacre come from the
    /// bot's variants file; maharajah, berolina and legan by key (the random engine's).
    #[test]
    fn wide_profiles() {
        const FSF_11_1: [&str; 10] = [
            "losalamos",
            "janus",
            "embassy",
            "capablanca",
            "caparandom",
            "grand",
            "extinction",
            "amazon",
            "knightmate",
            "loop",
        ];
        for key in FSF_11_1 {
            let p = named(key).unwrap();
            assert_eq!(
                (p.uci_variant, p.in_variants_file),
                (Some(key), false),
                "{key}"
            );
        }
        for key in ["corner", "fortress"] {
            assert_eq!(named(key).unwrap().uci_variant, None, "{key}");
        }
        for key in ["bkhorde", "massacre"] {
            let p = named(key).unwrap();
            assert_eq!(
                (p.uci_variant, p.in_variants_file),
                (Some(key), true),
                "{key}"
            );
        }
        for key in ["maharajah", "berolina", "legan", "recycle", "iceage"] {
            let p = named(key).unwrap();
            assert_eq!(
                (p.uci_variant, p.in_variants_file),
                (Some(key), false),
                "{key}"
            );
        }
        for (_, p) in TABLE.iter().skip(9) {
            assert!(!p.book && !p.chess960, "{}", p.name);
        }
        if let Some(listed) = fsf_variants() {
            for key in FSF_11_1 {
                assert!(listed.iter().any(|v| v == key), "FSF lacks {key}");
            }
        }
    }

    /// The installed Fairy-Stockfish's UCI_Variant values, if it is installed.
    fn fsf_variants() -> Option<Vec<String>> {
        use std::io::Write;
        use std::process::{Command, Stdio};
        let mut child = Command::new("/usr/games/fairy-stockfish")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        child.stdin.take()?.write_all(b"uci\nquit\n").ok()?;
        let out = child.wait_with_output().ok()?;
        let text = String::from_utf8_lossy(&out.stdout);
        let line = text.lines().find(|l| l.contains("name UCI_Variant"))?;
        let words: Vec<&str> = line.split_whitespace().collect();
        Some(
            words
                .windows(2)
                .filter(|w| w[0] == "var")
                .map(|w| w[1].to_owned())
                .collect(),
        )
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
        assert_eq!(names().len(), 41);
        assert_eq!(named("xiangqi").unwrap().uci_variant, Some("xiangqi"));
        assert!(named("bughouse").is_none());
    }
}
