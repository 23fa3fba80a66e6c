//! Legal moves of the four games on the 8x8 board. Out of check, a piece no enemy slider may
//! pin moves freely, as a set that perft's last ply counts at once; a move of the king, of a
//! piece that may be pinned, any move in check, en passant and castling are kept if the
//! side's king is not attacked on the board they leave. That board is never built: the
//! enemy's pieces are the same but for the one taken (a knight, Knight Relay's relay source,
//! is never taken; ice attacks nothing), so the test needs only the new occupancy and the
//! king's new square.

use super::attacks::knight_cover;
use super::tables::{
    Bb, EDGE_RANKS, FILE_A, FILE_H, between, bishop, bit, king, knight, pawn, rook, shift, squares,
};
use super::{
    BISHOP, CHESHIRE, CYLINDER, ICE, KING, KNIGHT, Narrow, NarrowMove, NarrowSink, PAWN, QUEEN,
    RELAY, ROOK,
};
use crate::Color;
use crate::wide::mv::WideMoveKind;
use crate::wide::position::{KING_SIDE, QUEEN_SIDE};
use crate::wide::variant::{CHESS_CASTLING, CHESS_PROMOTIONS};

/// Per colour, the rank a pawn promotes on.
const LAST: [Bb; 2] = [0xFF << 56, 0xFF];
/// Per colour, the rank a pawn's single step from its second rank lands on: a double step
/// passes it.
const DOUBLE_VIA: [Bb; 2] = [0xFF << 16, 0xFF << 40];

/// What every move of one node shares.
struct Node {
    us: Color,
    them: Color,
    theirs: Bb,
    occupied: Bb,
    king: u32,
    /// Where a piece may land: not on our own pieces, nor on a vanished square (Cheshire
    /// Cat) or an enemy knight (Knight Relay).
    target: Bb,
    /// What a pawn may capture: the enemy's pieces, and in Ice Age the ice.
    prey: Bb,
    /// Knight Relay: the squares our relayed pieces may leap from.
    relay: Bb,
    /// Knight Relay: the squares their knights defend. No move of ours changes it (knights
    /// are never taken), so the tests of a node share it.
    their_cover: Bb,
    /// The pieces whose moves are tested on the board they leave: in check every piece,
    /// else the pinned ones.
    exposed: Bb,
}

impl Narrow {
    /// Whether our king stands unattacked after a move: `occupied` and `theirs` are the
    /// board after it, `king` our king's square after it.
    #[inline(always)]
    fn safe<const G: u8>(&self, at: &Node, (occupied, theirs, king): (Bb, Bb, u32)) -> bool {
        !self.attacked_in::<G>(king, occupied, theirs, at.them, at.their_cover)
    }

    /// A move of a piece (not castling, not en passant) from `from` to each of `targets`,
    /// promoting when a pawn (`pawn`) reaches its last rank.
    #[inline(always)]
    fn moves<S: NarrowSink, const G: u8>(
        &self,
        sink: &mut S,
        at: &Node,
        from: u32,
        targets: Bb,
        pawn: bool,
    ) {
        if targets == 0 {
            return;
        }
        // Unpinned, out of check: nothing it does exposes the king (a capture only removes an
        // attacker, and leaps and relays ignore what stands between).
        if at.exposed & bit(from) == 0 && !(pawn && LAST[at.us.index()] & targets != 0) {
            sink.push_targets(from, targets);
        } else {
            self.moves_tested::<S, G>(sink, at, from, targets, pawn);
        }
    }

    /// `moves` for a piece whose moves are tested (or a pawn that may promote).
    #[inline(never)]
    fn moves_tested<S: NarrowSink, const G: u8>(
        &self,
        sink: &mut S,
        at: &Node,
        from: u32,
        targets: Bb,
        pawn: bool,
    ) {
        let is_king = from == at.king;
        let safe = !is_king && at.exposed & bit(from) == 0;
        for to in squares(targets) {
            let after = (
                (at.occupied & !bit(from)) | bit(to),
                at.theirs & !bit(to),
                if is_king { to } else { at.king },
            );
            if !safe && !self.safe::<G>(at, after) {
                continue;
            }
            if pawn && LAST[at.us.index()] & bit(to) != 0 {
                for role in CHESS_PROMOTIONS {
                    sink.push(NarrowMove::new(from, to, Some(role), WideMoveKind::Normal));
                }
            } else {
                sink.push(NarrowMove::new(from, to, None, WideMoveKind::Normal));
            }
        }
    }

