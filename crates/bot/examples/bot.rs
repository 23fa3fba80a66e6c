//! A chessd bot: plays one seat of one game, a legal move whenever it is its turn.
//!
//! ```sh
//! cargo run --release -p chessd-bot --example bot -- --addr http://127.0.0.1:50051 --game 6H2VNYWZK5VPV --token 545a...
//! ```
//!
//! How it works, and what any bot in any language needs to do the same:
//! - It watches the game (`WatchGame` from seq 0: a snapshot of the game, then every event) and
//!   keeps the position and the seq of the last message it saw.
//! - When the position says its side is to move, it picks a move one ply deep (a move that wins
//!   on the spot, else the most valuable capture, else any move at random, with `chessd_rules`)
//!   and sends it with `expected_ply` and a `request_id`. A retry after a lost answer reuses the
//!   request id, so the server never plays it twice; `expected_ply` makes a stale move fail
//!   (`ABORTED`) instead of landing on the wrong position.
//! - The token says which seat it holds but not which colour that is: the bot learns it from
//!   the first answer (the move is played, or `NOT_YOUR_TURN` says it plays the other side).
//! - When the stream breaks (a dropped connection, a restart, `WATCHER_TOO_SLOW`) it watches
//!   again with `after_seq` set to the last seq it saw: the server replays exactly what it
//!   missed, no gap and no duplicate.
//! - It stops after the game-over event, and gives up after `MAX_FAILURES` failures in a row.

use std::process::ExitCode;
use std::time::Duration;

use chessd_proto::game_service_client::GameServiceClient;
use chessd_proto::{self as pb, watch_game_response::Event};
use chessd_rules::{Color, Move, Position, Rules, Variant};
use clap::Parser;
use tonic::transport::{Channel, Endpoint};
use tonic::{Code, Request, Status};
use tonic_types::StatusExt;

/// Failed calls or broken streams in a row before the bot gives up.
pub const MAX_FAILURES: u32 = 20;
/// How long a move or a watch request may take before it counts as failed.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Parser)]
#[command(about = "Plays one seat of a chessd game")]
struct Args {
    /// The server, e.g. http://127.0.0.1:50051.
    #[arg(long, default_value = "http://127.0.0.1:50051")]
    addr: String,
    /// The game to play.
    #[arg(long)]
    game: String,
    /// The seat token CreateGame returned for this side.
    #[arg(long)]
    token: String,
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    // Errors in words: a `main` returning `Err` would print its Debug form.
    let end = match Endpoint::from_shared(args.addr) {
        Ok(endpoint) => play(endpoint.connect_lazy(), &args.game, &args.token)
            .await
            .map_err(|e| e.to_string()),
        Err(e) => Err(format!("unusable --addr: {e}")),
    };
    match end {
        Ok(end) => {
            let played = match end.side {
                Some(side) => format!("I played {side}, {} moves", end.moves_played),
                None => "I made no move".to_owned(),
            };
            println!("game over: {} ({}), {played}", end.result, end.termination);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("bot: {e}");
            ExitCode::FAILURE
        }
    }
}

/// How the game ended, as the bot saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for an aborted game.
    pub result: String,
    /// The termination in words, e.g. `checkmate`, `time forfeit`.
    pub termination: String,
    /// The side the bot played, if it ever had to move.
    pub side: Option<Color>,
    /// Moves this bot played.
    pub moves_played: u32,
    /// Times the bot had to watch again after a broken stream.
    pub resumes: u32,
}

/// Why the bot stopped before the game ended.
#[derive(Debug)]
pub enum BotError {
    /// The server refused something a retry cannot fix (a bad token, an unknown game, ...).
    Refused(Status),
    /// Too many failures in a row; the last one.
    GaveUp(Status),
    /// The server sent a position the rules engine rejects.
    BadPosition(String),
}

impl std::fmt::Display for BotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BotError::Refused(s) => write!(f, "refused: {}", describe(s)),
            BotError::GaveUp(s) => write!(f, "gave up after: {}", describe(s)),
            BotError::BadPosition(fen) => write!(f, "unreadable position {fen}"),
        }
    }
}

impl std::error::Error for BotError {}

/// What the bot knows of the game.
struct Seen {
    /// The seq of the last message: where a new watch resumes.
    last_seq: u64,
    variant: Variant,
    position: Option<Position>,
    ply: u32,
    side: Option<Color>,
    moves_played: u32,
    resumes: u32,
}

