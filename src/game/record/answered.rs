//! The answered-request ring: the request ids of a game's recent moves, so a retried move gets
//! its first answer and plays nothing twice. One ring, written by play and by catch-up alike.

use std::collections::VecDeque;

use chessd_rules::Color;

/// How many answered move request ids a game remembers (the oldest is forgotten first). A retry
/// normally follows its request within seconds, long before 16 more moves.
pub const ANSWERED_MEMORY: usize = 16;

/// A move answered under a request id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answered {
    /// The request id, hashed with the store's key (see `GameStore::act`).
    pub key: u64,
    pub seat: Color,
    pub ply: u32,
}

/// The request ids of a game's recent moves, oldest first, at most [`ANSWERED_MEMORY`]
/// (allocated on first use).
#[derive(Clone, Debug, Default)]
pub struct AnsweredRing(VecDeque<Answered>);

impl AnsweredRing {
    /// Remembers that `seat`'s request `key` played ply `ply`.
    pub fn remember(&mut self, key: u64, seat: Color, ply: u32) {
        if self.0.len() == ANSWERED_MEMORY {
            self.0.pop_front();
        }
        self.0.push_back(Answered { key, seat, ply });
    }

    /// The ply `seat`'s request `key` played, if it is remembered.
    #[must_use]
    pub fn find(&self, key: u64, seat: Color) -> Option<u32> {
        self.0
            .iter()
            .find(|a| a.key == key && a.seat == seat)
            .map(|a| a.ply)
    }

    /// Bytes on the heap.
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        self.0.capacity() * size_of::<Answered>()
    }

    #[cfg(test)]
    pub fn entries(&self) -> Vec<Answered> {
        self.0.iter().copied().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ring keeps the newest `ANSWERED_MEMORY` answers and finds them by key and seat.
    #[test]
    fn keeps_the_newest() {
        let mut ring = AnsweredRing::default();
        for ply in 1..=20 {
            ring.remember(u64::from(ply), Color::White, ply);
        }
        assert_eq!(ring.entries().len(), ANSWERED_MEMORY);
        assert_eq!(ring.find(4, Color::White), None, "the oldest are forgotten");
        assert_eq!(ring.find(5, Color::White), Some(5));
        assert_eq!(
            ring.find(5, Color::Black),
            None,
            "another seat's key is not ours"
        );
    }
}
