//! The one way back from stored events: [`GameRecord::catch_up`] plays events onto a record
//! that holds the ones before them; a game restored from storage is a new record caught up on
//! all its events ([`GameRecord::restore`]), and a replica's cached game is caught up on the
//! events other replicas appended, in time proportional to the new events.

use std::time::Duration;

use crate::game::clock::Clock;
use crate::game::event::EventRow;
use crate::game::log::{LogEntry, LogKind};
use crate::game::record::{GameRecord, Stored};
use crate::game::time::Now;

impl GameRecord {
    /// A game rebuilt from its stored events, played again through the engine, with its clock
    /// running from `now` (the downtime is charged to nobody; the side to move is charged
    /// `stored.charged`, its thinking time before it). `key` hashes a move's request id as the
    /// store does, so retries from before the restart are still recognised. An event that does
    /// not fit the game (a gap, an illegal move) is an error: the store refuses to serve a game
    /// that is not what it was.
    pub fn restore(
        stored: Stored,
        key: impl Fn(&str) -> u64,
        now: Now,
    ) -> Result<GameRecord, String> {
        let mut record = GameRecord::blank(
            stored.start,
            stored.draw_rule,
            stored.time_control,
            stored.start_rules,
            stored.seats,
            stored.created_at,
            now,
        )
        .with_takebacks(stored.takebacks)
        .claimable_after(stored.claim_after);
        record.charge(stored.charged, now);
        record.catch_up(&stored.events, key, stored.charged, now)?;
        Ok(record)
    }

    /// Plays `rows`, the events right after the record's last one, onto the record. The clock
    /// then runs from `now` with what the last event showed, the side to move charged
    /// `charged` (its thinking time since that event). `key` hashes a move's request id as the
    /// store does. An event that does not fit (a gap, an illegal move) is an error, and the
    /// record must then be dropped (it may be half caught up).
    pub fn catch_up(
        &mut self,
        rows: &[EventRow],
        key: impl Fn(&str) -> u64,
        charged: Duration,
        now: Now,
    ) -> Result<(), String> {
        let mut clocks_ms = None;
        for row in rows {
            let seq = self.last_seq() + 1;
            if row.seq != seq {
                return Err(format!("event {seq} is missing (found {})", row.seq));
            }
            match row.kind {
                LogKind::Move { .. } => {
                    let mv = row
                        .mv
                        .ok_or_else(|| format!("event {seq}: a move without its move"))?;
                    let mover = self.history.game.position().turn();
                    // A refused move leaves the game as it was, so the error can name it.
                    let played = self.history.game_mut().play(mv);
                    played.map_err(|e| {
                        let before = self.history.game.position().fen();
                        format!("event {seq}: {mv} cannot be played in {before}: {e}")
                    })?;
                    self.offers.after_move(mover);
                    if let Some(rid) = &row.request_id {
                        self.history.answered.remember(
                            key(rid),
                            mover,
                            self.history.game.ply(),
                            row.seq,
                        );
                    }
                }
                LogKind::DrawOffered(by) => self.offers.draw = Some(by),
                LogKind::DrawDeclined(_) => self.offers.draw = None,
                // The clocks it changed are the row's, read below with every row's.
                LogKind::ClockChanged { .. } => {}
                LogKind::TakebackProposed(by) => self.offers.takeback = Some(by),
                LogKind::TakebackDeclined(_) | LogKind::TakebackWithdrawn(_) => {
                    self.offers.takeback = None;
                }
                LogKind::TakenBack { plies, .. } => self
                    .take_back(plies)
                    .map_err(|e| format!("event {seq}: {e}"))?,
                LogKind::Setup { seat, step } => {
                    let placement = row
                        .setup
                        .as_ref()
                        .ok_or_else(|| format!("event {seq}: a setup without its placement"))?;
                    self.replace(seat, step, &placement.placement, row.at_ms, now)
                        .map_err(|e| format!("event {seq}: {e}"))?;
                }
                LogKind::Entropy { seat, step } => {
                    let sent = row.entropy.as_ref().ok_or_else(|| {
                        format!("event {seq}: an entropy event without its value")
                    })?;
                    self.resubmit(
                        seat,
                        step,
                        sent.value,
                        sent.start.as_deref(),
                        row.at_ms,
                        now,
                    )
                    .map_err(|e| format!("event {seq}: {e}"))?;
                }
                LogKind::GameOver => {
                    // A game that ended on the board already has its outcome from the moves.
                    if !self.history.game.is_over() {
                        let outcome = row
                            .outcome
                            .ok_or_else(|| format!("event {seq}: game over without an outcome"))?;
                        self.history
                            .game_mut()
                            .finish(outcome)
                            .map_err(|e| format!("event {seq}: cannot end the game: {e}"))?;
                    }
                    self.offers.clear();
                }
            }
            clocks_ms = row.clocks_ms.or(clocks_ms);
            self.history.push(LogEntry {
                at_ms: row.at_ms,
                kind: row.kind,
            });
        }
        if let (Some(control), Some(ms)) =
            (self.timing.clock.as_ref().map(Clock::control), clocks_ms)
        {
            let running = self
                .clock_runs()
                .then(|| self.history.game.position().turn());
            self.timing.clock = Some(Clock::resume(
                control,
                ms.map(Duration::from_millis),
                running,
                self.clock_from(now),
            ));
            self.charge(charged, now);
        }
        if !rows.is_empty() {
            self.rearm_first_move(now);
        }
        Ok(())
    }

