//! [`PackedRecord`]: a finished game as a store keeps it in memory, a few bytes a move. A game
//! that is over changes no more, so everything a [`GameRecord`] holds to play on quickly (the
//! positions' repetition keys, each move's SAN, a 24-byte log entry per event) is dropped, and
//! the record is rebuilt from the packed events when a call reads the game
//! ([`PackedRecord::unpack`], the restore path every durable store already takes).
//!
//! The bytes, in order:
//! - the seats' token digests: a byte of flags (bit 0 White's, bit 1 Black's), then 32 bytes
//!   for each digest present;
//! - the clocks at the end (timed games): a byte 0 or 1, then White's and Black's remaining
//!   milliseconds as varints;
//! - the events, each led by a varint whose low bit says its form. A move (bit 0 clear): the
//!   milliseconds since the previous event, zigzagged, shifted left two, bit 1 whether no clock
//!   ran after it; then the move in two bytes (from, to, promotion or drop; see `move_code`);
//!   then, in a timed game, how each clock changed since the previous move, zigzagged. Any
//!   other event (bit 0 set) is its stored line (`codec::write_event`), its length shifted
//!   left one: offers, takebacks and the game's end are a few per game;
//! - the answered requests kept (see below): a count byte, then each one's key (8 bytes), seq,
//!   and ply with seat and mark.
//!
//! The encoding lives only in this process's memory (never stored, never sent), so it may
//! change with any build. Of the answered move requests a finished game keeps the latest of
//! each seat: a client retries its latest request, and in a finished game no later one can
//! have been answered.

use std::time::Duration;

use chessd_rules::{ByColor, Color, Outcome, Role, Rules, Square, UciMove};
use prost::encoding::{decode_varint, encode_varint};

use super::answered::{Answered, AnsweredRing};
use super::{GameRecord, Stored};
use crate::game::codec::{decode_event, write_event};
use crate::game::event::EventRow;
use crate::game::header::GameHeader;
use crate::game::log::LogKind;
use crate::game::takeback::{Line, TakebackPolicy};
use crate::game::time::{Now, epoch_ms};
use crate::game::token::{Seats, TokenDigest};

/// A finished game, packed (see the module's notes for the bytes).
#[derive(Clone, Debug)]
pub struct PackedRecord {
    bytes: Box<[u8]>,
    outcome: Option<Outcome>,
    ply: u32,
    takebacks: TakebackPolicy,
}

impl GameRecord {
    /// The game packed, its clocks read at `now` (stopped in a finished game). Meant for games
    /// that are over: one still running would be rebuilt with its clock stopped.
    #[must_use]
    pub fn pack(&self, header: &GameHeader, now: Now) -> PackedRecord {
        let mut rows = self.rows_after(0, now, None);
        let clocks = rows.last_mut().and_then(|row| row.clocks_ms.take());
        let mut out = Vec::with_capacity(80 + 5 * rows.len());
        let seats = self.seats();
        let flags = u8::from(seats.digest(Color::White).is_some())
            | u8::from(seats.digest(Color::Black).is_some()) << 1;
        out.push(flags);
        for color in Color::ALL {
            if let Some(digest) = seats.digest(color) {
                out.extend_from_slice(digest.as_bytes());
            }
        }
        match clocks {
            Some(ms) => {
                out.push(1);
                encode_varint(ms[Color::White], &mut out);
                encode_varint(ms[Color::Black], &mut out);
            }
            None => out.push(0),
        }
        let timed = header.time_control.is_some();
        encode_varint(rows.len() as u64, &mut out);
        let mut at = epoch_ms(header.created_at);
        let mut clocks = ByColor::<u32>::default();
        for row in &mut rows {
            row.clocks_ms = None;
            match (row.kind, row.mv) {
                (
                    LogKind::Move {
                        clocks_ms,
                        clocks_stopped,
                    },
                    Some(mv),
                ) if timed || clocks_ms == ByColor::default() => {
                    let since = zigzag(row.at_ms as i64 - at as i64);
                    encode_varint(since << 2 | u64::from(clocks_stopped) << 1, &mut out);
                    out.extend_from_slice(&move_code(UciMove::from(mv)).to_le_bytes());
                    if timed {
                        for color in Color::ALL {
                            let change = i64::from(clocks_ms[color]) - i64::from(clocks[color]);
                            encode_varint(zigzag(change), &mut out);
                        }
                        clocks = clocks_ms;
                    }
                }
                _ => {
                    let line = write_event(row);
                    encode_varint((line.len() as u64) << 1 | 1, &mut out);
                    out.extend_from_slice(line.as_bytes());
                }
            }
            at = row.at_ms;
        }
        let kept = latest_per_seat(&self.history.answered);
        out.push(kept.len() as u8);
        for a in kept {
            out.extend_from_slice(&a.key.to_le_bytes());
            encode_varint(a.seq, &mut out);
            let mark = u64::from(a.ply) << 2 | (a.seat as u64) << 1 | u64::from(a.taken_back);
            encode_varint(mark, &mut out);
        }
        PackedRecord {
            bytes: out.into_boxed_slice(),
            outcome: self.history.game.outcome(),
            ply: self.history.game.ply(),
            takebacks: self.takebacks(),
        }
    }
}

