//! Where generated moves go: a [`Sink`] takes whole target sets per piece, and either lists
//! the moves ([`MoveList`]) or only counts them ([`Counter`], perft's bulk counting).

use crate::{Bitboard, Move, MoveKind, MoveList, Role, Square};

/// Where generated moves go.
pub(crate) trait Sink {
    /// Moves of a piece of `role` from `from` to each square of `targets`.
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard);
    /// Pawn moves whose origin is `to - delta` for each `to` in `targets`.
    fn pawns(&mut self, targets: Bitboard, delta: i32, kind: PawnKind);
    /// One move that needs its own kind (castling, en passant).
    fn special(&mut self, m: Move);
    /// Drops of a pocket piece of `role` on each square of `targets`.
    fn drops(&mut self, role: Role, targets: Bitboard);
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum PawnKind {
    /// A single step or capture; also horde's double step from the first rank (it allows no
    /// en passant, so it is an ordinary move).
    Single,
    Double,
    /// Expands into the four promotions.
    Promotion,
    /// Expands into the four promotions and the king (antichess).
    PromotionWithKing,
}

impl Sink for MoveList {
    #[inline(always)]
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(role, from, to, MoveKind::Normal));
        }
    }

    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i32, kind: PawnKind) {
        for to in targets {
            let from = Square::from_index_unchecked((to.index() as i32 - delta) as u32);
            match kind {
                PawnKind::Single => self.push(Move::new(Role::Pawn, from, to, MoveKind::Normal)),
                PawnKind::Double => {
                    self.push(Move::new(Role::Pawn, from, to, MoveKind::DoublePush))
                }
                PawnKind::Promotion | PawnKind::PromotionWithKing => {
                    for r in Role::PROMOTIONS {
                        self.push(Move::new(Role::Pawn, from, to, MoveKind::Promotion(r)));
                    }
                    if kind == PawnKind::PromotionWithKing {
                        let m = MoveKind::Promotion(Role::King);
                        self.push(Move::new(Role::Pawn, from, to, m));
                    }
                }
            }
        }
    }

    #[inline(always)]
    fn special(&mut self, m: Move) {
        self.push(m);
    }

    #[inline(always)]
    fn drops(&mut self, role: Role, targets: Bitboard) {
        for to in targets {
            self.push(Move::drop(role, to));
        }
    }
}

/// Counts moves without materialising them (perft's bulk counting).
#[derive(Default)]
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    #[inline(always)]
    fn piece(&mut self, _: Role, _: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }

    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, _: i32, kind: PawnKind) {
        let n = u64::from(targets.count());
        self.0 += match kind {
            PawnKind::Single | PawnKind::Double => n,
            PawnKind::Promotion => 4 * n,
            PawnKind::PromotionWithKing => 5 * n,
        };
    }

    #[inline(always)]
    fn special(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline(always)]
    fn drops(&mut self, _: Role, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }
}
