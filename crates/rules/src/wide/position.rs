//! `WidePosition`: a validated position of a wide-family game, and playing a move on it.
//!
//! The board is kept three ways at once because each answers a different question fast: one
//! `u128` per role and per colour for move generation, and a byte per square for "what stands
//! here" when a move is played. Copying a position is cheap (about 300 bytes), so search and
//! perft copy and play rather than undo.

use super::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, rook_attacks, rook_rays,
};
use super::mv::{WideMove, WideMoveKind};
use super::role::{ROLES, WidePiece, WideRole};
use super::square::{SQUARES, WideSquare, squares};
use super::variant::{End, GameDef, Site, WideVariant};
use crate::Color;

/// Castling sides, as indices: toward the higher files, toward the a-file.
pub(crate) const KING_SIDE: usize = 0;
pub(crate) const QUEEN_SIDE: usize = 1;

/// A position of a wide-family game that obeys the game's rules (one royal piece for each side
/// that has one, the side not to move not in check, castling rights backed by a king and rook
/// on their first rank).
#[derive(Clone, Copy)]
pub struct WidePosition {
    pub(crate) def: &'static GameDef,
    pub(crate) roles: [u128; ROLES],
    pub(crate) colors: [u128; 2],
    pub(crate) squares: [u8; SQUARES],
    pub(crate) turn: Color,
    /// The rook each side may still castle with, per side of its king.
    pub(crate) castles: [[Option<WideSquare>; 2]; 2],
    /// Set only when a pawn of the side to move could take en passant.
    pub(crate) ep: Option<WideSquare>,
    /// The pawn an en passant capture on `ep` removes: the one behind it in chess, the one
    /// at the end of the diagonal double step in Berolina.
    pub(crate) ep_victim: Option<WideSquare>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    /// Loop and Recycle Chess: the pieces each side holds in hand, counted by role.
    pub(crate) hands: [[u8; ROLES]; 2],
    /// Ice Age: the squares holding an ice cube (no piece stands on one).
    pub(crate) ice: u128,
    /// The game is over on the board, so no move is left. Extinction: a side has lost every
    /// piece of a type; Ice Age: a king froze; king-capture games: a side has no king. Kept here and set by the moves that bring it
    /// about, where testing the pieces of both sides at every node cost the generator more.
    pub(crate) extinct: bool,
    /// Cheshire Cat: the squares that have vanished (a piece left them); never occupied.
    pub(crate) vanished: u128,
    /// Cheshire Cat: per colour, whether its king has not moved yet, so may move as a queen.
    pub(crate) fresh_kings: [bool; 2],
    /// Dice Chess: the face rolled for the side to move, `None` until the server rolls.
    pub(crate) roll: Option<super::dice::Face>,
    /// Behemoth: its square (one bit; none in other games), an obstacle to every piece.
    pub(crate) behemoth: u128,
    /// Behemoth: a move was made and its step is awaited.
    pub(crate) step_pending: bool,
    /// Behemoth: a step destroyed a king, which ended the game.
    pub(crate) destroyed: bool,
    /// Ambiguous Chess: the target the player not to move marked, which the side to move
    /// executes with that player's pieces.
    pub(crate) pending: Option<WideSquare>,
}

/// One side's pieces grouped by how they attack, gathered once per node: the generator asks
/// about attacks on the king and each square it may step to, and each question would
/// otherwise gather the same nine role sets again.
#[derive(Clone, Copy)]
pub(crate) struct Enemy {
    pub by: Color,
    pub knights: u128,
    pub kings: u128,
    pub pawns: u128,
    pub orthogonal: u128,
    pub diagonal: u128,
}

impl PartialEq for WidePosition {
    /// Same game, pieces, side, rights, en passant square and counters.
    fn eq(&self, other: &WidePosition) -> bool {
        self.def.variant == other.def.variant
            && self.roles == other.roles
            && self.colors == other.colors
            && self.turn == other.turn
            && self.castles == other.castles
            && self.ep == other.ep
            && self.hands == other.hands
            && self.vanished == other.vanished
            && self.fresh_kings == other.fresh_kings
            && self.ice == other.ice
            && self.roll == other.roll
            && self.behemoth == other.behemoth
            && self.step_pending == other.step_pending
            && self.destroyed == other.destroyed
            && self.pending == other.pending
            && self.halfmoves == other.halfmoves
            && self.fullmoves == other.fullmoves
    }
}

impl Eq for WidePosition {}

impl core::fmt::Debug for WidePosition {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "WidePosition({} {})", self.def.key, self.fen())
    }
}

