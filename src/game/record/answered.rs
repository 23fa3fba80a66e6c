//! The answered-request ring: the request ids of a game's recent moves, so a retried move gets
//! its first answer and plays nothing twice. One ring, written by play and by catch-up alike.
//!
//! A takeback does not forget the ids of the moves it took back: it marks them, so a retry of
//! one is refused (`MOVE_TAKEN_BACK`) rather than answered with whatever move now stands at its
//! ply, or played again behind the players' backs.

use std::collections::VecDeque;

use chessd_rules::Color;

/// How many answered move request ids a game remembers (the oldest is forgotten first). A retry
/// normally follows its request within seconds, long before 16 more moves.
pub(super) const ANSWERED_MEMORY: usize = 16;

/// A move answered under a request id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Answered {
    /// The request id, hashed with the store's key (see `GameStore::act`).
    pub key: u64,
    pub seat: Color,
    pub ply: u32,
    /// The seq of the event that announced the move.
    pub seq: u64,
    /// The move was taken back since.
    pub taken_back: bool,
}

/// The request ids of a game's recent moves, oldest first, at most [`ANSWERED_MEMORY`]
/// (allocated on first use).
#[derive(Clone, Debug, Default)]
pub(super) struct AnsweredRing(VecDeque<Answered>);

impl AnsweredRing {
    /// Remembers that `seat`'s request `key` played ply `ply`, announced as event `seq`.
    pub(super) fn remember(&mut self, key: u64, seat: Color, ply: u32, seq: u64) {
        if self.0.len() == ANSWERED_MEMORY {
            self.0.pop_front();
        }
        self.0.push_back(Answered {
            key,
            seat,
            ply,
            seq,
            taken_back: false,
        });
    }

    /// What `seat`'s request `key` played, if it is remembered (the newest answer first: a
    /// key is only ever remembered again after its move was taken back).
    #[must_use]
    pub(super) fn find(&self, key: u64, seat: Color) -> Option<Answered> {
        self.0
            .iter()
            .rev()
            .find(|a| a.key == key && a.seat == seat)
            .copied()
    }

    /// The game went back to ply `ply`: the answers of later plies were taken back.
    pub(super) fn take_back_to(&mut self, ply: u32) {
        for a in self.0.iter_mut().filter(|a| a.ply > ply) {
            a.taken_back = true;
        }
    }

    /// The answers remembered, oldest first.
    pub(super) fn answers(&self) -> impl DoubleEndedIterator<Item = Answered> + '_ {
        self.0.iter().copied()
    }

    /// A ring of `answers`, oldest first (the newest [`ANSWERED_MEMORY`] of them).
    #[must_use]
    pub(super) fn of(answers: Vec<Answered>) -> AnsweredRing {
        let skip = answers.len().saturating_sub(ANSWERED_MEMORY);
        AnsweredRing(answers.into_iter().skip(skip).collect())
    }

    /// Bytes on the heap.
    #[must_use]
    pub(super) fn heap_bytes(&self) -> usize {
        self.0.capacity() * size_of::<Answered>()
    }

    #[cfg(test)]
    pub(super) fn entries(&self) -> Vec<Answered> {
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
            ring.remember(u64::from(ply), Color::White, ply, u64::from(ply) * 2);
        }
        assert_eq!(ring.entries().len(), ANSWERED_MEMORY);
        assert_eq!(ring.find(4, Color::White), None, "the oldest are forgotten");
        assert_eq!(
            ring.find(5, Color::White).map(|a| (a.ply, a.seq)),
            Some((5, 10))
        );
        assert_eq!(
            ring.find(5, Color::Black),
            None,
            "another seat's key is not ours"
        );
    }

    /// A takeback marks the answers of the plies it took back, and only those.
    #[test]
    fn takebacks_mark_their_answers() {
        let mut ring = AnsweredRing::default();
        for ply in 1..=4 {
            ring.remember(u64::from(ply), Color::White, ply, u64::from(ply));
        }
        ring.take_back_to(2);
        let marked: Vec<bool> = ring.entries().iter().map(|a| a.taken_back).collect();
        assert_eq!(marked, [false, false, true, true]);
        // The same key played again after its takeback: its new answer is the one found.
        ring.remember(3, Color::White, 3, 9);
        let again = ring.find(3, Color::White).unwrap();
        assert!(!again.taken_back);
        assert_eq!(again.seq, 9);
    }
}
