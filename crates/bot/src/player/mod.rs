//! Player mode: every game the player token's player is seated in, each played by its own
//! runner and engine process, at most `max_games` at once.
//!
//! The feed (`feed`) announces the games: those already running when the bot starts, then
//! each new one. A game is started at once while a slot is free, and otherwise waits, first
//! come first served, until a game in progress ends; a waiting game that ends meanwhile is
//! dropped from the queue. A game's clock runs while it waits, so a platform that seats a bot
//! in more games than it plays at once costs the bot time on the waiting ones.
//!
//! A game that cannot be played (an engine without its variant, an engine that keeps
//! failing) is logged and its slot freed: the other games go on. A refused player token
//! (revoked, invalid) ends everything: the error says so. `drain` (the first Ctrl-C or
//! SIGTERM) stops taking games; the games in progress play to their end, and then `run`
//! returns.

pub mod feed;

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::sync::Arc;

use tokio::task::JoinSet;
use tonic::{Code, Status};

use crate::client::{self, Api, Bearer, Seat};
use crate::config::Settings;
use crate::runner::{self, GameEnd, GameError};
use feed::Announce;

/// How player mode ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayerEnd {
    /// Games played to their end.
    pub games_over: u32,
    /// Games the bot gave up (the reason is in their `game stopped` line).
    pub games_stopped: u32,
}

/// Why player mode stopped before it was asked to.
#[derive(Debug)]
pub struct FeedError(pub Status);

impl std::fmt::Display for FeedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let status = &self.0;
        let reason = client::reason(status);
        match status.code() {
            Code::Unauthenticated | Code::PermissionDenied | Code::FailedPrecondition => write!(
                f,
                "the server refused the player token ({}): {}; every game is stopped",
                if reason.is_empty() {
                    format!("{:?}", status.code())
                } else {
                    reason
                },
                status.message()
            ),
            code => write!(
                f,
                "cannot follow the player's games: {code:?} {}",
                status.message()
            ),
        }
    }
}

impl std::error::Error for FeedError {}

/// Aborts the feed task when player mode is done with it.
struct FeedTask(tokio::task::JoinHandle<()>);

impl Drop for FeedTask {
    fn drop(&mut self) {
        self.0.abort();
    }
}

type Played = (String, Result<GameEnd, GameError>);

/// The games in progress and those waiting for a slot.
struct Slots {
    settings: Arc<Settings>,
    api: Api,
    bearer: Bearer,
    max_games: usize,
    games: JoinSet<Played>,
    /// Game id by task, for a task that panics.
    running: HashMap<tokio::task::Id, String>,
    waiting: VecDeque<String>,
    end: PlayerEnd,
}

impl Slots {
    fn knows(&self, game_id: &str) -> bool {
        self.running.values().any(|g| g == game_id) || self.waiting.iter().any(|g| g == game_id)
    }

    /// A game the feed announced: started now, or queued.
    fn offer(&mut self, game_id: String) {
        if self.knows(&game_id) {
            // A live start after a break lists the games in progress again.
            return;
        }
        if self.running.len() < self.max_games {
            self.start(game_id);
        } else {
            self.waiting.push_back(game_id.clone());
            tracing::info!(
                game_id = %game_id,
                position = self.waiting.len(),
                max_games = self.max_games,
                "game waiting for a free slot (its clock runs)"
            );
        }
    }

    fn start(&mut self, game_id: String) {
        let seat = Seat::of(&game_id, &self.bearer);
        let settings = self.settings.clone();
        let api = self.api.clone();
        let span = tracing::info_span!("game", game_id = %game_id);
        let id = game_id.clone();
        let task = self.games.spawn(tracing::Instrument::instrument(
            async move {
                let result = runner::play(&settings, api, seat).await;
                (id, result)
            },
            span,
        ));
        self.running.insert(task.id(), game_id.clone());
        tracing::info!(
            game_id = %game_id,
            running = self.running.len(),
            waiting = self.waiting.len(),
            "game started"
        );
    }

