//! `Nature`: what the server draws in the games of chance, as one value (Dice Chess's roll,
//! the Behemoth's step) with the record's token (`~3`, `~SE4`), and the calls that let a record
//! keep a player's move and the draw that follows it together: the draws possible after a
//! move, and playing a move with its draw, so that no position between two records' entries
//! is left waiting.

use core::fmt;
use core::str::FromStr;

use super::behemoth::{BehemothStep, StepError};
use super::dice::{Face, RollError};
use super::mv::WideMove;
use super::position::WidePosition;

/// A draw of chance, fixed by the server before the player it concerns may act.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Nature {
    /// Dice Chess: the face rolled for the side to move.
    Roll(Face),
    /// Behemoth Chess: the step after a move.
    Step(BehemothStep),
}

impl fmt::Display for Nature {
    /// The record's token: `~` and the face or the step (`~3`, `~SE4`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Nature::Roll(face) => write!(f, "~{face}"),
            Nature::Step(step) => write!(f, "~{step}"),
        }
    }
}

/// A text that is no record token of chance (`~1` to `~6`, `~SE4`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseNatureError(pub String);

impl fmt::Display for ParseNatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is no draw of chance (a roll ~1 to ~6, or a Behemoth step such as ~SE4)",
            self.0
        )
    }
}

impl std::error::Error for ParseNatureError {}

impl FromStr for Nature {
    type Err = ParseNatureError;

    fn from_str(s: &str) -> Result<Nature, ParseNatureError> {
        let err = || ParseNatureError(s.to_string());
        let body = s.strip_prefix('~').ok_or_else(err)?;
        if let Ok(face) = body.parse::<Face>() {
            return Ok(Nature::Roll(face));
        }
        body.parse::<BehemothStep>()
            .map(Nature::Step)
            .map_err(|_| err())
    }
}

/// Why a draw, or a move with its draw, was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NatureError {
    /// The move is not legal here.
    IllegalMove(String),
    /// A draw is due after the move and none was given.
    Missing,
    /// No draw follows the move (it ended the game, or the game has no chance).
    Unexpected(Nature),
    /// The draw is not one the server may make here.
    NotAmong(Nature),
}

impl fmt::Display for NatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NatureError::IllegalMove(m) => write!(f, "{m} is not legal here"),
            NatureError::Missing => f.write_str("a draw of chance is due after this move"),
            NatureError::Unexpected(n) => write!(f, "no draw follows this move, yet {n} was given"),
            NatureError::NotAmong(n) => write!(f, "{n} cannot be drawn here"),
        }
    }
}

impl std::error::Error for NatureError {}