impl PackedRecord {
    /// How the game ended (`None` only for a game packed before its end).
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Half-moves standing at the end.
    #[must_use]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The seats' token digests, read without unpacking the game.
    #[must_use]
    pub fn seats(&self) -> Seats {
        let mut bytes = &self.bytes[..];
        read_seats(&mut bytes).unwrap_or_else(|| Seats::new(ByColor::default()))
    }

    /// Bytes held, on the heap and inline.
    #[must_use]
    pub fn bytes(&self) -> usize {
        size_of::<PackedRecord>() + self.bytes.len()
    }

    /// The record again, as a game of `header` restored at `now` (its clocks stopped as they
    /// ended), abandoned after `abandon_after` as the store's games are. An error means the
    /// bytes do not decode into the game they were packed from: a bug, never the caller's.
    pub fn unpack(
        &self,
        header: &GameHeader,
        abandon_after: Option<Duration>,
        now: Now,
    ) -> Result<GameRecord, String> {
        let mut bytes = &self.bytes[..];
        let seats = read_seats(&mut bytes).ok_or("packed seats cut short")?;
        let clocks = match take_byte(&mut bytes)? {
            0 => None,
            _ => Some(ByColor::new(varint(&mut bytes)?, varint(&mut bytes)?)),
        };
        let timed = header.time_control.is_some();
        let count = varint(&mut bytes)?;
        let mut events = Vec::with_capacity(usize::try_from(count).unwrap_or(0).min(bytes.len()));
        let mut line = Line::from_start(header.start);
        let mut at = epoch_ms(header.created_at);
        let mut log_clocks = ByColor::<u32>::default();
        for seq in 1..=count {
            let lead = varint(&mut bytes)?;
            let row = if lead & 1 == 0 {
                at = at.wrapping_add_signed(unzigzag(lead >> 2));
                let code = u16::from_le_bytes([take_byte(&mut bytes)?, take_byte(&mut bytes)?]);
                let uci =
                    move_uci(code).ok_or_else(|| format!("event {seq}: packed move {code:#x}"))?;
                let mover = line.position().turn();
                let mv = uci
                    .to_move(line.position())
                    .map_err(|e| format!("event {seq}: packed move {uci}: {e}"))?;
                line.play(mv);
                if timed {
                    for color in Color::ALL {
                        let change = unzigzag(varint(&mut bytes)?);
                        log_clocks[color] = u32::try_from(i64::from(log_clocks[color]) + change)
                            .map_err(|_| format!("event {seq}: packed clocks"))?;
                    }
                }
                EventRow {
                    seq,
                    at_ms: at,
                    kind: LogKind::Move {
                        clocks_ms: log_clocks,
                        clocks_stopped: lead & 2 != 0,
                    },
                    mv: Some(mv),
                    seat: Some(mover),
                    request_id: None,
                    clocks_ms: None,
                    outcome: None,
                }
            } else {
                let len = usize::try_from(lead >> 1).map_err(|_| "packed length")?;
                if bytes.len() < len {
                    return Err(format!("event {seq}: packed line cut short"));
                }
                let (text, rest) = bytes.split_at(len);
                bytes = rest;
                let text =
                    std::str::from_utf8(text).map_err(|_| format!("event {seq}: packed line"))?;
                let row = decode_event(seq, text, &mut line)?;
                at = row.at_ms;
                row
            };
            events.push(row);
        }
        if let Some(last) = events.last_mut() {
            last.clocks_ms = clocks;
        }
        let mut answers = Vec::new();
        for _ in 0..take_byte(&mut bytes)? {
            let (key, rest) = bytes
                .split_first_chunk::<8>()
                .ok_or("packed answers cut short")?;
            bytes = rest;
            let key = u64::from_le_bytes(*key);
            let seq = varint(&mut bytes)?;
            let mark = varint(&mut bytes)?;
            answers.push(Answered {
                key,
                seat: if mark & 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                },
                ply: u32::try_from(mark >> 2).map_err(|_| "packed answer's ply")?,
                seq,
                taken_back: mark & 1 != 0,
            });
        }
        let stored = Stored {
            start: header.start,
            draw_rule: header.draw_rule,
            time_control: header.time_control,
            start_rules: header.start_rules,
            takebacks: self.takebacks,
            seats,
            created_at: header.created_at,
            events,
            charged: Duration::ZERO,
            claim_after: header.claim_after,
        };
        let mut record = GameRecord::restore(stored, |_| 0, now)?.abandoned_after(abandon_after);
        record.history.answered = AnsweredRing::of(answers);
        Ok(record)
    }
}

