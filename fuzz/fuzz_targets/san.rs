//! Any bytes as SAN (or UCI) against a set of positions of every variant (castling, en
//! passant, promotions, drops, king promotions, Chess960 castling): a move or a typed error,
//! never a panic; a resolved move is legal and its own SAN resolves back to it.
#![no_main]

use chessd_rules::{Position, Rules, Variant, parse_move, san_plus};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let positions = [
        Position::new(Variant::Chess),
        Position::new(Variant::RacingKings),
        Position::from_fen(
            Variant::Chess,
            "r3k2r/1P4P1/8/3pP3/8/2N3N1/6p1/R3K2R w KQkq d6 0 2",
        )
        .unwrap(),
        Position::from_fen(Variant::Chess, "4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1").unwrap(),
        Position::from_fen(Variant::Crazyhouse, "4k3/1P6/8/8/8/8/8/R3K3[QRBNPp] w Q - 0 1")
            .unwrap(),
        Position::from_fen(Variant::Antichess, "8/1P6/8/8/8/8/6p1/K6k w - - 0 1").unwrap(),
        Position::from_fen(Variant::Chess960, "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1")
            .unwrap(),
    ];
    for pos in positions {
        if let Ok(m) = parse_move(&pos, text) {
            assert!(pos.is_legal(m));
            assert_eq!(parse_move(&pos, &san_plus(&pos, m)), Ok(m));
        }
    }
});
