//! A record's takebacks: proposing one, answering or withdrawing it, and the rewind itself, which catch-up
//! replays from a stored takeback event exactly as play made it.
//!
//! The clocks after a takeback (lichess's): nobody gets time back and no increment is added;
//! both clocks keep what they show at the moment of the takeback, and the side now to move
//! runs. A takeback also drops the standing draw offer (it was made in a position that is
//! gone) and restarts the abandonment wait, as a move does.

use chessd_rules::{ByColor, Color};

use crate::game::clock::Clock;
use crate::game::error::GameError;
use crate::game::error::PlayError;
use crate::game::error::SeatError;
use crate::game::event::{Event, takeback_proposed_event, taken_back_event};
use crate::game::log::{LogEntry, LogKind, clock_ms};
use crate::game::record::GameRecord;
use crate::game::takeback::{TakebackPolicy, plies_to_take_back};
use crate::game::time::{Now, whole_ms};

impl GameRecord {
    /// `seat` proposes to take back its last move. Proposing again while one's own proposal
    /// stands changes nothing.
    pub(super) fn propose_takeback(
        &mut self,
        seat: Color,
        now: Now,
        out: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        self.takebacks_allowed()?;
        match self.offers.takeback {
            Some(by) if by == seat => return Ok(()),
            Some(by) => return Err(PlayError::TakebackPending { by }.into()),
            None => {}
        }
        if plies_to_take_back(&self.history.game, seat).is_none() {
            return Err(PlayError::NothingToTakeBack.into());
        }
        self.offers.takeback = Some(seat);
        let entry = LogEntry::new(now.wall, LogKind::TakebackProposed(seat));
        let seq = self.history.push(entry);
        out.extend(takeback_proposed_event(
            seq,
            &entry,
            &self.history.game.position(),
            self.history.game.ply(),
        ));
        Ok(())
    }

    /// `seat` accepts or declines the opponent's standing takeback proposal.
    pub(super) fn respond_to_takeback(
        &mut self,
        seat: Color,
        accept: bool,
        now: Now,
        out: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        self.takebacks_allowed()?;
        let by = match self.offers.takeback {
            None => return Err(PlayError::NoTakebackProposal.into()),
            Some(by) if by == seat => {
                return Err(SeatError::WrongSeat {
                    seat,
                    required: !seat,
                }
                .into());
            }
            Some(by) => by,
        };
        if !accept {
            self.close_proposal(LogKind::TakebackDeclined(seat), now, out);
            return Ok(());
        }
        // A proposal stands only while no move is played, so it still takes back what it did
        // when it was made.
        let plies =
            plies_to_take_back(&self.history.game, by).ok_or(PlayError::NothingToTakeBack)?;
        self.take_back(plies)
            .map_err(|e| GameError::Internal(e.into()))?;
        self.timing.moved(now);
        // Back before both sides moved, clocks that start after the first moves stop again,
        // and a side that has its first move to make again gets the first-move timer from now.
        let running = self
            .clock_runs()
            .then(|| self.history.game.position().turn());
        let from = self.clock_from(now);
        let clocks_ms = match &mut self.timing.clock {
            Some(clock) => {
                let remaining = ByColor::new_with(|side| clock.remaining(side, now.mono));
                *clock = Clock::resume(clock.control(), remaining, running, from);
                remaining.map(clock_ms)
            }
            None => ByColor::default(),
        };
        self.arm_first_move(whole_ms(now.wall), now);
        let entry = LogEntry::new(
            now.wall,
            LogKind::TakenBack {
                plies,
                by,
                clocks_ms,
                running: running.is_some(),
            },
        );
        let seq = self.history.push(entry);
        out.extend(taken_back_event(
            seq,
            &entry,
            self.timing.clock.as_ref().map(Clock::control),
            self.history.game.position(),
            self.history.game.ply(),
        ));
        Ok(())
    }

    /// `seat` withdraws its own standing takeback proposal.
    pub(super) fn withdraw_takeback(
        &mut self,
        seat: Color,
        now: Now,
        out: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        self.takebacks_allowed()?;
        match self.offers.takeback {
            None => return Err(PlayError::NoTakebackProposal.into()),
            // Only the side that proposed may withdraw: the other answers it instead.
            Some(by) if by != seat => {
                return Err(SeatError::WrongSeat { seat, required: by }.into());
            }
            Some(_) => {}
        }
        self.close_proposal(LogKind::TakebackWithdrawn(seat), now, out);
        Ok(())
    }

    /// Refuses every takeback action in a game created without them.
    fn takebacks_allowed(&self) -> Result<(), PlayError> {
        match self.offers.policy {
            TakebackPolicy::Off => Err(PlayError::TakebacksOff),
            TakebackPolicy::OnRequest => Ok(()),
        }
    }