/// Plays the seat of `token` in game `game_id` until the game ends.
pub async fn play(channel: Channel, game_id: &str, token: &str) -> Result<GameEnd, BotError> {
    let mut client = GameServiceClient::new(channel);
    let mut seen = Seen {
        last_seq: 0,
        variant: Variant::Chess,
        position: None,
        ply: 0,
        side: None,
        moves_played: 0,
        resumes: 0,
    };
    let mut failures = 0;
    loop {
        let request = pb::WatchGameRequest {
            game_id: game_id.to_owned(),
            after_seq: seen.last_seq,
        };
        let broke = match tokio::time::timeout(CALL_TIMEOUT, client.watch_game(request)).await {
            Ok(Ok(response)) => {
                let mut stream = response.into_inner();
                // After a resume it may be our turn with no event coming until we move.
                if seen.my_turn() {
                    seen.move_now(&mut client, game_id, token).await?;
                }
                loop {
                    match stream.message().await {
                        Ok(Some(message)) => {
                            failures = 0;
                            if let Some(end) = seen.apply(message)? {
                                return Ok(end);
                            }
                            if seen.my_turn() {
                                seen.move_now(&mut client, game_id, token).await?;
                            }
                        }
                        // The stream ended without a game-over event (the server is going away).
                        Ok(None) => break Status::unavailable("stream ended"),
                        Err(status) => break status,
                    }
                }
            }
            Ok(Err(status)) if is_fatal(&status) => return Err(BotError::Refused(status)),
            Ok(Err(status)) => status,
            Err(_) => Status::deadline_exceeded("watch request timed out"),
        };
        failures += 1;
        if failures >= MAX_FAILURES {
            return Err(BotError::GaveUp(broke));
        }
        seen.resumes += 1;
        eprintln!(
            "bot: stream broke: {}; watching again after seq {}",
            describe(&broke),
            seen.last_seq
        );
        tokio::time::sleep(backoff(failures)).await;
    }
}

