//! `Board`: where the pieces stand, as one bitboard per colour and per role, plus the FEN
//! piece-placement field in both directions.

use core::fmt;

use crate::attacks;
use crate::{Bitboard, ByColor, Color, Piece, Role, Square};

/// Piece placement only: no side to move, castling or clocks.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    by_color: ByColor<Bitboard>,
    by_role: [Bitboard; 6],
    occupied: Bitboard,
}

impl Board {
    /// A board with no pieces.
    #[must_use]
    pub const fn empty() -> Board {
        Board {
            by_color: ByColor::new(Bitboard::EMPTY, Bitboard::EMPTY),
            by_role: [Bitboard::EMPTY; 6],
            occupied: Bitboard::EMPTY,
        }
    }

    #[must_use]
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    #[must_use]
    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color]
    }

    #[must_use]
    #[inline(always)]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    #[must_use]
    #[inline(always)]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_color(piece.color) & self.by_role(piece.role)
    }

    /// Rooks and queens: the pieces that attack along ranks and files.
    #[must_use]
    #[inline(always)]
    pub fn rooks_and_queens(&self) -> Bitboard {
        self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()]
    }

    /// Bishops and queens: the pieces that attack along diagonals.
    #[must_use]
    #[inline(always)]
    pub fn bishops_and_queens(&self) -> Bitboard {
        self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()]
    }

    /// The king of `color`, if there is exactly one.
    #[must_use]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        let kings = self.by_piece(Role::King.of(color));
        if kings.is_single() {
            kings.first()
        } else {
            None
        }
    }

    /// The role on an occupied square; `sq` must be occupied.
    #[must_use]
    #[inline(always)]
    pub(crate) fn role_at_occupied(&self, sq: Square) -> Role {
        let bb = Bitboard::from_square(sq);
        if (self.by_role[0] & bb).any() {
            Role::Pawn
        } else if (self.by_role[1] & bb).any() {
            Role::Knight
        } else if (self.by_role[2] & bb).any() {
            Role::Bishop
        } else if (self.by_role[3] & bb).any() {
            Role::Rook
        } else if (self.by_role[4] & bb).any() {
            Role::Queen
        } else {
            Role::King
        }
    }

    #[must_use]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.occupied
            .contains(sq)
            .then(|| self.role_at_occupied(sq))
    }

    #[must_use]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color.white().contains(sq) {
            Some(Color::White)
        } else if self.by_color.black().contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Some(Piece {
            color: self.color_at(sq)?,
            role: self.role_at_occupied(sq),
        })
    }

    /// Adds or removes a piece; the caller knows which (moves are built from toggles).
    #[inline(always)]
    pub(crate) fn toggle(&mut self, color: Color, role: Role, sq: Square) {
        let bb = Bitboard::from_square(sq);
        self.by_color[color] ^= bb;
        self.by_role[role.index()] ^= bb;
        self.occupied ^= bb;
    }

    /// Puts `piece` on `sq`, replacing whatever stood there.
    pub fn set_piece_at(&mut self, sq: Square, piece: Piece) {
        self.discard_piece_at(sq);
        self.toggle(piece.color, piece.role, sq);
    }

    /// Empties `sq`, returning what stood there.
    pub fn discard_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.toggle(piece.color, piece.role, sq);
        Some(piece)
    }

    /// Pieces of `attacker` that attack `sq`, with `occupied` as the blockers.
    #[must_use]
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        let them = self.by_color(attacker);
        ((attacks::rook_attacks(sq, occupied) & self.rooks_and_queens())
            | (attacks::bishop_attacks(sq, occupied) & self.bishops_and_queens())
            | (attacks::knight_attacks(sq) & self.by_role(Role::Knight))
            | (attacks::king_attacks(sq) & self.by_role(Role::King))
            | (attacks::pawn_attacks(!attacker, sq) & self.by_role(Role::Pawn)))
            & them
    }

    /// True if any piece of `attacker` attacks `sq`, with `occupied` as the blockers.
    #[must_use]
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, attacker: Color, occupied: Bitboard) -> bool {
        let them = self.by_color(attacker);
        (attacks::knight_attacks(sq) & self.by_role(Role::Knight) & them).any()
            || (attacks::pawn_attacks(!attacker, sq) & self.by_role(Role::Pawn) & them).any()
            || (attacks::king_attacks(sq) & self.by_role(Role::King) & them).any()
            || (attacks::rook_attacks(sq, occupied) & self.rooks_and_queens() & them).any()
            || (attacks::bishop_attacks(sq, occupied) & self.bishops_and_queens() & them).any()
    }

    /// The board as the first field of a FEN.
    #[must_use]
    pub fn board_fen(&self) -> String {
        let mut out = String::with_capacity(64);
        self.write_board_fen(&mut out);
        out
    }

    /// Appends the placement field of FEN to `out` (the service renders a FEN per answer and
    /// per event, so this avoids the formatting machinery and intermediate strings).
    pub fn write_board_fen(&self, out: &mut String) {
        self.write_board_fen_marked(out, Bitboard::EMPTY);
    }

    /// [`Board::write_board_fen`] with a `~` after each piece on `promoted` (crazyhouse marks
    /// the pieces that turn back into pawns when captured).
    pub fn write_board_fen_marked(&self, out: &mut String, promoted: Bitboard) {
        // One pass over the pieces (at most 32) fills a mailbox, instead of asking every
        // square which piece stands on it.
        let mut letters = [0u8; 64];
        for color in Color::ALL {
            for role in Role::ALL {
                let letter = role.of(color).char() as u8;
                for sq in self.by_piece(role.of(color)) {
                    letters[sq.index()] = letter;
                }
            }
        }
        // At most 64 letters, 64 marks and 7 slashes, written to the string at once.
        let mut text = [0u8; 135];
        let mut len = 0;
        for rank in (0..8).rev() {
            let mut empty = 0u8;
            for (file, &letter) in letters[rank * 8..rank * 8 + 8].iter().enumerate() {
                if letter == 0 {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    text[len] = b'0' + empty;
                    len += 1;
                    empty = 0;
                }
                text[len] = letter;
                len += 1;
                if promoted.0 >> (rank * 8 + file) & 1 != 0 {
                    text[len] = b'~';
                    len += 1;
                }
            }
            if empty > 0 {
                text[len] = b'0' + empty;
                len += 1;
            }
            if rank > 0 {
                text[len] = b'/';
                len += 1;
            }
        }
        // Piece letters, digits, marks and slashes are ASCII.
        out.push_str(core::str::from_utf8(&text[..len]).unwrap_or("?"));
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

impl fmt::Debug for Board {
    /// Draws the board with FEN letters, rank 8 at the top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board({})", self.board_fen())?;
        crate::bitboard::draw_grid(f, |sq| self.piece_at(sq).map_or('.', Piece::char))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Placing and removing pieces keeps the colour, role and occupancy sets consistent.
    #[test]
    fn set_and_discard() {
        let mut board = Board::empty();
        board.set_piece_at(Square::E1, Role::King.of(Color::White));
        board.set_piece_at(Square::E1, Role::Queen.of(Color::Black));
        assert_eq!(
            board.piece_at(Square::E1),
            Some(Role::Queen.of(Color::Black))
        );
        assert_eq!(board.occupied().count(), 1);
        assert_eq!(
            board.discard_piece_at(Square::E1),
            Some(Role::Queen.of(Color::Black))
        );
        assert_eq!(board, Board::empty());
    }
}
