//! Any bytes as a UCI move against both start positions and a position with castling, en
//! passant and promotions: a move or a typed error, never a panic; a resolved move is legal.
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
    let positions = [
        Position::new(Variant::Chess),
        Position::new(Variant::RacingKings),
        Position::from_fen(
            Variant::Chess,
            "r3k2r/1P4P1/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 2",
        )
        .unwrap(),
    ];
    for pos in positions {
        if let Ok(m) = uci.to_move(&pos) {
            assert!(pos.is_legal(m));
        }
    }
});
