//! Moves and attacks of the games only the seed site plays (`Site`): Cylinder, Knight Relay
//! and Cheshire Cat. Each bends something the shared generator's pin and check tables assume
//! (a straight edge, every piece capturing, every square existing), so these games take a
//! generator of their own: moves by the pieces' movement. Out of check, a piece no enemy
//! slider may pin moves freely; a move of the king, of a piece that may be pinned, any move
//! in check, en passant and castling are kept if the side's king is not attacked on the board
//! they leave. The board after a move is never built: the enemy's pieces
//! are the same but for the one taken (a knight, the relay's source, is never taken), so the
//! test needs only the new occupancy and the king's new square. What attacks, pins and ends a
//! check in each game is `site_attacks`'.

use super::attacks::{between, knight_attacks};
use super::movegen::{FILE_A, Sink, shift};
use super::mv::{WideMove, WideMoveKind};
use super::position::WidePosition;
use super::role::WideRole;
use super::site_attacks::{
    CHESHIRE, CYLINDER, RELAY, bishop_of, king_of, knight_cover, knight_of, rook_of,
};
use super::square::{WideSquare, rank_mask, squares};
use super::variant::Site;
use crate::Color;

/// What every move of one node shares.
struct Node {
    us: Color,
    them: Color,
    theirs: u128,
    occupied: u128,
    king: WideSquare,
    /// Where a piece may land: not on our own pieces, nor on a vanished square (Cheshire
    /// Cat) or an enemy knight (Knight Relay).
    target: u128,
    /// Knight Relay: the squares our relayed pieces may leap from (a knight's move from one
    /// of our knights).
    relay: u128,
    /// Knight Relay: the squares their knights defend. No move of ours changes it (knights
    /// are never taken), so the tests of a node share it.
    their_cover: u128,
    /// The pieces whose moves are tested on the board they leave: in check every piece,
    /// else the pinned ones (`site_checks_and_pins`).
    exposed: u128,
}

/// The h-file, from which a pawn captures round the seam on the cylinder.
const FILE_H: u128 = FILE_A << 7;

impl WidePosition {
    /// Whether our king stands unattacked after a move: `occupied` and `theirs` are the
    /// board after it, `king` our king's square after it.
    #[inline(always)]
    fn site_safe<const G: u8>(
        &self,
        at: &Node,
        (occupied, theirs, king): (u128, u128, WideSquare),
    ) -> bool {
        !self.attacked_in::<G>(king, occupied, theirs, at.them, at.their_cover)
    }

    /// A move of a piece (not castling, not en passant) from `from` to each of `targets`,
    /// promoting when a pawn (`pawn`) reaches its last rank.
    #[inline(always)]
    fn site_moves<S: Sink, const G: u8>(
        &self,
        sink: &mut S,
        at: &Node,
        from: WideSquare,
        targets: u128,
        pawn: bool,
    ) {
        // Unpinned, out of check: nothing it does exposes the king (a capture only removes an
        // attacker, and leaps and relays ignore what stands between).
        if at.exposed & from.bit() == 0
            && !(pawn && self.def.promotion_forced[at.us.index()] & targets != 0)
        {
            // Every target is legal: one set, which perft's last ply counts at once.
            if targets != 0 {
                sink.push_targets(from, targets);
            }
        } else if targets != 0 {
            self.site_moves_tested::<S, G>(sink, at, from, targets, pawn);
        }
    }

    /// `site_moves` for a piece whose moves are tested (or a pawn that may promote).
    #[inline(never)]
    fn site_moves_tested<S: Sink, const G: u8>(
        &self,
        sink: &mut S,
        at: &Node,
        from: WideSquare,
        targets: u128,
        pawn: bool,
    ) {
        let is_king = from == at.king;
        let safe = !is_king && at.exposed & from.bit() == 0;
        for to in squares(targets) {
            let after = (
                (at.occupied & !from.bit()) | to.bit(),
                at.theirs & !to.bit(),
                if is_king { to } else { at.king },
            );
            if !safe && !self.site_safe::<G>(at, after) {
                continue;
            }
            if pawn && self.def.promotion_forced[at.us.index()] & to.bit() != 0 {
                for &role in self.def.promotions {
                    sink.push(WideMove::new(from, to, Some(role), WideMoveKind::Normal));
                }
            } else {
                sink.push(WideMove::new(from, to, None, WideMoveKind::Normal));
            }
        }
    }

