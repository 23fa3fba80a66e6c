//! `chessd bench`: the load generator.
//!
//! It plays `--games` games at once over real gRPC on loopback, each by two bot tasks that pick
//! random legal moves, with `--watchers` extra WatchGame streams per game, and then creates
//! `--idle-games` games nobody plays to measure what an idle game costs. It reports:
//! - SubmitMove throughput and latency (p50, p99, p99.9), measured like the `grpc-echo` anchor's
//!   `load-unary`: calls that start after the warm-up and end before the deadline;
//! - WatchGame delivery latency, from the moment the mover sent its SubmitMove to the moment a
//!   stream received the move (the anchor's `load-fanout` measures publish-send to receipt),
//!   and from the event's server time (which the server keeps to the millisecond) to receipt;
//! - the server's resident memory and CPU time, and memory per idle game (RSS growth over the
//!   idle games, divided by their number).
//!
//! By default the server runs in this process on its own runtime and threads, on
//! `127.0.0.1:0`; `--addr` targets a server already running (loopback addresses only) and
//! `--server-pid` lets its memory and CPU be read from `/proc`. `--addr` may be given several
//! times (replicas sharing one Redis): connections then go to the servers in turn, so a game's
//! moves and its watchers use different replicas when there are more connections than servers. Everything is bounded: the play
//! phase stops at `--duration` (after `--warmup`) or after `--max-moves`, and every wait has a
//! deadline.
//!
//! How the bots learn that it is their turn (`--turns`):
//! - `watch` (default): each bot watches its game and moves when a move event says it is its
//!   turn, as a real bot does. Between two moves of a game there is one delivery, so fewer than
//!   `--games` SubmitMoves are in flight.
//! - `handoff`: the bot that moved passes the position to its opponent in-process, so every
//!   game has exactly one SubmitMove in flight: `--games 64` is the closed loop of the anchor's
//!   `load-unary --concurrency 64`. Watchers (if any) still watch.

use std::io::Write;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use chessd_rules::{Color, Position, Rules, Variant};
use clap::{Args, ValueEnum};
use hdrhistogram::Histogram;
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio::time::{sleep, sleep_until, timeout, timeout_at};
use tonic::metadata::{Ascii, MetadataValue};
use tonic::transport::{Channel, Endpoint};
use tonic::{Code, Request};
use tonic_types::StatusExt;

use crate::config::ServerConfig;
use crate::proto::game_service_client::GameServiceClient;
use crate::proto::{self as pb, watch_game_response::Event};
use crate::units::duration;

type Client = GameServiceClient<Channel>;

/// Longest wait for any single call or stream message: beyond it the bench gives up on it.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);
/// Plies remembered for delivery latency per game (a watcher further behind is cut off by the
/// server's watch buffer anyway).
const SEND_RING: usize = 64;
/// Concurrent CreateGame calls in the idle-games phase.
const IDLE_CREATORS: usize = 64;
/// Streams per HTTP/2 connection the bench opens at most (hyper's server allows 200 by default).
const STREAMS_PER_CONNECTION: usize = 150;
/// Upper bounds on the knobs, so a typo cannot exhaust the machine.
const MAX_GAMES: usize = 10_000;
const MAX_WATCHERS: usize = 10_000;
const MAX_IDLE_GAMES: usize = 1_000_000;

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

/// The flags of `chessd bench`.
#[derive(Args, Clone, Debug)]
pub struct BenchArgs {
    /// A running chessd to load (loopback only); repeat it for several replicas, which then
    /// share the connections in turn. Default: a server in this process.
    #[arg(long)]
    pub addr: Vec<SocketAddr>,
    /// The pid of the `--addr` server, to read its memory and CPU time from /proc.
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// Games played at once, each by two bots.
    #[arg(long, default_value_t = 64)]
    pub games: usize,
    /// WatchGame streams per game besides the two bots'.
    #[arg(long, default_value_t = 0)]
    pub watchers: usize,
    /// How bots learn it is their turn.
    #[arg(long, value_enum, default_value_t = Turns::Watch)]
    pub turns: Turns,
    /// HTTP/2 connections the bots share.
    #[arg(long, default_value_t = 4)]
    pub connections: usize,
    /// HTTP/2 connections the watchers share (raised to keep at most 150 streams on each).
    #[arg(long, default_value_t = 8)]
    pub watcher_connections: usize,
    /// Moves per second per game; 0 plays as fast as possible.
    #[arg(long, default_value_t = 0.0)]
    pub rate: f64,
    /// Measured play time (after the warm-up).
    #[arg(long, default_value = "10s", value_parser = duration)]
    pub duration: Duration,
    /// Unmeasured play time first.
    #[arg(long, default_value = "1s", value_parser = duration_or_zero)]
    pub warmup: Duration,
    /// Stop playing after this many moves in all (0: no limit besides the duration).
    #[arg(long, default_value_t = 0)]
    pub max_moves: u64,
    /// chess or racingkings.
    #[arg(long, default_value = "chess", value_parser = variant)]
    pub variant: Variant,
    /// The game view SubmitMove answers with: basic (what a bot needs) or full (with every
    /// move played and every legal move).
    #[arg(long, value_enum, default_value_t = View::Basic)]
    pub view: View,
    /// Games created and left idle to measure memory per game (0 skips the phase).
    #[arg(long, default_value_t = 100_000)]
    pub idle_games: usize,
}

