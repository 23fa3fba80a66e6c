//! The 8x8 generator against the wide position it copies: seeded random games of each of the
//! four, where at every ply every legal move is played both ways (`WidePosition::play_board`,
//! the service's, and `Narrow::play_in`, perft's) and the two positions must be the same, and
//! the counting sink must count what the list lists. Which moves are legal is held to the
//! independent references by `tests/wide_site.rs` and `tests/wide.rs`.

use super::{CHESHIRE, CYLINDER, Count, ICE, Narrow, NarrowMove, RELAY};
use crate::wide::{WidePosition, WideVariant};

fn play_in(game: u8, n: &mut Narrow, m: NarrowMove) {
    match game {
        CYLINDER => n.play_in::<CYLINDER>(m),
        RELAY => n.play_in::<RELAY>(m),
        CHESHIRE => n.play_in::<CHESHIRE>(m),
        _ => n.play_in::<ICE>(m),
    }
}

/// Plays `games` seeded random games of `variant` from `fen`, up to `plies` each, checking
/// every move of every position on the way; returns the positions seen.
fn playouts(variant: WideVariant, fen: &str, seed: u64, games: u32, plies: u32) -> u64 {
    let mut rng = seed;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut seen = 0;
    for _ in 0..games {
        let mut wide = WidePosition::from_fen(variant, fen).unwrap();
        for _ in 0..plies {
            let narrow = Narrow::of(&wide).unwrap();
            let mut moves = Vec::new();
            narrow.generate(&mut moves);
            let mut count = Count {
                counted: 0,
                gathered: 0,
            };
            narrow.generate(&mut count);
            assert_eq!(count.total(), moves.len() as u64, "{}", wide.fen());
            seen += 1;
            for &m in &moves {
                let mut n = narrow;
                play_in(narrow.game, &mut n, m);
                let mut w = wide;
                w.play_unchecked(m.to_wide());
                assert_eq!(
                    Narrow::of(&w).unwrap(),
                    n,
                    "{} {}",
                    wide.fen(),
                    m.to_wide().to_uci(&wide)
                );
            }
            if moves.is_empty() {
                break;
            }
            let m = moves[(next() % moves.len() as u64) as usize];
            wide.play_unchecked(m.to_wide());
        }
    }
    seen
}

#[test]
fn cylinder_plays_as_the_wide_position_does() {
    let start = WideVariant::Cylinder.start_fen();
    assert!(playouts(WideVariant::Cylinder, start, 1, 30, 160) > 1000);
    // En passant across the seam, at the first ply of every game: a5h6 after h7h5.
    let seam = "4k3/8/8/P6p/8/8/8/4K3 w - h6 0 2";
    assert!(playouts(WideVariant::Cylinder, seam, 2, 20, 40) > 100);
}

#[test]
fn knight_relay_plays_as_the_wide_position_does() {
    let start = WideVariant::KnightRelay.start_fen();
    assert!(playouts(WideVariant::KnightRelay, start, 3, 30, 160) > 1000);
}

#[test]
fn cheshire_cat_plays_as_the_wide_position_does() {
    let start = WideVariant::CheshireCat.start_fen();
    assert!(playouts(WideVariant::CheshireCat, start, 4, 30, 160) > 1000);
}

/// Past Black's 20th and 40th moves, where the board refreezes.
#[test]
fn ice_age_plays_as_the_wide_position_does() {
    let start = WideVariant::IceAge.start_fen();
    assert!(playouts(WideVariant::IceAge, start, 5, 30, 200) > 1000);
    let open = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 17";
    assert!(playouts(WideVariant::IceAge, open, 6, 30, 60) > 500);
    // At the first ply, Black's 40th move: every reply freezes the king (one game's end) or
    // the castling rooks, whose rights go with them.
    let frozen_king = "7k/6p1/8/8/8/8/1P6/K7 b - - 0 40";
    assert!(playouts(WideVariant::IceAge, frozen_king, 7, 3, 4) >= 3);
    let frozen_rooks = "r3k3/3p4/8/8/8/8/4P3/4K2R b Kq - 0 40";
    assert!(playouts(WideVariant::IceAge, frozen_rooks, 8, 3, 4) >= 3);
}

/// The cylinder's pawn captures are the wide play's (which reads them to keep an en passant
/// square) square for square.
#[test]
fn the_cylinders_pawn_tables_agree() {
    let wide = crate::wide::cylinder::DEF.pawn_captures;
    for (color, wide) in wide.iter().enumerate() {
        for sq in 0..64 {
            assert_eq!(
                super::wide_bits(super::tables::pawn(true, crate::Color::ALL[color], sq)),
                wide[super::wide_square(sq).index()],
                "{color} {sq}"
            );
        }
    }
}

/// The 8x8 numbering and the wide one's corner carry the same squares both ways.
#[test]
fn bitboards_cross_between_the_numberings() {
    let mut bb: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..1000 {
        bb ^= bb << 13;
        bb ^= bb >> 7;
        bb ^= bb << 17;
        assert_eq!(super::narrow_bits(super::wide_bits(bb)), bb);
        assert_eq!(super::wide_bits(bb).count_ones(), bb.count_ones());
    }
    let h8 = crate::wide::WideSquare::new(7, 7).unwrap();
    assert_eq!(super::narrow_square(h8), 63);
    assert_eq!(super::wide_square(63), h8);
}
