//! [`Member`]: what `any` needs of an engine family beyond [`Family`]: how its moves become
//! [`AnyMove`]s and back, so the record's generic operations serve every family alike.

use crate::any::AnyMove;
use crate::shogi::ShogiPosition;
use crate::wide::WidePosition;
use crate::xiangqi::XiangqiPosition;
use crate::{Family, Position};

/// An engine family behind the `any` enums.
pub(crate) trait Member: Family {
    /// `m`, a move of this position's game, in the family-neutral vocabulary (a move whose
    /// text depends on the board carries its game).
    fn wrap(&self, m: Self::Move) -> AnyMove;
    /// The family's own move, if `m` is one of this family's.
    fn unwrap(m: AnyMove) -> Option<Self::Move>;
}

impl Member for Position {
    fn wrap(&self, m: crate::Move) -> AnyMove {
        AnyMove::Std(m)
    }

    fn unwrap(m: AnyMove) -> Option<crate::Move> {
        m.std()
    }
}

impl Member for WidePosition {
    fn wrap(&self, m: crate::wide::WideMove) -> AnyMove {
        AnyMove::Wide(self.variant(), m)
    }

    fn unwrap(m: AnyMove) -> Option<crate::wide::WideMove> {
        match m {
            AnyMove::Wide(_, m) => Some(m),
            _ => None,
        }
    }
}

impl Member for ShogiPosition {
    fn wrap(&self, m: crate::shogi::ShogiMove) -> AnyMove {
        AnyMove::Shogi(self.variant(), m)
    }

    fn unwrap(m: AnyMove) -> Option<crate::shogi::ShogiMove> {
        match m {
            AnyMove::Shogi(_, m) => Some(m),
            _ => None,
        }
    }
}

impl Member for XiangqiPosition {
    fn wrap(&self, m: crate::xiangqi::XiangqiMove) -> AnyMove {
        AnyMove::Xiangqi(m)
    }

    fn unwrap(m: AnyMove) -> Option<crate::xiangqi::XiangqiMove> {
        match m {
            AnyMove::Xiangqi(m) => Some(m),
            _ => None,
        }
    }
}
