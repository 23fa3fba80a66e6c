//! Validated positions: the [`Rules`] trait each variant implements, the errors of playing and
//! of reading a position, and [`Position`], the enum over the variants that the service holds.
//! The state the variants share (`Core`) lives in `core.rs`, their move generator in
//! `movegen.rs`.

use core::fmt;

use crate::{
    Bitboard, Board, Chess, Color, Move, MoveList, Outcome, ParseFenError, PositionError,
    RacingKings, Setup, Square,
};

/// The two variants chessd plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Standard chess under FIDE rules.
    Chess,
    /// Racing Kings: race the king to rank 8, never giving check.
    RacingKings,
}

impl Variant {
    pub const ALL: [Variant; 2] = [Variant::Chess, Variant::RacingKings];

    /// The name used on the command line and in identifiers: `chess`, `racingkings`.
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::RacingKings => "racingkings",
        }
    }

    /// The name PGN's `Variant` tag uses: `Standard`, `Racing Kings`.
    #[must_use]
    pub const fn pgn_name(self) -> &'static str {
        match self {
            Variant::Chess => "Standard",
            Variant::RacingKings => "Racing Kings",
        }
    }

    /// The variant's start position as FEN.
    #[must_use]
    pub const fn start_fen(self) -> &'static str {
        match self {
            Variant::Chess => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Variant::RacingKings => "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// A variant name that chessd does not play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseVariantError;

impl fmt::Display for ParseVariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown variant: expected 'chess' or 'racingkings'")
    }
}

impl std::error::Error for ParseVariantError {}

impl core::str::FromStr for Variant {
    type Err = ParseVariantError;

    /// Accepts `chess` (or `standard`) and `racingkings` (or `racing-kings`, `racing_kings`),
    /// in any case.
    fn from_str(s: &str) -> Result<Variant, ParseVariantError> {
        match s.to_ascii_lowercase().as_str() {
            "chess" | "standard" => Ok(Variant::Chess),
            "racingkings" | "racing-kings" | "racing_kings" | "racing kings" => {
                Ok(Variant::RacingKings)
            }
            _ => Err(ParseVariantError),
        }
    }
}

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

/// What every variant's position offers. Implemented by [`Chess`], [`RacingKings`] and the
/// [`Position`] enum (which dispatches statically with a `match`).
pub trait Rules: Clone + Sized {
    /// Validates a setup for this variant.
    fn from_setup(setup: Setup) -> Result<Self, PositionError>;
    /// The variant's start position.
    fn start() -> Self;
    fn variant(&self) -> Variant;
    fn board(&self) -> &Board;
    fn turn(&self) -> Color;
    /// Rooks that keep a castling right, by square.
    fn castling_rights(&self) -> Bitboard;
    /// The en passant square, only if an en passant capture is legal.
    fn legal_ep_square(&self) -> Option<Square>;
    fn halfmoves(&self) -> u32;
    fn fullmoves(&self) -> u32;
    /// Every legal move (none once the position alone decides the game).
    fn legal_moves(&self) -> MoveList;
    /// The number of legal moves, without listing them.
    fn count_legal_moves(&self) -> u64;
    /// Plays a move that came from `legal_moves` of this position.
    fn play_unchecked(&mut self, m: Move);
    fn is_check(&self) -> bool;
    /// The outcome decided by the position alone (checkmate, stalemate, insufficient material,
    /// the race); repetition and move-count rules need the game's history (see `Game`).
    fn outcome(&self) -> Option<Outcome>;
    /// True if `color` can never deliver mate, whatever the opponent does (a flag of the other
    /// side is then a draw). Always false in Racing Kings, where a lone king still races.
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
        }
    }

    /// The position as FEN.
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

macro_rules! core_accessors {
    () => {
        fn board(&self) -> &Board {
            &self.core.board
        }
        fn turn(&self) -> Color {
            self.core.turn
        }
        fn castling_rights(&self) -> Bitboard {
            self.core.castling
        }
        fn halfmoves(&self) -> u32 {
            self.core.halfmoves
        }
        fn fullmoves(&self) -> u32 {
            self.core.fullmoves
        }
        #[inline(always)]
        fn play_unchecked(&mut self, m: Move) {
            self.core.play_unchecked(m)
        }
    };
}
pub(crate) use core_accessors;

/// A validated position of either variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Position {
    Chess(Chess),
    RacingKings(RacingKings),
}

macro_rules! dispatch {
    ($self:expr, $pos:ident => $body:expr) => {
        match $self {
            Position::Chess($pos) => $body,
            Position::RacingKings($pos) => $body,
        }
    };
}

impl Position {
    /// The start position of `variant`.
    #[must_use]
    pub fn new(variant: Variant) -> Position {
        // Built once: each variant's `start()` parses and validates its FEN (thousands of
        // instructions), and the service compares every answered game's start against this.
        static STARTS: std::sync::LazyLock<[Position; 2]> = std::sync::LazyLock::new(|| {
            [
                Position::Chess(Chess::start()),
                Position::RacingKings(RacingKings::start()),
            ]
        });
        match variant {
            Variant::Chess => STARTS[0],
            Variant::RacingKings => STARTS[1],
        }
    }

    /// Validates `setup` under the rules of `variant`.
    pub fn from_setup_of(variant: Variant, setup: Setup) -> Result<Position, PositionError> {
        Ok(match variant {
            Variant::Chess => Position::Chess(Chess::from_setup(setup)?),
            Variant::RacingKings => Position::RacingKings(RacingKings::from_setup(setup)?),
        })
    }

    /// Parses and validates a FEN under the rules of `variant`.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Position, FenError> {
        Ok(Position::from_setup_of(variant, Setup::from_fen(fen)?)?)
    }
}

impl Rules for Position {
    /// Validates a setup as standard chess (use [`Position::from_setup_of`] for a variant).
    fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        Position::from_setup_of(Variant::Chess, setup)
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
    fn legal_ep_square(&self) -> Option<Square> {
        dispatch!(self, p => p.legal_ep_square())
    }
    fn halfmoves(&self) -> u32 {
        dispatch!(self, p => p.halfmoves())
    }
    fn fullmoves(&self) -> u32 {
        dispatch!(self, p => p.fullmoves())
    }
    fn legal_moves(&self) -> MoveList {
        dispatch!(self, p => p.legal_moves())
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

/// The error for a move that is not among `pos`'s legal moves.
pub(crate) fn illegal_move<P: Rules>(pos: &P, m: Move) -> PlayError {
    PlayError::Illegal(format!("{m} is not legal in {}", pos.fen()))
}
