//! A person against a local engine (`chessd play`): the game created on a running server, the
//! seat link printed for the person to open in a browser, and the engine played on the other
//! seat by the bot's runner until the game ends.
//!
//! The engine is found by the variant: Stockfish plays chess and Chess960, Fairy-Stockfish
//! the other variants; `--engine` names another. Where none is installed, the caller's
//! fallback plays (`chessd play` gives `chessd random-engine`, a random mover). The game is untimed (a person
//! takes their time; the engine thinks `--movetime` per move), so no clock or first-move
//! timer can end it before the person is ready.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Parser;

use crate::cli::Cli;
use crate::config::Settings;
use crate::proto;
use crate::runner::GameEnd;
use crate::variants_file::VariantsFile;
use crate::{RunError, run_single};

/// The side the person takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Side {
    White,
    Black,
    /// Either, at random.
    Random,
}

/// What `chessd play` was asked.
#[derive(Clone, Debug)]
pub struct PlayRequest {
    /// The server, `http://HOST:PORT`.
    pub addr: String,
    /// The variant, by the bot's name for it, its key (`chess`, `crazyhouse`, `capablanca`, ...).
    pub variant: String,
    pub side: Side,
    /// The engine; `None`: the one the variant asks for, from PATH or /usr/games.
    pub engine: Option<PathBuf>,
    /// The engine to fall back on where none is installed for the variant, and its arguments
    /// (`chessd random-engine`).
    pub fallback: Option<(PathBuf, Vec<String>)>,
    /// The engine's thinking time per move.
    pub movetime: Duration,
}

/// Why `chessd play` could not play.
#[derive(Debug)]
pub enum PlayError {
    /// The variant is not one the server plays.
    Variant(String),
    /// No engine for the variant was found.
    NoEngine(String),
    /// CreateGame failed.
    Create(tonic::Status),
    /// The server could not be reached.
    Connect(String),
    /// The engine's side of the game failed.
    Run(RunError),
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::Variant(v) => write!(
                f,
                "unknown variant {v:?}: one of {}",
                crate::variant::names().join(", ")
            ),
            PlayError::NoEngine(why) => f.write_str(why),
            PlayError::Create(status) => write!(f, "CreateGame failed: {}", status.message()),
            PlayError::Connect(why) => write!(f, "cannot reach the server: {why}"),
            PlayError::Run(e) => write!(f, "the engine's side stopped: {e}"),
        }
    }
}

impl std::error::Error for PlayError {}

/// The engine that plays `variant` (the bot's name), when none was named: Stockfish for the
/// standard rules (Corner and Fortress included: chess from their own start), Fairy-Stockfish
/// for the rest, with the bot's variants file for the games it defines.
pub fn engine_for(variant: &str) -> Result<PathBuf, PlayError> {
    let profile =
        crate::variant::named(variant).ok_or_else(|| PlayError::Variant(variant.to_owned()))?;
    let wanted = if profile.uci_variant.is_none() {
        "stockfish"
    } else {
        "fairy-stockfish"
    };
    let path = find(wanted).ok_or_else(|| {
        PlayError::NoEngine(format!(
            "{variant} needs {wanted}, which is neither on PATH nor in /usr/games (Debian: apt-get install {wanted}); or name a UCI engine with --engine"
        ))
    })?;
    let file = VariantsFile::for_game(None, profile.in_variants_file);
    match profile.uci_variant {
        Some(uci) if !plays(&path, uci, file.as_ref()) => Err(PlayError::NoEngine(format!(
            "{} does not play {variant} (its UCI_Variant list lacks {uci}); name a UCI engine that does with --engine",
            path.display()
        ))),
        _ => Ok(path),
    }
}

