//! [`FeedCursor`]: where a WatchGames consumer stands, as the opaque string clients keep.
//!
//! A feed is one or more *lanes*, each an ordered log: the memory and SQLite stores keep one
//! (positions 1, 2, 3, ...), the Redis store one per bucket (a Redis stream per bucket, its
//! entry ids `<ms>-<n>`; see `redis::feed`). A cursor holds, per lane, the position of the last
//! entry consumed, plus the feed's *epoch*: a random number drawn when the feed began (a new
//! process for the memory store, a new database file, a new or flushed Redis), so a cursor
//! from another feed is refused instead of being read as a position in this one.
//!
//! Text form: URL-safe base64 (no padding) of a version byte, then LEB128 varints: the epoch,
//! the lane count, and per lane the two halves of its position.

use core::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// A position in one lane, ordered: `(n, 0)` in a single log, `(ms, seq)` in a Redis stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LanePos(pub u64, pub u64);

impl fmt::Display for LanePos {
    /// As a Redis stream id (`ms-seq`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.0, self.1)
    }
}

impl core::str::FromStr for LanePos {
    type Err = ();

    /// A Redis stream id: `ms-seq`.
    fn from_str(s: &str) -> Result<LanePos, ()> {
        let (a, b) = s.split_once('-').ok_or(())?;
        Ok(LanePos(
            a.parse().map_err(|_| ())?,
            b.parse().map_err(|_| ())?,
        ))
    }
}

/// Where a consumer stands: the last position consumed in each lane of the feed `epoch`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeedCursor {
    pub epoch: u64,
    pub lanes: Vec<LanePos>,
}

/// The text form's version.
const VERSION: u8 = 1;

/// The most lanes a cursor may name (the Redis store's buckets are far fewer).
const MAX_LANES: u64 = 1024;

impl FeedCursor {
    /// Whether an entry at `pos` in `lane` comes after this cursor (a position not seen yet).
    #[must_use]
    pub fn is_before(&self, lane: usize, pos: LanePos) -> bool {
        self.lanes.get(lane).is_some_and(|&seen| pos > seen)
    }

    /// The cursor after consuming the entry at `pos` in `lane`.
    pub fn advance(&mut self, lane: usize, pos: LanePos) {
        if let Some(seen) = self.lanes.get_mut(lane) {
            *seen = (*seen).max(pos);
        }
    }
}

impl fmt::Display for FeedCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut bytes = vec![VERSION];
        varint(&mut bytes, self.epoch);
        varint(&mut bytes, self.lanes.len() as u64);
        for lane in &self.lanes {
            varint(&mut bytes, lane.0);
            varint(&mut bytes, lane.1);
        }
        f.write_str(&URL_SAFE_NO_PAD.encode(bytes))
    }
}

impl core::str::FromStr for FeedCursor {
    type Err = &'static str;

    /// A cursor this server wrote; anything else is refused with the reason.
    fn from_str(text: &str) -> Result<FeedCursor, &'static str> {
        let malformed = "not a cursor this server wrote: pass a cursor from a WatchGames message";
        let bytes = URL_SAFE_NO_PAD.decode(text.trim()).map_err(|_| malformed)?;
        let mut rest = bytes.as_slice();
        if rest.first() != Some(&VERSION) {
            return Err(malformed);
        }
        rest = &rest[1..];
        let epoch = read_varint(&mut rest).ok_or(malformed)?;
        let n = read_varint(&mut rest).ok_or(malformed)?;
        if n == 0 || n > MAX_LANES {
            return Err(malformed);
        }
        let mut lanes = Vec::new();
        for _ in 0..n {
            let a = read_varint(&mut rest).ok_or(malformed)?;
            let b = read_varint(&mut rest).ok_or(malformed)?;
            lanes.push(LanePos(a, b));
        }
        if !rest.is_empty() {
            return Err(malformed);
        }
        Ok(FeedCursor { epoch, lanes })
    }
}

fn varint(out: &mut Vec<u8>, mut n: u64) {
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn read_varint(input: &mut &[u8]) -> Option<u64> {
    let mut n: u64 = 0;
    for shift in (0..64).step_by(7) {
        let (&byte, rest) = input.split_first()?;
        *input = rest;
        let bits = u64::from(byte & 0x7f);
        if shift == 63 && bits > 1 {
            return None;
        }
        n |= bits << shift;
        if byte & 0x80 == 0 {
            return Some(n);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cursors survive their text form, one lane or many; large values included.
    #[test]
    fn text_round_trips() {
        for cursor in [
            FeedCursor {
                epoch: 0,
                lanes: vec![LanePos(0, 0)],
            },
            FeedCursor {
                epoch: u64::MAX,
                lanes: vec![LanePos(u64::MAX, 7)],
            },
            FeedCursor {
                epoch: 0x1234_5678_9abc,
                lanes: (0..16)
                    .map(|i| LanePos(1_767_225_600_000 + i, i % 3))
                    .collect(),
            },
        ] {
            let text = cursor.to_string();
            assert!(
                text.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            );
            assert_eq!(text.parse::<FeedCursor>(), Ok(cursor), "{text}");
        }
    }

    /// Text that is not a cursor is refused, never read as some position.
    #[test]
    fn garbage_is_refused() {
        let good = FeedCursor {
            epoch: 9,
            lanes: vec![LanePos(5, 0)],
        }
        .to_string();
        for bad in [
            "",
            "!!!",
            "AA",
            &format!("{good}A"),
            &good[..good.len() - 1],
            // Ten bytes of 0xff: a varint longer than 64 bits.
            &URL_SAFE_NO_PAD.encode([
                1u8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
            ]),
        ] {
            assert!(bad.parse::<FeedCursor>().is_err(), "{bad:?}");
        }
    }

    /// An entry is new to a cursor only past its lane's position; advancing never goes back.
    #[test]
    fn lanes_order_positions() {
        let mut c = FeedCursor {
            epoch: 1,
            lanes: vec![LanePos(10, 0), LanePos(10, 5)],
        };
        assert!(!c.is_before(0, LanePos(10, 0)));
        assert!(c.is_before(0, LanePos(10, 1)));
        assert!(c.is_before(1, LanePos(11, 0)));
        assert!(!c.is_before(2, LanePos(99, 0)), "no such lane");
        c.advance(1, LanePos(12, 0));
        c.advance(1, LanePos(11, 0));
        assert_eq!(c.lanes[1], LanePos(12, 0));
    }
}