    #[inline(always)]
    pub(super) fn generate_in<S: NarrowSink, const G: u8>(&self, sink: &mut S) {
        if G == ICE && self.extinct {
            return;
        }
        let wrap = G == CYLINDER;
        let us = self.turn;
        let them = !us;
        let ours = self.colors[us.index()];
        let theirs = self.colors[them.index()];
        let occupied = if G == ICE {
            ours | theirs | self.ice
        } else {
            ours | theirs
        };
        let our_king = self.pieces(us, KING).trailing_zeros();
        let our_knights = self.pieces(us, KNIGHT);
        let mut target = !ours;
        if G == CHESHIRE {
            target &= !self.vanished;
        }
        let (mut relay, mut their_cover) = (0, 0);
        if G == RELAY {
            target &= !self.pieces(them, KNIGHT);
            their_cover = knight_cover(self.pieces(them, KNIGHT));
            relay = ours & !our_knights & !self.pieces(us, KING) & knight_cover(our_knights);
        }
        let (checkers, pinned) =
            self.checks_and_pins::<G>(our_king, (ours, theirs, occupied), them, their_cover);
        let checked = checkers != 0;
        let king_target = target;
        let exposed = if checked {
            // In check every move is tested, but a piece's can only stand if it takes the
            // checker or stands on a line between it and the king (none in double check).
            target &= Self::evasions::<G>(our_king, checkers);
            Bb::MAX
        } else {
            pinned
        };
        let prey = if G == ICE { theirs | self.ice } else { theirs } & target;
        let at = Node {
            us,
            them,
            theirs,
            occupied,
            king: our_king,
            target,
            prey,
            relay,
            their_cover,
            exposed,
        };
        let r = &self.roles;
        let queens = r[QUEEN];
        // Knight Relay's knights never capture.
        let knight_target = if G == RELAY {
            target & !occupied
        } else {
            target
        };
        for from in squares(our_knights) {
            self.moves::<S, G>(sink, &at, from, knight(wrap, from) & knight_target, false);
        }
        let leap = |from: u32| {
            if G == RELAY && relay & bit(from) != 0 {
                knight(false, from)
            } else {
                0
            }
        };
        for from in squares((r[BISHOP] | queens) & ours) {
            let mut to = bishop(wrap, from, occupied) | leap(from);
            if queens & bit(from) != 0 {
                to |= rook(wrap, from, occupied);
            }
            self.moves::<S, G>(sink, &at, from, to & target, false);
        }
        for from in squares(r[ROOK] & ours) {
            let to = rook(wrap, from, occupied) | leap(from);
            self.moves::<S, G>(sink, &at, from, to & target, false);
        }
        let to = if G == CHESHIRE && self.fresh_kings[us.index()] {
            rook(wrap, our_king, occupied) | bishop(wrap, our_king, occupied)
        } else {
            king(wrap, our_king)
        };
        if to & king_target != 0 {
            self.moves_tested::<S, G>(sink, &at, our_king, to & king_target, false);
        }
        self.pawns::<S, G>(sink, &at);
        if self.ep.is_some() {
            self.en_passant::<S, G>(sink, &at);
        }
        if self.castles[us.index()] != [None; 2] && !checked {
            self.castling::<S, G>(sink, &at);
        }
    }

    /// Pawn steps (a double step from the second rank over an empty or vanished square),
    /// captures, and in Knight Relay the relayed knight leaps, never to the first or last
    /// rank. Pawns whose moves need no test move as sets, by shifts of them all at once.
    #[inline(always)]
    fn pawns<S: NarrowSink, const G: u8>(&self, sink: &mut S, at: &Node) {
        let pawns = self.pieces(at.us, PAWN);
        let loose = pawns & !at.exposed;
        if loose != 0 {
            // The step a constant: each shift below is then one instruction.
            if at.us == Color::White {
                self.loose_pawns::<S, G, 8>(sink, at, loose);
            } else {
                self.loose_pawns::<S, G, -8>(sink, at, loose);
            }
        }
        for from in squares(pawns & at.exposed) {
            self.pawn::<S, G>(sink, at, from);
        }
    }

    /// The moves of `loose`, pawns no move of which exposes the king.
    #[inline(always)]
    fn loose_pawns<S: NarrowSink, const G: u8, const UP: i32>(
        &self,
        sink: &mut S,
        at: &Node,
        loose: Bb,
    ) {
        let us = at.us.index();
        let free = !at.occupied;
        let one = shift(loose, UP) & free;
        let single = one & at.target;
        let double = shift(one & DOUBLE_VIA[us], UP) & free & at.target;
        let left = shift(loose & !FILE_A, UP - 1) & at.prey;
        let right = shift(loose & !FILE_H, UP + 1) & at.prey;
        let kind = if G == RELAY {
            // Knight Relay has no en passant: its double step is an ordinary move.
            WideMoveKind::Normal
        } else {
            WideMoveKind::DoubleStep
        };
        self.pawn_set(sink, single, UP, us);
        sink.push_pawns(double, 2 * UP, kind);
        self.pawn_set(sink, left, UP - 1, us);
        self.pawn_set(sink, right, UP + 1, us);
        if G == CYLINDER {
            // Captures round the seam: from the a-file to the h-file and back.
            let seam_left = shift(loose & FILE_A, UP + 7) & at.prey;
            let seam_right = shift(loose & FILE_H, UP - 7) & at.prey;
            if seam_left | seam_right != 0 {
                self.pawn_set(sink, seam_left, UP + 7, us);
                self.pawn_set(sink, seam_right, UP - 7, us);
            }
        }
        if G == RELAY {
            for from in squares(loose & at.relay) {
                sink.push_targets(from, knight(false, from) & !EDGE_RANKS & at.target);
            }
        }
    }

