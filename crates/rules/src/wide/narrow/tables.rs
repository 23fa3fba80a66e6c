//! The lookups of the 8x8 generator (`narrow`), in the 8x8 numbering (`rank * 8 + file`, a1
//! = 0): the flat board's come from the 8x8 engine's tables (leapers, pawns, magic sliders,
//! `between`; only the empty board's rays are built here), the cylinder's are built here,
//! where the a- and h-files are joined. Every table is a `static`
//! computed at compile time, so a lookup is a plain load.

use crate::Square;
use crate::attacks as flat;

/// A bitboard of the 8x8 board.
pub(super) type Bb = u64;

/// The a-file.
pub(super) const FILE_A: Bb = 0x0101_0101_0101_0101;
/// The h-file.
pub(super) const FILE_H: Bb = FILE_A << 7;
/// The first and last ranks.
pub(super) const EDGE_RANKS: Bb = 0xFF00_0000_0000_00FF;

/// The squares of `bb`, lowest first.
#[inline(always)]
pub(super) fn squares(mut bb: Bb) -> impl Iterator<Item = u32> {
    core::iter::from_fn(move || {
        (bb != 0).then(|| {
            let sq = bb.trailing_zeros();
            bb &= bb - 1;
            sq
        })
    })
}

#[inline(always)]
pub(super) const fn bit(sq: u32) -> Bb {
    1 << sq
}

#[inline(always)]
fn square(sq: u32) -> Square {
    Square::from_index_unchecked(sq)
}

/// `bb` moved `delta` squares up the numbering (down when negative); bits that leave the
/// board are dropped, and a move across the a/h edge lands on the wrong rank, so callers mask.
#[inline(always)]
pub(super) const fn shift(bb: Bb, delta: i32) -> Bb {
    if delta >= 0 {
        bb << delta
    } else {
        bb >> -delta
    }
}

/// The squares strictly between two squares of one line of the flat board.
#[inline(always)]
pub(super) fn between(a: u32, b: u32) -> Bb {
    flat::between(square(a), square(b)).0
}

/// The bit of `(file, rank)`, the file taken modulo 8 when `wrap`, or 0 off the board.
const fn at(file: i32, rank: i32, wrap: bool) -> Bb {
    if rank < 0 || rank >= 8 || (!wrap && (file < 0 || file >= 8)) {
        return 0;
    }
    1 << (rank * 8 + file.rem_euclid(8))
}

/// Per square, the squares one leap of each of `deltas` reaches (wrapping round the seam when
/// `wrap`).
const fn leaper(deltas: &[(i32, i32)], wrap: bool) -> [Bb; 64] {
    let mut t = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < deltas.len() {
            let (df, dr) = deltas[i];
            t[sq] |= at(sq as i32 % 8 + df, sq as i32 / 8 + dr, wrap);
            i += 1;
        }
        sq += 1;
    }
    t
}

const KNIGHT_DELTAS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_DELTAS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

static CYLINDER_KNIGHT: [Bb; 64] = leaper(&KNIGHT_DELTAS, true);
static CYLINDER_KING: [Bb; 64] = leaper(&KING_DELTAS, true);
static CYLINDER_PAWN: [[Bb; 64]; 2] = [
    leaper(&[(-1, 1), (1, 1)], true),
    leaper(&[(-1, -1), (1, -1)], true),
];