    /// The standing proposal ends without a takeback (`kind`: declined or withdrawn).
    fn close_proposal(&mut self, kind: LogKind, now: Now, out: &mut Vec<Event>) {
        self.offers.takeback = None;
        let entry = LogEntry::new(now.wall, kind);
        let seq = self.history.push(entry);
        out.extend(crate::game::event::offer_event(seq, &entry));
    }

    /// Takes back the last `plies` moves: they move to `undone`, the answers to their requests
    /// are marked, and no offer stands. The clock is the caller's (play sets it from now,
    /// catch-up from the stored clocks).
    pub(super) fn take_back(&mut self, plies: u8) -> Result<(), String> {
        self.history.take_back(plies)?;
        self.offers.clear();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use chessd_rules::{ByColor, Color};

    use super::*;
    use crate::api::decode;
    use crate::game::event::EventKind;
    use crate::game::record::Stored;
    use crate::game::record::apply::tests::record;
    use crate::game::{Action, RequestId, Seats, TimeControl};

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn keyed(text: &str, rid: &str) -> Action {
        Action::Move {
            text: decode::move_text(text).unwrap(),
            expected_ply: None,
            request_id: RequestId::parse(rid).unwrap(),
            offer_draw: false,
        }
    }

    fn key(rid: &str) -> u64 {
        rid.bytes().fold(7, |h, b| h * 31 + u64::from(b))
    }

    fn timed() -> TimeControl {
        TimeControl::even(Duration::from_secs(60), Duration::from_secs(2))
    }

    /// Plays `script` one step every 300 ms, collecting live events and the rows a store
    /// would keep; the record allows takebacks.
    fn play(
        script: &[(Color, Action)],
    ) -> (
        GameRecord,
        Vec<Event>,
        Vec<crate::game::EventRow>,
        Now,
        Seats,
    ) {
        let (mut rec, tokens, start) = record(START, Some(timed()));
        rec.offers.policy = TakebackPolicy::OnRequest;
        let mut live = Vec::new();
        let mut rows = Vec::new();
        let mut at = start;
        for (i, (seat, action)) in script.iter().enumerate() {
            at = Now {
                mono: start.mono + Duration::from_millis(300 * i as u64),
                wall: start.wall + Duration::from_millis(300 * i as u64),
            };
            let before = rec.last_seq();
            let rid = action.request_id().cloned();
            rec.apply(
                *seat,
                action,
                rid.as_ref().map(|r| key(r.as_str())),
                at,
                &mut live,
            )
            .unwrap_or_else(|e| panic!("step {i}: {e:?}"));
            rows.extend(rec.rows_after(before, at, rid.as_ref()));
        }
        (rec, live, rows, at, Seats::of(&tokens.map(Some)))
    }

    fn script() -> Vec<(Color, Action)> {
        use Color::{Black, White};
        vec![
            (White, keyed("e4", "w1")),
            (Black, keyed("e5", "b1")),
            (White, keyed("Nf3", "w2")),
            // White takes back its own last move: one ply.
            (White, Action::ProposeTakeback),
            (Black, Action::RespondToTakeback { accept: true }),
            (White, keyed("Bc4", "w3")),
            (Black, Action::OfferDraw),
            // Black to move asks: Bc4 and e5 go.
            (Black, Action::ProposeTakeback),
            (White, Action::RespondToTakeback { accept: false }),
            (Black, Action::ProposeTakeback),
            (White, Action::RespondToTakeback { accept: true }),
            (Black, keyed("c5", "b2")),
            // Black thinks better of taking c5 back.
            (Black, Action::ProposeTakeback),
            (Black, Action::WithdrawTakeback),
            (White, keyed("Nf3", "w4")),
            (Black, keyed("d6", "b3")),
        ]
    }

    /// The takeback rule on a record: what is taken back, the events, the clocks (kept as they
    /// stand, the side to move running), the offers dropped, the PGN's moves those that stand.
    #[test]
    fn takebacks_rewind_the_game() {
        let (rec, live, _, _, _) = play(&script());
        let sans: Vec<&str> = rec.game().sans().collect();
        assert_eq!(sans, ["e4", "c5", "Nf3", "d6"]);
        let taken: Vec<_> = live
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::MovesTakenBack {
                    by,
                    plies,
                    ply,
                    clocks,
                    ..
                } => Some((*by, *plies, *ply, clocks.unwrap().running)),
                _ => None,
            })
            .collect();
        assert_eq!(
            taken,
            [
                (Color::White, 1, 2, Some(Color::White)),
                (Color::Black, 2, 1, Some(Color::Black)),
            ]
        );
        let proposed: Vec<_> = live
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::TakebackProposed { by, plies, ply } => Some((by, plies, ply)),
                _ => None,
            })
            .collect();
        assert_eq!(
            proposed,
            [
                (Color::White, 1, 2),
                (Color::Black, 2, 1),
                (Color::Black, 2, 1),
                (Color::Black, 1, 1)
            ]
        );
        let withdrawn: Vec<_> = live
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::TakebackWithdrawn { by } => Some(by),
                _ => None,
            })
            .collect();
        assert_eq!(withdrawn, [Color::Black]);
        assert!(rec.offers.draw.is_none(), "the takeback dropped the offer");
        assert!(rec.offers.takeback.is_none());
        // seq rises with every event while the ply fell twice.
        let seqs: Vec<u64> = live.iter().map(|e| e.seq).collect();
        assert_eq!(seqs, (1..=live.len() as u64).collect::<Vec<_>>());
    }

    /// The clocks after a takeback are the clocks as they stood then: no time back, no
    /// increment, the side to move running.
    #[test]
    fn takeback_keeps_the_clocks() {
        use Color::{Black, White};
        let (mut rec, _, start) = record(START, Some(timed()));
        rec.offers.policy = TakebackPolicy::OnRequest;
        let at = |ms: u64| Now {
            mono: start.mono + Duration::from_millis(ms),
            wall: start.wall + Duration::from_millis(ms),
        };
        let mut out = Vec::new();
        rec.apply(White, &keyed("e4", "a"), None, at(1_000), &mut out)
            .unwrap();
        rec.apply(White, &Action::ProposeTakeback, None, at(1_500), &mut out)
            .unwrap();
        let before = ByColor::new_with(|c| {
            rec.timing
                .clock
                .as_ref()
                .unwrap()
                .remaining(c, at(4_000).mono)
        });
        rec.apply(
            Black,
            &Action::RespondToTakeback { accept: true },
            None,
            at(4_000),
            &mut out,
        )
        .unwrap();
        let clock = rec.timing.clock.as_ref().unwrap();
        assert_eq!(clock.running(), Some(White));
        assert_eq!(clock.remaining(White, at(4_000).mono), before[White]);
        assert_eq!(clock.remaining(Black, at(4_000).mono), before[Black]);
        assert_eq!(
            clock.remaining(White, at(5_000).mono),
            before[White] - Duration::from_secs(1),
            "White's clock runs again"
        );
        assert_eq!(rec.game().ply(), 0);
    }

    /// Every refusal, with nothing changed: takebacks off, nothing of one's own to take back,
    /// answering one's own proposal or none, a proposal over the opponent's, the game over.
    #[test]
    fn refusals() {
        use Color::{Black, White};
        let (mut rec, _, now) = record(START, None);
        let mut out = Vec::new();
        rec.apply(White, &keyed("e4", "a"), None, now, &mut out)
            .unwrap();
        assert!(matches!(
            rec.apply(White, &Action::ProposeTakeback, None, now, &mut out),
            Err(GameError::Play(PlayError::TakebacksOff))
        ));
        assert!(matches!(
            rec.apply(White, &Action::WithdrawTakeback, None, now, &mut out),
            Err(GameError::Play(PlayError::TakebacksOff))
        ));
        rec.offers.policy = TakebackPolicy::OnRequest;
        assert!(matches!(
            rec.apply(Black, &Action::ProposeTakeback, None, now, &mut out),
            Err(GameError::Play(PlayError::NothingToTakeBack))
        ));
        assert!(matches!(
            rec.apply(
                Black,
                &Action::RespondToTakeback { accept: true },
                None,
                now,
                &mut out
            ),
            Err(GameError::Play(PlayError::NoTakebackProposal))
        ));
        rec.apply(White, &Action::ProposeTakeback, None, now, &mut out)
            .unwrap();
        let events = out.len();
        rec.apply(White, &Action::ProposeTakeback, None, now, &mut out)
            .unwrap();
        assert_eq!(out.len(), events, "proposing again changes nothing");
        assert!(matches!(
            rec.apply(
                White,
                &Action::RespondToTakeback { accept: true },
                None,
                now,
                &mut out
            ),
            Err(GameError::Seat(SeatError::WrongSeat {
                seat: White,
                required: Black
            }))
        ));
        assert!(matches!(
            rec.apply(Black, &Action::ProposeTakeback, None, now, &mut out),
            Err(GameError::Play(PlayError::TakebackPending { by: White }))
        ));
        // Only the side that proposed withdraws.
        assert!(matches!(
            rec.apply(Black, &Action::WithdrawTakeback, None, now, &mut out),
            Err(GameError::Seat(SeatError::WrongSeat {
                seat: Black,
                required: White
            }))
        ));
        // Black's move clears White's proposal without an event.
        rec.apply(Black, &keyed("e5", "b"), None, now, &mut out)
            .unwrap();
        assert!(rec.offers.takeback.is_none());
        assert!(matches!(
            rec.apply(
                Black,
                &Action::RespondToTakeback { accept: true },
                None,
                now,
                &mut out
            ),
            Err(GameError::Play(PlayError::NoTakebackProposal))
        ));
        assert!(matches!(
            rec.apply(White, &Action::WithdrawTakeback, None, now, &mut out),
            Err(GameError::Play(PlayError::NoTakebackProposal))
        ));
        // The game's end clears one too, and nothing is taken back after it.
        rec.apply(Black, &Action::ProposeTakeback, None, now, &mut out)
            .unwrap();
        rec.apply(White, &Action::Resign, None, now, &mut out)
            .unwrap();
        assert!(rec.offers.takeback.is_none());
        assert!(matches!(
            rec.apply(Black, &Action::ProposeTakeback, None, now, &mut out),
            Err(GameError::Play(PlayError::GameOver))
        ));
        assert_eq!(rec.game().ply(), 2);
    }

    /// A retried request whose move was taken back is refused (its move no longer stands);
    /// one whose move stands still gets its first answer, with its own seq; a move played
    /// again after the takeback under a new id answers its retries as usual.
    #[test]
    fn retries_after_a_takeback() {
        use Color::{Black, White};
        let (mut rec, _, rows_live, now, _) = play(&script()[..5]);
        assert_eq!(rec.game().ply(), 2);
        let mut out = Vec::new();
        assert!(matches!(
            rec.apply(White, &keyed("Nf3", "w2"), Some(key("w2")), now, &mut out),
            Err(GameError::Play(PlayError::MoveTakenBack))
        ));
        let again = rec
            .apply(Black, &keyed("e5", "b1"), Some(key("b1")), now, &mut out)
            .unwrap()
            .unwrap();
        assert_eq!((again.ply, again.seq), (2, 2));
        assert!(out.is_empty(), "nothing played");
        // The same text played anew under a new id.
        let new = rec
            .apply(White, &keyed("Nf3", "w2b"), Some(key("w2b")), now, &mut out)
            .unwrap()
            .unwrap();
        let retried = rec
            .apply(White, &keyed("Nf3", "w2b"), Some(key("w2b")), now, &mut out)
            .unwrap()
            .unwrap();
        assert_eq!(new, retried);
        assert_eq!(new.seq, rec.last_seq());
        assert_eq!(rows_live.len(), 5);
    }

    /// Replaying from any seq gives the events watchers saw live, takebacks included; the
    /// rows a store keeps restore the same record (moves, log, moves taken back, offers,
    /// answers, clocks), whole or caught up from any point.
    #[test]
    fn replay_and_restore_with_takebacks() {
        let (rec, live, rows, at, seats) = play(&script());
        let live: Vec<_> = live
            .iter()
            .map(|e| crate::api::encode::event(e, crate::game::Viewer::Whole))
            .collect();
        assert_eq!(live.len() as u64, rec.last_seq());
        for after in 0..=rec.last_seq() {
            let replayed: Vec<_> = rec
                .replay_after(after)
                .map(|e| crate::api::encode::event(&e, crate::game::Viewer::Whole))
                .collect();
            assert_eq!(replayed, live[after as usize..], "after seq {after}");
        }
        let stored = |events: Vec<crate::game::EventRow>| Stored {
            start: rec.game().start(),
            draw_rule: rec.game().draw_rule(),
            time_control: Some(timed()),
            start_rules: crate::game::StartRules::default(),
            takebacks: TakebackPolicy::OnRequest,
            claim_after: Duration::from_secs(60),
            seats: seats.clone(),
            created_at: rec.timing.created_at(),
            events,
            charged: Duration::ZERO,
        };
        let same = |back: &GameRecord| {
            assert!(back.game().moves().eq(rec.game().moves()));
            assert_eq!(back.history.log, rec.history.log);
            assert_eq!(back.history.undone, rec.history.undone);
            assert_eq!(back.offers.draw, rec.offers.draw);
            assert_eq!(back.offers.takeback, rec.offers.takeback);
            assert_eq!(
                back.history.answered.entries(),
                rec.history.answered.entries()
            );
            let clocks = |r: &GameRecord| {
                ByColor::new_with(|c| r.timing.clock.as_ref().unwrap().remaining(c, at.mono))
            };
            assert_eq!(clocks(back), clocks(&rec));
            let events = |r: &GameRecord| -> Vec<_> {
                r.replay_after(0)
                    .map(|e| crate::api::encode::event(&e, crate::game::Viewer::Whole))
                    .collect()
            };
            assert_eq!(events(back), events(&rec));
        };
        same(&GameRecord::restore(stored(rows.clone()), key, at).unwrap());
        for split in 0..rows.len() {
            let mut part = GameRecord::restore(stored(rows[..split].to_vec()), key, at).unwrap();
            part.catch_up(&rows[split..], key, Duration::ZERO, at)
                .unwrap();
            same(&part);
        }
    }
}
