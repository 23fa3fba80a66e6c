//! The command line of `chessd-bench`: every mode's flags with their defaults, and the checks
//! that refuse a value outside its bounds with one clear line before anything starts.
//!
//! Every knob has an upper bound so that a typo cannot exhaust the machine, and every target
//! address must be a loopback one: the bench is a load generator and never sends its load
//! anywhere else.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use chessd_rules::any::AnyVariant;
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::error::BenchError;

/// The command line as `T`, or how `program` ends without running: `--help` and `--version`
/// printed on stdout (exit 0), an argument error's first line on stderr, without clap's usage
/// and help lines (exit 2).
pub fn parse_or_exit<T: Parser>(program: &str) -> Result<T, ExitCode> {
    match T::try_parse() {
        Ok(parsed) => Ok(parsed),
        Err(e) if !e.use_stderr() => {
            // Nothing to do if stdout is gone.
            let _ = e.print();
            Err(ExitCode::SUCCESS)
        }
        Err(e) => {
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("invalid arguments");
            eprintln!("{program}: {}", first.trim_start_matches("error: "));
            Err(ExitCode::from(2))
        }
    }
}

/// Upper bounds on the knobs.
const MAX_GAMES: usize = 10_000;
const MAX_WATCHERS: usize = 10_000;
/// Watch streams in all (games times watchers per game).
const MAX_WATCH_STREAMS: usize = 100_000;
const MAX_IDLE_GAMES: usize = 1_000_000;
const MAX_CONNECTIONS: usize = 1_000;
const MAX_CONCURRENCY: usize = 10_000;
const MAX_SUBSCRIBERS: usize = 100_000;
const MAX_MESSAGES: u32 = 1_000_000;
const MAX_ROUNDS: usize = 100;
const MAX_DURATION: Duration = Duration::from_secs(24 * 3600);
const MAX_WARMUP: Duration = Duration::from_secs(3600);

/// `chessd-bench`: without a subcommand it runs `play` with these flags.
#[derive(Parser, Debug)]
#[command(
    name = "chessd-bench",
    version,
    about = "Load generator for chessd over real gRPC on loopback, with its own bare-tonic echo yardstick",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub play: PlayArgs,
}

/// The modes.
// Parsed once at start: the size of the largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Bot games, watchers and idle games against chessd: throughput, latency, CPU and
    /// memory (the default without a subcommand).
    Play(PlayArgs),
    /// SubmitMove throughput of an in-process chessd in memory and on SQLite (both sync
    /// modes), alternating in one run.
    Stores(StoresArgs),
    /// The bare-tonic echo yardstick: its server and its two loads.
    #[command(subcommand)]
    Echo(EchoCommand),
}

/// How a bot learns that it is its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Turns {
    /// From its own WatchGame stream, as a real bot does.
    Watch,
    /// From its opponent in-process: exactly one SubmitMove in flight per game.
    Handoff,
}

/// How much of the game SubmitMove answers with (`GameView`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum View {
    Basic,
    Full,
}

/// Flags shared by every mode that plays games.
#[derive(Args, Clone, Debug)]
pub struct Play {
    /// Games played at once, each by two bots.
    #[arg(long, default_value_t = 64)]
    pub games: usize,
    /// How bots learn it is their turn.
    #[arg(long, value_enum, default_value_t = Turns::Watch)]
    pub turns: Turns,
    /// The game view SubmitMove answers with: basic (what a bot needs) or full (with every
    /// move played and every legal move).
    #[arg(long, value_enum, default_value_t = View::Basic)]
    pub view: View,
    /// chess or racingkings.
    #[arg(long, default_value = "chess", value_parser = variant)]
    pub variant: AnyVariant,
    /// HTTP/2 connections the bots share.
    #[arg(long, default_value_t = 4)]
    pub connections: usize,
    /// Measured play time (after the warm-up), such as 10s or 2m.
    #[arg(long, default_value = "10s", value_parser = humantime::parse_duration)]
    pub duration: Duration,
    /// Unmeasured play time first.
    #[arg(long, default_value = "1s", value_parser = humantime::parse_duration)]
    pub warmup: Duration,
    /// End each game (a resignation) once it has this many plies and start another, so moves
    /// are measured in games of a known length (0: play every game to its end).
    #[arg(long, default_value_t = 0)]
    pub max_ply: u32,
}

