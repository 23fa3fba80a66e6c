//! `Setup`: a position as written, not yet checked against the rules, and `PositionError`, the
//! reasons a setup is rejected when it becomes a validated position.

use core::fmt;

use crate::{Bitboard, Board, ByColor, Color, Pocket, Role, Square};

/// An unchecked position: anything a FEN can say. Validate it with
/// [`Position::from_setup_of`](crate::Position::from_setup_of).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    pub board: Board,
    pub turn: Color,
    /// The rooks that still have castling rights, by square (a1, h1, a8, h8 in standard chess;
    /// any back-rank rook in Chess960).
    pub castling_rights: Bitboard,
    pub ep_square: Option<Square>,
    /// Half-moves since the last capture or pawn move.
    pub halfmoves: u32,
    /// The move number, starting at 1 and incremented after Black moves.
    pub fullmoves: u32,
    /// Crazyhouse: the pieces in hand, if the FEN has a pocket field.
    pub pockets: Option<ByColor<Pocket>>,
    /// Three-check: the checks each side still has to give, if the FEN has a counter.
    pub remaining_checks: Option<ByColor<u8>>,
    /// Crazyhouse: the pieces that were promoted from pawns (marked `~` in FEN).
    pub promoted: Bitboard,
}

impl Setup {
    /// An empty board, White to move, no rights, clocks at their start values.
    #[must_use]
    pub const fn empty() -> Setup {
        Setup {
            board: Board::empty(),
            turn: Color::White,
            castling_rights: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            pockets: None,
            remaining_checks: None,
            promoted: Bitboard::EMPTY,
        }
    }
}

/// Why a setup is not a legal position of the chosen variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no king.
    MissingKing(Color),
    /// A side has more than one king.
    TooManyKings(Color),
    /// A pawn stands on rank 1 or rank 8.
    PawnOnBackRank,
    /// A side has more than 16 pieces.
    TooManyPieces(Color),
    /// A side has more than 8 pawns.
    TooManyPawns(Color),
    /// A side has more promoted pieces than it has missing pawns (for example a tenth queen).
    ImpossibleMaterial(Color),
    /// The side that just moved has its king attacked.
    OppositeCheck,
    /// More checkers than any legal move can produce.
    ImpossibleCheck,
    /// A castling right without the king on e1/e8 and the rook on its corner square (in
    /// Chess960: without the king on its back rank between the rook and, on its side, no other
    /// right).
    InvalidCastlingRights,
    /// An en passant square that no double pawn step can have produced.
    InvalidEpSquare,
    /// The move number is 0 (it starts at 1).
    InvalidFullmoves,
    /// Racing Kings has no pawns.
    RacingKingsPawns,
    /// Racing Kings allows at most the starting material per side.
    RacingKingsTooMany(Color, Role),
    /// Racing Kings forbids check, so no king may stand attacked.
    RacingKingsCheck(Color),
    /// Racing Kings has no castling and no en passant.
    RacingKingsRights,
    /// Both kings on rank 8 with Black to move cannot arise: the race ended a move earlier.
    RacingKingsRaceOver,
    /// Pockets with pieces in a variant other than crazyhouse.
    UnexpectedPockets,
    /// Check counters other than `3+3` in a variant other than three-check.
    UnexpectedChecks,
    /// Crazyhouse: a king in a pocket.
    KingInPocket(Color),
    /// Crazyhouse: more than the 32 pieces (16 pawns) of a game on the board and in the pockets.
    TooMuchMaterial,
    /// Crazyhouse: a `~` promotion mark on a pawn, a king or an empty square.
    InvalidPromotedMark,
    /// Three-check: a side with more than 3 checks left to give.
    ChecksOutOfRange,
    /// Three-check: both sides have given three checks (the game ended at the first).
    BothChecksSpent,
    /// Horde: White plays without a king.
    HordeWhiteKing,
    /// Horde: more than the 36 pieces the horde starts with.
    HordeTooManyPieces,
    /// Antichess has no castling.
    AntichessCastling,
    /// Antichess: the side that just moved has no pieces (moving never loses one's own).
    AntichessNoPieces(Color),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::MissingKing(c) => write!(f, "{c} king missing"),
            PositionError::TooManyKings(c) => write!(f, "more than one {c} king"),
            PositionError::PawnOnBackRank => f.write_str("pawn on rank 1 or rank 8"),
            PositionError::TooManyPieces(c) => write!(f, "{c} has more than 16 pieces"),
            PositionError::TooManyPawns(c) => write!(f, "{c} has more than 8 pawns"),
            PositionError::ImpossibleMaterial(c) => {
                write!(f, "impossible material: {c} has more promoted pieces than missing pawns")
            }
            PositionError::OppositeCheck => f.write_str("side not to move is in check"),
            PositionError::ImpossibleCheck => f.write_str("impossible check: too many checkers"),
            PositionError::InvalidCastlingRights => f.write_str(
                "invalid castling rights: each right needs the king on its start square and the rook in its corner",
            ),
            PositionError::InvalidEpSquare => f.write_str(
                "invalid en passant square: no pawn can have just made a double step past it",
            ),
            PositionError::InvalidFullmoves => f.write_str("fullmove number must be at least 1"),
            PositionError::RacingKingsPawns => f.write_str("pawns are not allowed in racing kings"),
            PositionError::RacingKingsTooMany(c, r) => {
                write!(f, "too many {c} {r}s for racing kings")
            }
            PositionError::RacingKingsCheck(c) => {
                write!(f, "{c} king is in check, which racing kings never allows")
            }
            PositionError::RacingKingsRights => {
                f.write_str("racing kings has no castling rights and no en passant square")
            }
            PositionError::RacingKingsRaceOver => {
                f.write_str("both kings on rank 8 with black to move cannot arise in racing kings")
            }
            PositionError::UnexpectedPockets => f.write_str("pockets are only for crazyhouse"),
            PositionError::UnexpectedChecks => {
                f.write_str("check counters are only for three-check")
            }
            PositionError::KingInPocket(c) => write!(f, "{c} pocket holds a king"),
            PositionError::TooMuchMaterial => f.write_str(
                "more than 32 pieces or 16 pawns on the board and in the pockets together",
            ),
            PositionError::InvalidPromotedMark => {
                f.write_str("a promotion mark '~' may only follow a queen, rook, bishop or knight")
            }
            PositionError::ChecksOutOfRange => {
                f.write_str("check counter out of range: a side has 0 to 3 checks to give")
            }
            PositionError::BothChecksSpent => {
                f.write_str("both sides have given three checks, but the game ends at the first")
            }
            PositionError::HordeWhiteKing => f.write_str("white has a king in horde"),
            PositionError::HordeTooManyPieces => {
                f.write_str("white has more than the 36 pieces of the horde")
            }
            PositionError::AntichessCastling => f.write_str("antichess has no castling rights"),
            PositionError::AntichessNoPieces(c) => {
                write!(f, "{c} has no pieces but is not to move: the game ended before")
            }
        }
    }
}

impl std::error::Error for PositionError {}
