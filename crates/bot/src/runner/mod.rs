//! The per-game runner: one game, one seat, one engine process, until the game ends.
//!
//! One loop owns everything: the game state fed by the watch task, the engine and its
//! search, and the calls to the server. It waits on three things at once: the next stream
//! message, the next engine line, and the search's deadline. No locks, no shared state.
//!
//! A search is in one of four states (`Search`): idle; thinking on the bot's move; pondering
//! on the opponent's time with an expected reply (a hit turns into thinking with
//! `ponderhit`, a miss is stopped); or draining a search whose answer is no longer wanted.
//! An engine that crashes, hangs past its deadlines, says `bestmove (none)`, or plays a move
//! the server refuses is killed and started again with the position; after
//! [`MAX_ENGINE_FAILURES`] failures without a move in between, the bot gives up on the game.
//!
//! Here: the loop and the stream's events; `engine`: the engine's events, deadlines and
//! restarts; `turn`: what the bot decides on its turn and the opponent's.
//!
//! The single-game mode runs this for `--game`; player mode (`player/`) runs one
//! per game of the player's feed, each with its own engine.

mod engine;
mod turn;

use std::time::{Duration, Instant, SystemTime};

use tokio::sync::mpsc;
use tonic::Status;

use crate::actions;
use crate::board::{Notation, Side, UciMove};
use crate::book::Book;
use crate::client::{Api, Seat};
use crate::clock::{self, Ask};
use crate::config::Settings;
use crate::game::{Change, GameState, StateError};
use crate::judge::Judge;
use crate::proto;
use crate::uci::{Engine, EngineError, EngineEvent, EngineSpec, GameOver, Protocol, Score, Setup};
use crate::variant;
use crate::variants_file::VariantsFile;
use crate::watch::{self, Feed};

/// Engine failures in a row (no move played in between) before the bot gives up.
pub const MAX_ENGINE_FAILURES: u32 = 3;

/// How a game ended, as the bot saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for an aborted game.
    pub result: String,
    /// The API's termination name (`TERMINATION_CHECKMATE`).
    pub termination: String,
    /// The side the bot played.
    pub side: Side,
    pub moves_played: u32,
    pub engine_restarts: u32,
    /// Times the stream broke and was resumed.
    pub resumes: u32,
}

/// Why the bot stopped before the game ended.
#[derive(Debug)]
pub enum GameError {
    /// The server refused a call for good (bad token, unknown game, ...).
    Refused(Status),
    /// The game's stream could not be followed.
    Watch(Status),
    /// The engine could not be started or set up for the game.
    Engine(EngineError),
    /// The engine failed too often in a row.
    EngineGaveUp {
        failures: u32,
        last: String,
    },
    State(StateError),
    /// The game's variant is not in the bot's table: its key (empty from a server from before
    /// the keys) and its API number.
    UnknownVariant {
        key: String,
        number: i32,
    },
    /// GetGame names no seat for the token in this game.
    NoSeat(String),
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameError::Refused(s) => {
                write!(f, "the server refused: {:?} {}", s.code(), s.message())
            }
            GameError::Watch(s) => {
                write!(f, "cannot follow the game: {:?} {}", s.code(), s.message())
            }
            GameError::Engine(e) => write!(f, "{e}"),
            GameError::EngineGaveUp { failures, last } => {
                write!(
                    f,
                    "the engine failed {failures} times in a row (last: {last}); giving up"
                )
            }
            GameError::State(e) => write!(f, "{e}"),
            GameError::NoSeat(game_id) => write!(
                f,
                "the token holds no seat in game {game_id} (a wrong token, one of another game, \
                 or a revoked player token)"
            ),
            GameError::UnknownVariant { key, number } => write!(
                f,
                "the game's variant ({}) is not one this bot knows (known: {})",
                if key.is_empty() {
                    number.to_string()
                } else {
                    format!("{key:?}")
                },
                variant::names().join(", ")
            ),
        }
    }
}

impl std::error::Error for GameError {}

/// Aborts the watch task when the runner is done with it.
struct WatchTask(tokio::task::JoinHandle<()>);

