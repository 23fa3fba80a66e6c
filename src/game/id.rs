//! `GameId`: 64 bits, time-ordered and partly random, written as 13 characters of Crockford
//! base32.
//!
//! The high 42 bits are the creation time in Unix milliseconds and the low 22 bits are random,
//! so ids sort by creation millisecond (ListGames pages through them newest first), several
//! servers can mint ids without coordination, and ids are not enumerable one by one.
//! Fixed-width base32 keeps the text order the same as the numeric order.

use core::fmt;
use core::str::FromStr;
use std::time::SystemTime;

use crate::game::time::{epoch_ms, from_epoch_ms};

/// Bits of randomness below the timestamp.
const RANDOM_BITS: u32 = 22;

/// Characters in a game id's text form.
pub const GAME_ID_LEN: usize = 13;

/// Crockford's base32 alphabet (no I, L, O, U).
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// A game's identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameId(u64);

/// Text that is not a game id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseGameIdError;

impl fmt::Display for ParseGameIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {GAME_ID_LEN} characters of crockford base32")
    }
}

impl std::error::Error for ParseGameIdError {}

impl GameId {
    /// A new id for a game created at `now`, with `random` supplying the low bits.
    #[must_use]
    pub fn new(now: SystemTime, random: u64) -> GameId {
        GameId((epoch_ms(now) << RANDOM_BITS) | (random & ((1 << RANDOM_BITS) - 1)))
    }

    /// The id as a number (the store shards games by its random low bits).
    #[must_use]
    pub const fn get(self) -> u64 {
        self.0
    }

    /// The next id up (a list cursor that includes `self` when listing newest first).
    #[must_use]
    pub const fn successor(self) -> GameId {
        GameId(self.0.saturating_add(1))
    }

    /// When the game was created, to the millisecond.
    #[must_use]
    pub fn created_at(self) -> SystemTime {
        from_epoch_ms(self.0 >> RANDOM_BITS)
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = [0u8; GAME_ID_LEN];
        for (i, c) in out.iter_mut().enumerate() {
            let shift = 5 * (GAME_ID_LEN - 1 - i) as u32;
            *c = ALPHABET[((self.0 >> shift) & 31) as usize];
        }
        // The alphabet is ASCII, so this never falls back.
        f.write_str(core::str::from_utf8(&out).unwrap_or("?"))
    }
}

impl FromStr for GameId {
    type Err = ParseGameIdError;

    /// Case-insensitive; Crockford's look-alikes are read as digits (`O` as 0, `I`/`L` as 1).
    fn from_str(s: &str) -> Result<GameId, ParseGameIdError> {
        let s = s.as_bytes();
        if s.len() != GAME_ID_LEN {
            return Err(ParseGameIdError);
        }
        // 13 characters carry 65 bits: the first may only use its low 4.
        let mut value: u64 = 0;
        for (i, &c) in s.iter().enumerate() {
            let digit = decode(c).ok_or(ParseGameIdError)?;
            if i == 0 && digit >= 16 {
                return Err(ParseGameIdError);
            }
            value = (value << 5) | u64::from(digit);
        }
        Ok(GameId(value))
    }
}

fn decode(c: u8) -> Option<u8> {
    let c = c.to_ascii_uppercase();
    match c {
        b'O' => Some(0),
        b'I' | b'L' => Some(1),
        b'U' => None,
        _ => ALPHABET.iter().position(|&a| a == c).map(|i| i as u8),
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use super::*;

    /// Ids print in 13 characters and parse back, in either case.
    #[test]
    fn round_trip() {
        for raw in [0, 1, 31, 32, u64::MAX, 0x0123_4567_89ab_cdef] {
            let id = GameId(raw);
            let text = id.to_string();
            assert_eq!(text.len(), GAME_ID_LEN);
            assert_eq!(text.parse::<GameId>(), Ok(id), "{text}");
            assert_eq!(text.to_lowercase().parse::<GameId>(), Ok(id), "{text}");
        }
    }

    /// Later ids sort after earlier ones, as numbers and as text.
    #[test]
    fn time_ordered() {
        let t = UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        let a = GameId::new(t, u64::MAX);
        let b = GameId::new(t + Duration::from_millis(1), 0);
        assert!(a < b);
        assert!(a.to_string() < b.to_string());
        assert_eq!(b.created_at(), t + Duration::from_millis(1));
    }

    /// Wrong length, foreign characters and overflow are refused.
    #[test]
    fn rejects_garbage() {
        for bad in [
            "",
            "123",
            "0000000000000U",
            "000000000000U",
            "G000000000000",
            "zzzzzzzzzzzzz",
            "ÀÀÀÀÀÀ",
        ] {
            assert_eq!(bad.parse::<GameId>(), Err(ParseGameIdError), "{bad:?}");
        }
    }
}
