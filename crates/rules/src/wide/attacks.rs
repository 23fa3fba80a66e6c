//! Attack tables of the wide family, computed at compile time for the shared 12x10 numbering,
//! and the lookups: leapers by table, sliders by obstruction difference on a `u128`.
//!
//! Why obstruction difference and not magics: a magic table for 120 squares and `u128`
//! occupancies would be megabytes and need a 128-bit multiply per lookup; one line's attacks
//! here are a few `u128` operations on 32 bytes of table, branch-free, for any board up to
//! 120 squares. Squares a game does not have are always empty, so a ray runs over them and the
//! caller masks them away.

use super::square::{SQUARES, STRIDE, WideSquare};
use crate::Color;

const N: usize = SQUARES;

/// The two halves of one line through a square, the square itself excluded: `lower` holds the
/// lower-numbered squares, `upper` the higher ones, and `both` their union (stored, as the
/// lookup masks with it: an AND from memory where the union cost two ORs).
#[derive(Clone, Copy)]
pub(crate) struct Line {
    lower: u128,
    upper: u128,
    both: u128,
}

/// The four line directions as (file step, rank step), each pointing to higher numbers:
/// rank, file, diagonal, anti-diagonal. Rook lines are the first two, bishop lines the last two.
const DIRS: [(i8, i8); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

const fn on_board(file: i8, rank: i8) -> bool {
    file >= 0 && file < STRIDE as i8 && rank >= 0 && rank < (N / STRIDE as usize) as i8
}

const fn bit(file: i8, rank: i8) -> u128 {
    1 << (rank as u32 * STRIDE as u32 + file as u32)
}

/// The squares from `(file, rank)` stepping `(df, dr)` until the edge, the start excluded.
const fn ray(file: i8, rank: i8, df: i8, dr: i8) -> u128 {
    let (mut f, mut r, mut bb) = (file + df, rank + dr, 0u128);
    while on_board(f, r) {
        bb |= bit(f, r);
        f += df;
        r += dr;
    }
    bb
}

const fn lines() -> [[Line; 4]; N] {
    let mut t = [[Line {
        lower: 0,
        upper: 0,
        both: 0,
    }; 4]; N];
    let mut sq = 0;
    while sq < N {
        let (f, r) = ((sq % STRIDE as usize) as i8, (sq / STRIDE as usize) as i8);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRS[d];
            let (lower, upper) = (ray(f, r, -df, -dr), ray(f, r, df, dr));
            t[sq][d] = Line {
                lower,
                upper,
                both: lower | upper,
            };
            d += 1;
        }
        sq += 1;
    }
    t
}

