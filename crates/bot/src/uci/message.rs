//! What an engine says, parsed: the engine-to-GUI half of UCI that a bridge needs.
//!
//! Our own parser rather than a crate (docs/bots.md says why): it reads `id`, `uciok`,
//! `readyok`, `option`, the `score` of `info`, and `bestmove` with its `ponder`, including the
//! moves variants use (drops `N@f3`, king promotions, and on other boards `a10a9` or `e7e8c`:
//! the moves are read for the game's board), `bestmove (none)` and `0000`. Anything else is
//! [`EngineMessage::Unknown`], which UCI asks GUIs to ignore.

use crate::board::{Notation, UciMove};

/// One line from the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineMessage {
    /// `id name ...`.
    Name(String),
    /// `uciok`, or USI's `usiok`.
    UciOk,
    ReadyOk,
    Option(UciOption),
    Info(Info),
    /// `bestmove MOVE [ponder MOVE]`; `mv` is `None` for `(none)` or `0000` (no move).
    BestMove {
        mv: Option<UciMove>,
        ponder: Option<UciMove>,
    },
    /// `bestmove` followed by something that is not a move.
    BadBestMove(String),
    /// USI's `bestmove resign`.
    Resign,
    /// USI's `bestmove win`: the engine declares it wins by the impasse rule.
    DeclareWin,
    /// Anything else (`id author`, `info string`, `copyprotection`, garbage).
    Unknown(String),
}

/// An option the engine offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciOption {
    pub name: String,
    pub kind: OptionKind,
    pub default: Option<String>,
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// The values of a `combo`.
    pub vars: Vec<String>,
}

/// The type of an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Check,
    Spin,
    Combo,
    Button,
    String,
    /// A type UCI does not define.
    Other,
}

/// The parts of an `info` line the bot uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    /// `multipv N`; absent means 1.
    pub multipv: Option<u32>,
    pub score: Option<Score>,
    /// The score is only a bound (`lowerbound`, `upperbound`).
    pub bound: bool,
}

/// A score from the engine's point of view (the side to move in the searched position).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in N moves; negative: the engine is mated in -N.
    Mate(i32),
}

/// Centipawn value given to a mate, so mates compare beyond any evaluation.
const MATE_CP: i32 = 100_000;

impl Score {
    /// The score as centipawns, a mate counted as beyond any evaluation (sooner is bigger).
    #[must_use]
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Cp(cp) => cp.clamp(-MATE_CP / 2, MATE_CP / 2),
            Score::Mate(n) if n > 0 => MATE_CP - n.min(1000),
            Score::Mate(n) => -MATE_CP + n.saturating_neg().min(1000),
        }
    }
}

/// Reads one line of an engine playing a game of chess's board and pieces.
#[must_use]
pub fn parse(line: &str) -> EngineMessage {
    parse_in(line, Notation::Chess)
}

/// Reads one line of an engine playing a game whose moves are written in `notation`.
#[must_use]
pub fn parse_in(line: &str, notation: Notation) -> EngineMessage {
    let trimmed = line.trim();
    let mut words = trimmed.split_ascii_whitespace();
    match words.next() {
        Some("uciok") => EngineMessage::UciOk,
        Some("readyok") => EngineMessage::ReadyOk,
        Some("id") if words.next() == Some("name") => {
            EngineMessage::Name(words.collect::<Vec<_>>().join(" "))
        }
        Some("option") => {
            parse_option(words.collect()).map_or_else(|| unknown(trimmed), EngineMessage::Option)
        }
        Some("info") => EngineMessage::Info(parse_info(words)),
        Some("bestmove") => parse_bestmove(words.collect(), notation),
        _ => unknown(trimmed),
    }
}

fn unknown(line: &str) -> EngineMessage {
    // Kept short: it goes to the logs.
    EngineMessage::Unknown(line.chars().take(200).collect())
}