impl WidePosition {
    /// The start position of `variant` (Capablanca Random: the rule's example array; draw one
    /// with `WidePosition::caparandom`).
    #[must_use]
    pub fn new(variant: WideVariant) -> WidePosition {
        // Built once, as the 8x8 engine's starts are: an unplayed game reads its position
        // from its start on every call (`AnyGame::Unplayed`), and parsing a FEN is thousands
        // of instructions.
        static STARTS: std::sync::LazyLock<[WidePosition; WideVariant::ALL.len()]> =
            std::sync::LazyLock::new(|| {
                WideVariant::ALL.map(|variant| {
                    WidePosition::from_fen(variant, variant.start_fen())
                        .unwrap_or_else(|e| unreachable!("{variant} start FEN: {e}"))
                })
            });
        let index = WideVariant::ALL
            .iter()
            .position(|&v| v == variant)
            .unwrap_or(0);
        STARTS[index]
    }

    /// The Capablanca Random start numbered `index` (0 to 21,835), or `None` past the last.
    #[must_use]
    pub fn caparandom(index: u32) -> Option<WidePosition> {
        let fen = super::caparandom::caparandom_fen(index)?;
        WidePosition::from_fen(WideVariant::CapaRandom, &fen).ok()
    }

    /// The Corner Chess start numbered `index` (0 to 359: see `corner_array`).
    #[must_use]
    pub fn corner(index: u32) -> Option<WidePosition> {
        let fen = super::corner::corner_fen(index, "8", "8")?;
        WidePosition::from_fen(WideVariant::Corner, &fen).ok()
    }

    /// The Fortress Chess start numbered `index` (Corner Chess's arrays, 0 to 359).
    #[must_use]
    pub fn fortress(index: u32) -> Option<WidePosition> {
        let fen = super::fortress::fortress_fen(index)?;
        WidePosition::from_fen(WideVariant::Fortress, &fen).ok()
    }

    pub(crate) fn empty(def: &'static GameDef) -> WidePosition {
        WidePosition {
            def,
            roles: [0; ROLES],
            colors: [0; 2],
            squares: [0; SQUARES],
            turn: Color::White,
            castles: [[None; 2]; 2],
            ep: None,
            ep_victim: None,
            halfmoves: 0,
            fullmoves: 1,
            hands: [[0; ROLES]; 2],
            ice: 0,
            extinct: false,
            vanished: 0,
            fresh_kings: [false; 2],
            roll: None,
            behemoth: 0,
            step_pending: false,
            destroyed: false,
            pending: None,
        }
    }

    #[must_use]
    pub fn variant(&self) -> WideVariant {
        self.def.variant
    }

    #[must_use]
    pub fn turn(&self) -> Color {
        self.turn
    }

    #[must_use]
    pub fn piece_at(&self, sq: WideSquare) -> Option<WidePiece> {
        WidePiece::from_code(self.squares[sq.index()])
    }

    /// The squares holding `color`'s pieces of `role`.
    #[must_use]
    pub fn pieces(&self, color: Color, role: WideRole) -> u128 {
        self.roles[role.index()] & self.colors[color.index()]
    }

    /// The squares that block a slider or a pawn's step: every piece, Ice Age's ice and the
    /// Behemoth.
    #[must_use]
    pub fn occupied(&self) -> u128 {
        self.colors[0] | self.colors[1] | self.ice | self.behemoth
    }

    /// Ice Age: the squares holding an ice cube.
    #[must_use]
    pub fn ice(&self) -> u128 {
        self.ice
    }

    #[must_use]
    pub fn ep_square(&self) -> Option<WideSquare> {
        self.ep
    }

    #[must_use]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    #[must_use]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Loop Chess: how many pieces of each role (by `WideRole::index`) `color` holds in hand.
    #[must_use]
    pub fn hand(&self, color: Color) -> [u8; ROLES] {
        self.hands[color.index()]
    }

    /// The pieces each side holds, by the upper-case letter a drop names them with, in the
    /// roles' order and only when held; `None` in games without drops.
    #[must_use]
    pub fn hands_by_letter(&self) -> Option<crate::ByColor<Vec<(char, u32)>>> {
        self.def.drops.then(|| {
            let hand = |color: Color| {
                WideRole::ALL
                    .into_iter()
                    .filter(|r| self.hands[color.index()][r.index()] > 0)
                    .map(|r| {
                        (
                            self.def.letter(r).to_ascii_uppercase(),
                            u32::from(self.hands[color.index()][r.index()]),
                        )
                    })
                    .collect()
            };
            crate::ByColor::new(hand(Color::White), hand(Color::Black))
        })
    }

