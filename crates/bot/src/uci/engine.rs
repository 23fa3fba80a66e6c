//! One engine process: spawned on `tokio::process`, set up (the UCI handshake, the user's
//! options checked against what the engine offers, the variant's options), then driven by
//! the game runner with plain UCI commands. A USI engine gets the same commands rewritten by
//! its dialect (`usi`) on their way out, and its lines read by it on their way in.
//!
//! A reader task turns stdout into [`EngineEvent`]s on a bounded channel, one line at a time
//! with a bounded length; when the runner is busy, the channel fills and the engine blocks on
//! its own output, so nothing grows without bound. Stderr is logged, also line by line.
//! Every wait has a timeout: an engine that stops answering is an error, never a hang.

use std::fmt;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;
use tokio::time::timeout;

use super::line::{self, Read};
use super::message::{self, EngineMessage, OptionKind, UciOption};
use super::usi::{GameOver, Protocol, Usi};
use crate::board::Notation;
use crate::variants_file::VariantsFile;

/// The longest line read from an engine (Fairy-Stockfish's `UCI_Variant` option line, the
/// longest seen in practice, is under 2 KiB; a long PV at high depth a few KiB).
pub const MAX_LINE: usize = 64 * 1024;
/// Engine events buffered between the reader task and the runner.
const EVENT_BUFFER: usize = 256;
/// How long the engine may take to answer `uci` and `isready` (it may be loading a network).
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(15);
/// How long a write to the engine's stdin may block (a full pipe: the engine is not reading).
const WRITE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long `quit` may take before the process is killed.
const QUIT_TIMEOUT: Duration = Duration::from_secs(1);

/// How to start an engine and which options to give it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub command: PathBuf,
    pub args: Vec<String>,
    /// `setoption` pairs, in order.
    pub options: Vec<(String, String)>,
    pub protocol: Protocol,
}

/// What the game asks of the engine besides the user's options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The variant's name in the bot's table, for messages.
    pub variant: &'static str,
    /// `UCI_Variant` value, if the variant needs one.
    pub uci_variant: Option<&'static str>,
    /// `UCI_Chess960` on.
    pub chess960: bool,
    /// The variants file to load (`VariantPath`) when the engine's `UCI_Variant` lacks
    /// `uci_variant`.
    pub variants_file: Option<VariantsFile>,
    /// How the game writes its moves, for reading the engine's.
    pub notation: Notation,
    /// Think on the opponent's time, if the engine can.
    pub ponder: bool,
}

/// Options the bot sets itself from the game: the user may not set them.
const MANAGED: [&str; 4] = ["UCI_Variant", "UCI_Chess960", "Ponder", "USI_Ponder"];

/// What the reader task reports.
#[derive(Debug)]
pub enum EngineEvent {
    Message(EngineMessage),
    /// A line over [`MAX_LINE`] bytes was skipped.
    TooLong(usize),
    /// Stdout closed: the engine exited or crashed.
    Exited,
}

