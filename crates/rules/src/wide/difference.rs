//! Perft's last two plies in a game where neither side has check (Extinction): the replies to
//! most moves are counted as the replies to the position itself plus what the move changes,
//! instead of by playing the move and generating again.
//!
//! Without check every pseudo-legal move is legal, so a side's move count is a sum over its
//! pieces of targets that depend only on the board. A quiet move (no capture, promotion,
//! castling, en passant, or double step leaving an en passant square) empties one square and
//! fills another with a piece of the mover: the opponent's leapers keep their targets (they
//! may go to both squares before and after), and its sliders' change only where their lines
//! meet either square. Pawns and castling read emptiness square by square: a move touching a
//! square the opponent's pawns read recounts them, and one touching the squares its castling
//! reads is played and counted in full, as every other move is.

use super::attacks::{between, bishop_attacks, rook_attacks};
use super::movegen::{FILE_A, FILE_L, popcount, shift};
use super::mv::WideMoveKind;
use super::position::WidePosition;
use super::role::WideRole;
use super::square::{WideSquare, squares};
use super::variant::{Chance, Pawn};

#[inline(always)]
fn bits(bb: u128) -> i64 {
    popcount(bb) as i64
}

impl WidePosition {
    /// Whether `perft_by_difference` applies: no royal piece on either side, every move a
    /// move (no capture obligation), no hands, chess pawns.
    #[inline]
    pub(super) fn counts_by_difference(&self) -> bool {
        self.def.royal == [None; 2]
            && !self.def.must_capture
            && !self.def.drops
            && self.def.pawn == Pawn::Chess
            && self.def.chance == Chance::None
    }

    /// `perft(2)` where `counts_by_difference` holds.
    pub(super) fn perft_by_difference(&self) -> u64 {
        let moves = self.legal_moves();
        if moves.is_empty() {
            return 0;
        }
        let us = self.turn;
        let them = !us;
        // The opponent's moves here, as if it were to move: after a quiet move it has no en
        // passant and the same castling rights.
        let mut mirror = *self;
        mirror.turn = them;
        mirror.ep = None;
        mirror.ep_victim = None;
        let base = mirror.count_legal_moves() as i64;

        let theirs = self.colors[them.index()];
        let ours = self.colors[us.index()];
        let occupied = self.occupied();
        let target = self.def.board & !theirs;
        let (orthogonal, diagonal) = self.slider_movers();
        let (orthogonal, diagonal) = (orthogonal & theirs, diagonal & theirs);
        let pawn_squares = self.pawn_squares(them);
        let pawns = self.pawn_count(them, occupied, ours);
        let castling = self.castling_squares(them);
        let their_pawns = self.pieces(them, WideRole::Pawn);

        let mut total = 0u64;
        for m in moves {
            let (from, to) = (m.from().bit(), m.to().bit());
            let quiet = match m.kind() {
                WideMoveKind::Normal => m.promotion().is_none() && occupied & to == 0,
                // Quiet too when no pawn of theirs could take on the skipped square (the
                // child then has no en passant square).
                WideMoveKind::DoubleStep => {
                    let back = WideSquare::at(((m.from().index() + m.to().index()) / 2) as u32);
                    self.def.pawn_captures[us.index()][back.index()] & their_pawns == 0
                }
                _ => false,
            };
            let pawn_delta = if pawn_squares & (from | to) == 0 {
                Some(0)
            } else {
                pawns.and_then(|before| {
                    let after = self.pawn_count(them, occupied ^ from ^ to, ours ^ from ^ to)?;
                    Some(after - before)
                })
            };
            let (true, Some(pawn_delta), 0) = (quiet, pawn_delta, castling & (from | to)) else {
                let mut child = *self;
                child.play_unchecked(m);
                total += child.count_legal_moves();
                continue;
            };
            let after = occupied ^ from ^ to;
            let mut delta = pawn_delta;
            // The sliders whose lines reach either square: only their targets change.
            let seen = |sq| {
                (
                    rook_attacks(sq, occupied) & orthogonal,
                    bishop_attacks(sq, occupied) & diagonal,
                )
            };
            let (rooks_from, bishops_from) = seen(m.from());
            let (rooks_to, bishops_to) = seen(m.to());
            for s in squares(rooks_from | rooks_to) {
                delta += bits(rook_attacks(s, after) & target)
                    - bits(rook_attacks(s, occupied) & target);
            }
            for s in squares(bishops_from | bishops_to) {
                delta += bits(bishop_attacks(s, after) & target)
                    - bits(bishop_attacks(s, occupied) & target);
            }
            total += (base + delta) as u64;
        }
        total
    }

