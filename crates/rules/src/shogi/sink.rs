//! Where the shogi generator's moves go, a batch at a time: [`ShogiMoveList`], a list on the
//! stack that writes each move out, and `Count`, which only counts a batch's bits (perft's last
//! ply: no move is built). The default x86-64 target has no popcount instruction, so `Count`
//! carries its own, which shares its last steps between a bitboard's halves.

use super::mv::ShogiMove;

/// The most legal moves any shogi position has is 593; room for them all.
pub const MAX_SHOGI_MOVES: usize = 600;

/// Where generated moves go, a batch at a time. `promo` (within `to`) are the destinations
/// where the piece may promote, `must` (within `promo`) those where it has to.
pub(crate) trait Sink {
    fn piece(&mut self, from: usize, to: u128, promo: u128, must: u128);
    /// Pawns moving one step each: a destination's origin is `to - step`.
    fn pawns(&mut self, to: u128, step: i32, promo: u128, must: u128);
    fn drops(&mut self, hand_index: usize, to: u128);
    /// Drops of each of `kinds` on every square of `to`.
    #[inline(always)]
    fn free_drops(&mut self, kinds: &[usize], to: u128) {
        for &kind in kinds {
            self.drops(kind, to);
        }
    }
}

/// Counts moves without building them.
pub(crate) struct Count(pub u64);

const M1: u64 = 0x5555_5555_5555_5555;
const M2: u64 = 0x3333_3333_3333_3333;
const M4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
const BYTES: u64 = 0x0101_0101_0101_0101;

/// A 64-bit word's bits summed in pairs then in nibbles (each nibble holds at most 4).
#[inline(always)]
const fn nibbles(x: u64) -> u64 {
    let x = x - ((x >> 1) & M1);
    (x & M2) + ((x >> 2) & M2)
}

/// Bits set in a bitboard. The default x86-64 target has no popcount instruction; counting
/// both halves' nibbles first and adding them (at most 8 a nibble) shares the last steps.
#[inline(always)]
const fn popcount(x: u128) -> u32 {
    let n = nibbles(x as u64) + nibbles((x >> 64) as u64);
    let bytes = (n & M4) + ((n >> 4) & M4);
    (bytes.wrapping_mul(BYTES) >> 56) as u32
}

/// Bits set in two bitboards together: four halves' nibbles summed byte by byte (at most 32
/// a byte), one multiply for all.
#[inline(always)]
const fn popcount2(x: u128, y: u128) -> u32 {
    let a = nibbles(x as u64) + nibbles((x >> 64) as u64);
    let b = nibbles(y as u64) + nibbles((y >> 64) as u64);
    let bytes = (a & M4) + ((a >> 4) & M4) + (b & M4) + ((b >> 4) & M4);
    (bytes.wrapping_mul(BYTES) >> 56) as u32
}

impl Sink for Count {
    #[inline(always)]
    fn piece(&mut self, _: usize, to: u128, promo: u128, must: u128) {
        // Most batches promote nowhere: one popcount, not two.
        self.0 += u64::from(if promo == 0 {
            popcount(to)
        } else {
            popcount2(to & !must, promo)
        });
    }

    #[inline(always)]
    fn pawns(&mut self, to: u128, _: i32, promo: u128, must: u128) {
        self.0 += u64::from(popcount2(to & !must, promo));
    }

    #[inline(always)]
    fn drops(&mut self, _: usize, to: u128) {
        self.0 += u64::from(popcount(to));
    }

    #[inline(always)]
    fn free_drops(&mut self, kinds: &[usize], to: u128) {
        self.0 += kinds.len() as u64 * u64::from(popcount(to));
    }
}

/// A fixed-capacity list of moves, on the stack.
#[derive(Clone)]
pub struct ShogiMoveList {
    moves: [ShogiMove; MAX_SHOGI_MOVES],
    len: usize,
}

impl Default for ShogiMoveList {
    fn default() -> ShogiMoveList {
        ShogiMoveList {
            moves: [ShogiMove::raw(0, 0, false); MAX_SHOGI_MOVES],
            len: 0,
        }
    }
}

impl core::ops::Deref for ShogiMoveList {
    type Target = [ShogiMove];

    fn deref(&self) -> &[ShogiMove] {
        &self.moves[..self.len]
    }
}

impl ShogiMoveList {
    #[inline(always)]
    fn push(&mut self, m: ShogiMove) {
        // No position has more legal moves than the capacity; a bug would drop moves, not panic.
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = m;
            self.len += 1;
        }
    }
}

impl Sink for ShogiMoveList {
    #[inline]
    fn piece(&mut self, from: usize, mut to: u128, promo: u128, must: u128) {
        while to != 0 {
            let t = to.trailing_zeros();
            let bit = 1 << t;
            to &= to - 1;
            if must & bit == 0 {
                self.push(ShogiMove::raw(from as u32, t, false));
            }
            if promo & bit != 0 {
                self.push(ShogiMove::raw(from as u32, t, true));
            }
        }
    }

    #[inline]
    fn pawns(&mut self, mut to: u128, step: i32, promo: u128, must: u128) {
        while to != 0 {
            let t = to.trailing_zeros();
            let bit = 1 << t;
            to &= to - 1;
            let from = (t as i32 - step) as u32;
            if must & bit == 0 {
                self.push(ShogiMove::raw(from, t, false));
            }
            if promo & bit != 0 {
                self.push(ShogiMove::raw(from, t, true));
            }
        }
    }

    #[inline]
    fn drops(&mut self, hand_index: usize, mut to: u128) {
        while to != 0 {
            let t = to.trailing_zeros();
            to &= to - 1;
            self.push(ShogiMove::raw_drop(hand_index, t));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shared-step popcounts agree with the standard one.
    #[test]
    fn popcounts() {
        for x in [
            0u128,
            1,
            !0,
            (1 << 81) - 1,
            0xF0F0 << 70,
            1 << 127,
            0x8000_0000_0000_0001,
        ] {
            assert_eq!(popcount(x), x.count_ones());
            assert_eq!(popcount2(x, !x), 128);
            assert_eq!(popcount2(x, x >> 3), x.count_ones() + (x >> 3).count_ones());
        }
    }
}