fn duration_or_zero(text: &str) -> Result<Duration, String> {
    if text
        .trim()
        .trim_end_matches(|c: char| c.is_ascii_alphabetic())
        == "0"
    {
        Ok(Duration::ZERO)
    } else {
        duration(text)
    }
}

fn variant(text: &str) -> Result<Variant, String> {
    text.parse::<Variant>().map_err(|e| e.to_string())
}

/// Why a bench could not run.
#[derive(Debug)]
pub struct BenchError(String);

impl std::fmt::Display for BenchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BenchError {}

fn fail(what: &str, e: impl std::fmt::Display) -> BenchError {
    BenchError(format!("{what}: {e}"))
}

impl BenchArgs {
    fn check(&self) -> Result<(), BenchError> {
        if let Some(addr) = self.addr.iter().find(|a| !a.ip().is_loopback()) {
            return Err(BenchError(format!(
                "refusing {addr}: the bench only targets loopback addresses"
            )));
        }
        if self.addr.len() > 1 && self.server_pid.is_some() {
            return Err(BenchError(
                "--server-pid reads one server: leave it out with several --addr".into(),
            ));
        }
        if self.games > MAX_GAMES || self.watchers > MAX_WATCHERS {
            return Err(BenchError(format!(
                "at most {MAX_GAMES} games and {MAX_WATCHERS} watchers per game"
            )));
        }
        if self.idle_games > MAX_IDLE_GAMES {
            return Err(BenchError(format!("at most {MAX_IDLE_GAMES} idle games")));
        }
        if !(1..=1000).contains(&self.connections)
            || !(1..=1000).contains(&self.watcher_connections)
        {
            return Err(BenchError("connections must be 1 to 1000".into()));
        }
        if !(self.rate.is_finite() && self.rate >= 0.0) {
            return Err(BenchError("rate must be 0 or more".into()));
        }
        Ok(())
    }
}

/// A chessd server running in this process on its own runtime.
struct LocalServer {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl LocalServer {
    /// Starts a server on 127.0.0.1:0 with room for the bench's games and watchers. Its own
    /// two-worker runtime stands in for a separate process.
    fn start(args: &BenchArgs) -> Result<LocalServer, BenchError> {
        let listener =
            std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| fail("bind 127.0.0.1:0", e))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| fail("listener", e))?;
        let addr = listener.local_addr().map_err(|e| fail("listener", e))?;
        let mut config = ServerConfig::default();
        config.store.limits.max_live_games = args.idle_games + 2 * args.games + 1_000;
        config.store.limits.max_watchers_per_game = args.watchers + 16;
        config.drain_timeout = Duration::from_secs(2);
        // Every bot comes from 127.0.0.1 and plays as fast as the server answers: limits would
        // measure the limiter, not the server (serve a separate one with --no-rate-limits).
        config.security.rate_limits = false;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("chessd-server")
            .enable_all()
            .build()
            .map_err(|e| fail("server runtime", e))?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("chessd-server".into())
            .spawn(move || {
                runtime.block_on(async move {
                    let listener = match tokio::net::TcpListener::from_std(listener) {
                        Ok(l) => l,
                        Err(e) => {
                            tracing::error!(error = %e, "bench server listener");
                            return;
                        }
                    };
                    let shutdown = async {
                        // A dropped sender stops the server too.
                        let _ = stopped.await;
                    };
                    if let Err(e) = crate::run(listener, config, shutdown).await {
                        tracing::error!(error = %e, "bench server failed");
                    }
                });
            })
            .map_err(|e| fail("server thread", e))?;
        Ok(LocalServer {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            // The server may have stopped by itself already.
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            // A panicked server thread has already reported itself.
            let _ = thread.join();
        }
    }
}

/// Which process is the server, for /proc readings.
#[derive(Clone, Copy, Debug)]
enum ServerProc {
    /// In this process (its readings include the load generator).
    OwnProcess,
    Pid(u32),
    Unknown,
}

