//! Which enemy pieces attack a square in the games only the seed site plays, per game, for
//! what the wide position asks outside move generation (check, SAN's `+`): lines wrap on the
//! cylinder; in Knight Relay knights attack nothing and a relayed piece also attacks as a
//! knight; in Cheshire Cat an unmoved king attacks as a queen and vanished squares block
//! nothing. The 8x8 generator (`narrow`) answers the same questions on its own boards; the
//! tests hold the two to the same moves.

use super::attacks::{between, bishop_rays, king_attacks, knight_attacks, rook_rays};
use super::cylinder;
use super::position::WidePosition;
use super::role::WideRole;
use super::square::{WideSquare, squares};
use super::variant::Site;
use crate::Color;

/// The game a generator is built for: each is its own copy of the code, with the other
/// games' tests folded away.
pub(super) const CYLINDER: u8 = 0;
pub(super) const RELAY: u8 = 1;
pub(super) const CHESHIRE: u8 = 2;

/// The squares a knight of `knights` defends (Knight Relay's relayed squares).
#[inline]
pub(super) fn knight_cover(knights: u128) -> u128 {
    let mut cover = 0;
    for sq in squares(knights) {
        cover |= knight_attacks(sq);
    }
    cover
}

#[inline(always)]
pub(super) fn knight_of<const G: u8>(sq: WideSquare) -> u128 {
    if G == CYLINDER {
        cylinder::KNIGHT[sq.index()]
    } else {
        knight_attacks(sq)
    }
}

#[inline(always)]
pub(super) fn king_of<const G: u8>(sq: WideSquare) -> u128 {
    if G == CYLINDER {
        cylinder::KING[sq.index()]
    } else {
        king_attacks(sq)
    }
}

/// The rook and bishop lines through `sq` on an empty board.
#[inline(always)]
pub(super) fn rays_of<const G: u8>(sq: WideSquare) -> (u128, u128) {
    if G == CYLINDER {
        cylinder::RAYS[sq.index()]
    } else {
        (rook_rays(sq), bishop_rays(sq))
    }
}

impl WidePosition {
    /// The pieces among `theirs` (of colour `by`) that attack `sq` when the board holds
    /// `occupied`, by the game's own rule: wrapping on the cylinder; in Knight Relay knights
    /// attack nothing and a relayed piece also attacks as a knight (a pawn never onto the
    /// first or last rank); in Cheshire Cat a king that has not moved attacks as a queen.
    pub(crate) fn site_attackers(
        &self,
        sq: WideSquare,
        occupied: u128,
        theirs: u128,
        by: Color,
    ) -> u128 {
        match self.def.site {
            Site::Cylinder => self.attackers_in::<CYLINDER>(sq, occupied, theirs, by, 0),
            Site::KnightRelay => {
                let cover = knight_cover(self.pieces(by, WideRole::Knight));
                self.attackers_in::<RELAY>(sq, occupied, theirs, by, cover)
            }
            _ => self.attackers_in::<CHESHIRE>(sq, occupied, theirs, by, 0),
        }
    }

    /// `site_attackers` for game `G`; `cover` is Knight Relay's squares `by`'s knights
    /// defend.
    #[inline(never)]
    pub(super) fn attackers_in<const G: u8>(
        &self,
        sq: WideSquare,
        occupied: u128,
        theirs: u128,
        by: Color,
        cover: u128,
    ) -> u128 {
        let (mut attackers, snipers) = self.leapers_and_snipers::<G>(sq, theirs, by, cover);
        // Each slider on a line through the square is tested by the squares between (on the
        // cylinder, along either of the paths that may join them), not by a lookup per line.
        for slider in squares(snipers) {
            if line_open::<G>(sq, slider, occupied) {
                attackers |= slider.bit();
            }
        }
        attackers
    }

    /// The pieces among `theirs` (of colour `by`) that attack `sq` by a leap or a step, and
    /// their sliders on an empty-board line through `sq`, by game `G`'s rule.
    #[inline(always)]
    fn leapers_and_snipers<const G: u8>(
        &self,
        sq: WideSquare,
        theirs: u128,
        by: Color,
        cover: u128,
    ) -> (u128, u128) {
        let r = &self.roles;
        let pawns = r[WideRole::Pawn.index()] & theirs;
        let knights = r[WideRole::Knight.index()] & theirs;
        let kings = r[WideRole::King.index()] & theirs;
        let queens = r[WideRole::Queen.index()];
        let mut orthogonal = (r[WideRole::Rook.index()] | queens) & theirs;
        let mut diagonal = (r[WideRole::Bishop.index()] | queens) & theirs;
        let mut attackers = (self.def.pawn_captures[(!by).index()][sq.index()] & pawns)
            | (king_of::<G>(sq) & kings);
        if G == RELAY {
            let mut leapers = knight_attacks(sq) & theirs & !knights & !kings;
            if sq.rank() == 0 || sq.rank() == 7 {
                leapers &= !pawns;
            }
            attackers |= leapers & cover;
        } else {
            attackers |= knight_of::<G>(sq) & knights;
            if G == CHESHIRE && self.fresh_kings[by.index()] {
                orthogonal |= kings;
                diagonal |= kings;
            }
        }
        let (rook_rays, bishop_rays) = rays_of::<G>(sq);
        (
            attackers,
            (orthogonal & rook_rays) | (diagonal & bishop_rays),
        )
    }
}

/// Whether nothing stands between `sq` and a slider on a line through it, by game `G`'s board
/// (on the cylinder, along either of the two paths that may join them).
#[inline(always)]
fn line_open<const G: u8>(sq: WideSquare, slider: WideSquare, occupied: u128) -> bool {
    if G == CYLINDER {
        let [a, b] = *cylinder::paths(sq, slider);
        a & occupied == 0 || b & occupied == 0
    } else {
        between(sq, slider) & occupied == 0
    }
}
