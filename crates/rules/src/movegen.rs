//! Move generation on bitboards, shared by every variant.
//!
//! The legal generator computes checkers and pins once, then emits whole target sets per piece
//! into a [`Sink`] (`sink.rs`: a move list, or a counter that makes perft's last ply a handful
//! of popcounts). A [`Flavor`] switches
//! the variant differences at compile time: Racing Kings passes a [`MoveFilter`] (its no-check
//! rule as per-role target masks and discovered-check lines, built in `racingkings.rs`) and
//! skips pawns, castling and en passant; Horde lets the side without a king move freely, its
//! pawns double-stepping from the first rank. Antichess and atomic build their own generators
//! from the pieces here (`gen_pieces`, `gen_pawns`, `gen_castling`, the en passant capturers).

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::core::{CastlingMode, Core};
use crate::sink::{Counter, PawnKind, Sink};
use crate::{Bitboard, Color, File, Move, MoveKind, Rank, Role, Square};

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
    /// No restriction (every variant but Racing Kings).
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

/// The variant differences the legal generator switches at compile time.
pub(crate) trait Flavor {
    /// Racing Kings: `filter` removes the moves that would give check; no pawns, castling or
    /// en passant exist, and no king is ever in check.
    const RACING: bool = false;
    /// Horde: the side to move may have no king; then every pseudo-legal move is legal and
    /// pawns on the first rank may double-step.
    const HORDE: bool = false;
}

/// Standard chess and the variants that move like it.
pub(crate) struct Standard;
impl Flavor for Standard {}

pub(crate) struct Racing;
impl Flavor for Racing {
    const RACING: bool = true;
}

pub(crate) struct HordeFlavor;
impl Flavor for HordeFlavor {
    const HORDE: bool = true;
}

/// The en passant square of `core` if a legal en passant capture exists (FEN and repetition
/// use this: a square nobody can capture on does not make a position different). The side to
/// move has a king.
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

/// Generates every legal move of `core` into `sink` under flavor `F`, and returns the squares
/// a piece may go to or be dropped on to answer a check (every square not ours when not in
/// check; none in double check).
#[inline(always)]
pub(crate) fn generate<F: Flavor, S: Sink>(
    core: &Core,
    filter: &MoveFilter,
    sink: &mut S,
) -> Bitboard {
    let board = &core.board;
    let us = core.turn;
    let them = !us;
    let ours = board.by_color(us);
    let occ = board.occupied();
    let kings = board.by_role(Role::King) & ours;
    if F::HORDE && kings.is_empty() {
        gen_pieces::<Standard, S>(core, Square::A1, Bitboard::EMPTY, !ours, NO_FILTER, sink);
        let (none, all) = (Bitboard::EMPTY, Bitboard::FULL);
        gen_pawns(
            core,
            Square::A1,
            none,
            all,
            all,
            true,
            PawnKind::Promotion,
            sink,
        );
        let ep = ep_capturers(core);
        gen_ep_moves(core, ep, sink);
        return !ours;
    }
    let ksq = kings.lsb_unchecked();

    // Racing Kings positions never have a king in check: the generator never emits a checking
    // move and setups with a check are rejected, so the checker scan is skipped there.
    let checkers = if F::RACING {
        Bitboard::EMPTY
    } else {
        board.attackers_to(ksq, them, occ)
    };

    let mut king_targets = king_attacks(ksq) & !ours;
    if F::RACING {
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
        return Bitboard::EMPTY;
    }
    let target_mask = match checkers.first() {
        Some(checker) => (between(ksq, checker) | checkers) & !ours,
        None => !ours,
    };
    let pinned = blockers(core, ksq, them) & ours;
    gen_pieces::<F, S>(core, ksq, pinned, target_mask, filter, sink);
    if F::RACING {
        return target_mask;
    }
    let promotion = PawnKind::Promotion;
    gen_pawns(
        core,
        ksq,
        pinned,
        target_mask,
        target_mask,
        false,
        promotion,
        sink,
    );
    gen_en_passant(core, ksq, sink);
    if checkers.is_empty() {
        gen_castling(core, ksq, Bitboard::EMPTY, sink);
    }
    target_mask
}

