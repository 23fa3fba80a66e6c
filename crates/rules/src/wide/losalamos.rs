//! Los Alamos Chess (`losalamos`), as `GAMES.md` gives it:
//!
//! > 6x6 board, no bishops: `R N Q K N R` on rank 1 (queen c1, king d1), pawns on rank 2.
//! > Pawns never double-step, so there is no en passant; there is no castling. Pawns promote on
//! > the last rank to Q, R or N (`a5a6q`). Stalemate draws.

use super::role::WideRole;
use super::variant::{GameDef, WideVariant};

pub(crate) const DEF: GameDef = GameDef::standard(
    WideVariant::LosAlamos,
    (6, 6),
    "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1",
    *b"PN\0RQK\0\0\0",
    &[WideRole::Queen, WideRole::Rook, WideRole::Knight],
    false,
    None,
);
