//! `chessd play`: a newcomer plays the computer in one command. It uses the chessd that
//! answers at `--listen`, or starts one there (games in memory, this machine only), creates an
//! untimed game, prints the seat link to open in a browser, and plays the other seat with a
//! local UCI engine through chessd-bot's runner (Stockfish, or Fairy-Stockfish for the
//! variants; `--engine` names another; `chessd random-engine`, a random mover, where none is
//! installed for the game). A server it started keeps serving the page after
//! the game, until Ctrl-C.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use chessd_bot::play::{PlayRequest, Side};
use tokio::net::{TcpListener, TcpStream};

use crate::config::ServerConfig;
use crate::units::duration;

/// `chessd play`'s flags.
#[derive(clap::Args, Debug, Clone)]
pub struct PlayArgs {
    /// The game, by its key: chess, chess960, crazyhouse, antichess, atomic, horde,
    /// kingofthehill, racingkings, threecheck, or one of the wide family's (losalamos, janus,
    /// embassy, capablanca, caparandom, grand, corner, fortress, bkhorde, extinction,
    /// massacre, maharajah, amazon, knightmate, berolina, legan, loop, cylinder, knightrelay,
    /// cheshirecat).
    #[arg(long, default_value = "chess")]
    pub variant: String,
    /// Your side: white, black or random.
    #[arg(long, value_enum, default_value = "white")]
    pub side: Side,
    /// The UCI engine to play against (default: stockfish for chess and chess960,
    /// fairy-stockfish for the other games, from PATH or /usr/games; `chessd random-engine`
    /// where neither plays the game).
    #[arg(long)]
    pub engine: Option<PathBuf>,
    /// How long the engine thinks per move (e.g. 500ms, 2s).
    #[arg(long, default_value = "1s", value_parser = duration)]
    pub movetime: Duration,
    /// The chessd to play on, or where to start one (loopback).
    #[arg(long, default_value = crate::config::DEFAULT_LISTEN)]
    pub listen: SocketAddr,
}

/// Plays one game as [the module](self) says; `Err` is the message to print.
pub async fn run(
    args: PlayArgs,
    stop: impl Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    let url = format!("http://{}", args.listen);
    let running = tokio::time::timeout(Duration::from_secs(1), TcpStream::connect(args.listen))
        .await
        .is_ok_and(|c| c.is_ok());
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        stop.await;
        let _ = stop_tx.send(true);
    });
    let stopped = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        // An error means the sender is gone: nothing will stop us but the end.
        let _ = rx.wait_for(|s| *s).await;
    };
    let server = if running {
        println!("Using the chessd at {url}.");
        None
    } else {
        let listener = TcpListener::bind(args.listen)
            .await
            .map_err(|e| format!("--listen {}: {e}", args.listen))?;
        let config = ServerConfig {
            // Nothing balances this server: it stops at once.
            shutdown_grace: Duration::ZERO,
            ..ServerConfig::default()
        };
        let until = stopped(stop_rx.clone());
        println!("Started chessd at {url} (games in memory).");
        Some(tokio::spawn(crate::run(listener, config, until)))
    };
    let request = PlayRequest {
        addr: url.clone(),
        variant: args.variant.clone(),
        side: args.side,
        engine: args.engine.clone(),
        // This very binary, as a UCI random mover, where no engine plays the variant.
        fallback: std::env::current_exe()
            .ok()
            .map(|exe| (exe, vec!["random-engine".to_owned()])),
        movetime: args.movetime,
    };
    let prepared = chessd_bot::play::prepare(&request)
        .await
        .map_err(|e| e.to_string())?;
    let side = if prepared.white { "White" } else { "Black" };
    println!(
        "\nYou play {side}. Open this link in a browser:\n\n  {}\n",
        prepared.link
    );
    let outcome = tokio::select! {
        end = prepared.play() => Some(end),
        () = stopped(stop_rx.clone()) => None,
    };
    match outcome {
        Some(Ok(end)) => println!(
            "Game over: {} ({}).",
            end.result,
            end.termination
                .trim_start_matches("TERMINATION_")
                .to_lowercase()
                .replace('_', " ")
        ),
        Some(Err(e)) => return Err(e.to_string()),
        None => println!("Stopped; the game is left as it is."),
    }
    if let Some(server) = server {
        if !*stop_rx.borrow() {
            println!("chessd keeps serving {url} (the page, the game) until Ctrl-C.");
        }
        match server.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(e.to_string()),
            Err(e) => return Err(format!("the server stopped: {e}")),
        }
    }
    Ok(())
}
