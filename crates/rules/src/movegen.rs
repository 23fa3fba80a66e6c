//! Legal move generation on bitboards, shared by both variants.
//!
//! The generator computes checkers and pins once, then emits whole target sets per piece into a
//! [`Sink`]. A sink either lists the moves ([`MoveList`]) or only counts them ([`Counter`],
//! which makes perft's last ply a handful of popcounts). Racing Kings passes a [`MoveFilter`]
//! (its no-check rule as per-role target masks and discovered-check lines, built in
//! `racingkings.rs`); with `RK = false` the filter code compiles away.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::core::Core;
use crate::{Bitboard, Color, File, Move, MoveKind, MoveList, Rank, Role, Square};

/// Where generated moves go.
pub(crate) trait Sink {
    /// Moves of a piece of `role` from `from` to each square of `targets`.
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard);
    /// Pawn moves whose origin is `to - delta` for each `to` in `targets`.
    fn pawns(&mut self, targets: Bitboard, delta: i32, kind: PawnKind);
    /// One move that needs its own kind (castling, en passant).
    fn special(&mut self, m: Move);
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum PawnKind {
    Single,
    Double,
    /// Expands into the four promotions.
    Promotion,
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
                PawnKind::Promotion => {
                    for r in Role::PROMOTIONS {
                        self.push(Move::new(Role::Pawn, from, to, MoveKind::Promotion(r)));
                    }
                }
            }
        }
    }

    #[inline(always)]
    fn special(&mut self, m: Move) {
        self.push(m);
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
        self.0 += if kind == PawnKind::Promotion {
            4 * n
        } else {
            n
        };
    }

    #[inline(always)]
    fn special(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// Extra restrictions on targets: Racing Kings' ban on giving check.
pub(crate) struct MoveFilter {
    /// Per role, the squares a piece of that role may move to without giving direct check.
    pub allowed: [Bitboard; 6],
    /// Our pieces that alone block one of our sliders from the opponent's king.
    pub discoverers: Bitboard,
    /// The opponent's king: a discoverer must stay on its line to it.
    pub their_king: Square,
}

impl MoveFilter {
    /// No restriction (standard chess).
    pub(crate) const NONE: MoveFilter = MoveFilter {
        allowed: [Bitboard::FULL; 6],
        discoverers: Bitboard::EMPTY,
        their_king: Square::A1,
    };

    #[inline(always)]
    fn apply(&self, role: Role, from: Square, targets: Bitboard) -> Bitboard {
        let targets = targets & self.allowed[role.index()];
        if self.discoverers.contains(from) {
            targets & line(from, self.their_king)
        } else {
            targets
        }
    }
}

/// The filter argument for the variants without Racing Kings' no-check rule.
pub(crate) const NO_FILTER: &MoveFilter = &MoveFilter::NONE;

/// The en passant square of `core` if a legal en passant capture exists (FEN and repetition
/// use this: a square nobody can capture on does not make a position different).
pub(crate) fn legal_ep_square(core: &Core) -> Option<Square> {
    let ep = core.ep_square?;
    let mut counter = Counter::default();
    gen_en_passant(core, core.king(core.turn), &mut counter);
    (counter.0 > 0).then_some(ep)
}

/// Our pieces that alone stand between `king` and an enemy slider aimed at it.
#[inline(always)]
pub(crate) fn blockers(core: &Core, king: Square, sliders_of: Color) -> Bitboard {
    let board = &core.board;
    let occ = board.occupied();
    let them = board.by_color(sliders_of);
    let snipers = ((rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
        | (bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens()))
        & them;
    let mut blockers = Bitboard::EMPTY;
    for s in snipers {
        let b = between(king, s) & occ;
        if b.is_single() {
            blockers |= b;
        }
    }
    blockers
}

#[inline(always)]
fn shift(bb: Bitboard, delta: i32) -> Bitboard {
    if delta >= 0 {
        Bitboard(bb.0 << delta)
    } else {
        Bitboard(bb.0 >> -delta)
    }
}

/// Generates every legal move of `core` into `sink`. With `RK`, `filter` removes the moves that
/// would give check and the pawn, castling and en passant code is skipped (Racing Kings has none).
#[inline(always)]
pub(crate) fn generate<const RK: bool, S: Sink>(core: &Core, filter: &MoveFilter, sink: &mut S) {
    let board = &core.board;
    let us = core.turn;
    let them = !us;
    let ours = board.by_color(us);
    let occ = board.occupied();
    let ksq = (board.by_role(Role::King) & ours).lsb_unchecked();

    // Racing Kings positions never have a king in check: the generator never emits a checking
    // move and setups with a check are rejected, so the checker scan is skipped there.
    let checkers = if RK {
        Bitboard::EMPTY
    } else {
        board.attackers_to(ksq, them, occ)
    };

    let mut king_targets = king_attacks(ksq) & !ours;
    if RK {
        king_targets = filter.apply(Role::King, ksq, king_targets);
    }
    let without_king = occ.without(ksq);
    let mut safe = Bitboard::EMPTY;
    for to in king_targets {
        if !board.is_attacked(to, them, without_king) {
            safe |= to;
        }
    }
    sink.piece(Role::King, ksq, safe);

    if checkers.more_than_one() {
        return;
    }
    let target_mask = match checkers.first() {
        Some(checker) => (between(ksq, checker) | checkers) & !ours,
        None => !ours,
    };
    let pinned = blockers(core, ksq, them) & ours;

    for from in board.by_role(Role::Knight) & ours & !pinned {
        let mut t = knight_attacks(from) & target_mask;
        if RK {
            t = filter.apply(Role::Knight, from, t);
        }
        sink.piece(Role::Knight, from, t);
    }
    let diagonal = board.bishops_and_queens() & ours;
    let orthogonal = board.rooks_and_queens() & ours;
    for from in diagonal | orthogonal {
        let role = board.role_at_occupied(from);
        let mut t = match role {
            Role::Bishop => bishop_attacks(from, occ),
            Role::Rook => rook_attacks(from, occ),
            _ => bishop_attacks(from, occ) | rook_attacks(from, occ),
        } & target_mask;
        if pinned.contains(from) {
            t &= line(ksq, from);
        }
        if RK {
            t = filter.apply(role, from, t);
        }
        sink.piece(role, from, t);
    }

    if RK {
        return;
    }
    gen_pawns(core, ksq, pinned, target_mask, sink);
    gen_en_passant(core, ksq, sink);
    if checkers.is_empty() {
        gen_castling(core, ksq, sink);
    }
}

#[inline(always)]
fn gen_pawns<S: Sink>(
    core: &Core,
    ksq: Square,
    pinned: Bitboard,
    target_mask: Bitboard,
    sink: &mut S,
) {
    let board = &core.board;
    let us = core.turn;
    let pawns = board.by_role(Role::Pawn) & board.by_color(us);
    if pawns.is_empty() {
        return;
    }
    let theirs = board.by_color(!us);
    let empty = !board.occupied();
    let (up, double_rank, last_rank) = match us {
        Color::White => (
            8,
            Bitboard::from_rank(Rank::Third),
            Bitboard::from_rank(Rank::Eighth),
        ),
        Color::Black => (
            -8,
            Bitboard::from_rank(Rank::Sixth),
            Bitboard::from_rank(Rank::First),
        ),
    };
    // Captures towards the a-file (`up - 1`) may not start on the a-file, and vice versa.
    let not_a = !Bitboard::from_file(File::A);
    let not_h = !Bitboard::from_file(File::H);

    let free = pawns & !pinned;
    let single = shift(free, up) & empty;
    let double = shift(single & double_rank, up) & empty & target_mask;
    let single = single & target_mask;
    sink.pawns(single & !last_rank, up, PawnKind::Single);
    sink.pawns(single & last_rank, up, PawnKind::Promotion);
    sink.pawns(double, 2 * up, PawnKind::Double);
    for (origins, delta) in [(free & not_a, up - 1), (free & not_h, up + 1)] {
        let caps = shift(origins, delta) & theirs & target_mask;
        sink.pawns(caps & !last_rank, delta, PawnKind::Single);
        sink.pawns(caps & last_rank, delta, PawnKind::Promotion);
    }

    // A pinned pawn may only move along its pin line (and never while in check, which the
    // target mask already ensures: the pin line and the check line meet only at the king).
    for from in pawns & pinned {
        let pin_line = line(ksq, from);
        let from_bb = Bitboard::from_square(from);
        let push = shift(from_bb, up) & empty;
        let double = shift(push & double_rank, up) & empty & target_mask & pin_line;
        let push = push & target_mask & pin_line;
        let caps = pawn_attacks(us, from) & theirs & target_mask & pin_line;
        for (t, delta) in [
            (push, up),
            (caps & shift(from_bb, up - 1), up - 1),
            (caps & shift(from_bb, up + 1), up + 1),
        ] {
            sink.pawns(t & !last_rank, delta, PawnKind::Single);
            sink.pawns(t & last_rank, delta, PawnKind::Promotion);
        }
        sink.pawns(double, 2 * up, PawnKind::Double);
    }
}

/// En passant captures, each tested by replaying it on the occupancy: that catches the rank
/// attack uncovered when both pawns leave the king's rank, and a capture that removes a checker.
#[inline(always)]
pub(crate) fn gen_en_passant<S: Sink>(core: &Core, ksq: Square, sink: &mut S) {
    let Some(ep) = core.ep_square else { return };
    let board = &core.board;
    let us = core.turn;
    let captured = Square::from_index_unchecked(match us {
        Color::White => ep.index() as u32 - 8,
        Color::Black => ep.index() as u32 + 8,
    });
    let candidates = pawn_attacks(!us, ep) & board.by_role(Role::Pawn) & board.by_color(us);
    for from in candidates {
        let occ = (board.occupied() ^ from ^ captured) | ep;
        let attackers = board.attackers_to(ksq, !us, occ).without(captured);
        if attackers.is_empty() {
            sink.special(Move::new(Role::Pawn, from, ep, MoveKind::EnPassant));
        }
    }
}

#[inline(always)]
fn gen_castling<S: Sink>(core: &Core, ksq: Square, sink: &mut S) {
    let us = core.turn;
    let rights = core.castling & Bitboard::from_rank(us.back_rank());
    if rights.is_empty() {
        return;
    }
    let board = &core.board;
    let occ = board.occupied();
    for rook in rights {
        let (king_to, king_path) = if rook.file() == File::H {
            let to = Square::from_coords(File::G, us.back_rank());
            (
                to,
                Bitboard::from(to) | Square::from_coords(File::F, us.back_rank()),
            )
        } else {
            let to = Square::from_coords(File::C, us.back_rank());
            (
                to,
                Bitboard::from(to) | Square::from_coords(File::D, us.back_rank()),
            )
        };
        if (between(ksq, rook) & occ).any() {
            continue;
        }
        if Iterator::any(&mut king_path.into_iter(), |sq| {
            board.is_attacked(sq, !us, occ)
        }) {
            continue;
        }
        sink.special(Move::new(Role::King, ksq, king_to, MoveKind::Castle));
    }
}