/// Whether the engine at `path` lists `uci_variant` among its `UCI_Variant` values (asked
/// with `uci`, and again after loading `variants_file` if there is one; an engine that does
/// not answer within 5 s plays nothing).
fn plays(path: &Path, uci_variant: &str, variants_file: Option<&VariantsFile>) -> bool {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let loadable = match variants_file.map(VariantsFile::materialize) {
        Some(Ok(loadable)) => Some(loadable),
        Some(Err(_)) => return false,
        None => None,
    };
    let mut script = String::from("uci\n");
    if let Some(file) = &loadable {
        script.push_str(&format!(
            "setoption name VariantPath value {}\nuci\n",
            file.path.display()
        ));
    }
    script.push_str("quit\n");
    let answers = if loadable.is_some() { 2 } else { 1 };
    let Ok(mut child) = Command::new(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    else {
        return false;
    };
    let answered = child
        .stdin
        .take()
        .is_some_and(|mut stdin| stdin.write_all(script.as_bytes()).is_ok());
    let stdout = child.stdout.take();
    // A thread reads the answer, so a silent engine is killed on time instead of waited for.
    let (tx, rx) = std::sync::mpsc::channel();
    let uci_variant = uci_variant.to_owned();
    std::thread::spawn(move || {
        let mut left = answers;
        let listed = stdout.is_some_and(|out| {
            BufReader::new(out)
                .lines()
                .map_while(Result::ok)
                .take_while(|l| {
                    if l == "uciok" {
                        left -= 1;
                    }
                    left > 0
                })
                .any(|l| {
                    l.contains("UCI_Variant")
                        && l.split_whitespace()
                            .collect::<Vec<_>>()
                            .windows(2)
                            .any(|w| w[0] == "var" && w[1] == uci_variant.as_str())
                })
        });
        let _ = tx.send(listed);
    });
    let listed = answered && rx.recv_timeout(Duration::from_secs(5)).unwrap_or(false);
    // The engine was told to quit; a hung one is killed (an error means it already exited).
    let _ = child.kill();
    let _ = child.wait();
    drop(loadable);
    listed
}

/// `name` on PATH, or in /usr/games (where Debian puts chess engines, often off PATH).
fn find(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/games")])
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// A game made for the person, and the seat link they open.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub game_id: String,
    /// The person's side.
    pub white: bool,
    /// The page's address with the game and the person's seat token.
    pub link: String,
    engine_token: String,
    settings: Settings,
}

/// Creates the game and the engine's settings; the engine starts with [`Prepared::play`].
pub async fn prepare(request: &PlayRequest) -> Result<Prepared, PlayError> {
    let profile = crate::variant::named(&request.variant)
        .ok_or_else(|| PlayError::Variant(request.variant.clone()))?;
    // The wide family's games have no number: the key alone names them (a server from
    // before the keys ignores the key and plays the numbered games all the same).
    let variant = crate::variant::api_value(profile.name).unwrap_or_default();
    let found = match &request.engine {
        Some(path) => Ok(path.clone()),
        None => engine_for(profile.name),
    };
    let (engine, engine_args, engine_name) = match found {
        Ok(path) => {
            let name = path
                .file_name()
                .map_or_else(|| "engine".to_owned(), |n| n.to_string_lossy().into_owned());
            (path.clone(), Vec::new(), name)
        }
        Err(missing) => match &request.fallback {
            Some((path, args)) => {
                tracing::warn!("{missing}: playing a random mover instead");
                (path.clone(), args.clone(), "random mover".to_owned())
            }
            None => return Err(missing),
        },
    };
    let white = match request.side {
        Side::White => true,
        Side::Black => false,
        Side::Random => getrandom::u32().map_err(|e| PlayError::Connect(e.to_string()))? % 2 == 0,
    };
    let mut client = proto::game_service_client::GameServiceClient::connect(request.addr.clone())
        .await
        .map_err(|e| PlayError::Connect(e.to_string()))?;
    let (white_player, black_player) = if white {
        ("you".to_owned(), engine_name.clone())
    } else {
        (engine_name.clone(), "you".to_owned())
    };
    let created = client
        .create_game(proto::CreateGameRequest {
            variant,
            variant_key: profile.name.to_owned(),
            white_player,
            black_player,
            ..Default::default()
        })
        .await
        .map_err(PlayError::Create)?
        .into_inner();
    let game_id = created.game.map(|g| g.game_id).unwrap_or_default();
    let (mine, engine_token) = if white {
        (created.white_token, created.black_token)
    } else {
        (created.black_token, created.white_token)
    };
    let link = format!(
        "{}/#/game/{game_id}?seat={mine}",
        request.addr.trim_end_matches('/')
    );
    let movetime = format!("{}ms", request.movetime.as_millis());
    let mut args: Vec<std::ffi::OsString> = [
        "chessd-bot",
        "--addr",
        &request.addr,
        "--movetime",
        &movetime,
        "--untimed-movetime",
        &movetime,
        "--game",
        &game_id,
        "--token",
        &engine_token,
        "--engine",
    ]
    .into_iter()
    .map(Into::into)
    .collect();
    args.push(engine.into_os_string());
    for arg in engine_args {
        args.push("--engine-arg".into());
        args.push(arg.into());
    }
    let cli = Cli::try_parse_from(args).map_err(|e| PlayError::Connect(e.to_string()))?;
    let settings = Settings::from_cli(&cli).map_err(|e| PlayError::Connect(e.to_string()))?;
    Ok(Prepared {
        game_id,
        white,
        link,
        engine_token,
        settings,
    })
}

impl Prepared {
    /// Plays the engine's seat until the game ends.
    pub async fn play(&self) -> Result<GameEnd, PlayError> {
        run_single(&self.settings, &self.game_id, &self.engine_token)
            .await
            .map_err(PlayError::Run)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FSF: &str = "/usr/games/fairy-stockfish";

    /// Fairy-Stockfish lists bkhorde only once the bot's variants file is loaded, and never
    /// berolina; a missing engine plays nothing.
    #[test]
    fn plays_asks_the_engine() {
        let fsf = Path::new(FSF);
        assert!(
            fsf.exists(),
            "{FSF} is missing: apt-get install -y fairy-stockfish"
        );
        let bundled = VariantsFile::Bundled;
        assert!(plays(fsf, "capablanca", None));
        assert!(!plays(fsf, "bkhorde", None));
        assert!(plays(fsf, "bkhorde", Some(&bundled)));
        assert!(plays(fsf, "massacre", Some(&bundled)));
        assert!(!plays(fsf, "berolina", Some(&bundled)));
        assert!(!plays(Path::new("/nonexistent/engine"), "chess", None));
    }

    /// `chessd play` picks Fairy-Stockfish for the games it has or loads, Stockfish for
    /// Corner (chess from its own start), and none for Berolina, whose message names the
    /// engine and the game.
    #[test]
    fn engines_for_the_wide_family() {
        assert!(Path::new(FSF).exists(), "{FSF} is missing");
        for key in ["grand", "janus", "bkhorde", "massacre"] {
            let path = engine_for(key).unwrap_or_else(|e| panic!("{key}: {e}"));
            assert!(
                path.ends_with("fairy-stockfish"),
                "{key}: {}",
                path.display()
            );
        }
        if find("stockfish").is_some() {
            assert!(engine_for("corner").unwrap().ends_with("stockfish"));
        }
        let refused = engine_for("berolina").unwrap_err().to_string();
        assert!(
            refused.contains("fairy-stockfish does not play berolina"),
            "{refused}"
        );
    }
}
