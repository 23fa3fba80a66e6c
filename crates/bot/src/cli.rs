//! The command line and the `--config` file's keys, each setting declared once (see
//! `declare`): its flag, its file key under the same name (`--move-overhead` is
//! `move-overhead = "100ms"`) and its chosen value, a flag given on the command line winning
//! over the file. Every setting but the game and its seat token can come from either.
//!
//! Two modes: `--game` with `--token` plays one game; `--player-token` plays every game the
//! player is seated in, at most `--max-games` at once.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Parser;
use serde::Deserialize;

use crate::book::BookChoice;
use crate::config::file::{
    DEFAULT_ADDR, DEFAULT_DRAW_MOVES, DEFAULT_RESIGN_MOVES, DrawScore, EngineFile, file_path,
};
use crate::declare::settings;
use crate::uci::Protocol;

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

settings! {
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
    pub struct Cli;

    /// The `--config` file: the keys declared below, and the engines as the file describes
    /// them.
    #[derive(Deserialize, Debug, Default, Clone, PartialEq)]
    #[serde(rename_all = "kebab-case", deny_unknown_fields)]
    struct FileConfig {
        #[serde(flatten)]
        pub(crate) engine: EngineFile,
        pub(crate) draw_score: Option<DrawScore>,
        #[serde(default)]
        pub(crate) variants: BTreeMap<String, EngineFile>,
    }

    entries {
        /// The server: http://HOST:PORT, or https://HOST:PORT for TLS (default:
        /// http://127.0.0.1:50051).
        #[arg(long, env = "CHESSD_ADDR")]
        set addr: String = DEFAULT_ADDR.to_owned(),

        /// One game: the game to play (CreateGame's game_id); needs --token.
        #[arg(long)]
        cli game: Option<String>,

        /// One game: the seat token CreateGame returned for the side to play (better passed in
        /// the environment, CHESSD_TOKEN, than on a command line others can list).
        #[arg(long, env = "CHESSD_TOKEN", hide_env_values = true)]
        cli token: Option<String>,

        /// Player mode: a player token (IssuePlayerToken's `chp_...`): the bot plays every game
        /// the player is seated in, running ones first (better passed in the environment,
        /// CHESSD_PLAYER_TOKEN).
        #[arg(long, env = "CHESSD_PLAYER_TOKEN", hide_env_values = true)]
        both player_token: String,

        /// Player mode: the most games played at once, each with its own engine process; more
        /// games wait for a free slot (default: 1).
        #[arg(long)]
        both max_games: u32,

        /// A TOML file with any of these settings, plus per-variant engines
        /// (`[variants.racingkings]`); see docs/bots.md.
        #[arg(long)]
        cli config: Option<PathBuf>,

        /// The engine's executable (a path, or a name looked up in PATH).
        #[arg(long)]
        cli engine: Option<PathBuf>,

        /// The engine's protocol: uci, or usi for a shogi engine (shogi and minishogi only)
        /// (default: uci).
        #[arg(long, value_enum)]
        cli protocol: Option<Protocol>,

        /// An argument for the engine's command line (repeatable).
        #[arg(long = "engine-arg", value_name = "ARG", allow_hyphen_values = true)]
        cli engine_args: Vec<String>,

        /// An engine option, NAME=VALUE (repeatable; checked against the options the engine
        /// offers). A button is NAME= (no value).
        #[arg(long = "engine-option", value_name = "NAME=VALUE")]
        cli engine_options: Vec<String>,

        /// Time kept back from the engine on every move for the network and the bot's own work
        /// (default: 100ms).
        #[arg(long)]
        set move_overhead: String,

        /// Let the engine think on the opponent's time (when it offers the Ponder option).
        #[arg(long)]
        switch ponder,

        /// A polyglot opening book (.bin), used for standard chess.
        #[arg(long)]
        path book => file_path,

        /// A Fairy-Stockfish variants file, loaded (its VariantPath option) into an engine whose
        /// UCI_Variant list lacks the game (default: the bot's own, for bkhorde and massacre).
        #[arg(long)]
        path variants_file => file_path,

        /// How a book move is picked (default: weighted).
        #[arg(long, value_enum)]
        set book_choice: BookChoice = BookChoice::default(),

        /// Leave the book after this many plies of the game (default: while it has moves).
        #[arg(long)]
        set book_depth: u32,

        /// Search at most this many plies deep (with the clock, whichever ends first).
        #[arg(long)]
        set depth: u32,

        /// Search at most this many nodes.
        #[arg(long)]
        set nodes: u64,

        /// Think at most this long per move (e.g. 500ms).
        #[arg(long)]
        set movetime: String,

        /// Think time per move in untimed games, when --movetime is not given (default: 5s).
        #[arg(long)]
        set untimed_movetime: String,

        /// Resign when the engine's score (centipawns, the bot's side) is at or below this for
        /// --resign-moves moves in a row (e.g. -1000) (default: never).
        #[arg(long, allow_hyphen_values = true)]
        set resign_score: i32,

        /// How many own moves in a row the resign score must hold (default: 3).
        #[arg(long)]
        set resign_moves: u32 = DEFAULT_RESIGN_MOVES,

        /// A draw is welcome (accept offers, claim repetitions and the fifty-move rule) when the
        /// score is at or below this for --draw-moves moves in a row; `off` never draws (default:
        /// 0).
        #[arg(long, allow_hyphen_values = true)]
        cli draw_score: Option<String>,

        /// How many own moves in a row the draw score must hold (default: 3).
        #[arg(long)]
        set draw_moves: u32 = DEFAULT_DRAW_MOVES,

        /// Also offer draws, when the score stays within ±--draw-score for --draw-moves moves.
        #[arg(long)]
        switch offer_draw,

        /// Trust this CA (PEM) for the server's certificate, instead of the system's roots.
        #[arg(long)]
        path tls_ca => file_path,

        /// The name the server's certificate must carry (default: the --addr host).
        #[arg(long)]
        set tls_domain: String,

        /// Mutual TLS: present this client certificate chain (PEM); needs --tls-key.
        #[arg(long)]
        path tls_cert => file_path,

        /// Mutual TLS: the private key (PEM) of --tls-cert.
        #[arg(long)]
        path tls_key => file_path,

        /// Send this API key as `x-api-key` on every call, for servers that ask for one (better
        /// passed in the environment, CHESSD_API_KEY).
        #[arg(long, env = "CHESSD_API_KEY", hide_env_values = true)]
        set api_key: String,

        /// Log format, text or json (the level comes from RUST_LOG, default info).
        #[arg(long, value_enum)]
        set log_format: LogFormat = LogFormat::default(),
    }
}
