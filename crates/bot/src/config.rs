//! Settings: the command line over the `--config` file over the defaults, checked once into
//! [`Settings`] before anything starts.
//!
//! The file is TOML with the flags' names as keys, plus `[engine-options]` and one
//! `[variants.NAME]` table per variant that wants its own engine:
//!
//! ```toml
//! engine = "/usr/games/stockfish"
//! move-overhead = "150ms"
//! [engine-options]
//! Hash = 64
//! [variants.racingkings]
//! engine = "/usr/games/fairy-stockfish"
//! ```
//!
//! Relative paths in the file are relative to the file's folder. Unknown keys are refused, so
//! a typo never silently turns a setting off.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::book::BookChoice;
use crate::cli::{Chosen, Cli, FileConfig, LogFormat};
use crate::clock::Limits;
use crate::judge::{Rules, Threshold};
use crate::uci::{EngineSpec, Protocol};
use crate::variant;

pub(crate) mod file;
mod mode;

pub use file::{
    DEFAULT_ADDR, DEFAULT_DRAW_MOVES, DEFAULT_DRAW_SCORE, DEFAULT_MOVE_OVERHEAD,
    DEFAULT_RESIGN_MOVES, DEFAULT_UNTIMED_MOVETIME,
};
use file::{DrawScore, OptionValue};
pub use mode::{DEFAULT_MAX_GAMES, MAX_MAX_GAMES, Mode, Secret};

/// The longest duration a setting takes (a think or an overhead beyond a day is a typo).
const MAX_DURATION: Duration = Duration::from_secs(24 * 3600);

/// A setting that cannot be used; the message names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

fn err<T>(message: impl Into<String>) -> Result<T, ConfigError> {
    Err(ConfigError(message.into()))
}

/// TLS towards the server.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TlsOptions {
    pub ca: Option<PathBuf>,
    pub domain: Option<String>,
    /// Client certificate and key, for mutual TLS.
    pub identity: Option<(PathBuf, PathBuf)>,
}

/// The opening book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookSettings {
    pub path: PathBuf,
    pub choice: BookChoice,
    pub depth: Option<u32>,
}

/// Everything the bot runs with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub mode: Mode,
    pub addr: String,
    pub tls: TlsOptions,
    pub api_key: Option<String>,
    /// The engine for every variant without its own.
    pub engine: EngineSpec,
    /// Per-variant engines, by the bot's variant name.
    pub variant_engines: BTreeMap<&'static str, EngineSpec>,
    pub move_overhead: Duration,
    pub ponder: bool,
    pub book: Option<BookSettings>,
    /// `--variants-file`: the user's Fairy-Stockfish variants file.
    pub variants_file: Option<PathBuf>,
    pub limits: Limits,
    pub judge: Rules,
    pub log_format: LogFormat,
}

impl Settings {
    /// The engine for the variant the bot calls `name`.
    #[must_use]
    pub fn engine_for(&self, name: &str) -> &EngineSpec {
        self.variant_engines.get(name).unwrap_or(&self.engine)
    }

    /// Reads `--config` (if given) and merges the command line over it.
    pub fn from_cli(cli: &Cli) -> Result<Settings, ConfigError> {
        let (file, base) = match &cli.config {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .or_else(|e| err(format!("--config {}: {e}", path.display())))?;
                let file: FileConfig = toml::from_str(&text)
                    .or_else(|e| err(format!("--config {}: {e}", path.display())))?;
                let base = path.parent().map(Path::to_owned).unwrap_or_default();
                (file, base)
            }
            None => (FileConfig::default(), PathBuf::new()),
        };
        resolve(cli, file, &base)
    }
}

/// A path from the file: relative to the file's folder. An engine given by a bare name is
/// left for PATH to find.
fn from_file(base: &Path, path: PathBuf) -> PathBuf {
    if path.is_absolute() || path.components().count() == 1 && path.extension().is_none() {
        path
    } else {
        base.join(path)
    }
}