/// The flags of `chessd-bench play` (and of `chessd-bench` alone).
#[derive(Args, Clone, Debug)]
pub struct PlayArgs {
    /// A running chessd to load (loopback only); repeat it for several replicas, which then
    /// share the connections in turn. Default: a server in this process.
    #[arg(long)]
    pub addr: Vec<SocketAddr>,
    /// The pid of the `--addr` server, to read its memory and CPU time from /proc; with
    /// several `--addr`, one per address in the same order (each replica is then reported
    /// on its own).
    #[arg(long)]
    pub server_pid: Vec<u32>,
    /// A Redis the servers use (loopback), read with INFO before and after each measured
    /// window for Redis's own CPU and commands per move and per created game; repeat it (or
    /// separate with commas) for every primary of a Cluster.
    #[arg(long, value_delimiter = ',')]
    pub redis: Vec<String>,
    #[command(flatten)]
    pub play: Play,
    /// WatchGame streams per game besides the two bots'.
    #[arg(long, default_value_t = 0)]
    pub watchers: usize,
    /// HTTP/2 connections the watchers share (raised to keep at most 150 streams on each).
    #[arg(long, default_value_t = 8)]
    pub watcher_connections: usize,
    /// Moves per second per game; 0 plays as fast as possible.
    #[arg(long, default_value_t = 0.0)]
    pub rate: f64,
    /// Stop playing after this many moves in all (0: no limit besides the duration).
    #[arg(long, default_value_t = 0)]
    pub max_moves: u64,
    /// Games created and left idle to measure memory per game (0 skips the phase).
    #[arg(long, default_value_t = 100_000)]
    pub idle_games: usize,
    /// Games played with random moves to their end, after the idle games, to measure memory
    /// per finished game and per ply (0 skips the phase).
    #[arg(long, default_value_t = 0)]
    pub finished_games: usize,
    /// The ply at which a finished-games game is resigned (0: each plays to its own end, about
    /// 300 plies in chess with random moves).
    #[arg(long, default_value_t = 80)]
    pub finished_plies: u32,
    #[command(flatten)]
    pub timed: crate::timed::TimedArgs,
}

/// The flags of `chessd-bench stores`.
#[derive(Args, Clone, Debug)]
pub struct StoresArgs {
    #[command(flatten)]
    pub play: Play,
    /// Rounds; each plays every store once, in turn, and the report gives the medians.
    #[arg(long, default_value_t = 1)]
    pub rounds: usize,
    /// Where the SQLite stores live (a fresh folder inside it per run, removed after).
    /// Default: the system's temporary folder.
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
}

/// The echo yardstick's commands.
#[derive(Subcommand, Debug)]
pub enum EchoCommand {
    /// Serve the echo service until Ctrl-C or SIGTERM.
    Serve(EchoServeArgs),
    /// Closed-loop unary Echo calls: throughput, latency and CPU per call.
    LoadUnary(UnaryArgs),
    /// Streams on one topic and a publisher: delivery latency and CPU per delivery.
    LoadFanout(FanoutArgs),
}

/// The flags of `chessd-bench echo serve`.
#[derive(Args, Clone, Debug)]
pub struct EchoServeArgs {
    /// Where to listen (loopback only; port 0 picks one, printed on stdout).
    #[arg(long, default_value = "127.0.0.1:50551")]
    pub addr: SocketAddr,
    /// Runtime worker threads, 1 to 256 (default: one per core, as a tokio server has by
    /// default).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
}