    /// The rook `color` may castle with on each side (king's side first).
    #[must_use]
    pub fn castling_rooks(&self, color: Color) -> [Option<WideSquare>; 2] {
        self.castles[color.index()]
    }

    /// `color`'s royal piece; only for a side the game gives one (see `royal`).
    #[inline]
    pub(crate) fn king(&self, color: Color) -> WideSquare {
        let role = self.def.royal[color.index()].unwrap_or(WideRole::King);
        WideSquare::at(self.pieces(color, role).trailing_zeros())
    }

    /// `color`'s royal piece, if its side has one in this game.
    #[inline]
    pub(crate) fn royal(&self, color: Color) -> Option<WideSquare> {
        let role = self.def.royal[color.index()]?;
        let bb = self.pieces(color, role);
        (bb != 0).then(|| WideSquare::at(bb.trailing_zeros()))
    }

    /// The piece that castles: the royal piece, or in a game without check (Extinction) the
    /// king on its first rank.
    pub(crate) fn castling_king(&self, color: Color) -> Option<WideSquare> {
        let role = self.def.castler[color.index()];
        let bb = self.pieces(color, role) & super::square::rank_mask(self.def.back_rank(color));
        (bb != 0).then(|| WideSquare::at(bb.trailing_zeros()))
    }

    /// Every piece, of either colour, that leaps as a knight (the royal knight of Knightmate
    /// too): the one place that knows which roles have which movement, so attacks, checks and
    /// pins cannot disagree.
    #[inline]
    pub(crate) fn knight_movers(&self) -> u128 {
        let r = &self.roles;
        r[WideRole::Knight.index()]
            | r[WideRole::Archbishop.index()]
            | r[WideRole::Chancellor.index()]
            | r[WideRole::Amazon.index()]
    }

    /// Every piece that slides along ranks and files, and every piece that slides along
    /// diagonals.
    #[inline]
    pub(crate) fn slider_movers(&self) -> (u128, u128) {
        let r = &self.roles;
        let queens = r[WideRole::Queen.index()] | r[WideRole::Amazon.index()];
        (
            r[WideRole::Rook.index()] | r[WideRole::Chancellor.index()] | queens,
            r[WideRole::Bishop.index()] | r[WideRole::Archbishop.index()] | queens,
        )
    }

    /// `by`'s pieces grouped by how they attack.
    #[inline]
    pub(crate) fn enemy(&self, by: Color) -> Enemy {
        let r = &self.roles;
        let theirs = self.colors[by.index()];
        let (orthogonal, diagonal) = self.slider_movers();
        Enemy {
            by,
            knights: self.knight_movers() & theirs,
            kings: r[WideRole::King.index()] & theirs,
            pawns: r[WideRole::Pawn.index()] & theirs,
            orthogonal: orthogonal & theirs,
            diagonal: diagonal & theirs,
        }
    }

    /// The pieces of `by` attacking `sq` when the board holds `occupied`.
    #[inline]
    pub(crate) fn attackers(&self, sq: WideSquare, occupied: u128, by: Color) -> u128 {
        if self.is_narrow() {
            return self.narrow_attackers(sq, occupied, by);
        }
        self.attackers_of(sq, occupied, &self.enemy(by))
    }

    /// The pieces of `enemy` attacking `sq` when the board holds `occupied`: a slider lookup
    /// only when an enemy slider stands on an empty-board line through `sq` (the generator
    /// asks this for the king at every node, and its diagonals or lines are often clear of
    /// them).
    #[inline(always)]
    pub(crate) fn attackers_of(&self, sq: WideSquare, occupied: u128, enemy: &Enemy) -> u128 {
        let mut attackers = (knight_attacks(sq) & enemy.knights)
            | (king_attacks(sq) & enemy.kings)
            | (self.def.pawn_captures[(!enemy.by).index()][sq.index()] & enemy.pawns);
        if rook_rays(sq) & enemy.orthogonal != 0 {
            attackers |= rook_attacks(sq, occupied) & enemy.orthogonal;
        }
        if bishop_rays(sq) & enemy.diagonal != 0 {
            attackers |= bishop_attacks(sq, occupied) & enemy.diagonal;
        }
        attackers
    }

    /// `color`'s royal piece (Knightmate's royal knight, Maharajah's maharajah), or `None`
    /// where the side has none (Extinction, Massacre, BrainKing's horde for Black).
    #[must_use]
    pub fn king_of(&self, color: Color) -> Option<WideSquare> {
        self.royal(color)
    }