/// Each seat's latest answered request, oldest first.
fn latest_per_seat(ring: &AnsweredRing) -> Vec<Answered> {
    let mut kept: Vec<Answered> = Color::ALL
        .into_iter()
        .filter_map(|seat| ring.answers().rev().find(|a| a.seat == seat))
        .collect();
    kept.sort_by_key(|a| a.seq);
    kept
}

/// A move in two bytes: bits 0-5 the destination, then either (bit 15 clear) bits 6-11 the
/// origin and bits 12-14 the promotion's role plus one (0: none), or (bit 15 set) bits 12-14
/// the dropped role.
fn move_code(uci: UciMove) -> u16 {
    match uci {
        UciMove::Normal {
            from,
            to,
            promotion,
        } => {
            let promotion = promotion.map_or(0, |r| r as u16 + 1);
            to.index() as u16 | (from.index() as u16) << 6 | promotion << 12
        }
        UciMove::Put { role, to } => to.index() as u16 | (role as u16) << 12 | 1 << 15,
    }
}

/// The move of [`move_code`]'s two bytes.
fn move_uci(code: u16) -> Option<UciMove> {
    let square = |bits: u16| Square::new(u32::from(bits & 63));
    let role = |index: u16| Role::ALL.get(usize::from(index)).copied();
    let to = square(code)?;
    let high = (code >> 12) & 7;
    if code & 1 << 15 != 0 {
        Some(UciMove::Put {
            role: role(high)?,
            to,
        })
    } else {
        Some(UciMove::Normal {
            from: square(code >> 6)?,
            to,
            promotion: match high {
                0 => None,
                n => Some(role(n - 1)?),
            },
        })
    }
}

fn zigzag(n: i64) -> u64 {
    ((n << 1) ^ (n >> 63)) as u64
}

fn unzigzag(n: u64) -> i64 {
    (n >> 1) as i64 ^ -((n & 1) as i64)
}

fn varint(bytes: &mut &[u8]) -> Result<u64, String> {
    decode_varint(bytes).map_err(|_| "packed varint".to_owned())
}

