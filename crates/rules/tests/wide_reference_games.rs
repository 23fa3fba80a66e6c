//! Recycle Chess and Ice Age against their independent reference, `tools/ref_recycle_iceage.py`,
//! game by game: its seeded random games (`tests/data/wide-recycle.moves`,
//! `wide-iceage.moves`, one line per position: FEN, legal moves, the position's end, the move
//! played) are replayed here from the start, and at every ply our FEN must be the reference's
//! text exactly and our end on the board the same (or none on both sides). The legal-move sets
//! are compared by `wide.rs`. With no other program to write their SAN, every legal move's SAN
//! in those positions must read back as that move (self-captures as `Kxd1`, ice captures as
//! `hxg3`, drops as `Q@e4`).

use chessd_rules::wide::{WidePosition, WideSan, WideVariant, wide_san_plus};

mod ends;
use ends::end_text;

/// Replays every game of `data`; returns (games, plies, the highest move number reached).
fn replay(variant: WideVariant, data: &str) -> (usize, usize, u32) {
    let (mut games, mut plies, mut deepest) = (0, 0, 0);
    let mut pos: Option<WidePosition> = None;
    for line in data.lines().filter(|l| !l.is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 4, "FEN, moves, end, played: {line}");
        let (fen, end, played) = (cols[0], cols[2], cols[3]);
        let here = pos.take().unwrap_or_else(|| {
            games += 1;
            let start = WidePosition::new(variant);
            assert_eq!(
                start.fen(),
                fen,
                "{variant}: a game starts from the start position"
            );
            start
        });
        assert_eq!(here.fen(), fen, "{variant}: FEN after {plies} plies");
        assert_eq!(end_text(here.outcome()), end, "{variant} {fen}: the end");
        deepest = deepest.max(here.fullmoves());
        if played != "-" {
            let mut next = here;
            next.play(played)
                .unwrap_or_else(|e| panic!("{variant} {fen}: {played}: {e}"));
            plies += 1;
            pos = Some(next);
        }
    }
    (games, plies, deepest)
}

#[test]
fn recycle_games_match_the_reference() {
    let (games, plies, _) = replay(
        WideVariant::Recycle,
        include_str!("data/wide-recycle.moves"),
    );
    assert!(games >= 4 && plies >= 300, "{games} games, {plies} plies");
}

/// The games run past move 40, so two Ice Ages are compared.
#[test]
fn ice_age_games_match_the_reference() {
    let (games, plies, deepest) =
        replay(WideVariant::IceAge, include_str!("data/wide-iceage.moves"));
    assert!(games >= 4 && plies >= 300, "{games} games, {plies} plies");
    assert!(deepest > 40, "the deepest game reached move {deepest}");
}

/// Every legal move's SAN in every position of the reference's games reads back as that move.
#[test]
fn san_reads_back_in_every_reference_position() {
    for (variant, data) in [
        (
            WideVariant::Recycle,
            include_str!("data/wide-recycle.moves"),
        ),
        (WideVariant::IceAge, include_str!("data/wide-iceage.moves")),
    ] {
        let mut moves = 0;
        for line in data.lines().filter(|l| !l.is_empty()) {
            let fen = line.split('\t').next().unwrap_or_default();
            let pos = WidePosition::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            for m in pos.legal_moves() {
                let san = wide_san_plus(&pos, m);
                let read: WideSan = san.parse().unwrap_or_else(|e| panic!("{fen}: {san}: {e}"));
                assert_eq!(read.to_move(&pos), Ok(m), "{variant} {fen}: {san}");
                moves += 1;
            }
        }
        assert!(moves > 10_000, "{variant}: {moves} moves");
    }
}
