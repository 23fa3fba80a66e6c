//! Behemoth Chess (`behemoth`), as `GAMES.md` gives it:
//!
//! > **King-capture conventions.** Standard pieces; in addition a neutral, indestructible
//! > **Behemoth** stands on **d4** at the start.
//! > **The Behemoth's step.** After **every** player move (White's first included) the server
//! > draws a direction among the eight (N, NE, E, SE, S, SW, W, NW; N = toward rank 8, E =
//! > toward the h-file) and a distance 1-4, and the Behemoth moves that many squares in a
//! > straight line. The board is a **torus for the Behemoth**: leaving past the h-file
//! > re-enters on the a-file, past rank 8 on rank 1, and vice versa. **Every piece on every
//! > square it enters, the last one included, is destroyed**, whatever its colour.
//! > **The Behemoth as an obstacle.** No piece may move onto its square or slide through it;
//! > knights jump over it; it attacks nothing. A pawn cannot double-step through it, castling
//! > needs its square free like any other, and an en-passant capture onto its square is
//! > impossible.
//! > **End.** A player who loses their king, captured or destroyed, loses; if one Behemoth
//! > step destroys both kings, the game is drawn. A move that captures the king ends the game
//! > before the Behemoth moves. A player with no legal move draws. Destruction counts as
//! > capture for the fifty-move rule; the Behemoth's square is part of the position for
//! > repetition.
//! > Record: the player's move, then the step as `~` + direction + distance (`~SE4`).
//!
//! The rules never draw the step: after a move that does not end the game the position waits
//! for one (`awaits_step`), with no legal move, until the server applies it (`apply_step`).
//! The Behemoth is `*` in the FEN board. A FEN gets a seventh field only when it must tell
//! what the board cannot: `~` while a step is awaited, `x` when the last step destroyed a
//! king (a finished game; without it a missing king was captured).
//!
//! Perft in this game counts the step's branches: after each move but the last, every one of
//! the 32 steps.

use core::fmt;
use core::str::FromStr;

use super::position::WidePosition;
use super::role::WideRole;
use super::square::WideSquare;
use super::variant::{
    CHESS_CASTLING, CHESS_LETTERS, CHESS_PROMOTIONS, Chance, End, GameDef, WideVariant,
};
use crate::Color;

pub(crate) const DEF: GameDef = GameDef {
    royal: [None; 2],
    end: End::KingCapture,
    chance: Chance::Behemoth,
    ..GameDef::standard(
        WideVariant::Behemoth,
        (8, 8),
        "rnbqkbnr/pppppppp/8/8/3*4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        CHESS_LETTERS,
        &CHESS_PROMOTIONS,
        true,
        Some(CHESS_CASTLING),
    )
};

/// A direction of the Behemoth's step: N toward rank 8, E toward the h-file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Direction {
    pub const ALL: [Direction; 8] = [
        Direction::N,
        Direction::NE,
        Direction::E,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::W,
        Direction::NW,
    ];

    /// The step as (files, ranks).
    #[must_use]
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::N => (0, 1),
            Direction::NE => (1, 1),
            Direction::E => (1, 0),
            Direction::SE => (1, -1),
            Direction::S => (0, -1),
            Direction::SW => (-1, -1),
            Direction::W => (-1, 0),
            Direction::NW => (-1, 1),
        }
    }

    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Direction::N => "N",
            Direction::NE => "NE",
            Direction::E => "E",
            Direction::SE => "SE",
            Direction::S => "S",
            Direction::SW => "SW",
            Direction::W => "W",
            Direction::NW => "NW",
        }
    }
}

/// One step of the Behemoth: a direction and a distance of 1 to 4 squares. Written `SE4`
/// (the record writes `~SE4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BehemothStep {
    direction: Direction,
    distance: u8,
}

