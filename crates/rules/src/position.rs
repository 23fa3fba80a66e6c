//! [`Position`]: a validated position of any variant, the enum the service holds. It matches
//! once per call and hands over to the variant's own type (no `dyn`); perft matches once per
//! run. The variants' rules are in their own files; the trait they share in `rules.rs`.

use core::fmt;

use crate::chess960::InvalidStartNumber;
use crate::core::CastlingMode;
use crate::{
    Antichess, Atomic, Bitboard, Board, ByColor, Chess, Chess960, Color, Crazyhouse, FenError,
    Horde, KingOfTheHill, Move, MoveList, Outcome, Pocket, PositionError, RacingKings, Rules,
    Setup, Square, ThreeCheck, Variant,
};

/// A validated position of any variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Position {
    Chess(Chess),
    RacingKings(RacingKings),
    Chess960(Chess960),
    ThreeCheck(ThreeCheck),
    KingOfTheHill(KingOfTheHill),
    Antichess(Antichess),
    Atomic(Atomic),
    Horde(Horde),
    Crazyhouse(Crazyhouse),
}

/// Runs `$body` with `$pos` bound to the variant's own position type.
macro_rules! dispatch {
    ($self:expr, $pos:ident => $body:expr) => {
        match $self {
            Position::Chess($pos) => $body,
            Position::RacingKings($pos) => $body,
            Position::Chess960($pos) => $body,
            Position::ThreeCheck($pos) => $body,
            Position::KingOfTheHill($pos) => $body,
            Position::Antichess($pos) => $body,
            Position::Atomic($pos) => $body,
            Position::Horde($pos) => $body,
            Position::Crazyhouse($pos) => $body,
        }
    };
}
pub(crate) use dispatch;

impl Position {
    /// The start position of `variant` (Chess960: the standard arrangement, number 518).
    #[must_use]
    pub fn new(variant: Variant) -> Position {
        // Built once: each variant's `start()` parses and validates its FEN (thousands of
        // instructions), and the service compares every answered game's start against this.
        static STARTS: std::sync::LazyLock<[Position; 9]> = std::sync::LazyLock::new(|| {
            Variant::ALL.map(|variant| {
                let setup = Setup::from_fen(variant.start_fen()).expect("start fen parses");
                Position::from_setup_of(variant, setup).expect("start position is valid")
            })
        });
        let index = Variant::ALL.iter().position(|&v| v == variant).unwrap_or(0);
        STARTS[index]
    }

    /// Chess960 start position `number` (0-959, Scharnagl numbering).
    pub fn chess960(number: u32) -> Result<Position, InvalidStartNumber> {
        Chess960::from_number(number).map(Position::Chess960)
    }

    /// Validates `setup` under the rules of `variant`.
    pub fn from_setup_of(variant: Variant, setup: Setup) -> Result<Position, PositionError> {
        Position::from_setup_with(variant, setup, CastlingMode::Standard)
    }

    /// Validates `setup` under the rules of `variant` with `mode`'s castling rules (Chess960
    /// castling in another variant, as the atomic perft suite's `atomic960` lines need;
    /// standard chess with Chess960 castling is [`Variant::Chess960`]).
    pub fn from_setup_with(
        variant: Variant,
        setup: Setup,
        mode: CastlingMode,
    ) -> Result<Position, PositionError> {
        Ok(match variant {
            Variant::Chess if mode == CastlingMode::Chess960 => {
                Position::Chess960(Chess960::from_setup(setup)?)
            }
            Variant::Chess => Position::Chess(Chess::from_setup_with(setup, mode)?),
            Variant::RacingKings => {
                Position::RacingKings(RacingKings::from_setup_with(setup, mode)?)
            }
            Variant::Chess960 => Position::Chess960(Chess960::from_setup(setup)?),
            Variant::ThreeCheck => Position::ThreeCheck(ThreeCheck::from_setup_with(setup, mode)?),
            Variant::KingOfTheHill => {
                Position::KingOfTheHill(KingOfTheHill::from_setup_with(setup, mode)?)
            }
            Variant::Antichess => Position::Antichess(Antichess::from_setup_with(setup, mode)?),
            Variant::Atomic => Position::Atomic(Atomic::from_setup_with(setup, mode)?),
            Variant::Horde => Position::Horde(Horde::from_setup_with(setup, mode)?),
            Variant::Crazyhouse => Position::Crazyhouse(Crazyhouse::from_setup_with(setup, mode)?),
        })
    }