/// Why an engine could not be used.
#[derive(Debug)]
pub enum EngineError {
    Spawn {
        command: PathBuf,
        error: std::io::Error,
    },
    /// The engine exited while the bot waited for `during`.
    Exited {
        during: &'static str,
    },
    /// No answer to `during` within `after`.
    Timeout {
        during: &'static str,
        after: Duration,
    },
    Write(std::io::Error),
    UnknownOption {
        name: String,
        engine: String,
    },
    BadOptionValue {
        name: String,
        value: String,
        why: String,
    },
    ManagedOption {
        name: String,
    },
    VariantUnsupported {
        variant: &'static str,
        engine: String,
        why: &'static str,
    },
    /// The variants file could not be written for the engine to read.
    VariantsFile {
        file: String,
        error: String,
    },
    /// A command USI cannot carry (the server's position is not the game's).
    Usi(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn { command, error } => {
                write!(f, "cannot start engine {}: {error}", command.display())
            }
            EngineError::Exited { during } => write!(f, "engine exited during {during}"),
            EngineError::Timeout { during, after } => {
                write!(f, "engine did not answer {during} within {after:?}")
            }
            EngineError::Write(e) => write!(f, "cannot write to the engine: {e}"),
            EngineError::UnknownOption { name, engine } => {
                write!(f, "engine {engine} has no option {name:?}")
            }
            EngineError::BadOptionValue { name, value, why } => {
                write!(f, "option {name:?} cannot be {value:?}: {why}")
            }
            EngineError::ManagedOption { name } => write!(
                f,
                "option {name:?} is set by the bot (from the game's variant, or --ponder)"
            ),
            EngineError::VariantUnsupported {
                variant,
                engine,
                why,
            } => write!(f, "engine {engine} cannot play {variant}: {why}"),
            EngineError::VariantsFile { file, error } => {
                write!(f, "cannot hand {file} to the engine: {error}")
            }
            EngineError::Usi(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for EngineError {}

/// A running, set-up engine.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    events: mpsc::Receiver<EngineEvent>,
    /// `id name`, or the command when the engine gives none.
    pub name: String,
    pub pid: Option<u32>,
    /// `go ponder` will be used (asked for, and the engine offers `Ponder`).
    pub ponders: bool,
    protocol: Protocol,
    /// The dialect a USI engine's commands and lines go through.
    usi: Option<Usi>,
}

impl Engine {
    /// Starts the engine and sets it up for `setup`; a clear error when the engine lacks what
    /// the game or the user's options need.
    pub async fn start(spec: &EngineSpec, setup: &Setup) -> Result<Engine, EngineError> {
        let usi = match spec.protocol {
            Protocol::Uci => None,
            Protocol::Usi => Some(Usi::for_variant(setup.variant).ok_or_else(|| {
                EngineError::VariantUnsupported {
                    variant: setup.variant,
                    engine: spec.command.display().to_string(),
                    why: "it speaks USI, which plays shogi and minishogi only (give this game a UCI engine: [variants.NAME] in --config)",
                }
            })?),
        };
        let mut child = Command::new(&spec.command)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // A bot that dies must not leave engines running.
            .kill_on_drop(true)
            .spawn()
            .map_err(|error| EngineError::Spawn {
                command: spec.command.clone(),
                error,
            })?;
        let pid = child.id();
        let (stdin, stdout, stderr) =
            match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
                (Some(i), Some(o), Some(e)) => (i, o, e),
                // Piped above, so always there; a missing one is a dead process.
                _ => return Err(EngineError::Exited { during: "start" }),
            };
        let (tx, events) = mpsc::channel(EVENT_BUFFER);
        tokio::spawn(read_stdout(stdout, tx, setup.notation, usi.clone()));
        tokio::spawn(log_stderr(stderr, pid));
        let mut engine = Engine {
            child,
            stdin,
            events,
            name: spec.command.display().to_string(),
            pid,
            ponders: false,
            protocol: spec.protocol,
            usi,
        };
        let mut offered = engine.handshake().await?;
        if let Some(file) = &setup.variants_file
            && let Some(wanted) = setup.uci_variant
            && !offers_variant(&offered, wanted)
        {
            offered = engine.load_variants(&offered, file, setup).await?;
        }
        let commands = engine.setup_commands(&offered, spec, setup)?;
        for command in commands {
            engine.send(&command).await?;
        }
        engine.sync("isready").await?;
        tracing::info!(engine = %engine.name, pid = pid.unwrap_or_default(), variant = setup.variant, protocol = %engine.protocol, ponder = engine.ponders, "engine ready");
        Ok(engine)
    }

    /// `uci` until `uciok` (`usi` until `usiok`): the name and the options.
    async fn handshake(&mut self) -> Result<Vec<UciOption>, EngineError> {
        let hello = self.protocol.hello();
        self.send(hello).await?;
        let mut offered = Vec::new();
        let deadline = tokio::time::Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let event = tokio::time::timeout_at(deadline, self.next())
                .await
                .map_err(|_| EngineError::Timeout {
                    during: hello,
                    after: HANDSHAKE_TIMEOUT,
                })?;
            match event {
                EngineEvent::Message(EngineMessage::UciOk) => return Ok(offered),
                EngineEvent::Message(EngineMessage::Name(name)) if !name.is_empty() => {
                    self.name = name;
                }
                EngineEvent::Message(EngineMessage::Option(o)) => offered.push(o),
                EngineEvent::Exited => return Err(EngineError::Exited { during: hello }),
                _ => {}
            }
        }
    }

