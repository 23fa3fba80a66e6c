//! The shogi family as a game record plays it: `ShogiPosition`'s [`Family`] implementation
//! (its repetition key, Western notation as its SAN, reading USI, FSF or Western text,
//! sennichite as its repetition rule in place of the chess ones) and [`ShogiStart`], a start
//! as a record keeps it. `Game<ShogiPosition>` ([`ShogiGame`]) is then the same record as the
//! other families'.

use super::end::sennichite;
use super::mv::ShogiMove;
use super::position::ShogiPosition;
use super::san::western_among;
use super::variant::ShogiVariant;
use crate::family::mix;
use crate::{Color, Family, Game, Outcome, PlayError, StandardStart, Start, WideText};

/// A shogi-family game record.
pub type ShogiGame = Game<ShogiPosition>;

/// A start position: the game's own by name, any other boxed.
pub type ShogiStart = Start<ShogiPosition>;

impl StandardStart for ShogiPosition {
    type Variant = ShogiVariant;
    type Draw = core::convert::Infallible;

    fn standard(variant: ShogiVariant) -> ShogiPosition {
        ShogiPosition::new(variant)
    }

    fn variant_of(&self) -> ShogiVariant {
        self.variant()
    }

    fn draw_in_start(&self) -> Option<core::convert::Infallible> {
        None
    }

    fn drawn(_: ShogiVariant, draw: core::convert::Infallible) -> ShogiPosition {
        match draw {}
    }
}

impl ShogiPosition {
    /// Equal for positions sennichite counts as the same: board, hands and side to move.
    #[must_use]
    pub fn repetition_key(&self) -> u64 {
        let mut h = mix(self.turn.index() as u64 + 1);
        let mut add = |word: u64| h = mix(h ^ word).wrapping_add(0x9E37_79B9_7F4A_7C15);
        for bb in self.roles.iter().chain(&self.colors) {
            add(*bb as u64);
            add((*bb >> 64) as u64);
        }
        for hand in &self.hands {
            add(hand.iter().fold(0u64, |acc, &n| (acc << 8) | u64::from(n)));
        }
        h
    }
}

impl Family for ShogiPosition {
    type Move = ShogiMove;
    type Legal = Vec<ShogiMove>;
    type San = WideText;
    type Start = ShogiStart;

    fn from_start(start: &ShogiStart) -> ShogiPosition {
        start.position()
    }

    fn legal(&self) -> Vec<ShogiMove> {
        self.legal_moves()
    }

    fn play_unchecked(&mut self, m: ShogiMove) {
        ShogiPosition::play_unchecked(self, m);
    }

    fn outcome(&self) -> Option<Outcome> {
        ShogiPosition::outcome(self)
    }

    fn repetition_key(&self) -> u64 {
        ShogiPosition::repetition_key(self)
    }

    fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// Shogi has no move-count rule.
    fn has_move_count_rule(&self) -> bool {
        false
    }

    /// Captured pieces come back as drops: no move makes a position unreachable.
    fn irreversible_moves(&self) -> bool {
        false
    }

    /// Western notation (`P-7f`, `Bx2b+`, `S*5e`).
    fn san_among(&self, m: ShogiMove, legal: &[ShogiMove]) -> WideText {
        western_among(self, m, legal)
    }

    /// Shogi notation marks no check.
    fn mark(&self, _san: &mut WideText) {}

    fn illegal(&self, m: ShogiMove) -> PlayError {
        PlayError::Illegal(format!(
            "{} in this {} position",
            m.usi(self.variant),
            self.variant
        ))
    }

    /// USI (`7g7f`), FSF's text (`c3c4`) or Western notation (`P-7f`).
    fn parse_among(&self, text: &str, legal: &[ShogiMove]) -> Result<ShogiMove, PlayError> {
        let text = text.trim();
        let m = match ShogiMove::parse_any(text, self.variant) {
            Ok(m) => m,
            Err(e) => {
                if let Some(&m) = legal
                    .iter()
                    .find(|&&m| western_among(self, m, legal).as_str() == text)
                {
                    return Ok(m);
                }
                let shown: String = text.chars().take(16).collect();
                return Err(PlayError::Malformed(format!(
                    "{shown:?}: {e}, nor Western notation (P-7f) of a legal move"
                )));
            }
        };
        if legal.contains(&m) {
            Ok(m)
        } else {
            Err(self.illegal(m))
        }
    }

    /// Shogi has no insufficient-material rule: a flag always loses.
    fn has_insufficient_material(&self, _color: Color) -> bool {
        false
    }

    /// Sennichite, not the chess rules.
    fn has_own_repetition_rule(&self) -> bool {
        true
    }

    /// [`sennichite`] once the position has occurred four times; only then is the game
    /// replayed to learn which moves gave check.
    fn repetition_outcome(
        &self,
        start: &ShogiStart,
        moves: &[ShogiMove],
        keys: &[u64],
    ) -> Option<Outcome> {
        let &last = keys.last()?;
        if keys.iter().filter(|&&k| k == last).count() < 4 {
            return None;
        }
        let start = start.position();
        let mut pos = start;
        let mut checks = Vec::with_capacity(keys.len());
        checks.push(pos.is_check());
        for &m in moves {
            pos.play_unchecked(m);
            checks.push(pos.is_check());
        }
        sennichite(start.variant(), keys, &checks, start.turn())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DrawRule;

    /// A record plays USI and FSF text alike and keeps USI.
    #[test]
    fn record_plays_both_notations() {
        let mut game = ShogiGame::new(ShogiPosition::new(ShogiVariant::Shogi), DrawRule::Claim);
        game.play_text("7g7f").unwrap();
        game.play_text("g7g6").unwrap();
        let played = game.play_text("Bx2b+").unwrap();
        assert_eq!(played.san, "Bx2b+");
        assert!(game.play_text("8h2b").is_err());
        assert_eq!(game.position().fullmoves(), 2);
    }

    /// Sennichite in a record: knights out and back four times; the fourth occurrence of the
    /// start draws a shogi game, and minishogi's (kings stepping) is a loss for sente. No
    /// threefold claim.
    #[test]
    fn sennichite_ends_the_record() {
        let mut game = ShogiGame::new(ShogiPosition::new(ShogiVariant::Shogi), DrawRule::Claim);
        for _ in 0..3 {
            for m in ["7i6h", "3a4b", "6h7i", "4b3a"] {
                assert_eq!(game.outcome(), None);
                game.play_text(m).unwrap();
            }
            assert!(!game.can_claim(crate::DrawClaim::ThreefoldRepetition));
        }
        assert_eq!(
            game.outcome(),
            Some(Outcome::draw(crate::Termination::Repetition))
        );
        let mini = ShogiPosition::new(ShogiVariant::Minishogi);
        let mut game = ShogiGame::new(mini, DrawRule::Automatic);
        for _ in 0..3 {
            for m in ["a1b2", "e5d4", "b2a1", "d4e5"] {
                game.play_text(m).unwrap();
            }
        }
        assert_eq!(
            game.outcome(),
            Some(Outcome::win(
                Color::Black,
                crate::Termination::RepetitionLoss
            ))
        );
    }

    /// The key ignores the clocks but not the hands.
    #[test]
    fn repetition_key() {
        let a = ShogiPosition::new(ShogiVariant::Shogi);
        let mut b = a;
        b.halfmoves = 7;
        assert_eq!(a.repetition_key(), b.repetition_key());
        b.hands[0][0] = 1;
        assert_ne!(a.repetition_key(), b.repetition_key());
    }
}
