//! Cylinder Chess (`cylinder`), as `GAMES.md` gives it, and its wrapping geometry:
//!
//! > **The a-file and h-file are adjacent**: every horizontal or diagonal step that leaves the
//! > board on one side re-enters on the other (file index taken modulo 8). Ranks do not wrap.
//! > **Sliders** follow their ray across the seam until blocked; a ray ends just before it
//! > would return to the moving piece's own square, so a move never ends where it began (no
//! > null moves). [...] A diagonal ray stops at rank 1 or 8. Knights, kings and pawn captures
//! > also wrap (a knight on h2 reaches a4 and b3; `a5h6` is a pawn capture).
//! > **En passant** works across the seam (white a5, `h7h5`, then `a5h6`).
//! > **Attack and check** use the same wrapping geometry.
//! > **Castling** is allowed with the standard squares and conditions and only with the rook
//! > on the same side, never across the seam **(decision)**. Attacked squares are tested with
//! > wrapping.
//! > Insufficient material: the chess cases apply (with an even width the bishops stay
//! > colour-bound).
//!
//! The moves themselves are made by the 8x8 generator (`narrow`, with its own tables); this
//! file owns the tables the wide position's attack test reads (`site_attacks`).

use super::square::{SQUARES, STRIDE, WideSquare};
use super::variant::{CHESS_CASTLING, CHESS_LETTERS, CHESS_PROMOTIONS, GameDef, Site, WideVariant};

pub(crate) const DEF: GameDef = GameDef {
    site: Site::Cylinder,
    narrow: true,
    pawn_captures: &PAWN,
    ..GameDef::standard(
        WideVariant::Cylinder,
        (8, 8),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        CHESS_LETTERS,
        &CHESS_PROMOTIONS,
        true,
        Some(CHESS_CASTLING),
    )
};

/// The bit of `(file, rank)` with the file taken modulo 8, or 0 off the ranks.
const fn wrapped(file: i8, rank: i8) -> u128 {
    if rank < 0 || rank >= 8 {
        return 0;
    }
    1 << (rank as u32 * STRIDE as u32 + file.rem_euclid(8) as u32)
}

/// Per square of the 8x8 board, the squares one leap of each of `deltas` reaches, wrapping.
const fn leaper(deltas: &[(i8, i8)]) -> [u128; SQUARES] {
    let mut t = [0u128; SQUARES];
    let mut rank = 0;
    while rank < 8 {
        let mut file = 0;
        while file < 8 {
            let mut i = 0;
            while i < deltas.len() {
                let (df, dr) = deltas[i];
                t[rank as usize * STRIDE as usize + file as usize] |= wrapped(file + df, rank + dr);
                i += 1;
            }
            file += 1;
        }
        rank += 1;
    }
    t
}

