//! chessd-bot: the bridge between a chessd server and a UCI chess engine.
//!
//! It is a client of the public API only (`proto/chessd/v1`, generated once in `chessd-proto`):
//! it watches a game, asks the engine for a move whenever its seat is to move, and submits it,
//! with the clock, draw, resign and recovery logic a bot author expects. With a player token
//! it plays every game of the player.
//!
//! Layout, from the edges in:
//! - `cli` and `config`: the flags and the `--config` TOML file, checked into [`config::Settings`];
//!   `declare`: the macro that declares each setting once for both.
//! - `client`: the connection (TLS, API key, seat and player tokens) and what a failed call
//!   means; `actions`: the player's calls (its seat, move, resign, draw answers and claims)
//!   with their retries.
//! - `watch`: the WatchGame stream, resumed after every break; `game`: the game state it
//!   builds.
//! - `uci`: the engine process and its protocol; `clock`: `go` from the server's clocks and
//!   the deadlines of a search; `judge`: resign and draw decisions by score; `book`: polyglot
//!   opening books; `variant`: what each game asks of the engine; `variants_file`: the
//!   Fairy-Stockfish definitions of games it lacks, loaded with `VariantPath`.
//! - `board` and `fen`: the little chess vocabulary the bot reads (the server is the rules
//!   authority; the bot never decides legality).
//! - `entropy`: the seat's secret and commitment in a game with the players' entropy.
//! - `runner`: one game, one seat, one engine, to the end. [`run_single`] runs it for
//!   `--game`.
//! - `play`: a person against a local engine (`chessd play`): the game created, the seat
//!   link for the person, the engine on the other seat.
//! - `player`: player mode, [`run_player`]: the player's feed of games (WatchGames with the
//!   player token), one runner and one engine per game, at most `--max-games` at once.

#![forbid(unsafe_code)]

pub mod actions;
pub mod board;
pub mod book;
pub mod cli;
pub mod client;
pub mod clock;
pub mod config;
mod declare;
pub mod entropy;
pub mod fen;
pub mod game;
pub mod judge;
pub mod play;
pub mod player;
pub mod runner;
pub mod setup;
pub mod uci;
pub mod variant;
pub mod variants_file;
pub mod watch;

/// The `chessd.v1` protobuf types and the client (`proto::game_service_client`).
pub use chessd_proto as proto;

use std::future::Future;
use std::sync::Arc;

use client::{Api, Bearer, ConnectError, Seat};
use config::Settings;
use player::{FeedError, PlayerEnd};
use runner::{GameEnd, GameError};

/// Why the bot stopped.
#[derive(Debug)]
pub enum RunError {
    Connect(ConnectError),
    Game(GameError),
    Feed(FeedError),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Connect(e) => write!(f, "{e}"),
            RunError::Game(e) => write!(f, "{e}"),
            RunError::Feed(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RunError {}

/// Plays the seat of `token` in game `game_id` until the game ends.
pub async fn run_single(
    settings: &Settings,
    game_id: &str,
    token: &str,
) -> Result<GameEnd, RunError> {
    let api = Api::connect(settings).map_err(RunError::Connect)?;
    let seat = Seat::new(game_id, token).map_err(RunError::Connect)?;
    let span = tracing::info_span!("game", game_id);
    tracing::Instrument::instrument(runner::play(settings, api, seat), span)
        .await
        .map_err(RunError::Game)
}

/// Plays every game of the player whose token is `token`, at most `max_games` at once, until
/// `drain` completes and the games in progress have ended, or the feed fails.
pub async fn run_player(
    settings: &Settings,
    token: &str,
    max_games: usize,
    drain: impl Future<Output = ()>,
) -> Result<PlayerEnd, RunError> {
    let api = Api::connect(settings).map_err(RunError::Connect)?;
    let bearer = Bearer::new(token, "--player-token").map_err(RunError::Connect)?;
    player::run(Arc::new(settings.clone()), api, bearer, max_games, drain)
        .await
        .map_err(RunError::Feed)
}

#[cfg(test)]
pub(crate) mod tempfile {
    //! Files for unit tests, removed when dropped.

    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicU32, Ordering};

    pub struct TempPath(PathBuf);

    impl std::ops::Deref for TempPath {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for TempPath {
        fn drop(&mut self) {
            // Best effort: the OS cleans its temp folder anyway.
            let _ = std::fs::remove_file(&self.0);
        }
    }

    /// A new file holding `bytes`.
    pub fn write(bytes: &[u8]) -> TempPath {
        static N: AtomicU32 = AtomicU32::new(0);
        let name = format!(
            "chessd-bot-test-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(name);
        std::fs::write(&path, bytes).expect("write a temp file");
        TempPath(path)
    }
}
