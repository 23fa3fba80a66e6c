//! Generates the engine's attack tables at build time, so lookups at run time are plain indexed
//! loads from `static` arrays with no lazy initialisation check on the hot path.
//!
//! Written to `$OUT_DIR/tables.rs` and included by `src/attacks.rs`:
//! leaper attacks (knight, king, pawn per colour), `BETWEEN` and `LINE` masks for every square
//! pair, and "fancy" magic bitboards for rook and bishop attacks (one shared table, a variable
//! shift per square). The magic numbers are searched here with a fixed-seed generator, so the
//! output is deterministic.

use std::fmt::Write as _;
use std::path::PathBuf;

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn sq(file: i32, rank: i32) -> Option<u32> {
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as u32)
}

fn leaper(square: u32, deltas: &[(i32, i32)]) -> u64 {
    let (f, r) = ((square % 8) as i32, (square / 8) as i32);
    deltas
        .iter()
        .filter_map(|&(df, dr)| sq(f + df, r + dr))
        .fold(0, |bb, s| bb | 1 << s)
}

/// Slider attacks from `square` given `occupied`, walking each ray until the first blocker.
fn slide(square: u32, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
    let (f, r) = ((square % 8) as i32, (square / 8) as i32);
    let mut bb = 0;
    for &(df, dr) in dirs {
        let (mut cf, mut cr) = (f + df, r + dr);
        while let Some(s) = sq(cf, cr) {
            bb |= 1 << s;
            if occupied & (1 << s) != 0 {
                break;
            }
            cf += df;
            cr += dr;
        }
    }
    bb
}

