//! Legal move generation for the shogi family, and perft. One generator walks a position's
//! moves as batches (a piece's destinations as a bitboard, a kind's drop squares as another)
//! and hands them to a `Sink` (`sink`): the list writes moves out, the counter only counts
//! bits, which is how perft's last ply is counted without building a move.
//!
//! GAMES.md: "Promotion is optional when a move starts or ends in the zone. It is compulsory
//! when the piece could not move again otherwise: a pawn or lance reaching the last rank, a
//! knight reaching either of the last two." Drops: "no pawn or lance on the last rank and no
//! knight on the last two; nifu, no pawn on a file that already holds an unpromoted pawn of
//! the same side; uchifuzume, a pawn drop that checkmates at once is illegal".
//! Legality: a move may not leave its own king attacked. The king steps only to squares no
//! enemy piece attacks with the king gone from its square; in double check only the king
//! moves; in single check the other moves capture the checker or (and only then may a drop)
//! block a slider's line; a pinned piece stays on the line through its king and pinner.

use super::attacks::{self, GOLD, KING, KNIGHT, PAWN, SILVER};
use super::mv::ShogiMove;
use super::position::ShogiPosition;
use super::role::ShogiRole;
use super::sink::{Count, ShogiMoveList, Sink};
use crate::Color;

/// `FILES[f]`: every square of FSF's file `f` (nifu's test).
const FILES: [u128; 9] = {
    let mut files = [0; 9];
    let mut sq = 0;
    while sq < 81 {
        files[sq % 9] |= 1 << sq;
        sq += 1;
    }
    files
};

/// The squares of a bitboard, lowest first: a plain loop, so every piece's code stays inline
/// in the generator.
struct Squares(u128);

impl Iterator for Squares {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(sq)
    }
}

impl ShogiPosition {
    /// The pieces of the side to move that stand between their king and an enemy slider
    /// (rook, bishop, lance, dragon, horse) with nothing else between.
    fn pinned(&self, king: usize, us: Color, occ: u128) -> u128 {
        let r = &self.roles;
        let snipers = ((attacks::rook_rays(king)
            & (r[ShogiRole::Rook as usize] | r[ShogiRole::Dragon as usize]))
            | (attacks::bishop_rays(king)
                & (r[ShogiRole::Bishop as usize] | r[ShogiRole::Horse as usize]))
            | (attacks::lance_rays(us, king) & r[ShogiRole::Lance as usize]))
            & self.colors[(!us).index()];
        let mut pinned = 0;
        for s in Squares(snipers) {
            let b = attacks::between(king, s) & occ;
            if b & b.wrapping_sub(1) == 0 {
                pinned |= b;
            }
        }
        pinned & self.colors[us.index()]
    }

