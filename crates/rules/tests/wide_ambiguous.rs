//! Ambiguous Chess against its independent reference (`tools/ref_ambiguous.py`, written from
//! GAMES.md alone; no other program plays the game): in every position of its seeded games
//! (`tests/data/wide-ambiguous.moves`: `moves --seed 1 --games 12`, then `moves --seed 5
//! --games 8 --bias`, then `moves --seed 7 --games 12 --bias --fen
//! 'rnbqkbnr/pppppppp/8/1P2P1P1/8/8/P1PP1P1P/RNBQKBNR b - - 0 1 -'`, whose white pawns wait
//! for en passant marks), the FEN reads and writes back the same, the whole turns are the same,
//! the end is the same, and the turn played leaves the same FEN; the games replay as records.

use std::collections::BTreeSet;

use chessd_rules::DrawRule;
use chessd_rules::wide::{WideGame, WidePosition, WideVariant};

const DATA: &str = include_str!("data/wide-ambiguous.moves");

mod ends;
use ends::end_text;

fn rows() -> impl Iterator<Item = Vec<&'static str>> {
    DATA.lines().map(|l| l.split('\t').collect())
}

#[test]
fn turns_fens_and_ends_match_the_reference() {
    let mut positions = 0;
    for row in rows() {
        let [fen, turns, end, played, after] = row[..] else {
            panic!("five columns: {row:?}");
        };
        let pos = WidePosition::from_fen(WideVariant::Ambiguous, fen)
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos.fen(), fen);
        let ours: BTreeSet<String> = pos
            .legal_moves()
            .iter()
            .map(|m| m.to_uci(&pos).to_string())
            .collect();
        let theirs: BTreeSet<String> = turns.split_whitespace().map(str::to_string).collect();
        assert_eq!(ours, theirs, "{fen}");
        assert_eq!(end_text(pos.outcome()), end, "{fen}");
        if played != "-" {
            let mut next = pos;
            next.play(played)
                .unwrap_or_else(|e| panic!("{fen}: {played}: {e}"));
            assert_eq!(next.fen(), after, "{fen}: {played}");
        }
        positions += 1;
    }
    assert!(positions > 500, "{positions}");
}

/// Each game is a record of one entry a turn: its turns read back, it ends as the reference
/// says, and a turn taken back restores the position before it.
#[test]
fn games_replay_as_records() {
    let mut game: Option<WideGame> = None;
    let mut games = 0;
    for row in rows() {
        let (fen, end, played) = (row[0], row[2], row[3]);
        // A game cut off by the reference's ply limit has no last line: the next one starts.
        if game.as_ref().is_some_and(|g| g.position().fen() != fen) {
            game = None;
        }
        let g = game.get_or_insert_with(|| {
            games += 1;
            WideGame::new(
                WidePosition::from_fen(WideVariant::Ambiguous, fen).unwrap(),
                DrawRule::Claim,
            )
        });
        assert_eq!(g.position().fen(), fen);
        if played == "-" {
            assert_eq!(end_text(g.position().outcome()), end);
            game = None;
        } else {
            g.play_text(played)
                .unwrap_or_else(|e| panic!("{fen}: {played}: {e}"));
            if !g.is_over() && g.moves().len().is_multiple_of(7) {
                let after = g.position().fen();
                g.take_back(1).unwrap();
                assert_eq!(g.position().fen(), fen);
                g.play_text(played).unwrap();
                assert_eq!(g.position().fen(), after);
            }
        }
    }
    assert!(games >= 6, "{games}");
}
