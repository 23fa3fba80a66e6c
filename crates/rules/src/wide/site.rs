//! Moves and attacks of the games only the seed site plays (`Site`): Cylinder, Knight Relay
//! and Cheshire Cat. Each bends something the shared generator's pin and check tables assume
//! (a straight edge, every piece capturing, every square existing), so these games take a
//! generator of their own: moves by the pieces' movement. Out of check, a piece no enemy
//! slider may pin moves freely; a move of the king, of a piece that may be pinned, any move
//! in check, en passant and castling are kept if the side's king is not attacked on the board
//! they leave. The board after a move is never built: the enemy's pieces
//! are the same but for the one taken (a knight, the relay's source, is never taken), so the
//! test needs only the new occupancy and the king's new square.

use super::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use super::cylinder;
use super::movegen::Sink;
use super::mv::{WideMove, WideMoveKind};
use super::position::WidePosition;
use super::role::WideRole;
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
    /// The pieces whose moves are tested on the board they leave: in check every piece,
    /// else those that may be pinned (a superset of the pinned ones, see `site_pinned`).
    exposed: u128,
}

impl WidePosition {
    #[inline]
    fn site_knight(&self, sq: WideSquare) -> u128 {
        if self.def.site == Site::Cylinder {
            cylinder::KNIGHT[sq.index()]
        } else {
            knight_attacks(sq)
        }
    }

    #[inline]
    fn site_king(&self, sq: WideSquare) -> u128 {
        if self.def.site == Site::Cylinder {
            cylinder::KING[sq.index()]
        } else {
            king_attacks(sq)
        }
    }

    #[inline]
    fn site_rook(&self, sq: WideSquare, occupied: u128) -> u128 {
        if self.def.site == Site::Cylinder {
            cylinder::rook(sq, occupied)
        } else {
            rook_attacks(sq, occupied)
        }
    }

    #[inline]
    fn site_bishop(&self, sq: WideSquare, occupied: u128) -> u128 {
        if self.def.site == Site::Cylinder {
            cylinder::bishop(sq, occupied)
        } else {
            bishop_attacks(sq, occupied)
        }
    }

    /// Knight Relay: the squares a knight of `knights` defends, where a piece is relayed.
    #[inline]
    fn knight_cover(knights: u128) -> u128 {
        let mut cover = 0;
        for sq in squares(knights) {
            cover |= knight_attacks(sq);
        }
        cover
    }

    /// The pieces among `theirs` (of colour `by`) that attack `sq` when the board holds
    /// `occupied`, by the game's own rule: wrapping on the cylinder; in Knight Relay knights
    /// attack nothing and a relayed piece also attacks as a knight (a pawn never onto the
    /// first or last rank); in Cheshire Cat a king that has not moved attacks as a queen.
    #[inline(never)]
    pub(crate) fn site_attackers(
        &self,
        sq: WideSquare,
        occupied: u128,
        theirs: u128,
        by: Color,
    ) -> u128 {
        let r = &self.roles;
        let pawns = r[WideRole::Pawn.index()] & theirs;
        let knights = r[WideRole::Knight.index()] & theirs;
        let kings = r[WideRole::King.index()] & theirs;
        let queens = r[WideRole::Queen.index()];
        let mut orthogonal = (r[WideRole::Rook.index()] | queens) & theirs;
        let mut diagonal = (r[WideRole::Bishop.index()] | queens) & theirs;
        let mut attackers = (self.def.pawn_captures[(!by).index()][sq.index()] & pawns)
            | (self.site_king(sq) & kings);
        match self.def.site {
            Site::KnightRelay => {
                let mut leapers = knight_attacks(sq) & theirs & !knights & !kings;
                if sq.rank() == 0 || sq.rank() == 7 {
                    leapers &= !pawns;
                }
                if leapers != 0 {
                    attackers |= leapers & Self::knight_cover(knights);
                }
            }
            Site::CheshireCat if self.fresh_kings[by.index()] => {
                attackers |= self.site_knight(sq) & knights;
                orthogonal |= kings;
                diagonal |= kings;
            }
            _ => attackers |= self.site_knight(sq) & knights,
        }
        if orthogonal != 0 {
            attackers |= self.site_rook(sq, occupied) & orthogonal;
        }
        if diagonal != 0 {
            attackers |= self.site_bishop(sq, occupied) & diagonal;
        }
        attackers
    }

    /// Pushes `m` if it leaves our king unattacked: `occupied` and `theirs` are the board
    /// after it, `king` our king's square after it.
    #[inline]
    fn site_try<S: Sink>(
        &self,
        sink: &mut S,
        at: &Node,
        m: WideMove,
        (occupied, theirs, king): (u128, u128, WideSquare),
    ) {
        if self.site_attackers(king, occupied, theirs, at.them) == 0 {
            sink.push(m);
        }
    }

