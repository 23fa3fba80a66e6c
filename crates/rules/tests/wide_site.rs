//! The games only the seed site plays (Cylinder, Knight Relay, Cheshire Cat) against their
//! independent reference, `tools/ref_site.py` (no other program plays them): perft suites from
//! the start and three middlegames (`tests/data/wide-KEY.perft`), and seeded random games
//! (`tests/data/wide-KEY.moves`: `moves KEY --seed 1 --games 4`, then `--seed 5 --games 3
//! --bias`, which takes a move of the game's own rules whenever there is one; Cheshire Cat's
//! games are short, so 12 and 8 of them; Cylinder and Knight Relay then `--seed 9 --games 3
//! --plies 400` and `--seed 3 --games 4 --plies 150 --fen` an endgame, to reach the material
//! rule: Cylinder `4k3/8/8/2n5/8/5B2/1r6/R3K3 w Q - 0 1`, Knight Relay
//! `4k3/8/2n1b3/8/8/3N4/1B6/4K3 w - - 0 1`). At every ply
//! of those games the legal-move set, the FEN and the game's end must be the reference's; the
//! move it played is played here and must reach the next line's FEN.

use std::collections::BTreeSet;

use chessd_rules::Family;
use chessd_rules::Termination;
use chessd_rules::wide::{WidePosition, WideVariant, wide_san_plus_among};

mod suite;

use suite::check;

/// Lines above this many nodes are left to `wide.rs`-style deep runs (none here yet).
const NODE_LIMIT: u64 = 2_000_000;

const SUITES: [(WideVariant, &str, &str); 3] = [
    (
        WideVariant::Cylinder,
        include_str!("data/wide-cylinder.perft"),
        include_str!("data/wide-cylinder.moves"),
    ),
    (
        WideVariant::KnightRelay,
        include_str!("data/wide-knightrelay.perft"),
        include_str!("data/wide-knightrelay.moves"),
    ),
    (
        WideVariant::CheshireCat,
        include_str!("data/wide-cheshirecat.perft"),
        include_str!("data/wide-cheshirecat.moves"),
    ),
];

/// The start and three middlegames of each game, up to the node limit.
#[test]
fn perft_suites_match_the_reference() {
    for (variant, perft, _) in SUITES {
        let ran = check(
            &variant.to_string(),
            perft,
            |n| n <= NODE_LIMIT,
            |fen, depth| {
                WidePosition::from_fen(variant, fen)
                    .unwrap_or_else(|e| panic!("{fen}: {e}"))
                    .perft(depth)
            },
        );
        assert!(ran >= 8, "{variant}: {ran} lines");
    }
}

/// The end of a position as the reference writes it.
fn end(pos: &WidePosition) -> &'static str {
    match pos.outcome().map(|o| o.termination) {
        None => "-",
        Some(Termination::Checkmate) => "checkmate",
        Some(Termination::Stalemate) => "stalemate",
        Some(Termination::InsufficientMaterial) => "insufficient",
        Some(_) => "other",
    }
}

/// Checks every line of a moves file (or of the reference's live output): the legal-move
/// set, the FEN written back, the end, and the FEN the move played reaches. Returns how many
/// positions it checked.
fn compare(variant: WideVariant, moves: &str) -> usize {
    let (mut positions, mut next): (usize, Option<String>) = (0, None);
    for line in moves.lines().filter(|l| !l.is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [fen, expected, ended, played] = fields[..] else {
            panic!("{variant}: FEN<TAB>moves<TAB>end<TAB>move: {line}");
        };
        if let Some(reached) = next.take() {
            assert_eq!(reached, fen, "{variant}: the FEN after the move played");
        }
        let pos = WidePosition::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos.fen(), fen, "{variant}: FEN read and written back");
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
        assert_eq!(end(&pos), ended, "{variant} {fen}: the game's end");
        if played != "-" {
            let mut after = pos;
            after
                .play(played)
                .unwrap_or_else(|e| panic!("{fen} {played}: {e}"));
            next = Some(after.fen());
        }
        positions += 1;
    }
    positions
}

/// Legal moves, FEN and end at every ply of the reference's committed seeded games.
#[test]
fn random_games_match_the_reference() {
    for (variant, _, moves) in SUITES {
        let positions = compare(variant, moves);
        assert!(positions >= 500, "{variant}: {positions} positions");
    }
}

/// The differential run: the reference plays `SITE_GAMES` (default 20) fresh seeded games of
/// each, seed `SITE_SEED` (default 1000), `--bias` when `SITE_BIAS` is set, and every ply is
/// compared live as above. `cargo test -p chessd-rules --release --test wide_site -- --ignored`.
#[test]
#[ignore = "runs tools/ref_site.py: minutes"]
fn live_games_match_the_reference() {
    let var = |name: &str, default: &str| std::env::var(name).unwrap_or_else(|_| default.into());
    let (seed, games) = (var("SITE_SEED", "1000"), var("SITE_GAMES", "20"));
    let tool = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/ref_site.py");
    for (variant, _, _) in SUITES {
        let mut args = vec![
            tool.to_string(),
            "moves".into(),
            variant.to_string(),
            "--seed".into(),
            seed.clone(),
            "--games".into(),
            games.clone(),
        ];
        if std::env::var_os("SITE_BIAS").is_some() {
            args.push("--bias".into());
        }
        let out = std::process::Command::new("python3")
            .args(&args)
            .output()
            .expect("python3 runs tools/ref_site.py");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let positions = compare(variant, &String::from_utf8_lossy(&out.stdout));
        println!("{variant}: {positions} positions agree (seed {seed}, {games} games)");
    }
}

/// With no program to compare SAN with, every legal move's SAN (marks included) in every
/// position of the seeded games reads back, as a player's text is read, to that move and no
/// other: two rooks across the seam, a relayed pawn's leap beside another pawn's step (named
/// by file, or by its square where both pawns share the file: `e2g3`, read as the move it is).
#[test]
fn san_reads_back_to_its_move() {
    for (variant, _, moves) in SUITES {
        let mut count = 0;
        for line in moves.lines().filter(|l| !l.is_empty()) {
            let fen = line.split('\t').next().expect("a FEN");
            let pos = WidePosition::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let legal = pos.legal_moves();
            for &m in &legal {
                let san = wide_san_plus_among(&pos, m, &legal);
                let read = Family::parse_among(&pos, &san, &legal)
                    .unwrap_or_else(|e| panic!("{fen} {san}: {e:?}"));
                assert_eq!(read, m, "{fen}: {san}");
                count += 1;
            }
        }
        assert!(count > 10_000, "{variant}: {count} moves");
    }
}