impl BehemothStep {
    /// The step, if `distance` is 1 to 4.
    #[must_use]
    pub const fn new(direction: Direction, distance: u8) -> Option<BehemothStep> {
        if distance >= 1 && distance <= 4 {
            Some(BehemothStep {
                direction,
                distance,
            })
        } else {
            None
        }
    }

    #[must_use]
    pub const fn direction(self) -> Direction {
        self.direction
    }

    #[must_use]
    pub const fn distance(self) -> u8 {
        self.distance
    }

    /// The 32 steps the server draws from, each equally likely: every direction in
    /// `Direction::ALL`'s order, each with distances 1 to 4.
    pub fn all() -> impl Iterator<Item = BehemothStep> {
        Direction::ALL.into_iter().flat_map(|direction| {
            (1..=4).map(move |distance| BehemothStep {
                direction,
                distance,
            })
        })
    }
}

impl fmt::Display for BehemothStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.direction.name(), self.distance)
    }
}

/// A text that is no Behemoth step (a direction among N, NE, E, SE, S, SW, W, NW, then 1 to 4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseStepError(pub String);

impl fmt::Display for ParseStepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is no Behemoth step (a direction N, NE, E, SE, S, SW, W or NW, then 1 to 4)",
            self.0
        )
    }
}

impl std::error::Error for ParseStepError {}

impl FromStr for BehemothStep {
    type Err = ParseStepError;

    fn from_str(s: &str) -> Result<BehemothStep, ParseStepError> {
        let err = || ParseStepError(s.to_string());
        let split = s.len().checked_sub(1).ok_or_else(err)?;
        let (name, digit) = (s.get(..split).ok_or_else(err)?, &s[split..]);
        let direction = Direction::ALL
            .into_iter()
            .find(|d| d.name() == name)
            .ok_or_else(err)?;
        let distance = digit.parse::<u8>().map_err(|_| err())?;
        BehemothStep::new(direction, distance).ok_or_else(err)
    }
}

/// Why a step was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepError {
    /// The game has no Behemoth.
    NoBehemoth,
    /// No step is awaited: the side to move has to move first (or the game is over).
    NotAwaited,
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StepError::NoBehemoth => "this game has no Behemoth",
            StepError::NotAwaited => "no Behemoth step is due: a move comes first",
        })
    }
}

impl std::error::Error for StepError {}

impl WidePosition {
    /// Behemoth Chess: the Behemoth's square (`None` in other games).
    #[must_use]
    pub fn behemoth(&self) -> Option<WideSquare> {
        (self.behemoth != 0).then(|| WideSquare::at(self.behemoth.trailing_zeros()))
    }

    /// Behemoth Chess: whether the position waits for the Behemoth's step (after a move that
    /// did not end the game). A position that waits has no legal move until `apply_step`.
    #[must_use]
    pub fn awaits_step(&self) -> bool {
        self.step_pending
    }

    /// Behemoth Chess: moves the Behemoth by `step`, the one the position waits for, wrapping
    /// round the board's edges and destroying every piece on every square it enters.
    pub fn apply_step(&mut self, step: BehemothStep) -> Result<(), StepError> {
        if self.def.chance != Chance::Behemoth {
            return Err(StepError::NoBehemoth);
        }
        if !self.step_pending {
            return Err(StepError::NotAwaited);
        }
        let Some(mut at) = self.behemoth() else {
            return Err(StepError::NoBehemoth);
        };
        let (df, dr) = step.direction.delta();
        let (width, height) = (self.def.width as i8, self.def.height as i8);
        let mut kings_lost = false;
        for _ in 0..step.distance {
            let file = (at.file() as i8 + df).rem_euclid(width) as u8;
            let rank = (at.rank() as i8 + dr).rem_euclid(height) as u8;
            at = WideSquare::new(file, rank).unwrap_or(at);
            let Some(piece) = self.remove(at) else {
                continue;
            };
            self.halfmoves = 0;
            let rights = &mut self.castles[piece.color.index()];
            for right in rights.iter_mut().filter(|r| **r == Some(at)) {
                *right = None;
            }
            if piece.role == WideRole::King {
                self.castles[piece.color.index()] = [None; 2];
                kings_lost |= self.pieces(piece.color, WideRole::King) == 0;
            }
        }
        self.behemoth = at.bit();
        self.step_pending = false;
        if kings_lost {
            self.extinct = true;
            self.destroyed = true;
        }
        self.keep_usable_ep();
        Ok(())
    }

