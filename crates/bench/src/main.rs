//! The `chessd-bench` binary: parses the command line, sets up logging (warnings on stderr;
//! the report alone goes to stdout), and runs the mode on a multi-threaded runtime.
//!
//! Argument errors are one line on stderr with exit code 2; a bench that cannot run says why
//! on stderr with exit code 1.

use std::process::ExitCode;

use chessd_bench::error::BenchError;
use chessd_bench::flags::{Cli, Command, EchoCommand, parse_or_exit};
use chessd_bench::{echo, load, stores};
use tracing_subscriber::EnvFilter;

fn main() -> ExitCode {
    let cli: Cli = match parse_or_exit("chessd-bench") {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    let threads = match &cli.command {
        Some(Command::Echo(EchoCommand::Serve(args))) => args.threads,
        _ => None,
    };
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    if let Some(n) = threads {
        builder.worker_threads(usize::from(n));
    }
    let runtime = match builder.enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("chessd-bench: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result: Result<(), BenchError> = runtime.block_on(async {
        match &cli.command {
            None => load::run(&cli.play, &mut out).await,
            Some(Command::Play(args)) => load::run(args, &mut out).await,
            Some(Command::Stores(args)) => stores::run(args, &mut out).await,
            Some(Command::Echo(EchoCommand::Serve(args))) => {
                echo::server::run(args, &mut out).await
            }
            Some(Command::Echo(EchoCommand::LoadUnary(args))) => {
                echo::unary::run(args, &mut out).await
            }
            Some(Command::Echo(EchoCommand::LoadFanout(args))) => {
                echo::fanout::run(args, &mut out).await
            }
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chessd-bench: {e}");
            ExitCode::FAILURE
        }
    }
}
