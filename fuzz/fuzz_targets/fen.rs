//! Any bytes as FEN, for every variant and both castling modes: a position or a typed error,
//! never a panic; a position that validates writes a FEN that reads back to itself.
#![no_main]

use chessd_rules::{CastlingMode, Position, Rules, Variant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for (variant, mode) in Variant::ALL
        .into_iter()
        .flat_map(|v| [(v, CastlingMode::Standard), (v, CastlingMode::Chess960)])
    {
        if let Ok(pos) = Position::from_fen_with(variant, text, mode) {
            let fen = pos.fen();
            let back = Position::from_fen_with(variant, &fen, mode).expect("written fen reads back");
            assert_eq!(back.fen(), fen);
            let _ = pos.outcome();
            assert_eq!(pos.legal_moves().len() as u64, pos.count_legal_moves());
        }
    }
});
