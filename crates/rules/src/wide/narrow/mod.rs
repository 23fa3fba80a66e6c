//! The 8x8 generator: moves and perft of the wide family's games that bend chess on its own
//! board, which no other program plays (Cylinder, Knight Relay, Cheshire Cat, Ice Age).
//!
//! A `WidePosition` keeps every board in `u128`s of the 12x10 numbering, so each bitboard
//! operation is two; these four games never leave the 8x8 board, so for generating their
//! moves a position is copied into a `Narrow`, whose bitboards are `u64`s of the 8x8
//! numbering (`rank * 8 + file`) and whose flat-board lookups are the 8x8 engine's. The
//! copy is a few shifts a bitboard, once per call from the wide side; perft copies once at
//! its root and then plays and generates here (`play.rs`, `movegen.rs`). Everything else of
//! these games (FEN, SAN, ends, the record) stays with `WidePosition`, whose `play` is the
//! one the service calls (the tests hold the two plays to the same positions), and which asks
//! here which pieces attack a square.
//!
//! Each game is its own copy of the generator (a const parameter, `G`), with the other
//! games' tests folded away.

mod attacks;
mod movegen;
mod play;
mod tables;
#[cfg(test)]
mod tests;

use super::movegen::Sink;
use super::mv::{WideMove, WideMoveKind};
use super::position::WidePosition;
use super::role::WideRole;
use super::square::WideSquare;
use super::variant::EightByEight;
use crate::Color;
use attacks::knight_cover;
use tables::{Bb, squares};

/// The games, as the generator's const parameter.
const CYLINDER: u8 = 0;
const RELAY: u8 = 1;
const CHESHIRE: u8 = 2;
const ICE: u8 = 3;

/// The roles these games have, as indices of `Narrow::roles`: the first six of
/// `WideRole::index`, so a wide position's role sets copy across in order.
const PAWN: usize = 0;
const KNIGHT: usize = 1;
const BISHOP: usize = 2;
const ROOK: usize = 3;
const QUEEN: usize = 4;
const KING: usize = 5;
const _: () = assert!(
    WideRole::Pawn as usize == PAWN
        && WideRole::Knight as usize == KNIGHT
        && WideRole::Bishop as usize == BISHOP
        && WideRole::Rook as usize == ROOK
        && WideRole::Queen as usize == QUEEN
        && WideRole::King as usize == KING
);

/// A position of one of the four games on `u64` bitboards: what generating moves and playing
/// them reads and writes, and no more.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Narrow {
    game: u8,
    roles: [Bb; 6],
    colors: [Bb; 2],
    /// Ice Age: the squares holding ice.
    ice: Bb,
    /// Cheshire Cat: the squares that have vanished.
    vanished: Bb,
    turn: Color,
    /// The rook each side may still castle with, per side of its king (king's side first).
    castles: [[Option<u8>; 2]; 2],
    /// The square a pawn of the side to move may take en passant on; the pawn taken stands
    /// one rank beyond it (every pawn of these games steps straight).
    ep: Option<u8>,
    /// Cheshire Cat: per colour, whether its king has not moved (and so may move as a queen).
    fresh_kings: [bool; 2],
    /// Kept for the tests' comparison with the wide position's play; perft never reads it.
    halfmoves: u32,
    /// Ice Age: the refreeze follows Black's moves numbered by multiples of 20.
    fullmoves: u32,
    /// Ice Age: a king froze, so no move is left.
    extinct: bool,
}

/// A move of `Narrow`'s board, squares in the 8x8 numbering (castling: the king's square to
/// its rook's, as `WideMove` has it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct NarrowMove {
    from: u8,
    to: u8,
    promotion: Option<WideRole>,
    kind: WideMoveKind,
}

impl NarrowMove {
    #[inline(always)]
    fn new(from: u32, to: u32, promotion: Option<WideRole>, kind: WideMoveKind) -> NarrowMove {
        NarrowMove {
            from: from as u8,
            to: to as u8,
            promotion,
            kind,
        }
    }

