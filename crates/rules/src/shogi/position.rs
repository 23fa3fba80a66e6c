//! `ShogiPosition`: a position of the shogi family (board, hands, side to move, clocks) and
//! playing a move on it. Copy-make: a position is plain data, so the generator copies it to
//! try a move and nothing is ever undone.
//!
//! GAMES.md: "a captured piece changes side and goes to the captor's hand **unpromoted**".
//! The clocks follow Fairy-Stockfish's FEN: the half-move count restarts at a capture, a drop
//! or a promotion, the move number rises after gote's move.

use super::attacks::{self, GOLD, KING, KNIGHT, PAWN, SILVER};
use super::mv::ShogiMove;
use super::role::{HAND_ROLES, ROLES, ShogiPiece, ShogiRole};
use super::square::{SQUARES, ShogiSquare};
use super::variant::ShogiVariant;
use crate::Color;

/// A position. Two positions are equal when every field is, clocks included; the repetition
/// rules compare [`ShogiPosition::repetition_key`]s instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShogiPosition {
    pub(crate) variant: ShogiVariant,
    /// Each square's [`ShogiPiece::code`], 0 when empty: what a capture takes.
    pub(crate) board: [u8; SQUARES],
    pub(crate) roles: [u128; ROLES],
    pub(crate) colors: [u128; 2],
    /// Pieces in hand by [`ShogiRole::index`] (pawn to rook), per side.
    pub(crate) hands: [[u8; HAND_ROLES]; 2],
    pub(crate) turn: Color,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
}

impl ShogiPosition {
    /// The game's start position.
    #[must_use]
    pub fn new(variant: ShogiVariant) -> ShogiPosition {
        // Built once: an unplayed game reads its position from its start on every call. The
        // start FENs are constants that the tests read back.
        static STARTS: std::sync::LazyLock<[ShogiPosition; ShogiVariant::ALL.len()]> =
            std::sync::LazyLock::new(|| {
                ShogiVariant::ALL.map(|variant| {
                    ShogiPosition::from_fen(variant, variant.start_fen())
                        .unwrap_or_else(|_| ShogiPosition::empty(variant))
                })
            });
        let index = ShogiVariant::ALL
            .iter()
            .position(|&v| v == variant)
            .unwrap_or(0);
        STARTS[index]
    }

