//! Cylinder Chess (`cylinder`), as `GAMES.md` gives it, and its pawns' wrapping captures:
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
//! The moves, attacks and their wrapping tables are the 8x8 generator's (`narrow`); this file
//! keeps the pawn's wrapping captures, which the wide position's `play` reads (whether a
//! double step leaves an en passant square).

use super::square::{SQUARES, STRIDE};
use super::variant::{
    CHESS_CASTLING, CHESS_LETTERS, CHESS_PROMOTIONS, EightByEight, GameDef, Site, WideVariant,
};

pub(crate) const DEF: GameDef = GameDef {
    site: Site::Cylinder,
    narrow: Some(EightByEight::Cylinder),
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

static PAWN: [[u128; SQUARES]; 2] = [leaper(&[(-1, 1), (1, 1)]), leaper(&[(-1, -1), (1, -1)])];

#[cfg(test)]
mod tests {
    use super::super::testing::ucis;
    use super::super::{WidePosition, WideVariant};

    fn pos(fen: &str) -> WidePosition {
        WidePosition::from_fen(WideVariant::Cylinder, fen).unwrap()
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
