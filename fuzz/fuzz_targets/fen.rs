//! Any bytes as FEN, for both variants: a position or a typed error, never a panic; a position
//! that validates writes a FEN that reads back to itself.
#![no_main]

use chessd_rules::{Position, Rules, Variant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for variant in Variant::ALL {
        if let Ok(pos) = Position::from_fen(variant, text) {
            let fen = pos.fen();
            let back = Position::from_fen(variant, &fen).expect("written fen reads back");
            assert_eq!(back.fen(), fen);
            let _ = pos.outcome();
            assert_eq!(pos.legal_moves().len() as u64, pos.count_legal_moves());
        }
    }
});
