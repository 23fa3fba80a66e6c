//! perft suites from data files (`tests/data/*.perft`, copied from the published counts):
//! every line up to 10 million nodes runs by default, the deep lines in an ignored test
//! (`cargo test -p chessd-rules --release -- --ignored`).

use chessd_rules::{Position, Variant};

/// Lines above this many nodes are left to the ignored test so the default run stays quick.
const DEFAULT_NODE_LIMIT: u64 = 10_000_000;

struct Line {
    id: String,
    fen: String,
    depth: u32,
    nodes: u64,
}

fn suite(text: &str) -> Vec<Line> {
    let (mut id, mut fen) = (String::new(), String::new());
    let mut lines = Vec::new();
    for raw in text.lines().map(str::trim) {
        if let Some(rest) = raw.strip_prefix("id ") {
            id = rest.to_string();
        } else if let Some(rest) = raw.strip_prefix("epd ") {
            fen = rest.to_string();
        } else if let Some(rest) = raw.strip_prefix("perft ") {
            let mut it = rest.split_whitespace();
            let depth = it.next().and_then(|d| d.parse().ok()).expect("perft depth");
            let nodes = it.next().and_then(|n| n.parse().ok()).expect("perft nodes");
            lines.push(Line {
                id: id.clone(),
                fen: fen.clone(),
                depth,
                nodes,
            });
        }
    }
    assert!(!lines.is_empty(), "empty perft suite");
    lines
}

fn run(variant: Variant, text: &str, keep: impl Fn(u64) -> bool) -> usize {
    let mut ran = 0;
    for line in suite(text).into_iter().filter(|l| keep(l.nodes)) {
        let pos =
            Position::from_fen(variant, &line.fen).unwrap_or_else(|e| panic!("{}: {e}", line.fen));
        let got = pos.perft(line.depth);
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

/// Standard chess positions 1-6 (start, Kiwipete, ...) match the published counts.
#[test]
fn chess_suite() {
    assert!(run(Variant::Chess, CHESS, |n| n <= DEFAULT_NODE_LIMIT) >= 25);
}

/// The published Racing Kings positions, including the colour-mirrored rook race whose counts
/// differ because Black's catch-up move is not symmetric.
#[test]
fn racing_kings_suite() {
    assert!(
        run(Variant::RacingKings, RACING_KINGS, |n| n
            <= DEFAULT_NODE_LIMIT)
            >= 15
    );
}

/// The deep lines (up to 300 million nodes each).
#[test]
#[ignore = "deep perft: minutes in release mode"]
fn deep_suites() {
    run(Variant::Chess, CHESS, |n| n > DEFAULT_NODE_LIMIT);
    run(Variant::RacingKings, RACING_KINGS, |n| {
        n > DEFAULT_NODE_LIMIT
    });
}
