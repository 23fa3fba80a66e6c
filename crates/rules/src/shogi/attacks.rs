//! Attack tables for the shogi family, built at compile time on the 9x9 numbering of
//! `square`: the step pieces per side (pawn, knight, silver, gold, king), the eight rays the
//! sliders (lance, bishop, rook and their promotions) follow, and the squares between and
//! through two squares that check and pin evasions need. Minishogi's smaller board is the
//! lower-left corner: its generator walls off the rest (see `ShogiVariant::walls`).

use super::square::{SIDE, SQUARES};
use crate::Color;

/// Every square of the 9x9 board.
pub(crate) const FULL: u128 = (1 << SQUARES) - 1;

/// Ray directions as (file, rank) steps: the first four raise the square number, the last
/// four lower it, so a ray's nearest blocker is its lowest or highest bit.
const DIRS: [(i8, i8); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (-1, 1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (1, -1),
];
const NORTH: usize = 0;
const EAST: usize = 1;
const NORTH_EAST: usize = 2;
const NORTH_WEST: usize = 3;
const SOUTH: usize = 4;
const WEST: usize = 5;
const SOUTH_WEST: usize = 6;
const SOUTH_EAST: usize = 7;

const fn on_board(file: i8, rank: i8) -> bool {
    file >= 0 && rank >= 0 && file < SIDE as i8 && rank < SIDE as i8
}

/// The squares reached by one step of each of `steps` (sente's view: `+rank` is forward;
/// gote's table mirrors the ranks).
const fn steps(steps: &[(i8, i8)], color: usize) -> [u128; SQUARES] {
    let mut table = [0; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (file, rank) = ((sq % 9) as i8, (sq / 9) as i8);
        let mut i = 0;
        while i < steps.len() {
            let (df, dr) = steps[i];
            let dr = if color == 0 { dr } else { -dr };
            if on_board(file + df, rank + dr) {
                table[sq] |= 1 << ((rank + dr) as usize * 9 + (file + df) as usize);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

const PAWN_STEPS: [(i8, i8); 1] = [(0, 1)];
const KNIGHT_STEPS: [(i8, i8); 2] = [(-1, 2), (1, 2)];
const SILVER_STEPS: [(i8, i8); 5] = [(-1, 1), (0, 1), (1, 1), (-1, -1), (1, -1)];
const GOLD_STEPS: [(i8, i8); 6] = [(-1, 1), (0, 1), (1, 1), (-1, 0), (1, 0), (0, -1)];
const KING_STEPS: [(i8, i8); 8] = [
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

pub(crate) const PAWN: [[u128; SQUARES]; 2] = [steps(&PAWN_STEPS, 0), steps(&PAWN_STEPS, 1)];
pub(crate) const KNIGHT: [[u128; SQUARES]; 2] = [steps(&KNIGHT_STEPS, 0), steps(&KNIGHT_STEPS, 1)];
pub(crate) const SILVER: [[u128; SQUARES]; 2] = [steps(&SILVER_STEPS, 0), steps(&SILVER_STEPS, 1)];
pub(crate) const GOLD: [[u128; SQUARES]; 2] = [steps(&GOLD_STEPS, 0), steps(&GOLD_STEPS, 1)];
pub(crate) const KING: [u128; SQUARES] = steps(&KING_STEPS, 0);

/// `RAYS[dir][sq]`: the squares from `sq` (exclusive) to the edge. 128 entries so that an
/// empty ray's sentinel index (127 for the rising rays) finds 0, and a lookup needs no branch;
/// square 0 has no falling ray, so the falling rays' sentinel (0) finds 0 too.
const RAYS: [[u128; 128]; 8] = {
    let mut rays = [[0; 128]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < SQUARES {
            let (mut file, mut rank) = ((sq % 9) as i8, (sq / 9) as i8);
            loop {
                file += DIRS[d].0;
                rank += DIRS[d].1;
                if !on_board(file, rank) {
                    break;
                }
                rays[d][sq] |= 1 << (rank as usize * 9 + file as usize);
            }
            sq += 1;
        }
        d += 1;
    }
    rays
};

#[inline(always)]
const fn rising(dir: usize, sq: usize, occ: u128) -> u128 {
    let ray = RAYS[dir][sq];
    let blockers = (ray & occ) | (1 << 127);
    ray ^ RAYS[dir][blockers.trailing_zeros() as usize]
}

#[inline(always)]
const fn falling(dir: usize, sq: usize, occ: u128) -> u128 {
    let ray = RAYS[dir][sq];
    let blockers = (ray & occ) | 1;
    ray ^ RAYS[dir][127 - blockers.leading_zeros() as usize]
}

/// The rook's squares from `sq` with `occ` occupied (its first blocker included).
#[must_use]
#[inline]
pub fn rook_attacks(sq: usize, occ: u128) -> u128 {
    rising(NORTH, sq, occ)
        | rising(EAST, sq, occ)
        | falling(SOUTH, sq, occ)
        | falling(WEST, sq, occ)
}

#[must_use]
#[inline]
pub fn bishop_attacks(sq: usize, occ: u128) -> u128 {
    rising(NORTH_EAST, sq, occ)
        | rising(NORTH_WEST, sq, occ)
        | falling(SOUTH_WEST, sq, occ)
        | falling(SOUTH_EAST, sq, occ)
}

/// A lance of `color` on `sq`: straight forward to its first blocker.
#[must_use]
#[inline]
pub fn lance_attacks(color: Color, sq: usize, occ: u128) -> u128 {
    match color {
        Color::White => rising(NORTH, sq, occ),
        Color::Black => falling(SOUTH, sq, occ),
    }
}

/// A lance's squares on an empty board.
#[inline]
pub(crate) fn lance_rays(color: Color, sq: usize) -> u128 {
    match color {
        Color::White => RAYS[NORTH][sq],
        Color::Black => RAYS[SOUTH][sq],
    }
}

#[inline]
pub(crate) fn rook_rays(sq: usize) -> u128 {
    RAYS[NORTH][sq] | RAYS[EAST][sq] | RAYS[SOUTH][sq] | RAYS[WEST][sq]
}

#[inline]
pub(crate) fn bishop_rays(sq: usize) -> u128 {
    RAYS[NORTH_EAST][sq] | RAYS[NORTH_WEST][sq] | RAYS[SOUTH_WEST][sq] | RAYS[SOUTH_EAST][sq]
}

/// `(between, line)` of two squares on one rank, file or diagonal: the squares strictly
/// between them, and the whole line through them; both empty otherwise.
const LINES: ([[u128; SQUARES]; SQUARES], [[u128; SQUARES]; SQUARES]) = {
    let mut between = [[0; SQUARES]; SQUARES];
    let mut line = [[0; SQUARES]; SQUARES];
    let mut a = 0;
    while a < SQUARES {
        let mut d = 0;
        while d < 8 {
            let back = (d + 4) % 8;
            let mut walk = RAYS[d][a];
            while walk != 0 {
                let b = walk.trailing_zeros() as usize;
                walk &= walk - 1;
                between[a][b] = RAYS[d][a] & RAYS[back][b];
                line[a][b] = RAYS[d][a] | RAYS[back][a] | (1 << a);
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
};

#[inline]
pub(crate) fn between(a: usize, b: usize) -> u128 {
    LINES.0[a][b]
}

#[inline]
pub(crate) fn line(a: usize, b: usize) -> u128 {
    LINES.1[a][b]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> usize {
        name.parse::<super::super::ShogiSquare>().unwrap().index()
    }

    /// A gold steps to the six squares around it but the two back diagonals; gote's mirrors.
    #[test]
    fn gold_moves_forward_and_around() {
        assert_eq!(GOLD[0][sq("e5")].count_ones(), 6);
        assert_ne!(GOLD[0][sq("e5")] & (1 << sq("d6")), 0);
        assert_eq!(GOLD[0][sq("e5")] & (1 << sq("d4")), 0);
        assert_ne!(GOLD[1][sq("e5")] & (1 << sq("d4")), 0);
    }

    /// A knight jumps two forward and one to the side only; from rank 8 sente's has none.
    #[test]
    fn knight_jumps_forward_only() {
        assert_eq!(KNIGHT[0][sq("b1")], (1 << sq("a3")) | (1 << sq("c3")));
        assert_eq!(KNIGHT[0][sq("e8")], 0);
        assert_eq!(KNIGHT[1][sq("b9")], (1 << sq("a7")) | (1 << sq("c7")));
    }

    /// A rook stops at (and includes) its first blocker each way.
    #[test]
    fn sliders_stop_at_blockers() {
        let occ = (1 << sq("e7")) | (1 << sq("c5"));
        let a = rook_attacks(sq("e5"), occ);
        assert_eq!(a.count_ones(), 2 + 2 + 4 + 4);
        assert_ne!(a & (1 << sq("e7")), 0);
        assert_eq!(a & (1 << sq("e8")), 0);
        assert_eq!(bishop_attacks(sq("a1"), 0).count_ones(), 8);
        assert_eq!(
            lance_attacks(Color::White, sq("a1"), 1 << sq("a4")).count_ones(),
            3
        );
        assert_eq!(lance_attacks(Color::Black, sq("a9"), 0).count_ones(), 8);
    }

    /// Between excludes both ends; the line runs edge to edge through both.
    #[test]
    fn between_and_line() {
        assert_eq!(between(sq("a1"), sq("e5")).count_ones(), 3);
        assert_eq!(between(sq("a1"), sq("b3")), 0);
        assert_eq!(line(sq("a1"), sq("e5")).count_ones(), 9);
        assert_eq!(line(sq("e5"), sq("e6")).count_ones(), 9);
    }
}