    /// The pieces of `by` that attack `sq` on the current board.
    #[must_use]
    pub fn attackers_to(&self, sq: WideSquare, by: Color) -> u128 {
        self.attackers(sq, self.occupied(), by)
    }

    /// Whether a piece of `by` attacks `sq` when the board holds `occupied`.
    #[inline]
    pub(crate) fn is_attacked(&self, sq: WideSquare, occupied: u128, by: Color) -> bool {
        self.is_attacked_by(sq, occupied, &self.enemy(by))
    }

    /// Whether a piece of `enemy` attacks `sq` when the board holds `occupied`: the leapers
    /// first, then each enemy slider on an empty-board line through `sq` by the squares
    /// between (most king steps have none or few such sliders, each cheaper to test so than a
    /// slider lookup per line).
    #[inline(always)]
    pub(crate) fn is_attacked_by(&self, sq: WideSquare, occupied: u128, enemy: &Enemy) -> bool {
        if (knight_attacks(sq) & enemy.knights)
            | (king_attacks(sq) & enemy.kings)
            | (self.def.pawn_captures[(!enemy.by).index()][sq.index()] & enemy.pawns)
            != 0
        {
            return true;
        }
        let snipers = (rook_rays(sq) & enemy.orthogonal) | (bishop_rays(sq) & enemy.diagonal);
        squares(snipers).any(|sniper| between(sq, sniper) & occupied == 0)
    }

    /// The pieces giving check to the side to move (none in a game without check).
    #[must_use]
    pub fn checkers(&self) -> u128 {
        self.royal(self.turn)
            .map_or(0, |king| self.attackers(king, self.occupied(), !self.turn))
    }

    #[must_use]
    pub fn is_check(&self) -> bool {
        self.checkers() != 0
    }

    pub(crate) fn put(&mut self, sq: WideSquare, piece: WidePiece) {
        self.roles[piece.role.index()] |= sq.bit();
        self.colors[piece.color.index()] |= sq.bit();
        self.squares[sq.index()] = piece.code();
    }

    pub(super) fn remove(&mut self, sq: WideSquare) -> Option<WidePiece> {
        let piece = WidePiece::from_code(self.squares[sq.index()])?;
        self.roles[piece.role.index()] &= !sq.bit();
        self.colors[piece.color.index()] &= !sq.bit();
        self.squares[sq.index()] = 0;
        Some(piece)
    }

    /// One rank forward for `color`'s pawns, in the shared numbering.
    #[inline]
    pub(crate) const fn forward(color: Color) -> i32 {
        match color {
            Color::White => super::square::STRIDE as i32,
            Color::Black => -(super::square::STRIDE as i32),
        }
    }

    /// Plays `m`, which must be legal here (from `legal_moves`, or checked by `play`).
    pub fn play_unchecked(&mut self, m: WideMove) {
        if self.def.targets {
            self.play_turn(m);
        } else {
            self.play_board(m);
        }
    }