/// A duration: a number with `ms`, `s` or `m` (`250ms`, `1.5s`, `2m`); a bare number is
/// seconds.
pub fn duration(key: &str, text: &str) -> Result<Duration, ConfigError> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let scale = match unit {
        "ms" => 0.001,
        "" | "s" => 1.0,
        "m" => 60.0,
        _ => return err(format!("{key}: unknown unit in {text:?} (use ms, s or m)")),
    };
    let value: f64 = number.parse().or_else(|_| {
        err(format!(
            "{key}: expected a duration such as 250ms or 2s, got {text:?}"
        ))
    })?;
    let d = Duration::try_from_secs_f64(value * scale)
        .or_else(|_| err(format!("{key}: {text:?} is out of range")))?;
    if d > MAX_DURATION {
        return err(format!("{key}: {text:?} is longer than a day"));
    }
    Ok(d)
}

fn engine_spec(
    key: &str,
    command: Option<PathBuf>,
    args: Vec<String>,
    options: Vec<(String, String)>,
    protocol: Protocol,
) -> Result<EngineSpec, ConfigError> {
    let Some(command) = command else {
        return err(format!(
            "{key}: no engine: give --engine (e.g. --engine /usr/games/stockfish) or `engine` in --config"
        ));
    };
    Ok(EngineSpec {
        command,
        args,
        options,
        protocol,
    })
}

/// `NAME=VALUE` from the command line.
fn option_pair(text: &str) -> Result<(String, String), ConfigError> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_owned(), value.trim().to_owned()))
        }
        _ => err(format!(
            "--engine-option: expected NAME=VALUE, got {text:?}"
        )),
    }
}

/// Options in order, a later value replacing an earlier one of the same name (UCI option
/// names ignore case).
fn merged(
    base: Vec<(String, String)>,
    over: impl IntoIterator<Item = (String, String)>,
) -> Vec<(String, String)> {
    let mut out = base;
    for (name, value) in over {
        match out.iter_mut().find(|(n, _)| n.eq_ignore_ascii_case(&name)) {
            Some(slot) => slot.1 = value,
            None => out.push((name, value)),
        }
    }
    out
}

/// The file's options as `setoption` pairs.
fn pairs(options: &BTreeMap<String, OptionValue>) -> Vec<(String, String)> {
    options
        .iter()
        .map(|(k, v)| (k.clone(), v.to_string()))
        .collect()
}

