//! Compile-time move tables for the 9x10 board and the slider scans on `u128`.
//!
//! Leapers whose step can be blocked (the horse's leg, the elephant's eye) get, per point, four
//! (block point, destinations) pairs: a step is taken when its block point is empty. Sliders
//! find the nearest occupied point along a precomputed ray with one bit scan, which also gives
//! the cannon its screen and, one scan further, its target.

use super::square::{FILES, RANKS, SQUARES};
use crate::Color;

/// Directions: north (towards Black), east, south, west.
const DIRS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

const fn at(file: i8, rank: i8) -> Option<usize> {
    if file >= 0 && file < FILES as i8 && rank >= 0 && rank < RANKS as i8 {
        Some(rank as usize * FILES as usize + file as usize)
    } else {
        None
    }
}

const fn bit_at(file: i8, rank: i8) -> u128 {
    match at(file, rank) {
        Some(i) => 1 << i,
        None => 0,
    }
}

const fn file_of(sq: usize) -> i8 {
    (sq % FILES as usize) as i8
}

const fn rank_of(sq: usize) -> i8 {
    (sq / FILES as usize) as i8
}

/// The palaces: files d-f, ranks 1-3 (Red) and 8-10 (Black).
pub const PALACE: [u128; 2] = {
    let mut p = [0u128; 2];
    let mut f = 3;
    while f <= 5 {
        let mut r = 0;
        while r < 3 {
            p[0] |= bit_at(f, r);
            p[1] |= bit_at(f, 9 - r);
            r += 1;
        }
        f += 1;
    }
    p
};

/// Each side's half of the board: ranks 1-5 (Red) and 6-10 (Black).
pub const HALF: [u128; 2] = {
    let red = (1u128 << (5 * FILES as usize)) - 1;
    [red, super::square::BOARD & !red]
};

/// Points strictly beyond each point in each direction, to the edge.
pub const RAYS: [[u128; SQUARES]; 4] = {
    let mut t = [[0u128; SQUARES]; 4];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < SQUARES {
            let (mut f, mut r) = (file_of(sq), rank_of(sq));
            loop {
                f += DIRS[d].0;
                r += DIRS[d].1;
                match at(f, r) {
                    Some(i) => t[d][sq] |= 1 << i,
                    None => break,
                }
            }
            sq += 1;
        }
        d += 1;
    }
    t
};

/// A step that an occupied point blocks: `block` (one bit) must be empty for `to` to be
/// reached. An off-board step has `to == 0`.
#[derive(Clone, Copy)]
pub struct Step {
    pub block: u128,
    pub to: u128,
}

const NO_STEP: Step = Step { block: 0, to: 0 };

