//! Zobrist keys: a 64-bit hash of what makes two positions "the same" for the repetition
//! rules (pieces, side to move, castling rights, and the en passant square only when an en
//! passant capture is actually legal).
//!
//! The keys are fixed pseudo-random numbers computed at compile time with SplitMix64, so
//! hashes are stable across builds and processes (a stored hash stays valid after a restart).

use crate::{Color, Rules};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// 12 x 64 piece-square keys, 64 castling-rook keys (indexed by square), 8 en passant file
/// keys, 1 side-to-move key.
const KEY_COUNT: usize = 12 * 64 + 64 + 8 + 1;

const KEYS: [u64; KEY_COUNT] = {
    let mut keys = [0u64; KEY_COUNT];
    let mut state = 0x5EED_C4E5_5D00_0001u64;
    let mut i = 0;
    while i < KEY_COUNT {
        let (next, value) = splitmix(state);
        state = next;
        keys[i] = value;
        i += 1;
    }
    keys
};

const CASTLING: usize = 12 * 64;
const EP: usize = CASTLING + 64;
const TURN: usize = EP + 8;

/// The repetition key of a position.
#[must_use]
pub fn zobrist_hash<P: Rules>(pos: &P) -> u64 {
    let board = pos.board();
    let mut h = 0u64;
    for sq in board.occupied() {
        let piece = board.piece_at(sq).expect("occupied square has a piece");
        h ^= KEYS[(piece.color.index() * 6 + piece.role.index()) * 64 + sq.index()];
    }
    for rook in pos.castling_rights() {
        h ^= KEYS[CASTLING + rook.index()];
    }
    if let Some(ep) = pos.legal_ep_square() {
        h ^= KEYS[EP + ep.file().index() as usize];
    }
    if pos.turn() == Color::Black {
        h ^= KEYS[TURN];
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Chess, Move, MoveKind, Role, Square};

    /// Moving knights out and back gives the same key; side to move and rights change it.
    #[test]
    fn transpositions_hash_equal() {
        let start = Chess::start();
        let mut pos = start;
        for (from, to) in [
            (Square::G1, Square::F3),
            (Square::G8, Square::F6),
            (Square::F3, Square::G1),
            (Square::F6, Square::G8),
        ] {
            pos = pos
                .play(Move::new(Role::Knight, from, to, MoveKind::Normal))
                .unwrap();
        }
        assert_eq!(zobrist_hash(&pos), zobrist_hash(&start));
        assert_ne!(pos.fullmoves(), start.fullmoves());
        let after_e4 = start
            .play(Move::new(
                Role::Pawn,
                Square::E2,
                Square::E4,
                MoveKind::DoublePush,
            ))
            .unwrap();
        assert_ne!(zobrist_hash(&after_e4), zobrist_hash(&start));
    }

    /// An en passant square nobody can capture on does not change the key.
    #[test]
    fn dead_en_passant_square_is_ignored() {
        let with: Chess =
            Rules::from_setup("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1".parse().unwrap()).unwrap();
        let without: Chess =
            Rules::from_setup("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1".parse().unwrap()).unwrap();
        assert_eq!(zobrist_hash(&with), zobrist_hash(&without));
        let live: Chess =
            Rules::from_setup("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1".parse().unwrap()).unwrap();
        let dead: Chess =
            Rules::from_setup("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1".parse().unwrap()).unwrap();
        assert_ne!(zobrist_hash(&live), zobrist_hash(&dead));
    }
}
