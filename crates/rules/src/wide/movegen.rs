//! Legal move generation for the wide family: checks and pins are resolved while generating,
//! so every move produced is legal without playing it (en passant and castling excepted,
//! which test the board they would leave). Also perft, and `play` for checked input.
//!
//! The generator writes into a `Sink`, so perft's last ply counts destination sets by
//! popcount instead of listing moves one by one.

use super::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, line, rook_attacks,
    rook_rays,
};
use super::mv::{WideMove, WideMoveKind, WideUci, WideUciError};
use super::position::{Enemy, WidePosition};
use super::role::WideRole;
use super::square::{WideSquare, rank_mask, squares};
use super::variant::Chance;

/// Where generated moves go.
pub(super) trait Sink {
    fn push(&mut self, m: WideMove);

    /// A piece (not a pawn) on `from` moving to each square of `targets`.
    #[inline]
    fn push_targets(&mut self, from: WideSquare, targets: u128) {
        for to in squares(targets) {
            self.push(WideMove::new(from, to, None, WideMoveKind::Normal));
        }
    }

    /// Pawns moving to each square of `targets`, from `delta` squares back, none promoting.
    #[inline]
    fn push_pawns(&mut self, targets: u128, delta: i32, kind: WideMoveKind) {
        for to in squares(targets) {
            let from = WideSquare::at((to.index() as i32 - delta) as u32);
            self.push(WideMove::new(from, to, None, kind));
        }
    }

    /// Chess pawns stepping to `single` (from `up` squares back) and `double` (twice that),
    /// and capturing on `left` and `right` (`up - 1` and `up + 1` back), none promoting.
    #[inline]
    fn push_chess_pawns(&mut self, up: i32, single: u128, double: u128, left: u128, right: u128) {
        self.push_pawns(single, up, WideMoveKind::Normal);
        self.push_pawns(left, up - 1, WideMoveKind::Normal);
        self.push_pawns(right, up + 1, WideMoveKind::Normal);
        self.push_pawns(double, 2 * up, WideMoveKind::DoubleStep);
    }

    /// Drops of `role` from the hand on each square of `targets`.
    #[inline]
    fn push_drops(&mut self, role: WideRole, targets: u128) {
        for to in squares(targets) {
            self.push(WideMove::new(to, to, Some(role), WideMoveKind::Drop));
        }
    }

    /// Whether generation may stop (a move was found and only that was asked).
    fn done(&self) -> bool {
        false
    }
}

impl Sink for Vec<WideMove> {
    #[inline]
    fn push(&mut self, m: WideMove) {
        Vec::push(self, m);
    }
}

/// Counts moves without listing them. `FOLDED`: the board is at most 6 files by 6 ranks (Los
/// Alamos), whose squares above the first 64 (e6 and f6) fold onto g1 and h1, which it lacks,
/// so a set is counted in one 64-bit half.
///
/// Sets of targets are gathered while they share no square and counted together when the
/// next one does (or at the end): the default x86-64 target has no popcount instruction, and
/// one count of two pieces' disjoint targets costs half of two counts.
struct Count<const FOLDED: bool> {
    counted: u64,
    gathered: u128,
}

impl<const FOLDED: bool> Count<FOLDED> {
    fn new() -> Self {
        Count {
            counted: 0,
            gathered: 0,
        }
    }

    /// Every move pushed so far.
    fn total(&self) -> u64 {
        self.counted + Self::bits(self.gathered)
    }

    /// Adds the moves to each square of `targets`.
    #[inline(always)]
    fn gather(&mut self, targets: u128) {
        if self.gathered & targets == 0 {
            self.gathered |= targets;
        } else {
            self.counted += Self::bits(self.gathered);
            self.gathered = targets;
        }
    }

    #[inline(always)]
    fn bits(bb: u128) -> u64 {
        if FOLDED {
            popcount64(bb as u64 | ((bb >> 64) as u64) << 6)
        } else {
            popcount(bb)
        }
    }
}

/// Whether `Count::<true>` counts every set of squares of `board` exactly: nothing above e6
/// and f6 (the 66th square of the numbering), nothing on g1 or h1.
#[inline]
fn foldable(board: u128) -> bool {
    board >> 66 == 0 && board & 0xC0 == 0
}