/// The relevant-occupancy mask: the rays without their last square (an edge blocker never
/// changes the attack set).
fn relevant_mask(square: u32, dirs: &[(i32, i32)]) -> u64 {
    let (f, r) = ((square % 8) as i32, (square / 8) as i32);
    let mut bb = 0;
    for &(df, dr) in dirs {
        let (mut cf, mut cr) = (f + df, r + dr);
        while sq(cf + df, cr + dr).is_some() {
            bb |= 1 << sq(cf, cr).unwrap();
            cf += df;
            cr += dr;
        }
    }
    bb
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*: fast and good enough to find magics; fixed seed keeps builds reproducible.
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

fn find_magics(dirs: &[(i32, i32)], rng: &mut Rng, table: &mut Vec<u64>) -> Vec<Magic> {
    let mut out = Vec::with_capacity(64);
    for square in 0..64 {
        let mask = relevant_mask(square, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        // Enumerate every subset of the mask (Carry-Rippler) with its true attack set.
        let mut subsets = Vec::with_capacity(size);
        let mut subset = 0u64;
        loop {
            subsets.push((subset, slide(square, subset, dirs)));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        let shift = 64 - bits;
        let mut slots = vec![0u64; size];
        let mut used = vec![0u32; size];
        let mut epoch = 0u32;
        let magic = 'search: loop {
            let magic = rng.sparse();
            if ((mask.wrapping_mul(magic)) >> 56).count_ones() < 6 {
                continue;
            }
            epoch += 1;
            for &(occ, attacks) in &subsets {
                let idx = (occ.wrapping_mul(magic) >> shift) as usize;
                if used[idx] != epoch {
                    used[idx] = epoch;
                    slots[idx] = attacks;
                } else if slots[idx] != attacks {
                    continue 'search;
                }
            }
            break magic;
        };
        let offset = table.len();
        table.resize(offset + size, 0);
        for &(occ, attacks) in &subsets {
            table[offset + (occ.wrapping_mul(magic) >> shift) as usize] = attacks;
        }
        out.push(Magic {
            mask,
            magic,
            shift,
            offset,
        });
    }
    out
}

fn write_array(out: &mut String, name: &str, ty: &str, values: impl IntoIterator<Item = u64>) {
    let values: Vec<u64> = values.into_iter().collect();
    writeln!(
        out,
        "pub(crate) static {name}: [{ty}; {}] = [",
        values.len()
    )
    .unwrap();
    for chunk in values.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|v| format!("{v:#x}")).collect();
        writeln!(out, "    {},", line.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let knight: Vec<u64> = (0..64)
        .map(|s| {
            leaper(
                s,
                &[
                    (1, 2),
                    (2, 1),
                    (2, -1),
                    (1, -2),
                    (-1, -2),
                    (-2, -1),
                    (-2, 1),
                    (-1, 2),
                ],
            )
        })
        .collect();
    let king: Vec<u64> = (0..64)
        .map(|s| {
            leaper(
                s,
                &[
                    (1, 0),
                    (1, 1),
                    (0, 1),
                    (-1, 1),
                    (-1, 0),
                    (-1, -1),
                    (0, -1),
                    (1, -1),
                ],
            )
        })
        .collect();
    let white_pawn: Vec<u64> = (0..64).map(|s| leaper(s, &[(-1, 1), (1, 1)])).collect();
    let black_pawn: Vec<u64> = (0..64).map(|s| leaper(s, &[(-1, -1), (1, -1)])).collect();

    let mut between = vec![0u64; 64 * 64];
    let mut line = vec![0u64; 64 * 64];
    for a in 0..64u32 {
        for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
            let empty_a = slide(a, 0, dirs);
            for b in 0..64u32 {
                if a == b || empty_a & (1 << b) == 0 {
                    continue;
                }
                let empty_b = slide(b, 0, dirs);
                let idx = (a * 64 + b) as usize;
                between[idx] = slide(a, 1 << b, dirs) & slide(b, 1 << a, dirs);
                line[idx] = (empty_a & empty_b) | (1 << a) | (1 << b);
                // `empty_a & empty_b` also holds squares off the line (crossing rays of other
                // directions); keep only those collinear with a and b.
                let (af, ar) = ((a % 8) as i32, (a / 8) as i32);
                let (bf, br) = ((b % 8) as i32, (b / 8) as i32);
                let mut keep = 0u64;
                for s in 0..64u32 {
                    let (sf, sr) = ((s % 8) as i32, (s / 8) as i32);
                    if (bf - af) * (sr - ar) == (br - ar) * (sf - af) {
                        keep |= 1 << s;
                    }
                }
                line[idx] &= keep;
            }
        }
    }

    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut table = Vec::new();
    let rook = find_magics(&ROOK_DIRS, &mut rng, &mut table);
    let bishop = find_magics(&BISHOP_DIRS, &mut rng, &mut table);

    let mut out = String::new();
    out.push_str("// @generated by crates/rules/build.rs; do not edit.\n");
    write_array(&mut out, "KNIGHT_ATTACKS", "u64", knight);
    write_array(&mut out, "KING_ATTACKS", "u64", king);
    write_array(
        &mut out,
        "PAWN_ATTACKS",
        "u64",
        white_pawn.into_iter().chain(black_pawn),
    );
    write_array(&mut out, "BETWEEN", "u64", between);
    write_array(&mut out, "LINE", "u64", line);
    write_array(&mut out, "SLIDER_ATTACKS", "u64", table);
    for (name, magics) in [("ROOK_MAGICS", &rook), ("BISHOP_MAGICS", &bishop)] {
        writeln!(out, "pub(crate) static {name}: [Magic; 64] = [").unwrap();
        for m in magics.iter() {
            writeln!(
                out,
                "    Magic {{ mask: {:#x}, magic: {:#x}, shift: {}, offset: {} }},",
                m.mask, m.magic, m.shift, m.offset
            )
            .unwrap();
        }
        writeln!(out, "];").unwrap();
    }
    let path = PathBuf::from(std::env::var_os("OUT_DIR").unwrap()).join("tables.rs");
    std::fs::write(path, out).unwrap();
}