fn resolve(cli: &Cli, file: FileConfig, base: &Path) -> Result<Settings, ConfigError> {
    let chosen = Chosen::of(cli, &file, base);
    let mode = mode::resolve(cli, file.player_token.clone(), file.max_games)?;
    let cli_options = cli
        .engine_options
        .iter()
        .map(|o| option_pair(o))
        .collect::<Result<Vec<_>, _>>()?;
    let command = cli
        .engine
        .clone()
        .or_else(|| file.engine.engine.clone().map(|p| from_file(base, p)));
    let args = if cli.engine_args.is_empty() {
        file.engine.engine_args.clone().unwrap_or_default()
    } else {
        cli.engine_args.clone()
    };
    let engine = engine_spec(
        "engine",
        command,
        args,
        merged(pairs(&file.engine.engine_options), cli_options),
        cli.protocol.or(file.engine.protocol).unwrap_or_default(),
    )?;
    let mut variant_engines = BTreeMap::new();
    for (name, section) in file.variants {
        let Some(profile) = variant::named(&name) else {
            return err(format!(
                "--config: [variants.{name}]: unknown variant (known: {})",
                variant::names().join(", ")
            ));
        };
        // A section without its own engine tunes the main engine for the variant.
        let spec = match section.engine {
            Some(path) => engine_spec(
                &format!("[variants.{name}]"),
                Some(from_file(base, path)),
                section.engine_args.unwrap_or_default(),
                pairs(&section.engine_options),
                section.protocol.unwrap_or_default(),
            )?,
            None => EngineSpec {
                command: engine.command.clone(),
                args: section.engine_args.unwrap_or_else(|| engine.args.clone()),
                options: merged(engine.options.clone(), pairs(&section.engine_options)),
                protocol: section.protocol.unwrap_or(engine.protocol),
            },
        };
        variant_engines.insert(profile.name, spec);
    }

    let move_overhead = match &chosen.move_overhead {
        Some(t) => duration("move-overhead", t)?,
        None => DEFAULT_MOVE_OVERHEAD,
    };
    let movetime = match &chosen.movetime {
        Some(t) => Some(duration("movetime", t)?).filter(|d| !d.is_zero()),
        None => None,
    };
    let untimed_movetime = match &chosen.untimed_movetime {
        Some(t) => duration("untimed-movetime", t)?,
        None => DEFAULT_UNTIMED_MOVETIME,
    };
    if untimed_movetime.is_zero() {
        return err("untimed-movetime: must be above zero");
    }
    let limits = Limits {
        depth: chosen.depth,
        nodes: chosen.nodes,
        movetime,
        untimed_movetime,
    };
    if limits.depth == Some(0) || limits.nodes == Some(0) {
        return err("depth and nodes: must be at least 1");
    }

    let resign = chosen.resign_score.map(|score| Threshold {
        score,
        moves: chosen.resign_moves,
    });
    let draw_score = match (&cli.draw_score, &file.draw_score) {
        (Some(text), _) if text.trim() == "off" => None,
        (Some(text), _) => Some(text.trim().parse::<i32>().or_else(|_| {
            err(format!(
                "--draw-score: expected centipawns or off, got {text:?}"
            ))
        })?),
        (None, Some(DrawScore::Score(n))) => Some(*n),
        (None, Some(DrawScore::Word(w))) if w == "off" => None,
        (None, Some(DrawScore::Word(w))) => {
            return err(format!(
                "draw-score: expected centipawns or \"off\", got {w:?}"
            ));
        }
        (None, None) => Some(DEFAULT_DRAW_SCORE),
    };
    let draw = draw_score.map(|score| Threshold {
        score,
        moves: chosen.draw_moves,
    });
    if [resign, draw].iter().flatten().any(|t| t.moves == 0) {
        return err("resign-moves and draw-moves: must be at least 1");
    }
    let judge = Rules {
        resign,
        draw,
        offer_draw: chosen.offer_draw,
    };

    let book = chosen.book.map(|path| BookSettings {
        path,
        choice: chosen.book_choice,
        depth: chosen.book_depth,
    });

    let identity = match (chosen.tls_cert, chosen.tls_key) {
        (Some(c), Some(k)) => Some((c, k)),
        (None, None) => None,
        _ => return err("tls-cert and tls-key: give both (mutual TLS) or neither"),
    };
    let tls = TlsOptions {
        ca: chosen.tls_ca,
        domain: chosen.tls_domain,
        identity,
    };
    let addr = chosen.addr;
    if !(addr.starts_with("http://") || addr.starts_with("https://")) {
        return err(format!(
            "addr: expected http://HOST:PORT or https://HOST[:PORT], got {addr:?}"
        ));
    }
    Ok(Settings {
        mode,
        addr,
        tls,
        api_key: chosen.api_key,
        engine,
        variant_engines,
        move_overhead,
        ponder: chosen.ponder,
        book,
        variants_file: chosen.variants_file,
        limits,
        judge,
        log_format: chosen.log_format,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn cli(args: &[&str]) -> Cli {
        let mut all = vec!["chessd-bot", "--game", "G", "--token", "T"];
        all.extend_from_slice(args);
        Cli::try_parse_from(all).unwrap()
    }

    fn with_file(args: &[&str], toml_text: &str) -> Result<Settings, ConfigError> {
        let file: FileConfig = toml::from_str(toml_text).map_err(|e| ConfigError(e.to_string()))?;
        resolve(&cli(args), file, Path::new("/etc/bot"))
    }

    /// Defaults: the documented constants, draws welcome at 0 or below, no resigning.
    #[test]
    fn defaults() {
        let s = with_file(&["--engine", "stockfish"], "").unwrap();
        assert_eq!(s.addr, DEFAULT_ADDR);
        assert_eq!(s.move_overhead, DEFAULT_MOVE_OVERHEAD);
        assert_eq!(s.limits.untimed_movetime, DEFAULT_UNTIMED_MOVETIME);
        assert_eq!(s.judge.resign, None);
        assert_eq!(s.judge.draw, Some(Threshold { score: 0, moves: 3 }));
        assert!(!s.ponder && s.book.is_none() && s.tls == TlsOptions::default());
        assert_eq!(s.engine.command, PathBuf::from("stockfish"));
    }

    /// Flags win over the file; engine options merge by name, ignoring case.
    #[test]
    fn flags_over_file() {
        let s = with_file(
            &[
                "--move-overhead",
                "250ms",
                "--engine-option",
                "hash=128",
                "--engine-option",
                "Threads=2",
            ],
            r#"
            engine = "engines/sf"
            move-overhead = "1s"
            movetime = "1.5s"
            [engine-options]
            Hash = 64
            Ponder-Style = "x"
            "#,
        )
        .unwrap();
        assert_eq!(s.move_overhead, Duration::from_millis(250));
        assert_eq!(s.limits.movetime, Some(Duration::from_millis(1500)));
        assert_eq!(s.engine.command, PathBuf::from("/etc/bot/engines/sf"));
        assert_eq!(
            s.engine.options,
            [
                ("Hash".to_owned(), "128".to_owned()),
                ("Ponder-Style".to_owned(), "x".to_owned()),
                ("Threads".to_owned(), "2".to_owned())
            ]
        );
    }

    /// A variant section with its own engine replaces the main one for that variant; one
    /// without tunes the main engine.
    #[test]
    fn variant_engines() {
        let s = with_file(
            &[],
            r#"
            engine = "/usr/games/stockfish"
            [engine-options]
            Hash = 32
            [variants.racingkings]
            engine = "/usr/games/fairy-stockfish"
            [variants.chess960.engine-options]
            Threads = 2
            "#,
        )
        .unwrap();
        assert_eq!(
            s.engine_for("chess").command,
            PathBuf::from("/usr/games/stockfish")
        );
        let rk = s.engine_for("racingkings");
        assert_eq!(rk.command, PathBuf::from("/usr/games/fairy-stockfish"));
        assert!(rk.options.is_empty());
        let c960 = s.engine_for("chess960");
        assert_eq!(c960.command, PathBuf::from("/usr/games/stockfish"));
        assert_eq!(c960.options.len(), 2);
    }

    /// UCI unless told otherwise; the flag over the file; a variant section with its own
    /// engine speaks its own protocol (UCI unless given), one without keeps the main engine's.
    #[test]
    fn protocols() {
        let file = r#"
            engine = "/usr/games/fairy-stockfish"
            [variants.shogi]
            engine = "/opt/usi-engine"
            protocol = "usi"
            [variants.minishogi]
            engine = "/opt/other"
            [variants.xiangqi.engine-options]
            Threads = 2
            "#;
        let s = with_file(&[], file).unwrap();
        assert_eq!(s.engine.protocol, Protocol::Uci);
        assert_eq!(s.engine_for("shogi").protocol, Protocol::Usi);
        assert_eq!(s.engine_for("minishogi").protocol, Protocol::Uci);
        let s = with_file(&["--protocol", "usi"], file).unwrap();
        assert_eq!(s.engine.protocol, Protocol::Usi);
        assert_eq!(s.engine_for("xiangqi").protocol, Protocol::Usi);
        assert_eq!(s.engine_for("minishogi").protocol, Protocol::Uci);
        let s = with_file(&[], "engine = \"e\"\nprotocol = \"usi\"").unwrap();
        assert_eq!(s.engine.protocol, Protocol::Usi);
        let s = with_file(&["--protocol", "uci"], "engine = \"e\"\nprotocol = \"usi\"").unwrap();
        assert_eq!(s.engine.protocol, Protocol::Uci);
        assert!(with_file(&[], "engine = \"e\"\nprotocol = \"xboard\"").is_err());
    }

    /// Mistakes are named: unknown keys and variants, bad durations, half an identity, a
    /// missing engine, a malformed option.
    #[test]
    fn mistakes_are_named() {
        let e = |args: &[&str], text: &str| with_file(args, text).unwrap_err().0;
        assert!(e(&[], "engine = \"sf\"\nmove-overhed = \"1s\"").contains("move-overhed"));
        assert!(
            e(&[], "engine = \"sf\"\n[variants.bughouse]\nengine = \"x\"").contains("bughouse")
        );
        assert!(
            e(&["--engine", "sf", "--move-overhead", "5 parsecs"], "").contains("move-overhead")
        );
        assert!(e(&["--engine", "sf", "--tls-cert", "c.pem"], "").contains("tls-key"));
        assert!(e(&[], "").contains("--engine"));
        assert!(e(&["--engine", "sf", "--engine-option", "Hash"], "").contains("NAME=VALUE"));
        assert!(e(&["--engine", "sf", "--draw-score", "never"], "").contains("draw-score"));
        assert!(e(&["--engine", "sf", "--addr", "127.0.0.1:50051"], "").contains("http://"));
    }

    /// Thresholds: resigning and offering when asked, draws off with `off`.
    #[test]
    fn thresholds() {
        let s = with_file(
            &["--engine", "sf", "--resign-score", "-900", "--offer-draw"],
            "resign-moves = 5\ndraw-score = 15",
        )
        .unwrap();
        assert_eq!(
            s.judge.resign,
            Some(Threshold {
                score: -900,
                moves: 5
            })
        );
        assert_eq!(
            s.judge.draw,
            Some(Threshold {
                score: 15,
                moves: 3
            })
        );
        assert!(s.judge.offer_draw);
        let s = with_file(&["--engine", "sf"], "draw-score = \"off\"").unwrap();
        assert_eq!(s.judge.draw, None);
    }

    /// The file's `player-token` and `max-games` make player mode; `--game` on the command
    /// line still plays one game with the same file.
    #[test]
    fn player_keys_in_the_file() {
        let text = "engine = \"sf\"\nplayer-token = \"chp_2\"\nmax-games = 4";
        let file: FileConfig = toml::from_str(text).unwrap();
        let bare = Cli::try_parse_from(["chessd-bot"]).unwrap();
        let s = resolve(&bare, file, Path::new("/")).unwrap();
        assert_eq!(
            s.mode,
            Mode::Player {
                token: Secret::new("chp_2"),
                max_games: 4
            }
        );
        assert!(!format!("{s:?}").contains("chp_2"));
        let s = with_file(&[], text).unwrap();
        assert!(matches!(s.mode, Mode::Single { .. }));
    }

    /// Durations take ms, s (also fractional) and m; a bare number is seconds.
    #[test]
    fn durations() {
        assert_eq!(duration("k", "250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(duration("k", "2"), Ok(Duration::from_secs(2)));
        assert_eq!(duration("k", "0.5s"), Ok(Duration::from_millis(500)));
        assert_eq!(duration("k", "3m"), Ok(Duration::from_secs(180)));
        for bad in ["", "x", "1h", "-1s", "1e9s", "2..5s"] {
            assert!(duration("k", bad).is_err(), "{bad:?}");
        }
    }
}
