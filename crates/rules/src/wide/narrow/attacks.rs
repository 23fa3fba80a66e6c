//! What attacks a square, what is pinned and where a check may be ended, per game, on the
//! 8x8 board: lines wrap on the cylinder; in Knight Relay knights attack nothing and a
//! relayed piece also attacks as a knight; in Cheshire Cat an unmoved king attacks as a queen
//! and vanished squares block nothing; in Ice Age ice blocks every line and attacks nothing.

use super::tables::{Bb, EDGE_RANKS, bit, knight, paths, pawn, rays, squares};
use super::{BISHOP, CHESHIRE, CYLINDER, KING, KNIGHT, Narrow, PAWN, QUEEN, RELAY, ROOK};
use crate::Color;

/// The squares a knight of `knights` defends (Knight Relay's relayed squares).
#[inline]
pub(super) fn knight_cover(knights: Bb) -> Bb {
    squares(knights).fold(0, |cover, sq| cover | knight(false, sq))
}

impl Narrow {
    /// The pieces among `theirs` (of colour `by`) that attack `sq` when the board holds
    /// `occupied` (see `attacked_in`): what the wide position asks outside generation (check,
    /// SAN's `+`).
    pub(super) fn attackers_in<const G: u8>(
        &self,
        sq: u32,
        occupied: Bb,
        theirs: Bb,
        by: Color,
        cover: Bb,
    ) -> Bb {
        let (attackers, snipers) = self.leapers_and_snipers::<G>(sq, theirs, by, cover);
        squares(snipers)
            .filter(|&slider| line_open::<G>(sq, slider, occupied))
            .fold(attackers, |all, slider| all | bit(slider))
    }

    /// Whether a piece among `theirs` (of colour `by`) attacks `sq` when the board holds
    /// `occupied`: the leaps and steps first, then the sliders one by one, stopping at the
    /// first that does. `cover` is Knight Relay's squares `by`'s knights defend.
    #[inline(never)]
    pub(super) fn attacked_in<const G: u8>(
        &self,
        sq: u32,
        occupied: Bb,
        theirs: Bb,
        by: Color,
        cover: Bb,
    ) -> bool {
        let (leapers, snipers) = self.leapers_and_snipers::<G>(sq, theirs, by, cover);
        leapers != 0 || squares(snipers).any(|slider| line_open::<G>(sq, slider, occupied))
    }

    /// The pieces among `theirs` (of colour `by`) that attack `sq` by a leap or a step, and
    /// their sliders on an empty-board line through `sq`.
    #[inline(always)]
    fn leapers_and_snipers<const G: u8>(
        &self,
        sq: u32,
        theirs: Bb,
        by: Color,
        cover: Bb,
    ) -> (Bb, Bb) {
        let wrap = G == CYLINDER;
        let r = &self.roles;
        let pawns = r[PAWN] & theirs;
        let knights = r[KNIGHT] & theirs;
        let kings = r[KING] & theirs;
        let queens = r[QUEEN];
        let mut orthogonal = (r[ROOK] | queens) & theirs;
        let mut diagonal = (r[BISHOP] | queens) & theirs;
        let mut attackers = (pawn(wrap, !by, sq) & pawns) | (super::tables::king(wrap, sq) & kings);
        if G == RELAY {
            let mut leapers = knight(false, sq) & theirs & !knights & !kings;
            if bit(sq) & EDGE_RANKS != 0 {
                leapers &= !pawns;
            }
            attackers |= leapers & cover;
        } else {
            attackers |= knight(wrap, sq) & knights;
            if G == CHESHIRE && self.fresh_kings[by.index()] {
                orthogonal |= kings;
                diagonal |= kings;
            }
        }
        let (rook_rays, bishop_rays) = rays(wrap, sq);
        (
            attackers,
            (orthogonal & rook_rays) | (diagonal & bishop_rays),
        )
    }

    /// The pieces of `them` checking our king on `king`, and our pieces pinned to it, in one
    /// walk over the enemy sliders on the king's lines: along a line joining one to the king,
    /// no piece between is a check and one piece a pin. On the cylinder two lines may join a
    /// slider to the king (round either side of a rank, or along both diagonals four files and
    /// four ranks away): a piece alone on either is pinned.
    #[inline(always)]
    pub(super) fn checks_and_pins<const G: u8>(
        &self,
        king: u32,
        (ours, theirs, occupied): (Bb, Bb, Bb),
        them: Color,
        cover: Bb,
    ) -> (Bb, Bb) {
        let (mut checkers, snipers) = self.leapers_and_snipers::<G>(king, theirs, them, cover);
        let mut pinned = 0;
        for sniper in squares(snipers) {
            let mut line = |path: Bb| {
                let blockers = path & occupied;
                if blockers == 0 {
                    checkers |= bit(sniper);
                } else if blockers & blockers.wrapping_sub(1) == 0 {
                    pinned |= blockers;
                }
            };
            let [a, b] = paths(G == CYLINDER, king, sniper);
            line(a);
            if G == CYLINDER {
                // A missing second line is every square, never empty nor one piece.
                line(b);
            }
        }
        (checkers, pinned & ours)
    }

    /// In check by `checkers`, a superset of the squares where a move of a piece but the
    /// king may end it: a single checker's square and the squares between it and the king on
    /// any line joining them (a leap has none); nothing in double check.
    #[inline(never)]
    pub(super) fn evasions<const G: u8>(king: u32, checkers: Bb) -> Bb {
        if checkers & checkers.wrapping_sub(1) != 0 {
            return 0;
        }
        let [a, b] = paths(G == CYLINDER, king, checkers.trailing_zeros());
        let open = |path: Bb| if path == Bb::MAX { 0 } else { path };
        checkers | open(a) | open(b)
    }
}

/// Whether nothing stands between `sq` and a slider on a line through it (on the cylinder,
/// along either of the two paths that may join them).
#[inline(always)]
fn line_open<const G: u8>(sq: u32, slider: u32, occupied: Bb) -> bool {
    let [a, b] = paths(G == CYLINDER, sq, slider);
    a & occupied == 0 || (G == CYLINDER && b & occupied == 0)
}