pub(crate) static KNIGHT: [u128; SQUARES] = leaper(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
pub(crate) static KING: [u128; SQUARES] = leaper(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[u128; SQUARES]; 2] = [leaper(&[(-1, 1), (1, 1)]), leaper(&[(-1, -1), (1, -1)])];

/// `RAYS[sq]`: a rook's and a bishop's reach from `sq` on an empty board.
pub(crate) static RAYS: [(u128, u128); SQUARES] = {
    let mut t = [(0u128, 0u128); SQUARES];
    let mut rank = 0;
    while rank < 8 {
        let mut file = 0;
        while file < 8 {
            let (mut orthogonal, mut diagonal, mut k) = (0u128, 0u128, 1);
            while k < 8 {
                orthogonal |=
                    wrapped(file + k, rank) | wrapped(file, rank + k) | wrapped(file, rank - k);
                diagonal |= wrapped(file + k, rank + k)
                    | wrapped(file - k, rank + k)
                    | wrapped(file + k, rank - k)
                    | wrapped(file - k, rank - k);
                k += 1;
            }
            t[rank as usize * STRIDE as usize + file as usize] = (orthogonal, diagonal);
            file += 1;
        }
        rank += 1;
    }
    t
};

/// The squares of the 8x8 board numbered 0 to 63 (`rank * 8 + file`), for `PATHS`.
static DENSE: [u8; SQUARES] = {
    let mut t = [0u8; SQUARES];
    let mut i = 0;
    while i < 64 {
        t[(i / 8) * STRIDE as usize + i % 8] = i as u8;
        i += 1;
    }
    t
};

/// `PATHS[a][b]`: for each line along which a slider on `b` would reach `a` on an empty
/// board, the squares strictly between them; `u128::MAX` where there is no such line. Two
/// squares of one rank are joined both ways round; two squares four files and four ranks
/// apart, along both diagonals; no pair by more than two lines.
static PATHS: [[[u128; 2]; 64]; 64] = {
    const DIRS: [(i8, i8); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (-1, 1),
        (1, -1),
        (-1, -1),
    ];
    let mut t = [[[u128::MAX; 2]; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let (file, rank) = ((a % 8) as i8, (a / 8) as i8);
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRS[d];
            let (mut f, mut r, mut between) = (file + df, rank + dr, 0u128);
            while r >= 0 && r < 8 && !(f.rem_euclid(8) == file && r == rank) {
                let b = (r * 8 + f.rem_euclid(8)) as usize;
                let slot = if t[a][b][0] == u128::MAX { 0 } else { 1 };
                t[a][b][slot] = between;
                between |= wrapped(f, r);
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    t
};

/// The paths between `a` and `b` (see `PATHS`).
#[inline]
pub(crate) fn paths(a: WideSquare, b: WideSquare) -> &'static [u128; 2] {
    &PATHS[DENSE[a.index()] as usize][DENSE[b.index()] as usize]
}

#[cfg(test)]
mod tests {
    use super::super::square::squares;
    use super::super::testing::ucis;
    use super::super::{WidePosition, WideVariant};
    use super::*;

    fn sq(name: &str) -> WideSquare {
        name.parse().unwrap()
    }

    /// A slider's reach walked square by square from the rule text: each ray wraps at the
    /// seam and stops on the first piece, at the top or bottom rank, or just before coming
    /// back to `from`.
    fn slide(from: WideSquare, occupied: u128, dirs: &[(i8, i8)]) -> u128 {
        let (file, rank) = (from.file() as i8, from.rank() as i8);
        let mut reach = 0;
        for &(df, dr) in dirs {
            let (mut f, mut r) = (file + df, rank + dr);
            loop {
                let bit = wrapped(f, r);
                if bit == 0 || bit == from.bit() {
                    break;
                }
                reach |= bit;
                if occupied & bit != 0 {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        reach
    }

    /// `rounds` occupancies of the board from `seed` (xorshift), the n-th filling about n
    /// eighths of the squares, n going round 0 to 7: every density from empty to nearly full.
    fn boards(mut seed: u64, rounds: u64) -> impl Iterator<Item = u128> {
        (0..rounds).map(move |round| {
            let mut occupied = 0u128;
            for s in squares(BOARD) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                if seed % 8 < round % 8 {
                    occupied |= s.bit();
                }
            }
            occupied
        })
    }

    /// The 8x8 board in the shared numbering.
    const BOARD: u128 = super::super::square::board_mask(8, 8);

    /// The empty board's reach agrees with the walk on every square.
    #[test]
    fn rays_match_the_walk() {
        for from in squares(BOARD) {
            let orthogonal = slide(from, 0, &[(1, 0), (-1, 0), (0, 1), (0, -1)]);
            let diagonal = slide(from, 0, &[(1, 1), (-1, 1), (1, -1), (-1, -1)]);
            assert_eq!(RAYS[from.index()], (orthogonal, diagonal), "{from}");
        }
    }

    fn pos(fen: &str) -> WidePosition {
        WidePosition::from_fen(WideVariant::Cylinder, fen).unwrap()
    }

    /// A slider on one square reaches another exactly when one of the paths between them
    /// is empty, and no other pair of squares has a path.
    #[test]
    fn paths_join_what_sliders_reach() {
        for occupied in boards(0x2545_F491_4F6C_DD1D, 200) {
            for a in squares(BOARD) {
                for b in squares(BOARD & !a.bit()) {
                    let queen = [
                        (1, 0),
                        (-1, 0),
                        (0, 1),
                        (0, -1),
                        (1, 1),
                        (-1, 1),
                        (1, -1),
                        (-1, -1),
                    ];
                    let reach = slide(b, occupied, &queen) & a.bit() != 0;
                    let open = paths(a, b)
                        .iter()
                        .any(|&p| p != u128::MAX && p & occupied == 0);
                    assert_eq!(reach, open, "{a} {b} {occupied:x}");
                    let lines = (RAYS[b.index()].0 | RAYS[b.index()].1) & a.bit() != 0;
                    assert_eq!(lines, paths(a, b)[0] != u128::MAX, "{a} {b}");
                }
            }
        }
        // Both ways round a rank, and both diagonals four files and four ranks apart.
        assert!(paths(sq("a1"), sq("e1")).iter().all(|&p| p != u128::MAX));
        assert!(paths(sq("e1"), sq("a5")).iter().all(|&p| p != u128::MAX));
        assert_eq!(paths(sq("e1"), sq("b4"))[1], u128::MAX);
    }

    /// Knights, kings and pawn captures wrap: a knight on h2 reaches a4 and b3.
    #[test]
    fn leapers_wrap_at_the_seam() {
        assert_ne!(KNIGHT[sq("h2").index()] & sq("a4").bit(), 0);
        assert_ne!(KNIGHT[sq("h2").index()] & sq("b3").bit(), 0);
        assert_ne!(KING[sq("a1").index()] & sq("h2").bit(), 0);
        assert_ne!(PAWN[0][sq("a5").index()] & sq("h6").bit(), 0);
    }

    /// En passant across the seam: white a5, `h7h5`, then `a5h6`.
    #[test]
    fn en_passant_across_the_seam() {
        let mut p = pos("4k3/7p/8/P7/8/8/8/4K3 b - - 0 1");
        p.play("h7h5").unwrap();
        assert_eq!(p.fen(), "4k3/8/8/P6p/8/8/8/4K3 w - h6 0 2");
        p.play("a5h6").unwrap();
        assert_eq!(p.fen(), "4k3/8/7P/8/8/8/8/4K3 b - - 0 2");
    }

    /// Castling uses the standard squares only: the rook beyond the seam does not castle
    /// with the king the short way round, and a square attacked across the seam forbids it.
    #[test]
    fn castling_on_its_own_side_with_wrapping_attacks() {
        let p = pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        let moves = ucis(&p);
        assert!(moves.contains(&"e1g1".to_string()) && moves.contains(&"e1c1".to_string()));
        // A bishop on a3 reaches g1 across the seam (a3, h2, g1): no short castling.
        let p = pos("4k3/8/8/8/8/b7/8/R3K2R w KQ - 0 1");
        let moves = ucis(&p);
        assert!(!moves.contains(&"e1g1".to_string()), "{moves:?}");
        assert!(moves.contains(&"e1f1".to_string()), "{moves:?}");
    }

    /// A king left on a rank a rook sweeps round the seam is in check: the landing square is
    /// tested on the board after castling, where the rook has left h1.
    #[test]
    fn castling_never_lands_in_check_across_the_seam() {
        let p = pos("4k3/8/8/8/8/8/8/r3K2R w K - 0 1");
        assert!(p.is_check(), "a1's rook reaches e1 along the open rank");
        let p = pos("4k3/8/8/8/8/8/8/rN2K2R w K - 0 1");
        // a1 attacks h1 across the seam, not g1: after castling h1 is empty and g1 is hit.
        assert!(!ucis(&p).contains(&"e1g1".to_string()));
    }

    /// Check across the seam: a queen on a4 checks a king on h5.
    #[test]
    fn check_wraps() {
        let p = pos("8/8/8/7K/q7/8/8/k7 w - - 0 1");
        assert!(p.is_check());
    }

    /// Two rooks reaching the same square from both sides of the seam are told apart by file.
    #[test]
    fn san_tells_rooks_across_the_seam_apart() {
        let p = pos("4k3/8/8/8/R5R1/8/8/4K3 w - - 0 1");
        let m = "a4h4"
            .parse::<super::super::WideUci>()
            .unwrap()
            .to_move(&p)
            .unwrap();
        assert_eq!(super::super::wide_san(&p, m).to_string(), "Rah4");
        let g = "g4h4"
            .parse::<super::super::WideUci>()
            .unwrap()
            .to_move(&p)
            .unwrap();
        assert_eq!(super::super::wide_san(&p, g).to_string(), "Rgh4");
    }

    /// The start position: 20 moves, as chess (nothing reaches across the seam yet).
    #[test]
    fn start_counts() {
        assert_eq!(WidePosition::new(WideVariant::Cylinder).perft(1), 20);
    }

    /// The en passant square is written as chessd writes chess's: only when a capture there
    /// is legal (here the pawn on d5 is pinned by the capture); a FEN that writes it after
    /// every double step is read to the same position.
    #[test]
    fn an_en_passant_square_is_written_only_when_the_capture_is_legal() {
        let mut p = pos("4k3/2p5/8/r2PKP2/8/8/8/8 b - - 0 1");
        p.play("c7c5").unwrap();
        assert_eq!(p.fen(), "4k3/8/8/r1pPKP2/8/8/8/8 w - - 0 2");
        assert_eq!(pos("4k3/8/8/r1pPKP2/8/8/8/8 w - c6 0 2"), p);
        let mut p = pos("4k3/2p5/8/3PKP2/8/8/8/8 b - - 0 1");
        p.play("c7c5").unwrap();
        assert_eq!(p.fen(), "4k3/8/8/2pPKP2/8/8/8/8 w - c6 0 2");
    }
}