/// The target of an echo load.
#[derive(Args, Clone, Debug)]
pub struct EchoTarget {
    /// The echo server (loopback only).
    #[arg(long, default_value = "127.0.0.1:50551")]
    pub addr: SocketAddr,
    /// The server's pid, to read its CPU time from /proc.
    #[arg(long)]
    pub server_pid: Option<u32>,
}

/// The flags of `chessd-bench echo load-unary`.
#[derive(Args, Clone, Debug)]
pub struct UnaryArgs {
    #[command(flatten)]
    pub target: EchoTarget,
    /// HTTP/2 connections the callers share.
    #[arg(long, default_value_t = 4)]
    pub connections: usize,
    /// Callers, each with one call in flight.
    #[arg(long, default_value_t = 64)]
    pub concurrency: usize,
    /// Measured time (after the warm-up).
    #[arg(long, default_value = "10s", value_parser = humantime::parse_duration)]
    pub duration: Duration,
    /// Unmeasured time first.
    #[arg(long, default_value = "1s", value_parser = humantime::parse_duration)]
    pub warmup: Duration,
}

/// The flags of `chessd-bench echo load-fanout`.
#[derive(Args, Clone, Debug)]
pub struct FanoutArgs {
    #[command(flatten)]
    pub target: EchoTarget,
    /// Streams on the topic.
    #[arg(long, default_value_t = 1_000)]
    pub subscribers: usize,
    /// HTTP/2 connections the streams share (raised to keep at most 150 streams on each);
    /// the publisher has one of its own.
    #[arg(long, default_value_t = 8)]
    pub connections: usize,
    /// Moves published.
    #[arg(long, default_value_t = 100)]
    pub messages: u32,
    /// Moves published per second; 0 publishes back to back (one Publish in flight).
    #[arg(long, default_value_t = 5.0)]
    pub rate: f64,
}

fn variant(text: &str) -> Result<AnyVariant, String> {
    text.parse::<AnyVariant>().map_err(|e| e.to_string())
}

/// Refuses anything but a loopback address.
pub fn loopback(addr: SocketAddr) -> Result<(), BenchError> {
    if addr.ip().is_loopback() {
        Ok(())
    } else {
        Err(BenchError::new(format!(
            "refusing {addr}: the bench only targets loopback addresses"
        )))
    }
}

fn at_most<T: PartialOrd + std::fmt::Display>(
    value: T,
    max: T,
    what: &str,
) -> Result<(), BenchError> {
    if value > max {
        return Err(BenchError::new(format!("at most {max} {what}")));
    }
    Ok(())
}

fn connections(n: usize) -> Result<(), BenchError> {
    if (1..=MAX_CONNECTIONS).contains(&n) {
        Ok(())
    } else {
        Err(BenchError::new(format!(
            "connections must be 1 to {MAX_CONNECTIONS}"
        )))
    }
}

/// A rate per second: 0 (as fast as possible) or one that makes a pause `Duration` can hold.
fn rate(rate: f64) -> Result<(), BenchError> {
    if rate == 0.0 || (0.01..=1e6).contains(&rate) {
        Ok(())
    } else {
        Err(BenchError::new(
            "rate must be 0 (as fast as possible) or 0.01 to 1000000 per second",
        ))
    }
}

fn window(duration: Duration, warmup: Duration) -> Result<(), BenchError> {
    if duration.is_zero() || duration > MAX_DURATION {
        return Err(BenchError::new(
            "the duration must be above zero and at most 24h",
        ));
    }
    if warmup > MAX_WARMUP {
        return Err(BenchError::new("the warm-up must be at most 1h"));
    }
    Ok(())
}

impl Play {
    fn check(&self) -> Result<(), BenchError> {
        at_most(self.games, MAX_GAMES, "games")?;
        connections(self.connections)?;
        window(self.duration, self.warmup)
    }
}