    /// Loads `file` with the engine's `VariantPath` option and asks `uci` again: the answer
    /// lists the variants the file added (Fairy-Stockfish reads the file when the option is
    /// set, so the temporary copy of the bundled file can go once the answer is in).
    async fn load_variants(
        &mut self,
        offered: &[UciOption],
        file: &VariantsFile,
        setup: &Setup,
    ) -> Result<Vec<UciOption>, EngineError> {
        let path_option = offered
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case("VariantPath"));
        let Some(option) = path_option else {
            return Err(EngineError::VariantUnsupported {
                variant: setup.variant,
                engine: self.name.clone(),
                why: "its UCI_Variant option does not offer it, and it has no VariantPath option to load a variants file with",
            });
        };
        let loadable = file
            .materialize()
            .map_err(|error| EngineError::VariantsFile {
                file: file.to_string(),
                error: error.to_string(),
            })?;
        let path = loadable.path.to_string_lossy().into_owned();
        let command = set_command(option, &path)?;
        self.send(&command).await?;
        let offered = self.handshake().await?;
        drop(loadable);
        tracing::info!(engine = %self.name, variants_file = %file, "variants file loaded");
        Ok(offered)
    }

    /// The `setoption` commands: the user's (checked), then the variant's and pondering.
    fn setup_commands(
        &mut self,
        offered: &[UciOption],
        spec: &EngineSpec,
        setup: &Setup,
    ) -> Result<Vec<String>, EngineError> {
        let find = |name: &str| offered.iter().find(|o| o.name.eq_ignore_ascii_case(name));
        let mut commands = Vec::new();
        for (name, value) in &spec.options {
            if MANAGED.iter().any(|m| m.eq_ignore_ascii_case(name)) {
                return Err(EngineError::ManagedOption { name: name.clone() });
            }
            let option = find(name).ok_or_else(|| EngineError::UnknownOption {
                name: name.clone(),
                engine: self.name.clone(),
            })?;
            commands.push(set_command(option, value)?);
        }
        let unsupported = |why| EngineError::VariantUnsupported {
            variant: setup.variant,
            engine: self.name.clone(),
            why,
        };
        match (setup.uci_variant, find("UCI_Variant")) {
            (Some(wanted), Some(o)) if o.vars.iter().any(|v| v == wanted) => {
                commands.push(format!("setoption name UCI_Variant value {wanted}"));
            }
            (Some(_), Some(_)) if setup.variants_file.is_some() => {
                return Err(unsupported(
                    "its UCI_Variant option does not offer it, even with the variants file loaded",
                ));
            }
            (Some(_), Some(_)) => {
                return Err(unsupported(
                    "its UCI_Variant option does not offer it (`chessd random-engine` plays every game chessd has)",
                ));
            }
            // USI is shogi's protocol: an engine that speaks it plays shogi unless told other.
            (Some("shogi"), None) if self.usi.is_some() => {}
            (Some(_), None) => return Err(unsupported("it has no UCI_Variant option")),
            // A variant engine left on another variant by a previous game would play it.
            (None, Some(o)) if o.vars.iter().any(|v| v == "chess") => {
                commands.push("setoption name UCI_Variant value chess".to_owned());
            }
            (None, _) => {}
        }
        match (setup.chess960, find("UCI_Chess960")) {
            (true, Some(_)) => commands.push("setoption name UCI_Chess960 value true".to_owned()),
            (true, None) => return Err(unsupported("it has no UCI_Chess960 option")),
            (false, Some(_)) => commands.push("setoption name UCI_Chess960 value false".to_owned()),
            (false, None) => {}
        }
        if setup.ponder {
            if let Some(o) = find("USI_Ponder").or_else(|| find("Ponder")) {
                commands.push(format!("setoption name {} value true", o.name));
                self.ponders = true;
            } else {
                tracing::warn!(engine = %self.name, "--ponder: the engine offers no Ponder option; not pondering");
            }
        }
        Ok(commands)
    }

    /// Writes one command line (a UCI command, rewritten for a USI engine).
    pub async fn send(&mut self, command: &str) -> Result<(), EngineError> {
        let translated = match &self.usi {
            Some(usi) => Some(
                usi.command(command)
                    .map_err(|e| EngineError::Usi(e.to_string()))?,
            ),
            None => None,
        };
        let command = translated.as_deref().unwrap_or(command);
        tracing::debug!(command, "to engine");
        let write = async {
            self.stdin.write_all(command.as_bytes()).await?;
            self.stdin.write_all(b"\n").await?;
            self.stdin.flush().await
        };
        match timeout(WRITE_TIMEOUT, write).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(EngineError::Write(e)),
            Err(_) => Err(EngineError::Timeout {
                during: "a write to its input",
                after: WRITE_TIMEOUT,
            }),
        }
    }

    /// The next event; [`EngineEvent::Exited`] for ever once the engine is gone.
    pub async fn next(&mut self) -> EngineEvent {
        self.events.recv().await.unwrap_or(EngineEvent::Exited)
    }

    /// Sends `command` (`isready`) and waits for `readyok`, dropping what comes before it.
    pub async fn sync(&mut self, command: &'static str) -> Result<(), EngineError> {
        self.send(command).await?;
        let deadline = tokio::time::Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let event = tokio::time::timeout_at(deadline, self.next())
                .await
                .map_err(|_| EngineError::Timeout {
                    during: command,
                    after: HANDSHAKE_TIMEOUT,
                })?;
            match event {
                EngineEvent::Message(EngineMessage::ReadyOk) => return Ok(()),
                EngineEvent::Exited => return Err(EngineError::Exited { during: command }),
                _ => {}
            }
        }
    }

    /// `ucinewgame`, then waits until the engine is ready.
    pub async fn new_game(&mut self) -> Result<(), EngineError> {
        self.send("ucinewgame").await?;
        self.sync("isready").await
    }

    /// Tells a USI engine how the game ended (`gameover`); UCI has no such command.
    pub async fn game_over(&mut self, over: GameOver) -> Result<(), EngineError> {
        if self.usi.is_some() {
            self.send(over.command()).await?;
        }
        Ok(())
    }

    /// Kills the process at once (a hung or misbehaving engine).
    pub async fn kill(mut self) {
        // An error means it is already gone.
        let _ = self.child.start_kill();
        let _ = timeout(QUIT_TIMEOUT, self.child.wait()).await;
    }

    /// Asks the engine to quit; kills it if it does not.
    pub async fn quit(mut self) {
        // A failed write means it is already gone; `kill` below reaps it either way.
        let _ = self.send("quit").await;
        if timeout(QUIT_TIMEOUT, self.child.wait()).await.is_err() {
            self.kill().await;
        }
    }
}

