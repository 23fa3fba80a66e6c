//! Capablanca Chess (`capablanca`), as Fairy-Stockfish plays it (the brief's start position):
//!
//! > `rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1`: archbishop (`A`,
//! > bishop + knight) on c1, chancellor (`C`, rook + knight) on h1, king f1. Castling puts the
//! > king on i1 with the rook on h1 (`f1i1`), or on c1 with the rook on d1 (`f1c1`), on the
//! > usual conditions. Promotion to Q, R, B, N, A or C. Everything else is standard chess.

use super::role::WideRole;
use super::variant::{CAPABLANCA_LETTERS, CastlingDef, GameDef, WideVariant};

/// The promotion roles of every game with both compounds.
pub(crate) const PROMOTIONS: [WideRole; 6] = [
    WideRole::Queen,
    WideRole::Chancellor,
    WideRole::Archbishop,
    WideRole::Rook,
    WideRole::Bishop,
    WideRole::Knight,
];

/// Capablanca's castling: king to the c- or i-file, rook beside it on the inside.
pub(crate) const CASTLING: CastlingDef = CastlingDef {
    king_to: [8, 2],
    rook_to: [7, 3],
    king_takes_rook: false,
};

pub(crate) const DEF: GameDef = GameDef::standard(
    WideVariant::Capablanca,
    (10, 8),
    "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
    CAPABLANCA_LETTERS,
    &PROMOTIONS,
    true,
    Some(CASTLING),
);