    fn to_wide(self) -> WideMove {
        WideMove::new(
            wide_square(u32::from(self.from)),
            wide_square(u32::from(self.to)),
            self.promotion,
            self.kind,
        )
    }
}

/// The 8x8 numbering's square `sq` in the wide numbering.
#[inline]
fn wide_square(sq: u32) -> WideSquare {
    WideSquare::at(sq / 8 * 12 + sq % 8)
}

/// A wide square of the 8x8 corner in the 8x8 numbering.
#[inline]
fn narrow_square(sq: WideSquare) -> u8 {
    sq.rank() * 8 + sq.file()
}

/// The 8x8 corner of a wide bitboard.
#[inline]
fn narrow_bits(bb: u128) -> Bb {
    let mut narrow = 0;
    for rank in 0..8 {
        narrow |= Bb::from((bb >> (rank * 12)) as u8) << (rank * 8);
    }
    narrow
}

/// An 8x8 bitboard in the wide numbering.
#[inline]
fn wide_bits(bb: Bb) -> u128 {
    let mut wide = 0;
    for rank in 0..8 {
        wide |= u128::from((bb >> (rank * 8)) as u8) << (rank * 12);
    }
    wide
}

/// The generator of the game a wide position is of, if it is one of the four.
fn game_of(pos: &WidePosition) -> Option<u8> {
    Some(match pos.def.narrow? {
        EightByEight::Cylinder => CYLINDER,
        EightByEight::KnightRelay => RELAY,
        EightByEight::CheshireCat => CHESHIRE,
        EightByEight::IceAge => ICE,
    })
}

/// Where generated moves go (the 8x8 form of the wide generator's `Sink`).
trait NarrowSink {
    fn push(&mut self, m: NarrowMove);

    /// A piece (not a pawn) on `from` moving to each square of `targets`.
    #[inline]
    fn push_targets(&mut self, from: u32, targets: Bb) {
        for to in squares(targets) {
            self.push(NarrowMove::new(from, to, None, WideMoveKind::Normal));
        }
    }

    /// Pawns moving to each square of `targets`, from `delta` squares back, none promoting.
    #[inline]
    fn push_pawns(&mut self, targets: Bb, delta: i32, kind: WideMoveKind) {
        for to in squares(targets) {
            self.push(NarrowMove::new((to as i32 - delta) as u32, to, None, kind));
        }
    }
}

impl NarrowSink for Vec<NarrowMove> {
    #[inline]
    fn push(&mut self, m: NarrowMove) {
        Vec::push(self, m);
    }
}

/// Counts moves without listing them: disjoint target sets are gathered and counted in one
/// popcount when the next overlaps (the default x86-64 target has no popcount instruction).
struct Count {
    counted: u64,
    gathered: Bb,
}

impl Count {
    #[inline(always)]
    fn gather(&mut self, targets: Bb) {
        if self.gathered & targets == 0 {
            self.gathered |= targets;
        } else {
            self.counted += u64::from(self.gathered.count_ones());
            self.gathered = targets;
        }
    }

    fn total(&self) -> u64 {
        self.counted + u64::from(self.gathered.count_ones())
    }
}

impl NarrowSink for Count {
    #[inline]
    fn push(&mut self, _: NarrowMove) {
        self.counted += 1;
    }

    #[inline(always)]
    fn push_targets(&mut self, _: u32, targets: Bb) {
        self.gather(targets);
    }

    #[inline(always)]
    fn push_pawns(&mut self, targets: Bb, _: i32, _: WideMoveKind) {
        self.gather(targets);
    }
}

/// The wide generator's sink, fed from here.
struct Widen<'a, S: Sink>(&'a mut S);

impl<S: Sink> NarrowSink for Widen<'_, S> {
    #[inline]
    fn push(&mut self, m: NarrowMove) {
        self.0.push(m.to_wide());
    }
}

