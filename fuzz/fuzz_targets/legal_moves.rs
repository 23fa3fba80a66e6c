//! "Generated moves are legal": from a FEN taken from the input (or the start positions),
//! playouts steered by the input bytes; after every generated move the mover's king is not
//! attacked, in Racing Kings the opponent's king is not attacked either, and the move count
//! agrees with the list.
#![no_main]

use chessd_rules::{Position, Rules, Variant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (head, steer) = data.split_at(data.iter().position(|&b| b == b'\n').unwrap_or(0));
    let variant = if data.first().is_some_and(|b| b & 1 == 1) {
        Variant::RacingKings
    } else {
        Variant::Chess
    };
    let mut pos = std::str::from_utf8(head)
        .ok()
        .and_then(|fen| Position::from_fen(variant, fen).ok())
        .unwrap_or_else(|| Position::new(variant));
    for &b in steer {
        let moves = pos.legal_moves();
        assert_eq!(moves.len() as u64, pos.count_legal_moves());
        if moves.is_empty() {
            break;
        }
        let m = moves[b as usize % moves.len()];
        let mover = pos.turn();
        pos.play_unchecked(m);
        let board = *pos.board();
        let attacked = |c| {
            let k = board.king_of(c).expect("one king per side");
            board.is_attacked(k, !c, board.occupied())
        };
        assert!(!attacked(mover), "{m} left the king attacked");
        if variant == Variant::RacingKings {
            assert!(!attacked(!mover), "{m} gave check in racing kings");
        }
    }
});