/// Knight, bishop, rook and queen moves to `targets`; a piece in `pinned` stays on its line
/// to `ksq` (pass no pins where kings do not matter).
#[inline(always)]
pub(crate) fn gen_pieces<F: Flavor, S: Sink>(
    core: &Core,
    ksq: Square,
    pinned: Bitboard,
    targets: Bitboard,
    filter: &MoveFilter,
    sink: &mut S,
) {
    let board = &core.board;
    let ours = board.by_color(core.turn);
    let occ = board.occupied();
    for from in board.by_role(Role::Knight) & ours & !pinned {
        let mut t = knight_attacks(from) & targets;
        if F::RACING {
            t = filter.apply(Role::Knight, from, t);
        }
        sink.piece(Role::Knight, from, t);
    }
    // One loop per slider role rather than one over all sliders asking each its role: the
    // role test was a chain of hard-to-predict branches on every generated node.
    let pins = Pins { ksq, pinned };
    for from in board.by_role(Role::Bishop) & ours {
        let t = bishop_attacks(from, occ) & targets;
        slider::<F, S>(Role::Bishop, from, t, pins, filter, sink);
    }
    for from in board.by_role(Role::Rook) & ours {
        let t = rook_attacks(from, occ) & targets;
        slider::<F, S>(Role::Rook, from, t, pins, filter, sink);
    }
    for from in board.by_role(Role::Queen) & ours {
        let t = (bishop_attacks(from, occ) | rook_attacks(from, occ)) & targets;
        slider::<F, S>(Role::Queen, from, t, pins, filter, sink);
    }
}

/// Our king and the pieces pinned to it.
#[derive(Clone, Copy)]
struct Pins {
    ksq: Square,
    pinned: Bitboard,
}

/// The moves of the slider of `role` on `from` to `targets`, kept on its pin line if pinned
/// and, in Racing Kings, off the squares that would give check.
#[inline(always)]
fn slider<F: Flavor, S: Sink>(
    role: Role,
    from: Square,
    mut targets: Bitboard,
    pins: Pins,
    filter: &MoveFilter,
    sink: &mut S,
) {
    if pins.pinned.contains(from) {
        targets &= line(pins.ksq, from);
    }
    if F::RACING {
        targets = filter.apply(role, from, targets);
    }
    sink.piece(role, from, targets);
}

/// Pawn pushes to `pushes` and captures to `captures` (each also limited to empty squares or
/// enemy pieces), promotions expanded as `promotion` says ([`PawnKind::Promotion`], or
/// [`PawnKind::PromotionWithKing`] in antichess); pinned pawns stay on their line to `ksq`.
/// With `first_rank`, pawns on their first rank may double-step too (horde).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn gen_pawns<S: Sink>(
    core: &Core,
    ksq: Square,
    pinned: Bitboard,
    pushes: Bitboard,
    captures: Bitboard,
    first_rank: bool,
    promotion: PawnKind,
    sink: &mut S,
) {
    let board = &core.board;
    let us = core.turn;
    let pawns = board.by_role(Role::Pawn) & board.by_color(us);
    if pawns.is_empty() {
        return;
    }
    let theirs = board.by_color(!us) & captures;
    let empty = !board.occupied();
    let (up, first, double_rank, last_rank) = match us {
        Color::White => (8, Rank::First, Rank::Third, Rank::Eighth),
        Color::Black => (-8, Rank::Eighth, Rank::Sixth, Rank::First),
    };
    let double_rank = Bitboard::from_rank(double_rank);
    let last_rank = Bitboard::from_rank(last_rank);
    // Captures towards the a-file (`up - 1`) may not start on the a-file, and vice versa.
    let not_a = !Bitboard::from_file(File::A);
    let not_h = !Bitboard::from_file(File::H);

    let free = pawns & !pinned;
    let single = shift(free, up) & empty;
    let double = shift(single & double_rank, up) & empty & pushes;
    if first_rank {
        let from_first = shift(free & Bitboard::from_rank(first), up) & empty;
        sink.pawns(
            shift(from_first, up) & empty & pushes,
            2 * up,
            PawnKind::Single,
        );
    }
    let single = single & pushes;
    sink.pawns(single & !last_rank, up, PawnKind::Single);
    sink.pawns(single & last_rank, up, promotion);
    sink.pawns(double, 2 * up, PawnKind::Double);
    for (origins, delta) in [(free & not_a, up - 1), (free & not_h, up + 1)] {
        let caps = shift(origins, delta) & theirs;
        sink.pawns(caps & !last_rank, delta, PawnKind::Single);
        sink.pawns(caps & last_rank, delta, promotion);
    }

    // A pinned pawn may only move along its pin line (and never while in check, which the
    // target masks already ensure: the pin line and the check line meet only at the king).
    for from in pawns & pinned {
        let pin_line = line(ksq, from);
        let from_bb = Bitboard::from_square(from);
        let push = shift(from_bb, up) & empty;
        let double = shift(push & double_rank, up) & empty & pushes & pin_line;
        let push = push & pushes & pin_line;
        let caps = pawn_attacks(us, from) & theirs & pin_line;
        for (t, delta) in [
            (push, up),
            (caps & shift(from_bb, up - 1), up - 1),
            (caps & shift(from_bb, up + 1), up + 1),
        ] {
            sink.pawns(t & !last_rank, delta, PawnKind::Single);
            sink.pawns(t & last_rank, delta, promotion);
        }
        sink.pawns(double, 2 * up, PawnKind::Double);
    }
}