impl ServerProc {
    fn path(self) -> Option<String> {
        match self {
            ServerProc::OwnProcess => Some("/proc/self".into()),
            ServerProc::Pid(pid) => Some(format!("/proc/{pid}")),
            ServerProc::Unknown => None,
        }
    }

    /// Resident memory in bytes (VmRSS), and its peak (VmHWM).
    fn rss(self) -> Option<(u64, u64)> {
        let status = std::fs::read_to_string(format!("{}/status", self.path()?)).ok()?;
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
                .map(|kib| kib * 1024)
        };
        Some((field("VmRSS:")?, field("VmHWM:")?))
    }

    /// CPU time used by every thread, from each thread's schedstat (nanoseconds, no clock-tick
    /// rounding).
    fn cpu(self) -> Option<Duration> {
        let tasks = std::fs::read_dir(format!("{}/task", self.path()?)).ok()?;
        let mut total = 0u64;
        for task in tasks.flatten() {
            let Ok(text) = std::fs::read_to_string(task.path().join("schedstat")) else {
                // The thread ended meanwhile.
                continue;
            };
            total += text
                .split_whitespace()
                .next()
                .and_then(|n| n.parse::<u64>().ok())
                .unwrap_or(0);
        }
        Some(Duration::from_nanos(total))
    }
}

/// CPU time of this process (the load generator, and the server when it runs here).
fn own_cpu() -> Option<Duration> {
    ServerProc::OwnProcess.cpu()
}

/// What every task shares.
struct Shared {
    /// The origin of every `Instant` turned into nanoseconds here.
    base: Instant,
    warm_end: Instant,
    end: Instant,
    /// Cleared when the bench stops playing (deadline or move budget).
    running: AtomicBool,
    max_moves: u64,
    /// Moves submitted so far (for the budget).
    submitted: AtomicU64,
    pause: Option<Duration>,
    variant: Variant,
    /// Whether bots record deliveries (when there are no watchers to do it).
    bots_record: bool,
    /// The game view SubmitMove answers with.
    view: pb::GameView,
    stats: Mutex<Stats>,
}

