//! `Core`: the state every variant's position shares (placement, side to move, castling rights,
//! en passant square, clocks), the checks every variant makes when a setup becomes a position,
//! and how a move changes that state (unchecked play). Move generation sits above this file
//! (`movegen.rs`), the variants' rules above that.

use crate::{Bitboard, Board, Color, Move, MoveKind, PositionError, Role, Setup, Square};

/// The state of a validated position, shared by both variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Core {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    /// Rooks with castling rights, by square.
    pub(crate) castling: Bitboard,
    /// Set after a double step only when an enemy pawn could capture there (legality is
    /// checked by the generator); this keeps most positions free of a dead square.
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
}

impl Core {
    /// The checks every variant makes: one king each, no pawn on a back rank, no more pieces
    /// than a game can have, and the side that just moved not in check.
    pub(crate) fn from_setup(setup: &Setup) -> Result<Core, PositionError> {
        let board = setup.board;
        for color in Color::ALL {
            let kings = board.by_piece(Role::King.of(color));
            if kings.is_empty() {
                return Err(PositionError::MissingKing(color));
            }
            if kings.more_than_one() {
                return Err(PositionError::TooManyKings(color));
            }
            if board.by_color(color).count() > 16 {
                return Err(PositionError::TooManyPieces(color));
            }
            if board.by_piece(Role::Pawn.of(color)).count() > 8 {
                return Err(PositionError::TooManyPawns(color));
            }
            // Every piece beyond the starting set must be a promoted pawn. This also bounds
            // the number of legal moves below `MAX_MOVES`.
            let count = |role: Role| board.by_piece(role.of(color)).count();
            let promoted = count(Role::Queen).saturating_sub(1)
                + count(Role::Rook).saturating_sub(2)
                + count(Role::Bishop).saturating_sub(2)
                + count(Role::Knight).saturating_sub(2);
            if count(Role::Pawn) + promoted > 8 {
                return Err(PositionError::ImpossibleMaterial(color));
            }
        }
        if (board.by_role(Role::Pawn) & Bitboard::BACKRANKS).any() {
            return Err(PositionError::PawnOnBackRank);
        }
        if setup.fullmoves == 0 {
            return Err(PositionError::InvalidFullmoves);
        }
        let core = Core {
            board,
            turn: setup.turn,
            castling: setup.castling_rights,
            ep_square: setup.ep_square,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
        };
        let their_king = core.king(!core.turn);
        if board.is_attacked(their_king, core.turn, board.occupied()) {
            return Err(PositionError::OppositeCheck);
        }
        Ok(core)
    }

    #[inline(always)]
    pub(crate) fn king(&self, color: Color) -> Square {
        self.board.by_piece(Role::King.of(color)).lsb_unchecked()
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub(crate) fn checkers(&self) -> Bitboard {
        self.board
            .attackers_to(self.king(self.turn), !self.turn, self.board.occupied())
    }

    /// Plays a move produced by this position's generator.
    #[inline(always)]
    pub(crate) fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        let them = !us;
        let (from, to, role) = (m.from(), m.to(), m.role());
        self.ep_square = None;
        self.halfmoves += 1;
        if us == Color::Black {
            self.fullmoves += 1;
        }
        if self.board.by_color(them).contains(to) {
            let captured = self.board.role_at_occupied(to);
            self.board.toggle(them, captured, to);
            self.halfmoves = 0;
        }
        match m.kind() {
            MoveKind::Normal => {
                self.board.toggle(us, role, from);
                self.board.toggle(us, role, to);
                if role == Role::Pawn {
                    self.halfmoves = 0;
                }
            }
            MoveKind::DoublePush => {
                self.board.toggle(us, Role::Pawn, from);
                self.board.toggle(us, Role::Pawn, to);
                self.halfmoves = 0;
                let ep = Square::from_index_unchecked((from.index() + to.index()) as u32 / 2);
                let capturers =
                    crate::attacks::pawn_attacks(us, ep) & self.board.by_piece(Role::Pawn.of(them));
                if capturers.any() {
                    self.ep_square = Some(ep);
                }
            }
            MoveKind::EnPassant => {
                self.board.toggle(us, Role::Pawn, from);
                self.board.toggle(us, Role::Pawn, to);
                let captured = Square::from_coords(to.file(), from.rank());
                self.board.toggle(them, Role::Pawn, captured);
                self.halfmoves = 0;
            }
            MoveKind::Castle => {
                let rank = us.back_rank();
                let (rook_from, rook_to) = if to > from {
                    (
                        Square::from_coords(crate::File::H, rank),
                        Square::from_coords(crate::File::F, rank),
                    )
                } else {
                    (
                        Square::from_coords(crate::File::A, rank),
                        Square::from_coords(crate::File::D, rank),
                    )
                };
                self.board.toggle(us, Role::King, from);
                self.board.toggle(us, Role::King, to);
                self.board.toggle(us, Role::Rook, rook_from);
                self.board.toggle(us, Role::Rook, rook_to);
            }
            MoveKind::Promotion(promoted) => {
                self.board.toggle(us, Role::Pawn, from);
                self.board.toggle(us, promoted, to);
                self.halfmoves = 0;
            }
        }
        if self.castling.any() {
            if role == Role::King {
                self.castling &= !Bitboard::from_rank(us.back_rank());
            }
            self.castling &= !(Bitboard::from(from) | to);
        }
        self.turn = them;
    }
}
