//! The variants' own notations, fuzzed field by field: the input replaces the castling field
//! of Chess960 positions (X-FEN, Shredder-FEN), the pocket of crazyhouse positions (in
//! brackets or as a ninth rank) and the check counter of three-check positions (checks left
//! before the clocks, checks given at the end). Whatever parses writes a FEN that reads back
//! to itself, and generates moves whose UCI (drops `N@f3`, castling king-takes-rook) reads back.
#![no_main]

use chessd_rules::{Position, Rules, Variant, parse_move};
use libfuzzer_sys::fuzz_target;

fn check(variant: Variant, fen: &str) {
    let Ok(pos) = Position::from_fen(variant, fen) else {
        return;
    };
    let written = pos.fen();
    let back = Position::from_fen(variant, &written).expect("written fen reads back");
    assert_eq!(back.fen(), written, "from {fen}");
    let moves = pos.legal_moves();
    assert_eq!(moves.len() as u64, pos.count_legal_moves());
    for &m in moves.iter() {
        assert_eq!(parse_move(&pos, &m.to_string()), Ok(m), "{m} in {written}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let field: String = text.chars().filter(|c| !c.is_whitespace()).take(40).collect();
    // Castling rights of Chess960 arrangements.
    for board in [
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR",
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1",
        "rk5r/8/8/8/8/8/8/RK5R",
    ] {
        check(Variant::Chess960, &format!("{board} w {field} - 0 1"));
    }
    // Crazyhouse pockets, both forms, and promotion marks from the input.
    let base = "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R";
    check(Variant::Crazyhouse, &format!("{base}[{field}] b KQkq - 0 1"));
    check(Variant::Crazyhouse, &format!("{base}/{field} b KQkq - 0 1"));
    check(Variant::Crazyhouse, &format!("{field} w - - 0 1"));
    // Three-check counters in both places.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    check(Variant::ThreeCheck, &format!("{start} {field} 0 1"));
    check(Variant::ThreeCheck, &format!("{start} 0 1 {field}"));
});