    /// Parses and validates a FEN under the rules of `variant`.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Position, FenError> {
        Ok(Position::from_setup_of(variant, Setup::from_fen(fen)?)?)
    }

    /// [`Position::from_fen`] with `mode`'s castling rules.
    pub fn from_fen_with(
        variant: Variant,
        fen: &str,
        mode: CastlingMode,
    ) -> Result<Position, FenError> {
        Ok(Position::from_setup_with(
            variant,
            Setup::from_fen(fen)?,
            mode,
        )?)
    }
}

impl Rules for Position {
    /// Validates a setup as standard chess (use [`Position::from_setup_with`] for a variant).
    fn from_setup_with(setup: Setup, mode: CastlingMode) -> Result<Position, PositionError> {
        Position::from_setup_with(Variant::Chess, setup, mode)
    }
    fn start() -> Position {
        Position::new(Variant::Chess)
    }
    fn variant(&self) -> Variant {
        dispatch!(self, p => p.variant())
    }
    fn board(&self) -> &Board {
        dispatch!(self, p => p.board())
    }
    fn turn(&self) -> Color {
        dispatch!(self, p => p.turn())
    }
    fn castling_rights(&self) -> Bitboard {
        dispatch!(self, p => p.castling_rights())
    }
    fn castling_mode(&self) -> CastlingMode {
        dispatch!(self, p => p.castling_mode())
    }
    fn legal_ep_square(&self) -> Option<Square> {
        dispatch!(self, p => p.legal_ep_square())
    }
    fn halfmoves(&self) -> u32 {
        dispatch!(self, p => p.halfmoves())
    }
    fn fullmoves(&self) -> u32 {
        dispatch!(self, p => p.fullmoves())
    }
    fn pockets(&self) -> Option<ByColor<Pocket>> {
        dispatch!(self, p => p.pockets())
    }
    fn remaining_checks(&self) -> Option<ByColor<u8>> {
        dispatch!(self, p => p.remaining_checks())
    }
    fn promoted(&self) -> Bitboard {
        dispatch!(self, p => p.promoted())
    }
    fn legal_moves_into(&self, moves: &mut MoveList) {
        dispatch!(self, p => p.legal_moves_into(moves))
    }
    fn count_legal_moves(&self) -> u64 {
        dispatch!(self, p => p.count_legal_moves())
    }
    fn play_unchecked(&mut self, m: Move) {
        dispatch!(self, p => p.play_unchecked(m))
    }
    fn is_check(&self) -> bool {
        dispatch!(self, p => p.is_check())
    }
    fn gives_check(&self, m: Move) -> bool {
        dispatch!(self, p => p.gives_check(m))
    }
    fn outcome(&self) -> Option<Outcome> {
        dispatch!(self, p => p.outcome())
    }
    fn has_insufficient_material(&self, color: Color) -> bool {
        dispatch!(self, p => p.has_insufficient_material(color))
    }
}

impl fmt::Display for Position {
    /// The position as FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every variant's start position validates, writes its own start FEN and has moves.
    #[test]
    fn every_start() {
        for variant in Variant::ALL {
            let pos = Position::new(variant);
            assert_eq!(pos.variant(), variant);
            assert_eq!(pos.fen(), variant.start_fen(), "{variant}");
            assert!(pos.count_legal_moves() > 0, "{variant}");
            assert_eq!(pos.outcome(), None, "{variant}");
        }
        assert_eq!(
            Position::chess960(518).unwrap().fen(),
            Variant::Chess960.start_fen()
        );
    }
}
