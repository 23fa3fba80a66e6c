//! [`DrawRule`]: whether threefold repetition and the fifty-move rule end a game by themselves,
//! and its text form (`claim`, `automatic`), the one every store writes.

use core::fmt;

/// Whether threefold repetition and the fifty-move rule end the game by themselves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DrawRule {
    /// FIDE: the player to move may claim; only fivefold and 75 moves end the game by themselves.
    #[default]
    Claim,
    /// Threefold repetition and 100 half-moves end the game at once (closer to lichess).
    Automatic,
}

impl DrawRule {
    /// `claim` or `automatic`.
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            DrawRule::Claim => "claim",
            DrawRule::Automatic => "automatic",
        }
    }
}

impl fmt::Display for DrawRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// A draw rule other than `claim` and `automatic`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseDrawRuleError;

impl fmt::Display for ParseDrawRuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown draw rule: expected claim or automatic")
    }
}

impl std::error::Error for ParseDrawRuleError {}

impl core::str::FromStr for DrawRule {
    type Err = ParseDrawRuleError;

    /// Exactly [`DrawRule::key`]'s text: what the stores wrote, nothing looser.
    fn from_str(s: &str) -> Result<DrawRule, ParseDrawRuleError> {
        match s {
            "claim" => Ok(DrawRule::Claim),
            "automatic" => Ok(DrawRule::Automatic),
            _ => Err(ParseDrawRuleError),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each rule reads back from its key; any other text is refused.
    #[test]
    fn keys_read_back() {
        for rule in [DrawRule::Claim, DrawRule::Automatic] {
            assert_eq!(rule.key().parse(), Ok(rule));
            assert_eq!(rule.to_string(), rule.key());
        }
        assert_eq!("Claim".parse::<DrawRule>(), Err(ParseDrawRuleError));
        assert_eq!("".parse::<DrawRule>(), Err(ParseDrawRuleError));
    }
}