impl Seen {
    /// Takes in one message; the game's end when it is the last.
    fn apply(&mut self, message: pb::WatchGameResponse) -> Result<Option<GameEnd>, BotError> {
        self.last_seq = self.last_seq.max(message.seq);
        let (fen, ply) = match message.event {
            Some(Event::Snapshot(game)) => {
                if let Some(outcome) = game.outcome {
                    return Ok(Some(self.end(&outcome)));
                }
                self.variant = match pb::Variant::try_from(game.variant) {
                    Ok(pb::Variant::RacingKings) => Variant::RacingKings,
                    _ => Variant::Chess,
                };
                (game.fen, game.ply)
            }
            Some(Event::MovePlayed(played)) => {
                (played.fen, played.r#move.map_or(self.ply, |m| m.ply))
            }
            Some(Event::GameOver(over)) => {
                let outcome = over.outcome.unwrap_or_default();
                return Ok(Some(self.end(&outcome)));
            }
            // Draw offers and heartbeats change nothing a bot needs (this one never takes a draw).
            _ => return Ok(None),
        };
        let position =
            Position::from_fen(self.variant, &fen).map_err(|_| BotError::BadPosition(fen))?;
        self.position = Some(position);
        self.ply = ply;
        Ok(None)
    }

    fn end(&self, outcome: &pb::Outcome) -> GameEnd {
        GameEnd {
            result: outcome.pgn_result.clone(),
            // The enum's name without its prefix: TERMINATION_TIME_FORFEIT is "time forfeit".
            termination: pb::Termination::try_from(outcome.termination).map_or_else(
                |_| "unknown".to_owned(),
                |t| {
                    let name = t.as_str_name();
                    name.strip_prefix("TERMINATION_")
                        .unwrap_or(name)
                        .to_lowercase()
                        .replace('_', " ")
                },
            ),
            side: self.side,
            moves_played: self.moves_played,
            resumes: self.resumes,
        }
    }

    /// Whether to move now: the side to move is ours, or we do not know ours yet.
    fn my_turn(&self) -> bool {
        self.position
            .as_ref()
            .is_some_and(|p| self.side.is_none_or(|side| side == p.turn()))
    }

    /// Chooses and submits a move, retrying a lost answer with the same request id.
    async fn move_now(
        &mut self,
        client: &mut GameServiceClient<Channel>,
        game_id: &str,
        token: &str,
    ) -> Result<(), BotError> {
        let Some(position) = self.position else {
            return Ok(());
        };
        let Some(mv) = choose(&position) else {
            return Ok(());
        };
        let turn = position.turn();
        let request = pb::SubmitMoveRequest {
            game_id: game_id.to_owned(),
            r#move: mv.to_string(),
            expected_ply: Some(self.ply),
            // One id per ply and seat: a retry of this move is recognised, a later move is not.
            request_id: format!("bot-ply-{}", self.ply),
            offer_draw: false,
            // The stream brings the new position: the answer need not carry the whole game.
            view: pb::GameView::Basic as i32,
        };
        let mut failures = 0;
        loop {
            let mut call = Request::new(request.clone());
            call.set_timeout(CALL_TIMEOUT);
            let bearer = format!("Bearer {token}")
                .parse()
                .map_err(|_| BotError::Refused(Status::unauthenticated("unusable token")))?;
            call.metadata_mut().insert("authorization", bearer);
            match client.submit_move(call).await {
                Ok(_) => {
                    self.side = Some(turn);
                    self.moves_played += 1;
                    // The move event will bring the new position; until then, not our turn.
                    self.position = None;
                    return Ok(());
                }
                Err(status) => match (status.code(), reason(&status).as_str()) {
                    // Not our side: now we know which one is.
                    (Code::FailedPrecondition, "NOT_YOUR_TURN") => {
                        self.side = Some(!turn);
                        return Ok(());
                    }
                    // Stale position, or the game just ended: the stream will say what happened.
                    (Code::Aborted, _) | (Code::FailedPrecondition, "GAME_OVER") => return Ok(()),
                    // Over the server's rate limit (a fast bot can be): wait as long as it says
                    // and send the same move again; the request id makes that safe. Not a
                    // failure: the server is well and said when to come back.
                    (Code::ResourceExhausted, "RATE_LIMITED") => {
                        tokio::time::sleep(retry_after(&status)).await;
                    }
                    // The answer was lost (or the server faltered): the same request id makes the
                    // retry safe.
                    (
                        Code::Unavailable
                        | Code::DeadlineExceeded
                        | Code::Cancelled
                        | Code::Unknown
                        | Code::Internal,
                        _,
                    ) => {
                        failures += 1;
                        if failures >= MAX_FAILURES {
                            return Err(BotError::GaveUp(status));
                        }
                        tokio::time::sleep(backoff(failures)).await;
                    }
                    _ => return Err(BotError::Refused(status)),
                },
            }
        }
    }
}

/// A move one ply deep: one that wins at once (mate, or the race in Racing Kings), else the
/// most valuable capture or promotion, else a random one. `None` when there is no legal move.
pub fn choose(position: &Position) -> Option<Move> {
    let moves = position.legal_moves();
    let me = position.turn();
    let mut best: Option<(u32, Move)> = None;
    for &mv in moves.iter() {
        let Ok(after) = position.play(mv) else {
            continue;
        };
        if after.outcome().is_some_and(|o| o.winner == Some(me)) {
            return Some(mv);
        }
        let captured = position
            .board()
            .piece_at(mv.to())
            .map_or(0, |piece| value(piece.role));
        let promoted = mv.promotion().map_or(0, value);
        // A random tie-break in the low bits, so equal moves are picked evenly.
        let score = ((captured + promoted) << 16) | (random() & 0xffff) as u32;
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, mv));
        }
    }
    best.map(|(_, mv)| mv)
}

fn value(role: chessd_rules::Role) -> u32 {
    use chessd_rules::Role;
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

fn random() -> u64 {
    // Entropy failure is not worth stopping a game for: fall back to the first move.
    getrandom::u64().unwrap_or(0)
}

/// Waits longer after each failure in a row, up to two seconds.
/// How long a rate-limit refusal asks the client to wait (its RetryInfo), at least 1 ms and at
/// most 5 s whatever it says.
fn retry_after(status: &Status) -> Duration {
    let asked = status
        .get_details_retry_info()
        .and_then(|info| info.retry_delay)
        .unwrap_or(Duration::from_millis(100));
    asked.clamp(Duration::from_millis(1), Duration::from_secs(5))
}

fn backoff(failures: u32) -> Duration {
    Duration::from_millis((50u64 << failures.min(6)).min(2_000))
}

/// Refusals a retry cannot fix.
fn is_fatal(status: &Status) -> bool {
    matches!(
        status.code(),
        Code::InvalidArgument
            | Code::NotFound
            | Code::Unauthenticated
            | Code::PermissionDenied
            | Code::OutOfRange
    )
}

/// A refusal for people: its message, and its ErrorInfo reason (else what its code means).
fn describe(status: &Status) -> String {
    let why = reason(status);
    let why = if why.is_empty() {
        status.code().description()
    } else {
        &why
    };
    format!("{} ({why})", status.message())
}

/// The `google.rpc.ErrorInfo` reason of a refusal, read from the status details.
fn reason(status: &Status) -> String {
    use tonic_types::StatusExt;
    status
        .get_details_error_info()
        .map(|info| info.reason)
        .unwrap_or_default()
}
