//! What the wide games' unit tests share: a position's legal moves as UCI text, the form
//! each rule's test compares.

use super::WidePosition;

/// `p`'s legal moves in UCI, in the generator's order.
pub(super) fn ucis(p: &WidePosition) -> Vec<String> {
    p.legal_moves()
        .iter()
        .map(|m| m.to_uci(p).to_string())
        .collect()
}

/// `p`'s legal moves in UCI, sorted.
pub(super) fn sorted_ucis(p: &WidePosition) -> Vec<String> {
    let mut v = ucis(p);
    v.sort();
    v
}
