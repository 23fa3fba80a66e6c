//! The checks a setup passes to become a position, one function per rule, so each variant
//! states which of them it makes (standard chess makes all; antichess, atomic and horde relax
//! the king rules; crazyhouse counts pockets too).

use crate::core::{CastlingMode, Core};
use crate::{Bitboard, Board, ByColor, Color, File, PositionError, Rank, Role, Setup};

/// The setup's shared state, if its move number is valid.
pub(crate) fn core(setup: &Setup, mode: CastlingMode) -> Result<Core, PositionError> {
    if setup.fullmoves == 0 {
        return Err(PositionError::InvalidFullmoves);
    }
    Ok(Core::new(setup, mode))
}

/// Every check of standard chess, under `mode`'s castling rules.
pub(crate) fn standard(setup: &Setup, mode: CastlingMode) -> Result<Core, PositionError> {
    no_variant_state(setup)?;
    let core = core(setup, mode)?;
    for color in Color::ALL {
        one_king(&core.board, color)?;
        material(&core.board, color)?;
    }
    pawns_off_back_ranks(&core.board)?;
    not_opposite_check(&core)?;
    castling(&core)?;
    en_passant(&core)?;
    checkers(&core)?;
    Ok(core)
}

/// No pockets with pieces and no check counters other than the start's (only crazyhouse and
/// three-check have them).
pub(crate) fn no_variant_state(setup: &Setup) -> Result<(), PositionError> {
    if setup
        .pockets
        .is_some_and(|p| !p.white().is_empty() || !p.black().is_empty())
    {
        return Err(PositionError::UnexpectedPockets);
    }
    no_checks(setup)
}

/// No check counters other than the start's (only three-check has them).
pub(crate) fn no_checks(setup: &Setup) -> Result<(), PositionError> {
    if setup
        .remaining_checks
        .is_some_and(|c| c != ByColor::new(3, 3))
    {
        return Err(PositionError::UnexpectedChecks);
    }
    Ok(())
}

/// Exactly one king of `color`.
pub(crate) fn one_king(board: &Board, color: Color) -> Result<(), PositionError> {
    let kings = board.by_piece(Role::King.of(color));
    if kings.is_empty() {
        return Err(PositionError::MissingKing(color));
    }
    if kings.more_than_one() {
        return Err(PositionError::TooManyKings(color));
    }
    Ok(())
}

/// At most 16 pieces and 8 pawns, and no more promoted pieces than missing pawns (a king
/// beyond the first counts as promoted, for antichess). This also bounds the number of legal
/// moves of standard chess below `MAX_MOVES`.
pub(crate) fn material(board: &Board, color: Color) -> Result<(), PositionError> {
    if board.by_color(color).count() > 16 {
        return Err(PositionError::TooManyPieces(color));
    }
    let count = |role: Role| board.by_piece(role.of(color)).count();
    if count(Role::Pawn) > 8 {
        return Err(PositionError::TooManyPawns(color));
    }
    let promoted = count(Role::Queen).saturating_sub(1)
        + count(Role::Rook).saturating_sub(2)
        + count(Role::Bishop).saturating_sub(2)
        + count(Role::Knight).saturating_sub(2)
        + count(Role::King).saturating_sub(1);
    if count(Role::Pawn) + promoted > 8 {
        return Err(PositionError::ImpossibleMaterial(color));
    }
    Ok(())
}

/// No pawn on rank 1 or rank 8.
pub(crate) fn pawns_off_back_ranks(board: &Board) -> Result<(), PositionError> {
    if (board.by_role(Role::Pawn) & Bitboard::BACKRANKS).any() {
        return Err(PositionError::PawnOnBackRank);
    }
    Ok(())
}

/// The side that just moved does not stand in check (its king exists).
pub(crate) fn not_opposite_check(core: &Core) -> Result<(), PositionError> {
    let board = &core.board;
    let their_king = core.king(!core.turn);
    if board.is_attacked(their_king, core.turn, board.occupied()) {
        return Err(PositionError::OppositeCheck);
    }
    Ok(())
}

