//! A record's setup phase (Screen and Crazy Screen Chess; the placements are `game::setup`'s):
//! a seat's placement, its clock, and the reveal that gives the game its start.
//!
//! Rules, as `GAMES.md` gives them and where it leaves them open (**decision**):
//! - Until both placements are final the game has no position (its placeholder, see
//!   `setup::placeholder`): no move, draw claim, takeback or claim of victory; resigning,
//!   aborting, draw offers and clock changes work as in any game.
//! - "Both clocks run during the setup; a seat that has not submitted when its clock runs
//!   out loses (a draw if both run out)." The setup's time counts from when the clocks start
//!   (the creation, or the scheduled start); a seat's final placement takes what it used
//!   off its clock. **(decision)** With clocks that start after the first moves, the setup is
//!   not on the clocks. Each seat's setup deadline is kept on the wall clock (as shown), so a
//!   restart does not give a seat time back.
//! - **(decision)** The first-move timer, if the game has one, covers the setup too: a game
//!   whose placements are not both final within it is called off (no result), as a game
//!   without a first move is; after the reveal it runs again for White's first move.
//! - The second final placement reveals both: White to move from the joined board; Black's
//!   king attacked there is a win for White at once.

use std::sync::Arc;
use std::time::SystemTime;

use chessd_rules::any::{AnyGame, AnyPosition};
use chessd_rules::wide::{ScreenStart, screen_start};
use chessd_rules::{ByColor, Color, Outcome, Termination};
use tokio::time::Instant;

use crate::game::clock::ClockReading;
use crate::game::error::{GameError, InputError, PlayError};
use crate::game::event::{Event, EventKind};
use crate::game::log::{LogEntry, LogKind};
use crate::game::record::GameRecord;
use crate::game::record::timing::{mono_at, now_at};
use crate::game::setup::{PlaceError, Setup, SetupStep, setup_variant};
use crate::game::start::ClockStart;
use crate::game::time::Now;
use crate::game::view::SetupView;

impl GameRecord {
    /// The setup phase of a game that has one and has not been revealed.
    #[must_use]
    pub fn setup_pending(&self) -> Option<&Setup> {
        self.history.setup.as_deref().filter(|s| !s.revealed())
    }

    /// `seat` places its army (`text`: four FEN rows of its half), final with `commit`, at
    /// `now`, and logs it. The second final placement reveals both and starts the game.
    pub(super) fn place(
        &mut self,
        seat: Color,
        text: &str,
        commit: bool,
        now: Now,
        out: &mut Vec<Event>,
    ) -> Result<SetupStep, GameError> {
        // The same final placement again: a retry, answered as the first was.
        let Some((step, decided)) = self.placed(seat, text, commit, now)? else {
            return Ok(SetupStep::Commit);
        };
        let entry = LogEntry::new(now.wall, LogKind::Setup { seat, step });
        let seq = self.history.push(entry);
        out.push(Event {
            seq,
            at: entry.at(),
            kind: EventKind::SetupPlaced {
                by: seat,
                step,
                start: (step == SetupStep::Reveal && decided.is_none())
                    .then(|| self.history.game.start()),
            },
        });
        if let Some(outcome) = decided {
            self.finish(outcome, now, out);
        }
        Ok(step)
    }

    /// The placement's change to the record, without its log entry: the step it made and, on a
    /// reveal that decides the game, its outcome; `None` for a retried final placement, which
    /// changes nothing.
    fn placed(
        &mut self,
        seat: Color,
        text: &str,
        commit: bool,
        now: Now,
    ) -> Result<Option<(SetupStep, Option<Outcome>)>, GameError> {
        let variant = setup_variant(self.history.game.variant())
            .ok_or(PlayError::NoSetup { revealed: false })?;
        let setup = self
            .history
            .setup
            .as_deref_mut()
            .ok_or(PlayError::NoSetup { revealed: false })?;
        let step = match setup.place(variant, seat, text, commit) {
            Ok(step) => step,
            Err(PlaceError::Invalid(e)) => {
                return Err(InputError::InvalidSetup {
                    message: e.to_string(),
                }
                .into());
            }
            Err(PlaceError::Final { same: true }) => return Ok(None),
            Err(PlaceError::Final { same: false }) => return Err(PlayError::SetupFinal.into()),
            Err(PlaceError::Over) => return Err(PlayError::NoSetup { revealed: true }.into()),
            Err(PlaceError::TooMany) => return Err(PlayError::TooManyPlacements.into()),
        };
        let began = setup.began();
        if step.is_final()
            && let (Some(clock), Some(began)) = (&mut self.timing.clock, began)
        {
            let used = now.mono.saturating_duration_since(began);
            let left = clock.remaining(seat, now.mono).saturating_sub(used);
            clock.set(seat, left, now.mono);
        }
        let mut decided = None;
        if step == SetupStep::Reveal {
            let halves = setup.halves().ok_or_else(|| {
                GameError::Internal("a reveal without both final placements".into())
            })?;
            let joined = screen_start(variant, &halves[Color::White], &halves[Color::Black])
                .map_err(|e| GameError::Internal(e.to_string().into()))?;
            let board = match joined {
                ScreenStart::Play(p) => *p,
                ScreenStart::Decided { outcome, board, .. } => {
                    decided = Some(outcome);
                    *board
                }
            };
            let draw_rule = self.history.game.draw_rule();
            self.history.game = Arc::new(AnyGame::new(AnyPosition::from(board), draw_rule));
            self.timing.moved(now);
            let from = self.clock_from(now);
            if self.clock_runs()
                && let Some(clock) = &mut self.timing.clock
            {
                clock.begin(Color::White, from);
            }
            self.arm_first_move(now.wall.max(self.timing.created_at()), now);
        }
        Ok(Some((step, decided)))
    }