/// The number of set bits of `bb`, for the folded count.
#[inline(always)]
fn popcount64(x: u64) -> u64 {
    const M1: u64 = 0x5555_5555_5555_5555;
    const M2: u64 = 0x3333_3333_3333_3333;
    const M4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    const H01: u64 = 0x0101_0101_0101_0101;
    let x = x - ((x >> 1) & M1);
    let x = (x & M2) + ((x >> 2) & M2);
    let x = (x + (x >> 4)) & M4;
    x.wrapping_mul(H01) >> 56
}

/// The number of set bits of `bb`. The default x86-64 target has no popcount instruction, and
/// `u128::count_ones` counts each half to the end; here the halves' 4-bit sums are added before
/// the last two steps, which then run once (the counting sink calls this for every piece of
/// every leaf's parent).
#[inline(always)]
pub(super) fn popcount(bb: u128) -> u64 {
    const M1: u64 = 0x5555_5555_5555_5555;
    const M2: u64 = 0x3333_3333_3333_3333;
    const M4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    const H01: u64 = 0x0101_0101_0101_0101;
    let fours = |x: u64| {
        let x = x - ((x >> 1) & M1);
        (x & M2) + ((x >> 2) & M2)
    };
    // Each 4-bit field holds at most 4 per half, so at most 8 in the sum: no carry across.
    let sum = fours(bb as u64) + fours((bb >> 64) as u64);
    let bytes = (sum & M4) + ((sum >> 4) & M4);
    bytes.wrapping_mul(H01) >> 56
}

impl<const FOLDED: bool> Sink for Count<FOLDED> {
    #[inline]
    fn push(&mut self, _: WideMove) {
        self.counted += 1;
    }

    #[inline]
    fn push_targets(&mut self, _: WideSquare, targets: u128) {
        self.gather(targets);
    }

    #[inline]
    fn push_pawns(&mut self, targets: u128, _: i32, _: WideMoveKind) {
        self.gather(targets);
    }

    /// Steps land on empty squares and captures on enemies, a double step's square is never
    /// a single step's (that pawn would stand on the square it skips), so only the two
    /// captures can share a square: one popcount for all four sets where they do not.
    #[inline]
    fn push_chess_pawns(&mut self, _: i32, single: u128, double: u128, left: u128, right: u128) {
        let both = left & right;
        self.gather(single | double | left | right);
        if both != 0 {
            self.counted += Self::bits(both);
        }
    }

    #[inline]
    fn push_drops(&mut self, _: WideRole, targets: u128) {
        self.gather(targets);
    }
}

/// Stops at the first move.
struct Any(bool);

impl Sink for Any {
    fn push(&mut self, _: WideMove) {
        self.0 = true;
    }

    fn push_targets(&mut self, _: WideSquare, targets: u128) {
        self.0 |= targets != 0;
    }

    fn push_pawns(&mut self, targets: u128, _: i32, _: WideMoveKind) {
        self.0 |= targets != 0;
    }

    fn push_chess_pawns(&mut self, _: i32, single: u128, double: u128, left: u128, right: u128) {
        self.0 |= single | double | left | right != 0;
    }

    fn push_drops(&mut self, _: WideRole, targets: u128) {
        self.0 |= targets != 0;
    }

    fn done(&self) -> bool {
        self.0
    }
}

/// Shifts a bitboard by `delta` squares of the shared numbering, up if positive.
#[inline(always)]
pub(super) fn shift(bb: u128, delta: i32) -> u128 {
    if delta >= 0 {
        bb << delta
    } else {
        bb >> -delta
    }
}

/// The a-file and the last file of the numbering, which pawns may not capture off.
pub(super) const FILE_A: u128 = {
    let mut bb = 0u128;
    let mut rank = 0;
    while rank < 10 {
        bb |= 1 << (rank * 12);
        rank += 1;
    }
    bb
};
pub(super) const FILE_L: u128 = FILE_A << 11;

/// What `generate` knows about the board once check and pins are resolved.
struct Board {
    ours: u128,
    occupied: u128,
    /// The squares a piece may move to: not our own, and out of a single check.
    target: u128,
    pinned: u128,
    king: Option<WideSquare>,
    royal: Option<WideRole>,
}

