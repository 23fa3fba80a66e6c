//! The runner's decisions on its turn and the opponent's: answer a standing offer, ponder,
//! play a book move, search, and act on the search's result (resign, accept, claim, or
//! move).

use std::time::{Instant, SystemTime};

use super::{GameError, Runner, Search};
use crate::actions::{self, Submitted};
use crate::board::UciMove;
use crate::book;
use crate::clock;
use crate::entropy;
use crate::uci::Score;

impl Runner<'_> {
    /// Does what the game asks now: answer an offer, ponder, or move.
    pub(super) async fn act(&mut self) -> Result<(), GameError> {
        if self.state.is_over() || self.acted_at == Some(self.state.ply) {
            return Ok(());
        }
        // A secret setup comes before any move: the seat places its army, then waits for the
        // reveal (a new snapshot of the game's start).
        if self.state.setup.is_some() {
            if self.state.must_place(self.side) {
                self.acted_at = Some(self.state.ply);
                let half = crate::setup::random_half(self.side, || getrandom::u64().unwrap_or(0));
                tracing::info!(placement = %half, "placing behind the screen");
                actions::submit_setup(&self.api, &self.seat, half)
                    .await
                    .map_err(GameError::Refused)?;
            }
            return Ok(());
        }
        // The players' entropy comes before any move too: commit, then reveal.
        if self.state.entropy.is_some() {
            return self.add_entropy().await;
        }
        if self.side != self.state.turn {
            return self.while_they_think().await;
        }
        if !matches!(self.search, Search::Idle) {
            return Ok(());
        }
        if let Some(mv) = self.book_move() {
            self.judge.record(None);
            return self.play_move(mv, None, None, true).await;
        }
        self.think().await
    }

    /// The seat's part of the players' entropy: its commitment, then its secret once both
    /// seats have committed.
    async fn add_entropy(&mut self) -> Result<(), GameError> {
        let Some(round) = &self.state.entropy else {
            return Ok(());
        };
        let revealed = self.entropy.is_some_and(|(_, r)| r);
        let (value, reveal) = match entropy::next(round, self.side, revealed) {
            entropy::Next::Wait => return Ok(()),
            entropy::Next::Commit => {
                // The same secret for a commitment sent again (a retry answers as the first).
                let secret = match self.entropy {
                    Some((secret, _)) => secret,
                    None => entropy::secret()
                        .map_err(|e| GameError::Refused(tonic::Status::internal(e.to_string())))?,
                };
                self.entropy = Some((secret, false));
                (entropy::commitment(&secret), false)
            }
            entropy::Next::Reveal => match self.entropy {
                Some((secret, _)) => (entropy::hex(&secret), true),
                // Committed by an earlier run: its secret is gone with it.
                None => return Ok(()),
            },
        };
        tracing::info!(reveal, "adding the seat's entropy");
        actions::submit_entropy(&self.api, &self.seat, value, reveal)
            .await
            .map_err(GameError::Refused)?;
        if reveal && let Some((_, done)) = &mut self.entropy {
            *done = true;
        }
        Ok(())
    }

    /// The opponent is to move: answer their standing offer, or ponder.
    async fn while_they_think(&mut self) -> Result<(), GameError> {
        let side = self.side;
        if self.state.draw_offer == Some(side.opposite())
            && self.answered_offer_at != Some(self.state.ply)
        {
            self.answered_offer_at = Some(self.state.ply);
            let accept = self.judge.welcomes_draw();
            tracing::info!(accept, "answering the opponent's draw offer");
            actions::respond_to_draw(&self.api, &self.seat, accept)
                .await
                .map_err(GameError::Refused)?;
        }
        let ponders = self.engine.as_ref().is_some_and(|e| e.ponders);
        if let (Search::Idle, true) = (&self.search, ponders)
            && let Some((ply, expect)) = self.ponder_next.take()
            && ply == self.state.ply
        {
            let plan = clock::plan(self.ask(true), SystemTime::now(), Instant::now());
            let position = self.state.position_command(&[expect.to_string()]);
            if self.send(&[&position, &plan.go]).await? {
                self.search = Search::Pondering {
                    ply,
                    expect,
                    score: None,
                };
            }
        }
        Ok(())
    }

    /// A book move for the current position, if the book has one.
    fn book_move(&mut self) -> Option<UciMove> {
        let choice = self.settings.book.as_ref()?;
        if choice.depth.is_some_and(|d| self.state.ply >= d) {
            return None;
        }
        let book = self.book.as_mut()?;
        match book.moves(&self.state.fen, self.state.moves.last().map(String::as_str)) {
            Ok(moves) => book::choose(&moves, choice.choice, getrandom::u64().unwrap_or(0)),
            Err(error) => {
                tracing::warn!(book = %book.path().display(), %error, "cannot read the book; leaving it");
                self.book = None;
                None
            }
        }
    }

    /// Starts the engine on the bot's move.
    async fn think(&mut self) -> Result<(), GameError> {
        let now = Instant::now();
        let plan = clock::plan(self.ask(false), SystemTime::now(), now);
        let position = self.state.position_command(&[]);
        if self.send(&[&position, &plan.go]).await? {
            tracing::debug!(ply = self.state.ply, go = %plan.go, "thinking");
            self.search = Search::Thinking {
                ply: self.state.ply,
                stop_at: now + plan.stop_after,
                kill_at: now + plan.kill_after,
                stopped: false,
                score: None,
            };
        }
        Ok(())
    }

    /// Resign, accept, claim, or play the engine's move.
    pub(super) async fn decide(
        &mut self,
        mv: UciMove,
        ponder: Option<UciMove>,
        score: Option<Score>,
    ) -> Result<(), GameError> {
        let ply = self.state.ply;
        let refused = GameError::Refused;
        if self.judge.should_resign() {
            tracing::info!(
                ?score,
                "resigning: the score stayed below the resign threshold"
            );
            self.acted_at = Some(ply);
            return actions::resign(&self.api, &self.seat)
                .await
                .map_err(refused);
        }
        let welcome = self.judge.welcomes_draw();
        let offered = self.state.draw_offer == Some(self.side.opposite());
        if offered && welcome {
            tracing::info!(?score, "accepting the opponent's draw offer");
            self.acted_at = Some(ply);
            return actions::respond_to_draw(&self.api, &self.seat, true)
                .await
                .map_err(refused);
        }
        if let Some(claim) = self.state.claimable().filter(|_| welcome) {
            if actions::claim_draw(&self.api, &self.seat, claim)
                .await
                .map_err(refused)?
            {
                tracing::info!(?claim, ?score, "claimed a draw");
                self.acted_at = Some(ply);
                return Ok(());
            }
            tracing::info!(?claim, "the server does not accept the draw claim; moving");
        }
        self.play_move(mv, ponder, score, false).await
    }

    /// Submits `mv`: the engine's, with its score, or the book's (no score).
    async fn play_move(
        &mut self,
        mv: UciMove,
        ponder: Option<UciMove>,
        score: Option<Score>,
        from_book: bool,
    ) -> Result<(), GameError> {
        let ply = self.state.ply;
        let text = mv.to_string();
        let offer = !from_book && self.judge.offer_now();
        let request_id = format!("chessd-bot-{:016x}-{ply}-{text}", self.nonce);
        let submitted = actions::submit(
            &self.api,
            &self.seat,
            &text,
            ply,
            &request_id,
            offer,
            self.our_time(),
        )
        .await
        .map_err(GameError::Refused)?;
        match submitted {
            Submitted::Played { attempts } => {
                self.failures = 0;
                self.moves_played += 1;
                self.acted_at = Some(ply);
                tracing::info!(
                    ply = ply + 1,
                    mv = %text,
                    score_cp = score.map(Score::centipawns),
                    attempts,
                    book = from_book,
                    offer_draw = offer,
                    "move played"
                );
                self.ponder_next = ponder.map(|p| (ply + 1, p));
            }
            Submitted::Refused(message) if from_book => {
                tracing::warn!(mv = %text, message, "the server refused the book move; leaving the book");
                self.book = None;
            }
            Submitted::Refused(message) => {
                self.engine_failed(format!(
                    "the server refused the engine's move {text}: {message}"
                ))
                .await?;
            }
            // The game moved on or ended: wait for the stream to say how.
            Submitted::Stale => self.acted_at = Some(ply),
        }
        Ok(())
    }
}