impl Drop for WatchTask {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Where the engine's search stands.
#[derive(Debug)]
enum Search {
    Idle,
    /// Searching the bot's move at `ply`.
    Thinking {
        ply: u32,
        stop_at: Instant,
        kill_at: Instant,
        stopped: bool,
        score: Option<Score>,
    },
    /// Searching on the opponent's time, expecting `expect` as their move at `ply`.
    Pondering {
        ply: u32,
        expect: UciMove,
        score: Option<Score>,
    },
    /// Told to stop; its `bestmove` is not wanted.
    Draining {
        kill_at: Instant,
    },
}

/// One game being played.
struct Runner<'a> {
    settings: &'a Settings,
    api: Api,
    seat: Seat,
    state: GameState,
    spec: EngineSpec,
    setup: Setup,
    engine: Option<Engine>,
    search: Search,
    /// The seat's side, as the server names it.
    side: Side,
    judge: Judge,
    book: Option<Book>,
    /// The engine's expected reply to the bot's last move, and the ply it would come at.
    ponder_next: Option<(u32, UciMove)>,
    /// The ply at which the bot already acted (moved, resigned, claimed, accepted): nothing
    /// more to do until the stream shows the result.
    acted_at: Option<u32>,
    /// The ply at which the bot answered the opponent's standing draw offer.
    answered_offer_at: Option<u32>,
    /// The players' entropy: the seat's secret once committed, and whether it was revealed.
    entropy: Option<(crate::entropy::Secret, bool)>,
    failures: u32,
    /// Makes this run's request ids its own.
    nonce: u64,
    moves_played: u32,
    engine_restarts: u32,
    resumes: u32,
}

/// Plays `seat`'s side of its game to the end.
pub async fn play(settings: &Settings, api: Api, seat: Seat) -> Result<GameEnd, GameError> {
    let (mut feed, task) = watch::follow(api.clone(), seat.clone(), 0);
    let mut task = WatchTask(task);
    let mut resumes = 0;
    let state = loop {
        match feed.recv().await {
            Some(Feed::Message { message, received }) => {
                if let Some(proto::watch_game_response::Event::Snapshot(game)) = message.event {
                    break GameState::from_snapshot(game, received).map_err(GameError::State)?;
                }
            }
            Some(Feed::Resuming { after_seq, error }) => {
                resumes += 1;
                tracing::warn!(after_seq, code = ?error.code(), error = error.message(), "cannot watch the game yet; retrying");
            }
            Some(Feed::Failed(status)) => return Err(GameError::Watch(status)),
            None => return Err(GameError::Watch(Status::unavailable("the watch ended"))),
        }
    };
    let side = actions::seat_side(&api, &seat)
        .await
        .map_err(GameError::Refused)?
        .ok_or_else(|| GameError::NoSeat(seat.game_id.clone()))?;
    if state.is_over() {
        return Ok(end_of(&state, side, 0, 0, resumes));
    }
    tracing::info!(side = %side, "playing");
    let profile = variant::of_game(state.variant, &state.variant_key).ok_or_else(|| {
        GameError::UnknownVariant {
            key: state.variant_key.clone(),
            number: state.variant,
        }
    })?;
    let spec = settings.engine_for(profile.name).clone();
    let setup = Setup {
        variant: profile.name,
        uci_variant: profile.uci_variant,
        chess960: profile.chess960,
        variants_file: VariantsFile::for_game(
            settings.variants_file.as_deref(),
            profile.in_variants_file,
        ),
        // The numbered games' engines write chess's moves, read as strictly as ever.
        notation: if variant::api_value(profile.name).is_some() {
            Notation::Chess
        } else {
            Notation::Wide(state.geometry)
        },
        ponder: settings.ponder,
    };
    let mut engine = Engine::start(&spec, &setup)
        .await
        .map_err(GameError::Engine)?;
    engine.new_game().await.map_err(GameError::Engine)?;
    let book = match &settings.book {
        Some(b) if profile.book => match Book::open(&b.path) {
            Ok(book) => Some(book),
            Err(e) => {
                tracing::warn!(error = %e, "playing without the book");
                None
            }
        },
        _ => None,
    };
    let mut runner = Runner {
        settings,
        api,
        seat,
        state,
        spec,
        setup,
        engine: Some(engine),
        search: Search::Idle,
        side,
        judge: Judge::new(settings.judge),
        book,
        ponder_next: None,
        acted_at: None,
        answered_offer_at: None,
        entropy: None,
        failures: 0,
        nonce: getrandom::u64().unwrap_or(0),
        moves_played: 0,
        engine_restarts: 0,
        resumes,
    };
    let result = runner.run(&mut feed, &mut task).await;
    if let Some(mut engine) = runner.engine.take() {
        if let Ok(end) = &result
            && let Some(over) = GameOver::of(end.side == Side::White, &end.result)
        {
            // Quitting follows whatever happens to this courtesy.
            let _ = engine.game_over(over).await;
        }
        engine.quit().await;
    }
    result
}

