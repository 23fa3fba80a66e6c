//! Which games chessd serves: every game of the rules engine, except those whose rules need a
//! part of the server that is not built yet (a game with hidden information must never be
//! served as an open one). A game leaves [`NOT_YET`] in the change that completes it.

use chessd_rules::any::AnyVariant;

/// The rules engine's games chessd does not serve yet, by key, with the missing part (none
/// today: the last, the games with a secret setup, came with their setup phase).
const NOT_YET: &[(&str, &str)] = &[];

/// Why chessd does not serve `variant` yet; `None` for a game it serves.
#[must_use]
pub(crate) fn not_served(variant: AnyVariant) -> Option<&'static str> {
    NOT_YET
        .iter()
        .find(|(key, _)| *key == variant.key())
        .map(|&(_, why)| why)
}

/// Every game chessd serves, in the rules engine's order.
pub(crate) fn served() -> impl Iterator<Item = AnyVariant> {
    AnyVariant::all().filter(|&v| not_served(v).is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every game held back is one the rules engine knows (a typo would serve it).
    #[test]
    fn held_back_games_are_known() {
        for (key, _) in NOT_YET {
            assert!(AnyVariant::all().any(|v| v.key() == *key), "{key}");
        }
        assert!(served().any(|v| v.key() == "screen"));
        assert!(served().any(|v| v.key() == "chess"));
    }
}