/// The `setoption` line for `value`, checked against the option's type and bounds.
fn set_command(option: &UciOption, value: &str) -> Result<String, EngineError> {
    let bad = |why: String| EngineError::BadOptionValue {
        name: option.name.clone(),
        value: value.to_owned(),
        why,
    };
    let name = &option.name;
    match option.kind {
        OptionKind::Button if value.is_empty() => return Ok(format!("setoption name {name}")),
        OptionKind::Button => return Err(bad("it is a button: give no value (NAME=)".into())),
        OptionKind::Check if value != "true" && value != "false" => {
            return Err(bad("expected true or false".into()));
        }
        OptionKind::Spin => {
            let n: i64 = value
                .parse()
                .map_err(|_| bad("expected a whole number".into()))?;
            if option.min.is_some_and(|min| n < min) || option.max.is_some_and(|max| n > max) {
                return Err(bad(format!(
                    "expected {} to {}",
                    option.min.map_or("any".into(), |m| m.to_string()),
                    option.max.map_or("any".into(), |m| m.to_string())
                )));
            }
        }
        OptionKind::Combo if !option.vars.iter().any(|v| v.eq_ignore_ascii_case(value)) => {
            return Err(bad(format!("expected one of {}", option.vars.join(", "))));
        }
        _ => {}
    }
    if value.contains(['\n', '\r']) {
        return Err(bad("a value is one line".into()));
    }
    Ok(format!("setoption name {name} value {value}"))
}

/// Whether the engine's `UCI_Variant` option lists `wanted`.
fn offers_variant(offered: &[UciOption], wanted: &str) -> bool {
    offered
        .iter()
        .any(|o| o.name.eq_ignore_ascii_case("UCI_Variant") && o.vars.iter().any(|v| v == wanted))
}

