//! Whether a move gives check, found on the board as it stands rather than by playing the move:
//! the `+` or `#` of every legal move's SAN asks it of each one.
//!
//! `../shared/RULES.md` defines check for standard chess and the variants that keep its
//! kings: "A king is in check when an enemy piece attacks its square". After a move, the
//! pieces that attack the opponent's king are either a piece the move put down (the moved
//! piece, a promoted one, a castling rook, a dropped one), attacking from where it landed, or a
//! slider of the mover whose line to the king the move opened (the moving piece left it, or
//! an en passant capture took a pawn off it). Both are looked up against the occupancy after
//! the move, which is all that changes between the two boards for these pieces.
//!
//! Antichess and Racing Kings, which have no check, answer `false` in their own files; Atomic,
//! where touching kings are never in check, keeps `Rules::gives_check`'s default (play the move
//! and ask).

use crate::attacks::{attacks, bishop_attacks, rook_attacks};
use crate::core::Core;
use crate::{Bitboard, MoveKind, Role};
use crate::{Move, Square};

impl Core {
    /// True if `m`, a legal move (or drop) of the side to move, attacks the opponent's king
    /// (none: false).
    #[inline]
    pub(crate) fn gives_check(&self, m: Move) -> bool {
        let us = self.turn;
        let board = &self.board;
        let Some(king) = board.by_piece(Role::King.of(!us)).first() else {
            return false;
        };
        let (from, to) = (m.from(), m.to());
        let occupied = board.occupied();
        // Where the move puts a piece, which one, and the occupancy after it.
        let (landed, role, after, left): (Square, Role, Bitboard, Bitboard) = match m.kind() {
            MoveKind::Normal | MoveKind::DoublePush => {
                (to, m.role(), occupied.without(from).with(to), from.into())
            }
            MoveKind::Promotion(promoted) => {
                (to, promoted, occupied.without(from).with(to), from.into())
            }
            MoveKind::EnPassant => {
                let captured = Square::from_coords(to.file(), from.rank());
                let after = occupied.without(from).without(captured).with(to);
                (to, Role::Pawn, after, from.into())
            }
            MoveKind::Castle => {
                let rook = self.castling_rook(m);
                let (king_to, rook_to) = (m.castling_king_to(), m.castling_rook_to());
                let after = occupied
                    .without(from)
                    .without(rook)
                    .with(king_to)
                    .with(rook_to);
                // The king that castled never attacks the other (they would touch).
                (rook_to, Role::Rook, after, Bitboard::from(from).with(rook))
            }
            MoveKind::Drop => (to, m.role(), occupied.with(to), Bitboard::EMPTY),
        };
        if attacks(us, role, landed, after).contains(king) {
            return true;
        }
        let ours = board.by_color(us) & !left;
        let opened = (rook_attacks(king, after) & board.rooks_and_queens())
            | (bishop_attacks(king, after) & board.bishops_and_queens());
        (opened & ours).any()
    }
}

#[cfg(test)]
mod tests {
    use crate::{Position, Rules, Variant};

    /// On positions where every kind of move is legal (castling both ways, en passant that
    /// opens a line, promotions to each role, discovered and double checks, drops), the test
    /// agrees with playing the move and asking whether the king is attacked.
    #[test]
    fn agrees_with_playing_the_move() {
        let cases = [
            (
                Variant::Chess,
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            ),
            (Variant::Chess, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
            (
                Variant::Chess,
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            ),
            (
                Variant::Chess,
                "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            ),
            (Variant::Chess, "4k3/8/8/2KpP2r/8/8/8/8 w - d6 0 1"),
            (Variant::Chess, "k7/8/8/3pP3/8/8/8/4K2B w - d6 0 1"),
            (Variant::Chess, "4k3/1P6/8/8/8/8/8/4K2R w K - 0 1"),
            (Variant::Chess, "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1"),
            (Variant::Chess, "4k3/8/4N3/8/8/8/8/4R1K1 w - - 0 1"),
            (
                Variant::Chess960,
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            ),
            (Variant::Chess960, "1r2k1r1/8/8/8/8/8/8/R3K2R w AHbg - 0 1"),
            (
                Variant::Crazyhouse,
                "r1bqk2r/pppp1ppp/2n5/4p3/1bB1P3/5N2/PPPP1PPP/R1BQK2R/Nn w KQkq - 0 1",
            ),
            (
                Variant::Crazyhouse,
                "4k3/8/8/8/8/8/8/4K3/QRBNPqrbnp w - - 0 1",
            ),
            (
                Variant::ThreeCheck,
                "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1 +0+0",
            ),
            (
                Variant::KingOfTheHill,
                "rnbqkbnr/ppp2ppp/8/3pp3/4P3/3B4/PPPP1PPP/RNBQK1NR w KQkq - 0 1",
            ),
            (
                Variant::Horde,
                "4k3/pp4q1/3P2p1/8/P2PP2P/PP1PPPPP/PPPPPPPP/PPPPPPPP w - - 0 1",
            ),
        ];
        for (variant, fen) in cases {
            let root = Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let mut checks = 0;
            // The position and every one a move away: each kind of move, from both sides.
            let mut positions = vec![root];
            for &m in root.legal_moves().iter() {
                positions.push(root.play(m).unwrap());
            }
            for pos in positions {
                for &m in pos.legal_moves().iter() {
                    let mut after = pos;
                    after.play_unchecked(m);
                    assert_eq!(pos.gives_check(m), after.is_check(), "{}: {m}", pos.fen());
                    checks += usize::from(after.is_check());
                }
            }
            assert!(checks > 0, "{fen}: no checking move to compare");
        }
    }

    /// Racing Kings forbids check and Antichess has none: no move gives one. Nor does Black's
    /// against the horde, which has no king.
    #[test]
    fn no_check_to_give() {
        let mut horde = Position::new(Variant::Horde);
        horde.play_unchecked(horde.legal_moves()[0]);
        let starts = [Variant::RacingKings, Variant::Antichess].map(Position::new);
        for pos in starts.into_iter().chain([horde]) {
            assert!(pos.legal_moves().iter().all(|&m| !pos.gives_check(m)));
        }
    }
}
