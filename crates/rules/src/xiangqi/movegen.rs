//! Legal move generation and perft.
//!
//! Out of check, one scan of the general's four lines and four diagonal neighbours finds the
//! few pieces whose leaving could expose it (a chariot's or the other general's single
//! blocker, either of the two pieces between it and a cannon, a horse's leg) and the empty
//! points between it and a cannon with nothing between them (a piece landing there would
//! become the cannon's screen). Every other piece's moves are legal as generated, so perft's
//! last ply counts them with a popcount; only the general's moves, the marked pieces' moves and
//! every move out of check are tested by playing them on the occupancy.

use core::ops::Deref;

use super::attacks::{
    ADVISOR, GENERAL, HORSE_FROM, RAYS, cannon_hits, chariot, elephant, first, horse, soldier,
};
use super::mv::XiangqiMove;
use super::position::XiangqiPosition;
use super::role::XiangqiRole;
use super::square::XiangqiSquare;

/// More moves than any position has: the pieces a side can have (never more than at the
/// start, which the FEN reader enforces) reach at most 119 points between them.
pub const MAX_MOVES: usize = 128;

/// A position's legal moves, on the stack.
#[derive(Clone, Copy, Debug)]
pub struct XiangqiMoves {
    moves: [XiangqiMove; MAX_MOVES],
    len: usize,
}

const NONE: XiangqiMove = XiangqiMove::new(
    XiangqiRole::General,
    XiangqiSquare::at(0),
    XiangqiSquare::at(0),
);

impl XiangqiMoves {
    fn new() -> XiangqiMoves {
        XiangqiMoves {
            moves: [NONE; MAX_MOVES],
            len: 0,
        }
    }
}

impl Deref for XiangqiMoves {
    type Target = [XiangqiMove];

    fn deref(&self) -> &[XiangqiMove] {
        &self.moves[..self.len]
    }
}

impl PartialEq for XiangqiMoves {
    fn eq(&self, other: &XiangqiMoves) -> bool {
        **self == **other
    }
}

impl Eq for XiangqiMoves {}

/// Where generated moves go: `targets` are the destinations of the piece on `from`; `safe`
/// says they are all legal, otherwise each must be tested.
trait Sink {
    fn add(
        &mut self,
        pos: &XiangqiPosition,
        role: XiangqiRole,
        from: usize,
        targets: u128,
        safe: bool,
    );
}

struct Count(u64);

impl Sink for Count {
    #[inline(always)]
    fn add(
        &mut self,
        pos: &XiangqiPosition,
        _: XiangqiRole,
        from: usize,
        mut targets: u128,
        safe: bool,
    ) {
        if safe {
            self.0 += u64::from(targets.count_ones());
        } else {
            while targets != 0 {
                let to = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                self.0 += u64::from(pos.is_safe(from, to));
            }
        }
    }
}

impl Sink for XiangqiMoves {
    #[inline(always)]
    fn add(
        &mut self,
        pos: &XiangqiPosition,
        role: XiangqiRole,
        from: usize,
        mut targets: u128,
        safe: bool,
    ) {
        let from_sq = XiangqiSquare::at(from as u32);
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            if safe || pos.is_safe(from, to) {
                self.moves[self.len] =
                    XiangqiMove::new(role, from_sq, XiangqiSquare::at(to as u32));
                self.len += 1;
            }
        }
    }
}

/// The pieces of the side to move whose moves must be tested, and the empty points no piece
/// but the general may land on (they would screen a cannon onto the general).
#[inline(always)]
fn dangers(pos: &XiangqiPosition, general: usize, ours: u128, theirs: u128) -> (u128, u128) {
    let occupied = ours | theirs;
    let chariots = pos.roles[XiangqiRole::Chariot.index()] & theirs;
    let cannons = pos.roles[XiangqiRole::Cannon.index()] & theirs;
    let their_general = pos.roles[XiangqiRole::General.index()] & theirs;
    let horses = pos.roles[XiangqiRole::Horse.index()] & theirs;
    let (mut pinned, mut forbidden) = (0u128, 0u128);
    for (dir, rays) in RAYS.iter().enumerate() {
        let Some(p1) = first(dir, general, occupied) else {
            continue;
        };
        let b1 = 1u128 << p1;
        if cannons & b1 != 0 {
            forbidden |= rays[general] ^ rays[p1] ^ b1;
        }
        let Some(p2) = first(dir, p1, occupied) else {
            continue;
        };
        let b2 = 1u128 << p2;
        let direct = if dir % 2 == 0 {
            chariots | their_general
        } else {
            chariots
        };
        if direct & b2 != 0 {
            pinned |= b1;
        }
        if let Some(p3) = first(dir, p2, occupied)
            && cannons & (1u128 << p3) != 0
        {
            pinned |= b1 | b2;
        }
    }
    for step in &HORSE_FROM[general] {
        if step.to & horses != 0 {
            pinned |= step.block;
        }
    }
    (pinned & ours, forbidden)
}