async fn read_stdout(
    stdout: tokio::process::ChildStdout,
    tx: mpsc::Sender<EngineEvent>,
    notation: Notation,
    usi: Option<Usi>,
) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::with_capacity(256);
    loop {
        let event = match line::read_line(&mut reader, &mut buf, MAX_LINE).await {
            Ok(Read::Line(text)) => {
                tracing::trace!(line = %text, "from engine");
                EngineEvent::Message(match &usi {
                    Some(usi) => usi.parse(&text),
                    None => message::parse_in(&text, notation),
                })
            }
            Ok(Read::TooLong(bytes)) => EngineEvent::TooLong(bytes),
            Ok(Read::Eof) | Err(_) => {
                // The runner may be gone too; then nobody needs to know.
                let _ = tx.send(EngineEvent::Exited).await;
                return;
            }
        };
        if tx.send(event).await.is_err() {
            return;
        }
    }
}

async fn log_stderr(stderr: tokio::process::ChildStderr, pid: Option<u32>) {
    let mut reader = BufReader::new(stderr);
    let mut buf = Vec::with_capacity(256);
    // Stderr is for people: shorter lines are enough.
    while let Ok(read) = line::read_line(&mut reader, &mut buf, 4096).await {
        match read {
            Read::Line(text) => {
                tracing::warn!(pid = pid.unwrap_or_default(), stderr = %text, "engine stderr")
            }
            Read::TooLong(bytes) => {
                tracing::warn!(
                    pid = pid.unwrap_or_default(),
                    bytes,
                    "engine stderr: over-long line skipped"
                )
            }
            Read::Eof => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn option(line: &str) -> UciOption {
        match message::parse(line) {
            EngineMessage::Option(o) => o,
            other => panic!("{other:?}"),
        }
    }

    /// A USI engine is refused a game outside the shogi family before it is even started.
    #[tokio::test]
    async fn usi_plays_the_shogi_family_only() {
        let spec = EngineSpec {
            command: PathBuf::from("/nonexistent/usi-engine"),
            args: vec![],
            options: vec![],
            protocol: Protocol::Usi,
        };
        let mut setup = Setup {
            variant: "xiangqi",
            uci_variant: Some("xiangqi"),
            chess960: false,
            variants_file: None,
            notation: Notation::Chess,
            ponder: false,
        };
        let refused = Engine::start(&spec, &setup)
            .await
            .err()
            .map(|e| e.to_string());
        assert!(
            refused
                .as_deref()
                .is_some_and(|e| e.contains("cannot play xiangqi: it speaks USI")),
            "{refused:?}"
        );
        setup.variant = "shogi";
        setup.uci_variant = Some("shogi");
        assert!(matches!(
            Engine::start(&spec, &setup).await,
            Err(EngineError::Spawn { .. })
        ));
    }

    /// Values are checked against the option's type: spins within bounds, checks as
    /// true/false, combos among their values, buttons without a value.
    #[test]
    fn option_values_are_checked() {
        let hash = option("option name Hash type spin default 16 min 1 max 1024");
        assert_eq!(
            set_command(&hash, "64").unwrap(),
            "setoption name Hash value 64"
        );
        assert!(
            set_command(&hash, "0")
                .unwrap_err()
                .to_string()
                .contains("1 to 1024")
        );
        assert!(set_command(&hash, "lots").is_err());
        let check = option("option name UCI_ShowWDL type check default false");
        assert!(set_command(&check, "true").is_ok());
        assert!(set_command(&check, "yes").is_err());
        let combo = option("option name Style type combo default Normal var Solid var Normal");
        assert_eq!(
            set_command(&combo, "solid").unwrap(),
            "setoption name Style value solid"
        );
        assert!(
            set_command(&combo, "Wild")
                .unwrap_err()
                .to_string()
                .contains("Solid, Normal")
        );
        let button = option("option name Clear Hash type button");
        assert_eq!(
            set_command(&button, "").unwrap(),
            "setoption name Clear Hash"
        );
        assert!(set_command(&button, "1").is_err());
        let text = option("option name SyzygyPath type string default <empty>");
        assert!(set_command(&text, "/tb\nquit").is_err());
    }
}