impl PlayArgs {
    /// Refuses flags out of bounds or that contradict each other.
    pub fn check(&self) -> Result<(), BenchError> {
        for addr in &self.addr {
            loopback(*addr)?;
        }
        if !self.server_pid.is_empty() && self.server_pid.len() != self.addr.len() {
            return Err(BenchError::new(
                "--server-pid needs --addr: give one per --addr, in the same order",
            ));
        }
        if !self.redis.is_empty() && self.addr.is_empty() {
            return Err(BenchError::new(
                "--redis reads the Redis of running servers: it needs --addr",
            ));
        }
        self.play.check()?;
        at_most(self.watchers, MAX_WATCHERS, "watchers per game")?;
        at_most(
            self.play.games.saturating_mul(self.watchers),
            MAX_WATCH_STREAMS,
            "watch streams in all (games times watchers)",
        )?;
        at_most(self.idle_games, MAX_IDLE_GAMES, "idle games")?;
        at_most(self.finished_games, MAX_IDLE_GAMES, "finished games")?;
        connections(self.watcher_connections)?;
        self.timed.check(self.play.warmup)?;
        rate(self.rate)
    }
}

impl StoresArgs {
    /// Refuses flags out of bounds.
    pub fn check(&self) -> Result<(), BenchError> {
        self.play.check()?;
        if self.play.games == 0 {
            return Err(BenchError::new("stores needs at least one game"));
        }
        if !(1..=MAX_ROUNDS).contains(&self.rounds) {
            return Err(BenchError::new(format!("rounds must be 1 to {MAX_ROUNDS}")));
        }
        Ok(())
    }
}

impl EchoServeArgs {
    /// Refuses a non-loopback address.
    pub fn check(&self) -> Result<(), BenchError> {
        loopback(self.addr)
    }
}

impl UnaryArgs {
    /// Refuses flags out of bounds.
    pub fn check(&self) -> Result<(), BenchError> {
        loopback(self.target.addr)?;
        connections(self.connections)?;
        if !(1..=MAX_CONCURRENCY).contains(&self.concurrency) {
            return Err(BenchError::new(format!(
                "concurrency must be 1 to {MAX_CONCURRENCY}"
            )));
        }
        window(self.duration, self.warmup)
    }
}

impl FanoutArgs {
    /// Refuses flags out of bounds.
    pub fn check(&self) -> Result<(), BenchError> {
        loopback(self.target.addr)?;
        connections(self.connections)?;
        if !(1..=MAX_SUBSCRIBERS).contains(&self.subscribers) {
            return Err(BenchError::new(format!(
                "subscribers must be 1 to {MAX_SUBSCRIBERS}"
            )));
        }
        if !(1..=MAX_MESSAGES).contains(&self.messages) {
            return Err(BenchError::new(format!(
                "messages must be 1 to {MAX_MESSAGES}"
            )));
        }
        rate(self.rate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("chessd-bench").chain(args.iter().copied()))
    }

    /// Without a subcommand the flags are `play`'s, with the documented defaults.
    #[test]
    fn bare_flags_are_the_play_mode() {
        let cli = parse(&["--games", "2", "--warmup", "0s", "--duration", "500ms"]).unwrap();
        assert!(cli.command.is_none());
        assert_eq!(cli.play.play.games, 2);
        assert_eq!(cli.play.play.warmup, Duration::ZERO);
        assert_eq!(cli.play.play.duration, Duration::from_millis(500));
        assert_eq!(cli.play.play.turns, Turns::Watch);
        assert_eq!(cli.play.idle_games, 100_000);
        cli.play.check().unwrap();
    }

    /// A zero duration would measure nothing: refused.
    #[test]
    fn zero_duration_is_refused() {
        let cli = parse(&["--duration", "0s"]).unwrap();
        assert!(cli.play.check().is_err());
    }