    /// Takes `charged` (the part of it the clock ran for) off the running side's clock, which
    /// runs from `now`.
    fn charge(&mut self, charged: Duration, now: Now) {
        let charged = self.chargeable(charged);
        if let Some(clock) = &mut self.timing.clock
            && let Some(side) = clock.running_at(now.mono)
        {
            let left = clock.remaining(side, now.mono).saturating_sub(charged);
            clock.set(side, left, now.mono);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use chessd_rules::{ByColor, Color};

    use super::*;
    use crate::api::decode;
    use crate::game::record::apply::tests::record;
    use crate::game::{Action, RequestId, Seats, TimeControl};

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    /// A game rebuilt from the rows the journal stored is the game it was: same moves,
    /// outcome, offers, seqs, replayed events and answered request ids, and its clocks as they
    /// stood at the last event.
    #[test]
    fn restore_from_journal_rows() {
        let tc = TimeControl::even(Duration::from_secs(60), Duration::from_secs(1));
        let (mut rec, tokens, now) = record(START, Some(tc));
        let keyed = |text: &str, rid: &str| Action::Move {
            text: decode::move_text(text).unwrap(),
            expected_ply: None,
            request_id: RequestId::parse(rid).unwrap(),
            offer_draw: false,
        };
        let script = [
            (Color::White, keyed("e4", "a")),
            (Color::White, Action::OfferDraw),
            (Color::Black, Action::RespondToDraw { accept: false }),
            (Color::Black, keyed("e5", "b")),
            (Color::Black, Action::OfferDraw),
        ];
        let key = |rid: &str| rid.len() as u64 * 1000 + u64::from(rid.as_bytes()[0]);
        let mut rows = Vec::new();
        let mut live = Vec::new();
        let mut at = now;
        for (i, (seat, action)) in script.iter().enumerate() {
            at = Now {
                mono: now.mono + Duration::from_millis(500 * i as u64),
                wall: now.wall + Duration::from_millis(500 * i as u64),
            };
            let before = rec.last_seq();
            let rid = match action {
                Action::Move { request_id, .. } => request_id.clone(),
                _ => None,
            };
            let request_key = rid.as_ref().map(|r| key(r.as_str()));
            rec.apply(*seat, action, request_key, at, &mut live)
                .unwrap();
            rows.extend(rec.rows_after(before, at, rid.as_ref()));
        }
        let stored = Stored {
            start: rec.game().start(),
            draw_rule: rec.game().draw_rule(),
            time_control: Some(tc),
            start_rules: crate::game::StartRules::default(),
            takebacks: crate::game::TakebackPolicy::Off,
            seats: Seats::of(&tokens.map(Some)),
            created_at: rec.timing.created_at(),
            events: rows,
            charged: Duration::ZERO,
            claim_after: Duration::from_secs(60),
        };
        let back = GameRecord::restore(stored, key, at).unwrap();
        assert!(back.game().moves().eq(rec.game().moves()));
        assert_eq!(back.offers.draw, Some(Color::Black));
        assert_eq!(back.history.log, rec.history.log);
        assert_eq!(back.seats().seat_of(tokens.black()).unwrap(), Color::Black);
        let clocks = |r: &GameRecord| {
            ByColor::new_with(|c| r.timing.clock.as_ref().unwrap().remaining(c, at.mono))
        };
        assert_eq!(clocks(&back), clocks(&rec));
        let events = |r: &GameRecord| -> Vec<_> {
            r.replay_after(0)
                .map(|e| crate::api::encode::event(&e, crate::game::Viewer::Whole))
                .collect()
        };
        assert_eq!(events(&back), events(&rec));
        // The retry of "b" after the restart is still recognised.
        let mut out = Vec::new();
        let mut back = back;
        let again = back
            .apply(
                Color::Black,
                &keyed("e7e5", "b"),
                Some(key("b")),
                at,
                &mut out,
            )
            .unwrap();
        assert_eq!(again.map(|m| m.ply), Some(2));
        assert!(out.is_empty(), "nothing played twice");
        // The game goes on and ends as usual.
        back.apply(Color::White, &Action::Resign, None, at, &mut out)
            .unwrap();
        assert!(back.is_over());
    }

    /// A record restored from the first events and caught up on the rest is the record
    /// restored from all of them: moves, log, offer, replayed events, retries, clocks.
    #[test]
    fn catch_up_matches_restore() {
        let tc = TimeControl::even(Duration::from_secs(60), Duration::from_secs(1));
        let (mut rec, tokens, start) = record(START, Some(tc));
        let seats = Seats::of(&tokens.map(Some));
        let keyed = |text: &str, rid: &str| Action::Move {
            text: decode::move_text(text).unwrap(),
            expected_ply: None,
            request_id: RequestId::parse(rid).unwrap(),
            offer_draw: false,
        };
        let key = |rid: &str| rid.len() as u64;
        let script = [
            (Color::White, keyed("e4", "a")),
            (Color::White, Action::OfferDraw),
            (Color::Black, Action::RespondToDraw { accept: false }),
            (Color::Black, keyed("e5", "bb")),
            (Color::Black, Action::OfferDraw),
            (Color::White, keyed("Nf3", "ccc")),
        ];
        let mut rows = Vec::new();
        let mut at = start;
        for (i, (seat, action)) in script.iter().enumerate() {
            at = Now {
                mono: start.mono + Duration::from_millis(300 * i as u64),
                wall: start.wall + Duration::from_millis(300 * i as u64),
            };
            let before = rec.last_seq();
            let rid = match action {
                Action::Move { request_id, .. } => request_id.clone(),
                _ => None,
            };
            rec.apply(
                *seat,
                action,
                rid.as_ref().map(|r| key(r.as_str())),
                at,
                &mut Vec::new(),
            )
            .unwrap();
            rows.extend(rec.rows_after(before, at, rid.as_ref()));
        }
        let stored = |events: Vec<EventRow>| Stored {
            start: rec.game().start(),
            draw_rule: rec.game().draw_rule(),
            time_control: Some(tc),
            start_rules: crate::game::StartRules::default(),
            takebacks: crate::game::TakebackPolicy::Off,
            seats: seats.clone(),
            created_at: rec.timing.created_at(),
            events,
            charged: Duration::ZERO,
            claim_after: Duration::from_secs(60),
        };
        let tail: Vec<EventRow> = rows.split_off(3);
        let whole = {
            let mut all = rows.clone();
            all.extend(tail.iter().cloned());
            GameRecord::restore(stored(all), key, at).unwrap()
        };
        let mut part = GameRecord::restore(stored(rows), key, at).unwrap();
        part.catch_up(&tail, key, Duration::ZERO, at).unwrap();
        assert!(part.game().moves().eq(whole.game().moves()));
        assert_eq!(part.history.log, whole.history.log);
        assert_eq!(part.offers.draw, whole.offers.draw);
        let events = |r: &GameRecord| -> Vec<_> {
            r.replay_after(0)
                .map(|e| crate::api::encode::event(&e, crate::game::Viewer::Whole))
                .collect()
        };
        assert_eq!(events(&part), events(&whole));
        let clocks = |r: &GameRecord| {
            ByColor::new_with(|c| r.timing.clock.as_ref().unwrap().remaining(c, at.mono))
        };
        assert_eq!(clocks(&part), clocks(&whole));
        let answered = |r: &GameRecord| r.history.answered.entries();
        assert_eq!(answered(&part), answered(&whole));
        // A gap is refused.
        let mut again = GameRecord::restore(stored(Vec::new()), key, at).unwrap();
        assert!(again.catch_up(&tail, key, Duration::ZERO, at).is_err());
    }
}
