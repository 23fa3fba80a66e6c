//! [`Unplayed`]: how [`AnyGame`] keeps a game of a family other than the 8x8 engine's before
//! its first change: its start as a record keeps it (by name, most often) and its draw rule.
//!
//! Such a game's record is boxed (496 bytes on the 12x10 board, 464 for shogi, 256 for
//! xiangqi), and most of it is the current position, which before a move is the start that
//! is already kept by name. An idle game never needs the rest, so the record is made by the
//! first change (a move, a claim, an ending), once a game: the moves after it find it made.
//! A change refused (an illegal move, a claim that does not hold) leaves the game unplayed.

use crate::any::{AnyGame, AnyPosition, AnyStart, AnyVariant};
use crate::{DrawRule, StandardStart, Start};

/// A game of the wide, shogi or xiangqi family that no move, claim or ending has changed yet,
/// and that its start does not already decide.
#[derive(Clone, Debug)]
pub struct Unplayed {
    start: AnyStart,
    draw_rule: DrawRule,
}

impl Unplayed {
    /// `game` as kept unplayed, if it can be: a game of another family than the 8x8 engine's,
    /// not over and not moved in.
    pub(super) fn of(game: &AnyGame) -> Option<Unplayed> {
        match game {
            AnyGame::Std(_) | AnyGame::Unplayed(_) => None,
            _ if game.is_over() || game.ply() > 0 => None,
            _ => Some(Unplayed {
                start: game.start_position(),
                draw_rule: game.draw_rule(),
            }),
        }
    }

    /// The record this game stands for, as it was made from its start (never unplayed).
    #[must_use]
    pub(super) fn record(&self) -> AnyGame {
        AnyGame::recorded(self.start.position(), self.draw_rule)
    }

    #[must_use]
    pub(super) fn start(&self) -> &AnyStart {
        &self.start
    }

    #[must_use]
    pub(super) fn position(&self) -> AnyPosition {
        self.start.position()
    }

    #[must_use]
    pub(super) fn variant(&self) -> AnyVariant {
        self.start.variant()
    }

    #[must_use]
    pub(super) fn draw_rule(&self) -> DrawRule {
        self.draw_rule
    }

    /// Bytes kept on the heap: a start that is not the game's own, boxed.
    #[must_use]
    pub(super) fn heap_bytes(&self) -> usize {
        fn boxed<P: StandardStart>(start: &Start<P>) -> usize {
            match start {
                Start::Other(_) => size_of::<P>(),
                Start::Standard(_) | Start::Drawn(..) => 0,
            }
        }
        each!(AnyStart, &self.start, s => boxed(s))
    }
}

#[cfg(test)]
mod tests {
    use crate::any::{AnyGame, AnyPosition, AnyVariant};
    use crate::{ClaimError, Color, DrawClaim, DrawRule, Outcome, PlayError, Termination};

    fn variant_of(key: &str) -> AnyVariant {
        let Some(variant) = AnyVariant::by_key(key) else {
            panic!("{key} is a game");
        };
        variant
    }

    fn game_of(key: &str) -> AnyGame {
        AnyGame::new(AnyPosition::new(variant_of(key)), DrawRule::Claim)
    }