impl WidePosition {
    /// Every legal move.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<WideMove> {
        if self.def.targets {
            return self.turns();
        }
        let mut moves = Vec::with_capacity(96);
        self.generate(&mut moves);
        moves
    }

    /// Every legal move, into `moves` (cleared first): lets a search reuse one buffer.
    pub fn legal_moves_into(&self, moves: &mut Vec<WideMove>) {
        moves.clear();
        if self.def.targets {
            moves.extend(self.turns());
            return;
        }
        self.generate(moves);
    }

    /// How many legal moves there are, without listing them.
    #[must_use]
    pub fn count_legal_moves(&self) -> u64 {
        if self.def.targets {
            return self.turns().len() as u64;
        }
        // The service counts the replies after every move: the 8x8 generator counts its sets
        // by popcount where the wide sink, fed move by move, would count each.
        if self.is_narrow()
            && let Some(count) = self.narrow_perft(1)
        {
            return count;
        }
        if foldable(self.def.board) {
            let mut count = Count::<true>::new();
            self.generate(&mut count);
            count.total()
        } else {
            let mut count = Count::<false>::new();
            self.generate(&mut count);
            count.total()
        }
    }

    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        if self.def.targets {
            return !self.turns().is_empty();
        }
        let mut any = Any(false);
        self.generate(&mut any);
        any.0
    }

    /// Plays the move `uci` names if it is legal here; the position is unchanged otherwise.
    pub fn play(&mut self, uci: &str) -> Result<WideMove, WideUciError> {
        let m = uci.parse::<WideUci>()?.to_move(self)?;
        self.play_unchecked(m);
        Ok(m)
    }

    /// The number of leaf nodes `depth` plies down (the last ply counted, not played). In the
    /// games of chance, every draw the server could make between the moves counts as a branch
    /// (`chance_perft`).
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        // Tested at the root only: the 8x8 generator's perft plays on down by itself.
        if self.is_narrow()
            && let Some(count) = self.narrow_perft(depth)
        {
            return count;
        }
        self.perft_wide(depth)
    }

    /// `perft` on the wide position.
    fn perft_wide(&self, depth: u32) -> u64 {
        if self.def.chance != Chance::None {
            return self.chance_perft(depth);
        }
        if self.def.targets {
            return match depth {
                0 => 1,
                _ => self
                    .turns()
                    .into_iter()
                    .map(|m| {
                        let mut child = *self;
                        child.play_turn(m);
                        child.perft_wide(depth - 1)
                    })
                    .sum(),
            };
        }
        match depth {
            0 => 1,
            1 => self.count_legal_moves(),
            2 if self.counts_by_difference() => self.perft_by_difference(),
            _ => {
                let mut moves = Vec::with_capacity(96);
                self.generate(&mut moves);
                moves
                    .into_iter()
                    .map(|m| {
                        let mut child = *self;
                        child.play_unchecked(m);
                        child.perft_wide(depth - 1)
                    })
                    .sum()
            }
        }
    }

    /// Each legal move with its perft count below (as Fairy-Stockfish's `go perft` lists it).
    #[must_use]
    pub fn divide(&self, depth: u32) -> Vec<(WideUci, u64)> {
        self.legal_moves()
            .into_iter()
            .map(|m| {
                let mut child = *self;
                child.play_unchecked(m);
                (m.to_uci(self), child.perft(depth.saturating_sub(1)))
            })
            .collect()
    }

    /// The squares a piece of `role` on `from` attacks when the board holds `occupied`.
    /// Always inlined: with `role` a constant of the generator's unrolled loop, the movement
    /// tests fold away and each role costs what its own lookups cost.
    #[inline(always)]
    fn piece_attacks(role: WideRole, from: WideSquare, occupied: u128) -> u128 {
        let movement = role.movement();
        let mut attacks = 0;
        if movement.knight {
            attacks |= knight_attacks(from);
        }
        if movement.step {
            attacks |= king_attacks(from);
        }
        if movement.orthogonal {
            attacks |= rook_attacks(from, occupied);
        }
        if movement.diagonal {
            attacks |= bishop_attacks(from, occupied);
        }
        attacks
    }

    /// The games that bend chess on its own board take the 8x8 generator (`narrow`); the
    /// test stays out of the shared generator's body, whose code it would otherwise change
    /// for every other game.
    #[inline(always)]
    pub(super) fn generate<S: Sink>(&self, sink: &mut S) {
        if self.is_narrow() {
            self.narrow_generate(sink);
        } else if self.def.chance != Chance::None {
            self.chance_generate(sink);
        } else {
            self.generate_shared(sink);
        }
    }

    /// The games of chance: the shared generator's moves, then what the chance allows of
    /// them (Dice: only the rolled face's, none before the roll; Behemoth: none while its
    /// step is awaited).
    #[inline(never)]
    fn chance_generate<S: Sink>(&self, sink: &mut S) {
        if self.def.chance == Chance::Behemoth {
            if !self.step_pending {
                self.generate_shared(sink);
            }
            return;
        }
        let Some(face) = self.roll else {
            return;
        };
        let mut all = Vec::with_capacity(64);
        self.generate_shared(&mut all);
        for m in all.into_iter().filter(|m| self.on_face(*m, face)) {
            sink.push(m);
            if sink.done() {
                return;
            }
        }
    }

    /// Every move the board allows, whatever the chance (Dice: the die not consulted).
    pub(crate) fn moves_before_chance(&self) -> Vec<WideMove> {
        let mut all = Vec::with_capacity(64);
        self.generate_shared(&mut all);
        all
    }

    fn generate_shared<S: Sink>(&self, sink: &mut S) {
        let us = self.turn;
        let them = !us;
        let ours = self.colors[us.index()];
        let occupied = self.occupied();
        // Extinction: a side without one of its piece types has lost, and the game has no
        // move left (as Fairy-Stockfish generates none).
        if self.extinct {
            return;
        }
        let royal = self.def.royal[us.index()];
        // What a capture may land on, and which of our own pieces no move may: Recycle Chess
        // captures any piece but our king.
        let (kept, prey) = if self.def.self_capture {
            (ours & self.roles[WideRole::King.index()], occupied)
        } else {
            (ours, self.colors[them.index()])
        };
        // Massacre: only captures are moves.
        let mut target = self.def.board
            & !kept
            & !self.behemoth
            & if self.def.must_capture {
                self.colors[them.index()]
            } else {
                u128::MAX
            };
        let (mut checkers, mut pinned, mut king) = (0, 0, None);
        if let Some(role) = royal {
            let from = self.king(us);
            king = Some(from);
            let enemy = self.enemy(them);
            (checkers, pinned) = self.checks_and_pins(from, occupied, &enemy);
            let without_king = occupied ^ from.bit();
            // The king's own steps need no slider lookup; a royal slider (the maharajah) or
            // leaper (Knightmate's knight) takes its own movement.
            let reach = if role == WideRole::King {
                king_attacks(from)
            } else {
                Self::piece_attacks(role, from, occupied)
            };
            for to in squares(reach & target) {
                if !self.is_attacked_by(to, without_king, &enemy) {
                    sink.push(WideMove::new(from, to, None, WideMoveKind::Normal));
                }
            }
            if checkers & checkers.wrapping_sub(1) != 0 || sink.done() {
                return;
            }
            // Out of a single check: capture the checker or block its line.
            if checkers != 0 {
                target &= checkers | between(from, WideSquare::at(checkers.trailing_zeros()));
            }
        }

        // One call per role, each inlined with its role a constant, so every role's code is
        // only its own lookups (the compiler does not unroll a loop over the roles).
        let at = Board {
            ours,
            occupied,
            target,
            pinned,
            king,
            royal,
        };
        self.piece_moves(sink, WideRole::Knight, &at);
        self.piece_moves(sink, WideRole::Bishop, &at);
        self.piece_moves(sink, WideRole::Rook, &at);
        self.piece_moves(sink, WideRole::Queen, &at);
        self.piece_moves(sink, WideRole::Archbishop, &at);
        self.piece_moves(sink, WideRole::Chancellor, &at);
        self.piece_moves(sink, WideRole::Amazon, &at);
        self.piece_moves(sink, WideRole::King, &at);
        if sink.done() {
            return;
        }

        let pawns = self.roles[WideRole::Pawn.index()] & ours;
        self.pawn_moves(sink, pawns & !pinned, target, occupied, prey);
        if let Some(king) = king
            && pawns & pinned != 0
        {
            for pawn in squares(pawns & pinned) {
                self.pawn_moves(sink, pawn.bit(), target & line(king, pawn), occupied, prey);
            }
        }
        if let Some(ep) = self.ep {
            self.en_passant(sink, ep, king, occupied);
        }
        if checkers == 0 && !self.def.must_capture {
            self.castling(sink, king.is_some(), occupied);
        }
        if self.def.drops {
            // A drop lands on an empty square: out of a single check, only between the king
            // and a sliding checker.
            self.drops(sink, target & !occupied);
        }
    }

    /// Loop Chess: every piece of the hand on every square of `targets`, pawns never on the
    /// first or last rank.
    fn drops<S: Sink>(&self, sink: &mut S, targets: u128) {
        let hand = &self.hands[self.turn.index()];
        let edges = rank_mask(0) | rank_mask(self.def.height - 1);
        for role in [
            WideRole::Pawn,
            WideRole::Knight,
            WideRole::Bishop,
            WideRole::Rook,
            WideRole::Queen,
        ] {
            if hand[role.index()] > 0 {
                let to = if role == WideRole::Pawn {
                    targets & !edges
                } else {
                    targets
                };
                sink.push_drops(role, to);
            }
        }
    }

    /// The moves of our pieces of `role` (none if it is our royal role, whose moves are the
    /// king's part of `generate`).
    #[inline(always)]
    fn piece_moves<S: Sink>(&self, sink: &mut S, role: WideRole, at: &Board) {
        if Some(role) == at.royal {
            return;
        }
        let pieces = self.roles[role.index()] & at.ours;
        // Most roles are absent from most games: one 128-bit test here is cheaper than
        // starting the two-halves walk of `squares` on nothing.
        if pieces == 0 {
            return;
        }
        for from in squares(pieces) {
            let mut to = Self::piece_attacks(role, from, at.occupied) & at.target;
            // Most positions pin nothing (and a side without royalty never has a pin): test the
            // set before building the piece's 128-bit mask, a shift with a branch on x86-64.
            if at.pinned != 0
                && at.pinned & from.bit() != 0
                && let Some(king) = at.king
            {
                to &= line(king, from);
            }
            sink.push_targets(from, to);
        }
    }

    /// The pieces of `enemy` checking our king on `king`, and our pieces that stand alone
    /// between it and an enemy slider's line to it. One walk over the sliders on the king's
    /// empty-board lines answers both: the squares between each and the king hold nothing
    /// (a check) or one piece (a pin, if ours), where a slider lookup per line from the king
    /// would cost more than the few sliders most positions have there.
    #[inline]
    fn checks_and_pins(&self, king: WideSquare, occupied: u128, enemy: &Enemy) -> (u128, u128) {
        let mut checkers = (knight_attacks(king) & enemy.knights)
            | (king_attacks(king) & enemy.kings)
            | (self.def.pawn_captures[(!enemy.by).index()][king.index()] & enemy.pawns);
        let snipers = (rook_rays(king) & enemy.orthogonal) | (bishop_rays(king) & enemy.diagonal);
        let mut pinned = 0;
        for sniper in squares(snipers) {
            let blockers = between(king, sniper) & occupied;
            if blockers == 0 {
                checkers |= sniper.bit();
            } else if blockers & blockers.wrapping_sub(1) == 0 {
                pinned |= blockers;
            }
        }
        (checkers, pinned & self.colors[self.turn.index()])
    }

    /// Castling: the squares both pieces cross or land on are empty (but for the two of
    /// them), and, where the side has check (`checked`), no square the king crosses or lands
    /// on is attacked once both have left.
    fn castling<S: Sink>(&self, sink: &mut S, checked: bool, occupied: u128) {
        let them = !self.turn;
        if self.castles[self.turn.index()] == [None; 2] {
            return;
        }
        let Some(king) = self.castling_king(self.turn) else {
            return;
        };
        for rook in self.castles[self.turn.index()].into_iter().flatten() {
            // Every square between king and rook lies on the path of one or the other (each
            // game's king lands beside its rook, on the rook's far side), so a piece there
            // refuses the right before its squares are worked out: the usual case while the
            // pieces stand at home.
            if between(king, rook) & occupied != 0 {
                continue;
            }
            let (king_to, rook_to) = self.castling_targets(king, rook);
            let king_path = between(king, king_to) | king_to.bit();
            let rook_path = between(rook, rook_to) | rook_to.bit();
            let without = occupied ^ king.bit() ^ rook.bit();
            if (king_path | rook_path) & without != 0 {
                continue;
            }
            if !checked || squares(king_path).all(|sq| !self.is_attacked(sq, without, them)) {
                sink.push(WideMove::new(king, rook, None, WideMoveKind::Castle));
            }
        }
    }
}