    /// A waiting game that ended needs no slot.
    fn finished(&mut self, game_id: &str) {
        if let Some(at) = self.waiting.iter().position(|g| g == game_id) {
            self.waiting.remove(at);
            tracing::info!(game_id = %game_id, "game ended while waiting for a slot");
        }
    }

    /// A game's runner ended: logs how, frees its slot and fills it.
    fn ended(
        &mut self,
        joined: Result<(tokio::task::Id, Played), tokio::task::JoinError>,
        draining: bool,
    ) {
        match joined {
            Ok((task, (game_id, result))) => {
                self.running.remove(&task);
                match result {
                    Ok(end) => {
                        self.end.games_over += 1;
                        tracing::info!(
                            game_id = %game_id,
                            result = %end.result,
                            termination = %end.termination,
                            side = end.side.name(),
                            moves_played = end.moves_played,
                            engine_restarts = end.engine_restarts,
                            resumes = end.resumes,
                            running = self.running.len(),
                            "game over"
                        );
                    }
                    Err(error) => {
                        self.end.games_stopped += 1;
                        tracing::error!(
                            game_id = %game_id,
                            %error,
                            running = self.running.len(),
                            "game stopped"
                        );
                    }
                }
            }
            Err(error) => {
                let game_id = self.running.remove(&error.id()).unwrap_or_default();
                self.end.games_stopped += 1;
                tracing::error!(game_id = %game_id, %error, "game stopped: its task failed");
            }
        }
        while !draining && self.running.len() < self.max_games {
            let Some(next) = self.waiting.pop_front() else {
                break;
            };
            self.start(next);
        }
    }
}

/// Plays the games of `bearer`'s player until `drain` completes and the games in progress
/// have ended, or until the feed fails.
pub async fn run(
    settings: Arc<Settings>,
    api: Api,
    bearer: Bearer,
    max_games: usize,
    drain: impl Future<Output = ()>,
) -> Result<PlayerEnd, FeedError> {
    let (mut feed, task) = feed::follow(api.clone(), bearer.clone());
    let mut feed_task = Some(FeedTask(task));
    let mut slots = Slots {
        settings,
        api,
        bearer,
        max_games,
        games: JoinSet::new(),
        running: HashMap::new(),
        waiting: VecDeque::new(),
        end: PlayerEnd {
            games_over: 0,
            games_stopped: 0,
        },
    };
    tokio::pin!(drain);
    let mut draining = false;
    loop {
        if draining && slots.games.is_empty() {
            return Ok(slots.end);
        }
        tokio::select! {
            () = &mut drain, if !draining => {
                draining = true;
                drop(feed_task.take());
                tracing::warn!(
                    running = slots.running.len(),
                    waiting = slots.waiting.len(),
                    "stopping: no new games; the games in progress play to their end (a second Ctrl-C or SIGTERM stops them now)"
                );
                slots.waiting.clear();
            }
            Some(joined) = slots.games.join_next_with_id() => slots.ended(joined, draining),
            item = feed.recv(), if !draining => match item {
                Some(Announce::Game { game_id, seat: Some(seat), variant }) => {
                    tracing::debug!(game_id = %game_id, side = seat.name(), variant = %variant, "game announced");
                    slots.offer(game_id);
                }
                Some(Announce::Game { game_id, seat: None, .. }) => {
                    tracing::warn!(game_id = %game_id, "the feed named a game without the player's seat; skipped");
                }
                Some(Announce::Finished { game_id }) => slots.finished(&game_id),
                Some(Announce::Following { resumed }) => {
                    tracing::info!(resumed, max_games, "following the player's games");
                }
                Some(Announce::Resuming { from_cursor, error }) => {
                    tracing::warn!(
                        from_cursor,
                        code = ?error.code(),
                        error = error.message(),
                        "feed broke; resuming"
                    );
                }
                Some(Announce::Failed(status)) => return Err(FeedError(status)),
                None => return Err(FeedError(Status::internal("the feed task ended"))),
            },
        }
    }
}
