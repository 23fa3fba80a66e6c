//! Janus Chess (`janus`), as `GAMES.md` gives it:
//!
//! > 10x8; each side adds two **januses** (bishop + knight) between rook and knight, and king
//! > and queen swap places: `R J N B K Q B N J R`, king e1.
//! > **Castling**: king e1 to **i1** with the rook j1 to h1 (`e1i1`), or king e1 to **b1** with
//! > the rook a1 to c1 (`e1b1`); squares between king and rook empty, the king not in check and
//! > not passing or landing on an attacked square.
//! > Promotion to Q, R, B, N or janus (`b7b8j`).
//!
//! The janus moves as the archbishop does; only its letter, `J`, is Janus Chess's own.

use super::role::WideRole;
use super::variant::{CastlingDef, GameDef, WideVariant};

pub(crate) const DEF: GameDef = GameDef::standard(
    WideVariant::Janus,
    (10, 8),
    "rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq - 0 1",
    *b"PNBRQKJ\0\0",
    &[
        WideRole::Queen,
        WideRole::Rook,
        WideRole::Bishop,
        WideRole::Knight,
        WideRole::Archbishop,
    ],
    true,
    Some(CastlingDef {
        king_to: [8, 1],
        rook_to: [7, 2],
        king_takes_rook: false,
    }),
);
