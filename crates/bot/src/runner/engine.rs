//! The runner's engine side: its lines (scores, best moves, garbage), its deadlines, the
//! stop of an unwanted search, and the kill and restart of an engine that failed.

use std::time::{Duration, Instant};

use crate::actions;
use crate::board::UciMove;
use crate::runner::{GameError, MAX_ENGINE_FAILURES, Runner, Search};
use crate::uci::{Engine, EngineError, EngineEvent, EngineMessage};

/// How long a search told to stop (a missed ponder) has to answer before a kill.
const DRAIN_GRACE: Duration = Duration::from_secs(2);

impl Runner<'_> {
    pub(super) fn engine(&mut self) -> Result<&mut Engine, EngineError> {
        self.engine
            .as_mut()
            .ok_or(EngineError::Exited { during: "the game" })
    }

    /// Sends commands; a dead engine is restarted (and the caller's plan dropped).
    pub(super) async fn send(&mut self, commands: &[&str]) -> Result<bool, GameError> {
        for command in commands {
            let sent = match self.engine() {
                Ok(engine) => engine.send(command).await,
                Err(e) => Err(e),
            };
            if let Err(e) = sent {
                self.engine_failed(e.to_string()).await?;
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Stops a running search whose answer is no longer wanted.
    pub(super) async fn drop_search(&mut self) -> Result<(), GameError> {
        if matches!(
            self.search,
            Search::Thinking { .. } | Search::Pondering { .. }
        ) && self.send(&["stop"]).await?
        {
            self.search = Search::Draining {
                kill_at: Instant::now() + DRAIN_GRACE,
            };
        }
        Ok(())
    }

    pub(super) async fn on_engine(&mut self, event: EngineEvent) -> Result<(), GameError> {
        match event {
            EngineEvent::Message(EngineMessage::Info(info)) => {
                if info.multipv.unwrap_or(1) == 1
                    && !info.bound
                    && let Some(new) = info.score
                    && let Search::Thinking { score, .. } | Search::Pondering { score, .. } =
                        &mut self.search
                {
                    *score = Some(new);
                }
            }
            EngineEvent::Message(EngineMessage::BestMove { mv, ponder }) => {
                self.on_bestmove(mv, ponder).await?;
            }
            EngineEvent::Message(EngineMessage::Resign) => self.on_resign().await?,
            EngineEvent::Message(EngineMessage::DeclareWin) => {
                // The server applies the impasse rule itself when a turn starts: had the
                // declaration held, the game would be over and the answer unwanted.
                if self.wanted_answer().is_some() {
                    tracing::warn!(
                        "the engine declared an impasse win (bestmove win) in a game that goes on; the server's impasse rule does not grant it"
                    );
                }
                self.on_bestmove(None, None).await?;
            }
            EngineEvent::Message(EngineMessage::BadBestMove(text)) => {
                if matches!(self.search, Search::Thinking { .. }) {
                    self.engine_failed(format!("bestmove {text:?} is not a move"))
                        .await?;
                } else {
                    tracing::warn!(text, "engine sent a malformed bestmove; ignored");
                }
            }
            EngineEvent::Message(EngineMessage::Unknown(line)) => {
                tracing::debug!(line, "engine line ignored");
            }
            EngineEvent::Message(_) => {}
            EngineEvent::TooLong(bytes) => {
                tracing::warn!(
                    bytes,
                    max = crate::uci::engine::MAX_LINE,
                    "engine line too long; skipped"
                );
            }
            EngineEvent::Exited => self.engine_failed("the engine exited".into()).await?,
        }
        Ok(())
    }

    pub(super) async fn on_bestmove(
        &mut self,
        mv: Option<UciMove>,
        ponder: Option<UciMove>,
    ) -> Result<(), GameError> {
        let search = std::mem::replace(&mut self.search, Search::Idle);
        let Search::Thinking { ply, score, .. } = search else {
            if matches!(search, Search::Pondering { .. }) {
                tracing::warn!(
                    "the engine ended its ponder search by itself; waiting for the opponent"
                );
            }
            return Ok(());
        };
        if ply != self.state.ply || self.state.is_over() {
            return Ok(());
        }
        let Some(mv) = mv else {
            return self
                .engine_failed(
                    "the engine found no move (bestmove (none)) in a game that goes on".into(),
                )
                .await;
        };
        self.judge.record(score);
        self.decide(mv, ponder, score).await
    }

    /// The ply whose move the running search was asked for, if the game still waits for it.
    fn wanted_answer(&self) -> Option<u32> {
        match self.search {
            Search::Thinking { ply, .. } if ply == self.state.ply && !self.state.is_over() => {
                Some(ply)
            }
            _ => None,
        }
    }

    /// USI's `bestmove resign`: the engine gives the game up, whatever the bot's own
    /// resign threshold.
    async fn on_resign(&mut self) -> Result<(), GameError> {
        let ply = self.wanted_answer();
        self.search = Search::Idle;
        if let Some(ply) = ply {
            tracing::info!("resigning: the engine resigned (bestmove resign)");
            self.acted_at = Some(ply);
            actions::resign(&self.api, &self.seat)
                .await
                .map_err(GameError::Refused)?;
        }
        Ok(())
    }

    pub(super) async fn on_deadline(&mut self) -> Result<(), GameError> {
        let now = Instant::now();
        match &mut self.search {
            Search::Thinking {
                stopped: stopped @ false,
                stop_at,
                ..
            } if now >= *stop_at => {
                *stopped = true;
                tracing::warn!("the engine is past its time for this move; sending stop");
                self.send(&["stop"]).await?;
            }
            Search::Thinking { kill_at, .. } | Search::Draining { kill_at } if now >= *kill_at => {
                self.engine_failed("the engine did not answer stop".into())
                    .await?;
            }
            _ => {}
        }
        Ok(())
    }

    /// Kills the engine and starts a new one on the same position.
    pub(super) async fn engine_failed(&mut self, why: String) -> Result<(), GameError> {
        self.failures += 1;
        self.search = Search::Idle;
        self.ponder_next = None;
        if let Some(engine) = self.engine.take() {
            engine.kill().await;
        }
        if self.failures > MAX_ENGINE_FAILURES {
            return Err(GameError::EngineGaveUp {
                failures: self.failures,
                last: why,
            });
        }
        tracing::warn!(
            why,
            failures = self.failures,
            "engine failed; restarting it"
        );
        let mut engine = Engine::start(&self.spec, &self.setup)
            .await
            .map_err(GameError::Engine)?;
        engine.new_game().await.map_err(GameError::Engine)?;
        self.engine = Some(engine);
        self.engine_restarts += 1;
        Ok(())
    }
}
