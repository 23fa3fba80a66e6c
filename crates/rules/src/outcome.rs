//! `Outcome` and `Termination`: how a game ended, by every variant's own rules and by the
//! endings the service records itself (resignation, agreement, time, abandonment, abort).

use core::fmt;

use crate::Color;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move has no legal move and the game is not otherwise decided.
    Stalemate,
    /// Neither side can ever win by the variant's rules.
    InsufficientMaterial,
    /// Threefold repetition claimed (or automatic), or fivefold repetition.
    Repetition,
    /// Fifty-move rule claimed (or automatic), or the seventy-five-move rule.
    FiftyMoveRule,
    /// Racing Kings: a king reached rank 8 (a win, or a draw when both did).
    Race,
    Resignation,
    Agreement,
    /// A flag fell.
    TimeForfeit,
    /// A player left the game.
    Abandonment,
    /// The game was called off before both sides moved: no result.
    Aborted,
    /// Three-check: a side gave its third check.
    ThirdCheck,
    /// King of the Hill: a king reached d4, e4, d5 or e5.
    KingOfTheHill,
    /// Atomic: an explosion took a king.
    KingExploded,
    /// Antichess: a side lost all its pieces, and with them won.
    AllPiecesLost,
    /// Antichess: the side to move has no legal move, and with that wins.
    StalemateWin,
    /// Horde: Black captured every white piece.
    HordeDestroyed,
    /// The side to move did not make its first move in time (the first-move timer): the game
    /// is called off, with no result, as an abort is.
    NoStart,
    /// Extinction: a side lost every piece of one kind.
    Extinction,
    /// Massacre: the side to move had no capture, and with that lost.
    NoCapture,
    /// Xiangqi, shogi and minishogi: the side to move has no legal move and is not in check,
    /// and with that lost.
    StalemateLoss,
    /// Xiangqi, shogi and minishogi: a position recurred while one side gave check with every
    /// move, and that side lost.
    PerpetualCheck,
    /// Xiangqi: a position recurred while one side chased the same piece with every move, and
    /// that side lost.
    PerpetualChase,
    /// Minishogi: a position occurred for the fourth time, and with that the first player
    /// (sente) lost.
    RepetitionLoss,
    /// Shogi: a side met the impasse (jishogi) rule's points at the start of its turn, and won.
    Impasse,
    /// Ice Age: a king was frozen, and its side lost (both frozen: a draw).
    KingFrozen,
    /// The king-capture games (Dark, Dice, Behemoth): a king was taken, and its side lost
    /// (in Dice 10x10, its last king).
    KingCaptured,
    /// Behemoth: the Behemoth trampled a king, and its side lost (both at once: a draw).
    KingDestroyed,
}

impl Termination {
    /// Every reason. Stores write [`Termination::key`], never a position in this list, so it
    /// may be reordered.
    pub const ALL: [Termination; 28] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::InsufficientMaterial,
        Termination::Repetition,
        Termination::FiftyMoveRule,
        Termination::Race,
        Termination::Resignation,
        Termination::Agreement,
        Termination::TimeForfeit,
        Termination::Abandonment,
        Termination::Aborted,
        Termination::ThirdCheck,
        Termination::KingOfTheHill,
        Termination::KingExploded,
        Termination::AllPiecesLost,
        Termination::StalemateWin,
        Termination::HordeDestroyed,
        Termination::NoStart,
        Termination::Extinction,
        Termination::NoCapture,
        Termination::StalemateLoss,
        Termination::PerpetualCheck,
        Termination::PerpetualChase,
        Termination::RepetitionLoss,
        Termination::Impasse,
        Termination::KingFrozen,
        Termination::KingCaptured,
        Termination::KingDestroyed,
    ];

    /// Whether the game was called off without a result (an abort, or the first-move timer).
    #[must_use]
    pub const fn is_abort(self) -> bool {
        matches!(self, Termination::Aborted | Termination::NoStart)
    }

    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::Repetition => "repetition",
            Termination::FiftyMoveRule => "fifty-move rule",
            Termination::Race => "race",
            Termination::Resignation => "resignation",
            Termination::Agreement => "agreement",
            Termination::TimeForfeit => "time forfeit",
            Termination::Abandonment => "abandonment",
            Termination::Aborted => "aborted",
            Termination::ThirdCheck => "third check",
            Termination::KingOfTheHill => "king on the hill",
            Termination::KingExploded => "king exploded",
            Termination::AllPiecesLost => "all pieces lost",
            Termination::StalemateWin => "stalemate win",
            Termination::HordeDestroyed => "horde destroyed",
            Termination::NoStart => "no start",
            Termination::Extinction => "extinction",
            Termination::NoCapture => "no capture",
            Termination::StalemateLoss => "stalemate loss",
            Termination::PerpetualCheck => "perpetual check",
            Termination::PerpetualChase => "perpetual chase",
            Termination::RepetitionLoss => "repetition loss",
            Termination::Impasse => "impasse",
            Termination::KingFrozen => "king frozen",
            Termination::KingCaptured => "king captured",
            Termination::KingDestroyed => "king destroyed",
        }
    }

    /// The reason's stable text key, the one every store writes; [`str::parse`] reads it back.
    /// A key, once stored, never changes.
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient-material",
            Termination::Repetition => "repetition",
            Termination::FiftyMoveRule => "fifty-move-rule",
            Termination::Race => "race",
            Termination::Resignation => "resignation",
            Termination::Agreement => "agreement",
            Termination::TimeForfeit => "time-forfeit",
            Termination::Abandonment => "abandonment",
            Termination::Aborted => "aborted",
            Termination::ThirdCheck => "third-check",
            Termination::KingOfTheHill => "king-of-the-hill",
            Termination::KingExploded => "king-exploded",
            Termination::AllPiecesLost => "all-pieces-lost",
            Termination::StalemateWin => "stalemate-win",
            Termination::HordeDestroyed => "horde-destroyed",
            Termination::NoStart => "no-start",
            Termination::Extinction => "extinction",
            Termination::NoCapture => "no-capture",
            Termination::StalemateLoss => "stalemate-loss",
            Termination::PerpetualCheck => "perpetual-check",
            Termination::PerpetualChase => "perpetual-chase",
            Termination::RepetitionLoss => "repetition-loss",
            Termination::Impasse => "impasse",
            Termination::KingFrozen => "king-frozen",
            Termination::KingCaptured => "king-captured",
            Termination::KingDestroyed => "king-destroyed",
        }
    }

    /// The value of the PGN `Termination` tag (the standard's vocabulary).
    #[must_use]
    pub const fn pgn_tag(self) -> &'static str {
        match self {
            Termination::TimeForfeit => "time forfeit",
            Termination::Abandonment | Termination::Aborted | Termination::NoStart => "abandoned",
            _ => "normal",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that is no [`Termination::key`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseTerminationError;

impl fmt::Display for ParseTerminationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown termination")
    }
}

