//! [`Family`]: what a game record needs of a position, so one [`Game`](crate::Game) serves
//! every engine family: the 8x8 engine's [`Position`] (here) and the wide family's
//! `WidePosition` (in `wide::family`). Each family keeps its own move, notation and start
//! types; the record only stores, compares and hands them back.

use core::fmt;
use core::ops::Deref;

use crate::rules::illegal_move;
use crate::san::{check_suffix, parse_move_among, san_among};
use crate::zobrist::zobrist_hash;
use crate::{Color, MoveList, Outcome, PlayError, Position, Rules, StartPosition, Text};

/// SplitMix64's finaliser: one well-mixed word from another, the same on every build (a
/// family's repetition key must not depend on the standard library's hasher).
pub(crate) const fn mix(z: u64) -> u64 {
    let z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A position of one engine family, as a game record plays, repeats and ends it.
pub trait Family: Copy + Eq + fmt::Debug + Sized {
    /// A move, small and `Copy`.
    type Move: Copy + Eq + fmt::Debug;
    /// The legal moves of a position, generated once a move.
    type Legal: Deref<Target = [Self::Move]>;
    /// A move's SAN with its mark, as the record keeps it.
    type San: Copy + fmt::Debug + fmt::Display + AsRef<str>;
    /// A start position as a record keeps it (a game's own start by name).
    type Start: Clone + fmt::Debug + Eq + From<Self>;

    fn from_start(start: &Self::Start) -> Self;
    fn legal(&self) -> Self::Legal;
    fn play_unchecked(&mut self, m: Self::Move);
    /// The game's end that this position alone decides.
    fn outcome(&self) -> Option<Outcome>;
    /// A 64-bit key that is equal for positions the repetition rules count as the same.
    fn repetition_key(&self) -> u64;
    fn halfmoves(&self) -> u32;
    /// The fifty- and seventy-five-move rules apply in this game.
    fn has_move_count_rule(&self) -> bool;
    /// A capture or pawn move makes every earlier position unreachable (false where captured
    /// pieces come back as drops).
    fn irreversible_moves(&self) -> bool;
    /// `m`'s SAN among `legal` (this position's legal moves), without its mark.
    fn san_among(&self, m: Self::Move, legal: &[Self::Move]) -> Self::San;
    /// Appends the mark of a move that led to this position (`+`, `#`), if it has one.
    fn mark(&self, san: &mut Self::San);
    /// The refusal of `m`, which is not among the legal moves.
    fn illegal(&self, m: Self::Move) -> PlayError;
    /// The legal move (of `legal`) that `text`, in UCI or SAN, names.
    fn parse_among(&self, text: &str, legal: &[Self::Move]) -> Result<Self::Move, PlayError>;
    /// `color` can never win, whatever the opponent does (a flag that falls against it is then
    /// a draw).
    fn has_insufficient_material(&self, color: Color) -> bool;

    /// The game has its own repetition rule ([`Family::repetition_outcome`]) instead of the
    /// chess ones (threefold claimable, fivefold automatic). False unless a family says so.
    fn has_own_repetition_rule(&self) -> bool {
        false
    }

    /// The game's own repetition rule, asked after every move when
    /// [`Family::has_own_repetition_rule`]: the end it decides for the record that started at
    /// `start`, played `moves` and had repetition keys `keys` (`keys[i]` after `i` plies), and
    /// is now at `self` (whose counters tell a rule how far back it need look without
    /// replaying the game).
    fn repetition_outcome(
        &self,
        _start: &Self::Start,
        _moves: &[Self::Move],
        _keys: &[u64],
    ) -> Option<Outcome> {
        None
    }
}

impl Family for Position {
    type Move = crate::Move;
    type Legal = MoveList;
    type San = Text;
    type Start = StartPosition;

    fn from_start(start: &StartPosition) -> Position {
        start.position()
    }

    fn legal(&self) -> MoveList {
        self.legal_moves()
    }

    fn play_unchecked(&mut self, m: crate::Move) {
        Rules::play_unchecked(self, m);
    }

    fn outcome(&self) -> Option<Outcome> {
        Rules::outcome(self)
    }

    fn repetition_key(&self) -> u64 {
        zobrist_hash(self)
    }

    fn halfmoves(&self) -> u32 {
        Rules::halfmoves(self)
    }

    fn has_move_count_rule(&self) -> bool {
        self.variant().has_move_count_rule()
    }

    fn irreversible_moves(&self) -> bool {
        // Crazyhouse, the one game without the move-count rules, is the one with drops.
        self.variant().has_move_count_rule()
    }

    fn san_among(&self, m: crate::Move, legal: &[crate::Move]) -> Text {
        san_among(self, m, legal).text()
    }

    fn mark(&self, san: &mut Text) {
        if let Some(suffix) = check_suffix(self) {
            san.push(suffix);
        }
    }

    fn illegal(&self, m: crate::Move) -> PlayError {
        illegal_move(self, m)
    }

    fn parse_among(&self, text: &str, legal: &[crate::Move]) -> Result<crate::Move, PlayError> {
        parse_move_among(self, text, legal)
    }

    fn has_insufficient_material(&self, color: Color) -> bool {
        Rules::has_insufficient_material(self, color)
    }
}