/// Per square, the squares a slider moving along `dirs` reaches on an empty board: to the
/// edge, or on the cylinder round the seam and up to (not onto) its own square.
const fn ray_table(dirs: &[(i32, i32)], wrap: bool) -> [Bb; 64] {
    let mut t = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < dirs.len() {
            let (df, dr) = dirs[d];
            let mut k = 1;
            while k < 8 {
                let b = at(sq as i32 % 8 + k * df, sq as i32 / 8 + k * dr, wrap);
                if b != 1 << sq {
                    t[sq] |= b;
                }
                k += 1;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

static ROOK_RAYS: [Bb; 64] = ray_table(&ROOK_DIRS, false);
static BISHOP_RAYS: [Bb; 64] = ray_table(&BISHOP_DIRS, false);
static CYLINDER_ROOK_RAYS: [Bb; 64] = ray_table(&ROOK_DIRS, true);
static CYLINDER_BISHOP_RAYS: [Bb; 64] = ray_table(&BISHOP_DIRS, true);

/// `RANK[file][occupied]`: the files a rook on `file` reaches along a rank whose occupied
/// files are the bits of `occupied`, each way round the seam to the first piece, and never
/// back to its own file.
static RANK: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut file = 0;
    while file < 8 {
        let mut occupied = 0;
        while occupied < 256 {
            let mut reach = 0u8;
            let mut way = 0;
            while way < 2 {
                let step = if way == 0 { 1 } else { 7 };
                let mut f = (file + step) % 8;
                while f != file {
                    reach |= 1 << f;
                    if occupied & (1 << f) != 0 {
                        break;
                    }
                    f = (f + step) % 8;
                }
                way += 1;
            }
            t[file][occupied] = reach;
            occupied += 1;
        }
        file += 1;
    }
    t
};

/// A line through a square split at it: the squares below it in the numbering and those
/// above, for the obstruction-difference lookup.
#[derive(Clone, Copy)]
struct Line {
    lower: Bb,
    upper: Bb,
}

/// Per square, its two diagonals wrapped round the seam. Each climbs one rank a step, so it
/// meets every rank once and never comes back to its square: a line in the numbering's order,
/// which the obstruction difference reads as it reads a straight one.
static DIAGONALS: [[Line; 2]; 64] = {
    let mut t = [[Line { lower: 0, upper: 0 }; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq as i32 % 8, sq as i32 / 8);
        let mut d = 0;
        while d < 2 {
            let df = if d == 0 { 1 } else { -1 };
            let (mut lower, mut upper, mut k) = (0, 0, 1);
            while k < 8 {
                lower |= at(file - k * df, rank - k, true);
                upper |= at(file + k * df, rank + k, true);
                k += 1;
            }
            t[sq][d] = Line { lower, upper };
            d += 1;
        }
        sq += 1;
    }
    t
};

/// The squares of `line` a slider reaches from its square: up to and including the nearest
/// blocker each way (the subtraction borrows from the lowest upper blocker down to the
/// nearest lower one, or to square 0 when there is none).
#[inline(always)]
fn along(line: Line, occupied: Bb) -> Bb {
    let lower = line.lower & occupied;
    let upper = line.upper & occupied;
    let nearest_lower = 1u64 << (63 - (lower | 1).leading_zeros());
    (line.lower | line.upper) & (upper ^ upper.wrapping_sub(nearest_lower))
}

/// `PATHS[a][b]`: for each line along which a slider on `b` would reach `a` on an empty
/// cylinder, the squares strictly between them; `Bb::MAX` where there is no such line. Two
/// squares of one rank are joined both ways round; two squares four files and four ranks
/// apart, along both diagonals; no pair by more than two lines.
static PATHS: [[[Bb; 2]; 64]; 64] = {
    const DIRS: [(i32, i32); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (-1, 1),
        (1, -1),
        (-1, -1),
    ];
    let mut t = [[[Bb::MAX; 2]; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let (file, rank) = (a as i32 % 8, a as i32 / 8);
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRS[d];
            let (mut f, mut r, mut between) = (file + df, rank + dr, 0);
            while r >= 0 && r < 8 && !(f.rem_euclid(8) == file && r == rank) {
                let b = (r * 8 + f.rem_euclid(8)) as usize;
                let slot = if t[a][b][0] == Bb::MAX { 0 } else { 1 };
                t[a][b][slot] = between;
                between |= at(f, r, true);
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    t
};

/// The two geometries: the flat board, and the cylinder (`wrap`; a constant wherever the
/// generator calls these, so the other geometry's branch folds away).
#[inline(always)]
pub(super) fn knight(wrap: bool, sq: u32) -> Bb {
    if wrap {
        CYLINDER_KNIGHT[sq as usize]
    } else {
        flat::knight_attacks(square(sq)).0
    }
}

#[inline(always)]
pub(super) fn king(wrap: bool, sq: u32) -> Bb {
    if wrap {
        CYLINDER_KING[sq as usize]
    } else {
        flat::king_attacks(square(sq)).0
    }
}

/// The squares a pawn of `color` on `sq` captures on.
#[inline(always)]
pub(super) fn pawn(wrap: bool, color: crate::Color, sq: u32) -> Bb {
    if wrap {
        CYLINDER_PAWN[color.index()][sq as usize]
    } else {
        flat::pawn_attacks(color, square(sq)).0
    }
}

#[inline(always)]
pub(super) fn rook(wrap: bool, sq: u32, occupied: Bb) -> Bb {
    let file = flat::rook_attacks(square(sq), crate::Bitboard(occupied)).0;
    if wrap {
        let shift = sq & !7;
        let rank = RANK[(sq & 7) as usize][(occupied >> shift) as u8 as usize];
        (file & (FILE_A << (sq & 7))) | Bb::from(rank) << shift
    } else {
        file
    }
}

#[inline(always)]
pub(super) fn bishop(wrap: bool, sq: u32, occupied: Bb) -> Bb {
    if wrap {
        let [a, b] = DIAGONALS[sq as usize];
        along(a, occupied) | along(b, occupied)
    } else {
        flat::bishop_attacks(square(sq), crate::Bitboard(occupied)).0
    }
}

/// A rook's and a bishop's reach from `sq` on an empty board.
#[inline(always)]
pub(super) fn rays(wrap: bool, sq: u32) -> (Bb, Bb) {
    if wrap {
        (
            CYLINDER_ROOK_RAYS[sq as usize],
            CYLINDER_BISHOP_RAYS[sq as usize],
        )
    } else {
        (ROOK_RAYS[sq as usize], BISHOP_RAYS[sq as usize])
    }
}

/// The paths between `a` and `b` along which a slider on one would reach the other: one
/// (`between`, the other slot `Bb::MAX`) on the flat board, where they must share a line, up
/// to two on the cylinder.
#[inline(always)]
pub(super) fn paths(wrap: bool, a: u32, b: u32) -> [Bb; 2] {
    if wrap {
        PATHS[a as usize][b as usize]
    } else {
        [between(a, b), Bb::MAX]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slider's reach walked square by square from the rule text: each ray stops on the
    /// first piece, at the edge (on the cylinder only at the top or bottom rank, or just
    /// before coming back to its square).
    fn slide(from: u32, occupied: Bb, dirs: &[(i32, i32)], wrap: bool) -> Bb {
        let mut reach = 0;
        for &(df, dr) in dirs {
            let (mut f, mut r) = (from as i32 % 8 + df, from as i32 / 8 + dr);
            loop {
                let b = at(f, r, wrap);
                if b == 0 || b == bit(from) {
                    break;
                }
                reach |= b;
                if occupied & b != 0 {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        reach
    }

    /// Occupancies of every density from empty to nearly full (xorshift).
    fn boards(mut seed: u64, rounds: u64) -> impl Iterator<Item = Bb> {
        (0..rounds).map(move |round| {
            let mut occupied = 0;
            for sq in 0..64 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                if seed % 8 < round % 8 {
                    occupied |= bit(sq);
                }
            }
            occupied
        })
    }

    #[test]
    fn sliders_match_the_walk_on_both_boards() {
        for occupied in boards(0x9E37_79B9_7F4A_7C15, 2000) {
            for sq in 0..64 {
                let occupied = occupied & !bit(sq);
                assert_eq!(
                    rook(true, sq, occupied),
                    slide(sq, occupied, &ROOK_DIRS, true)
                );
                assert_eq!(
                    bishop(true, sq, occupied),
                    slide(sq, occupied, &BISHOP_DIRS, true)
                );
                assert_eq!(
                    rook(false, sq, occupied),
                    slide(sq, occupied, &ROOK_DIRS, false)
                );
                assert_eq!(
                    bishop(false, sq, occupied),
                    slide(sq, occupied, &BISHOP_DIRS, false)
                );
            }
        }
    }

    /// A slider on `b` reaches `a` exactly when one of their paths is clear, on both boards.
    #[test]
    fn paths_join_exactly_the_squares_a_slider_reaches() {
        for occupied in boards(0x2545_F491_4F6C_DD1D, 64) {
            for a in 0..64 {
                for b in (0..64).filter(|&b| b != a) {
                    let occupied = occupied & !bit(a) & !bit(b);
                    for wrap in [false, true] {
                        // On the flat board paths are asked only of a slider on a ray.
                        let (r, d) = rays(false, a);
                        if !wrap && (r | d) & bit(b) == 0 {
                            continue;
                        }
                        let [p, q] = if wrap {
                            paths(true, a, b)
                        } else {
                            paths(false, a, b)
                        };
                        // A missing line (`Bb::MAX`) is never open: the generator asks only
                        // with both squares occupied.
                        let clear = |path: Bb| path != Bb::MAX && path & occupied == 0;
                        let open = clear(p) || clear(q);
                        let dirs = [ROOK_DIRS, BISHOP_DIRS].concat();
                        let reach = slide(b, occupied, &dirs, wrap) & bit(a) != 0;
                        assert_eq!(open, reach, "{a} {b} wrap {wrap}");
                    }
                }
            }
        }
    }

    #[test]
    fn leapers_wrap_only_on_the_cylinder() {
        // h2 (15): a knight reaches a4 (24) and b3 (17) round the seam.
        assert_eq!(knight(true, 15) & (bit(24) | bit(17)), bit(24) | bit(17));
        assert_eq!(knight(false, 15) & (bit(24) | bit(17)), 0);
        // a5 (32): a white pawn captures on h6 (47) round the seam.
        assert_ne!(pawn(true, crate::Color::White, 32) & bit(47), 0);
        assert_eq!(pawn(false, crate::Color::White, 32) & bit(47), 0);
        assert_eq!(king(true, 0) & bit(7), bit(7));
    }

    /// A rook on an otherwise empty rank of the cylinder reaches the other seven squares,
    /// and never its own; blocked on b4 going right, its ray going left still reaches c4
    /// round the seam.
    #[test]
    fn a_ray_ends_before_its_own_square() {
        let a4 = 24;
        assert_eq!(rook(true, a4, 0) & (0xFF << 24), 0xFE << 24);
        assert_ne!(rook(true, a4, bit(25)) & bit(26), 0);
    }

    /// A diagonal ray wraps at the seam and stops at the first and last ranks: from g1 it
    /// reaches 13 squares.
    #[test]
    fn diagonals_wrap_and_stop_at_the_edge_ranks() {
        let reach = bishop(true, 6, 0);
        // h2, a3, b4, c5, d6, e7, f8 one way; f2, e3, d4, c5, b6, a7, h8 the other (c5,
        // four files and four ranks away, on both).
        for sq in [15, 16, 25, 34, 43, 52, 61, 13, 20, 27, 41, 48, 63] {
            assert_ne!(reach & bit(sq), 0, "{sq}");
        }
        assert_eq!(reach.count_ones(), 13);
    }
}