    /// A new setup for a game of a secret setup created (or restored) at `now`: its time
    /// begins on the clocks when they start, the creation or the scheduled start; `None`
    /// for a game whose clocks start after the first moves (or that has none).
    pub(super) fn new_setup(&self, now: Now) -> Option<Box<Setup>> {
        setup_variant(self.history.game.variant())?;
        let began = match (&self.timing.clock, self.timing.start_rules().clock_start) {
            (None, _) | (_, ClockStart::AfterFirstMoves) => None,
            (Some(_), ClockStart::OnCreation) => Some(mono_at(self.timing.created_at(), now)),
            (Some(_), ClockStart::At(at)) => Some(mono_at(at, now)),
        };
        Some(Box::new(Setup::new(began)))
    }

    /// While the setup is pending, on the clocks: when each seat without a final placement
    /// runs out of time.
    fn setup_deadlines(&self) -> ByColor<Option<Instant>> {
        let Some((setup, clock)) = self.setup_pending().zip(self.timing.clock.as_ref()) else {
            return ByColor::new(None, None);
        };
        let Some(began) = setup.began() else {
            return ByColor::new(None, None);
        };
        ByColor::new_with(|seat| {
            // Neither clock runs during the setup: what they hold is what each seat had when
            // it began.
            (!setup.is_final(seat)).then(|| began + clock.remaining(seat, began))
        })
    }

    /// The earliest setup deadline, for `deadline`.
    pub(super) fn setup_deadline(&self) -> Option<Instant> {
        let d = self.setup_deadlines();
        [d[Color::White], d[Color::Black]]
            .into_iter()
            .flatten()
            .min()
    }

    /// The outcome if a seat's time ran out by `now` before its placement was final: the
    /// other seat wins, or a draw if both ran out. `first_move` is the first-move timer's
    /// deadline, which wins if it came first.
    pub(super) fn setup_flag(&self, now: Now, first_move: Option<Instant>) -> Option<Outcome> {
        let d = self.setup_deadlines();
        let out = |seat: Color| d[seat].filter(|&at| now.mono >= at);
        let first = [out(Color::White), out(Color::Black)]
            .into_iter()
            .flatten()
            .min()?;
        if first_move.is_some_and(|fm| fm < first) {
            return None;
        }
        Some(match (out(Color::White), out(Color::Black)) {
            (Some(_), Some(_)) => Outcome::draw(Termination::TimeForfeit),
            (Some(_), None) => Outcome::win(Color::Black, Termination::TimeForfeit),
            _ => Outcome::win(Color::White, Termination::TimeForfeit),
        })
    }

    /// The clocks as of `now` during the setup: each seat without a final placement charged
    /// the setup's time so far (neither clock shows as running: both do).
    pub(super) fn setup_clocks(&self, now: Now) -> Option<ClockReading> {
        let clock = self.timing.clock.as_ref()?;
        let deadlines = self.setup_deadlines();
        Some(ClockReading {
            remaining: ByColor::new_with(|seat| match deadlines[seat] {
                Some(at) => at.saturating_duration_since(now.mono),
                None => clock.remaining(seat, now.mono),
            }),
            running: if self.setup_pending().is_some() || self.history.game.is_over() {
                None
            } else {
                clock.running_at(now.mono)
            },
            read_at: now.wall,
            byoyomi: clock.control().byoyomi,
        })
    }

    /// What the setup looks like at `now`, for a view: `None` once revealed (the start then
    /// shows it) and in games without one.
    pub(super) fn setup_view(&self, now: Now) -> Option<SetupView> {
        let setup = self.history.setup.as_deref()?;
        // Once revealed the start shows it, except to a game the reveal itself decided.
        if setup.revealed() && (!self.history.game.is_over() || self.history.game.ply() > 0) {
            return None;
        }
        let deadlines = self.setup_deadlines();
        Some(SetupView {
            placements: ByColor::new_with(|seat| {
                setup
                    .latest(seat)
                    .map(|(half, done)| (half.to_string().into_boxed_str(), done))
            }),
            deadlines: ByColor::new_with(|seat| deadlines[seat].map(|at| wall_at(at, now))),
        })
    }

    /// A pending setup refuses what only a game with a position allows.
    pub(super) fn refuse_in_setup(&self) -> Result<(), GameError> {
        match self.setup_pending() {
            Some(_) => Err(PlayError::SetupPending.into()),
            None => Ok(()),
        }
    }

    /// A restored setup row: the placement again, exactly as it was made (its log entry is
    /// the caller's to push; a reveal that decided the game ends it, its game-over row to
    /// follow).
    pub(super) fn replace(
        &mut self,
        seat: Color,
        step: SetupStep,
        placement: &str,
        at_ms: u64,
        now: Now,
    ) -> Result<(), String> {
        // Placed as at its time: the seat's clock is charged what it used then.
        let then = now_at(at_ms, now);
        let made = self
            .placed(seat, placement, step.is_final(), then)
            .map_err(|e| format!("{e:?}"))?;
        match made {
            Some((made, _)) if made != step => Err(format!(
                "a {} stored, a {} replayed",
                step.key(),
                made.key()
            )),
            Some((_, Some(outcome))) => self
                .history
                .game_mut()
                .finish(outcome)
                .map_err(|e| format!("the reveal's end: {e}")),
            Some(_) => Ok(()),
            None => Err("a final placement stored twice".to_owned()),
        }
    }
}

/// The wall time of monotonic instant `at`, read at `now`.
fn wall_at(at: Instant, now: Now) -> SystemTime {
    match at.checked_duration_since(now.mono) {
        Some(ahead) => now.wall + ahead,
        None => now
            .wall
            .checked_sub(now.mono.saturating_duration_since(at))
            .unwrap_or(now.wall),
    }
}
