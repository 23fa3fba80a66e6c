//! The command line. Every setting but the game and its seat token can also come from the
//! `--config` file under the same name (`--move-overhead` is `move-overhead = "100ms"`);
//! a flag given on the command line wins over the file.
//!
//! Two modes: `--game` with `--token` plays one game; `--player-token` plays every game the
//! player is seated in, at most `--max-games` at once.

use std::path::PathBuf;

use clap::Parser;

use crate::book::BookChoice;

/// Log line format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

/// `chessd-bot`: plays a UCI engine on a chessd server.
#[derive(Parser, Debug, Clone, Default)]
#[command(
    name = "chessd-bot",
    version,
    about = "Plays a UCI chess engine on a chessd server",
    long_about = "Plays a UCI chess engine (Stockfish, Fairy-Stockfish, your own) in chessd \
                  games: it watches a game, asks the engine for a move whenever the bot's \
                  side is to move, and submits it. With a player token it plays every game \
                  the player is seated in, one engine per game.\n\nExamples:\n  chessd-bot \
                  --addr http://127.0.0.1:50051 --engine /usr/games/stockfish --game ID \
                  --token TOKEN\n  chessd-bot --addr https://chess.example --engine \
                  ./my-engine --player-token TOKEN --max-games 4"
)]
pub struct Cli {
    /// The server: http://HOST:PORT, or https://HOST:PORT for TLS (default:
    /// http://127.0.0.1:50051).
    #[arg(long, env = "CHESSD_ADDR")]
    pub addr: Option<String>,

    /// One game: the game to play (CreateGame's game_id); needs --token.
    #[arg(long)]
    pub game: Option<String>,

    /// One game: the seat token CreateGame returned for the side to play (better passed in
    /// the environment, CHESSD_TOKEN, than on a command line others can list).
    #[arg(long, env = "CHESSD_TOKEN", hide_env_values = true)]
    pub token: Option<String>,

    /// Player mode: a player token (IssuePlayerToken's `chp_...`): the bot plays every game
    /// the player is seated in, running ones first (better passed in the environment,
    /// CHESSD_PLAYER_TOKEN).
    #[arg(long, env = "CHESSD_PLAYER_TOKEN", hide_env_values = true)]
    pub player_token: Option<String>,

    /// Player mode: the most games played at once, each with its own engine process; more
    /// games wait for a free slot (default: 1).
    #[arg(long)]
    pub max_games: Option<u32>,

    /// A TOML file with any of these settings, plus per-variant engines
    /// (`[variants.racingkings]`); see docs/bots.md.
    #[arg(long)]
    pub config: Option<PathBuf>,

    /// The engine's executable (a path, or a name looked up in PATH).
    #[arg(long)]
    pub engine: Option<PathBuf>,

    /// An argument for the engine's command line (repeatable).
    #[arg(long = "engine-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub engine_args: Vec<String>,

    /// An engine option, NAME=VALUE (repeatable; checked against the options the engine
    /// offers). A button is NAME= (no value).
    #[arg(long = "engine-option", value_name = "NAME=VALUE")]
    pub engine_options: Vec<String>,

    /// Time kept back from the engine on every move for the network and the bot's own work
    /// (default: 100ms).
    #[arg(long)]
    pub move_overhead: Option<String>,

    /// Let the engine think on the opponent's time (when it offers the Ponder option).
    #[arg(long)]
    pub ponder: bool,

    /// A polyglot opening book (.bin), used for standard chess.
    #[arg(long)]
    pub book: Option<PathBuf>,

    /// How a book move is picked (default: weighted).
    #[arg(long, value_enum)]
    pub book_choice: Option<BookChoice>,

    /// Leave the book after this many plies of the game (default: while it has moves).
    #[arg(long)]
    pub book_depth: Option<u32>,

    /// Search at most this many plies deep (with the clock, whichever ends first).
    #[arg(long)]
    pub depth: Option<u32>,

    /// Search at most this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,

    /// Think at most this long per move (e.g. 500ms).
    #[arg(long)]
    pub movetime: Option<String>,

    /// Think time per move in untimed games, when --movetime is not given (default: 5s).
    #[arg(long)]
    pub untimed_movetime: Option<String>,

    /// Resign when the engine's score (centipawns, the bot's side) is at or below this for
    /// --resign-moves moves in a row (e.g. -1000) (default: never).
    #[arg(long, allow_hyphen_values = true)]
    pub resign_score: Option<i32>,

    /// How many own moves in a row the resign score must hold (default: 3).
    #[arg(long)]
    pub resign_moves: Option<u32>,

    /// A draw is welcome (accept offers, claim repetitions and the fifty-move rule) when the
    /// score is at or below this for --draw-moves moves in a row; `off` never draws (default:
    /// 0).
    #[arg(long, allow_hyphen_values = true)]
    pub draw_score: Option<String>,

    /// How many own moves in a row the draw score must hold (default: 3).
    #[arg(long)]
    pub draw_moves: Option<u32>,

    /// Also offer draws, when the score stays within ±--draw-score for --draw-moves moves.
    #[arg(long)]
    pub offer_draw: bool,

    /// Trust this CA (PEM) for the server's certificate, instead of the system's roots.
    #[arg(long)]
    pub tls_ca: Option<PathBuf>,

    /// The name the server's certificate must carry (default: the --addr host).
    #[arg(long)]
    pub tls_domain: Option<String>,

    /// Mutual TLS: present this client certificate chain (PEM); needs --tls-key.
    #[arg(long)]
    pub tls_cert: Option<PathBuf>,

    /// Mutual TLS: the private key (PEM) of --tls-cert.
    #[arg(long)]
    pub tls_key: Option<PathBuf>,

    /// Send this API key as `x-api-key` on every call, for servers that ask for one (better
    /// passed in the environment, CHESSD_API_KEY).
    #[arg(long, env = "CHESSD_API_KEY", hide_env_values = true)]
    pub api_key: Option<String>,

    /// Log format, text or json (the level comes from RUST_LOG, default info).
    #[arg(long, value_enum)]
    pub log_format: Option<LogFormat>,
}
