//! "Generated moves are legal", in every variant: from a FEN taken from the input (or the
//! variant's start), playouts steered by the input bytes; after every generated move the
//! mover's king is not attacked (atomic: unless the kings touch or the enemy king exploded;
//! antichess has no royal king), in Racing Kings the opponent's king is not attacked either,
//! the move count agrees with the list, every move's UCI and SAN read back to it, and the FEN
//! reads back to the same position.
#![no_main]

use chessd_rules::attacks::king_attacks;
use chessd_rules::{Color, Position, Rules, Variant, parse_move, san_plus, zobrist_hash};
use libfuzzer_sys::fuzz_target;

fn attacked(pos: &Position, color: Color) -> bool {
    let board = pos.board();
    board
        .king_of(color)
        .is_some_and(|k| board.is_attacked(k, !color, board.occupied()))
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let variant = Variant::ALL[pick as usize % Variant::ALL.len()];
    let (head, steer) = rest.split_at(rest.iter().position(|&b| b == b'\n').unwrap_or(0));
    let mut pos = std::str::from_utf8(head)
        .ok()
        .and_then(|fen| Position::from_fen(variant, fen).ok())
        .unwrap_or_else(|| Position::new(variant));
    for &b in steer {
        let moves = pos.legal_moves();
        assert_eq!(moves.len() as u64, pos.count_legal_moves());
        if moves.is_empty() {
            assert!(pos.outcome().is_some(), "no moves but no outcome in {pos}");
            break;
        }
        for &m in moves.iter() {
            assert_eq!(parse_move(&pos, &m.to_string()), Ok(m), "uci of {m} in {pos}");
            assert_eq!(parse_move(&pos, &san_plus(&pos, m)), Ok(m), "san of {m} in {pos}");
        }
        let m = moves[b as usize % moves.len()];
        let mover = pos.turn();
        pos.play_unchecked(m);
        let back = Position::from_fen(variant, &pos.fen()).expect("written fen reads back");
        assert_eq!(zobrist_hash(&back), zobrist_hash(&pos));
        let safe = match variant {
            Variant::Antichess => true,
            Variant::Atomic => {
                let board = pos.board();
                match (board.king_of(mover), board.king_of(!mover)) {
                    (None, _) => false,
                    (Some(_), None) => true,
                    (Some(a), Some(b)) => king_attacks(a).contains(b) || !attacked(&pos, mover),
                }
            }
            _ => !attacked(&pos, mover),
        };
        assert!(safe, "{m} left the king attacked");
        if variant == Variant::RacingKings {
            assert!(!attacked(&pos, !mover), "{m} gave check in racing kings");
        }
    }
});
