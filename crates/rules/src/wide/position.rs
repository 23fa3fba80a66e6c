//! `WidePosition`: a validated position of a wide-family game, and playing a move on it.
//!
//! The board is kept three ways at once because each answers a different question fast: one
//! `u128` per role and per colour for move generation, and a byte per square for "what stands
//! here" when a move is played. Copying a position is cheap (about 300 bytes), so search and
//! perft copy and play rather than undo.

use super::attacks::{
    bishop_attacks, bishop_rays, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
    rook_rays,
};
use super::mv::{WideMove, WideMoveKind};
use super::role::{WidePiece, WideRole};
use super::square::{SQUARES, WideSquare};
use super::variant::{GameDef, WideVariant};
use crate::{Color, Outcome, Termination};

/// Castling sides, as indices: toward the higher files, toward the a-file.
pub(crate) const KING_SIDE: usize = 0;
pub(crate) const QUEEN_SIDE: usize = 1;

/// A position of a wide-family game that obeys the game's rules (one king each, the side not
/// to move not in check, castling rights backed by a king and rook on their first rank).
#[derive(Clone, Copy)]
pub struct WidePosition {
    pub(crate) def: &'static GameDef,
    pub(crate) roles: [u128; 8],
    pub(crate) colors: [u128; 2],
    pub(crate) squares: [u8; SQUARES],
    pub(crate) turn: Color,
    /// The rook each side may still castle with, per side of its king.
    pub(crate) castles: [[Option<WideSquare>; 2]; 2],
    /// Set only when a pawn of the side to move could take en passant.
    pub(crate) ep: Option<WideSquare>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
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
        WidePosition::from_fen(variant, variant.start_fen())
            .unwrap_or_else(|e| unreachable!("{variant} start FEN: {e}"))
    }

    /// The Capablanca Random start numbered `index` (0 to 21,835), or `None` past the last.
    #[must_use]
    pub fn caparandom(index: u32) -> Option<WidePosition> {
        let fen = super::caparandom::caparandom_fen(index)?;
        WidePosition::from_fen(WideVariant::CapaRandom, &fen).ok()
    }

    pub(crate) fn empty(def: &'static GameDef) -> WidePosition {
        WidePosition {
            def,
            roles: [0; 8],
            colors: [0; 2],
            squares: [0; SQUARES],
            turn: Color::White,
            castles: [[None; 2]; 2],
            ep: None,
            halfmoves: 0,
            fullmoves: 1,
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

    #[must_use]
    pub fn occupied(&self) -> u128 {
        self.colors[0] | self.colors[1]
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

    /// The rook `color` may castle with on each side (king's side first).
    #[must_use]
    pub fn castling_rooks(&self, color: Color) -> [Option<WideSquare>; 2] {
        self.castles[color.index()]
    }

    #[inline]
    pub(crate) fn king(&self, color: Color) -> WideSquare {
        WideSquare::at(self.pieces(color, WideRole::King).trailing_zeros())
    }

    /// The pieces of `by` attacking `sq` when the board holds `occupied`.
    #[inline]
    pub(crate) fn attackers(&self, sq: WideSquare, occupied: u128, by: Color) -> u128 {
        let r = &self.roles;
        let leapers = r[WideRole::Knight.index()]
            | r[WideRole::Archbishop.index()]
            | r[WideRole::Chancellor.index()];
        let queens = r[WideRole::Queen.index()];
        let orthogonal = r[WideRole::Rook.index()] | queens | r[WideRole::Chancellor.index()];
        let diagonal = r[WideRole::Bishop.index()] | queens | r[WideRole::Archbishop.index()];
        ((knight_attacks(sq) & leapers)
            | (rook_attacks(sq, occupied) & orthogonal)
            | (bishop_attacks(sq, occupied) & diagonal)
            | (king_attacks(sq) & r[WideRole::King.index()])
            | (pawn_attacks(!by, sq) & r[WideRole::Pawn.index()]))
            & self.colors[by.index()]
    }

    /// `color`'s king.
    #[must_use]
    pub fn king_of(&self, color: Color) -> WideSquare {
        self.king(color)
    }

    /// The pieces of `by` that attack `sq` on the current board.
    #[must_use]
    pub fn attackers_to(&self, sq: WideSquare, by: Color) -> u128 {
        self.attackers(sq, self.occupied(), by)
    }

    /// Whether a piece of `by` attacks `sq` when the board holds `occupied`: the leapers
    /// first, and a slider lookup only when an enemy slider stands on an empty-board line
    /// through `sq` (most king steps are decided without one).
    #[inline]
    pub(crate) fn is_attacked(&self, sq: WideSquare, occupied: u128, by: Color) -> bool {
        let r = &self.roles;
        let theirs = self.colors[by.index()];
        let leapers = r[WideRole::Knight.index()]
            | r[WideRole::Archbishop.index()]
            | r[WideRole::Chancellor.index()];
        if ((knight_attacks(sq) & leapers)
            | (king_attacks(sq) & r[WideRole::King.index()])
            | (pawn_attacks(!by, sq) & r[WideRole::Pawn.index()]))
            & theirs
            != 0
        {
            return true;
        }
        let queens = r[WideRole::Queen.index()];
        let orthogonal =
            (r[WideRole::Rook.index()] | queens | r[WideRole::Chancellor.index()]) & theirs;
        let diagonal =
            (r[WideRole::Bishop.index()] | queens | r[WideRole::Archbishop.index()]) & theirs;
        (rook_rays(sq) & orthogonal != 0 && rook_attacks(sq, occupied) & orthogonal != 0)
            || (bishop_rays(sq) & diagonal != 0 && bishop_attacks(sq, occupied) & diagonal != 0)
    }

    /// The pieces giving check to the side to move.
    #[must_use]
    pub fn checkers(&self) -> u128 {
        self.attackers(self.king(self.turn), self.occupied(), !self.turn)
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

    fn remove(&mut self, sq: WideSquare) -> Option<WidePiece> {
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
        let us = self.turn;
        let them = !us;
        self.ep = None;
        self.halfmoves += 1;
        if m.kind() == WideMoveKind::Castle {
            self.castle(m.from(), m.to());
        } else {
            if let Some(captured) = self.remove(m.to()) {
                self.halfmoves = 0;
                let rights = &mut self.castles[captured.color.index()];
                for right in rights.iter_mut().filter(|r| **r == Some(m.to())) {
                    *right = None;
                }
            }
            let Some(piece) = self.remove(m.from()) else {
                return;
            };
            match piece.role {
                WideRole::Pawn => {
                    self.halfmoves = 0;
                    let back = WideSquare::at((m.to().index() as i32 - Self::forward(us)) as u32);
                    match m.kind() {
                        WideMoveKind::EnPassant => {
                            self.remove(back);
                        }
                        // Only a square an enemy pawn can take on is kept: positions that
                        // differ by an unusable one are the same position.
                        WideMoveKind::DoubleStep
                            if pawn_attacks(us, back) & self.pieces(them, WideRole::Pawn) != 0 =>
                        {
                            self.ep = Some(back);
                        }
                        _ => {}
                    }
                }
                WideRole::King => self.castles[us.index()] = [None; 2],
                _ => {
                    let rights = &mut self.castles[us.index()];
                    for right in rights.iter_mut().filter(|r| **r == Some(m.from())) {
                        *right = None;
                    }
                }
            }
            let role = m.promotion().unwrap_or(piece.role);
            self.put(m.to(), WidePiece { color: us, role });
        }
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = them;
    }

    fn castle(&mut self, king: WideSquare, rook: WideSquare) {
        let us = self.turn;
        let (king_to, rook_to) = self.castling_targets(king, rook);
        self.remove(king);
        self.remove(rook);
        self.put(
            king_to,
            WidePiece {
                color: us,
                role: WideRole::King,
            },
        );
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
        let side = if rook.file() > king.file() {
            KING_SIDE
        } else {
            QUEEN_SIDE
        };
        let c = self
            .def
            .castling
            .as_ref()
            .map_or(([0, 0], [0, 0]), |c| (c.king_to, c.rook_to));
        let rank = king.rank();
        let at = |file: u8| WideSquare::new(file, rank).unwrap_or(king);
        (at(c.0[side]), at(c.1[side]))
    }

    /// Neither side can ever checkmate: each has its king alone or with one bishop or knight
    /// (every other piece, the compounds included, is mating material, as `GAMES.md` says),
    /// or only bishops remain and all stand on one square colour.
    #[must_use]
    pub fn is_insufficient_material(&self) -> bool {
        let r = &self.roles;
        let (knights, bishops) = (r[WideRole::Knight.index()], r[WideRole::Bishop.index()]);
        let kings = r[WideRole::King.index()];
        if self.occupied() & !(kings | knights | bishops) != 0 {
            return false;
        }
        let minors = knights | bishops;
        if knights == 0 {
            // Bishops only: none can ever reach the other colour, so no mate if all share one.
            let light = light_squares();
            if bishops & light == 0 || bishops & !light == 0 {
                return true;
            }
        }
        // With a knight on the board, only a lone minor piece is no mate.
        minors.count_ones() <= 1
    }

    /// The game's end on the board, if it has ended: checkmate, stalemate (a draw), or
    /// insufficient material. Repetition and the fifty-move rule need the record:
    /// `WideGame::outcome`.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_move() {
            return Some(if self.is_check() {
                Outcome::win(!self.turn, Termination::Checkmate)
            } else {
                Outcome::draw(Termination::Stalemate)
            });
        }
        self.is_insufficient_material()
            .then_some(Outcome::draw(Termination::InsufficientMaterial))
    }
}

/// The light squares of the shared numbering (a1 is dark; a square is light when file + rank
/// is odd).
const fn light_squares() -> u128 {
    let mut bb = 0u128;
    let mut sq = 0;
    while sq < SQUARES {
        let (file, rank) = (sq % 12, sq / 12);
        if (file + rank) % 2 == 1 {
            bb |= 1 << sq;
        }
        sq += 1;
    }
    bb
}
