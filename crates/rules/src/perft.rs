//! perft: the number of leaf nodes of the legal-move tree to a given depth, the standard
//! correctness check for a move generator. The last ply is bulk-counted (moves are counted from
//! target sets, not played).

use crate::{Move, Position, Rules};

/// Leaf nodes at `depth` plies below `pos`.
#[must_use]
pub fn perft<P: Rules>(pos: &P, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut nodes = 0;
            for &m in pos.legal_moves().iter() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                nodes += perft(&child, depth - 1);
            }
            nodes
        }
    }
}

/// perft split by first move, in the order `legal_moves` gives (sort for display).
#[must_use]
pub fn divide<P: Rules>(pos: &P, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (
                m,
                if depth == 0 {
                    0
                } else {
                    perft(&child, depth - 1)
                },
            )
        })
        .collect()
}

impl Position {
    /// perft on the concrete variant type, so the enum is matched once rather than per node.
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        match self {
            Position::Chess(p) => perft(p, depth),
            Position::RacingKings(p) => perft(p, depth),
        }
    }

    /// [`divide`] on the concrete variant type.
    #[must_use]
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        match self {
            Position::Chess(p) => divide(p, depth),
            Position::RacingKings(p) => divide(p, depth),
        }
    }
}