impl WidePosition {
    /// Perft in a game of chance: a position that waits for a draw counts every draw that may
    /// come as a branch at the same depth (Dice Chess's faces, the Behemoth's 32 steps), as
    /// `dice` and `behemoth` define it; any other position as perft always does.
    pub(crate) fn chance_perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let options = self.nature_options();
        if !options.is_empty() {
            return options
                .into_iter()
                .map(|nature| {
                    let mut after = *self;
                    // Drawn from the position's own options: it applies.
                    let _ = after.apply_nature(nature);
                    after.chance_perft(depth)
                })
                .sum();
        }
        if depth == 1 {
            return self.count_legal_moves();
        }
        self.legal_moves()
            .into_iter()
            .map(|m| {
                let mut child = *self;
                child.play_unchecked(m);
                child.chance_perft(depth - 1)
            })
            .sum()
    }

    /// The draws the server may make now, for a position that waits for one (every face
    /// that can come up, or all 32 Behemoth steps); empty for one that waits for nothing.
    #[must_use]
    pub fn nature_options(&self) -> Vec<Nature> {
        if self.awaits_step() {
            BehemothStep::all().map(Nature::Step).collect()
        } else if self.awaits_roll() {
            self.rollable_faces()
                .into_iter()
                .map(Nature::Roll)
                .collect()
        } else {
            Vec::new()
        }
    }

    /// The draws possible once legal move `m` is played: Dice Chess's rolls for the next
    /// player, or the Behemoth's 32 steps; none when the move ends the game or the game has
    /// no chance. (Dice Chess: none also when the next player has no piece that can move,
    /// which is a draw.)
    #[must_use]
    pub fn natures_after(&self, m: WideMove) -> Vec<Nature> {
        let mut after = *self;
        after.play_unchecked(m);
        after.nature_options()
    }

    /// Applies `nature`, the draw this position waits for.
    pub fn apply_nature(&mut self, nature: Nature) -> Result<(), NatureError> {
        let refused = || NatureError::NotAmong(nature);
        match nature {
            Nature::Roll(face) => self.set_roll(face).map_err(|e| match e {
                RollError::NoDie | RollError::AlreadyRolled(_) => NatureError::Unexpected(nature),
                RollError::NotRollable(_) => refused(),
            }),
            Nature::Step(step) => self.apply_step(step).map_err(|e| match e {
                StepError::NoBehemoth | StepError::NotAwaited => NatureError::Unexpected(nature),
            }),
        }
    }

    /// Plays legal move `m` and then `nature`, the draw that follows it: required when one is
    /// due, refused when none is. The position is unchanged on a refusal.
    pub fn play_with_nature(
        &mut self,
        m: WideMove,
        nature: Option<Nature>,
    ) -> Result<(), NatureError> {
        let m = m.with_nature(None);
        if !self.legal_moves().contains(&m) {
            return Err(NatureError::IllegalMove(m.to_uci(self).to_string()));
        }
        let mut after = *self;
        after.play_unchecked(m);
        let options = after.nature_options();
        match nature {
            None if options.is_empty() => {}
            None => return Err(NatureError::Missing),
            Some(n) if options.is_empty() => return Err(NatureError::Unexpected(n)),
            Some(n) if !options.contains(&n) => return Err(NatureError::NotAmong(n)),
            Some(n) => after.apply_nature(n)?,
        }
        *self = after;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{WidePosition, WideVariant};
    use super::{Nature, NatureError};
    use crate::wide::{BehemothStep, Face, WideGame, WideMove, WideUci};
    use crate::{DrawRule, Family, PlayError};

    fn nature(text: &str) -> Nature {
        text.parse().unwrap()
    }

    fn find(p: &WidePosition, uci: &str) -> WideMove {
        p.legal_moves()
            .into_iter()
            .find(|m| m.to_uci(p).to_string() == uci)
            .unwrap()
    }

    #[test]
    fn tokens_read_and_write_as_the_record_does() {
        assert_eq!(nature("~3"), Nature::Roll(Face::Bishop));
        assert_eq!(
            nature("~SE4"),
            Nature::Step("SE4".parse::<BehemothStep>().unwrap())
        );
        for t in ["~3", "~SE4", "~N1"] {
            assert_eq!(nature(t).to_string(), t);
        }
        for bad in ["3", "SE4", "~", "~7", "~SE5", "~~3"] {
            assert!(bad.parse::<Nature>().is_err(), "{bad}");
        }
    }

    /// A Dice Chess move is played with the roll for the next player, and only with one that
    /// can come up.
    #[test]
    fn a_dice_move_takes_the_next_players_roll() {
        let mut p = WidePosition::new(WideVariant::Dice);
        assert_eq!(
            p.nature_options(),
            [Nature::Roll(Face::Pawn), Nature::Roll(Face::Knight)]
        );
        p.apply_nature(nature("~1")).unwrap();
        let m = find(&p, "e2e4");
        assert_eq!(
            p.natures_after(m),
            [Nature::Roll(Face::Pawn), Nature::Roll(Face::Knight)]
        );
        let before = p;
        assert_eq!(p.play_with_nature(m, None), Err(NatureError::Missing));
        assert_eq!(
            p.play_with_nature(m, Some(nature("~5"))),
            Err(NatureError::NotAmong(nature("~5")))
        );
        assert_eq!(p, before);
        p.play_with_nature(m, Some(nature("~2"))).unwrap();
        assert_eq!(p.roll(), Some(Face::Knight));
        assert!(!p.legal_moves().is_empty());
    }

    /// A Behemoth move is played with its step, except one that takes the king.
    #[test]
    fn a_behemoth_move_takes_its_step_unless_it_takes_the_king() {
        let mut p = WidePosition::new(WideVariant::Behemoth);
        let m = find(&p, "e2e4");
        assert_eq!(p.natures_after(m).len(), 32);
        p.play_with_nature(m, Some(nature("~W2"))).unwrap();
        assert_eq!(p.behemoth(), Some("b4".parse().unwrap()));
        let mut p =
            WidePosition::from_fen(WideVariant::Behemoth, "4k3/8/8/8/*7/8/4r3/4K3 b - - 0 1")
                .unwrap();
        let m = find(&p, "e2e1");
        assert!(p.natures_after(m).is_empty());
        assert_eq!(
            p.play_with_nature(m, Some(nature("~N1"))),
            Err(NatureError::Unexpected(nature("~N1")))
        );
        p.play_with_nature(m, None).unwrap();
        assert!(p.outcome().is_some());
    }

    /// A game record keeps each move with its draw: one entry a ply, no position left
    /// waiting; a move without its due draw, or with one that cannot follow, is refused; a
    /// takeback restores the draw.
    #[test]
    fn a_record_keeps_each_move_with_its_draw() {
        let start = WidePosition::from_fen(
            WideVariant::Dice,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1",
        )
        .unwrap();
        let mut game = WideGame::new(start, DrawRule::Automatic);
        let legal = Family::legal(game.position());
        assert_eq!(legal.len(), 16 * 2, "each pawn move with Black's two faces");
        assert!(matches!(game.play_text("e2e4"), Err(PlayError::Illegal(_))));
        assert!(matches!(
            game.play_text("e2e4~5"),
            Err(PlayError::Illegal(_))
        ));
        let played = game.play_text("e2e4~2").unwrap();
        assert_eq!(played.san, "e4~2");
        assert_eq!(played.mv.to_uci(&start).to_string(), "e2e4~2");
        assert_eq!(game.position().roll(), Some(Face::Knight));
        game.play_text("Nf6~1").unwrap();
        game.take_back(1).unwrap();
        assert_eq!(game.position().roll(), Some(Face::Knight));
        // A stored move's text reads back to the same move.
        let text = played.mv.to_uci(&start).to_string();
        let read: WideUci = text.parse().unwrap();
        assert_eq!(read.to_move(&start), Ok(played.mv));

        let mut game = WideGame::new(
            WidePosition::new(WideVariant::Behemoth),
            DrawRule::Automatic,
        );
        assert_eq!(Family::legal(game.position()).len(), 19 * 32);
        assert_eq!(game.play_text("e2e4~W2").unwrap().san, "e4~W2");
        assert_eq!(game.position().behemoth(), Some("b4".parse().unwrap()));
        assert!(!game.position().awaits_step());
        let start =
            WidePosition::from_fen(WideVariant::Behemoth, "4k3/8/8/8/*7/8/4r3/4K3 b - - 0 1")
                .unwrap();
        let mut game = WideGame::new(start, DrawRule::Automatic);
        assert!(game.play_text("e2e1~N1").is_err());
        game.play_text("Rxe1").unwrap();
        assert!(game.is_over());
    }

    /// Games without chance take no draw.
    #[test]
    fn other_games_take_none() {
        let mut p = WidePosition::new(WideVariant::Dark);
        let m = find(&p, "e2e4");
        assert!(p.natures_after(m).is_empty());
        assert_eq!(
            p.play_with_nature(m, Some(nature("~3"))),
            Err(NatureError::Unexpected(nature("~3")))
        );
        p.play_with_nature(m, None).unwrap();
    }
}
