//! `Core`: the state every variant's position shares (placement, side to move, castling rights
//! and how castling is written, en passant square, clocks), and how a move changes that state
//! (unchecked play). The checks a setup passes to become a `Core` are in `validate.rs`, move
//! generation above this file in `movegen.rs`, the variants' rules above that.

use crate::{Bitboard, Board, Color, File, Move, MoveKind, Role, Setup, Square};

/// Which castling rules a position follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CastlingMode {
    /// King on e1/e8, rooks in the corners; UCI writes the king's two-square move (`e1g1`).
    #[default]
    Standard,
    /// Chess960: king between its rooks anywhere on the back rank; UCI writes the king taking
    /// its own rook (`e1h1`), as engines expect with `UCI_Chess960`.
    Chess960,
}

/// The state of a validated position, shared by every variant.
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
    pub(crate) mode: CastlingMode,
}

impl Core {
    /// The setup's shared state as it stands; `validate.rs` checks it.
    pub(crate) fn new(setup: &Setup, mode: CastlingMode) -> Core {
        Core {
            board: setup.board,
            turn: setup.turn,
            castling: setup.castling_rights,
            ep_square: setup.ep_square,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
            mode,
        }
    }

    /// The king of `color`; the caller knows there is one.
    #[inline(always)]
    pub(crate) fn king(&self, color: Color) -> Square {
        self.board.by_piece(Role::King.of(color)).lsb_unchecked()
    }

    /// Pieces giving check to the side to move (which has a king).
    #[inline]
    pub(crate) fn checkers(&self) -> Bitboard {
        self.board
            .attackers_to(self.king(self.turn), !self.turn, self.board.occupied())
    }

    /// The rook a castling move takes along: its destination names it under Chess960 rules,
    /// the corner on that side under standard rules.
    #[inline]
    pub(crate) fn castling_rook(&self, m: Move) -> Square {
        match self.mode {
            CastlingMode::Chess960 => m.to(),
            CastlingMode::Standard => {
                let file = if m.to() > m.from() { File::H } else { File::A };
                Square::from_coords(file, m.from().rank())
            }
        }
    }

    /// Plays a move produced by this position's generator (not a drop: see `play_drop`).
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
                // Both pieces leave before either lands: in Chess960 the king may land on the
                // rook's square or stay where it is.
                let rook = self.castling_rook(m);
                self.board.toggle(us, Role::King, from);
                self.board.toggle(us, Role::Rook, rook);
                self.board.toggle(us, Role::King, m.castling_king_to());
                self.board.toggle(us, Role::Rook, m.castling_rook_to());
            }
            MoveKind::Promotion(promoted) => {
                self.board.toggle(us, Role::Pawn, from);
                self.board.toggle(us, promoted, to);
                self.halfmoves = 0;
            }
            // Drops never come here; playing one as a no-op keeps this total.
            MoveKind::Drop => {}
        }
        if self.castling.any() {
            if role == Role::King {
                self.castling &= !Bitboard::from_rank(us.back_rank());
            }
            self.castling &= !(Bitboard::from(from) | to);
        }
        self.turn = them;
    }

    /// Puts a piece of the side to move on the empty square `to` (a crazyhouse drop). The
    /// clock runs on: a drop is neither a capture nor a pawn move.
    #[inline]
    pub(crate) fn play_drop(&mut self, role: Role, to: Square) {
        let us = self.turn;
        self.board.toggle(us, role, to);
        self.ep_square = None;
        self.halfmoves += 1;
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = !us;
    }
}
