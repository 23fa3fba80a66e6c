//! The wide family's SAN against Fairy-Stockfish's (via pyffish, `tools/wide_san_oracle.py`):
//! for every legal move of every third position of each game's legal-move file (seeded random
//! games), the SAN chessd writes (marks included) is Fairy-Stockfish's, and reading that SAN
//! back gives the move.

use chessd_rules::wide::{WidePosition, WideSan, WideVariant, wide_san_plus, wide_san_plus_among};

fn check(variant: WideVariant) {
    let path = format!(
        "{}/tests/data/wide-{}.san",
        env!("CARGO_MANIFEST_DIR"),
        variant.key()
    );
    let data = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut moves = 0;
    for (n, line) in data.lines().enumerate() {
        let (fen, pairs) = line.split_once('\t').expect("FEN<TAB>pairs");
        let pos = WidePosition::from_fen(variant, fen)
            .unwrap_or_else(|e| panic!("{path}:{}: {fen}: {e}", n + 1));
        let words: Vec<&str> = pairs.split_whitespace().collect();
        assert_eq!(words.len() % 2, 0, "{path}:{}", n + 1);
        let legal = pos.legal_moves();
        assert_eq!(legal.len() * 2, words.len(), "{path}:{}: {fen}", n + 1);
        for pair in words.chunks(2) {
            let (uci, want) = (pair[0], pair[1]);
            let m = legal
                .iter()
                .copied()
                .find(|m| m.to_uci(&pos).to_string() == uci)
                .unwrap_or_else(|| panic!("{path}:{}: {fen}: no legal {uci}", n + 1));
            assert_eq!(wide_san_plus_among(&pos, m, &legal), want, "{fen}: {uci}");
            assert_eq!(wide_san_plus(&pos, m), want, "{fen}: {uci}");
            let read: WideSan = want.parse().unwrap_or_else(|e| panic!("{want}: {e}"));
            assert_eq!(read.to_move(&pos), Ok(m), "{fen}: {want}");
            moves += 1;
        }
    }
    assert!(moves > 1_000, "{path}: only {moves} moves");
}

/// The games Fairy-Stockfish plays (built in, or through tools/fsf_variants.ini), each against
/// its data; the others named with why they have none.
#[test]
fn every_game_with_an_oracle() {
    // Fairy-Stockfish does not play Maharajah's royal amazon, Berolina's or Legan's pawns; and
    // pyffish's Massacre lets a side without a capture move quietly where chessd's loses. No
    // program plays Cylinder, Knight Relay, Cheshire Cat, Recycle, Ice Age, Behemoth or Ambiguous (whose record
    // writes its turns' tokens, not SAN):
    // `wide_site.rs`, `wide_reference_games.rs` and `wide_behemoth.rs` read their SAN back
    // instead.
    let no_oracle = [
        WideVariant::Maharajah,
        WideVariant::Berolina,
        WideVariant::Legan,
        WideVariant::Massacre,
        WideVariant::Cylinder,
        WideVariant::KnightRelay,
        WideVariant::CheshireCat,
        WideVariant::Recycle,
        WideVariant::IceAge,
        WideVariant::Behemoth,
        WideVariant::Ambiguous,
    ];
    for variant in WideVariant::ALL {
        if !no_oracle.contains(&variant) {
            check(variant);
        }
    }
}
