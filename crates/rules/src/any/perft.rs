//! Perft on [`AnyPosition`]: each family's own counter, dispatched once, for `chessd perft`
//! and tests that name a game by key.

use crate::any::AnyPosition;

impl AnyPosition {
    /// Leaf nodes of the legal-move tree `depth` plies deep.
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        each!(AnyPosition, self, p => p.perft(depth))
    }

    /// Each legal move's UCI text and its subtree's leaf count at `depth` (unsorted).
    #[must_use]
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        each!(AnyPosition, self, p => p
            .divide(depth)
            .into_iter()
            .map(|(m, n)| (m.to_string(), n))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use crate::any::{AnyPosition, AnyVariant};

    /// Every family counts through the one entry: GAMES.md's depth-2 counts.
    #[test]
    fn every_family_counts() {
        for (key, nodes) in [
            ("chess", 400),
            ("grand", 4225),
            ("shogi", 900),
            ("minishogi", 181),
            ("xiangqi", 1920),
        ] {
            let Some(v) = AnyVariant::by_key(key) else {
                panic!("{key} is a game");
            };
            let pos = AnyPosition::new(v);
            assert_eq!(pos.perft(2), nodes, "{key}");
            let split: u64 = pos.divide(2).iter().map(|(_, n)| n).sum();
            assert_eq!(split, nodes, "{key}");
        }
    }
}
