//! The shogi family against its oracles: perft suites (`tests/data/shogi.perft`, counts of
//! two independent MIT shogi generators; `tests/data/minishogi.perft`, Fairy-Stockfish's with
//! its mating pawn drops taken out, each file's header says how) up to a node limit by
//! default and deeper in an ignored test; and properties: text never panics the readers,
//! every generated move plays and its position's FEN and SFEN read back.

use chessd_rules::shogi::{ShogiMove, ShogiPosition, ShogiVariant};
use proptest::prelude::*;

mod suite;

use suite::{check, suite};

/// Lines above this many nodes are left to the ignored test so the default run stays quick.
const NODE_LIMIT: u64 = 2_000_000;

const SUITES: [(ShogiVariant, &str); 2] = [
    (ShogiVariant::Shogi, include_str!("data/shogi.perft")),
    (
        ShogiVariant::Minishogi,
        include_str!("data/minishogi.perft"),
    ),
];

fn run(variant: ShogiVariant, text: &str, keep: impl Fn(u64) -> bool) -> usize {
    check(&variant.to_string(), text, keep, |fen, depth| {
        ShogiPosition::from_fen(variant, fen)
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
            .perft(depth)
    })
}

/// Both games' suites up to the node limit.
#[test]
fn perft_suites() {
    for (variant, perft) in SUITES {
        assert!(run(variant, perft, |n| n <= NODE_LIMIT) >= 8, "{variant}");
    }
}

/// The deep lines (up to about half a billion nodes: run with `--release`).
#[test]
#[ignore = "deep perft: minutes in release mode"]
fn deep_perft_suites() {
    for (variant, perft) in SUITES {
        run(variant, perft, |n| n > NODE_LIMIT);
    }
}

/// Perft counted by playing every leaf move equals the bulk count (the counting sink and the
/// list agree, promotions and drops included).
#[test]
fn bulk_count_equals_the_list() {
    for (variant, perft) in SUITES {
        for line in suite(perft).into_iter().filter(|l| l.depth == 1) {
            let pos = ShogiPosition::from_fen(variant, &line.fen).unwrap();
            assert_eq!(
                pos.legal_moves().len() as u64,
                pos.count_legal(),
                "{}",
                line.fen
            );
        }
    }
}

fn playout(variant: ShogiVariant, choices: &[usize]) {
    let mut pos = ShogiPosition::new(variant);
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            assert!(pos.outcome().is_some());
            return;
        }
        assert_eq!(moves.len() as u64, pos.count_legal(), "{}", pos.fen());
        let m = moves[c % moves.len()];
        for text in [m.to_string(), m.usi(variant).to_string()] {
            assert_eq!(
                ShogiMove::parse_any(&text, variant),
                Ok(m),
                "{text} in {}",
                pos.fen()
            );
        }
        pos.play_unchecked(m);
        assert_eq!(
            ShogiPosition::from_fen(variant, &pos.fen()),
            Ok(pos),
            "{}",
            pos.fen()
        );
        let sfen = ShogiPosition::from_fen(variant, &pos.sfen()).unwrap();
        assert_eq!(sfen.sfen(), pos.sfen());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Random text never panics the position reader (FEN, SFEN) or the move readers.
    #[test]
    fn text_never_panics(text in "\\PC{0,90}") {
        for variant in ShogiVariant::ALL {
            let _ = ShogiPosition::from_fen(variant, &text);
            let _ = ShogiMove::parse_any(&text, variant);
        }
    }

    /// Position-shaped random text never panics either.
    #[test]
    fn fen_shaped_text_never_panics(text in "[1-9kKgGsSnNlLpPrRbB+/]{0,60}(\\[[pPlLnNsSgGrRbB0-9-]{0,6}\\])? [wb] ([0-9-]{1,3} ){0,3}[0-9]{0,3}") {
        for variant in ShogiVariant::ALL {
            let _ = ShogiPosition::from_fen(variant, &text);
        }
    }

    /// Along random games every generated move reads back from both notations, the list and
    /// the count agree, and every position's FEN and SFEN read back.
    #[test]
    fn random_games_round_trip(choices in proptest::collection::vec(any::<usize>(), 0..120)) {
        playout(ShogiVariant::Shogi, &choices);
        playout(ShogiVariant::Minishogi, &choices);
    }
}
