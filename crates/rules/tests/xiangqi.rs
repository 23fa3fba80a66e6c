//! The xiangqi family against Fairy-Stockfish, its oracle: the perft suite
//! (`tests/data/xiangqi.perft`, counts from `go perft`, the format of `perft.rs`'s) up to a
//! node limit by default and deeper in an ignored test; properties over seeded random
//! playouts (FEN round trips, bulk counting equal to listing, refused text never panicking);
//! the game record's board-decided ends.

use chessd_rules::xiangqi::{XiangqiGame, XiangqiPosition, XiangqiUci};
use chessd_rules::{Color, DrawRule, Outcome, PlayError, Termination};
use proptest::prelude::*;

mod suite;

use suite::check;

/// Lines above this many nodes are left to the ignored test so the default run stays quick.
const NODE_LIMIT: u64 = 2_000_000;

const PERFT: &str = include_str!("data/xiangqi.perft");

fn run(keep: impl Fn(u64) -> bool) -> usize {
    check("xiangqi", PERFT, keep, |fen, depth| {
        XiangqiPosition::from_fen(fen)
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
            .perft(depth)
    })
}

/// The start and the middlegames (cannon screens, the flying general, pins, checks, soldiers
/// across the river, blocked horses and elephants) up to the node limit.
#[test]
fn perft_suite() {
    assert!(run(|n| n <= NODE_LIMIT) >= 30);
}

/// The deep lines (up to about a hundred million nodes each: run with `--release`).
#[test]
#[ignore = "deep perft: a minute in release mode"]
fn deep_perft_suite() {
    run(|n| n > NODE_LIMIT);
}

/// Plays the moves `choices` pick (each modulo the number of legal moves) from the start.
fn playout(choices: &[u16]) -> Vec<XiangqiPosition> {
    let mut pos = XiangqiPosition::new();
    let mut seen = vec![pos];
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[c as usize % moves.len()]);
        seen.push(pos);
    }
    seen
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Every position's FEN reads back to it; counting the legal moves (the popcount path
    /// perft's last ply takes) agrees with listing them; each listed move's text names it.
    #[test]
    fn playouts_agree(choices in prop::collection::vec(any::<u16>(), 0..200)) {
        for pos in playout(&choices) {
            let fen = pos.fen();
            prop_assert_eq!(XiangqiPosition::from_fen(&fen), Ok(pos), "{}", fen);
            let moves = pos.legal_moves();
            prop_assert_eq!(pos.count_legal(), moves.len() as u64, "{}", fen);
            for &m in moves.iter() {
                let uci: XiangqiUci = m.to_string().parse().unwrap();
                prop_assert_eq!(uci.to_move(&pos), Ok(m));
            }
        }
    }

    /// Random text is refused with an error, never a panic, as a FEN and as a move.
    #[test]
    fn random_text_never_panics(text in ".{0,90}") {
        let _ = XiangqiPosition::from_fen(&text);
        let _ = text.parse::<XiangqiUci>();
        let mut pos = XiangqiPosition::new();
        let before = pos;
        if pos.play(&text).is_err() {
            prop_assert_eq!(pos, before);
        }
    }

    /// FEN-shaped text with random ranks, pieces and fields is refused or read, never a panic.
    #[test]
    fn fen_shaped_text_never_panics(
        ranks in prop::collection::vec("[1-9kabnrcpKABNRCPx]{0,10}", 0..12),
        turn in "[wbr-]",
        rest in "[-0-9 KQkq]{0,12}",
    ) {
        let fen = format!("{} {turn} {rest}", ranks.join("/"));
        if let Ok(pos) = XiangqiPosition::from_fen(&fen) {
            prop_assert_eq!(XiangqiPosition::from_fen(&pos.fen()), Ok(pos));
        }
    }
}

/// A game record plays text moves, refuses illegal ones unchanged, and ends by mate.
#[test]
fn game_ends_by_mate() {
    let start = XiangqiPosition::from_fen("3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1").unwrap();
    let mut game = XiangqiGame::new(start, DrawRule::Claim);
    assert!(matches!(
        game.play_text("i1i11"),
        Err(PlayError::Malformed(_))
    ));
    // The general may not step onto the file of the other.
    assert!(matches!(game.play_text("e1d1"), Err(PlayError::Illegal(_))));
    assert_eq!(game.ply(), 0);
    // The record writes WXF, with no check mark; WXF is read as well as points.
    assert_eq!(game.play_text("a9a8").unwrap().san, "R9-1");
    assert_eq!(game.play_text("K4+1").unwrap().san, "K4+1");
    assert_eq!(game.play_text("a8a9").unwrap().san, "R9+1");
    assert_eq!(game.play_text("d9d10").unwrap().san, "K4-1");
    assert!(matches!(
        game.play_text("R1+10"),
        Err(PlayError::Malformed(_))
    ));
    assert_eq!(game.play_text("R1+9").unwrap().san, "R1+9");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, Termination::Checkmate))
    );
}

/// The side to move without a legal move loses, in check or not.
#[test]
fn game_ends_by_stalemate_loss() {
    let start = XiangqiPosition::from_fen("3k5/9/9/9/9/9/9/9/1R7/4K4 w - - 0 1").unwrap();
    let mut game = XiangqiGame::new(start, DrawRule::Claim);
    game.play_text("b2b9").unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, Termination::StalemateLoss))
    );
}

/// The record applies the history's rules: Red checking with every move loses at the third
/// occurrence; a plain shuffle is drawn there (not at the fifth, as in chess).
#[test]
fn game_applies_perpetual_check_and_repetition() {
    let play = |fen: &str, cycle: &str| {
        let mut game = XiangqiGame::new(XiangqiPosition::from_fen(fen).unwrap(), DrawRule::Claim);
        for _ in 0..2 {
            for m in cycle.split_whitespace() {
                assert_eq!(game.outcome(), None);
                game.play_text(m).unwrap();
            }
        }
        game.outcome()
    };
    assert_eq!(
        play(
            "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1",
            "a9a10 e10e9 a10a9 e9e10"
        ),
        Some(Outcome::win(Color::Black, Termination::PerpetualCheck))
    );
    assert_eq!(
        play(
            "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1",
            "a1a2 d10d9 a2a1 d9d10"
        ),
        Some(Outcome::draw(Termination::Repetition))
    );
}

/// 100 plies without a capture end the game, automatically.
#[test]
fn game_applies_the_no_capture_rule() {
    let start = XiangqiPosition::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 98 60").unwrap();
    let mut game = XiangqiGame::new(start, DrawRule::Claim);
    game.play_text("a1a2").unwrap();
    assert_eq!(game.outcome(), None);
    game.play_text("d10d9").unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::draw(Termination::FiftyMoveRule))
    );
}
