//! The wide family against Fairy-Stockfish, its oracle: perft suites (`tests/data/wide-*.perft`,
//! counts from `go perft`, the same format as `perft.rs`'s) up to a node limit by default and
//! deeper in an ignored test, and whole legal-move lists of seeded random playouts
//! (`tests/data/wide-*.moves`: `moves GAME --seed 1 --games 4`, Los Alamos `--games 8`, then
//! `--seed 5 --games 2 --bias`, which castles and promotes whenever it can). Both were written
//! by `tools/fsf_oracle.py`, its header says how; for Maharajah, Berolina and Legan, which
//! the Fairy-Stockfish here cannot play, by the independent reference `tools/ref_8x8.py`
//! (whose start counts agree with GAMES.md's Fairy-Stockfish counts); Dark Chess's moves by the
//! `dark` definition of `tools/fsf_variants.ini` (GAMES.md's `[fogofwar:chess]`); Dice Chess's
//! and Dice Chess 10x10's by those moves filtered by the die (`tools/fsf_dice.py`: its perft,
//! and `moves GAME --seed 1 --games 4`, one line per position and face that can come up, the
//! FEN carrying the roll); for Recycle and Ice Age,
//! which no program plays, by `tools/ref_recycle_iceage.py` (`moves GAME --seed 1 --games 4`).

use std::collections::BTreeSet;

use chessd_rules::wide::{WidePosition, WideVariant};

mod suite;

use suite::check;

/// Lines above this many nodes are left to the ignored test so the default run stays quick.
const NODE_LIMIT: u64 = 2_000_000;

const SUITES: [(WideVariant, &str, &str); 22] = [
    (
        WideVariant::LosAlamos,
        include_str!("data/wide-losalamos.perft"),
        include_str!("data/wide-losalamos.moves"),
    ),
    (
        WideVariant::Janus,
        include_str!("data/wide-janus.perft"),
        include_str!("data/wide-janus.moves"),
    ),
    (
        WideVariant::Embassy,
        include_str!("data/wide-embassy.perft"),
        include_str!("data/wide-embassy.moves"),
    ),
    (
        WideVariant::Capablanca,
        include_str!("data/wide-capablanca.perft"),
        include_str!("data/wide-capablanca.moves"),
    ),
    (
        WideVariant::CapaRandom,
        include_str!("data/wide-caparandom.perft"),
        include_str!("data/wide-caparandom.moves"),
    ),
    (
        WideVariant::Grand,
        include_str!("data/wide-grand.perft"),
        include_str!("data/wide-grand.moves"),
    ),
    (
        WideVariant::Corner,
        include_str!("data/wide-corner.perft"),
        include_str!("data/wide-corner.moves"),
    ),
    (
        WideVariant::Fortress,
        include_str!("data/wide-fortress.perft"),
        include_str!("data/wide-fortress.moves"),
    ),
    (
        WideVariant::BkHorde,
        include_str!("data/wide-bkhorde.perft"),
        include_str!("data/wide-bkhorde.moves"),
    ),
    (
        WideVariant::Extinction,
        include_str!("data/wide-extinction.perft"),
        include_str!("data/wide-extinction.moves"),
    ),
    (
        WideVariant::Massacre,
        include_str!("data/wide-massacre.perft"),
        include_str!("data/wide-massacre.moves"),
    ),
    (
        WideVariant::Maharajah,
        include_str!("data/wide-maharajah.perft"),
        include_str!("data/wide-maharajah.moves"),
    ),
    (
        WideVariant::Amazon,
        include_str!("data/wide-amazon.perft"),
        include_str!("data/wide-amazon.moves"),
    ),
    (
        WideVariant::Knightmate,
        include_str!("data/wide-knightmate.perft"),
        include_str!("data/wide-knightmate.moves"),
    ),
    (
        WideVariant::Berolina,
        include_str!("data/wide-berolina.perft"),
        include_str!("data/wide-berolina.moves"),
    ),
    (
        WideVariant::Legan,
        include_str!("data/wide-legan.perft"),
        include_str!("data/wide-legan.moves"),
    ),
    (
        WideVariant::Loop,
        include_str!("data/wide-loop.perft"),
        include_str!("data/wide-loop.moves"),
    ),
    (
        WideVariant::Recycle,
        include_str!("data/wide-recycle.perft"),
        include_str!("data/wide-recycle.moves"),
    ),
    (
        WideVariant::IceAge,
        include_str!("data/wide-iceage.perft"),
        include_str!("data/wide-iceage.moves"),
    ),
    (
        WideVariant::Dark,
        include_str!("data/wide-dark.perft"),
        include_str!("data/wide-dark.moves"),
    ),
    (
        WideVariant::Dice,
        include_str!("data/wide-dice.perft"),
        include_str!("data/wide-dice.moves"),
    ),
    (
        WideVariant::Dice10x10,
        include_str!("data/wide-dice10x10.perft"),
        include_str!("data/wide-dice10x10.moves"),
    ),
];

fn run(variant: WideVariant, text: &str, keep: impl Fn(u64) -> bool) -> usize {
    check(&variant.to_string(), text, keep, |fen, depth| {
        WidePosition::from_fen(variant, fen)
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
            .perft(depth)
    })
}

/// Every game's suite (start position and middlegames) up to the node limit.
#[test]
fn perft_suites() {
    for (variant, perft, _) in SUITES {
        assert!(run(variant, perft, |n| n <= NODE_LIMIT) >= 3, "{variant}");
    }
}

/// The deep lines (up to about a billion nodes each: run with `--release`).
#[test]
#[ignore = "deep perft: minutes in release mode"]
fn deep_perft_suites() {
    for (variant, perft, _) in SUITES {
        run(variant, perft, |n| n > NODE_LIMIT);
    }
}

/// In every position of Fairy-Stockfish's random playouts, the legal moves are exactly its
/// moves, in its notation (castling, promotion letters, rank 10), and our FEN of the position
/// reads back to the same position.
#[test]
fn legal_moves_match_fairy_stockfish() {
    for (variant, _, moves) in SUITES {
        let mut positions = 0;
        for line in moves.lines().filter(|l| !l.is_empty()) {
            // Recycle's and Ice Age's lines carry two more columns (the end, the move played):
            // `wide_reference_games.rs` reads those.
            let mut columns = line.split('\t');
            let (Some(fen), Some(expected)) = (columns.next(), columns.next()) else {
                panic!("FEN<TAB>moves: {line}");
            };
            let pos = WidePosition::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let ours: BTreeSet<String> = pos
                .legal_moves()
                .iter()
                .map(|m| m.to_uci(&pos).to_string())
                .collect();
            let theirs: BTreeSet<String> = expected.split_whitespace().map(String::from).collect();
            assert_eq!(
                ours,
                theirs,
                "{variant} {fen}: ours only {:?}, theirs only {:?}",
                ours.difference(&theirs).collect::<Vec<_>>(),
                theirs.difference(&ours).collect::<Vec<_>>()
            );
            assert_eq!(
                WidePosition::from_fen(variant, &pos.fen()),
                Ok(pos),
                "{fen}"
            );
            positions += 1;
        }
        assert!(positions >= 300, "{variant}: {positions} positions");
    }
}
