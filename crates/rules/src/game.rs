//! `Game`: a record on top of positions: the start, every move played, the repetition keys,
//! and the outcome with its reason.
//!
//! Automatic endings (checked after every move): checkmate, stalemate, insufficient material,
//! every variant's own end (the race, the third check, the hill, an exploded king, ...), the
//! seventy-five-move rule and fivefold repetition; with [`DrawRule::Automatic`] also threefold
//! repetition and the fifty-move rule. Otherwise those two are claimable by the player to move
//! ([`Game::claim_draw`]). Crazyhouse has no move-count rules and repeats across captures (see
//! [`Variant::has_move_count_rule`](crate::Variant::has_move_count_rule)). Resignation, agreement, time and aborts are recorded with
//! [`Game::finish`].

use core::fmt;

use crate::family::Family;
use crate::{Color, DrawRule, Move, Outcome, PlayError, Position, Termination};

/// A draw a player can claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawClaim {
    /// The current position has occurred three times.
    ThreefoldRepetition,
    /// The last 100 half-moves had no capture and no pawn move.
    FiftyMoves,
}

/// Why a draw claim was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimError {
    GameOver,
    /// The condition of the claim does not hold now.
    NotClaimable(DrawClaim),
}

impl fmt::Display for ClaimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClaimError::GameOver => f.write_str("the game is over"),
            ClaimError::NotClaimable(DrawClaim::ThreefoldRepetition) => {
                f.write_str("the current position has not occurred three times")
            }
            ClaimError::NotClaimable(DrawClaim::FiftyMoves) => {
                f.write_str("fewer than 50 moves by each side without a capture or pawn move")
            }
        }
    }
}

impl std::error::Error for ClaimError {}

/// Why [`Game::take_back`] refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakeBackError {
    GameOver,
    /// Fewer moves were played than asked to take back.
    TooFew {
        asked: usize,
        played: usize,
    },
}

impl fmt::Display for TakeBackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TakeBackError::GameOver => f.write_str("the game is over"),
            TakeBackError::TooFew { asked, played } => {
                write!(f, "cannot take back {asked} moves of {played}")
            }
        }
    }
}

impl std::error::Error for TakeBackError {}

/// A move as the game recorded it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove<M = Move> {
    pub mv: M,
    /// SAN with its check or mate suffix.
    pub san: String,
    /// The ply this move was (the first move of the game is ply 1).
    pub ply: u32,
}

/// A game: its start, its moves, and how it ended. One record serves every engine family
/// ([`Family`]): `Game` is the 8x8 engine's, `Game<WidePosition>` the wide family's.
#[derive(Clone, Debug)]
pub struct Game<P: Family = Position> {
    /// Kept by name when it is the variant's own (see `StartPosition`): most games.
    start: P::Start,
    position: P,
    moves: Vec<P::Move>,
    /// The SAN of each move as it was played: kept so listing a game's moves does not replay
    /// it (the service lists them in every full answer).
    sans: Vec<P::San>,
    /// `keys[i]` is the repetition key after `i` plies (`keys[0]` for the start).
    keys: Vec<u64>,
    draw_rule: DrawRule,
    outcome: Option<Outcome>,
}

impl<P: Family> Game<P> {
    /// A game from `start`. A start position that is already decided gives a finished game.
    #[must_use]
    pub fn new(start: P, draw_rule: DrawRule) -> Game<P> {
        let mut game = Game {
            start: start.into(),
            position: start,
            moves: Vec::new(),
            sans: Vec::new(),
            keys: vec![start.repetition_key()],
            draw_rule,
            outcome: None,
        };
        game.outcome = game.automatic_outcome(start.outcome());
        game
    }

    #[must_use]
    pub fn start(&self) -> P {
        P::from_start(&self.start)
    }

    /// The start as kept: by name when it is the variant's own.
    #[must_use]
    pub fn start_position(&self) -> &P::Start {
        &self.start
    }

    #[must_use]
    pub fn position(&self) -> &P {
        &self.position
    }

