//! `GameRecord::extend`: events another process appended (a replica sharing a Redis), played
//! onto a record that already holds the ones before them, as `GameRecord::restore` plays a
//! whole game back. It keeps a replica's cached game current in time proportional to the new
//! events rather than to the whole game.

use std::time::Duration;

use chessd_rules::Rules;

use super::{ANSWERED_MEMORY, Answered, GameRecord, Now};
use crate::store::Clock;
use crate::store::events::{LogEntry, LogKind, offer_after_move};
use crate::store::journal::EventRow;

impl GameRecord {
    /// Plays `rows`, the events right after the record's last one, onto the record. The clock
    /// then runs from `now` with what the last event showed, the side to move charged
    /// `charged` (its thinking time since that event). `key` hashes a move's request id as the
    /// store does. An event that does not fit (a gap, an illegal move) is an error, and the
    /// record must then be dropped (it may be half extended).
    pub fn extend(
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
                    let mover = self.game.position().turn();
                    self.game_mut()
                        .play(mv)
                        .map_err(|e| format!("event {seq}: {mv} cannot be played: {e}"))?;
                    self.draw_offer = offer_after_move(self.draw_offer, mover);
                    if let Some(rid) = &row.request_id {
                        if self.answered.len() == ANSWERED_MEMORY {
                            self.answered.pop_front();
                        }
                        self.answered.push_back(Answered {
                            key: key(rid),
                            seat: mover,
                            ply: self.game.ply(),
                        });
                    }
                }
                LogKind::DrawOffered(by) => self.draw_offer = Some(by),
                LogKind::DrawDeclined(_) => self.draw_offer = None,
                LogKind::GameOver => {
                    if !self.game.is_over() {
                        let outcome = row
                            .outcome
                            .ok_or_else(|| format!("event {seq}: game over without an outcome"))?;
                        self.game_mut()
                            .finish(outcome)
                            .map_err(|e| format!("event {seq}: cannot end the game: {e}"))?;
                    }
                    self.draw_offer = None;
                }
            }
            clocks_ms = row.clocks_ms.or(clocks_ms);
            self.log.push(LogEntry {
                at_ms: row.at_ms,
                kind: row.kind,
            });
        }
        if let (Some(control), Some(ms)) = (self.clock.as_ref().map(Clock::control), clocks_ms) {
            let mut remaining = ms.map(Duration::from_millis);
            let running = (!self.game.is_over()).then(|| self.game.position().turn());
            if let Some(side) = running {
                remaining[side.index()] = remaining[side.index()].saturating_sub(charged);
            }
            self.clock = Some(Clock::resume(control, remaining, running, now.mono));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use chessd_rules::{Color, DrawRule, Position, Variant};

    use super::*;
    use crate::convert;
    use crate::store::record::Stored;
    use crate::store::{Action, NewGame, Players, RequestId, TimeControl};
    use crate::token::SeatToken;

    /// A record restored from the first events and extended with the rest is the record
    /// restored from all of them: moves, log, offer, replayed events, retries, clocks.
    #[test]
    fn extend_matches_restore() {
        let tc = TimeControl {
            initial: Duration::from_secs(60),
            increment: Duration::from_secs(1),
        };
        let new = NewGame {
            start: Position::new(Variant::Chess),
            time_control: Some(tc),
            players: Players {
                white: "w".into(),
                black: "b".into(),
            },
            draw_rule: DrawRule::Claim,
            request_id: None,
        };
        let tokens = [
            SeatToken::generate().unwrap(),
            SeatToken::generate().unwrap(),
        ];
        let start = Now::read();
        let digests = tokens.map(|t| t.digest());
        let mut rec = GameRecord::new(&new, digests, start);
        let keyed = |text: &str, rid: &str| Action::Move {
            text: convert::move_text(text).unwrap(),
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
            rows.extend(rec.journal_rows(before, at, rid.as_ref()));
        }
        let stored = |events: Vec<EventRow>| Stored {
            start: new.start,
            draw_rule: new.draw_rule,
            time_control: Some(tc),
            digests,
            created_at: start.wall,
            events,
            charged: Duration::ZERO,
        };
        let tail: Vec<EventRow> = rows.split_off(3);
        let whole = {
            let mut all: Vec<EventRow> = rows.iter().map(clone_row).collect();
            all.extend(tail.iter().map(clone_row));
            GameRecord::restore(stored(all), key, at).unwrap()
        };
        let mut part = GameRecord::restore(stored(rows), key, at).unwrap();
        part.extend(&tail, key, Duration::ZERO, at).unwrap();
        assert_eq!(part.game().moves(), whole.game().moves());
        assert_eq!(part.log, whole.log);
        assert_eq!(part.draw_offer, whole.draw_offer);
        let events =
            |r: &GameRecord| -> Vec<_> { r.replay_after(0).map(|e| convert::event(&e)).collect() };
        assert_eq!(events(&part), events(&whole));
        let clocks =
            |r: &GameRecord| Color::ALL.map(|c| r.clock.as_ref().unwrap().remaining(c, at.mono));
        assert_eq!(clocks(&part), clocks(&whole));
        let answered = |r: &GameRecord| -> Vec<_> {
            r.answered.iter().map(|a| (a.key, a.seat, a.ply)).collect()
        };
        assert_eq!(answered(&part), answered(&whole));
        // A gap is refused.
        let mut again = GameRecord::restore(stored(Vec::new()), key, at).unwrap();
        assert!(again.extend(&tail, key, Duration::ZERO, at).is_err());
    }

    fn clone_row(r: &EventRow) -> EventRow {
        EventRow {
            seq: r.seq,
            at_ms: r.at_ms,
            kind: r.kind,
            mv: r.mv,
            seat: r.seat,
            request_id: r.request_id.clone(),
            clocks_ms: r.clocks_ms,
            outcome: r.outcome,
        }
    }
}