    /// Every legal move of a `Site` game. Never inlined: in the shared generator's body it
    /// would cost the other games registers and code size at every node.
    #[inline(never)]
    pub(super) fn site_generate<S: Sink>(&self, sink: &mut S) {
        match self.def.site {
            Site::Cylinder => self.site_generate_in::<S, CYLINDER>(sink),
            Site::KnightRelay => self.site_generate_in::<S, RELAY>(sink),
            _ => self.site_generate_in::<S, CHESHIRE>(sink),
        }
    }

    #[inline(always)]
    fn site_generate_in<S: Sink, const G: u8>(&self, sink: &mut S) {
        let us = self.turn;
        let them = !us;
        let ours = self.colors[us.index()];
        let theirs = self.colors[them.index()];
        let occupied = ours | theirs;
        let king = self.king(us);
        let our_knights = self.pieces(us, WideRole::Knight);
        let mut target = self.def.board & !ours & !self.vanished;
        let (mut relay, mut their_cover) = (0, 0);
        if G == RELAY {
            target &= !self.pieces(them, WideRole::Knight);
            their_cover = knight_cover(self.pieces(them, WideRole::Knight));
            relay =
                ours & !our_knights & !self.pieces(us, WideRole::King) & knight_cover(our_knights);
        }
        let (checkers, pinned) =
            self.site_checks_and_pins::<G>(king, (ours, theirs, occupied), them, their_cover);
        let checked = checkers != 0;
        let king_target = target;
        let exposed = if checked {
            // In check every move is tested, but a piece's can only stand if it takes the
            // checker or stands on a line between it and the king (none in double check).
            target &= self.site_evasions::<G>(king, checkers);
            u128::MAX
        } else {
            pinned
        };
        let at = Node {
            us,
            them,
            theirs,
            occupied,
            king,
            target,
            relay,
            their_cover,
            exposed,
        };
        let r = &self.roles;
        let queens = r[WideRole::Queen.index()];
        // Knight Relay's knights never capture.
        let knight_target = if G == RELAY {
            target & !occupied
        } else {
            target
        };
        for from in squares(our_knights) {
            self.site_moves::<S, G>(sink, &at, from, knight_of::<G>(from) & knight_target, false);
        }
        let leap = |from: WideSquare| {
            if G == RELAY && relay & from.bit() != 0 {
                knight_attacks(from)
            } else {
                0
            }
        };
        for from in squares((r[WideRole::Bishop.index()] | queens) & ours) {
            let mut to = bishop_of::<G>(from, occupied) | leap(from);
            if queens & from.bit() != 0 {
                to |= rook_of::<G>(from, occupied);
            }
            self.site_moves::<S, G>(sink, &at, from, to & target, false);
        }
        for from in squares(r[WideRole::Rook.index()] & ours) {
            let to = rook_of::<G>(from, occupied) | leap(from);
            self.site_moves::<S, G>(sink, &at, from, to & target, false);
        }
        let to = if G == CHESHIRE && self.fresh_kings[us.index()] {
            rook_of::<G>(king, occupied) | bishop_of::<G>(king, occupied)
        } else {
            king_of::<G>(king)
        };
        if to & king_target != 0 {
            self.site_moves_tested::<S, G>(sink, &at, king, to & king_target, false);
        }
        self.site_pawns::<S, G>(sink, &at);
        if self.ep.is_some() {
            self.site_en_passant::<S, G>(sink, &at);
        }
        if self.castles[us.index()] != [None; 2] && !checked {
            self.site_castling::<S, G>(sink, &at);
        }
    }

