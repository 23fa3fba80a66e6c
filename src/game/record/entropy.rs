//! A record's players' entropy (CreateGame's `player_entropy`; the round itself is
//! `game::entropy`'s): each seat's commitment and secret as log entries and events, the
//! refusals while the round is not done, and the start of play with the key.
//!
//! Rules where the design leaves them open (**decision**):
//! - Until both secrets are in: no move, draw claim, takeback or claim of victory; resigning,
//!   aborting, draw offers and clock changes work as in any game (as during Screen's setup).
//! - Neither clock runs during the round: the game's clock starts, for the side to move, when
//!   the second secret is in. The first-move timer, if the game has one, covers the round (a
//!   round not done in time calls the game off, no result) and then runs again for the first
//!   move from the second secret.
//! - Dice Chess's first roll is drawn when the second secret is in, with the key, at ply 0;
//!   every later draw of the game uses the key in place of the seed.

use std::sync::Arc;

use chessd_rules::Color;
use chessd_rules::any::AnyGame;

use crate::game::chance::{Seed, settled};
use crate::game::entropy::{Entropy, EntropyError, EntropyPhase, EntropyStep, EntropyValue};
use crate::game::error::{GameError, InputError, PlayError};
use crate::game::event::{Event, EventKind};
use crate::game::log::{LogEntry, LogKind};
use crate::game::record::GameRecord;
use crate::game::record::timing::now_at;
use crate::game::time::Now;

impl GameRecord {
    /// The players' entropy of a game that has it and where not both secrets are in.
    #[must_use]
    pub fn entropy_pending(&self) -> Option<&Entropy> {
        self.history
            .entropy
            .as_deref()
            .filter(|e| e.phase() != EntropyPhase::Done)
    }

    /// The players' entropy of a game that has it, for views.
    pub(super) fn entropy(&self) -> Option<&Entropy> {
        self.history.entropy.as_deref()
    }

    /// What the game's draws are derived from: its seed, or in a game with the players'
    /// entropy the key, once play has begun (nothing is drawn before).
    pub(super) fn draw_key(&self) -> Option<&Seed> {
        match self.history.entropy.as_deref() {
            Some(entropy) => entropy.key(),
            None => self.seats.seed(),
        }
    }

    /// A round not done refuses what only a game in play allows.
    pub(super) fn refuse_in_entropy(&self) -> Result<(), GameError> {
        match self.entropy_pending() {
            Some(e) => Err(PlayError::EntropyPending {
                reveals: e.phase() == EntropyPhase::Reveals,
            }
            .into()),
            None => Ok(()),
        }
    }

    /// `seat` sends its commitment or (`reveal`) its secret at `now`, and logs it; the second
    /// secret starts play. The same value again is a retry and changes nothing.
    pub(super) fn submit_entropy(
        &mut self,
        seat: Color,
        reveal: bool,
        value: EntropyValue,
        now: Now,
        out: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let Some(step) = self.entropied(seat, reveal, value, now)? else {
            return Ok(());
        };
        let entry = LogEntry::new(now.wall, LogKind::Entropy { seat, step });
        let seq = self.history.push(entry);
        let started = step == EntropyStep::Start;
        out.push(Event {
            seq,
            at: entry.at(),
            kind: EventKind::EntropySubmitted {
                by: seat,
                step,
                commitment: (!reveal).then_some(value),
                secrets: self
                    .history
                    .entropy
                    .as_deref()
                    .and_then(Entropy::secrets)
                    .filter(|_| started),
                start: started.then(|| self.history.game.start()),
            },
        });
        Ok(())
    }

    /// The value's change to the record, without its log entry: the step it made, `None` for
    /// a retry.
    fn entropied(
        &mut self,
        seat: Color,
        reveal: bool,
        value: EntropyValue,
        now: Now,
    ) -> Result<Option<EntropyStep>, GameError> {
        let entropy = self
            .history
            .entropy
            .as_deref_mut()
            .ok_or(PlayError::NoEntropyPhase { done: false })?;
        let step = match entropy.submit(seat, reveal, value) {
            Ok(Some(step)) => step,
            Ok(None) => return Ok(None),
            Err(EntropyError::WrongReveal) => {
                return Err(InputError::InvalidEntropy {
                    field: "reveal",
                    message: "its SHA-256 is not your commitment".into(),
                }
                .into());
            }
            Err(EntropyError::RevealTooEarly) => {
                return Err(PlayError::EntropyOutOfOrder { committed: false }.into());
            }
            Err(EntropyError::Committed) => {
                return Err(PlayError::EntropyOutOfOrder { committed: true }.into());
            }
            Err(EntropyError::Over) => return Err(PlayError::NoEntropyPhase { done: true }.into()),
        };
        if step == EntropyStep::Start {
            self.begin_play(now)?;
        }
        Ok(Some(step))
    }

    /// Both secrets are in at `now`: the start's own draw is made with the key (Dice Chess's
    /// first roll), the clock starts for the side to move and the first-move timer runs again.
    fn begin_play(&mut self, now: Now) -> Result<(), GameError> {
        let seed = self
            .seats
            .seed()
            .ok_or_else(|| GameError::Internal("the players' entropy without a seed".into()))?;
        let key = self
            .history
            .entropy
            .as_deref_mut()
            .and_then(|e| e.derive_key(seed))
            .ok_or_else(|| GameError::Internal("play begun without both secrets".into()))?;
        let start = self.history.game.start();
        let rolled = settled(&start, key);
        if rolled != start {
            let draw_rule = self.history.game.draw_rule();
            self.history.game = Arc::new(AnyGame::new(rolled, draw_rule));
        }
        self.timing.moved(now);
        let from = self.clock_from(now);
        let turn = self.history.game.position().turn();
        if self.clock_runs()
            && let Some(clock) = &mut self.timing.clock
        {
            clock.begin(turn, from);
        }
        self.arm_first_move(now.wall.max(self.timing.created_at()), now);
        Ok(())
    }

    /// A restored entropy row: the value again, as it was sent at `at_ms`; on the second
    /// secret, `start` is the start stored then, which the key must draw again.
    pub(super) fn resubmit(
        &mut self,
        seat: Color,
        step: EntropyStep,
        value: EntropyValue,
        start: Option<&str>,
        at_ms: u64,
        now: Now,
    ) -> Result<(), String> {
        let then = now_at(at_ms, now);
        let made = self
            .entropied(seat, step.is_reveal(), value, then)
            .map_err(|e| format!("{e:?}"))?;
        if made != Some(step) {
            return Err(format!("a {} stored, {made:?} replayed", step.key()));
        }
        if let Some(fen) = start
            && self.history.game.start().fen() != fen
        {
            return Err(format!(
                "the start stored, {fen}, is not the one the key draws, {}",
                self.history.game.start().fen()
            ));
        }
        Ok(())
    }
}
