//! The [`Rules`] trait every variant's position implements (and the `Position` enum over
//! them), the errors of playing a move and of reading a position, and the helpers the variants
//! share. Below it: `core.rs` (the shared state), `movegen.rs` (the generator); above it: one
//! file per variant, then `position.rs`.

use core::fmt;

use crate::core::CastlingMode;
use crate::{
    Bitboard, Board, ByColor, Color, Move, MoveList, Outcome, ParseFenError, Pocket, PositionError,
    Setup, Square, Variant,
};

/// Why a move was not played. The position it was tried on is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The text is not a move in UCI or SAN notation.
    Malformed(String),
    /// A well-formed move that is not legal in this position.
    Illegal(String),
    /// SAN that fits more than one legal move.
    Ambiguous(String),
    /// The game is already over.
    GameOver,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Malformed(why) => write!(f, "malformed move: {why}"),
            PlayError::Illegal(why) => write!(f, "illegal move: {why}"),
            PlayError::Ambiguous(why) => write!(f, "ambiguous move: {why}"),
            PlayError::GameOver => f.write_str("the game is over"),
        }
    }
}

impl std::error::Error for PlayError {}

/// Why a FEN does not give a valid position of a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    Parse(ParseFenError),
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Parse(e) => e.fmt(f),
            FenError::Position(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FenError {}

impl From<ParseFenError> for FenError {
    fn from(e: ParseFenError) -> FenError {
        FenError::Parse(e)
    }
}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

/// What every variant's position offers. Implemented by each variant's type ([`Chess`],
/// [`RacingKings`], [`Crazyhouse`], ...) and by the [`Position`] enum, which dispatches
/// statically with a `match`.
///
/// [`Chess`]: crate::Chess
/// [`RacingKings`]: crate::RacingKings
/// [`Crazyhouse`]: crate::Crazyhouse
/// [`Position`]: crate::Position
pub trait Rules: Clone + Sized {
    /// Validates a setup for this variant under `mode`'s castling rules (Chess960 always uses
    /// its own; variants without castling ignore it).
    fn from_setup_with(setup: Setup, mode: CastlingMode) -> Result<Self, PositionError>;
    /// Validates a setup for this variant under standard castling rules.
    fn from_setup(setup: Setup) -> Result<Self, PositionError> {
        Self::from_setup_with(setup, CastlingMode::Standard)
    }
    /// The variant's start position.
    fn start() -> Self;
    fn variant(&self) -> Variant;
    fn board(&self) -> &Board;
    fn turn(&self) -> Color;
    /// Rooks that keep a castling right, by square.
    fn castling_rights(&self) -> Bitboard;
    /// How castling is played and written.
    fn castling_mode(&self) -> CastlingMode;
    /// The en passant square, only if an en passant capture is legal.
    fn legal_ep_square(&self) -> Option<Square>;
    fn halfmoves(&self) -> u32;
    fn fullmoves(&self) -> u32;
    /// Crazyhouse: the pieces each side holds in hand.
    fn pockets(&self) -> Option<ByColor<Pocket>> {
        None
    }
    /// Three-check: the checks each side still has to give to win.
    fn remaining_checks(&self) -> Option<ByColor<u8>> {
        None
    }
    /// Crazyhouse: the pieces that were pawns (they turn back into pawns when captured).
    fn promoted(&self) -> Bitboard {
        Bitboard::EMPTY
    }
    /// Replaces the contents of `moves` with every legal move (none once the position alone
    /// decides the game). Reusing one list saves clearing a fresh one (perft does this).
    fn legal_moves_into(&self, moves: &mut MoveList);
    /// Every legal move (none once the position alone decides the game).
    fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.legal_moves_into(&mut moves);
        moves
    }
    /// The number of legal moves, without listing them.
    fn count_legal_moves(&self) -> u64;
    /// Plays a move that came from `legal_moves` of this position.
    fn play_unchecked(&mut self, m: Move);
    fn is_check(&self) -> bool;
    /// True if `m`, a legal move of this position, leaves the opponent in check: what
    /// `is_check` would say after it. Variants with standard check answer without playing it
    /// (`check.rs`).
    fn gives_check(&self, m: Move) -> bool {
        let mut after = self.clone();
        after.play_unchecked(m);
        after.is_check()
    }
    /// The outcome decided by the position alone (checkmate, stalemate, insufficient material,
    /// the variant's own ends); repetition and move-count rules need the game's history (see
    /// `Game`).
    fn outcome(&self) -> Option<Outcome>;
    /// True if `color` can never win, whatever the opponent does (a flag of the other side is
    /// then a draw), by the variant's rules (python-chess's `has_insufficient_material`).
    fn has_insufficient_material(&self, color: Color) -> bool;

    /// The position as an unchecked setup (en passant only where legal).
    fn setup(&self) -> Setup {
        Setup {
            board: *self.board(),
            turn: self.turn(),
            castling_rights: self.castling_rights(),
            ep_square: self.legal_ep_square(),
            halfmoves: self.halfmoves(),
            fullmoves: self.fullmoves(),
            pockets: self.pockets(),
            remaining_checks: self.remaining_checks(),
            promoted: self.promoted(),
        }
    }

    /// The position as FEN (X-FEN castling; pockets and check counters where the variant has
    /// them).
    fn fen(&self) -> String {
        self.setup().fen()
    }

    fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// Plays `m` if legal, returning the new position; an illegal move changes nothing.
    /// (Whether the game is over by history or material is the game record's business.)
    fn play(&self, m: Move) -> Result<Self, PlayError> {
        if !self.is_legal(m) {
            return Err(illegal_move(self, m));
        }
        let mut next = self.clone();
        next.play_unchecked(m);
        Ok(next)
    }
}

/// The `Rules` accessors a variant answers from its `core` field.
macro_rules! core_accessors {
    () => {
        fn board(&self) -> &$crate::Board {
            &self.core.board
        }
        fn turn(&self) -> $crate::Color {
            self.core.turn
        }
        fn castling_rights(&self) -> $crate::Bitboard {
            self.core.castling
        }
        fn castling_mode(&self) -> $crate::CastlingMode {
            self.core.mode
        }
        fn halfmoves(&self) -> u32 {
            self.core.halfmoves
        }
        fn fullmoves(&self) -> u32 {
            self.core.fullmoves
        }
    };
    (play) => {
        $crate::rules::core_accessors!();
        #[inline(always)]
        fn play_unchecked(&mut self, m: $crate::Move) {
            self.core.play_unchecked(m)
        }
    };
}
pub(crate) use core_accessors;

/// The `Rules` methods of a variant's start position, from `Variant::start_fen`.
macro_rules! start_position {
    ($variant:expr) => {
        fn start() -> Self {
            let setup = $crate::Setup::from_fen($variant.start_fen()).expect("start fen parses");
            Self::from_setup(setup).expect("start position is valid")
        }
        fn variant(&self) -> $crate::Variant {
            $variant
        }
    };
}
pub(crate) use start_position;

/// The error for a move that is not among `pos`'s legal moves.
pub(crate) fn illegal_move<P: Rules>(pos: &P, m: Move) -> PlayError {
    PlayError::Illegal(format!("{m} is not legal in {}", pos.fen()))
}
