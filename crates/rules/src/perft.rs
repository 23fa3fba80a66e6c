//! perft: the number of leaf nodes of the legal-move tree to a given depth, the standard
//! correctness check for a move generator. The last ply is bulk-counted (moves are counted from
//! target sets, not played), and each depth reuses one move list.

use crate::position::dispatch;
use crate::{Move, MoveList, Position, Rules};

/// Leaf nodes at `depth` plies below `pos`.
#[must_use]
pub fn perft<P: Rules>(pos: &P, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut lists: Vec<MoveList> = (1..depth).map(|_| MoveList::new()).collect();
            perft_with(pos, depth, &mut lists)
        }
    }
}

/// perft at `depth` >= 2, listing this node's moves in `lists[0]` and the children's in the rest.
fn perft_with<P: Rules>(pos: &P, depth: u32, lists: &mut [MoveList]) -> u64 {
    let Some((moves, deeper)) = lists.split_first_mut() else {
        return pos.count_legal_moves();
    };
    pos.legal_moves_into(moves);
    let mut nodes = 0;
    for &m in moves.iter() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        nodes += if depth == 2 {
            child.count_legal_moves()
        } else {
            perft_with(&child, depth - 1, deeper)
        };
    }
    nodes
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
        dispatch!(self, p => perft(p, depth))
    }

    /// [`divide`] on the concrete variant type.
    #[must_use]
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        dispatch!(self, p => divide(p, depth))
    }
}