/// Each right names a rook of the right colour on its back rank, with the king on that rank:
/// under standard rules the king on e1/e8 and the rook in its corner; under Chess960 rules
/// the king between the rooks and at most one right on each side of it.
pub(crate) fn castling(core: &Core) -> Result<(), PositionError> {
    let board = &core.board;
    for color in Color::ALL {
        let rank = color.back_rank();
        let rights = core.castling & Bitboard::from_rank(rank);
        if rights.is_empty() {
            continue;
        }
        let kings = board.by_piece(Role::King.of(color)) & Bitboard::from_rank(rank);
        let Some(king) = kings.first().filter(|_| kings.is_single()) else {
            return Err(PositionError::InvalidCastlingRights);
        };
        if (rights & !board.by_piece(Role::Rook.of(color))).any() {
            return Err(PositionError::InvalidCastlingRights);
        }
        let valid = match core.mode {
            CastlingMode::Standard => {
                king.file() == File::E
                    && (rights & !(Bitboard::from_file(File::A) | Bitboard::from_file(File::H)))
                        .is_empty()
            }
            CastlingMode::Chess960 => {
                let a_side = rights & between_files(File::A, king.file());
                let h_side = rights & !a_side;
                !a_side.more_than_one() && !h_side.more_than_one()
            }
        };
        if !valid {
            return Err(PositionError::InvalidCastlingRights);
        }
    }
    // Rights belong on the back ranks only.
    if (core.castling & !Bitboard::BACKRANKS).any() {
        return Err(PositionError::InvalidCastlingRights);
    }
    Ok(())
}

/// Files `from` up to, not including, `to`, on every rank.
fn between_files(from: File, to: File) -> Bitboard {
    (from.index()..to.index())
        .filter_map(File::new)
        .fold(Bitboard::EMPTY, |bb, f| bb | Bitboard::from_file(f))
}

/// The en passant square lies behind a pawn of the side that just moved, with that square and
/// the one the pawn came from empty.
pub(crate) fn en_passant(core: &Core) -> Result<(), PositionError> {
    let Some(ep) = core.ep_square else {
        return Ok(());
    };
    let them = !core.turn;
    let (rank, pawn_rank, origin_rank) = match core.turn {
        Color::White => (Rank::Sixth, Rank::Fifth, Rank::Seventh),
        Color::Black => (Rank::Third, Rank::Fourth, Rank::Second),
    };
    let pawn = crate::Square::from_coords(ep.file(), pawn_rank);
    let origin = crate::Square::from_coords(ep.file(), origin_rank);
    let board = &core.board;
    if ep.rank() != rank
        || board.piece_at(pawn) != Some(Role::Pawn.of(them))
        || board.occupied().contains(ep)
        || board.occupied().contains(origin)
    {
        return Err(PositionError::InvalidEpSquare);
    }
    Ok(())
}

/// No more than two pieces give check (no move can give more).
pub(crate) fn checkers(core: &Core) -> Result<(), PositionError> {
    if core.checkers().count() > 2 {
        return Err(PositionError::ImpossibleCheck);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn core_of(fen: &str, mode: CastlingMode) -> Result<Core, PositionError> {
        standard(&fen.parse().unwrap(), mode)
    }

    /// Chess960 rights: any back-rank rook with the king between; one right per side.
    #[test]
    fn chess960_castling_rights() {
        let fen = "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1";
        assert!(core_of(fen, CastlingMode::Chess960).is_ok());
        assert_eq!(
            core_of(fen, CastlingMode::Standard),
            Err(PositionError::InvalidCastlingRights)
        );
        // Two rights on the king's h-side.
        assert_eq!(
            core_of("4k3/8/8/8/8/8/8/4KRR1 w FG - 0 1", CastlingMode::Chess960),
            Err(PositionError::InvalidCastlingRights)
        );
        // A right on a square without a rook.
        assert_eq!(
            core_of("4k3/8/8/8/8/8/8/4K3 w H - 0 1", CastlingMode::Chess960),
            Err(PositionError::InvalidCastlingRights)
        );
    }
}
