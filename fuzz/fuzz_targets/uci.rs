//! Any bytes as a UCI move against every variant's start and positions with castling (both
//! castling modes), en passant, promotions, drops and king promotions: a move or a typed
//! error, never a panic; a resolved move is legal and its text reads back to it.
#![no_main]

use chessd_rules::{Position, Rules, UciMove, Variant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(uci) = text.parse::<UciMove>() else {
        return;
    };
    assert_eq!(uci.to_string().parse::<UciMove>(), Ok(uci));
    let mut positions: Vec<Position> = Variant::ALL.into_iter().map(Position::new).collect();
    for (variant, fen) in [
        (Variant::Chess, "r3k2r/1P4P1/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 2"),
        (Variant::Chess960, "1r2k1r1/1P6/8/8/8/8/8/1R2K1R1 w GBgb - 0 1"),
        (Variant::Crazyhouse, "4k3/1P6/8/8/8/8/8/R3K3[QRBNPp] w Q - 0 1"),
        (Variant::Antichess, "8/1P6/8/8/8/8/6p1/K6k w - - 0 1"),
    ] {
        positions.push(Position::from_fen(variant, fen).unwrap());
    }
    for pos in positions {
        if let Ok(m) = uci.to_move(&pos) {
            assert!(pos.is_legal(m));
            assert_eq!(uci.to_move(&pos), m.to_string().parse::<UciMove>().unwrap().to_move(&pos));
        }
    }
});
