//! Embassy Chess (`embassy`), as `GAMES.md` gives it:
//!
//! > 10x8, Grand Chess's pieces on one rank: FEN `RNBQKCABNR`, king e1, **marshal** (`C`) on
//! > f1, **cardinal** (`A`) on g1.
//! > **Castling**: the king moves **three** squares toward the rook and the rook jumps over it
//! > to the last square the king crossed: `e1h1` (rook j1 to g1) or `e1b1` (rook a1 to c1);
//! > usual conditions.
//! > Promotion to Q, R, B, N, marshal or cardinal.
//!
//! Toward a1 the king (e1 to b1) also moves three squares; the rook lands on c1.

use super::variant::{CAPABLANCA_LETTERS, CastlingDef, GameDef, WideVariant};

pub(crate) const DEF: GameDef = GameDef::standard(
    WideVariant::Embassy,
    (10, 8),
    "rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w KQkq - 0 1",
    CAPABLANCA_LETTERS,
    &super::capablanca::PROMOTIONS,
    true,
    Some(CastlingDef {
        king_to: [7, 1],
        rook_to: [6, 2],
        king_takes_rook: false,
    }),
);