    /// Pawn steps (a double step from the second rank over an empty or vanished square),
    /// captures, and in Knight Relay the relayed knight leaps, never to the first or last
    /// rank. Pawns whose moves need no test move as sets, by shifts of them all at once.
    #[inline(always)]
    fn site_pawns<S: Sink, const G: u8>(&self, sink: &mut S, at: &Node) {
        let pawns = self.pieces(at.us, WideRole::Pawn);
        let loose = pawns & !at.exposed;
        if loose != 0 {
            // The step a constant: each shift below is then one instruction pair, not a
            // branch on its sign.
            if at.us == Color::White {
                self.site_loose_pawns::<S, G, { Self::forward(Color::White) }>(sink, at, loose);
            } else {
                self.site_loose_pawns::<S, G, { Self::forward(Color::Black) }>(sink, at, loose);
            }
        }
        for from in squares(pawns & at.exposed) {
            self.site_pawn::<S, G>(sink, at, from);
        }
    }

    /// The moves of `loose`, pawns no move of which exposes the king.
    #[inline(always)]
    fn site_loose_pawns<S: Sink, const G: u8, const UP: i32>(
        &self,
        sink: &mut S,
        at: &Node,
        loose: u128,
    ) {
        let up = UP;
        let free = self.def.board & !at.occupied;
        let last = self.def.promotion_forced[at.us.index()];
        let one = shift(loose, up) & free;
        let single = one & at.target;
        let double = shift(one & self.def.double_step_via[at.us.index()], up) & free & at.target;
        // A capture from the edge file lands off the 8x8 board, on a square no piece holds;
        // on the cylinder it wraps to the far file instead.
        let prey = at.theirs & at.target;
        let left = shift(loose, up - 1) & prey;
        let right = shift(loose, up + 1) & prey;
        if (single | left | right) & last == 0 && G != RELAY {
            sink.push_chess_pawns(up, single, double, left, right);
        } else {
            let kind = if G == RELAY {
                WideMoveKind::Normal
            } else {
                WideMoveKind::DoubleStep
            };
            self.site_pawn_set(sink, single, up, last);
            sink.push_pawns(double, 2 * up, kind);
            self.site_pawn_set(sink, left, up - 1, last);
            self.site_pawn_set(sink, right, up + 1, last);
        }
        if G == CYLINDER {
            let seam_left = shift(loose & FILE_A, up + 7) & prey;
            let seam_right = shift(loose & FILE_H, up - 7) & prey;
            if seam_left | seam_right != 0 {
                self.site_pawn_set(sink, seam_left, up + 7, last);
                self.site_pawn_set(sink, seam_right, up - 7, last);
            }
        }
        if G == RELAY {
            let edges = rank_mask(0) | rank_mask(7);
            for from in squares(loose & at.relay) {
                sink.push_targets(from, knight_attacks(from) & !edges & at.target);
            }
        }
    }

    /// Pawns moving to each square of `targets` from `delta` squares back, promoting on
    /// `last`.
    #[inline(always)]
    fn site_pawn_set<S: Sink>(&self, sink: &mut S, targets: u128, delta: i32, last: u128) {
        sink.push_pawns(targets & !last, delta, WideMoveKind::Normal);
        for to in squares(targets & last) {
            let from = WideSquare::at((to.index() as i32 - delta) as u32);
            for &role in self.def.promotions {
                sink.push(WideMove::new(from, to, Some(role), WideMoveKind::Normal));
            }
        }
    }