/// Our pawns that attack the en passant square (captures that are at least pseudo-legal).
#[inline(always)]
pub(crate) fn ep_capturers(core: &Core) -> Bitboard {
    match core.ep_square {
        Some(ep) => {
            let board = &core.board;
            pawn_attacks(!core.turn, ep) & board.by_role(Role::Pawn) & board.by_color(core.turn)
        }
        None => Bitboard::EMPTY,
    }
}

/// The pawn an en passant capture on `ep` takes, when `us` captures.
#[inline(always)]
pub(crate) fn ep_victim(us: Color, ep: Square) -> Square {
    Square::from_index_unchecked(match us {
        Color::White => ep.index() as u32 - 8,
        Color::Black => ep.index() as u32 + 8,
    })
}

/// En passant captures by each pawn of `capturers` (no king safety: antichess, horde).
#[inline(always)]
pub(crate) fn gen_ep_moves<S: Sink>(core: &Core, capturers: Bitboard, sink: &mut S) {
    if let Some(ep) = core.ep_square {
        for from in capturers {
            sink.special(Move::new(Role::Pawn, from, ep, MoveKind::EnPassant));
        }
    }
}

/// En passant captures, each tested by replaying it on the occupancy: that catches the rank
/// attack uncovered when both pawns leave the king's rank, and a capture that removes a checker.
#[inline(always)]
pub(crate) fn gen_en_passant<S: Sink>(core: &Core, ksq: Square, sink: &mut S) {
    let Some(ep) = core.ep_square else { return };
    let board = &core.board;
    let us = core.turn;
    let captured = ep_victim(us, ep);
    for from in ep_capturers(core) {
        let occ = (board.occupied() ^ from ^ captured) | ep;
        let attackers = board.attackers_to(ksq, !us, occ).without(captured);
        if attackers.is_empty() {
            sink.special(Move::new(Role::Pawn, from, ep, MoveKind::EnPassant));
        }
    }
}

/// Castling with each rook that has a right, under the position's castling rules: the squares
/// both pieces cross and land on are empty but for the two, and no square the king crosses or
/// lands on is attacked (squares in `exempt` are not asked: atomic's next to the enemy king).
/// The caller has checked that the king is not in check.
#[inline(always)]
pub(crate) fn gen_castling<S: Sink>(core: &Core, ksq: Square, exempt: Bitboard, sink: &mut S) {
    let us = core.turn;
    let rights = core.castling & Bitboard::from_rank(us.back_rank());
    if rights.is_empty() {
        return;
    }
    let board = &core.board;
    let occ = board.occupied();
    if core.mode == CastlingMode::Standard && exempt.is_empty() {
        // King on e1/e8, rooks in the corners: the king passes the two squares next to it.
        let rank = us.back_rank();
        for rook in rights {
            let (king_to, king_path) = if rook.file() == File::H {
                let to = Square::from_coords(File::G, rank);
                (to, Bitboard::from(to) | Square::from_coords(File::F, rank))
            } else {
                let to = Square::from_coords(File::C, rank);
                (to, Bitboard::from(to) | Square::from_coords(File::D, rank))
            };
            if (between(ksq, rook) & occ).any() || attacked(core, king_path, occ) {
                continue;
            }
            sink.special(Move::new(Role::King, ksq, king_to, MoveKind::Castle));
        }
        return;
    }
    for rook in rights {
        let probe = Move::new(Role::King, ksq, rook, MoveKind::Castle);
        let (king_to, rook_to) = (probe.castling_king_to(), probe.castling_rook_to());
        let others = occ ^ ksq ^ rook;
        let crossed = between(ksq, king_to);
        let path = crossed | king_to | between(rook, rook_to) | rook_to;
        if (others & path).any() {
            continue;
        }
        if attacked(core, crossed & !exempt, occ ^ ksq) {
            continue;
        }
        if !exempt.contains(king_to) && board.is_attacked(king_to, !us, others | rook_to) {
            continue;
        }
        let to = match core.mode {
            CastlingMode::Standard => king_to,
            CastlingMode::Chess960 => rook,
        };
        sink.special(Move::new(Role::King, ksq, to, MoveKind::Castle));
    }
}

/// True if the opponent of the side to move attacks any of `squares` through `occupied`.
/// A plain loop: `Iterator::any` over a bitboard was left out of line in the hot path.
#[inline(always)]
fn attacked(core: &Core, squares: Bitboard, occupied: Bitboard) -> bool {
    for sq in squares {
        if core.board.is_attacked(sq, !core.turn, occupied) {
            return true;
        }
    }
    false
}