const fn leaper(deltas: &[(i8, i8)]) -> [u128; N] {
    let mut t = [0u128; N];
    let mut sq = 0;
    while sq < N {
        let (f, r) = ((sq % STRIDE as usize) as i8, (sq / STRIDE as usize) as i8);
        let mut i = 0;
        while i < deltas.len() {
            let (df, dr) = deltas[i];
            if on_board(f + df, r + dr) {
                t[sq] |= bit(f + df, r + dr);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

/// `BETWEEN[a][b]`: the squares strictly between two squares on one line, else empty.
/// `LINE[a][b]`: the whole line through both (both included), else empty.
const fn between_and_line() -> ([[u128; N]; N], [[u128; N]; N]) {
    let mut between = [[0u128; N]; N];
    let mut line = [[0u128; N]; N];
    let mut a = 0;
    while a < N {
        let (f, r) = ((a % STRIDE as usize) as i8, (a / STRIDE as usize) as i8);
        let mut d = 0;
        while d < 8 {
            let (df, dr) = if d < 4 {
                DIRS[d]
            } else {
                (-DIRS[d - 4].0, -DIRS[d - 4].1)
            };
            let full = ray(f, r, df, dr) | ray(f, r, -df, -dr) | bit(f, r);
            let (mut x, mut y, mut acc) = (f + df, r + dr, 0u128);
            while on_board(x, y) {
                let b = (y as usize) * STRIDE as usize + x as usize;
                between[a][b] = acc;
                line[a][b] = full;
                acc |= bit(x, y);
                x += df;
                y += dr;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static LINES: [[Line; 4]; N] = lines();
static KNIGHT: [u128; N] = leaper(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u128; N] = leaper(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[u128; N]; 2] = [leaper(&[(-1, 1), (1, 1)]), leaper(&[(-1, -1), (1, -1)])];
/// Berolina pawns capture straight ahead.
pub(crate) static BEROLINA_PAWN: [[u128; N]; 2] = [leaper(&[(0, 1)]), leaper(&[(0, -1)])];
/// Legan pawns capture one square up or left (White), down or right (Black).
pub(crate) static LEGAN_PAWN: [[u128; N]; 2] =
    [leaper(&[(0, 1), (-1, 0)]), leaper(&[(0, -1), (1, 0)])];
static BETWEEN_LINE: ([[u128; N]; N], [[u128; N]; N]) = between_and_line();

/// `HIGHEST[z]`: the bit `z` places below the top. A load, where the 128-bit shift it
/// replaces costs a branch-free but long sequence on x86-64 (two shifts and two conditional
/// moves) in the slider lookups, the hottest code of perft.
static HIGHEST: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut z = 0;
    while z < 128 {
        t[z] = 1 << (127 - z);
        z += 1;
    }
    t
};

/// The squares one line of `LINES` attacks from `sq`.
#[inline(always)]
fn line_attacks(sq: WideSquare, occupied: u128, line: usize) -> u128 {
    along(&LINES[sq.index()][line], occupied)
}

/// The squares `line` attacks from its square with the board holding `occupied`: from the
/// nearest blocker below to the nearest one above, both included. Obstruction difference:
/// subtracting the nearest lower blocker from the upper blockers borrows through every bit
/// from it up to the lowest upper blocker, so the difference differs from them on exactly
/// those bits (with no upper blocker, on every bit from it up).
#[inline(always)]
pub(crate) fn along(line: &Line, occupied: u128) -> u128 {
    let Line { lower, upper, both } = *line;
    let lower_blockers = lower & occupied;
    let upper_blockers = upper & occupied;
    // The nearest lower blocker, or square 0 when there is none.
    let nearest_lower = HIGHEST[(lower_blockers | 1).leading_zeros() as usize];
    both & (upper_blockers ^ upper_blockers.wrapping_sub(nearest_lower))
}

#[must_use]
#[inline]
pub fn rook_attacks(sq: WideSquare, occupied: u128) -> u128 {
    line_attacks(sq, occupied, 0) | line_attacks(sq, occupied, 1)
}

#[must_use]
#[inline]
pub fn bishop_attacks(sq: WideSquare, occupied: u128) -> u128 {
    line_attacks(sq, occupied, 2) | line_attacks(sq, occupied, 3)
}

#[must_use]
#[inline]
pub fn knight_attacks(sq: WideSquare) -> u128 {
    KNIGHT[sq.index()]
}

#[must_use]
#[inline]
pub fn king_attacks(sq: WideSquare) -> u128 {
    KING[sq.index()]
}

/// The squares a chess pawn of `color` on `sq` attacks.
#[must_use]
#[inline]
pub fn pawn_attacks(color: Color, sq: WideSquare) -> u128 {
    PAWN[color.index()][sq.index()]
}

/// The chess pawn's table, for a game's definition.
pub(crate) static CHESS_PAWN: &[[u128; N]; 2] = &PAWN;

/// `RAYS[sq]`: the rook lines and the bishop lines through `sq` on an empty board. A table,
/// where the union of four halves of `LINES` took eight 64-bit loads and six ORs: the
/// generator asks for both at the king of every node, for checkers and pins.
static RAYS: [(u128, u128); N] = {
    let lines = lines();
    let mut t = [(0u128, 0u128); N];
    let mut sq = 0;
    while sq < N {
        let l = &lines[sq];
        t[sq] = (l[0].both | l[1].both, l[2].both | l[3].both);
        sq += 1;
    }
    t
};

/// The rook and bishop lines through `sq` on an empty board.
#[inline]
pub(crate) fn rook_rays(sq: WideSquare) -> u128 {
    RAYS[sq.index()].0
}

#[inline]
pub(crate) fn bishop_rays(sq: WideSquare) -> u128 {
    RAYS[sq.index()].1
}

/// The squares strictly between `a` and `b` if they share a line, else none.
#[must_use]
#[inline]
pub fn between(a: WideSquare, b: WideSquare) -> u128 {
    BETWEEN_LINE.0[a.index()][b.index()]
}

/// The whole line through `a` and `b` if they share one, else none.
#[must_use]
#[inline]
pub fn line(a: WideSquare, b: WideSquare) -> u128 {
    BETWEEN_LINE.1[a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> WideSquare {
        name.parse().unwrap()
    }

    fn names(bb: u128) -> Vec<String> {
        super::super::square::squares(bb)
            .map(|s| s.to_string())
            .collect()
    }

    /// Sliders stop at the first blocker either way and include it; rank 10 and file l exist.
    #[test]
    fn sliders_stop_at_blockers() {
        let occ = sq("c3").bit() | sq("c7").bit() | sq("f3").bit() | sq("a3").bit();
        assert_eq!(
            names(rook_attacks(sq("c3"), occ)),
            [
                "c1", "c2", "a3", "b3", "d3", "e3", "f3", "c4", "c5", "c6", "c7"
            ]
        );
        assert_eq!(rook_attacks(sq("a1"), 0).count_ones(), 11 + 9);
        assert_eq!(bishop_attacks(sq("a1"), 0).count_ones(), 9);
        assert!(bishop_attacks(sq("a1"), 0) & sq("j10").bit() != 0);
        assert_eq!(
            names(bishop_attacks(sq("l1"), sq("j3").bit())),
            ["k2", "j3"]
        );
    }

    /// Leapers do not wrap from the l-file to the a-file or past rank 10.
    #[test]
    fn leapers_stay_on_the_board() {
        assert_eq!(names(knight_attacks(sq("l10"))), ["k8", "j9"]);
        assert_eq!(king_attacks(sq("a1")).count_ones(), 3);
        assert_eq!(names(pawn_attacks(Color::White, sq("l2"))), ["k3"]);
        assert_eq!(names(pawn_attacks(Color::Black, sq("a2"))), ["b1"]);
    }

    #[test]
    fn between_and_line_tables() {
        assert_eq!(names(between(sq("b2"), sq("e5"))), ["c3", "d4"]);
        assert_eq!(between(sq("b2"), sq("c4")), 0);
        assert_eq!(line(sq("a1"), sq("c1")).count_ones(), 12);
        assert!(line(sq("e1"), sq("e10")) & sq("e5").bit() != 0);
    }
}