    /// The moves of one pawn that may expose the king, each tested.
    fn site_pawn<S: Sink, const G: u8>(&self, sink: &mut S, at: &Node, from: WideSquare) {
        let up = Self::forward(at.us);
        let free = self.def.board & !at.occupied;
        let mut to = self.def.pawn_captures[at.us.index()][from.index()] & at.theirs;
        let one = (from.index() as i32 + up) as u32;
        if one < 120 {
            let one = WideSquare::at(one);
            to |= one.bit() & free;
            if self.def.double_step_via[at.us.index()] & one.bit() & free != 0 {
                let two = WideSquare::at((one.index() as i32 + up) as u32);
                if free & two.bit() & at.target != 0 {
                    // Knight Relay has no en passant: its double step is an ordinary move.
                    let kind = if G != RELAY {
                        WideMoveKind::DoubleStep
                    } else {
                        WideMoveKind::Normal
                    };
                    let after = ((at.occupied & !from.bit()) | two.bit(), at.theirs, at.king);
                    if self.site_safe::<G>(at, after) {
                        sink.push(WideMove::new(from, two, None, kind));
                    }
                }
            }
        }
        if G == RELAY && at.relay & from.bit() != 0 {
            to |= knight_attacks(from) & !(rank_mask(0) | rank_mask(7));
        }
        self.site_moves::<S, G>(sink, at, from, to & at.target, true);
    }

    fn site_en_passant<S: Sink, const G: u8>(&self, sink: &mut S, at: &Node) {
        let (Some(ep), Some(victim)) = (self.ep, self.ep_victim) else {
            return;
        };
        let pawns = self.def.pawn_captures[at.them.index()][ep.index()]
            & self.pieces(at.us, WideRole::Pawn);
        for from in squares(pawns) {
            let after = (
                (at.occupied & !from.bit() & !victim.bit()) | ep.bit(),
                at.theirs & !victim.bit(),
                at.king,
            );
            if self.site_safe::<G>(at, after) {
                sink.push(WideMove::new(from, ep, None, WideMoveKind::EnPassant));
            }
        }
    }

    /// Castling with the chess squares, never across the seam: the squares between king and
    /// rook empty, the king not in check nor crossing or landing on a square attacked now,
    /// and not in check on the board it leaves (where, on the cylinder, the rook has left
    /// the edge and may open a rank across the seam).
    fn site_castling<S: Sink, const G: u8>(&self, sink: &mut S, at: &Node) {
        let Some(king) = self.castling_king(at.us) else {
            return;
        };
        for rook in self.castles[at.us.index()].into_iter().flatten() {
            if between(king, rook) & at.occupied != 0 {
                continue;
            }
            let (king_to, rook_to) = self.castling_targets(king, rook);
            let path = between(king, king_to) | king_to.bit();
            if squares(path).any(|sq| !self.site_safe::<G>(at, (at.occupied, at.theirs, sq))) {
                continue;
            }
            let after = (at.occupied & !king.bit() & !rook.bit()) | king_to.bit() | rook_to.bit();
            if self.site_safe::<G>(at, (after, at.theirs, king_to)) {
                sink.push(WideMove::new(king, rook, None, WideMoveKind::Castle));
            }
        }
    }

    /// Cheshire Cat, after `us` played `m`: the square it left vanishes, a king that moved
    /// loses its queen move, and no en passant crosses a vanished square.
    #[inline(never)]
    pub(crate) fn vanish(&mut self, m: WideMove, us: Color) {
        self.vanished |= m.from().bit();
        if self.pieces(us, WideRole::King) & m.to().bit() != 0 {
            self.fresh_kings[us.index()] = false;
        }
        if self.ep.is_some_and(|ep| self.vanished & ep.bit() != 0) {
            self.ep = None;
            self.ep_victim = None;
        }
    }

    /// Knight Relay: whether `color` can still mate: a queen, a rook or a pawn, bishops on
    /// both colours, or a bishop and a knight.
    pub(crate) fn relay_can_mate(&self, color: Color) -> bool {
        let of = |role: WideRole| self.pieces(color, role);
        if of(WideRole::Queen) | of(WideRole::Rook) | of(WideRole::Pawn) != 0 {
            return true;
        }
        let bishops = of(WideRole::Bishop);
        let light = super::end::light_squares();
        (bishops & light != 0 && bishops & !light != 0)
            || (bishops != 0 && of(WideRole::Knight) != 0)
    }
}