impl Shared {
    fn nanos(&self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.base).as_nanos()).unwrap_or(u64::MAX)
    }

    fn playing(&self) -> bool {
        self.running.load(Ordering::Relaxed) && Instant::now() < self.end
    }

    /// Takes one move from the budget; false when the bench should stop playing.
    fn take_move(&self) -> bool {
        if !self.playing() {
            return false;
        }
        let n = self.submitted.fetch_add(1, Ordering::Relaxed);
        if self.max_moves > 0 && n >= self.max_moves {
            self.running.store(false, Ordering::Relaxed);
            return false;
        }
        true
    }

    fn stats(&self) -> std::sync::MutexGuard<'_, Stats> {
        self.stats.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Everything measured, merged from every task (a std mutex: recording is a few nanoseconds and
/// never awaits).
struct Stats {
    /// SubmitMove round trips in the measured window, in nanoseconds.
    submit: Histogram<u64>,
    /// Mover's send to a stream's receipt, in nanoseconds.
    delivery: Histogram<u64>,
    /// Event server time to receipt, in microseconds (the server time has millisecond
    /// precision).
    server_delivery: Histogram<u64>,
    moves_measured: u64,
    moves_total: u64,
    deliveries_measured: u64,
    games_finished: u64,
    /// Moves sent just after the game ended (GAME_OVER): expected, not errors.
    late_moves: u64,
    /// Refusals and transport failures, by gRPC code.
    errors: Vec<(Code, u64)>,
    /// Streams that could not open or broke before their game ended.
    stream_failures: u64,
}

impl Stats {
    fn new() -> Result<Stats, BenchError> {
        let h = |high| Histogram::new_with_bounds(1, high, 3).map_err(|e| fail("histogram", e));
        Ok(Stats {
            submit: h(60_000_000_000)?,
            delivery: h(60_000_000_000)?,
            server_delivery: h(60_000_000)?,
            moves_measured: 0,
            moves_total: 0,
            deliveries_measured: 0,
            games_finished: 0,
            late_moves: 0,
            errors: Vec::new(),
            stream_failures: 0,
        })
    }

    fn error(&mut self, code: Code) {
        match self.errors.iter_mut().find(|(c, _)| *c == code) {
            Some((_, n)) => *n += 1,
            None => self.errors.push((code, 1)),
        }
    }
}

/// When each recent move of one game was sent, for delivery latency: slot `ply % SEND_RING`
/// holds (ply, nanoseconds since `Shared::base`).
struct SendTimes {
    slots: [(AtomicU64, AtomicU64); SEND_RING],
}

impl SendTimes {
    fn new() -> SendTimes {
        SendTimes {
            slots: std::array::from_fn(|_| (AtomicU64::new(0), AtomicU64::new(0))),
        }
    }

    fn set(&self, ply: u64, nanos: u64) {
        let (p, t) = &self.slots[(ply % SEND_RING as u64) as usize];
        t.store(nanos, Ordering::Release);
        p.store(ply, Ordering::Release);
    }

    fn get(&self, ply: u64) -> Option<u64> {
        let (p, t) = &self.slots[(ply % SEND_RING as u64) as usize];
        (p.load(Ordering::Acquire) == ply).then(|| t.load(Ordering::Acquire))
    }
}

/// A small fast generator for move choice (xorshift64*); quality does not matter here.
struct Rng(u64);

impl Rng {
    fn seeded() -> Rng {
        Rng(getrandom::u64().unwrap_or(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (x % n.max(1) as u64) as usize
    }
}

/// One game in play.
struct Table {
    id: String,
    /// Each seat's `authorization` value, made once (a clone shares the bytes).
    auth: [Option<MetadataValue<Ascii>>; 2],
    sent: SendTimes,
}

/// A request with a seat's authorization. No per-call deadline, like the anchor's client: a
/// `grpc-timeout` costs the server a timer per call, and the drain after the measured window
/// is bounded anyway.
fn authed<T>(message: T, auth: &Option<MetadataValue<Ascii>>) -> Request<T> {
    let mut request = Request::new(message);
    if let Some(value) = auth {
        request
            .metadata_mut()
            .insert("authorization", value.clone());
    }
    request
}

async fn connect(addr: SocketAddr) -> Result<Channel, BenchError> {
    Endpoint::from_shared(format!("http://{addr}"))
        .map_err(|e| fail("endpoint", e))?
        .tcp_nodelay(true)
        .connect_timeout(Duration::from_secs(5))
        .connect()
        .await
        .map_err(|e| fail(&format!("connect to {addr}"), e))
}

/// `n` connections, to `addrs` in turn.
async fn connect_all(addrs: &[SocketAddr], n: usize) -> Result<Vec<Channel>, BenchError> {
    let mut channels = Vec::with_capacity(n);
    for i in 0..n {
        channels.push(connect(addrs[i % addrs.len()]).await?);
    }
    Ok(channels)
}

/// Runs the bench and writes its report to `out`.
pub async fn run(args: BenchArgs, out: &mut impl Write) -> Result<(), BenchError> {
    args.check()?;
    let local = if args.addr.is_empty() {
        Some(LocalServer::start(&args)?)
    } else {
        None
    };
    let addrs: Vec<SocketAddr> = match &local {
        Some(l) => vec![l.addr],
        None => args.addr.clone(),
    };
    let server = match (&local, args.server_pid) {
        (Some(_), _) => ServerProc::OwnProcess,
        (None, Some(pid)) => ServerProc::Pid(pid),
        (None, None) => ServerProc::Unknown,
    };
    let w =
        |out: &mut dyn Write, line: String| writeln!(out, "{line}").map_err(|e| fail("output", e));
    w(
        out,
        format!(
            "chessd bench: server {} ({}), games={} watchers/game={} turns={:?} view={:?} connections={} rate={} variant={}",
            addrs
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            if local.is_some() {
                "in this process"
            } else {
                "external"
            },
            args.games,
            args.watchers,
            args.turns,
            args.view,
            args.connections,
            if args.rate > 0.0 {
                format!("{}/s", args.rate)
            } else {
                "max".into()
            },
            args.variant.key(),
        ),
    )?;
    if args.games > 0 {
        play_phase(&args, &addrs, server, out).await?;
    }
    if args.idle_games > 0 {
        idle_phase(&args, &addrs, server, out).await?;
    }
    drop(local);
    Ok(())
}

async fn play_phase(
    args: &BenchArgs,
    addrs: &[SocketAddr],
    server: ServerProc,
    out: &mut impl Write,
) -> Result<(), BenchError> {
    let players = connect_all(addrs, args.connections).await?;
    let watch_streams = args.games * args.watchers;
    let watcher_connections = args
        .watcher_connections
        .max(watch_streams.div_ceil(STREAMS_PER_CONNECTION));
    let watchers = if args.watchers > 0 {
        connect_all(addrs, watcher_connections).await?
    } else {
        Vec::new()
    };
    let base = Instant::now();
    let warm_end = base + args.warmup;
    let shared = Arc::new(Shared {
        base,
        warm_end,
        end: warm_end + args.duration,
        running: AtomicBool::new(true),
        max_moves: args.max_moves,
        submitted: AtomicU64::new(0),
        pause: (args.rate > 0.0).then(|| Duration::from_secs_f64(1.0 / args.rate)),
        variant: args.variant,
        bots_record: args.watchers == 0,
        view: match args.view {
            View::Basic => pb::GameView::Basic,
            View::Full => pb::GameView::Full,
        },
        stats: Mutex::new(Stats::new()?),
    });
    let mut tables = JoinSet::new();
    for i in 0..args.games {
        // With several replicas, a game's two bots talk to different ones, so every move
        // crosses replicas on its way to the opponent's watch stream.
        let step = usize::from(addrs.len() > 1);
        let seats = [
            players[i % players.len()].clone(),
            players[(i + step) % players.len()].clone(),
        ];
        let watcher_channels: Vec<Channel> = (0..args.watchers)
            .map(|j| watchers[(i * args.watchers + j) % watchers.len()].clone())
            .collect();
        tables.spawn(table(shared.clone(), seats, watcher_channels, args.turns));
    }
    // Readings over the measured window only.
    sleep_until(warm_end.into()).await;
    let cpu0 = (server.cpu(), own_cpu(), Instant::now());
    let measured_end = shared.end;
    let budget_done = async {
        while shared.playing() {
            sleep(Duration::from_millis(20)).await;
        }
    };
    // The window ends at the deadline or when the move budget ran out.
    tokio::select! {
        () = sleep_until(measured_end.into()) => {}
        () = budget_done => {}
    }
    let cpu1 = (server.cpu(), own_cpu(), Instant::now());
    let rss = server.rss();
    shared.running.store(false, Ordering::Relaxed);
    // Tables end their games (a resignation) and return; give them a bounded time.
    let drained = timeout(CALL_TIMEOUT * 2, async {
        while tables.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tables.abort_all();
    }

    let window = cpu1
        .2
        .saturating_duration_since(cpu0.2)
        .max(Duration::from_millis(1));
    let stats = shared.stats();
    let secs = window.as_secs_f64();
    let us = |ns: u64| ns as f64 / 1e3;
    let mut lines = Vec::new();
    lines.push(format!(
        "moves: {} in {:.2} s measured = {:.0} moves/s ({} in all, {} games finished)",
        stats.moves_measured,
        secs,
        stats.moves_measured as f64 / secs,
        stats.moves_total,
        stats.games_finished
    ));
    lines.push(format!(
        "SubmitMove latency: p50 {:.0} us, p99 {:.0} us, p99.9 {:.0} us, max {:.0} us",
        us(stats.submit.value_at_quantile(0.5)),
        us(stats.submit.value_at_quantile(0.99)),
        us(stats.submit.value_at_quantile(0.999)),
        us(stats.submit.max()),
    ));
    lines.push(format!(
        "WatchGame delivery ({} recording streams/game, {} deliveries): send-to-receipt p50 {:.0} us, p99 {:.0} us, p99.9 {:.0} us; server-time-to-receipt p50 {:.1} ms, p99 {:.1} ms",
        if args.watchers > 0 { args.watchers } else { 1 },
        stats.deliveries_measured,
        us(stats.delivery.value_at_quantile(0.5)),
        us(stats.delivery.value_at_quantile(0.99)),
        us(stats.delivery.value_at_quantile(0.999)),
        stats.server_delivery.value_at_quantile(0.5) as f64 / 1e3,
        stats.server_delivery.value_at_quantile(0.99) as f64 / 1e3,
    ));
    let errors: Vec<String> = stats
        .errors
        .iter()
        .map(|(c, n)| format!("{c:?}={n}"))
        .collect();
    lines.push(format!(
        "errors: [{}], broken streams: {}, moves after an automatic draw: {}",
        errors.join(" "),
        stats.stream_failures,
        stats.late_moves
    ));
    let moves = stats.moves_measured.max(1) as f64;
    let cpu_line = match (cpu0, cpu1, server) {
        ((Some(s0), Some(c0), _), (Some(s1), Some(c1), _), ServerProc::Pid(_)) => {
            let server_cpu = s1.saturating_sub(s0).as_secs_f64();
            let own = c1.saturating_sub(c0).as_secs_f64();
            format!(
                "cpu: server {:.0}% = {:.1} us/move, load generator {:.0}% = {:.1} us/move",
                100.0 * server_cpu / secs,
                1e6 * server_cpu / moves,
                100.0 * own / secs,
                1e6 * own / moves
            )
        }
        ((_, Some(c0), _), (_, Some(c1), _), _) => {
            let own = c1.saturating_sub(c0).as_secs_f64();
            format!(
                "cpu: this process (server and load generator) {:.0}% = {:.1} us/move",
                100.0 * own / secs,
                1e6 * own / moves
            )
        }
        _ => "cpu: not readable".into(),
    };
    lines.push(cpu_line);
    if let Some((rss, peak)) = rss {
        lines.push(format!(
            "server memory: {:.1} MiB resident, peak {:.1} MiB{}",
            rss as f64 / 1048576.0,
            peak as f64 / 1048576.0,
            if matches!(server, ServerProc::OwnProcess) {
                " (with the load generator)"
            } else {
                ""
            }
        ));
    }
    lines.push(format!(
        "RESULT bench games={} watchers={} turns={:?} view={:?} rate={} moves={} moves_per_s={:.0} submit_p50_us={:.1} submit_p99_us={:.1} submit_p999_us={:.1} deliveries={} delivery_p50_us={:.1} delivery_p99_us={:.1} delivery_p999_us={:.1} server_time_delivery_p99_ms={:.1}",
        args.games,
        args.watchers,
        args.turns,
        args.view,
        args.rate,
        stats.moves_measured,
        stats.moves_measured as f64 / secs,
        us(stats.submit.value_at_quantile(0.5)),
        us(stats.submit.value_at_quantile(0.99)),
        us(stats.submit.value_at_quantile(0.999)),
        stats.deliveries_measured,
        us(stats.delivery.value_at_quantile(0.5)),
        us(stats.delivery.value_at_quantile(0.99)),
        us(stats.delivery.value_at_quantile(0.999)),
        stats.server_delivery.value_at_quantile(0.99) as f64 / 1e3,
    ));
    drop(stats);
    for line in lines {
        writeln!(out, "{line}").map_err(|e| fail("output", e))?;
    }
    Ok(())
}

/// One seat of the table: plays games one after another while the bench runs.
/// Plays games one after another on one table; `seats` are White's and Black's connections.
async fn table(shared: Arc<Shared>, seats: [Channel; 2], watchers: Vec<Channel>, turns: Turns) {
    let mut client = GameServiceClient::new(seats[0].clone());
    while shared.playing() {
        let created = client
            .create_game(pb::CreateGameRequest {
                variant: match shared.variant {
                    Variant::Chess => pb::Variant::Chess as i32,
                    Variant::RacingKings => pb::Variant::RacingKings as i32,
                    // The API has no value for the other variants yet.
                    _ => pb::Variant::Unspecified as i32,
                },
                white_player: "bench-w".into(),
                black_player: "bench-b".into(),
                ..Default::default()
            })
            .await;
        let created = match created {
            Ok(r) => r.into_inner(),
            Err(status) => {
                shared.stats().error(status.code());
                sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Some(game) = created.game else { return };
        let table = Arc::new(Table {
            id: game.game_id,
            auth: [created.white_token, created.black_token]
                .map(|token| format!("Bearer {token}").parse().ok()),
            sent: SendTimes::new(),
        });
        let mut tasks = JoinSet::new();
        // Watchers first, so they see every move.
        let (ready_tx, mut ready_rx) = mpsc::channel::<()>(watchers.len().max(1));
        for channel in &watchers {
            tasks.spawn(watcher(
                shared.clone(),
                GameServiceClient::new(channel.clone()),
                table.clone(),
                ready_tx.clone(),
            ));
        }
        drop(ready_tx);
        let all_ready = timeout(CALL_TIMEOUT, async {
            while ready_rx.recv().await.is_some() {}
        })
        .await;
        if all_ready.is_err() {
            shared.stats().stream_failures += 1;
        }
        match turns {
            Turns::Watch => {
                for color in Color::ALL {
                    tasks.spawn(watching_bot(
                        shared.clone(),
                        GameServiceClient::new(seats[color.index()].clone()),
                        table.clone(),
                        color,
                    ));
                }
            }
            Turns::Handoff => {
                let (white_tx, white_rx) = mpsc::channel(1);
                let (black_tx, black_rx) = mpsc::channel(1);
                let start = Position::new(shared.variant);
                // The first turn: White to move from the start.
                if white_tx.try_send((start, 0u32)).is_err() {
                    return;
                }
                tasks.spawn(handoff_bot(
                    shared.clone(),
                    GameServiceClient::new(seats[0].clone()),
                    table.clone(),
                    Color::White,
                    white_rx,
                    black_tx.clone(),
                ));
                tasks.spawn(handoff_bot(
                    shared.clone(),
                    GameServiceClient::new(seats[1].clone()),
                    table.clone(),
                    Color::Black,
                    black_rx,
                    white_tx,
                ));
                drop(black_tx);
            }
        }
        while tasks.join_next().await.is_some() {}
    }
}

/// Plays one move for `color` from `pos` at `ply`: picks a random legal move and submits it.
/// Returns the position after it, `None` when the game is over or the bench stops.
async fn submit(
    shared: &Shared,
    client: &mut Client,
    table: &Table,
    color: Color,
    pos: &Position,
    ply: u32,
    rng: &mut Rng,
) -> Option<(Position, u32)> {
    if let Some(pause) = shared.pause {
        sleep(pause).await;
    }
    if !shared.take_move() {
        // Stopping: end the game so its streams end too.
        let _ = client
            .resign(authed(
                pb::ResignRequest {
                    game_id: table.id.clone(),
                },
                &table.auth[color.index()],
            ))
            .await;
        return None;
    }
    let moves = pos.legal_moves();
    let mv = *moves.get(rng.below(moves.len()))?;
    let request = pb::SubmitMoveRequest {
        game_id: table.id.clone(),
        r#move: mv.to_string(),
        expected_ply: Some(ply),
        view: shared.view as i32,
        ..Default::default()
    };
    let t0 = Instant::now();
    table.sent.set(u64::from(ply) + 1, shared.nanos(t0));
    let answer = client
        .submit_move(authed(request, &table.auth[color.index()]))
        .await;
    let t1 = Instant::now();
    let mut stats = shared.stats();
    stats.moves_total += 1;
    match answer {
        Ok(response) => {
            if t0 >= shared.warm_end && t1 <= shared.end {
                stats.moves_measured += 1;
                stats
                    .submit
                    .saturating_record(u64::try_from((t1 - t0).as_nanos()).unwrap_or(u64::MAX));
            }
            let game = response.into_inner().game?;
            if game.status != pb::GameStatus::Ongoing as i32 {
                stats.games_finished += 1;
                return None;
            }
            // The bot knows the position its own legal move leads to; parsing the answer's FEN
            // instead would cost the load generator more than the move itself, on the cores
            // the server shares.
            let mut next = *pos;
            next.play_unchecked(mv);
            Some((next, game.ply))
        }
        // A move event does not say the game ended by repetition or the move rules; the
        // game-over event that follows does, after the opponent may already have moved.
        Err(status)
            if status
                .get_details_error_info()
                .is_some_and(|i| i.reason == "GAME_OVER") =>
        {
            stats.late_moves += 1;
            None
        }
        Err(status) => {
            stats.error(status.code());
            None
        }
    }
}

/// Records a move event's delivery.
fn delivered(shared: &Shared, table: &Table, message: &pb::WatchGameResponse, ply: u32) {
    let now = Instant::now();
    if now < shared.warm_end || now > shared.end {
        return;
    }
    let server_lag = message
        .server_time
        .and_then(|t| SystemTime::try_from(t).ok())
        .and_then(|t| SystemTime::now().duration_since(t).ok());
    let mut stats = shared.stats();
    if let Some(sent) = table.sent.get(u64::from(ply)) {
        stats.deliveries_measured += 1;
        stats
            .delivery
            .saturating_record(shared.nanos(now).saturating_sub(sent));
    }
    if let Some(lag) = server_lag {
        stats
            .server_delivery
            .saturating_record(u64::try_from(lag.as_micros()).unwrap_or(u64::MAX));
    }
}

/// Opens a watch from the start of the game.
async fn open_watch(
    client: &mut Client,
    table: &Table,
) -> Option<tonic::Streaming<pb::WatchGameResponse>> {
    let mut request = Request::new(pb::WatchGameRequest {
        game_id: table.id.clone(),
        after_seq: 0,
    });
    request.set_timeout(Duration::from_secs(24 * 3600));
    timeout(CALL_TIMEOUT, client.watch_game(request))
        .await
        .ok()?
        .ok()
        .map(tonic::Response::into_inner)
}

/// A spectator: counts its deliveries until the game ends.
async fn watcher(
    shared: Arc<Shared>,
    mut client: Client,
    table: Arc<Table>,
    ready: mpsc::Sender<()>,
) {
    let Some(mut stream) = open_watch(&mut client, &table).await else {
        shared.stats().stream_failures += 1;
        return;
    };
    // The receiver may have given up waiting; the stream is open either way.
    let _ = ready.try_send(());
    drop(ready);
    let hard_end = shared.end + CALL_TIMEOUT * 2;
    loop {
        match timeout_at(hard_end.into(), stream.message()).await {
            Ok(Ok(Some(message))) => match &message.event {
                Some(Event::MovePlayed(m)) => {
                    let ply = m.r#move.as_ref().map_or(0, |m| m.ply);
                    delivered(&shared, &table, &message, ply);
                }
                Some(Event::GameOver(_)) => return,
                _ => {}
            },
            Ok(Ok(None)) => return,
            _ => {
                shared.stats().stream_failures += 1;
                return;
            }
        }
    }
}

/// A bot that learns whose turn it is from its WatchGame stream.
async fn watching_bot(shared: Arc<Shared>, mut client: Client, table: Arc<Table>, color: Color) {
    let mut rng = Rng::seeded();
    let Some(mut stream) = open_watch(&mut client, &table).await else {
        shared.stats().stream_failures += 1;
        return;
    };
    let hard_end = shared.end + CALL_TIMEOUT * 2;
    loop {
        let message = match timeout_at(hard_end.into(), stream.message()).await {
            Ok(Ok(Some(message))) => message,
            Ok(Ok(None)) => return,
            _ => {
                shared.stats().stream_failures += 1;
                return;
            }
        };
        let (fen, ply) = match &message.event {
            Some(Event::Snapshot(game)) if game.status == pb::GameStatus::Ongoing as i32 => {
                (game.fen.as_str(), game.ply)
            }
            Some(Event::MovePlayed(m)) => (m.fen.as_str(), m.r#move.as_ref().map_or(0, |m| m.ply)),
            Some(Event::GameOver(_) | Event::Snapshot(_)) => return,
            _ => continue,
        };
        let Ok(pos) = Position::from_fen(shared.variant, fen) else {
            return;
        };
        if pos.turn() != color {
            continue;
        }
        // Without watchers, the bot waiting for the move is the one delivery that counts.
        if shared.bots_record && matches!(message.event, Some(Event::MovePlayed(_))) {
            delivered(&shared, &table, &message, ply);
        }
        if submit(&shared, &mut client, &table, color, &pos, ply, &mut rng)
            .await
            .is_none()
            && !shared.playing()
        {
            return;
        }
    }
}

/// A bot that gets the position from its opponent in-process and hands its own move back.
async fn handoff_bot(
    shared: Arc<Shared>,
    mut client: Client,
    table: Arc<Table>,
    color: Color,
    mut my_turn: mpsc::Receiver<(Position, u32)>,
    their_turn: mpsc::Sender<(Position, u32)>,
) {
    let mut rng = Rng::seeded();
    while let Some((pos, ply)) = my_turn.recv().await {
        let Some(next) = submit(&shared, &mut client, &table, color, &pos, ply, &mut rng).await
        else {
            return;
        };
        if their_turn.send(next).await.is_err() {
            return;
        }
    }
}

/// Creates `--idle-games` games nobody plays and reports the server's memory growth per game.
async fn idle_phase(
    args: &BenchArgs,
    addrs: &[SocketAddr],
    server: ServerProc,
    out: &mut impl Write,
) -> Result<(), BenchError> {
    let channels = connect_all(addrs, args.connections).await?;
    let before = server.rss();
    let started = Instant::now();
    let per_task = args.idle_games.div_ceil(IDLE_CREATORS);
    let mut creators = JoinSet::new();
    for i in 0..IDLE_CREATORS {
        let count = per_task.min(args.idle_games.saturating_sub(i * per_task));
        let mut client = GameServiceClient::new(channels[i % channels.len()].clone());
        let variant = args.variant;
        creators.spawn(async move {
            let (mut made, mut failed) = (0usize, 0usize);
            for _ in 0..count {
                let request = pb::CreateGameRequest {
                    variant: match variant {
                        Variant::Chess => pb::Variant::Chess as i32,
                        Variant::RacingKings => pb::Variant::RacingKings as i32,
                        // The API has no value for the other variants yet.
                        _ => pb::Variant::Unspecified as i32,
                    },
                    white_player: "idle-w".into(),
                    black_player: "idle-b".into(),
                    ..Default::default()
                };
                match timeout(CALL_TIMEOUT, client.create_game(request)).await {
                    Ok(Ok(_)) => made += 1,
                    _ => {
                        failed += 1;
                        // A full server refuses every further game: stop early.
                        if failed > 10 {
                            break;
                        }
                    }
                }
            }
            (made, failed)
        });
    }
    let (mut made, mut failed) = (0usize, 0usize);
    while let Some(done) = creators.join_next().await {
        if let Ok((m, f)) = done {
            made += m;
            failed += f;
        }
    }
    let took = started.elapsed();
    // Let the allocator and the kernel settle before reading.
    sleep(Duration::from_millis(200)).await;
    let after = server.rss();
    let line = match (before, after) {
        (Some((b, _)), Some((a, _))) if made > 0 => {
            let per_game = a.saturating_sub(b) as f64 / made as f64;
            format!(
                "idle games: {made} created in {:.1} s ({failed} refused); server RSS {:.1} -> {:.1} MiB = {per_game:.0} bytes per idle game\nRESULT idle games={made} rss_before={b} rss_after={a} bytes_per_game={per_game:.0}",
                took.as_secs_f64(),
                b as f64 / 1048576.0,
                a as f64 / 1048576.0,
            )
        }
        _ => format!(
            "idle games: {made} created ({failed} refused); server memory not readable (pass --server-pid with --addr)"
        ),
    };
    writeln!(out, "{line}").map_err(|e| fail("output", e))?;
    out.flush().map_err(|e| fail("output", e))
}