    /// A move of a piece (not castling, not en passant) from `from` to each of `targets`,
    /// promoting when a pawn reaches its last rank.
    #[inline]
    fn site_moves<S: Sink>(&self, sink: &mut S, at: &Node, from: WideSquare, targets: u128) {
        let is_king = from == at.king;
        // Unpinned, out of check: nothing it does exposes the king (a capture only removes an
        // attacker, and leaps and relays ignore what stands between).
        let safe = !is_king && at.exposed & from.bit() == 0;
        let promotes = self.pieces(at.us, WideRole::Pawn) & from.bit() != 0;
        if safe && !(promotes && self.def.promotion_forced[at.us.index()] & targets != 0) {
            // Every target is legal: one set, which perft's last ply counts at once.
            sink.push_targets(from, targets);
            return;
        }
        for to in squares(targets) {
            let after = (
                (at.occupied & !from.bit()) | to.bit(),
                at.theirs & !to.bit(),
                if is_king { to } else { at.king },
            );
            if promotes && self.def.promotion_forced[at.us.index()] & to.bit() != 0 {
                if safe || self.site_attackers(after.2, after.0, after.1, at.them) == 0 {
                    for &role in self.def.promotions {
                        sink.push(WideMove::new(from, to, Some(role), WideMoveKind::Normal));
                    }
                }
            } else if safe {
                sink.push(WideMove::new(from, to, None, WideMoveKind::Normal));
            } else {
                self.site_try(
                    sink,
                    at,
                    WideMove::new(from, to, None, WideMoveKind::Normal),
                    after,
                );
            }
        }
    }

    /// Every legal move of a `Site` game. Never inlined: in the shared generator's body it
    /// would cost the other games registers and code size at every node.
    #[inline(never)]
    pub(super) fn site_generate<S: Sink>(&self, sink: &mut S) {
        let us = self.turn;
        let them = !us;
        let ours = self.colors[us.index()];
        let theirs = self.colors[them.index()];
        let occupied = ours | theirs;
        let king = self.king(us);
        let their_knights = self.pieces(them, WideRole::Knight);
        let our_knights = self.pieces(us, WideRole::Knight);
        let relay = self.def.site == Site::KnightRelay;
        let mut target = self.def.board & !ours & !self.vanished;
        if relay {
            target &= !their_knights;
        }
        let checked = self.site_attackers(king, occupied, theirs, them) != 0;
        let exposed = if checked {
            u128::MAX
        } else {
            self.site_pinned(king, ours, theirs, occupied, them)
        };
        let at = Node {
            us,
            them,
            theirs,
            occupied,
            king,
            target,
            relay: if relay {
                ours & !our_knights
                    & !self.pieces(us, WideRole::King)
                    & Self::knight_cover(our_knights)
            } else {
                0
            },
            exposed,
        };
        for from in squares(ours & !self.roles[WideRole::Pawn.index()]) {
            let Some(piece) = self.piece_at(from) else {
                continue;
            };
            let mut to = match piece.role {
                WideRole::King if self.fresh_kings[us.index()] => {
                    self.site_rook(from, occupied) | self.site_bishop(from, occupied)
                }
                WideRole::King => self.site_king(from),
                // Knight Relay's knights never capture.
                WideRole::Knight if relay => knight_attacks(from) & !occupied,
                WideRole::Knight => self.site_knight(from),
                WideRole::Bishop => self.site_bishop(from, occupied),
                WideRole::Rook => self.site_rook(from, occupied),
                _ => self.site_rook(from, occupied) | self.site_bishop(from, occupied),
            };
            if at.relay & from.bit() != 0 {
                to |= knight_attacks(from);
            }
            self.site_moves(sink, &at, from, to & target);
        }
        self.site_pawns(sink, &at);
        if self.ep.is_some() {
            self.site_en_passant(sink, &at);
        }
        if self.castles[us.index()] != [None; 2] && !checked {
            self.site_castling(sink, &at);
        }
    }