#[inline(always)]
fn each(mut bb: u128, mut f: impl FnMut(usize)) {
    while bb != 0 {
        let sq = bb.trailing_zeros() as usize;
        bb &= bb - 1;
        f(sq);
    }
}

#[inline(always)]
fn generate<S: Sink>(pos: &XiangqiPosition, sink: &mut S) {
    let us = pos.turn;
    let ours = pos.colors[us.index()];
    let theirs = pos.colors[(!us).index()];
    let occupied = ours | theirs;
    let general = usize::from(pos.generals[us.index()]);
    let in_check = pos.attacked_by(general, !us, occupied, theirs);
    let (pinned, forbidden) = if in_check {
        (u128::MAX, 0)
    } else {
        dangers(pos, general, ours, theirs)
    };
    let open = !ours & !forbidden;
    let of = |role: XiangqiRole| pos.roles[role.index()] & ours;
    sink.add(
        pos,
        XiangqiRole::General,
        general,
        GENERAL[general] & !ours,
        false,
    );
    each(of(XiangqiRole::Advisor), |sq| {
        sink.add(
            pos,
            XiangqiRole::Advisor,
            sq,
            ADVISOR[sq] & open,
            pinned & (1 << sq) == 0,
        );
    });
    each(of(XiangqiRole::Elephant), |sq| {
        let to = elephant(sq, occupied) & open;
        sink.add(pos, XiangqiRole::Elephant, sq, to, pinned & (1 << sq) == 0);
    });
    each(of(XiangqiRole::Horse), |sq| {
        let to = horse(sq, occupied) & open;
        sink.add(pos, XiangqiRole::Horse, sq, to, pinned & (1 << sq) == 0);
    });
    each(of(XiangqiRole::Chariot), |sq| {
        let to = chariot(sq, occupied) & open;
        sink.add(pos, XiangqiRole::Chariot, sq, to, pinned & (1 << sq) == 0);
    });
    each(of(XiangqiRole::Cannon), |sq| {
        let to =
            (chariot(sq, occupied) & !occupied & !forbidden) | (cannon_hits(sq, occupied) & theirs);
        sink.add(pos, XiangqiRole::Cannon, sq, to, pinned & (1 << sq) == 0);
    });
    each(of(XiangqiRole::Soldier), |sq| {
        let to = soldier(us, sq) & open;
        sink.add(pos, XiangqiRole::Soldier, sq, to, pinned & (1 << sq) == 0);
    });
}

impl XiangqiPosition {
    /// Every legal move.
    #[must_use]
    pub fn legal_moves(&self) -> XiangqiMoves {
        let mut moves = XiangqiMoves::new();
        generate(self, &mut moves);
        moves
    }

    /// How many legal moves there are, without listing them.
    #[must_use]
    pub fn count_legal(&self) -> u64 {
        let mut count = Count(0);
        generate(self, &mut count);
        count.0
    }

    /// Whether the side to move has any legal move.
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        self.count_legal() != 0
    }

    /// The leaf nodes `depth` plies down (the last ply counted, not played).
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal(),
            _ => self
                .legal_moves()
                .iter()
                .map(|&m| {
                    let mut next = *self;
                    next.play_unchecked(m);
                    next.perft(depth - 1)
                })
                .sum(),
        }
    }

    /// Each legal move with the leaf count below it.
    #[must_use]
    pub fn divide(&self, depth: u32) -> Vec<(XiangqiMove, u64)> {
        self.legal_moves()
            .iter()
            .map(|&m| {
                let mut next = *self;
                next.play_unchecked(m);
                (m, next.perft(depth.saturating_sub(1)))
            })
            .collect()
    }
}
