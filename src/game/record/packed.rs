//! [`PackedRecord`]: a finished game as a store keeps it in memory, a few bytes a move. A game
//! that is over changes no more, so everything a [`GameRecord`] holds to play on quickly (the
//! positions' repetition keys, each move's SAN, a 24-byte log entry per event) is dropped, and
//! the record is rebuilt from the packed events when a call reads the game
//! ([`PackedRecord::unpack`], the restore path every durable store already takes).
//!
//! The bytes, in order:
//! - the seats' token digests and the seed: a byte of flags (bit 0 White's digest, bit 1
//!   Black's, bit 2 a seed, bit 3 the players' entropy), then 32 bytes for each present;
//! - the clocks at the end (timed games): a byte 0 or 1, then White's and Black's remaining
//!   milliseconds as varints;
//! - the answered requests kept (see below): a count byte, then each one's key (8 bytes), seq,
//!   and ply with seat and mark; before the events, so that a move sent after the end is told
//!   from a retry without reading them ([`PackedRecord::answered`]);
//! - the events, each led by a varint whose low bit says its form. A move (bit 0 clear): the
//!   milliseconds since the previous event, zigzagged, shifted left two, bit 1 whether no clock
//!   ran after it; then the move: an 8x8 move in two bytes (from, to, promotion or drop; see
//!   `move_code`), a wide-family move in two to five (see `wide`), any other as its UCI text;
//!   then, in a timed game, how each clock changed since the previous move, zigzagged. Any
//!   other event (bit 0 set) is its stored line (`codec::write_event`), its length shifted
//!   left one: offers, takebacks and the game's end are a few per game.
//!
//! The encoding lives only in this process's memory (never stored, never sent), so it may
//! change with any build. Of the answered move requests a finished game keeps the latest of
//! each seat: a client retries its latest request, and in a finished game no later one can
//! have been answered.

mod wide;

use std::time::Duration;

use chessd_rules::any::{AnyMove, AnyPosition};
use chessd_rules::{ByColor, Color, Outcome, Role, Square, UciMove};
use prost::encoding::{decode_varint, encode_varint};