    /// Plays board move `m` (in Ambiguous Chess, one part of a turn).
    pub(crate) fn play_board(&mut self, m: WideMove) {
        let us = self.turn;
        let them = !us;
        let ep_victim = self.ep_victim;
        self.ep = None;
        self.ep_victim = None;
        self.roll = None;
        self.halfmoves += 1;
        if m.kind() == WideMoveKind::Castle {
            self.castle(m.from(), m.to());
        } else if m.kind() == WideMoveKind::Drop {
            let role = m.promotion().unwrap_or(WideRole::Pawn);
            self.hands[us.index()][role.index()] -= 1;
            self.put(m.to(), WidePiece { color: us, role });
        } else {
            if self.def.ice && self.ice & m.to().bit() != 0 {
                // Ice Age: taking ice is a capture for the fifty-move count (GAMES.md).
                self.ice ^= m.to().bit();
                self.halfmoves = 0;
            }
            if let Some(captured) = self.remove(m.to()) {
                self.halfmoves = 0;
                self.lost(captured);
                // Recycle Chess keeps only its own pieces; the enemy's leave the game.
                if self.def.drops && (!self.def.self_capture || captured.color == us) {
                    self.hands[us.index()][captured.role.index()] += 1;
                }
                let rights = &mut self.castles[captured.color.index()];
                for right in rights.iter_mut().filter(|r| **r == Some(m.to())) {
                    *right = None;
                }
                // Extinction: a king taken on its first rank takes its side's rights along.
                if self.def.royal[captured.color.index()].is_none()
                    && captured.role == WideRole::King
                    && self.castling_king(captured.color).is_none()
                {
                    self.castles[captured.color.index()] = [None; 2];
                }
            }
            let Some(piece) = self.remove(m.from()) else {
                return;
            };
            match piece.role {
                WideRole::Pawn => {
                    self.halfmoves = 0;
                    match m.kind() {
                        WideMoveKind::EnPassant => {
                            if let Some(victim) = ep_victim
                                && let Some(captured) = self.remove(victim)
                            {
                                self.lost(captured);
                                if self.def.drops && !self.def.self_capture {
                                    self.hands[us.index()][WideRole::Pawn.index()] += 1;
                                }
                            }
                        }
                        WideMoveKind::DoubleStep => {
                            // The skipped square, straight or diagonal.
                            let back =
                                WideSquare::at(((m.from().index() + m.to().index()) / 2) as u32);
                            // Only a square an enemy pawn can take on is kept: positions
                            // that differ by an unusable one are the same position.
                            if self.def.pawn_captures[us.index()][back.index()]
                                & self.pieces(them, WideRole::Pawn)
                                != 0
                            {
                                self.ep = Some(back);
                                self.ep_victim = Some(m.to());
                            }
                        }
                        _ => {}
                    }
                }
                // The castling piece leaving its first rank (a second, promoted king of
                // Extinction elsewhere keeps the rights).
                role if role == self.def.castler[us.index()]
                    && m.from().rank() == self.def.back_rank(us) =>
                {
                    self.castles[us.index()] = [None; 2];
                }
                _ => {
                    let rights = &mut self.castles[us.index()];
                    for right in rights.iter_mut().filter(|r| **r == Some(m.from())) {
                        *right = None;
                    }
                }
            }
            let role = m.promotion().unwrap_or(piece.role);
            // Recycle Chess: a pawn reaching the last rank leaves the game.
            if !(self.def.pawns_leave
                && role == WideRole::Pawn
                && m.to().rank() == self.def.back_rank(them))
            {
                self.put(m.to(), WidePiece { color: us, role });
            }
            if role != piece.role {
                self.lost(piece);
            }
        }
        if us == Color::Black {
            if self.def.ice && self.fullmoves.is_multiple_of(20) {
                self.ice_age();
            }
            self.fullmoves += 1;
        }
        self.turn = them;
        // Behemoth: its step follows every move but one that took the last king.
        self.step_pending = self.def.chance == super::variant::Chance::Behemoth && !self.extinct;
        // A record's move of a game of chance carries the draw that follows it.
        if let Some(nature) = m.nature() {
            let _ = self.apply_nature(nature);
        }
        if self.def.site == Site::CheshireCat {
            self.vanish(m, us);
        }
    }

    /// Extinction: `piece` has left the board (taken, or a pawn promoted); its side has lost
    /// if it was the last of its type. King-capture games: if it was the last king. The only moves that can end the game, so the generator
    /// reads a flag where it would test six types of both sides at every node.
    #[inline]
    fn lost(&mut self, piece: WidePiece) {
        let ends = match self.def.end {
            End::Extinction => true,
            End::KingCapture => piece.role == WideRole::King,
            _ => false,
        };
        if ends && self.pieces(piece.color, piece.role) == 0 {
            self.extinct = true;
        }
    }

    fn castle(&mut self, king: WideSquare, rook: WideSquare) {
        let us = self.turn;
        let (king_to, rook_to) = self.castling_targets(king, rook);
        // Knightmate castles its royal knight: the piece keeps its role.
        let castler = self.remove(king);
        self.remove(rook);
        if let Some(castler) = castler {
            self.put(king_to, castler);
        }
        self.put(
            rook_to,
            WidePiece {
                color: us,
                role: WideRole::Rook,
            },
        );
        self.castles[us.index()] = [None; 2];
    }

    /// Where king and rook land when the king on `king` castles with the rook on `rook`.
    pub(crate) fn castling_targets(
        &self,
        king: WideSquare,
        rook: WideSquare,
    ) -> (WideSquare, WideSquare) {
        self.def.castling_targets(king, rook)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each variant's kept start is its start FEN read afresh.
    #[test]
    fn kept_starts_are_the_start_fens() {
        for variant in WideVariant::ALL {
            let read = WidePosition::from_fen(variant, variant.start_fen()).unwrap();
            assert_eq!(WidePosition::new(variant), read, "{variant}");
        }
    }
}