    /// Hands every legal move to `sink`.
    #[inline(always)]
    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) {
        let us = self.turn;
        let them = !us;
        let ui = us.index();
        let v = self.variant;
        let board = v.board();
        let occ = self.occupied();
        let socc = occ | v.walls();
        let own = self.colors[ui];
        let k = self.king_index(us);
        let threats = self.threats(them);
        let checkers = threats.attackers(k, socc);

        let mut safe = 0;
        let without_king = socc ^ (1 << k);
        for t in Squares(KING[k] & !own & board) {
            if !threats.attacks(t, without_king) {
                safe |= 1 << t;
            }
        }
        if safe != 0 {
            sink.piece(k, safe, 0, 0);
        }
        if checkers & checkers.wrapping_sub(1) != 0 {
            return;
        }
        let (target, drop_target) = if checkers == 0 {
            (!own & board, !occ & board)
        } else {
            let b = attacks::between(k, checkers.trailing_zeros() as usize);
            (b | checkers, b)
        };
        let pinned = self.pinned(k, us, occ);
        let zone = v.zone(us);
        let last = v.far_ranks(us, 1);
        let r = &self.roles;
        let pin_line = |from: usize| {
            if pinned & (1 << from) != 0 {
                attacks::line(k, from)
            } else {
                !0
            }
        };
        // A piece starting in the zone may promote wherever it goes.
        let promo = |from: usize, to: u128| {
            if zone & (1 << from) != 0 {
                to
            } else {
                to & zone
            }
        };

        let pawns = r[ShogiRole::Pawn as usize] & own;
        let free = pawns & !pinned;
        let (pushed, step) = match us {
            Color::White => (free << 9, 9),
            Color::Black => (free >> 9, -9),
        };
        let to = pushed & target;
        if to != 0 {
            sink.pawns(to, step, to & zone, to & last);
        }
        for p in Squares(pawns & pinned) {
            let to = PAWN[ui][p] & target & attacks::line(k, p);
            if to != 0 {
                sink.piece(p, to, to & zone, to & last);
            }
        }
        // A knight's jump always leaves the line it is pinned on.
        let knights = r[ShogiRole::Knight as usize] & own & !pinned;
        if knights != 0 {
            let last2 = v.far_ranks(us, 2);
            for n in Squares(knights) {
                let to = KNIGHT[ui][n] & target;
                if to != 0 {
                    sink.piece(n, to, to & zone, to & last2);
                }
            }
        }
        for s in Squares(r[ShogiRole::Silver as usize] & own) {
            let to = SILVER[ui][s] & target & pin_line(s);
            if to != 0 {
                sink.piece(s, to, promo(s, to), 0);
            }
        }
        for g in Squares(self.gold_movers() & own) {
            let to = GOLD[ui][g] & target & pin_line(g);
            if to != 0 {
                sink.piece(g, to, 0, 0);
            }
        }
        for l in Squares(r[ShogiRole::Lance as usize] & own) {
            let to = attacks::lance_attacks(us, l, socc) & target & pin_line(l);
            if to != 0 {
                sink.piece(l, to, to & zone, to & last);
            }
        }
        for b in Squares(r[ShogiRole::Bishop as usize] & own) {
            let to = attacks::bishop_attacks(b, socc) & target & pin_line(b);
            if to != 0 {
                sink.piece(b, to, promo(b, to), 0);
            }
        }
        for q in Squares(r[ShogiRole::Rook as usize] & own) {
            let to = attacks::rook_attacks(q, socc) & target & pin_line(q);
            if to != 0 {
                sink.piece(q, to, promo(q, to), 0);
            }
        }
        for h in Squares(r[ShogiRole::Horse as usize] & own) {
            let to = (attacks::bishop_attacks(h, socc) | KING[h]) & target & pin_line(h);
            if to != 0 {
                sink.piece(h, to, 0, 0);
            }
        }
        for d in Squares(r[ShogiRole::Dragon as usize] & own) {
            let to = (attacks::rook_attacks(d, socc) | KING[d]) & target & pin_line(d);
            if to != 0 {
                sink.piece(d, to, 0, 0);
            }
        }
        if drop_target != 0 {
            self.drops(sink, drop_target, pawns, last);
        }
    }

    #[inline(always)]
    fn drops<S: Sink>(&self, sink: &mut S, empty: u128, pawns: u128, last: u128) {
        let us = self.turn;
        let hand = &self.hands[us.index()];
        if hand.iter().all(|&n| n == 0) {
            return;
        }
        if hand[ShogiRole::Pawn as usize] != 0 {
            let mut files = 0;
            for p in Squares(pawns) {
                files |= FILES[p % 9];
            }
            let mut to = empty & !last & !files;
            if let Some(sq) = self.pawn_mate_square()
                && to & (1 << sq) != 0
                && self.pawn_drop_mates(sq)
            {
                to ^= 1 << sq;
            }
            sink.drops(ShogiRole::Pawn as usize, to);
        }
        if hand[ShogiRole::Lance as usize] != 0 {
            sink.drops(ShogiRole::Lance as usize, empty & !last);
        }
        if hand[ShogiRole::Knight as usize] != 0 {
            let to = empty & !self.variant.far_ranks(us, 2);
            sink.drops(ShogiRole::Knight as usize, to);
        }
        // Silver, gold, bishop and rook drop on every empty square: one batch for all.
        let mut free = [0; 4];
        let mut kinds = 0;
        for role in [
            ShogiRole::Silver,
            ShogiRole::Gold,
            ShogiRole::Bishop,
            ShogiRole::Rook,
        ] {
            if hand[role as usize] != 0 {
                free[kinds] = role as usize;
                kinds += 1;
            }
        }
        if kinds != 0 {
            sink.free_drops(&free[..kinds], empty);
        }
    }

    /// The one square where a dropped pawn would give check: in front of the enemy king.
    #[inline]
    fn pawn_mate_square(&self) -> Option<usize> {
        let k = self.king_index(!self.turn);
        match self.turn {
            Color::White => k.checked_sub(9),
            Color::Black => Some(k + 9).filter(|&s| s < 81),
        }
    }

    /// Uchifuzume: whether a pawn dropped on `sq` (giving check) leaves the opponent no legal
    /// move. Usually the king has a square to go to (the pawn's own, if nothing defends it),
    /// which settles it without playing the drop.
    #[inline]
    fn pawn_drop_mates(&self, sq: usize) -> bool {
        let them = !self.turn;
        let k = self.king_index(them);
        let occ = self.occupied() | self.variant.walls() | (1 << sq);
        let ours = self.threats(self.turn);
        let without_king = occ ^ (1 << k);
        // Most often nothing guards the pawn and the king just takes it.
        if !ours.attacks(sq, without_king) {
            return false;
        }
        let mut escapes = KING[k] & !self.colors[them.index()] & self.variant.board() & !(1 << sq);
        while escapes != 0 {
            let t = escapes.trailing_zeros() as usize;
            escapes &= escapes - 1;
            if !ours.attacks(t, without_king) {
                return false;
            }
        }
        self.pawn_drop_leaves_no_move(sq)
    }

    #[cold]
    fn pawn_drop_leaves_no_move(&self, sq: usize) -> bool {
        let mut next = *self;
        next.play_unchecked(ShogiMove::raw_drop(0, sq as u32));
        !next.has_legal_move()
    }

    /// Whether the side to move has any legal move.
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        let mut count = Count(0);
        self.generate(&mut count);
        count.0 != 0
    }

    /// The legal moves.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<ShogiMove> {
        self.move_list().to_vec()
    }

    /// The legal moves, on the stack.
    #[must_use]
    pub fn move_list(&self) -> ShogiMoveList {
        let mut list = ShogiMoveList::default();
        self.generate(&mut list);
        list
    }

    /// How many legal moves there are, counted without building them.
    #[must_use]
    pub fn count_legal(&self) -> u64 {
        let mut count = Count(0);
        self.generate(&mut count);
        count.0
    }

    /// Leaf nodes `depth` plies down; the last ply is counted, not played.
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal(),
            _ => self
                .move_list()
                .iter()
                .map(|&m| {
                    let mut next = *self;
                    next.play_unchecked(m);
                    next.perft(depth - 1)
                })
                .sum(),
        }
    }

    /// Each legal move with its perft count `depth - 1` plies below it.
    #[must_use]
    pub fn divide(&self, depth: u32) -> Vec<(ShogiMove, u64)> {
        self.legal_moves()
            .into_iter()
            .map(|m| {
                let mut next = *self;
                next.play_unchecked(m);
                (m, next.perft(depth.saturating_sub(1)))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::ShogiVariant;
    use super::*;

    fn pos(fen: &str) -> ShogiPosition {
        ShogiPosition::from_fen(ShogiVariant::Shogi, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    fn has(p: &ShogiPosition, m: &str) -> bool {
        p.legal_moves().iter().any(|x| x.to_string() == m)
    }

    /// The start has 30 moves, minishogi's 14.
    #[test]
    fn start_counts() {
        assert_eq!(ShogiPosition::new(ShogiVariant::Shogi).count_legal(), 30);
        assert_eq!(
            ShogiPosition::new(ShogiVariant::Minishogi).count_legal(),
            14
        );
    }

    /// Nifu: no second unpromoted pawn on a file; a tokin does not count.
    #[test]
    fn nifu() {
        let p = pos("4k4/9/9/9/9/9/4P4/9/4K4[P] w - - 0 1");
        assert!(!has(&p, "P@e5"));
        assert!(has(&p, "P@d5"));
        let p = pos("4k4/9/9/9/9/9/4+P4/9/4K4[P] w - - 0 1");
        assert!(has(&p, "P@e5"));
    }

    /// No pawn or lance drop on the last rank, no knight drop on the last two.
    #[test]
    fn drops_that_could_never_move() {
        let p = pos("4k4/9/9/9/9/9/9/9/4K4[PLN] w - - 0 1");
        assert!(!has(&p, "P@a9") && !has(&p, "L@a9") && !has(&p, "N@a8"));
        assert!(has(&p, "P@a8") && has(&p, "L@a8") && has(&p, "N@a7"));
    }

    /// A pawn reaching the last rank must promote; reaching rank 8 it may choose.
    #[test]
    fn compulsory_promotion() {
        let p = pos("4k4/P8/9/9/9/9/9/9/4K4[] w - - 0 1");
        assert!(has(&p, "a8a9+") && !has(&p, "a8a9"));
        let p = pos("4k4/9/P8/9/9/9/9/9/4K4[] w - - 0 1");
        assert!(has(&p, "a7a8+") && has(&p, "a7a8"));
        let p = pos("4k4/9/9/N8/9/9/9/9/4K4[] w - - 0 1");
        assert!(has(&p, "a6b8+") && !has(&p, "a6b8"));
    }

    /// A silver leaving the zone may still promote.
    #[test]
    fn promotion_out_of_the_zone() {
        let p = pos("4k4/9/S8/9/9/9/9/9/4K4[] w - - 0 1");
        assert!(has(&p, "a7b6+") && has(&p, "a7b6"));
    }

    /// Uchifuzume: the pawn drop that mates is not a move; one that only checks is.
    #[test]
    fn pawn_drop_mate_is_not_a_move() {
        // The gote king on i9 is boxed in by its own lance and a silver guarding i8.
        let p = pos("7nk/9/7G1/9/9/9/9/9/4K4[P] w - - 0 1");
        assert!(!has(&p, "P@i8"), "{}", p.fen());
        // With the gold gone, the king takes the pawn.
        let p = pos("7nk/9/9/9/9/9/9/9/4K4[P] w - - 0 1");
        assert!(has(&p, "P@i8"));
        // A mate by another dropped piece is fine.
        let p = pos("7nk/9/7G1/9/9/9/9/9/4K4[G] w - - 0 1");
        assert!(has(&p, "G@i8"));
    }

    /// A pinned piece moves only along its pin; in double check only the king moves.
    #[test]
    fn pins_and_double_check() {
        let p = pos("4r3k/9/9/9/9/9/9/4G4/4K4[] w - - 0 1");
        assert!(has(&p, "e2e3") && !has(&p, "e2d2"));
        let p = pos("4r3k/9/9/9/9/9/3n5/9/4K4[G] w - - 0 1");
        assert!(p.checkers().count_ones() == 2);
        assert!(p.legal_moves().iter().all(|m| m.from().is_some()));
    }
}
