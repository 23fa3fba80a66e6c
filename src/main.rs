//! The `chessd` binary: parses the command line and hands over to the library.
//!
//! - `chessd serve [flags]` (or `chessd [flags]`): sets up logging (and, with
//!   `--otlp-endpoint`, the trace exporter), binds the listener and runs the server until
//!   Ctrl-C or SIGTERM, then flushes the traces (bounded); exit code 0 after the grace and a
//!   graceful drain, 1 if a second signal cut them short.
//! - `chessd perft ...` counts move trees.
//!
//! Argument errors are one line on stderr with exit code 2.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tracing::Dispatch;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::format::JsonFields;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{Layer, fmt};

use chessd::config::{LogFormat, ServeArgs};
use chessd::perft_cmd::PerftRequest;
use chessd::play_cmd::PlayArgs;
use chessd::telemetry::{Telemetry, TraceIds};

/// mimalloc rather than glibc malloc: a gRPC call makes dozens of small allocations that die
/// within the call (headers, frames, strings), which mimalloc's per-thread free lists serve
/// faster. Measured in the README's Performance section, beside the same build on glibc
/// (`--no-default-features`).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "chessd",
    version,
    about = "gRPC game-state service for chess and its variants",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Without a subcommand, chessd serves with these flags.
    #[command(flatten)]
    serve: ServeArgs,
}

// Parsed once at start: the size of the largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Serve the gRPC API (the default when no subcommand is given).
    Serve(ServeArgs),
    /// Play the computer: start chessd if none runs, create a game, print the seat link to
    /// open in a browser, and play the other side with a local engine (Stockfish).
    Play(PlayArgs),
    /// A UCI engine that plays a random legal move in every variant chessd plays (on stdin
    /// and stdout): `chessd play`'s opponent where no installed engine plays the game.
    RandomEngine,
    /// Count the legal-move tree of a position to a depth (perft).
    Perft {
        /// chess, racingkings, chess960, threecheck, kingofthehill, antichess, atomic, horde
        /// or crazyhouse (lichess and UCI_Variant names are understood too)
        #[arg(long, default_value = "chess")]
        variant: String,
        /// Plies to search.
        #[arg(long)]
        depth: String,
        /// Start from this FEN instead of the variant's start position.
        #[arg(long)]
        fen: Option<String>,
        /// Print `<uci>: <count>` for each legal move before the total.
        #[arg(long)]
        divide: bool,
        /// Also print `nodes=N secs=S mnps=M` on stderr (stdout stays the counts alone).
        #[arg(long)]
        time: bool,
    },
}