impl Narrow {
    /// The position `pos` holds, if its game is one of the four.
    fn of(pos: &WidePosition) -> Option<Narrow> {
        let game = game_of(pos)?;
        let castle = |rook: Option<WideSquare>| rook.map(narrow_square);
        Some(Narrow {
            game,
            roles: core::array::from_fn(|role| narrow_bits(pos.roles[role])),
            colors: pos.colors.map(narrow_bits),
            ice: narrow_bits(pos.ice),
            vanished: narrow_bits(pos.vanished),
            turn: pos.turn,
            castles: pos.castles.map(|sides| sides.map(castle)),
            ep: pos.ep.map(narrow_square),
            fresh_kings: pos.fresh_kings,
            halfmoves: pos.halfmoves,
            fullmoves: pos.fullmoves,
            extinct: pos.extinct,
        })
    }

    /// Every legal move, into `sink`.
    fn generate<S: NarrowSink>(&self, sink: &mut S) {
        match self.game {
            CYLINDER => self.generate_in::<S, CYLINDER>(sink),
            RELAY => self.generate_in::<S, RELAY>(sink),
            CHESHIRE => self.generate_in::<S, CHESHIRE>(sink),
            _ => self.generate_in::<S, ICE>(sink),
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        match self.game {
            CYLINDER => self.perft_in::<CYLINDER>(depth),
            RELAY => self.perft_in::<RELAY>(depth),
            CHESHIRE => self.perft_in::<CHESHIRE>(depth),
            _ => self.perft_in::<ICE>(depth),
        }
    }

    fn perft_in<const G: u8>(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => {
                let mut count = Count {
                    counted: 0,
                    gathered: 0,
                };
                self.generate_in::<_, G>(&mut count);
                count.total()
            }
            _ => {
                let mut moves = Vec::with_capacity(96);
                self.generate_in::<_, G>(&mut moves);
                moves
                    .into_iter()
                    .map(|m| {
                        let mut child = *self;
                        child.play_in::<G>(m);
                        child.perft_in::<G>(depth - 1)
                    })
                    .sum()
            }
        }
    }

    #[inline(always)]
    fn pieces(&self, color: Color, role: usize) -> Bb {
        self.roles[role] & self.colors[color.index()]
    }
}

impl WidePosition {
    /// Whether this game's moves are the 8x8 generator's.
    #[inline(always)]
    pub(super) fn is_narrow(&self) -> bool {
        self.def.narrow.is_some()
    }

    /// Every legal move of a game `is_narrow` holds for, into `sink`. Never inlined: in the
    /// shared generator's body it would cost the other games registers and code size.
    #[inline(never)]
    pub(super) fn narrow_generate<S: Sink>(&self, sink: &mut S) {
        if let Some(narrow) = Narrow::of(self) {
            narrow.generate(&mut Widen(sink));
        }
    }

    /// The pieces of `by` attacking `sq` when the board holds `occupied`, in a game
    /// `is_narrow` holds for: the wrapping, relayed and queen-king attacks, and ice that
    /// attacks nothing. Not a hot path (check, SAN's `+`): the position is copied for each
    /// call.
    pub(super) fn narrow_attackers(&self, sq: WideSquare, occupied: u128, by: Color) -> u128 {
        let Some(narrow) = Narrow::of(self) else {
            return 0;
        };
        if sq.file() >= 8 || sq.rank() >= 8 {
            return 0;
        }
        let (sq, occupied) = (u32::from(narrow_square(sq)), narrow_bits(occupied));
        let theirs = narrow.colors[by.index()];
        let attackers = match narrow.game {
            CYLINDER => narrow.attackers_in::<CYLINDER>(sq, occupied, theirs, by, 0),
            RELAY => {
                let cover = knight_cover(narrow.pieces(by, KNIGHT));
                narrow.attackers_in::<RELAY>(sq, occupied, theirs, by, cover)
            }
            CHESHIRE => narrow.attackers_in::<CHESHIRE>(sq, occupied, theirs, by, 0),
            _ => narrow.attackers_in::<ICE>(sq, occupied, theirs, by, 0),
        };
        wide_bits(attackers)
    }

    /// Perft of a game `is_narrow` holds for, played on the 8x8 board from the root down.
    pub(super) fn narrow_perft(&self, depth: u32) -> Option<u64> {
        Narrow::of(self).map(|narrow| narrow.perft(depth))
    }
}
