//! perft suites from data files (`tests/data/*.perft`, copied from the published counts; each
//! file's header names its source): every line up to a node limit runs by default, the deep
//! lines in an ignored test (`cargo test -p chessd-rules --release --test perft -- --ignored`).

use chessd_rules::{CastlingMode, FenError, Position, PositionError, Variant};

mod suite;

use suite::suite;

/// Lines above this many nodes are left to the ignored test so the default run stays quick.
const DEFAULT_NODE_LIMIT: u64 = 10_000_000;

/// Chess960's suite has 960 positions: the default run takes every line up to a million nodes
/// (depths 1 to 4, about 500 million nodes in all).
const CHESS960_NODE_LIMIT: u64 = 1_000_000;

/// The position of a suite line. A line whose castling rights only make sense under Chess960
/// rules (a king off e1 with rights, as in python-chess's `atomic960` lines) is read so.
fn position(variant: Variant, fen: &str) -> Position {
    match Position::from_fen(variant, fen) {
        Err(FenError::Position(PositionError::InvalidCastlingRights)) => {
            Position::from_fen_with(variant, fen, CastlingMode::Chess960)
        }
        other => other,
    }
    .unwrap_or_else(|e| panic!("{variant} {fen}: {e}"))
}

fn run(variant: Variant, text: &str, keep: impl Fn(u64) -> bool) -> usize {
    let mut ran = 0;
    for line in suite(text).into_iter().filter(|l| keep(l.nodes)) {
        let got = position(variant, &line.fen).perft(line.depth);
        assert_eq!(
            got, line.nodes,
            "{variant} {} ({}) depth {}",
            line.id, line.fen, line.depth
        );
        ran += 1;
    }
    ran
}

const CHESS: &str = include_str!("data/chess.perft");
const RACING_KINGS: &str = include_str!("data/racingkings.perft");
const CHESS960: &str = include_str!("data/chess960.perft");
const THREE_CHECK: &str = include_str!("data/threecheck.perft");
const ATOMIC: &str = include_str!("data/atomic.perft");
const ANTICHESS: &str = include_str!("data/antichess.perft");
const HORDE: &str = include_str!("data/horde.perft");
const CRAZYHOUSE: &str = include_str!("data/crazyhouse.perft");

/// Every suite with its variant and the limit of its default run.
const SUITES: [(Variant, &str, u64); 8] = [
    (Variant::Chess, CHESS, DEFAULT_NODE_LIMIT),
    (Variant::RacingKings, RACING_KINGS, DEFAULT_NODE_LIMIT),
    (Variant::Chess960, CHESS960, CHESS960_NODE_LIMIT),
    (Variant::ThreeCheck, THREE_CHECK, DEFAULT_NODE_LIMIT),
    (Variant::Atomic, ATOMIC, DEFAULT_NODE_LIMIT),
    (Variant::Antichess, ANTICHESS, DEFAULT_NODE_LIMIT),
    (Variant::Horde, HORDE, DEFAULT_NODE_LIMIT),
    (Variant::Crazyhouse, CRAZYHOUSE, DEFAULT_NODE_LIMIT),
];

fn quick(variant: Variant, text: &str) -> usize {
    let limit = SUITES.iter().find(|s| s.0 == variant).map_or(0, |s| s.2);
    run(variant, text, |n| n <= limit)
}

/// Standard chess positions 1-6 (start, Kiwipete, ...) match the published counts.
#[test]
fn chess_suite() {
    assert!(quick(Variant::Chess, CHESS) >= 30);
}

/// The published Racing Kings positions, including the colour-mirrored rook race whose counts
/// differ because Black's catch-up move is not symmetric.
#[test]
fn racing_kings_suite() {
    assert!(quick(Variant::RacingKings, RACING_KINGS) >= 17);
}

/// All 960 Chess960 positions (chessprogramming.org's counts) to depth 3, most to depth 4.
#[test]
fn chess960_suite() {
    assert!(quick(Variant::Chess960, CHESS960) >= 3700);
}

/// Three-check: Kiwipete and a castling position with one check left each.
#[test]
fn three_check_suite() {
    assert!(quick(Variant::ThreeCheck, THREE_CHECK) >= 6);
}

/// Atomic, including the castling lines that need Chess960 rules.
#[test]
fn atomic_suite() {
    assert!(quick(Variant::Atomic, ATOMIC) >= 31);
}

/// Antichess: the start and pawn races that end in a win by running out of pieces or moves.
#[test]
fn antichess_suite() {
    assert!(quick(Variant::Antichess, ANTICHESS) >= 23);
}

/// Horde: the start, an open flank and en passant after a second-rank double step.
#[test]
fn horde_suite() {
    assert!(quick(Variant::Horde, HORDE) >= 12);
}

/// Crazyhouse: every drop type, promoted pieces, pockets in both FEN forms.
#[test]
fn crazyhouse_suite() {
    assert!(quick(Variant::Crazyhouse, CRAZYHOUSE) >= 17);
}

/// The deep lines of every suite (up to about a billion nodes each).
#[test]
#[ignore = "deep perft: many minutes in release mode"]
fn deep_suites() {
    for (variant, text, limit) in SUITES {
        run(variant, text, |n| n > limit);
    }
}
