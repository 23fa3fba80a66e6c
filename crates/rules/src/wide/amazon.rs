//! Amazon Chess (`amazon`), as `GAMES.md` gives it:
//!
//! > Each queen is replaced by an **Amazon** (`A`), which moves as a queen or a knight (the
//! > knight part jumps, the queen part is blocked as usual). Pawns promote to A, R, B or N
//! > (`e7e8a`). Everything else is standard chess.

use super::role::WideRole;
use super::variant::{CHESS_CASTLING, GameDef, WideVariant};

pub(crate) const DEF: GameDef = GameDef::standard(
    WideVariant::Amazon,
    (8, 8),
    "rnbakbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBAKBNR w KQkq - 0 1",
    *b"PNBR\0K\0\0A",
    &[
        WideRole::Amazon,
        WideRole::Rook,
        WideRole::Bishop,
        WideRole::Knight,
    ],
    true,
    Some(CHESS_CASTLING),
);

#[cfg(test)]
mod tests {
    use super::super::{WidePosition, WideVariant};

    /// The amazon's knight part jumps over the pawns at the start: b1's knight squares and the
    /// amazon's c2/e2 leaps are blocked by its own pawns, a3... are not.
    #[test]
    fn amazon_jumps_like_a_knight() {
        let p = WidePosition::new(WideVariant::Amazon);
        let from_d1: Vec<String> = p
            .legal_moves()
            .iter()
            .map(|m| m.to_uci(&p).to_string())
            .filter(|m| m.starts_with("d1"))
            .collect();
        assert_eq!(from_d1, ["d1c3", "d1e3"]);
        assert_eq!(p.perft(2), 484);
    }
}
