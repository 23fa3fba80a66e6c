//! Fortress Chess (`fortress`), as `GAMES.md` gives it:
//!
//! > Corner Chess plus **three extra pawns per side** in front of the king's corner: White on
//! > f3, g3, h3, Black on a6, b6, c6 (point-symmetric). The extra pawns are ordinary pawns:
//! > they do not double-step (only pawns on their second rank do) and they block the pawns
//! > behind them. **(decision)** The squares are what the public BrainKing importer places.
//!
//! The setup is drawn from Corner Chess's 360 arrays (`corner_array`).

use super::variant::{CHESS_LETTERS, CHESS_PROMOTIONS, GameDef, WideVariant};

pub(crate) const DEF: GameDef = GameDef::standard(
    WideVariant::Fortress,
    (8, 8),
    "krnbqnbr/pppppppp/ppp5/8/8/5PPP/PPPPPPPP/RBNQBNRK w - - 0 1",
    CHESS_LETTERS,
    &CHESS_PROMOTIONS,
    true,
    None,
);

/// The start FEN of the Fortress Chess array `index` (Corner Chess's numbering).
pub(crate) fn fortress_fen(index: u32) -> Option<String> {
    super::corner::corner_fen(index, "ppp5", "5PPP")
}

#[cfg(test)]
mod tests {
    use super::super::{WidePosition, WideVariant};

    /// The extra pawns step once and block the pawns behind them (the count is FSF's `chess`
    /// on this FEN, `GAMES.md`'s table); every array makes a legal start.
    #[test]
    fn extra_pawns_step_once() {
        let p = WidePosition::new(WideVariant::Fortress);
        let moves: Vec<String> = p
            .legal_moves()
            .iter()
            .map(|m| m.to_uci(&p).to_string())
            .collect();
        assert!(moves.contains(&"f3f4".to_string()));
        assert!(!moves.iter().any(|m| m == "f3f5" || m.starts_with("f2")));
        assert_eq!(p.perft(3), 4718);
        for i in 0..super::super::CORNER_ARRAYS {
            assert!(WidePosition::fortress(i).is_some());
        }
    }
}
