//! What a Dark Chess player sees, against an independent reference: `tools/ref_dark_fog.py`
//! (python-chess's move generator and BrainKing's rule from GAMES.md, no chessd code) wrote,
//! for every position of the Fairy-Stockfish-checked Dark Chess playouts
//! (`data/wide-dark.moves`), each side's fogged FEN (`data/wide-dark.fog`); the engine's must
//! be the same, square for square.

use chessd_rules::Color;
use chessd_rules::wide::{WidePosition, WideVariant};

#[test]
fn fogged_views_match_the_reference() {
    let data = include_str!("data/wide-dark.fog");
    let mut checked = 0;
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let mut fields = line.split('\t');
        let (Some(fen), Some(white), Some(black)) = (fields.next(), fields.next(), fields.next())
        else {
            panic!("a line without three fields: {line}");
        };
        let pos = WidePosition::from_fen(WideVariant::Dark, fen).unwrap();
        assert_eq!(pos.fog_fen(Color::White), white, "White's view of {fen}");
        assert_eq!(pos.fog_fen(Color::Black), black, "Black's view of {fen}");
        checked += 1;
    }
    assert!(checked > 400, "{checked} positions");
}