fn take_byte(bytes: &mut &[u8]) -> Result<u8, String> {
    let (&first, rest) = bytes.split_first().ok_or("packed record cut short")?;
    *bytes = rest;
    Ok(first)
}

/// The seats at the front of the bytes, which it moves past.
fn read_seats(bytes: &mut &[u8]) -> Option<Seats> {
    let flags = take_byte(bytes).ok()?;
    let mut digests = ByColor::<Option<TokenDigest>>::default();
    for color in Color::ALL {
        if flags >> color as u8 & 1 != 0 {
            let (digest, rest) = bytes.split_at_checked(32)?;
            digests[color] = Some(TokenDigest::from_slice(digest)?);
            *bytes = rest;
        }
    }
    Some(Seats::new(digests))
}

#[cfg(test)]
mod tests {
    use chessd_rules::Rules;
    use proptest::prelude::*;

    use super::*;
    use crate::api::{decode, encode};
    use crate::game::record::apply::tests::record;
    use crate::game::{Action, GameId, RequestId, TimeControl};

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    /// One drawn step: what to do, a number, which seat, milliseconds before it.
    type Step = (u8, u32, bool, u16);

    /// Plays `steps` on a new game (timed or not, takebacks allowed), ends it by resignation if
    /// the steps did not, and returns it with its header and the time it ended.
    fn finished(steps: &[Step], timed: bool) -> (GameRecord, GameHeader, Now) {
        let tc = timed.then(|| TimeControl::even(Duration::from_secs(60), Duration::from_secs(1)));
        let (rec, _, start) = record(START, tc);
        let mut rec = rec.with_takebacks(TakebackPolicy::OnRequest);
        let header = header_of(&rec);
        let mut now = start;
        let mut out = Vec::new();
        for (i, &(what, n, white, wait)) in steps.iter().enumerate() {
            now.mono += Duration::from_millis(u64::from(wait));
            now.wall += Duration::from_millis(u64::from(wait));
            let seat = if white { Color::White } else { Color::Black };
            let action = match what % 10 {
                0..=2 | 8 | 9 => {
                    let legal = rec.game().position().legal_moves();
                    let Some(&mv) = legal.get(n as usize % legal.len().max(1)) else {
                        continue;
                    };
                    let turn = rec.game().position().turn();
                    let rid = RequestId::parse(&format!("r{i}")).unwrap();
                    let action = Action::Move {
                        text: decode::move_text(&mv.to_string()).unwrap(),
                        expected_ply: None,
                        request_id: rid.filter(|_| n % 3 != 0),
                        offer_draw: n % 7 == 0,
                    };
                    let key = (n % 3 != 0).then_some(u64::from(n) << 8 | i as u64);
                    let _ = rec.apply(turn, &action, key, now, &mut out);
                    continue;
                }
                3 => Action::OfferDraw,
                4 => Action::RespondToDraw { accept: n % 5 == 0 },
                5 => Action::ProposeTakeback,
                6 => Action::RespondToTakeback { accept: n % 2 == 0 },
                _ => Action::AddTime {
                    amount: Duration::from_millis(u64::from(n % 10_000) + 1),
                },
            };
            // Refusals (not one's turn, nothing to answer) are part of the draw.
            let _ = rec.apply(seat, &action, None, now, &mut out);
        }
        if !rec.is_over() {
            rec.apply(Color::White, &Action::Resign, None, now, &mut out)
                .unwrap();
        }
        (rec, header, now)
    }

    /// The header of a test game.
    fn header_of(rec: &GameRecord) -> GameHeader {
        GameHeader {
            id: GameId::new(rec.timing.created_at, 7),
            players: crate::game::action::Players::default(),
            labels: std::sync::Arc::default(),
            start: *rec.game().start(),
            time_control: rec.time_control(),
            start_rules: rec.timing.start_rules,
            draw_rule: rec.game().draw_rule(),
            created_at: rec.timing.created_at,
            claim_after: rec.timing.claim_after,
        }
    }

