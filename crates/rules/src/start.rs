//! [`Start`]: a game's start as a record keeps it, for every engine family. Most games begin
//! at their variant's own start, which is then kept by name, as is the variant's own start
//! with a draw of chance made in it (Dice Chess's first roll: every such game has one) or
//! with Black to move (a Screen Chess game's until its setup is over); any other start is kept
//! whole, boxed, so a record is not the size of a second position for the rare game that
//! needs one.

use core::convert::Infallible;
use core::fmt;
use core::hash::Hash;

use crate::{Position, Rules, Variant};

/// A family's position that has a variant with a start of its own.
pub trait StandardStart: Copy + Eq {
    /// The family's games, each naming its start.
    type Variant: Copy + Eq + Hash + fmt::Debug;
    /// How a start may differ from its variant's own and still be kept by name: a draw of
    /// chance it holds, say (`Infallible` in a family with none).
    type Draw: Copy + Eq + Hash + fmt::Debug;

    /// The variant's own start.
    fn standard(variant: Self::Variant) -> Self;
    /// The game this position is one of.
    fn variant_of(&self) -> Self::Variant;
    /// How this position differs from its variant's own start, when that is all it differs
    /// by ([`StandardStart::drawn`] gives it back).
    fn draw_in_start(&self) -> Option<Self::Draw>;
    /// The variant's own start changed by `draw`.
    fn drawn(variant: Self::Variant, draw: Self::Draw) -> Self;
}

/// A start position: the variant's own by name, any other boxed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Start<P: StandardStart> {
    /// `P::standard(variant)`.
    Standard(P::Variant),
    /// `P::drawn(variant, draw)`.
    Drawn(P::Variant, P::Draw),
    Other(Box<P>),
}

/// The 8x8 engine's start.
pub type StartPosition = Start<Position>;

impl<P: StandardStart> From<P> for Start<P> {
    fn from(position: P) -> Start<P> {
        let variant = position.variant_of();
        if position == P::standard(variant) {
            Start::Standard(variant)
        } else if let Some(draw) = position.draw_in_start() {
            Start::Drawn(variant, draw)
        } else {
            Start::Other(Box::new(position))
        }
    }
}

impl<P: StandardStart> Start<P> {
    #[must_use]
    pub fn position(&self) -> P {
        match self {
            Start::Standard(variant) => P::standard(*variant),
            Start::Drawn(variant, draw) => P::drawn(*variant, *draw),
            Start::Other(position) => **position,
        }
    }

    #[must_use]
    pub fn variant(&self) -> P::Variant {
        match self {
            Start::Standard(variant) | Start::Drawn(variant, _) => *variant,
            Start::Other(position) => position.variant_of(),
        }
    }
}

impl StandardStart for Position {
    type Variant = Variant;
    type Draw = Infallible;

    fn standard(variant: Variant) -> Position {
        Position::new(variant)
    }

    fn variant_of(&self) -> Variant {
        self.variant()
    }

    fn draw_in_start(&self) -> Option<Infallible> {
        None
    }

    fn drawn(_: Variant, draw: Infallible) -> Position {
        match draw {}
    }
}

#[cfg(test)]
mod tests {
    use super::StartPosition;
    use crate::{Position, Variant};

    /// A variant's own start is kept by name, any other by value; both give the position back.
    #[test]
    fn starts_are_kept_small() {
        let standard = Position::new(Variant::Crazyhouse);
        assert_eq!(
            StartPosition::from(standard),
            StartPosition::Standard(Variant::Crazyhouse)
        );
        let other = Position::from_fen(Variant::Chess, "8/8/8/4k3/8/8/8/4K2R w K - 0 1").unwrap();
        let kept = StartPosition::from(other);
        assert!(matches!(kept, StartPosition::Other(_)));
        assert_eq!((kept.position(), kept.variant()), (other, Variant::Chess));
        assert_eq!(StartPosition::from(standard).position(), standard);
        assert_eq!(size_of::<StartPosition>(), 16);
    }
}
