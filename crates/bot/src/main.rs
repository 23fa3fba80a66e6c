//! The `chessd-bot` binary: parses the command line, sets up logging and plays the game, or
//! the player's games.
//!
//! One game: exit code 0 when the game ended (whatever the result), 1 when the bot could not
//! play it to the end (the reason is the last log line), 2 for a usage error, 130 on Ctrl-C
//! or SIGTERM (the engine is stopped; the game is left as it is).
//!
//! Player mode: the first Ctrl-C or SIGTERM stops taking games and lets the games in
//! progress play to their end, then exits 0; a second one stops the engines at once and
//! exits 130, leaving the games as they are (a bot started again picks them up, the feed
//! listing running games first). 1 when the feed fails (a revoked player token), 2 for a
//! usage error.

use std::process::ExitCode;

use clap::Parser;
use tracing_subscriber::EnvFilter;

use chessd_bot::cli::{Cli, LogFormat};
use chessd_bot::config::{Mode, Settings};

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

/// Ctrl-C and SIGTERM, listened to from the start so that none is lost between two waits.
struct Signals {
    #[cfg(unix)]
    term: Option<tokio::signal::unix::Signal>,
}

impl Signals {
    fn new() -> Signals {
        Signals {
            #[cfg(unix)]
            term: tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok(),
        }
    }

    /// The next Ctrl-C or SIGTERM.
    async fn next(&mut self) {
        #[cfg(unix)]
        if let Some(term) = &mut self.term {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
        let _ = tokio::signal::ctrl_c().await;
    }
}

async fn single(settings: &Settings, game: &str, token: &str) -> ExitCode {
    let mut signals = Signals::new();
    tokio::select! {
        result = chessd_bot::run_single(settings, game, token) => match result {
            Ok(end) => {
                tracing::info!(
                    game_id = %game,
                    result = %end.result,
                    termination = %end.termination,
                    side = end.side.name(),
                    moves_played = end.moves_played,
                    engine_restarts = end.engine_restarts,
                    resumes = end.resumes,
                    "game over"
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                tracing::error!(game_id = %game, error = %e, "stopped");
                ExitCode::FAILURE
            }
        },
        () = signals.next() => {
            tracing::warn!(game_id = %game, "interrupted; the engine is stopped and the game left as it is");
            ExitCode::from(130)
        }
    }
}

async fn player(settings: &Settings, token: &str, max_games: usize) -> ExitCode {
    let mut signals = Signals::new();
    let (first, drain) = tokio::sync::oneshot::channel::<()>();
    let drain = async {
        // A dropped sender never happens before the second signal; either way, drain.
        let _ = drain.await;
    };
    let signalled = async {
        signals.next().await;
        let _ = first.send(());
        signals.next().await;
    };
    tokio::select! {
        result = chessd_bot::run_player(settings, token, max_games, drain) => match result {
            Ok(end) => {
                tracing::info!(
                    games_over = end.games_over,
                    games_stopped = end.games_stopped,
                    "stopped: the games in progress have ended"
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                tracing::error!(error = %e, "stopped");
                ExitCode::FAILURE
            }
        },
        () = signalled => {
            tracing::warn!("interrupted again; the engines are stopped and the games left as they are (a restarted bot picks them up)");
            ExitCode::from(130)
        }
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
        match &settings.mode {
            Mode::Single { game, token } => single(&settings, game, token.expose()).await,
            Mode::Player { token, max_games } => {
                player(&settings, token.expose(), *max_games).await
            }
        }
    })
}
