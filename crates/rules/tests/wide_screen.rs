//! Screen and Crazy Screen Chess against Fairy-Stockfish: seeded starts made of two halves
//! (`tests/data/wide-screen.perft`, `wide-crazyscreen.perft`, written by
//! `tools/fsf_screen.py`, whose header says how) are accepted half by half, joined into the
//! same start, and counted by perft as FSF counts chess without castling from them; the
//! starts FSF finds Black's king attacked in are decided at once for White; and the legal
//! moves of seeded random games from such starts are FSF's.

use chessd_rules::wide::{ScreenStart, WideVariant, screen_half, screen_start};
use chessd_rules::{Color, Outcome, Termination};

mod suite;

/// The start `fen` rebuilt from its two halves as the seats would submit them.
fn rebuild(variant: WideVariant, fen: &str) -> ScreenStart {
    let board = fen.split_whitespace().next().unwrap();
    let rows: Vec<&str> = board.split('/').collect();
    let black = screen_half(variant, Color::Black, &rows[..4].join("/"))
        .unwrap_or_else(|e| panic!("{fen}: Black's half: {e}"));
    let white = screen_half(variant, Color::White, &rows[4..].join("/"))
        .unwrap_or_else(|e| panic!("{fen}: White's half: {e}"));
    screen_start(variant, &white, &black).unwrap()
}

fn run(variant: WideVariant, text: &str) {
    for line in suite::suite(text) {
        match rebuild(variant, &line.fen) {
            ScreenStart::Play(p) => {
                assert_eq!(p.fen(), line.fen);
                assert_eq!(
                    p.perft(line.depth),
                    line.nodes,
                    "{variant} {} depth {}",
                    line.id,
                    line.depth
                );
            }
            other => panic!("{}: {other:?}", line.fen),
        }
    }
    let decided: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("# decided: "))
        .collect();
    for fen in &decided {
        let ScreenStart::Decided {
            fen: joined,
            outcome,
            board,
        } = rebuild(variant, fen)
        else {
            panic!("{fen}: decided");
        };
        assert_eq!(joined, *fen);
        assert_eq!(
            outcome,
            Outcome::win(Color::White, Termination::KingCaptured)
        );
        assert_eq!(board.fen(), *fen);
    }
}

#[test]
fn screen_starts_match_fairy_stockfish() {
    run(WideVariant::Screen, include_str!("data/wide-screen.perft"));
}

#[test]
fn crazy_screen_starts_match_fairy_stockfish() {
    run(
        WideVariant::CrazyScreen,
        include_str!("data/wide-crazyscreen.perft"),
    );
}

/// Every position of seeded random games from such starts (`tools/fsf_oracle.py moves GAME
/// --seed 1 --games 4`) has FSF's legal moves.
#[test]
fn legal_moves_match_fairy_stockfish() {
    for (variant, text) in [
        (WideVariant::Screen, include_str!("data/wide-screen.moves")),
        (
            WideVariant::CrazyScreen,
            include_str!("data/wide-crazyscreen.moves"),
        ),
    ] {
        let mut positions = 0;
        for line in text.lines() {
            let (fen, moves) = line.split_once('\t').unwrap_or((line, ""));
            let p = chessd_rules::wide::WidePosition::from_fen(variant, fen)
                .unwrap_or_else(|e| panic!("{fen}: {e}"));
            let mut ours: Vec<String> = p
                .legal_moves()
                .iter()
                .map(|m| m.to_uci(&p).to_string())
                .collect();
            ours.sort();
            let mut theirs: Vec<&str> = moves.split_whitespace().collect();
            theirs.sort();
            assert_eq!(ours, theirs, "{variant} {fen}");
            positions += 1;
        }
        assert!(positions > 300, "{variant}: {positions}");
    }
}