    /// Our pieces that may be pinned to our king (not in check) by an enemy slider: every
    /// piece first on a line from the king with an enemy slider next on it beyond, which the
    /// slider sees. Lines wrap on the cylinder, and there one slider may pin along two lines
    /// (round either side of a rank, or along both diagonals four ranks away); a piece found
    /// so is in the set whichever line pins it, and no piece outside the set can leave one.
    /// In Cheshire Cat a king that has not moved slides as a queen, and vanished squares
    /// block nothing. Leaps (knights, Knight Relay's relays) pass over every piece: no move
    /// but the king's opens or closes them.
    #[inline]
    fn site_pinned(
        &self,
        king: WideSquare,
        ours: u128,
        theirs: u128,
        occupied: u128,
        them: Color,
    ) -> u128 {
        let r = &self.roles;
        let queens = r[WideRole::Queen.index()];
        let royal = if self.def.site == Site::CheshireCat && self.fresh_kings[them.index()] {
            r[WideRole::King.index()]
        } else {
            0
        };
        let orthogonal = (r[WideRole::Rook.index()] | queens | royal) & theirs;
        let diagonal = (r[WideRole::Bishop.index()] | queens | royal) & theirs;
        let mut pinned = 0;
        if orthogonal != 0 {
            let near = self.site_rook(king, occupied) & ours;
            let far = self.site_rook(king, occupied & !near);
            for sniper in squares(far & orthogonal) {
                pinned |= self.site_rook(sniper, occupied) & near;
            }
        }
        if diagonal != 0 {
            let near = self.site_bishop(king, occupied) & ours;
            let far = self.site_bishop(king, occupied & !near);
            for sniper in squares(far & diagonal) {
                pinned |= self.site_bishop(sniper, occupied) & near;
            }
        }
        pinned
    }

    /// Pawn steps (a double step from the second rank over an empty or vanished square),
    /// captures, and in Knight Relay the relayed knight leaps, never to the first or last
    /// rank.
    fn site_pawns<S: Sink>(&self, sink: &mut S, at: &Node) {
        let up = Self::forward(at.us);
        let free = self.def.board & !at.occupied;
        let edges = rank_mask(0) | rank_mask(7);
        for from in squares(self.pieces(at.us, WideRole::Pawn)) {
            let mut to = self.def.pawn_captures[at.us.index()][from.index()] & at.theirs;
            let one = (from.index() as i32 + up) as u32;
            if one < 120 {
                let one = WideSquare::at(one);
                to |= one.bit() & free;
                if self.def.double_step_via[at.us.index()] & one.bit() & free != 0 {
                    let two = WideSquare::at((one.index() as i32 + up) as u32);
                    if free & two.bit() & at.target != 0 {
                        // Knight Relay has no en passant: its double step is an ordinary move.
                        let kind = if self.def.site != Site::KnightRelay {
                            WideMoveKind::DoubleStep
                        } else {
                            WideMoveKind::Normal
                        };
                        let m = WideMove::new(from, two, None, kind);
                        if at.exposed & from.bit() == 0 {
                            sink.push(m);
                        } else {
                            self.site_try(
                                sink,
                                at,
                                m,
                                ((at.occupied & !from.bit()) | two.bit(), at.theirs, at.king),
                            );
                        }
                    }
                }
            }
            if at.relay & from.bit() != 0 {
                to |= knight_attacks(from) & !edges;
            }
            self.site_moves(sink, at, from, to & at.target);
        }
    }

    fn site_en_passant<S: Sink>(&self, sink: &mut S, at: &Node) {
        let (Some(ep), Some(victim)) = (self.ep, self.ep_victim) else {
            return;
        };
        let pawns = self.def.pawn_captures[at.them.index()][ep.index()]
            & self.pieces(at.us, WideRole::Pawn);
        for from in squares(pawns) {
            self.site_try(
                sink,
                at,
                WideMove::new(from, ep, None, WideMoveKind::EnPassant),
                (
                    (at.occupied & !from.bit() & !victim.bit()) | ep.bit(),
                    at.theirs & !victim.bit(),
                    at.king,
                ),
            );
        }
    }

    /// Castling with the chess squares, never across the seam: the squares between king and
    /// rook empty, the king not in check nor crossing or landing on a square attacked now,
    /// and not in check on the board it leaves (where, on the cylinder, the rook has left
    /// the edge and may open a rank across the seam).
    fn site_castling<S: Sink>(&self, sink: &mut S, at: &Node) {
        let Some(king) = self.castling_king(at.us) else {
            return;
        };
        for rook in self.castles[at.us.index()].into_iter().flatten() {
            if super::attacks::between(king, rook) & at.occupied != 0 {
                continue;
            }
            let (king_to, rook_to) = self.castling_targets(king, rook);
            let path = super::attacks::between(king, king_to) | king_to.bit();
            if squares(path).any(|sq| self.site_attackers(sq, at.occupied, at.theirs, at.them) != 0)
            {
                continue;
            }
            let after = (at.occupied & !king.bit() & !rook.bit()) | king_to.bit() | rook_to.bit();
            self.site_try(
                sink,
                at,
                WideMove::new(king, rook, None, WideMoveKind::Castle),
                (after, at.theirs, king_to),
            );
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