    fn step() -> impl Strategy<Value = Step> {
        (any::<u8>(), any::<u32>(), any::<bool>(), 0u16..1500)
    }

    /// What a reader sees of a record: every answer built from it.
    fn seen(rec: &GameRecord, header: &GameHeader, now: Now) -> String {
        let events: Vec<_> = rec.replay_after(0).map(|e| encode::event(&e)).collect();
        format!(
            "{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}",
            encode::game(&rec.view(header, now)),
            events,
            rec.rows_after(0, now, None),
            rec.history.log,
            rec.seats(),
            rec.ended_at_ms(),
            rec.deadline(),
        )
    }

    proptest! {
        /// A finished game unpacks into the game it was: every answer a reader gets from it,
        /// its stored rows, its log, seats and end, and each seat's latest answered request;
        /// packing it again gives the same bytes.
        #[test]
        fn unpacks_into_the_game_it_was(
            steps in proptest::collection::vec(step(), 0..120),
            timed in any::<bool>(),
        ) {
            let (rec, header, now) = finished(&steps, timed);
            let packed = rec.pack(&header, now);
            let back = packed.unpack(&header, None, now).unwrap();
            prop_assert_eq!(seen(&back, &header, now), seen(&rec, &header, now));
            prop_assert_eq!(back.history.answered.entries(), latest_per_seat(&rec.history.answered));
            prop_assert_eq!(packed.outcome(), rec.game().outcome());
            prop_assert_eq!(packed.ply(), rec.game().ply());
            prop_assert_eq!(packed.seats(), *rec.seats());
            prop_assert_eq!(&back.pack(&header, now).bytes, &packed.bytes);
        }
    }

    /// A game mated on the clock unpacks as it was (the mating move stopped the clocks); a
    /// retry of that move still gets its answer and plays nothing, and another request is
    /// refused as the game is over.
    #[test]
    fn the_last_move_is_still_answered() {
        let tc = TimeControl::even(Duration::from_secs(60), Duration::from_secs(1));
        let (mut rec, _, now) = record("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", Some(tc));
        let mate = Action::Move {
            text: decode::move_text("a1a8").unwrap(),
            expected_ply: None,
            request_id: RequestId::parse("mate").unwrap(),
            offer_draw: false,
        };
        rec.apply(Color::White, &mate, Some(42), now, &mut Vec::new())
            .unwrap();
        assert!(rec.is_over());
        let header = header_of(&rec);
        let mut back = rec.pack(&header, now).unpack(&header, None, now).unwrap();
        assert!(matches!(
            back.history.log[0].kind,
            LogKind::Move {
                clocks_stopped: true,
                ..
            }
        ));
        assert_eq!(seen(&back, &header, now), seen(&rec, &header, now));
        let mut out = Vec::new();
        let again = back
            .apply(Color::White, &mate, Some(42), now, &mut out)
            .unwrap();
        assert_eq!(again.map(|m| m.ply), Some(1));
        assert!(out.is_empty(), "nothing played twice");
        let other = back.apply(Color::White, &mate, Some(43), now, &mut out);
        assert!(other.is_err(), "{other:?}");
    }

    /// Moves of every shape keep their two bytes: promotions, drops, castling.
    #[test]
    fn move_codes_round_trip() {
        for text in [
            "e2e4", "e7e8q", "a2a1n", "N@f3", "P@a2", "e1g1", "e1h1", "h7h8k",
        ] {
            let uci: UciMove = text.parse().unwrap();
            assert_eq!(move_uci(move_code(uci)), Some(uci), "{text}");
        }
    }

    /// Zigzag keeps small changes of either sign in one byte's worth.
    #[test]
    fn zigzag_round_trips() {
        for n in [0, 1, -1, 63, -64, i64::from(u32::MAX), -i64::from(u32::MAX)] {
            assert_eq!(unzigzag(zigzag(n)), n);
        }
        assert!(zigzag(-64) < 128);
    }
}