    /// Non-loopback targets are refused in every mode that sends load.
    #[test]
    fn only_loopback_targets() {
        let cli = parse(&["--addr", "192.0.2.1:50051"]).unwrap();
        let e = cli.play.check().unwrap_err().to_string();
        assert!(e.contains("loopback"), "{e}");
        let cli = parse(&["echo", "load-unary", "--addr", "[2001:db8::1]:1"]).unwrap();
        let Some(Command::Echo(EchoCommand::LoadUnary(args))) = cli.command else {
            panic!("not load-unary");
        };
        assert!(args.check().is_err());
        let cli = parse(&["echo", "serve", "--addr", "[::1]:0"]).unwrap();
        let Some(Command::Echo(EchoCommand::Serve(args))) = cli.command else {
            panic!("not serve");
        };
        args.check().unwrap();
    }

    /// Bounds hold: a typo of a few zeros does not start ten million games.
    #[test]
    fn knobs_are_bounded() {
        for args in [
            &["--games", "10001"][..],
            &["--watchers", "10001"],
            &["--games", "1000", "--watchers", "1000"],
            &["--idle-games", "1000001"],
            &["--connections", "0"],
            &["--rate=-1"],
            &["--rate", "1e-300"],
            &["--rate", "NaN"],
            // Flaggers without clocks would never flag; a ramp into the window skews it.
            &["--flag-share", "0.5"],
            &["--time-control", "5m", "--ramp", "5s"],
        ] {
            let cli = parse(args).unwrap();
            assert!(cli.play.check().is_err(), "{args:?} accepted");
        }
        let cli = parse(&["stores", "--rounds", "0"]).unwrap();
        let Some(Command::Stores(args)) = cli.command else {
            panic!("not stores");
        };
        assert!(args.check().is_err());
    }

    /// One pid per address, in order; Redis only with running servers.
    #[test]
    fn pids_match_addresses() {
        let two = ["--addr", "127.0.0.1:1", "--addr", "127.0.0.1:2"];
        let ok = parse(&[&two[..], &["--server-pid", "5", "--server-pid", "6"]].concat()).unwrap();
        ok.play.check().unwrap();
        assert_eq!(ok.play.server_pid, vec![5, 6]);
        let short = parse(&[&two[..], &["--server-pid", "5"]].concat()).unwrap();
        assert!(short.play.check().is_err());
        let cluster = parse(
            &[
                &two[..],
                &["--redis", "redis://127.0.0.1:7101/,redis://127.0.0.1:7102/"],
                &["--redis", "redis://127.0.0.1:7103/"],
            ]
            .concat(),
        )
        .unwrap();
        cluster.play.check().unwrap();
        assert_eq!(cluster.play.redis.len(), 3);
        let alone = parse(&["--redis", "redis://127.0.0.1:6379/"]).unwrap();
        assert!(alone.play.check().is_err());
    }

    /// A timed run with flaggers parses into its time controls.
    #[test]
    fn timed_flags() {
        let cli = parse(&[
            "--time-control",
            "5m+2s",
            "--flag-share",
            "0.1",
            "--ramp",
            "1s",
        ])
        .unwrap();
        cli.play.check().unwrap();
        let tc = cli.play.timed.time_control.unwrap();
        assert_eq!(tc.initial, Duration::from_secs(300));
        assert_eq!(tc.increment, Duration::from_secs(2));
        assert_eq!(
            cli.play.timed.flag_time_control.initial,
            Duration::from_secs(15)
        );
        assert!(parse(&["--time-control", "5m+"]).is_err());
    }

    /// Bad text is a parse error, not a panic.
    #[test]
    fn bad_text_is_a_parse_error() {
        assert!(parse(&["--duration", "ten seconds"]).is_err());
        assert!(parse(&["--variant", "checkers"]).is_err());
        assert!(parse(&["echo", "load-fanout", "--messages", "many"]).is_err());
        // The runtime would panic on zero workers: refused while parsing, before it starts.
        assert!(parse(&["echo", "serve", "--threads", "0"]).is_err());
        assert!(parse(&["echo", "serve", "--threads", "257"]).is_err());
    }
}
