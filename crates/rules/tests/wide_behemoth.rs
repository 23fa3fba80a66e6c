//! Behemoth Chess against its independent reference, `tools/ref_behemoth.py`, which no other
//! program plays: the reference's seeded random games (`tests/data/wide-behemoth.moves`, one
//! line per position: FEN, legal moves, the position's end, the move played, the step the
//! reference drew, the FEN after the move and before the step) are replayed here from the
//! start, and at every ply our FEN (before and after the move), our legal moves and our end on
//! the board must be the reference's; and its perft counts (`wide-behemoth.perft`, every move
//! and, after each move but the last, every one of the 32 steps).

use std::collections::BTreeSet;

use chessd_rules::DrawRule;
use chessd_rules::wide::{
    BehemothStep, WideGame, WidePosition, WideSan, WideVariant, wide_san_plus,
};

mod suite;

mod ends;
use ends::end_text;

fn ucis(p: &WidePosition) -> BTreeSet<String> {
    p.legal_moves()
        .iter()
        .map(|m| m.to_uci(p).to_string())
        .collect()
}

#[test]
fn games_match_the_reference() {
    let data = include_str!("data/wide-behemoth.moves");
    let (mut games, mut plies, mut steps) = (0, 0, 0);
    let mut ends = BTreeSet::new();
    let mut pos: Option<WidePosition> = None;
    for line in data.lines().filter(|l| !l.is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(
            cols.len(),
            6,
            "FEN, moves, end, move, step, FEN after: {line}"
        );
        let (fen, moves, end, played, step, after) =
            (cols[0], cols[1], cols[2], cols[3], cols[4], cols[5]);
        let here = pos.take().unwrap_or_else(|| {
            games += 1;
            WidePosition::new(WideVariant::Behemoth)
        });
        assert_eq!(here.fen(), fen, "FEN after {plies} plies");
        assert_eq!(
            WidePosition::from_fen(WideVariant::Behemoth, fen),
            Ok(here),
            "{fen}"
        );
        let theirs: BTreeSet<String> = moves.split_whitespace().map(String::from).collect();
        assert_eq!(ucis(&here), theirs, "{fen}");
        assert_eq!(end_text(here.outcome()), end, "{fen}: the end");
        if end != "-" {
            ends.insert(end.split(' ').next().unwrap_or_default().to_string());
        }
        if played == "-" {
            continue;
        }
        let mut next = here;
        next.play(played)
            .unwrap_or_else(|e| panic!("{fen}: {played}: {e}"));
        plies += 1;
        assert_eq!(next.fen(), after, "{fen}: after {played}");
        assert_eq!(next.awaits_step(), step != "-", "{fen}: {played}");
        if step != "-" {
            let step: BehemothStep = step.parse().unwrap_or_else(|e| panic!("{e}"));
            next.apply_step(step)
                .unwrap_or_else(|e| panic!("{after}: {step}: {e}"));
            steps += 1;
        }
        pos = Some(next);
    }
    assert!(
        games >= 40 && plies >= 800 && steps >= 800,
        "{games} games, {plies} plies, {steps} steps"
    );
    // Every end the game has came up: a king taken, a king destroyed, both destroyed.
    assert!(
        ends.contains("king-captured") && ends.contains("king-destroyed"),
        "{ends:?}"
    );
}

/// The same games kept as a record keeps them, one entry a ply: the move and the step that
/// follows it (`e2e4~SE4`), so no recorded position waits; each reaches the reference's next
/// FEN.
#[test]
fn games_replay_as_records() {
    let mut game: Option<WideGame> = None;
    let mut entries = 0;
    for line in include_str!("data/wide-behemoth.moves").lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        let g = game.get_or_insert_with(|| {
            WideGame::new(
                WidePosition::new(WideVariant::Behemoth),
                DrawRule::Automatic,
            )
        });
        assert_eq!(g.position().fen(), cols[0]);
        let (played, step) = (cols[3], cols[4]);
        if played == "-" {
            assert_eq!(end_text(g.outcome()), cols[2], "{}", cols[0]);
            game = None;
            continue;
        }
        let entry = if step == "-" {
            played.to_string()
        } else {
            format!("{played}~{step}")
        };
        g.play_text(&entry)
            .unwrap_or_else(|e| panic!("{}: {entry}: {e}", cols[0]));
        assert!(!g.position().awaits_step());
        entries += 1;
    }
    assert!(entries >= 800, "{entries} entries");
}

#[test]
fn perft_matches_the_reference() {
    let lines = suite::check(
        "behemoth",
        include_str!("data/wide-behemoth.perft"),
        |_| true,
        |fen, depth| {
            WidePosition::from_fen(WideVariant::Behemoth, fen)
                .unwrap_or_else(|e| panic!("{fen}: {e}"))
                .perft(depth)
        },
    );
    assert!(lines >= 5, "{lines} lines");
}

/// With no other program to write the game's SAN, every legal move's SAN in the reference's
/// positions reads back as that move.
#[test]
fn san_reads_back_in_every_reference_position() {
    let mut moves = 0;
    for line in include_str!("data/wide-behemoth.moves").lines() {
        let fen = line.split('\t').next().unwrap_or_default();
        let pos = WidePosition::from_fen(WideVariant::Behemoth, fen)
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        for m in pos.legal_moves() {
            let san = wide_san_plus(&pos, m);
            let read: WideSan = san.parse().unwrap_or_else(|e| panic!("{fen}: {san}: {e}"));
            assert_eq!(read.to_move(&pos), Ok(m), "{fen}: {san}");
            moves += 1;
        }
    }
    assert!(moves > 10_000, "{moves} moves");
}
