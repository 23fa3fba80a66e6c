//! The `chessd-bot` binary: parses the command line, sets up logging and plays the game.
//!
//! Exit codes: 0 when the game ended (whatever the result), 1 when the bot could not play
//! it to the end (the reason is the last log line), 2 for a usage error, 130 on Ctrl-C or
//! SIGTERM (the engine is stopped; the game is left as it is).

use std::process::ExitCode;

use clap::Parser;
use tracing_subscriber::EnvFilter;

use chessd_bot::cli::{Cli, LogFormat};
use chessd_bot::config::Settings;

fn init_tracing(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stdout());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(ansi);
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .init(),
    }
}

/// Ctrl-C or SIGTERM.
async fn interrupted() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version: printed to stdout, exit 0.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(2);
        }
    };
    let settings = match Settings::from_cli(&cli) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("chessd-bot: {e}");
            return ExitCode::from(2);
        }
    };
    init_tracing(settings.log_format);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("chessd-bot: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async {
        tokio::select! {
            result = chessd_bot::run_single(&settings, &cli.game, &cli.token) => match result {
                Ok(end) => {
                    tracing::info!(
                        game_id = %cli.game,
                        result = %end.result,
                        termination = %end.termination,
                        side = end.side.map(|s| s.name()),
                        moves_played = end.moves_played,
                        engine_restarts = end.engine_restarts,
                        resumes = end.resumes,
                        "game over"
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    tracing::error!(game_id = %cli.game, error = %e, "stopped");
                    ExitCode::FAILURE
                }
            },
            () = interrupted() => {
                tracing::warn!(game_id = %cli.game, "interrupted; the engine is stopped and the game left as it is");
                ExitCode::from(130)
            }
        }
    })
}