fn end_of(state: &GameState, side: Side, moves: u32, restarts: u32, resumes: u32) -> GameEnd {
    let outcome = state.outcome.clone().unwrap_or_default();
    GameEnd {
        result: outcome.pgn_result,
        termination: proto::Termination::try_from(outcome.termination)
            .map_or_else(|_| "unknown".to_owned(), |t| t.as_str_name().to_owned()),
        side,
        moves_played: moves,
        engine_restarts: restarts,
        resumes,
    }
}

/// Sleeps until `at`, or for ever.
async fn until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}

/// The engine's next event, or never while there is no engine.
async fn next_event(engine: &mut Option<Engine>) -> EngineEvent {
    match engine {
        Some(e) => e.next().await,
        None => std::future::pending().await,
    }
}

impl Runner<'_> {
    async fn run(
        &mut self,
        feed: &mut mpsc::Receiver<Feed>,
        task: &mut WatchTask,
    ) -> Result<GameEnd, GameError> {
        loop {
            if self.state.is_over() {
                return Ok(end_of(
                    &self.state,
                    self.side,
                    self.moves_played,
                    self.engine_restarts,
                    self.resumes,
                ));
            }
            self.act().await?;
            let deadline = self.deadline();
            tokio::select! {
                // Game events first: a game that ended needs no engine answer.
                biased;
                item = feed.recv() => match item {
                    Some(Feed::Message { message, received }) => {
                        match self.state.apply(*message, received) {
                            Ok(change) => self.on_change(change).await?,
                            Err(error @ StateError::Gap { .. }) => {
                                tracing::warn!(%error, "resynchronising from a new snapshot");
                                let (f, t) = watch::follow(self.api.clone(), self.seat.clone(), 0);
                                *feed = f;
                                *task = WatchTask(t);
                            }
                            Err(error) => return Err(GameError::State(error)),
                        }
                    }
                    Some(Feed::Resuming { after_seq, error }) => {
                        self.resumes += 1;
                        tracing::warn!(after_seq, code = ?error.code(), error = error.message(), "stream broke; resuming after the last seq seen");
                    }
                    Some(Feed::Failed(status)) => return Err(GameError::Watch(status)),
                    None => return Err(GameError::Watch(Status::unavailable("the watch ended"))),
                },
                event = next_event(&mut self.engine) => self.on_engine(event).await?,
                () = until(deadline) => self.on_deadline().await?,
            }
        }
    }

    fn deadline(&self) -> Option<Instant> {
        match self.search {
            Search::Thinking {
                stopped: false,
                stop_at,
                ..
            } => Some(stop_at),
            Search::Thinking { kill_at, .. } | Search::Draining { kill_at } => Some(kill_at),
            Search::Idle | Search::Pondering { .. } => None,
        }
    }

    fn our_time(&self) -> Option<Duration> {
        let clocks = self.state.clocks.as_ref()?;
        Some(clocks.remaining(self.side, SystemTime::now(), Instant::now()))
    }

    fn ask(&self, ponder: bool) -> Ask<'_> {
        Ask {
            clocks: self.state.clocks.as_ref(),
            increment: self.state.increment_of(self.side),
            their_increment: self.state.increment_of(self.side.opposite()),
            byoyomi: self.state.byoyomi,
            native_byoyomi: self.spec.protocol == Protocol::Usi,
            us: self.side,
            overhead: self.settings.move_overhead,
            limits: &self.settings.limits,
            ponder,
        }
    }

    /// Reacts to what the stream changed.
    async fn on_change(&mut self, change: Change) -> Result<(), GameError> {
        match change {
            Change::Snapshot => {
                self.acted_at = None;
                self.ponder_next = None;
                self.drop_search().await?;
            }
            Change::Moved { uci, by } if by != self.side => {
                let search = std::mem::replace(&mut self.search, Search::Idle);
                match search {
                    Search::Pondering { ply, expect, score }
                        if ply + 1 == self.state.ply && expect.to_string() == uci =>
                    {
                        let now = Instant::now();
                        let plan = clock::plan(self.ask(false), SystemTime::now(), now);
                        if self.send(&["ponderhit"]).await? {
                            tracing::debug!(ply = self.state.ply, "ponder hit");
                            self.search = Search::Thinking {
                                ply: self.state.ply,
                                stop_at: now + plan.stop_after,
                                kill_at: now + plan.kill_after,
                                stopped: false,
                                score,
                            };
                        }
                    }
                    other => {
                        self.search = other;
                        self.drop_search().await?;
                    }
                }
            }
            Change::Moved { .. }
            | Change::Over
            | Change::Nothing
            | Change::DrawOffered(_)
            | Change::DrawDeclined(_) => {}
        }
        Ok(())
    }
}