    /// A game of another family than the 8x8 engine's is kept as its start until its first
    /// change, and answers as the record made from that start does; its first move makes the
    /// record, which then plays as one made at the creation.
    #[test]
    fn a_game_is_kept_as_its_start_until_its_first_move() {
        for key in ["janus", "dice", "shogi", "minishogi", "xiangqi"] {
            let mut game = match AnyPosition::new(variant_of(key)) {
                // Dice Chess: its start with the first roll made, as every such game begins.
                AnyPosition::Wide(mut p) if p.awaits_roll() => {
                    let face = p.rollable_faces().first().copied();
                    assert!(face.is_some_and(|f| p.set_roll(f).is_ok()), "{key}");
                    AnyGame::new(AnyPosition::Wide(p), DrawRule::Claim)
                }
                _ => game_of(key),
            };
            let start = game.start_position().position();
            let made = AnyGame::recorded(start, DrawRule::Claim);
            assert!(matches!(game, AnyGame::Unplayed(_)), "{key}");
            assert!(!matches!(made, AnyGame::Unplayed(_)), "{key}");
            assert_eq!(game.heap_bytes(), 0, "{key}: the start is kept by name");
            assert_eq!(game.position(), made.position(), "{key}");
            assert_eq!(game.start(), made.start(), "{key}");
            assert_eq!(game.start_position(), made.start_position(), "{key}");
            assert_eq!(game.variant(), made.variant(), "{key}");
            assert_eq!(
                (game.ply(), game.moves().len(), game.sans().len()),
                (0, 0, 0)
            );
            assert_eq!(game.move_at(0), None, "{key}");
            assert_eq!(game.outcome(), None, "{key}");
            assert_eq!(game.repetitions(), made.repetitions(), "{key}");
            for claim in [DrawClaim::ThreefoldRepetition, DrawClaim::FiftyMoves] {
                assert_eq!(game.can_claim(claim), made.can_claim(claim), "{key}");
            }
            for loser in [Color::White, Color::Black] {
                assert_eq!(game.flag_outcome(loser), made.flag_outcome(loser), "{key}");
            }
            let tags = crate::PgnTags::default();
            assert_eq!(game.pgn(&tags), made.pgn(&tags), "{key}");
            assert_eq!(game.kif(["a", "b"]), made.kif(["a", "b"]), "{key}");
            assert!(game.take_back(1).is_err(), "{key}");
            assert_eq!(game.take_back(0), Ok(Vec::new()), "{key}");

            assert!(game.play_text("z9z9").is_err(), "{key}");
            assert!(
                matches!(game, AnyGame::Unplayed(_)),
                "{key}: a refused move changes nothing"
            );
            let Some(&first) = game.position().legal_moves().first() else {
                panic!("{key} has moves at the start");
            };
            let mut twin = made.clone();
            assert_eq!(game.play(first), twin.play(first), "{key}");
            assert!(!matches!(game, AnyGame::Unplayed(_)), "{key}");
            assert_eq!(game.position(), twin.position(), "{key}");
            assert_eq!(game.ply(), 1, "{key}");
        }
    }

    /// The 8x8 engine's game is its record from the start (it is inline, costing no
    /// allocation), and so is a game its start already decides.
    #[test]
    fn only_a_boxed_game_that_goes_on_is_kept_as_its_start() {
        assert!(matches!(
            AnyGame::new(AnyPosition::new(AnyVariant::CHESS), DrawRule::Claim),
            AnyGame::Std(_)
        ));
        let janus = variant_of("janus");
        let fen = janus.start_fen().replace(" 0 1", " 150 80");
        let start = AnyPosition::from_fen(janus, &fen);
        let game = start.map(|p| AnyGame::new(p, DrawRule::Claim));
        assert!(matches!(game, Ok(AnyGame::Wide(_))), "{game:?}");
        assert_eq!(
            game.map(|g| g.outcome().map(|o| o.termination)),
            Ok(Some(Termination::FiftyMoveRule))
        );
    }

    /// A game that may claim a draw before its first move (a start set up with fifty moves on
    /// its counter) claims it; ending it makes its record, and a game ended is kept whole.
    #[test]
    fn an_unplayed_game_claims_and_ends() {
        let janus = variant_of("janus");
        let fen = janus.start_fen().replace(" 0 1", " 100 60");
        let Ok(start) = AnyPosition::from_fen(janus, &fen) else {
            panic!("{fen} is a Janus position");
        };
        let mut game = AnyGame::new(start, DrawRule::Claim);
        assert!(matches!(game, AnyGame::Unplayed(_)));
        assert_eq!(game.heap_bytes(), size_of::<crate::wide::WidePosition>());
        assert!(game.can_claim(DrawClaim::FiftyMoves));
        assert_eq!(
            game.claim_draw(DrawClaim::ThreefoldRepetition),
            Err(ClaimError::NotClaimable(DrawClaim::ThreefoldRepetition))
        );
        assert!(matches!(game, AnyGame::Unplayed(_)));
        let claimed = game.claim_draw(DrawClaim::FiftyMoves);
        assert_eq!(
            claimed.map(|o| o.termination),
            Ok(Termination::FiftyMoveRule)
        );
        assert!(matches!(game, AnyGame::Wide(_)));

        let mut resigned = game_of("xiangqi");
        let outcome = Outcome::win(Color::Black, Termination::Resignation);
        assert_eq!(resigned.finish(outcome), Ok(()));
        assert_eq!(resigned.outcome(), Some(outcome));
        assert_eq!(resigned.finish(outcome), Err(PlayError::GameOver));
    }
}