/// The horse's moves from each point, by the leg's direction.
pub const HORSE: [[Step; 4]; SQUARES] = {
    let mut t = [[NO_STEP; 4]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = (file_of(sq), rank_of(sq));
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRS[d];
            let (lf, lr) = (f + df, r + dr);
            if at(lf, lr).is_some() {
                // Outward from the leg: twice along the leg's direction, once across it.
                let to = bit_at(lf + df + dr, lr + dr + df) | bit_at(lf + df - dr, lr + dr - df);
                t[sq][d] = Step {
                    block: bit_at(lf, lr),
                    to,
                };
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// The horses that attack each point, by the diagonal neighbour that is their leg.
pub const HORSE_FROM: [[Step; 4]; SQUARES] = {
    let mut t = [[NO_STEP; 4]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = (file_of(sq), rank_of(sq));
        let diagonals = [(1i8, 1i8), (1, -1), (-1, -1), (-1, 1)];
        let mut d = 0;
        while d < 4 {
            let (df, dr) = diagonals[d];
            if at(f + df, r + dr).is_some() {
                // A horse whose leg is the diagonal neighbour stands one step beyond it
                // along either of the diagonal's two axes.
                let to = bit_at(f + 2 * df, r + dr) | bit_at(f + df, r + 2 * dr);
                t[sq][d] = Step {
                    block: bit_at(f + df, r + dr),
                    to,
                };
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// The elephant's moves from each point, kept on the half it stands on.
pub const ELEPHANT: [[Step; 4]; SQUARES] = {
    let mut t = [[NO_STEP; 4]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = (file_of(sq), rank_of(sq));
        let half = if HALF[0] & (1 << sq) != 0 {
            HALF[0]
        } else {
            HALF[1]
        };
        let diagonals = [(1i8, 1i8), (1, -1), (-1, -1), (-1, 1)];
        let mut d = 0;
        while d < 4 {
            let (df, dr) = diagonals[d];
            let to = bit_at(f + 2 * df, r + 2 * dr) & half;
            if to != 0 {
                t[sq][d] = Step {
                    block: bit_at(f + df, r + dr),
                    to,
                };
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

const fn palace_of(sq: usize) -> u128 {
    if PALACE[0] & (1 << sq) != 0 {
        PALACE[0]
    } else if PALACE[1] & (1 << sq) != 0 {
        PALACE[1]
    } else {
        0
    }
}

/// The general's steps from each point of a palace (none outside).
pub const GENERAL: [u128; SQUARES] = {
    let mut t = [0u128; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = (file_of(sq), rank_of(sq));
        t[sq] = (bit_at(f + 1, r) | bit_at(f - 1, r) | bit_at(f, r + 1) | bit_at(f, r - 1))
            & palace_of(sq);
        sq += 1;
    }
    t
};

/// The advisor's steps from each point of a palace (none outside).
pub const ADVISOR: [u128; SQUARES] = {
    let mut t = [0u128; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = (file_of(sq), rank_of(sq));
        t[sq] = (bit_at(f + 1, r + 1)
            | bit_at(f - 1, r + 1)
            | bit_at(f + 1, r - 1)
            | bit_at(f - 1, r - 1))
            & palace_of(sq);
        sq += 1;
    }
    t
};

/// A soldier's steps by colour: forward, and sideways once across the river.
pub const SOLDIER: [[u128; SQUARES]; 2] = {
    let mut t = [[0u128; SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let forward: i8 = if c == 0 { 1 } else { -1 };
        let mut sq = 0;
        while sq < SQUARES {
            let (f, r) = (file_of(sq), rank_of(sq));
            let mut m = bit_at(f, r + forward);
            if HALF[c] & (1 << sq) == 0 {
                m |= bit_at(f + 1, r) | bit_at(f - 1, r);
            }
            t[c][sq] = m;
            sq += 1;
        }
        c += 1;
    }
    t
};

/// The points from which a soldier of each colour attacks each point.
pub const SOLDIER_FROM: [[u128; SQUARES]; 2] = {
    let mut t = [[0u128; SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < SQUARES {
            let mut to = 0;
            while to < SQUARES {
                if SOLDIER[c][from] & (1 << to) != 0 {
                    t[c][to] |= 1 << from;
                }
                to += 1;
            }
            from += 1;
        }
        c += 1;
    }
    t
};

/// The nearest occupied point of `occupied` beyond `sq` in direction `dir`, if any.
#[inline(always)]
pub fn first(dir: usize, sq: usize, occupied: u128) -> Option<usize> {
    let hits = occupied & RAYS[dir][sq];
    if hits == 0 {
        None
    } else if dir < 2 {
        Some(hits.trailing_zeros() as usize)
    } else {
        Some(127 - hits.leading_zeros() as usize)
    }
}

/// The chariot's reach: every point up to and including the first occupied one each way.
#[inline(always)]
pub fn chariot(sq: usize, occupied: u128) -> u128 {
    let mut m = 0;
    for (dir, rays) in RAYS.iter().enumerate() {
        let ray = rays[sq];
        m |= match first(dir, sq, occupied) {
            Some(b) => ray ^ RAYS[dir][b],
            None => ray,
        };
    }
    m
}

/// The points the cannon could capture on: the first occupied point beyond the first screen
/// each way, whatever its colour.
#[inline(always)]
pub fn cannon_hits(sq: usize, occupied: u128) -> u128 {
    let mut m = 0;
    for dir in 0..4 {
        if let Some(screen) = first(dir, sq, occupied)
            && let Some(t) = first(dir, screen, occupied)
        {
            m |= 1 << t;
        }
    }
    m
}

/// The horse's reach from `sq` with these legs occupied.
#[inline(always)]
pub fn horse(sq: usize, occupied: u128) -> u128 {
    let s = &HORSE[sq];
    let mut m = 0;
    for step in s {
        if occupied & step.block == 0 {
            m |= step.to;
        }
    }
    m
}

/// The points from which a horse attacks `sq` with these legs occupied.
#[inline(always)]
pub fn horse_from(sq: usize, occupied: u128) -> u128 {
    let s = &HORSE_FROM[sq];
    let mut m = 0;
    for step in s {
        if occupied & step.block == 0 {
            m |= step.to;
        }
    }
    m
}

/// The elephant's reach from `sq` with these eyes occupied.
#[inline(always)]
pub fn elephant(sq: usize, occupied: u128) -> u128 {
    let s = &ELEPHANT[sq];
    let mut m = 0;
    for step in s {
        if occupied & step.block == 0 {
            m |= step.to;
        }
    }
    m
}

#[inline(always)]
pub fn soldier(color: Color, sq: usize) -> u128 {
    SOLDIER[color.index()][sq]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> usize {
        name.parse::<super::super::XiangqiSquare>().unwrap().index()
    }

    fn names(mut bb: u128) -> Vec<String> {
        let mut v = Vec::new();
        while bb != 0 {
            let i = bb.trailing_zeros() as u8;
            v.push(
                super::super::XiangqiSquare::from_index(i)
                    .unwrap()
                    .to_string(),
            );
            bb &= bb - 1;
        }
        v.sort();
        v
    }

    /// Five points for each side's advisors, seven for its elephants, nine for its general.
    #[test]
    fn palace_and_half_points() {
        assert_eq!(PALACE[0].count_ones(), 9);
        assert_eq!(ADVISOR[sq("e2")].count_ones(), 4);
        assert_eq!(names(ADVISOR[sq("d1")]), ["e2"]);
        assert_eq!(names(GENERAL[sq("d3")]), ["d2", "e3"]);
        assert_eq!(ADVISOR[sq("e5")], 0);
        // An elephant on the river bank never crosses it.
        assert_eq!(names(elephant(sq("c5"), 0)), ["a3", "e3"]);
        assert_eq!(names(elephant(sq("c6"), 0)), ["a8", "e8"]);
    }

    /// The horse is stopped by its leg, the elephant by its eye; a horse attacks a point when
    /// the attacked point's diagonal neighbour (its leg) is empty.
    #[test]
    fn blocked_leapers() {
        assert_eq!(horse(sq("e5"), 0).count_ones(), 8);
        let leg = 1 << sq("e6");
        // The leg on e6 stops only the two moves through it.
        assert_eq!(
            names(horse(sq("e5"), leg)),
            ["c4", "c6", "d3", "f3", "g4", "g6"]
        );
        assert!(horse(sq("e5"), leg) & (1 << sq("d7")) == 0);
        assert!(horse(sq("e5"), leg) & (1 << sq("c6")) != 0);
        assert!(elephant(sq("e3"), 1 << sq("d4")) & (1 << sq("c5")) == 0);
        for from in 0..SQUARES {
            for occ in [0u128, leg, 1 << sq("d4") | 1 << sq("f6")] {
                let to = horse(from, occ);
                for t in 0..SQUARES {
                    assert_eq!(
                        to & (1 << t) != 0,
                        horse_from(t, occ) & (1 << from) != 0,
                        "{from} {t}"
                    );
                }
            }
        }
    }

    /// The chariot stops on the first piece; the cannon jumps exactly one.
    #[test]
    fn sliders() {
        let occ = 1 << sq("e5") | 1 << sq("e8") | 1 << sq("b1");
        assert_eq!(
            names(chariot(sq("e1"), occ)),
            [
                "b1", "c1", "d1", "e2", "e3", "e4", "e5", "f1", "g1", "h1", "i1"
            ]
        );
        assert_eq!(names(cannon_hits(sq("e1"), occ)), ["e8"]);
        assert_eq!(names(cannon_hits(sq("i1"), occ)), Vec::<String>::new());
    }

    /// Soldiers go forward only until they cross the river.
    #[test]
    fn soldiers() {
        assert_eq!(names(soldier(Color::White, sq("e4"))), ["e5"]);
        assert_eq!(names(soldier(Color::White, sq("e6"))), ["d6", "e7", "f6"]);
        assert_eq!(names(soldier(Color::White, sq("a10"))), ["b10"]);
        assert_eq!(names(soldier(Color::Black, sq("e5"))), ["d5", "e4", "f5"]);
        assert_eq!(names(SOLDIER_FROM[1][sq("e2")]), ["d2", "e3", "f2"]);
    }
}