use super::answered::{Answered, AnsweredRing};
use super::apply::over;
use super::{GameRecord, Stored};
use crate::game::chance::{SEED_BYTES, Seed};
use crate::game::codec::{decode_event, write_event};
use crate::game::error::GameError;
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
            | u8::from(seats.digest(Color::Black).is_some()) << 1
            | u8::from(seats.seed().is_some()) << 2
            | u8::from(seats.player_entropy()) << 3;
        out.push(flags);
        for color in Color::ALL {
            if let Some(digest) = seats.digest(color) {
                out.extend_from_slice(digest.as_bytes());
            }
        }
        if let Some(seed) = seats.seed() {
            out.extend_from_slice(seed.as_bytes());
        }
        match clocks {
            Some(ms) => {
                out.push(1);
                encode_varint(ms[Color::White], &mut out);
                encode_varint(ms[Color::Black], &mut out);
            }
            None => out.push(0),
        }
        // Before the events, so a late move is told from a retry without reading them.
        let kept = latest_per_seat(&self.history.answered);
        out.push(kept.len() as u8);
        for a in kept {
            out.extend_from_slice(&a.key.to_le_bytes());
            encode_varint(a.seq, &mut out);
            let mark = u64::from(a.ply) << 2 | (a.seat as u64) << 1 | u64::from(a.taken_back);
            encode_varint(mark, &mut out);
        }
        let timed = header.time_control().is_some();
        encode_varint(rows.len() as u64, &mut out);
        let mut at = epoch_ms(header.created_at());
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
                    pack_move(mv, &mut out);
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

    /// The refusal of a move `seat` sent after the end (`key`, its request's), as the rebuilt
    /// record would give it; `None` for a retry of an answered move, which only the rebuilt
    /// record answers again. Read without unpacking the game: bots that learn of a draw by
    /// rule from the game-over event have often moved already.
    #[must_use]
    pub fn late_move(
        &self,
        header: &GameHeader,
        seat: Color,
        key: Option<u64>,
    ) -> Option<GameError> {
        if key.is_some_and(|key| self.answered(key, seat)) {
            return None;
        }
        Some(over(self.outcome, header.start_rules().first_move_timeout))
    }

    /// Whether `seat`'s request `key` is an answered move kept here (the answers come before
    /// the events, so this reads a few bytes).
    fn answered(&self, key: u64, seat: Color) -> bool {
        let mut bytes = &self.bytes[..];
        let answers = read_seats(&mut bytes)
            .ok_or_else(String::new)
            .and_then(|_| match take_byte(&mut bytes)? {
                0 => Ok(()),
                _ => varint(&mut bytes)
                    .and_then(|_| varint(&mut bytes))
                    .map(|_| ()),
            })
            .and_then(|()| read_answers(&mut bytes));
        // Bytes that do not read are a bug the unpacking reports: let it.
        answers.map_or(true, |a| a.iter().any(|a| a.key == key && a.seat == seat))
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
        let answers = read_answers(&mut bytes)?;
        let timed = header.time_control().is_some();
        let count = varint(&mut bytes)?;
        let mut events = Vec::with_capacity(usize::try_from(count).unwrap_or(0).min(bytes.len()));
        let mut line = Line::from_start(header.start.position());
        let mut at = epoch_ms(header.created_at());
        let mut log_clocks = ByColor::<u32>::default();
        for seq in 1..=count {
            let lead = varint(&mut bytes)?;
            let row = if lead & 1 == 0 {
                at = at.wrapping_add_signed(unzigzag(lead >> 2));
                let mover = line.position().turn();
                let mv = unpack_move(&mut bytes, line.position())
                    .map_err(|e| format!("event {seq}: packed move: {e}"))?;
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
                    setup: None,
                    entropy: None,
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
        let stored = Stored {
            start: header.start.position(),
            draw_rule: header.draw_rule,
            time_control: header.time_control(),
            start_rules: header.start_rules(),
            takebacks: self.takebacks,
            seats,
            created_at: header.created_at(),
            events,
            charged: Duration::ZERO,
            claim_after: header.claim_after(),
        };
        let mut record = GameRecord::restore(stored, |_| 0, now)?.abandoned_after(abandon_after);
        record.history.answered = AnsweredRing::of(answers);
        Ok(record)
    }
}

/// The answered requests kept, as [`GameRecord::pack`] wrote them after the clocks.
fn read_answers(bytes: &mut &[u8]) -> Result<Vec<Answered>, String> {
    let mut answers = Vec::new();
    for _ in 0..take_byte(bytes)? {
        let (key, rest) = bytes
            .split_first_chunk::<8>()
            .ok_or("packed answers cut short")?;
        *bytes = rest;
        let key = u64::from_le_bytes(*key);
        let seq = varint(bytes)?;
        let mark = varint(bytes)?;
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
    Ok(answers)
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

/// An 8x8 move in the two bytes of [`move_code`]; a wide-family move in two to five bytes
/// ([`wide`]); a shogi or xiangqi move as its UCI text after a length byte.
fn pack_move(mv: AnyMove, out: &mut Vec<u8>) {
    match mv {
        AnyMove::Std(m) => out.extend_from_slice(&move_code(UciMove::from(m)).to_le_bytes()),
        AnyMove::Wide(variant, m) => wide::pack(m.uci_in(variant), out),
        _ => {
            let text = mv.uci();
            out.push(text.as_str().len() as u8);
            out.extend_from_slice(text.as_str().as_bytes());
        }
    }
}

/// The move [`pack_move`] wrote, legal in `before`.
fn unpack_move(bytes: &mut &[u8], before: &AnyPosition) -> Result<AnyMove, String> {
    if let AnyPosition::Std(pos) = before {
        let code = u16::from_le_bytes([take_byte(bytes)?, take_byte(bytes)?]);
        let uci = move_uci(code).ok_or_else(|| format!("code {code:#x}"))?;
        return uci
            .to_move(pos)
            .map(AnyMove::Std)
            .map_err(|e| format!("{uci}: {e}"));
    }
    if let AnyPosition::Wide(pos) = before {
        return wide::unpack(bytes, pos).map(|m| AnyMove::Wide(pos.variant(), m));
    }
    let len = usize::from(take_byte(bytes)?);
    let (text, rest) = bytes.split_at_checked(len).ok_or("a truncated move")?;
    *bytes = rest;
    let text = std::str::from_utf8(text).map_err(|_| "a move that is not text")?;
    before.parse_uci(text).map_err(|e| format!("{text}: {e}"))
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
    let mut seed = None;
    if flags & 4 != 0 {
        let (first, rest) = bytes.split_first_chunk::<SEED_BYTES>()?;
        seed = Some(Seed::from_bytes(*first));
        *bytes = rest;
    }
    Some(
        Seats::new(digests)
            .with_seed(seed)
            .with_player_entropy(flags & 8 != 0),
    )
}

#[cfg(test)]
mod tests;
