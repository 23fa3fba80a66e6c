//! The `chessd` binary: parses the command line and hands over to the library.
//!
//! `chessd perft ...` counts move trees; argument errors are one line on stderr with exit code 2.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use chessd::perft_cmd::PerftRequest;

#[derive(Parser)]
#[command(
    name = "chessd",
    version,
    about = "gRPC game-state service for chess and Racing Kings"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the legal-move tree of a position to a depth (perft).
    Perft {
        /// chess or racingkings
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
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("invalid arguments");
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
        None => usage_error("a subcommand is required (perft)"),
    }
}