/// Prints a one-line error and returns the usage exit code.
fn usage_error(message: &str) -> ExitCode {
    eprintln!("chessd: {message}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version: clap prints them to stdout, exit 0.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // The first paragraph: one line, or a line ending in ':' and what it lists (the
            // missing required flags), without the usage and help lines after it.
            let text = e.to_string();
            let first: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|l| !l.is_empty())
                .collect();
            let first = if first.is_empty() {
                "invalid arguments".to_owned()
            } else {
                first.join(" ")
            };
            return usage_error(first.trim_start_matches("error: "));
        }
    };
    match cli.command {
        Some(Command::Perft {
            variant,
            depth,
            fen,
            divide,
            time,
        }) => {
            let request = match PerftRequest::parse(&variant, &depth, fen.as_deref(), divide) {
                Ok(r) => r,
                Err(e) => return usage_error(&e),
            };
            let stdout = std::io::stdout();
            let started = std::time::Instant::now();
            match request.run(&mut stdout.lock()) {
                Ok(nodes) => {
                    if time {
                        let secs = started.elapsed().as_secs_f64();
                        eprintln!(
                            "nodes={nodes} secs={secs:.4} mnps={:.1}",
                            nodes as f64 / secs / 1e6
                        );
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("chessd: writing output: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Serve(args)) => serve(&args),
        Some(Command::Play(args)) => play(args),
        Some(Command::RandomEngine) => {
            match chessd::random_engine::run(std::io::stdin().lock(), std::io::stdout().lock()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("chessd random-engine: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        None => serve(&cli.serve),
    }
}

/// Logs to stdout, at the level RUST_LOG sets (default `info`), as text or JSON lines; with
/// `telemetry`, also exports traces, and JSON lines inside a traced call name its trace.
fn init_tracing(format: LogFormat, telemetry: Option<&Telemetry>) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // Colours only for a person at a terminal, never into log files or collectors.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stdout());
    let Some(telemetry) = telemetry else {
        // Traces off: the log alone, one filter for the whole subscriber.
        let builder = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_ansi(ansi);
        match format {
            LogFormat::Text => builder.fmt_fields(chessd::logfields::LeanFields).init(),
            LogFormat::Json => builder
                .json()
                .with_current_span(true)
                .with_span_list(false)
                .init(),
        }
        return;
    };
    // Each layer filters for itself: RUST_LOG says what is logged, not what is traced.
    let registry = tracing_subscriber::registry().with(telemetry.layer());
    let log = fmt::layer().with_ansi(ansi);
    let dispatch = match format {
        LogFormat::Text => Dispatch::new(
            registry.with(
                log.fmt_fields(chessd::logfields::LeanFields)
                    .with_filter(filter),
            ),
        ),
        LogFormat::Json => {
            let lines = TraceIds::new(
                fmt::format()
                    .json()
                    .with_current_span(true)
                    .with_span_list(false),
            );
            let dispatch = Dispatch::new(
                registry.with(
                    log.fmt_fields(JsonFields::new())
                        .event_format(lines.clone())
                        .with_filter(filter),
                ),
            );
            lines.attach(&dispatch);
            dispatch
        }
    };
    dispatch.init();
}

/// The multi-threaded tokio runtime `serve` runs on; failure is reported here.
fn runtime() -> Result<tokio::runtime::Runtime, ExitCode> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| {
            eprintln!("chessd: cannot start the async runtime: {e}");
            ExitCode::FAILURE
        })
}

/// `chessd play`: quiet logs (warnings and errors, unless RUST_LOG says otherwise), so the
/// seat link stands out; exit code 1 with the reason when it cannot play.
fn play(args: PlayArgs) -> ExitCode {
    let runtime = match runtime() {
        Ok(rt) => rt,
        Err(code) => return code,
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn"));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stdout());
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(ansi)
        .init();
    // The signal is made inside the runtime, so it listens from the start of play.
    match runtime.block_on(async { chessd::play_cmd::run(args, chessd::shutdown::signal()).await })
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chessd play: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the server until a shutdown signal; exit code 0 after a graceful drain.
fn serve(args: &ServeArgs) -> ExitCode {
    let runtime = match runtime() {
        Ok(rt) => rt,
        Err(code) => return code,
    };
    let telemetry = match args.telemetry() {
        None => None,
        Some(config) => {
            // The exporter's channel runs on the serving runtime.
            let _in_runtime = runtime.enter();
            match Telemetry::start(&config) {
                Ok(telemetry) => Some(telemetry),
                Err(e) => {
                    init_tracing(args.log_format, None);
                    tracing::error!(error = %e, "cannot export traces");
                    return ExitCode::FAILURE;
                }
            }
        }
    };
    init_tracing(args.log_format, telemetry.as_ref());
    if let Some(telemetry) = &telemetry {
        tracing::info!(endpoint = telemetry.endpoint(), "exporting traces");
    }
    let code = runtime.block_on(serving(args));
    // On this thread while the runtime, which carries the exporter's channel, still runs.
    if let Some(telemetry) = telemetry {
        telemetry.shutdown();
    }
    code
}

/// Binds, serves until a shutdown signal and drains.
async fn serving(args: &ServeArgs) -> ExitCode {
    let listener = match tokio::net::TcpListener::bind(args.listen).await {
        Ok(l) => l,
        Err(e) => {
            tracing::error!(listen = %args.listen, error = %e, "cannot listen");
            return ExitCode::FAILURE;
        }
    };
    if let Some(addr) = args.metrics_listen {
        let handle = match chessd::metrics::install() {
            Ok(h) => h,
            Err(e) => {
                tracing::error!(error = %e, "cannot turn metrics on");
                return ExitCode::FAILURE;
            }
        };
        let listener = match tokio::net::TcpListener::bind(addr).await {
            Ok(l) => l,
            Err(e) => {
                tracing::error!(metrics_listen = %addr, error = %e, "cannot listen for metrics");
                return ExitCode::FAILURE;
            }
        };
        // The endpoint lives as long as the runtime: scrapes still work while draining.
        tokio::spawn(chessd::metrics::serve(
            listener,
            handle,
            std::future::pending(),
        ));
    }
    // Listening from here: a signal that comes while the store loads or the first calls are
    // answered drains the server like any other.
    let first_signal = chessd::shutdown::signal();
    let shutdown = async {
        first_signal.await;
        // A second signal stops at once, for whoever will not wait out the grace and the
        // drain (acknowledged moves are already durable, as after a crash).
        tokio::spawn(async {
            chessd::shutdown::signal().await;
            tracing::warn!("second signal: exiting without draining");
            std::process::exit(1);
        });
    };
    match chessd::run(listener, args.server_config(), shutdown).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = %e, "server failed");
            ExitCode::FAILURE
        }
    }
}