    /// After a step, the en passant square stays only while a pawn can still take there: not
    /// onto the Behemoth, not when the pawn to take or every pawn that could take is gone.
    fn keep_usable_ep(&mut self) {
        let (Some(ep), Some(victim)) = (self.ep, self.ep_victim) else {
            return;
        };
        let us = self.turn;
        let usable = self.behemoth & ep.bit() == 0
            && self.pieces(!us, WideRole::Pawn) & victim.bit() != 0
            && self.def.pawn_captures[(!us).index()][ep.index()] & self.pieces(us, WideRole::Pawn)
                != 0;
        if !usable {
            self.ep = None;
            self.ep_victim = None;
        }
    }

    /// Behemoth Chess's ends once a king is gone: destroyed (both at once: a draw) or
    /// captured.
    pub(crate) fn behemoth_outcome(&self) -> Option<crate::Outcome> {
        use crate::{Outcome, Termination};
        let kingless = |color| self.pieces(color, WideRole::King) == 0;
        let how = if self.destroyed {
            Termination::KingDestroyed
        } else {
            Termination::KingCaptured
        };
        match (kingless(Color::White), kingless(Color::Black)) {
            (true, true) => Some(Outcome::draw(how)),
            (true, false) => Some(Outcome::win(Color::Black, how)),
            (false, true) => Some(Outcome::win(Color::White, how)),
            (false, false) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::sorted_ucis;
    use super::super::{WidePosition, WideSquare, WideVariant};
    use super::{BehemothStep, Direction, StepError};
    use crate::{Color, Outcome, Termination};

    fn pos(fen: &str) -> WidePosition {
        WidePosition::from_fen(WideVariant::Behemoth, fen).unwrap()
    }

    fn step(text: &str) -> BehemothStep {
        text.parse().unwrap()
    }

    fn sq(name: &str) -> WideSquare {
        name.parse().unwrap()
    }

    #[test]
    fn steps_read_and_write_as_the_record_does() {
        assert_eq!(step("SE4").to_string(), "SE4");
        assert_eq!(step("N1").direction(), Direction::N);
        for bad in ["", "SE", "SE0", "SE5", "X1", "4", "~SE4", "se4", "NNE1"] {
            assert!(bad.parse::<BehemothStep>().is_err(), "{bad}");
        }
        assert_eq!(BehemothStep::all().count(), 32);
    }

    /// The start: the Behemoth on d4, no step awaited, written `*`.
    #[test]
    fn the_behemoth_starts_on_d4() {
        let p = WidePosition::new(WideVariant::Behemoth);
        assert_eq!(p.behemoth(), Some(sq("d4")));
        assert!(!p.awaits_step());
        assert_eq!(
            p.fen(),
            "rnbqkbnr/pppppppp/8/8/3*4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
    }

    /// No piece may land on it or slide through it; a pawn may not double-step through it.
    #[test]
    fn the_behemoth_blocks_landing_and_sliding() {
        let p = WidePosition::new(WideVariant::Behemoth);
        let moves = sorted_ucis(&p);
        assert_eq!(moves.len(), 19);
        assert!(!moves.contains(&"d2d4".to_string()) && moves.contains(&"d2d3".to_string()));
        let p = pos("4k3/8/8/3*4/8/8/8/R2QK3 w - - 0 1");
        let moves = sorted_ucis(&p);
        assert!(moves.contains(&"d1d4".to_string()));
        assert!(!moves.contains(&"d1d5".to_string()) && !moves.contains(&"d1d6".to_string()));
        let p = pos("4k3/8/8/8/3*4/8/3P4/4K3 w - - 0 1");
        assert!(!sorted_ucis(&p).contains(&"d2d4".to_string()));
        let p = pos("4k3/8/8/8/8/3*4/3P4/4K3 w - - 0 1");
        assert!(!sorted_ucis(&p).iter().any(|m| m.starts_with("d2")));
    }

    /// Knights jump over it but cannot land on it.
    #[test]
    fn knights_jump_the_behemoth() {
        let p = pos("4k3/8/8/8/8/1*6/8/1N2K3 w - - 0 1");
        let moves = sorted_ucis(&p);
        assert!(moves.contains(&"b1a3".to_string()) && moves.contains(&"b1c3".to_string()));
        let p = pos("4k3/8/8/8/8/2*5/8/1N2K3 w - - 0 1");
        assert!(!sorted_ucis(&p).contains(&"b1c3".to_string()));
    }

    /// It attacks nothing: a king beside it is no more attacked (there is no check anyway),
    /// and nothing may capture it.
    #[test]
    fn the_behemoth_attacks_nothing_and_cannot_be_captured() {
        let p = pos("4k3/8/8/8/8/8/3*4/3QK3 w - - 0 1");
        assert!(!sorted_ucis(&p).iter().any(|m| m.ends_with("d2")));
        assert!(!p.is_check());
    }

    /// Castling needs the Behemoth's square free like any other.
    #[test]
    fn castling_needs_its_square_free() {
        let p = pos("4k3/8/8/8/8/8/8/R3K1*R w KQ - 0 1");
        let moves = sorted_ucis(&p);
        assert!(!moves.contains(&"e1g1".to_string()) && moves.contains(&"e1c1".to_string()));
    }

    /// After every move the position waits for the step, with no legal move.
    #[test]
    fn every_move_waits_for_a_step() {
        let mut p = WidePosition::new(WideVariant::Behemoth);
        assert_eq!(p.apply_step(step("N1")), Err(StepError::NotAwaited));
        p.play("e2e4").unwrap();
        assert!(p.awaits_step() && p.legal_moves().is_empty());
        assert_eq!(p.outcome(), None);
        assert_eq!(
            p.fen(),
            "rnbqkbnr/pppppppp/8/8/3*P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 ~"
        );
        assert_eq!(pos(&p.fen()), p);
        p.apply_step(step("W2")).unwrap();
        assert!(!p.awaits_step() && !p.legal_moves().is_empty());
        assert_eq!(p.behemoth(), Some(sq("b4")));
        let mut chess = WidePosition::new(WideVariant::Dark);
        assert_eq!(chess.apply_step(step("N1")), Err(StepError::NoBehemoth));
    }

    /// BrainKing's example: from d4, SE 4 passes e3, f2, g1 and ends on h8, destroying f2,
    /// g1 and h8; destruction resets the fifty-move count and takes castling rights along.
    #[test]
    fn a_step_wraps_and_destroys_every_piece_it_enters() {
        let mut p = pos("rnbqkbnr/pppppppp/8/8/3*4/8/PPPPPPPP/RNBQKBNR b KQkq - 3 1 ~");
        p.apply_step(step("SE4")).unwrap();
        assert_eq!(p.behemoth(), Some(sq("h8")));
        assert_eq!(
            p.fen(),
            "rnbqkbn*/pppppppp/8/8/8/8/PPPPP1PP/RNBQKB1R b KQq - 0 1"
        );
    }

    /// A destroyed king loses; the step that destroys both kings draws.
    #[test]
    fn a_step_that_wraps_and_destroys_both_kings_draws() {
        let mut p = pos("7k/8/8/8/8/8/8/*K6 b - - 0 1 ~");
        p.apply_step(step("E2")).unwrap();
        assert_eq!(
            p.outcome(),
            Some(Outcome::win(Color::Black, Termination::KingDestroyed))
        );
        assert!(p.legal_moves().is_empty());
        assert_eq!(p.fen(), "7k/8/8/8/8/8/8/2*5 b - - 0 1 x");
        assert_eq!(pos(&p.fen()), p);
        assert_eq!(pos(&p.fen()).outcome(), p.outcome());
        // The Behemoth on g2 going SE enters h1 (the white king), then wraps to a8 (the black
        // king).
        let mut p = pos("k7/8/8/8/8/8/6*1/7K w - - 0 1 ~");
        p.apply_step(step("SE2")).unwrap();
        assert_eq!(p.behemoth(), Some(sq("a8")));
        assert_eq!(p.outcome(), Some(Outcome::draw(Termination::KingDestroyed)));
    }

    /// A captured king ends the game before the Behemoth moves: no step is awaited.
    #[test]
    fn a_king_capture_ends_the_game_before_the_step() {
        let mut p = pos("4k3/8/8/8/*7/8/4r3/4K3 b - - 0 1");
        p.play("e2e1").unwrap();
        assert!(!p.awaits_step());
        assert_eq!(
            p.outcome(),
            Some(Outcome::win(Color::Black, Termination::KingCaptured))
        );
        assert_eq!(pos(&p.fen()).outcome(), p.outcome());
    }

    /// No en passant onto the Behemoth's square, nor once the pawn to take is destroyed.
    #[test]
    fn no_en_passant_onto_the_behemoth() {
        let mut p = pos("4k3/3p4/8/4P3/8/8/8/*3K3 b - - 0 1");
        p.play("d7d5").unwrap();
        assert_eq!(p.ep_square(), Some(sq("d6")));
        // a1 to d4 (NE3), then N2: d5 (the pawn that stepped) and d6.
        let mut q = p;
        q.apply_step(step("NE3")).unwrap();
        assert!(sorted_ucis(&q).contains(&"e5d6".to_string()));
        let mut p = pos("4k3/3p4/8/4P3/8/8/8/3*K3 b - - 0 1");
        p.play("d7d5").unwrap();
        p.apply_step(step("N3")).unwrap();
        assert_eq!(p.behemoth(), Some(sq("d4")));
        assert!(sorted_ucis(&p).contains(&"e5d6".to_string()));
        let mut p = pos("4k3/3p4/8/4P3/8/8/8/3*K3 b - - 0 1");
        p.play("d7d5").unwrap();
        p.apply_step(step("S3")).unwrap();
        assert_eq!(p.behemoth(), Some(sq("d6")));
        assert_eq!(p.ep_square(), None);
        assert!(!sorted_ucis(&p).contains(&"e5d6".to_string()));
    }

    /// A step over no piece leaves the fifty-move count running.
    #[test]
    fn a_step_over_empty_squares_is_no_capture() {
        let mut p = pos("4k3/8/8/8/3*4/8/8/4K3 w - - 7 9");
        p.play("e1e2").unwrap();
        p.apply_step(step("N2")).unwrap();
        assert_eq!(p.fen(), "4k3/8/3*4/8/8/8/4K3/8 b - - 8 9");
    }

    /// No legal move draws.
    #[test]
    fn no_legal_move_draws() {
        let p = pos("7k/8/8/8/1p5*/pPp5/PRP5/KB6 w - - 0 1");
        assert_eq!(p.outcome(), Some(Outcome::draw(Termination::Stalemate)));
    }

    /// Perft counts the 32 steps after each move but the last.
    #[test]
    fn perft_counts_the_steps() {
        let p = WidePosition::new(WideVariant::Behemoth);
        assert_eq!(p.perft(1), 19);
        let by_hand: u64 = p
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut c = p;
                c.play_unchecked(m);
                BehemothStep::all()
                    .map(|s| {
                        let mut d = c;
                        d.apply_step(s).unwrap();
                        d.legal_moves().len() as u64
                    })
                    .sum::<u64>()
            })
            .sum();
        assert_eq!(p.perft(2), by_hand);
    }
}
