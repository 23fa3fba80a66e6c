//! `XiangqiPosition`: the pieces on `u128` bitboards, the side to move and the clocks; what
//! attacks a point, and playing a move.

use super::attacks::{SOLDIER_FROM, first, horse_from};
use super::mv::XiangqiMove;
use super::role::{ROLES, XiangqiPiece, XiangqiRole};
use super::square::XiangqiSquare;
use crate::Color;

/// A xiangqi position. Built from FEN ([`XiangqiPosition::from_fen`]) or the start
/// ([`XiangqiPosition::new`]), it always satisfies the board's rules: one general a side in its
/// palace, advisors, elephants and soldiers only where they can stand, generals not facing,
/// the side that just moved not in check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct XiangqiPosition {
    pub(crate) roles: [u128; ROLES],
    pub(crate) colors: [u128; 2],
    /// Each side's general, kept so that check tests need no bit scan.
    pub(crate) generals: [u8; 2],
    pub(crate) turn: Color,
    /// Plies since the last capture (a soldier's move does not reset it: FSF's count).
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
}

/// The start position's FEN, as Fairy-Stockfish writes it.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

impl Default for XiangqiPosition {
    fn default() -> XiangqiPosition {
        XiangqiPosition::new()
    }
}

impl XiangqiPosition {
    /// The start position.
    #[must_use]
    pub fn new() -> XiangqiPosition {
        // Built once: an unplayed game reads its position from its start on every call.
        static START: std::sync::LazyLock<XiangqiPosition> =
            std::sync::LazyLock::new(|| match XiangqiPosition::from_fen(START_FEN) {
                Ok(pos) => pos,
                Err(e) => unreachable!("the start FEN is valid: {e}"),
            });
        *START
    }

    #[must_use]
    pub fn turn(&self) -> Color {
        self.turn
    }

    #[must_use]
    pub fn piece_at(&self, sq: XiangqiSquare) -> Option<XiangqiPiece> {
        let bit = sq.bit();
        let color = if self.colors[0] & bit != 0 {
            Color::White
        } else if self.colors[1] & bit != 0 {
            Color::Black
        } else {
            return None;
        };
        Some(XiangqiPiece {
            color,
            role: self.role_at(bit),
        })
    }

    /// The role on an occupied point.
    #[inline]
    pub(crate) fn role_at(&self, bit: u128) -> XiangqiRole {
        let mut i = 0;
        while i < ROLES - 1 && self.roles[i] & bit == 0 {
            i += 1;
        }
        XiangqiRole::ALL[i]
    }

    /// `color`'s pieces of `role`.
    #[must_use]
    #[inline]
    pub fn pieces(&self, color: Color, role: XiangqiRole) -> u128 {
        self.roles[role.index()] & self.colors[color.index()]
    }

    /// `color`'s pieces.
    #[must_use]
    #[inline]
    pub fn side(&self, color: Color) -> u128 {
        self.colors[color.index()]
    }

    #[must_use]
    #[inline]
    pub fn occupied(&self) -> u128 {
        self.colors[0] | self.colors[1]
    }

    #[must_use]
    pub fn general(&self, color: Color) -> XiangqiSquare {
        XiangqiSquare::at(u32::from(self.generals[color.index()]))
    }

    /// Plies since the last capture.
    #[must_use]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    #[must_use]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Whether `by`, with its pieces `theirs` (a subset of its pieces: a captured one taken
    /// away) and everything standing on `occupied`, attacks `sq`. The general attacks along an
    /// open file (the flying general); advisors and elephants never reach the other palace.
    #[inline(always)]
    pub(crate) fn attacked_by(&self, sq: usize, by: Color, occupied: u128, theirs: u128) -> bool {
        let chariots = self.roles[XiangqiRole::Chariot.index()] & theirs;
        let cannons = self.roles[XiangqiRole::Cannon.index()] & theirs;
        let general = self.roles[XiangqiRole::General.index()] & theirs;
        for dir in 0..4 {
            if let Some(b1) = first(dir, sq, occupied) {
                let direct = if dir % 2 == 0 {
                    chariots | general
                } else {
                    chariots
                };
                if direct & (1 << b1) != 0 {
                    return true;
                }
                if let Some(b2) = first(dir, b1, occupied)
                    && cannons & (1 << b2) != 0
                {
                    return true;
                }
            }
        }
        let horses = self.roles[XiangqiRole::Horse.index()] & theirs;
        let soldiers = self.roles[XiangqiRole::Soldier.index()] & theirs;
        horse_from(sq, occupied) & horses != 0 || SOLDIER_FROM[by.index()][sq] & soldiers != 0
    }

    /// Whether the side to move's general is attacked.
    #[must_use]
    pub fn is_check(&self) -> bool {
        self.color_in_check(self.turn)
    }

    pub(crate) fn color_in_check(&self, color: Color) -> bool {
        let them = !color;
        self.attacked_by(
            usize::from(self.generals[color.index()]),
            them,
            self.occupied(),
            self.colors[them.index()],
        )
    }

    /// Whether the move from `from` to `to` (one of `self.turn`'s pseudo-legal moves) leaves
    /// its own general safe.
    #[inline(always)]
    pub(crate) fn is_safe(&self, from: usize, to: usize) -> bool {
        let us = self.turn;
        let (fb, tb) = (1u128 << from, 1u128 << to);
        let occupied = (self.occupied() & !fb) | tb;
        let theirs = self.colors[(!us).index()] & !tb;
        let general = usize::from(self.generals[us.index()]);
        let general = if general == from { to } else { general };
        !self.attacked_by(general, !us, occupied, theirs)
    }

    /// Plays `m`, which must be legal here (or at least pseudo-legal, for perft's own use).
    #[inline]
    pub fn play_unchecked(&mut self, m: XiangqiMove) {
        let (from, to) = (m.from().bit(), m.to().bit());
        let us = self.turn.index();
        let them = 1 - us;
        if self.colors[them] & to != 0 {
            let captured = self.role_at(to).index();
            self.roles[captured] ^= to;
            self.colors[them] ^= to;
            self.halfmoves = 0;
        } else {
            self.halfmoves += 1;
        }
        let role = m.role().index();
        self.roles[role] ^= from | to;
        self.colors[us] ^= from | to;
        if role == XiangqiRole::General.index() {
            self.generals[us] = m.to().index() as u8;
        }
        if self.turn == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = !self.turn;
    }
}
