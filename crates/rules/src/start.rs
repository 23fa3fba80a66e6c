//! [`StartPosition`]: a game's start as a record keeps it. Most games begin at their
//! variant's own start, which is then kept by name; any other start is kept whole, boxed, so
//! a record is not the size of a second position for the rare game that needs one.

use crate::{Position, Rules, Variant};

/// A start position: the variant's own by name, any other boxed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum StartPosition {
    /// `Position::new(variant)`.
    Standard(Variant),
    Other(Box<Position>),
}

impl From<Position> for StartPosition {
    fn from(position: Position) -> StartPosition {
        let variant = position.variant();
        if position == Position::new(variant) {
            StartPosition::Standard(variant)
        } else {
            StartPosition::Other(Box::new(position))
        }
    }
}

impl StartPosition {
    #[must_use]
    pub fn position(&self) -> Position {
        match self {
            StartPosition::Standard(variant) => Position::new(*variant),
            StartPosition::Other(position) => **position,
        }
    }

    #[must_use]
    pub fn variant(&self) -> Variant {
        match self {
            StartPosition::Standard(variant) => *variant,
            StartPosition::Other(position) => position.variant(),
        }
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