impl std::error::Error for ParseTerminationError {}

impl core::str::FromStr for Termination {
    type Err = ParseTerminationError;

    /// Exactly [`Termination::key`]'s text: what the stores wrote, nothing looser.
    fn from_str(s: &str) -> Result<Termination, ParseTerminationError> {
        Termination::ALL
            .into_iter()
            .find(|t| t.key() == s)
            .ok_or(ParseTerminationError)
    }
}

/// The end of a game: who won (none for a draw or an abort) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub termination: Termination,
}

impl Outcome {
    #[must_use]
    pub const fn win(winner: Color, termination: Termination) -> Outcome {
        Outcome {
            winner: Some(winner),
            termination,
        }
    }

    #[must_use]
    pub const fn draw(termination: Termination) -> Outcome {
        Outcome {
            winner: None,
            termination,
        }
    }

    /// The result as PGN writes it: `1-0`, `0-1`, `1/2-1/2`, or `*` for an aborted game.
    #[must_use]
    pub const fn result(self) -> &'static str {
        match (self.termination, self.winner) {
            (Termination::Aborted | Termination::NoStart, _) => "*",
            (_, Some(Color::White)) => "1-0",
            (_, Some(Color::Black)) => "0-1",
            (_, None) => "1/2-1/2",
        }
    }

    #[must_use]
    pub const fn is_draw(self) -> bool {
        self.winner.is_none() && !self.termination.is_abort()
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result(), self.termination)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every reason reads back from its key, the keys are distinct, and other text is refused.
    #[test]
    fn keys_read_back() {
        for t in Termination::ALL {
            assert_eq!(t.key().parse(), Ok(t));
        }
        let mut keys: Vec<_> = Termination::ALL.iter().map(|t| t.key()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), Termination::ALL.len());
        assert_eq!(
            "Checkmate".parse::<Termination>(),
            Err(ParseTerminationError)
        );
        assert_eq!("6".parse::<Termination>(), Err(ParseTerminationError));
    }

    /// Results use PGN's notation; an aborted game has none.
    #[test]
    fn results() {
        assert_eq!(
            Outcome::win(Color::White, Termination::Checkmate).result(),
            "1-0"
        );
        assert_eq!(
            Outcome::win(Color::Black, Termination::Race).result(),
            "0-1"
        );
        assert_eq!(Outcome::draw(Termination::Stalemate).result(), "1/2-1/2");
        assert_eq!(Outcome::draw(Termination::Aborted).result(), "*");
        assert!(!Outcome::draw(Termination::Aborted).is_draw());
        assert_eq!(Outcome::draw(Termination::NoStart).result(), "*");
        assert!(!Outcome::draw(Termination::NoStart).is_draw());
    }
}