    /// The moves of `color`'s pawns when the board holds `occupied` and its enemies
    /// `enemies`, or `None` if one may promote (a move per piece it may become: counted by
    /// playing).
    fn pawn_count(&self, color: crate::Color, occupied: u128, enemies: u128) -> Option<i64> {
        let pawns = self.pieces(color, WideRole::Pawn);
        let up = Self::forward(color);
        let empty = !occupied & self.def.board;
        let single = shift(pawns, up) & empty;
        let double = shift(single & self.def.double_step_via[color.index()], up) & empty;
        let left = shift(pawns & !FILE_A, up - 1) & enemies;
        let right = shift(pawns & !FILE_L, up + 1) & enemies;
        let zone =
            self.def.promotion_forced[color.index()] | self.def.promotion_optional[color.index()];
        if (single | left | right) & zone != 0 {
            return None;
        }
        // A step lands on an empty square, a capture on an enemy: only the two captures may
        // share a square.
        Some(bits(single | double | left) + bits(right))
    }

    /// Every square whose content `color`'s pawn moves read: one and two steps ahead, and the
    /// squares they take on.
    fn pawn_squares(&self, color: crate::Color) -> u128 {
        let pawns = self.pieces(color, WideRole::Pawn);
        let up = Self::forward(color);
        let single = shift(pawns, up);
        let double = shift(single & self.def.double_step_via[color.index()], up);
        let takes = shift(pawns & !FILE_A, up - 1) | shift(pawns & !FILE_L, up + 1);
        single | double | takes
    }

    /// Every square `color`'s castling reads: its king and rooks with a right, the squares
    /// between them and the paths both take.
    fn castling_squares(&self, color: crate::Color) -> u128 {
        let Some(king) = self.castling_king(color) else {
            return 0;
        };
        let mut squares = 0;
        for rook in self.castles[color.index()].into_iter().flatten() {
            let (king_to, rook_to) = self.castling_targets(king, rook);
            squares |= king.bit()
                | rook.bit()
                | between(king, rook)
                | between(king, king_to)
                | king_to.bit()
                | between(rook, rook_to)
                | rook_to.bit();
        }
        squares
    }
}

#[cfg(test)]
mod tests {
    use super::super::{WidePosition, WideVariant};

    /// The sum over each move of the replies counted after playing it.
    fn played(p: &WidePosition) -> u64 {
        p.legal_moves()
            .into_iter()
            .map(|m| {
                let mut child = *p;
                child.play_unchecked(m);
                child.count_legal_moves()
            })
            .sum()
    }

    /// Counting the replies by difference gives what playing every move gives, on every
    /// position of a few plies of Extinction games: sliders opened and closed by the move,
    /// pawns and castling beside it, captures, promotions and ends.
    #[test]
    fn difference_equals_playing() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rn1k1bn1/2p2p1r/2q1p3/p2p2P1/P2QP1p1/3b1N1P/1P5R/1RB3NK b - - 0 20",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "4k3/P1qr1np1/2b5/3Pp3/8/8/1PQRBNP1/R3K2R w KQ e6 0 1",
        ];
        let mut positions = 0;
        for fen in fens {
            let root = WidePosition::from_fen(WideVariant::Extinction, fen).unwrap();
            assert!(root.counts_by_difference());
            let mut frontier = vec![root];
            for _ in 0..2 {
                let mut next = Vec::new();
                for p in &frontier {
                    assert_eq!(p.perft_by_difference(), played(p), "{p:?}");
                    positions += 1;
                    for m in p.legal_moves() {
                        let mut child = *p;
                        child.play_unchecked(m);
                        next.push(child);
                    }
                }
                frontier = next;
            }
        }
        assert!(positions > 100);
    }

    /// Games with check, captures forced or hands count by playing.
    #[test]
    fn only_without_check() {
        for variant in [
            WideVariant::Amazon,
            WideVariant::BkHorde,
            WideVariant::Loop,
            WideVariant::LosAlamos,
        ] {
            assert!(
                !WidePosition::new(variant).counts_by_difference(),
                "{variant}"
            );
        }
        let massacre = super::super::massacre_fen(|n| n - 1);
        let p = WidePosition::from_fen(WideVariant::Massacre, &massacre).unwrap();
        assert!(p.def.must_capture && !p.counts_by_difference());
    }
}