    #[must_use]
    pub fn moves(&self) -> &[P::Move] {
        &self.moves
    }

    /// Half-moves played in this game.
    #[must_use]
    pub fn ply(&self) -> u32 {
        self.moves.len() as u32
    }

    #[must_use]
    pub fn draw_rule(&self) -> DrawRule {
        self.draw_rule
    }

    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    #[must_use]
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The SAN of every move played, with suffixes, as recorded when each was played.
    pub fn sans(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.sans_from(0)
    }

    /// [`Game::sans`] from move index `from` on (none past the end), without reading the
    /// earlier ones: what extends an already written list.
    pub fn sans_from(&self, from: usize) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.sans
            .get(from..)
            .unwrap_or_default()
            .iter()
            .map(AsRef::as_ref)
    }

    /// True if the fifty- and seventy-five-move rules apply in this game's variant.
    fn move_count_rule(&self) -> bool {
        self.position.has_move_count_rule()
    }

    /// How often the current position has occurred, counting this occurrence.
    #[must_use]
    pub fn repetitions(&self) -> usize {
        let n = self.keys.len() - 1;
        // No earlier position can match across a capture or pawn move, except in games with
        // drops, where both can be undone.
        let window = if self.position.irreversible_moves() {
            (self.position.halfmoves() as usize).min(n)
        } else {
            n
        };
        let current = self.keys[n];
        (0..=window)
            .step_by(2)
            .filter(|&back| self.keys[n - back] == current)
            .count()
    }

    /// Plays a legal move; an illegal one or a finished game leaves everything unchanged.
    pub fn play(&mut self, m: P::Move) -> Result<PlayedMove<P::Move>, PlayError> {
        self.play_found(|pos, legal| {
            if legal.contains(&m) {
                Ok(m)
            } else {
                Err(pos.illegal(m))
            }
        })
    }

    /// Plays the move `find` picks from the current position's legal moves (a UCI or SAN
    /// text resolved against them, say); an error from `find` or a finished game leaves
    /// everything unchanged. The legal moves are generated once for `find`, the legality check
    /// and the SAN; the new position's outcome serves the mate suffix and the game end.
    pub fn play_found(
        &mut self,
        find: impl FnOnce(&P, &[P::Move]) -> Result<P::Move, PlayError>,
    ) -> Result<PlayedMove<P::Move>, PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        let legal = self.position.legal();
        let m = find(&self.position, &legal)?;
        if !legal.contains(&m) {
            return Err(self.position.illegal(m));
        }
        let mut san = self.position.san_among(m, &legal);
        let mut next = self.position;
        next.play_unchecked(m);
        let decided = next.outcome();
        next.mark(&mut san);
        self.position = next;
        self.moves.push(m);
        self.sans.push(san);
        self.keys.push(self.position.repetition_key());
        self.outcome = self.automatic_outcome(decided);
        Ok(PlayedMove {
            mv: m,
            san: san.to_string(),
            ply: self.ply(),
        })
    }

    /// Plays a move written in UCI or SAN (a finished game refuses before the text is read).
    pub fn play_text(&mut self, text: &str) -> Result<PlayedMove<P::Move>, PlayError> {
        self.play_found(|pos, legal| pos.parse_among(text, legal))
    }

    /// The game's end now, given `decided`: what the current position alone decides.
    fn automatic_outcome(&self, decided: Option<Outcome>) -> Option<Outcome> {
        if decided.is_some() {
            return decided;
        }
        let halfmoves = if self.move_count_rule() {
            self.position.halfmoves()
        } else {
            0
        };
        if halfmoves >= 150 {
            return Some(Outcome::draw(Termination::FiftyMoveRule));
        }
        if self.position.has_own_repetition_rule() {
            return self
                .position
                .repetition_outcome(&self.start, &self.moves, &self.keys);
        }
        let reps = self.repetitions();
        if reps >= 5 {
            return Some(Outcome::draw(Termination::Repetition));
        }
        if self.draw_rule == DrawRule::Automatic {
            if halfmoves >= 100 {
                return Some(Outcome::draw(Termination::FiftyMoveRule));
            }
            if reps >= 3 {
                return Some(Outcome::draw(Termination::Repetition));
            }
        }
        None
    }

    /// True if the player to move may claim this draw now.
    #[must_use]
    pub fn can_claim(&self, claim: DrawClaim) -> bool {
        self.outcome.is_none()
            && match claim {
                DrawClaim::ThreefoldRepetition => {
                    !self.position.has_own_repetition_rule() && self.repetitions() >= 3
                }
                DrawClaim::FiftyMoves => self.move_count_rule() && self.position.halfmoves() >= 100,
            }
    }

    /// Ends the game in a draw by `claim` if the claim is valid now.
    pub fn claim_draw(&mut self, claim: DrawClaim) -> Result<Outcome, ClaimError> {
        if self.outcome.is_some() {
            return Err(ClaimError::GameOver);
        }
        if !self.can_claim(claim) {
            return Err(ClaimError::NotClaimable(claim));
        }
        let outcome = Outcome::draw(match claim {
            DrawClaim::ThreefoldRepetition => Termination::Repetition,
            DrawClaim::FiftyMoves => Termination::FiftyMoveRule,
        });
        self.outcome = Some(outcome);
        Ok(outcome)
    }

    /// Records an ending decided outside the board (resignation, agreement, time, abandonment,
    /// abort). Refused if the game is already over.
    pub fn finish(&mut self, outcome: Outcome) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        self.outcome = Some(outcome);
        Ok(())
    }

    /// Takes back the last `plies` moves of a game that is still on: position, SAN and
    /// repetition keys are what they were before them (the position is played again from the
    /// start: takebacks are rare and a game's moves few). Returns the moves taken back, the
    /// earliest first. A finished game, or more moves than were played, is refused and nothing
    /// changes.
    pub fn take_back(&mut self, plies: usize) -> Result<Vec<P::Move>, TakeBackError> {
        if self.outcome.is_some() {
            return Err(TakeBackError::GameOver);
        }
        let played = self.moves.len();
        let Some(keep) = played.checked_sub(plies) else {
            return Err(TakeBackError::TooFew {
                asked: plies,
                played,
            });
        };
        let taken = self.moves.split_off(keep);
        self.sans.truncate(keep);
        self.keys.truncate(keep + 1);
        let mut position = self.start();
        for &m in &self.moves {
            position.play_unchecked(m);
        }
        self.position = position;
        Ok(taken)
    }

    /// Bytes on the heap for the moves and the repetition keys (the SANs are the moves'
    /// notation, counted with the answers that list them).
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        size_of_val(self.moves.as_slice()) + size_of_val(self.keys.as_slice())
    }

    /// The outcome when `loser`'s flag falls: a loss, unless the opponent could never win by
    /// the variant's rules, which makes it a draw.
    #[must_use]
    pub fn flag_outcome(&self, loser: Color) -> Outcome {
        if self.position.has_insufficient_material(!loser) {
            Outcome::draw(Termination::TimeForfeit)
        } else {
            Outcome::win(!loser, Termination::TimeForfeit)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Rules, Variant};

    fn game(fen: &str, rule: DrawRule) -> Game {
        Game::new(Position::from_fen(Variant::Chess, fen).unwrap(), rule)
    }

    fn play_all(g: &mut Game, moves: &str) {
        for m in moves.split_whitespace() {
            g.play_text(m)
                .unwrap_or_else(|e| panic!("{m}: {e} at {}", g.position()));
        }
    }

    const SHUFFLE: &str = "Nf3 Nf6 Ng1 Ng8";

    /// Threefold repetition is claimable but not automatic by default; fivefold ends the game.
    #[test]
    fn repetition_claim_and_fivefold() {
        let mut g = game(Variant::Chess.start_fen(), DrawRule::Claim);
        play_all(&mut g, SHUFFLE);
        assert_eq!(g.repetitions(), 2);
        assert!(!g.can_claim(DrawClaim::ThreefoldRepetition));
        play_all(&mut g, SHUFFLE);
        assert_eq!(g.repetitions(), 3);
        assert!(g.can_claim(DrawClaim::ThreefoldRepetition));
        assert!(g.outcome().is_none());
        play_all(&mut g, SHUFFLE);
        play_all(&mut g, SHUFFLE);
        assert_eq!(g.outcome(), Some(Outcome::draw(Termination::Repetition)));
        assert_eq!(g.play_text("e4"), Err(PlayError::GameOver));
    }

    /// With automatic draws the third occurrence ends the game.
    #[test]
    fn automatic_threefold() {
        let mut g = game(Variant::Chess.start_fen(), DrawRule::Automatic);
        play_all(&mut g, SHUFFLE);
        play_all(&mut g, SHUFFLE);
        assert_eq!(g.outcome(), Some(Outcome::draw(Termination::Repetition)));
    }

    /// The fifty-move rule is claimable at 100 half-moves; 150 end the game.
    #[test]
    fn fifty_and_seventy_five() {
        let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 98 60", DrawRule::Claim);
        assert!(g.claim_draw(DrawClaim::FiftyMoves).is_err());
        play_all(&mut g, "Ra2 Kd8");
        assert!(g.can_claim(DrawClaim::FiftyMoves));
        let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 149 60", DrawRule::Claim);
        play_all(&mut g, "Ra2");
        assert_eq!(g.outcome(), Some(Outcome::draw(Termination::FiftyMoveRule)));
    }

    /// An illegal move leaves the record unchanged.
    #[test]
    fn illegal_move_changes_nothing() {
        let mut g = game(Variant::Chess.start_fen(), DrawRule::Claim);
        play_all(&mut g, "e4");
        let before = (g.position().fen(), g.ply(), g.repetitions());
        assert!(matches!(g.play_text("e4"), Err(PlayError::Illegal(_))));
        assert!(matches!(g.play_text("xyz"), Err(PlayError::Malformed(_))));
        assert_eq!((g.position().fen(), g.ply(), g.repetitions()), before);
    }

    /// Taking back moves gives the game it was before them: position, moves, SAN and
    /// repetition count; playing other moves then goes on from there. A finished game or more
    /// moves than played are refused, unchanged.
    #[test]
    fn take_back_rewinds() {
        let mut g = game(Variant::Chess.start_fen(), DrawRule::Claim);
        play_all(&mut g, "Nf3 Nf6 Ng1");
        let mut earlier = game(Variant::Chess.start_fen(), DrawRule::Claim);
        play_all(&mut earlier, "Nf3");
        assert_eq!(
            g.take_back(4),
            Err(TakeBackError::TooFew {
                asked: 4,
                played: 3
            })
        );
        let taken = g.take_back(2).unwrap();
        assert_eq!(taken.len(), 2);
        assert_eq!(taken[0].to_string(), "g8f6");
        assert_eq!(g.position(), earlier.position());
        assert_eq!(g.moves(), earlier.moves());
        assert!(g.sans().eq(earlier.sans()));
        assert_eq!(g.repetitions(), earlier.repetitions());
        play_all(&mut g, "Nc6 Ng1 Nb8");
        assert_eq!(
            g.repetitions(),
            2,
            "the keys of the moves taken back are gone"
        );
        play_all(&mut g, "Nf3 Nc6 Ng1 Nb8 Nf3");
        assert_eq!(g.repetitions(), 3);
        assert_eq!(g.take_back(0).unwrap().len(), 0);
        g.finish(Outcome::draw(Termination::Agreement)).unwrap();
        assert_eq!(g.take_back(1), Err(TakeBackError::GameOver));
        assert_eq!(g.ply(), 9);
    }

    /// A flag falls: the opponent wins unless they could never mate.
    #[test]
    fn flag_outcomes() {
        let g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", DrawRule::Claim);
        assert_eq!(
            g.flag_outcome(Color::Black),
            Outcome::win(Color::White, Termination::TimeForfeit)
        );
        assert_eq!(
            g.flag_outcome(Color::White),
            Outcome::draw(Termination::TimeForfeit)
        );
    }
}
