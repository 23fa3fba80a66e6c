//! Pawn moves of the wide family: chess pawns by whole-board shifts (every pawn's pushes,
//! double steps and captures at once), the other kinds (Berolina, Legan) by the steps their
//! `Pawn` lists, promotions in each game's zone and under its limits, and en passant.

use super::movegen::{FILE_A, FILE_L, Sink, shift};
use super::mv::{WideMove, WideMoveKind};
use super::position::WidePosition;
use super::role::WideRole;
use super::square::{WideSquare, squares};
use super::variant::{Pawn, Site};
use crate::Color;

impl WidePosition {
    /// Pushes, double steps and captures of `pawns`, landing only on `target`; steps stop at
    /// `occupied`, captures land on `prey` (the enemy; in Recycle Chess any piece, `target`
    /// keeping our king out).
    #[inline(always)]
    pub(super) fn pawn_moves<S: Sink>(
        &self,
        sink: &mut S,
        pawns: u128,
        target: u128,
        occupied: u128,
        prey: u128,
    ) {
        if self.def.pawn != Pawn::Chess {
            return self.other_pawn_moves(sink, pawns, target);
        }
        // The direction as a constant, so each shift is a fixed one rather than a branch on
        // its sign and a variable 128-bit shift (perft counts pawns at every leaf's parent).
        if self.turn == Color::White {
            self.chess_pawn_moves::<S, { Self::forward(Color::White) }>(
                sink, pawns, target, occupied, prey,
            );
        } else {
            self.chess_pawn_moves::<S, { Self::forward(Color::Black) }>(
                sink, pawns, target, occupied, prey,
            );
        }
    }

    /// Chess pawns of the side to move, whose forward step is `UP` squares.
    #[inline(always)]
    fn chess_pawn_moves<S: Sink, const UP: i32>(
        &self,
        sink: &mut S,
        pawns: u128,
        target: u128,
        occupied: u128,
        theirs: u128,
    ) {
        let us = self.turn;
        let up = UP;
        let empty = !occupied & self.def.board;
        let single = shift(pawns, up) & empty;
        let double = shift(single & self.def.double_step_via[us.index()], up) & empty & target;
        let (left, right) = (up - 1, up + 1);
        let take_left = shift(pawns & !FILE_A, left) & theirs & target;
        let take_right = shift(pawns & !FILE_L, right) & theirs & target;
        let single = single & target;

        let forced = self.def.promotion_forced[us.index()];
        let zone = forced | self.def.promotion_optional[us.index()];
        // Promotions are rare: one test for all three sets before walking any of them.
        if (single | take_left | take_right) & zone == 0 {
            return sink.push_chess_pawns(up, single, double, take_left, take_right);
        }
        for (to, delta) in [(single, up), (take_left, left), (take_right, right)] {
            self.pawn_targets(sink, to, delta);
        }
        sink.push_pawns(double, 2 * up, WideMoveKind::DoubleStep);
    }

    /// Pawns that move by other steps than chess's (Berolina, Legan): each step of the
    /// game's `Pawn`, turned through 180 degrees for Black.
    pub(super) fn other_pawn_moves<S: Sink>(&self, sink: &mut S, pawns: u128, target: u128) {
        let us = self.turn;
        let sign: i8 = if us == Color::White { 1 } else { -1 };
        let theirs = self.colors[(!us).index()];
        let empty = !self.occupied() & self.def.board;
        // A step of `df` files and `dr` ranks, never wrapping round from one edge to the other.
        let step = |bb: u128, (df, dr): (i8, i8)| {
            let (df, dr) = (df * sign, dr * sign);
            let keep = match df {
                ..0 => !FILE_A,
                0 => u128::MAX,
                1.. => !FILE_L,
            };
            let delta = i32::from(df) + 12 * i32::from(dr);
            (shift(bb & keep, delta), delta)
        };
        for &d in self.def.pawn.moves() {
            let (single, delta) = step(pawns, d);
            let single = single & empty;
            let (double, _) = step(single & self.def.double_step_via[us.index()], d);
            self.pawn_targets(sink, single & target, delta);
            sink.push_pawns(double & empty & target, 2 * delta, WideMoveKind::DoubleStep);
        }
        for &d in self.def.pawn.captures() {
            let (to, delta) = step(pawns, d);
            self.pawn_targets(sink, to & theirs & target, delta);
        }
    }

    /// Pawn moves to `to` from `delta` squares back, each promoting in the game's zone.
    pub(super) fn pawn_targets<S: Sink>(&self, sink: &mut S, to: u128, delta: i32) {
        let us = self.turn;
        let forced = self.def.promotion_forced[us.index()];
        let zone = forced | self.def.promotion_optional[us.index()];
        sink.push_pawns(to & !zone, delta, WideMoveKind::Normal);
        for to in squares(to & zone) {
            let from = WideSquare::at((to.index() as i32 - delta) as u32);
            if forced & to.bit() == 0 {
                sink.push(WideMove::new(from, to, None, WideMoveKind::Normal));
            }
            self.promotions(sink, from, to);
        }
    }

    pub(super) fn promotions<S: Sink>(&self, sink: &mut S, from: WideSquare, to: WideSquare) {
        let ours = self.colors[self.turn.index()];
        for &role in self.def.promotions {
            let allowed = self.def.promotion_limits.is_none_or(|limits| {
                (self.roles[role.index()] & ours).count_ones() < u32::from(limits[role.index()])
            });
            if allowed {
                sink.push(WideMove::new(from, to, Some(role), WideMoveKind::Normal));
            }
        }
    }

    /// En passant, tested on the board it would leave: the captured pawn may have shielded
    /// the king along a rank or diagonal, or may be the checker itself.
    pub(super) fn en_passant<S: Sink>(
        &self,
        sink: &mut S,
        ep: WideSquare,
        king: Option<WideSquare>,
        occupied: u128,
    ) {
        let us = self.turn;
        let Some(victim) = self.ep_victim else {
            return;
        };
        let attackers =
            self.def.pawn_captures[(!us).index()][ep.index()] & self.pieces(us, WideRole::Pawn);
        for from in squares(attackers) {
            let after = (occupied ^ from.bit() ^ victim.bit()) | ep.bit();
            if king.is_none_or(|king| self.attackers(king, after, !us) & !victim.bit() == 0) {
                sink.push(WideMove::new(from, ep, None, WideMoveKind::EnPassant));
            }
        }
    }
}

impl WidePosition {
    /// The five games only the seed site plays write (and key) an en passant square as
    /// chessd writes chess's: only when a capture there is legal (`GAMES.md`, settled). The
    /// other games keep the square whenever a pawn attacks it, as their oracles write it.
    fn ep_only_if_legal(&self) -> bool {
        self.def.site != Site::None || self.def.ice || self.def.self_capture
    }

    /// The en passant square as the FEN writes it: in the games that write it only when a
    /// capture there is legal, `None` when none is. Worked out here, where a FEN is written,
    /// rather than after every move: the generator makes only legal captures from the square
    /// either way, and the repetition key filters it the same way.
    pub(super) fn written_ep(&self) -> Option<WideSquare> {
        self.ep.filter(|_| {
            !self.ep_only_if_legal()
                || self
                    .legal_moves()
                    .iter()
                    .any(|m| m.kind() == WideMoveKind::EnPassant)
        })
    }
}
