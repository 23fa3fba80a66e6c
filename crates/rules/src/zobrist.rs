//! Zobrist keys: a 64-bit hash of what makes two positions "the same" for the repetition
//! rules (pieces, side to move, castling rights, the en passant square only when an en passant
//! capture is actually legal, and the variants' own state: crazyhouse pockets and promoted
//! pieces, three-check counters).
//!
//! The keys are fixed pseudo-random numbers computed at compile time with SplitMix64, so
//! hashes are stable across builds and processes (a stored hash stays valid after a restart).

use crate::{Color, Role, Rules};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// 12 x 64 piece-square keys, 64 castling-rook keys (indexed by square), 8 en passant file
/// keys, 1 side-to-move key; then (appended, so the keys above never change) 2 x 6 x 32 pocket
/// keys (colour, role, count), 64 promoted-square keys and 2 x 4 checks-left keys.
const KEY_COUNT: usize = 12 * 64 + 64 + 8 + 1 + 2 * 6 * POCKET_COUNTS + 64 + 2 * 4;

/// Pocket counts with their own key; a valid position holds at most 30 pieces in hand.
const POCKET_COUNTS: usize = 32;

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
const POCKET: usize = TURN + 1;
const PROMOTED: usize = POCKET + 2 * 6 * POCKET_COUNTS;
const CHECKS: usize = PROMOTED + 64;

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
    if let Some(pockets) = pos.pockets() {
        for color in Color::ALL {
            for role in Role::ALL {
                let n = usize::from(pockets[color].count(role)).min(POCKET_COUNTS);
                if n > 0 {
                    h ^= KEYS[POCKET + (color.index() * 6 + role.index()) * POCKET_COUNTS + n - 1];
                }
            }
        }
    }
    for sq in pos.promoted() {
        h ^= KEYS[PROMOTED + sq.index()];
    }
    if let Some(checks) = pos.remaining_checks() {
        for color in Color::ALL {
            h ^= KEYS[CHECKS + color.index() * 4 + usize::from(checks[color].min(3))];
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Chess, Move, MoveKind, Position, Square, Variant};

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

    /// Pockets, promotion marks and check counters are part of the key.
    #[test]
    fn variant_state_is_hashed() {
        fn key(variant: Variant, fen: &str) -> u64 {
            zobrist_hash(&Position::from_fen(variant, fen).unwrap())
        }
        let zh = |pocket: &str| {
            key(
                Variant::Crazyhouse,
                format!("4k3/8/8/8/8/8/8/Q3K3[{pocket}] w - - 0 1").as_str(),
            )
        };
        assert_ne!(zh(""), zh("P"));
        assert_ne!(zh("P"), zh("PP"));
        assert_ne!(zh("P"), zh("p"));
        assert_ne!(
            key(Variant::Crazyhouse, "4k3/8/8/8/8/8/8/Q~3K3[] w - - 0 1"),
            zh("")
        );
        let three = |checks| {
            key(
                Variant::ThreeCheck,
                format!("4k3/8/8/8/8/8/8/Q3K3 w - - {checks} 0 1").as_str(),
            )
        };
        assert_ne!(three("3+3"), three("2+3"));
        assert_ne!(three("2+3"), three("3+2"));
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