    /// Pawns moving to each square of `targets` from `delta` squares back, promoting on
    /// their last rank.
    #[inline(always)]
    fn pawn_set<S: NarrowSink>(&self, sink: &mut S, targets: Bb, delta: i32, us: usize) {
        sink.push_pawns(targets & !LAST[us], delta, WideMoveKind::Normal);
        for to in squares(targets & LAST[us]) {
            let from = (to as i32 - delta) as u32;
            for role in CHESS_PROMOTIONS {
                sink.push(NarrowMove::new(from, to, Some(role), WideMoveKind::Normal));
            }
        }
    }

    /// The moves of one pawn that may expose the king, each tested.
    fn pawn<S: NarrowSink, const G: u8>(&self, sink: &mut S, at: &Node, from: u32) {
        let us = at.us.index();
        let up: i32 = if at.us == Color::White { 8 } else { -8 };
        let free = !at.occupied;
        let mut to = pawn(G == CYLINDER, at.us, from) & at.prey;
        // A FEN's pawns stand off their last rank (its reader refuses them there), so the
        // step is on the board.
        let one = (from as i32 + up) as u32;
        to |= bit(one) & free;
        if DOUBLE_VIA[us] & bit(one) & free != 0 {
            let two = (one as i32 + up) as u32;
            if free & bit(two) & at.target != 0 {
                let kind = if G == RELAY {
                    WideMoveKind::Normal
                } else {
                    WideMoveKind::DoubleStep
                };
                let after = ((at.occupied & !bit(from)) | bit(two), at.theirs, at.king);
                if self.safe::<G>(at, after) {
                    sink.push(NarrowMove::new(from, two, None, kind));
                }
            }
        }
        if G == RELAY && at.relay & bit(from) != 0 {
            to |= knight(false, from) & !EDGE_RANKS;
        }
        self.moves::<S, G>(sink, at, from, to & at.target, true);
    }

    fn en_passant<S: NarrowSink, const G: u8>(&self, sink: &mut S, at: &Node) {
        let Some(ep) = self.ep.map(u32::from) else {
            return;
        };
        let victim = if at.us == Color::White {
            ep - 8
        } else {
            ep + 8
        };
        let pawns = pawn(G == CYLINDER, at.them, ep) & self.pieces(at.us, PAWN);
        for from in squares(pawns) {
            let after = (
                (at.occupied & !bit(from) & !bit(victim)) | bit(ep),
                at.theirs & !bit(victim),
                at.king,
            );
            if self.safe::<G>(at, after) {
                sink.push(NarrowMove::new(from, ep, None, WideMoveKind::EnPassant));
            }
        }
    }

    /// Castling with the chess squares, never across the seam: the squares between king and
    /// rook empty (of ice too), the king not in check nor crossing or landing on a square
    /// attacked now, and not in check on the board it leaves (where, on the cylinder, the rook
    /// has left the edge and may open a rank across the seam).
    fn castling<S: NarrowSink, const G: u8>(&self, sink: &mut S, at: &Node) {
        let back = if at.us == Color::White {
            0xFF
        } else {
            0xFF << 56
        };
        let kings = self.pieces(at.us, KING) & back;
        if kings == 0 {
            return;
        }
        let king = kings.trailing_zeros();
        for rook in self.castles[at.us.index()].into_iter().flatten() {
            let rook = u32::from(rook);
            if between(king, rook) & at.occupied != 0 {
                continue;
            }
            let (king_to, rook_to) = castling_targets(king, rook);
            let path = between(king, king_to) | bit(king_to);
            if squares(path).any(|sq| !self.safe::<G>(at, (at.occupied, at.theirs, sq))) {
                continue;
            }
            let after = (at.occupied & !bit(king) & !bit(rook)) | bit(king_to) | bit(rook_to);
            if self.safe::<G>(at, (after, at.theirs, king_to)) {
                sink.push(NarrowMove::new(king, rook, None, WideMoveKind::Castle));
            }
        }
    }
}

/// Where king and rook land when the king on `king` castles with the rook on `rook`: chess's
/// squares on their rank, as the wide position's `castling_targets` reads them from the same
/// definition.
pub(super) fn castling_targets(king: u32, rook: u32) -> (u32, u32) {
    let rank = king & !7;
    let side = if rook > king { KING_SIDE } else { QUEEN_SIDE };
    (
        rank + u32::from(CHESS_CASTLING.king_to[side]),
        rank + u32::from(CHESS_CASTLING.rook_to[side]),
    )
}