    pub(crate) fn empty(variant: ShogiVariant) -> ShogiPosition {
        ShogiPosition {
            variant,
            board: [0; SQUARES],
            roles: [0; ROLES],
            colors: [0; 2],
            hands: [[0; HAND_ROLES]; 2],
            turn: Color::White,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    #[must_use]
    pub const fn variant(&self) -> ShogiVariant {
        self.variant
    }

    /// The side to move (White is sente).
    #[must_use]
    pub const fn turn(&self) -> Color {
        self.turn
    }

    #[must_use]
    pub const fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    #[must_use]
    pub const fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    #[must_use]
    pub fn piece_at(&self, sq: ShogiSquare) -> Option<ShogiPiece> {
        ShogiPiece::from_code(self.board[sq.index()])
    }

    /// How many pieces of `role`'s unpromoted kind `color` holds in hand (0 for a king).
    #[must_use]
    pub fn in_hand(&self, color: Color, role: ShogiRole) -> u8 {
        self.hands[color.index()]
            .get(role.unpromoted().index())
            .copied()
            .unwrap_or(0)
    }

    /// The squares `color`'s pieces of `role` stand on.
    #[must_use]
    pub const fn pieces(&self, color: Color, role: ShogiRole) -> u128 {
        self.roles[role as usize] & self.colors[color.index()]
    }

    #[must_use]
    pub const fn occupied(&self) -> u128 {
        self.colors[0] | self.colors[1]
    }

    pub(crate) fn put(&mut self, sq: usize, piece: ShogiPiece) {
        self.board[sq] = piece.code();
        self.roles[piece.role.index()] |= 1 << sq;
        self.colors[piece.color.index()] |= 1 << sq;
    }

    /// `color`'s king, if it has one (a validated position has exactly one).
    #[must_use]
    pub fn king(&self, color: Color) -> Option<ShogiSquare> {
        let kings = self.pieces(color, ShogiRole::King);
        (kings != 0).then(|| ShogiSquare::at(kings.trailing_zeros()))
    }

    #[inline]
    pub(crate) fn king_index(&self, color: Color) -> usize {
        self.pieces(color, ShogiRole::King).trailing_zeros() as usize
    }

    /// Pieces that step as a gold: the gold and the four promoted minor pieces.
    #[inline]
    pub(crate) fn gold_movers(&self) -> u128 {
        self.roles[ShogiRole::Gold as usize]
            | self.roles[ShogiRole::ProPawn as usize]
            | self.roles[ShogiRole::ProLance as usize]
            | self.roles[ShogiRole::ProKnight as usize]
            | self.roles[ShogiRole::ProSilver as usize]
    }

    /// `by`'s pieces grouped by how they attack, for the attack tests below.
    #[inline]
    pub(crate) fn threats(&self, by: Color) -> Threats {
        let r = &self.roles;
        let theirs = self.colors[by.index()];
        Threats {
            me: (!by).index(),
            by,
            pawns: r[ShogiRole::Pawn as usize] & theirs,
            knights: r[ShogiRole::Knight as usize] & theirs,
            silvers: r[ShogiRole::Silver as usize] & theirs,
            golds: self.gold_movers() & theirs,
            kings: (r[ShogiRole::King as usize]
                | r[ShogiRole::Horse as usize]
                | r[ShogiRole::Dragon as usize])
                & theirs,
            rooks: (r[ShogiRole::Rook as usize] | r[ShogiRole::Dragon as usize]) & theirs,
            bishops: (r[ShogiRole::Bishop as usize] | r[ShogiRole::Horse as usize]) & theirs,
            lances: r[ShogiRole::Lance as usize] & theirs,
        }
    }

    /// `by`'s pieces that attack `sq` with `occ` occupied (walls included).
    #[inline]
    pub(crate) fn attackers(&self, sq: usize, by: Color, occ: u128) -> u128 {
        self.threats(by).attackers(sq, occ)
    }

    /// Whether `by` attacks `sq` with `occ` occupied.
    #[inline]
    pub(crate) fn is_attacked(&self, sq: usize, by: Color, occ: u128) -> bool {
        self.threats(by).attacks(sq, occ)
    }

    /// The pieces giving check to the side to move.
    #[must_use]
    pub fn checkers(&self) -> u128 {
        let us = self.turn;
        let occ = self.occupied() | self.variant.walls();
        self.attackers(self.king_index(us), !us, occ)
    }

    #[must_use]
    pub fn is_check(&self) -> bool {
        self.checkers() != 0
    }

    /// Plays `m`, which must be legal (or at least a move of the side to move's piece, or a
    /// drop of a piece it holds): the generator's and the record's fast path.
    pub fn play_unchecked(&mut self, m: ShogiMove) {
        let us = self.turn;
        let to = m.to().index();
        let to_bit = 1u128 << to;
        match m.from() {
            None => {
                let role = m.origin() - SQUARES;
                // A king "drop" (a hand-built move, never a generated one) changes nothing.
                let Some(hand) = self.hands[us.index()].get_mut(role) else {
                    return;
                };
                *hand = hand.saturating_sub(1);
                self.put(
                    to,
                    ShogiPiece {
                        color: us,
                        role: ShogiRole::from_index(role),
                    },
                );
                self.halfmoves = 0;
            }
            Some(from) => {
                let from = from.index();
                let Some(piece) = ShogiPiece::from_code(self.board[from]) else {
                    return;
                };
                if let Some(taken) = ShogiPiece::from_code(self.board[to]) {
                    self.roles[taken.role.index()] ^= to_bit;
                    self.colors[taken.color.index()] ^= to_bit;
                    let back = taken.role.unpromoted().index();
                    if let Some(n) = self.hands[us.index()].get_mut(back) {
                        *n += 1;
                    }
                    self.halfmoves = 0;
                } else {
                    self.halfmoves += 1;
                }
                let from_bit = 1u128 << from;
                self.roles[piece.role.index()] ^= from_bit;
                self.colors[us.index()] ^= from_bit;
                self.board[from] = 0;
                let role = match (m.is_promotion(), piece.role.promoted()) {
                    (true, Some(promoted)) => {
                        self.halfmoves = 0;
                        promoted
                    }
                    _ => piece.role,
                };
                self.put(to, ShogiPiece { color: us, role });
            }
        }
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = !us;
    }

    /// Plays `text` (FSF's `c3c4` or USI's `7g7f`) if it is a legal move; the position is
    /// unchanged otherwise.
    pub fn play(&mut self, text: &str) -> Result<ShogiMove, crate::PlayError> {
        let m = ShogiMove::parse_any(text.trim(), self.variant)
            .map_err(|e| crate::PlayError::Malformed(format!("{text:?}: {e}")))?;
        if !self.legal_moves().contains(&m) {
            return Err(crate::PlayError::Illegal(format!(
                "{m} in this {} position",
                self.variant
            )));
        }
        self.play_unchecked(m);
        Ok(m)
    }
}

/// One side's pieces grouped by how they attack: gold-movers together, pieces with a king's
/// step (king, horse, dragon) together, rook and bishop lines with their promotions. Every step
/// table is symmetric: a piece of `by` on X reaches `sq` when the other side's same piece on
/// `sq` would reach X, so one lookup from `sq` finds them all.
#[derive(Clone, Copy)]
pub(crate) struct Threats {
    /// The other side's index, whose tables look back from `sq`.
    me: usize,
    by: Color,
    pawns: u128,
    knights: u128,
    silvers: u128,
    golds: u128,
    kings: u128,
    rooks: u128,
    bishops: u128,
    lances: u128,
}

impl Threats {
    #[inline(always)]
    fn steps(&self, sq: usize) -> u128 {
        let me = self.me;
        (PAWN[me][sq] & self.pawns)
            | (KNIGHT[me][sq] & self.knights)
            | (SILVER[me][sq] & self.silvers)
            | (GOLD[me][sq] & self.golds)
            | (KING[sq] & self.kings)
    }

    /// The pieces attacking `sq`; a slider's line is only walked when one stands on it.
    #[inline(always)]
    pub(crate) fn attackers(&self, sq: usize, occ: u128) -> u128 {
        let mut found = self.steps(sq);
        if self.rooks & attacks::rook_rays(sq) != 0 {
            found |= attacks::rook_attacks(sq, occ) & self.rooks;
        }
        if self.bishops & attacks::bishop_rays(sq) != 0 {
            found |= attacks::bishop_attacks(sq, occ) & self.bishops;
        }
        if self.lances & attacks::lance_rays(!self.by, sq) != 0 {
            found |= attacks::lance_attacks(!self.by, sq, occ) & self.lances;
        }
        found
    }

    /// Whether anything attacks `sq`; the cheap step pieces are asked first.
    #[inline(always)]
    pub(crate) fn attacks(&self, sq: usize, occ: u128) -> bool {
        self.steps(sq) != 0
            || (self.rooks & attacks::rook_rays(sq) != 0
                && attacks::rook_attacks(sq, occ) & self.rooks != 0)
            || (self.bishops & attacks::bishop_rays(sq) != 0
                && attacks::bishop_attacks(sq, occ) & self.bishops != 0)
            || (self.lances & attacks::lance_rays(!self.by, sq) != 0
                && attacks::lance_attacks(!self.by, sq, occ) & self.lances != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A capture puts the piece in the captor's hand unpromoted; the clock restarts.
    #[test]
    fn capture_goes_to_hand_unpromoted() {
        let mut pos = ShogiPosition::new(ShogiVariant::Shogi);
        for m in ["c3c4", "g7g6", "b2h8+"] {
            pos.play(m).unwrap();
        }
        assert_eq!(pos.in_hand(Color::White, ShogiRole::Bishop), 1);
        assert_eq!(
            pos.piece_at("h8".parse().unwrap()).map(|p| p.role),
            Some(ShogiRole::Horse)
        );
        pos.play("g9h8").unwrap();
        assert_eq!(pos.in_hand(Color::Black, ShogiRole::Bishop), 1);
        assert_eq!(pos.halfmoves(), 0);
        assert_eq!(pos.fullmoves(), 3);
    }

    /// An illegal or malformed move leaves the position as it was.
    #[test]
    fn refused_moves_change_nothing() {
        let mut pos = ShogiPosition::new(ShogiVariant::Shogi);
        let before = pos;
        assert!(pos.play("c3c5").is_err());
        assert!(pos.play("P@e5").is_err());
        assert!(pos.play("zz").is_err());
        assert_eq!(pos, before);
    }
}