fn parse_bestmove(words: Vec<&str>, notation: Notation) -> EngineMessage {
    let mv = match words.first() {
        None => return EngineMessage::BadBestMove(String::new()),
        Some(&("(none)" | "0000" | "none")) => None,
        Some(text) => match UciMove::parse_in(text, notation) {
            Ok(mv) => Some(mv),
            Err(e) => return EngineMessage::BadBestMove(e.text),
        },
    };
    let ponder = match words.get(1..3) {
        Some(["ponder", p]) => UciMove::parse_in(p, notation).ok(),
        _ => None,
    };
    EngineMessage::BestMove { mv, ponder }
}

fn parse_info<'a>(mut words: impl Iterator<Item = &'a str>) -> Info {
    let mut info = Info::default();
    while let Some(word) = words.next() {
        match word {
            "depth" => info.depth = words.next().and_then(|w| w.parse().ok()),
            "multipv" => info.multipv = words.next().and_then(|w| w.parse().ok()),
            "score" => {
                info.score = match (words.next(), words.next().and_then(|w| w.parse().ok())) {
                    (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => None,
                };
            }
            "lowerbound" | "upperbound" => info.bound = true,
            // The rest of the line is free text or moves: nothing more to read.
            "string" | "pv" | "refutation" | "currline" => break,
            _ => {}
        }
    }
    info
}

/// `name <words> type <t> [default <words>] [min <n>] [max <n>] [var <words>]...`
fn parse_option(words: Vec<&str>) -> Option<UciOption> {
    const KEYS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];
    let mut option = UciOption {
        name: String::new(),
        kind: OptionKind::Other,
        default: None,
        min: None,
        max: None,
        vars: Vec::new(),
    };
    let mut i = 0;
    let mut saw_type = false;
    while i < words.len() {
        let key = words[i];
        let start = i + 1;
        let mut end = start;
        while end < words.len() && !KEYS.contains(&words[end]) {
            end += 1;
        }
        let value = words[start..end].join(" ");
        match key {
            "name" => option.name = value,
            "type" => {
                saw_type = true;
                option.kind = match value.as_str() {
                    "check" => OptionKind::Check,
                    "spin" => OptionKind::Spin,
                    "combo" => OptionKind::Combo,
                    "button" => OptionKind::Button,
                    "string" => OptionKind::String,
                    _ => OptionKind::Other,
                };
            }
            "default" => option.default = Some(value),
            "min" => option.min = value.parse().ok(),
            "max" => option.max = value.parse().ok(),
            "var" => option.vars.push(value),
            _ => return None,
        }
        i = end;
    }
    (!option.name.is_empty() && saw_type).then_some(option)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Options of every type read with their names (spaces included), bounds and values.
    #[test]
    fn options() {
        let EngineMessage::Option(o) =
            parse("option name Move Overhead type spin default 10 min 0 max 5000")
        else {
            panic!("not an option");
        };
        assert_eq!(o.name, "Move Overhead");
        assert_eq!(o.kind, OptionKind::Spin);
        assert_eq!(
            (o.default.as_deref(), o.min, o.max),
            (Some("10"), Some(0), Some(5000))
        );
        let EngineMessage::Option(o) = parse(
            "option name UCI_Variant type combo default chess var 3check var chess var racingkings",
        ) else {
            panic!("not an option");
        };
        assert_eq!(o.vars, ["3check", "chess", "racingkings"]);
        let EngineMessage::Option(o) = parse("option name Debug Log File type string default ")
        else {
            panic!("not an option");
        };
        assert_eq!(
            (o.kind, o.default.as_deref()),
            (OptionKind::String, Some(""))
        );
        assert_eq!(
            parse("option name Clear Hash type button"),
            EngineMessage::Option(UciOption {
                name: "Clear Hash".into(),
                kind: OptionKind::Button,
                default: None,
                min: None,
                max: None,
                vars: vec![],
            })
        );
        assert!(matches!(
            parse("option type spin"),
            EngineMessage::Unknown(_)
        ));
    }

    /// `bestmove` with and without ponder, drops, `(none)`, `0000`, and junk after it.
    #[test]
    fn bestmoves() {
        let mv = |t: &str| Some(t.parse::<UciMove>().unwrap());
        assert_eq!(
            parse("bestmove e2e4 ponder e7e5"),
            EngineMessage::BestMove {
                mv: mv("e2e4"),
                ponder: mv("e7e5")
            }
        );
        assert_eq!(
            parse("bestmove N@f3"),
            EngineMessage::BestMove {
                mv: mv("N@f3"),
                ponder: None
            }
        );
        for none in ["bestmove (none)", "bestmove 0000"] {
            assert_eq!(
                parse(none),
                EngineMessage::BestMove {
                    mv: None,
                    ponder: None
                }
            );
        }
        assert_eq!(
            parse("bestmove banana"),
            EngineMessage::BadBestMove("banana".into())
        );
        assert_eq!(parse("bestmove"), EngineMessage::BadBestMove(String::new()));
    }

    /// On a 10x10 board, two-digit ranks and fairy promotions are moves; squares off the board
    /// make a bad `bestmove` and an unread ponder move.
    #[test]
    fn wide_bestmoves() {
        let grand = Notation::Wide(crate::board::Geometry::new(10, 10).unwrap());
        let mv = |t: &str| Some(UciMove::parse_in(t, grand).unwrap());
        assert_eq!(
            parse_in("bestmove a10a9 ponder j3j2c", grand),
            EngineMessage::BestMove {
                mv: mv("a10a9"),
                ponder: mv("j3j2c")
            }
        );
        assert_eq!(
            parse_in("bestmove a10a11", grand),
            EngineMessage::BadBestMove("a10a11".into())
        );
        assert_eq!(
            parse_in("bestmove b2b3 ponder k7k6", grand),
            EngineMessage::BestMove {
                mv: mv("b2b3"),
                ponder: None
            }
        );
        assert_eq!(
            parse("bestmove a10a9"),
            EngineMessage::BadBestMove("a10a9".into())
        );
    }

    /// Scores in centipawns or mates, bounds flagged; the PV and strings are not read as
    /// fields (a PV move named "depth" cannot exist, but a string can say anything).
    #[test]
    fn info_lines() {
        let EngineMessage::Info(i) =
            parse("info depth 12 seldepth 18 multipv 1 score cp -35 nodes 1000 pv e2e4 e7e5")
        else {
            panic!("not info");
        };
        assert_eq!(
            (i.depth, i.multipv, i.score, i.bound),
            (Some(12), Some(1), Some(Score::Cp(-35)), false)
        );
        let EngineMessage::Info(i) = parse("info depth 20 score mate -3 lowerbound") else {
            panic!("not info");
        };
        assert_eq!((i.score, i.bound), (Some(Score::Mate(-3)), true));
        let EngineMessage::Info(i) = parse("info string score cp 900 depth 99") else {
            panic!("not info");
        };
        assert_eq!((i.depth, i.score), (None, None));
    }

    /// Mates order beyond any evaluation; sooner mates beyond later ones.
    #[test]
    fn score_order() {
        let cp = Score::centipawns;
        assert!(cp(Score::Mate(1)) > cp(Score::Mate(5)));
        assert!(cp(Score::Mate(5)) > cp(Score::Cp(5000)));
        assert!(cp(Score::Mate(-1)) < cp(Score::Mate(-5)));
        assert!(cp(Score::Mate(-5)) < cp(Score::Cp(-5000)));
        assert!(cp(Score::Mate(0)) < cp(Score::Cp(-5000)));
    }

    /// Known words are read; anything else is unknown, never an error.
    #[test]
    fn other_lines() {
        assert_eq!(parse("uciok"), EngineMessage::UciOk);
        assert_eq!(parse("  readyok \r"), EngineMessage::ReadyOk);
        assert_eq!(
            parse("id name Stockfish 15.1"),
            EngineMessage::Name("Stockfish 15.1".into())
        );
        assert!(matches!(
            parse("id author someone"),
            EngineMessage::Unknown(_)
        ));
        assert!(matches!(parse("%%% garbage"), EngineMessage::Unknown(_)));
        assert!(matches!(parse(""), EngineMessage::Unknown(_)));
    }
}
