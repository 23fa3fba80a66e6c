//! `chessd perft` as a user runs it: the binary, its stdout, stderr and exit codes.

use std::process::Command;

fn chessd(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chessd"))
        .args(args)
        .output()
        .expect("run chessd");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Without `--fen` perft starts from the variant's start; the last line is the total alone.
#[test]
fn counts_from_start_positions() {
    let (code, out, _) = chessd(&["perft", "--variant", "chess", "--depth", "3"]);
    assert_eq!((code, out.as_str()), (0, "8902\n"));
    let (code, out, _) = chessd(&["perft", "--variant", "racingkings", "--depth", "3"]);
    assert_eq!((code, out.as_str()), (0, "11264\n"));
}

/// Every variant by its command-line name, from its start (published counts: the suites in
/// crates/rules/tests/data); lichess and UCI_Variant names work too.
#[test]
fn every_variant_by_name() {
    assert_counts(&[
        ("chess960", "3", "8902"),
        ("threecheck", "3", "8902"),
        ("3check", "3", "8902"),
        ("kingofthehill", "3", "8902"),
        ("antichess", "3", "8067"),
        ("atomic", "3", "8902"),
        ("horde", "3", "1274"),
        ("crazyhouse", "3", "8902"),
        ("racingKings", "3", "11264"),
    ]);
}

/// Each `(variant, depth, nodes)`: `chessd perft` from the start prints `nodes`.
fn assert_counts(lines: &[(&str, &str, &str)]) {
    for &(variant, depth, nodes) in lines {
        let (code, out, err) = chessd(&["perft", "--variant", variant, "--depth", depth]);
        assert_eq!((code, out.trim()), (0, nodes), "{variant}: {err}");
    }
}

/// The rules crate's wide family by its Fairy-Stockfish names, from each start (counts from
/// Fairy-Stockfish: crates/rules/tests/data/wide-*.perft); `--divide` writes rank 10 as `10`.
#[test]
fn wide_games_by_name() {
    assert_counts(&[
        ("losalamos", "3", "1212"),
        ("janus", "3", "24747"),
        ("embassy", "3", "25281"),
        ("capablanca", "2", "784"),
        ("caparandom", "3", "25148"),
        ("grand", "2", "4225"),
    ]);
    let black = "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R b - - 0 1";
    let (code, out, _) = chessd(&[
        "perft",
        "--variant",
        "grand",
        "--depth",
        "1",
        "--fen",
        black,
        "--divide",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("a10a9: 1\n") && out.contains("j10b10: 1\n"),
        "{out}"
    );
    let (code, out, err) = chessd(&[
        "perft",
        "--variant",
        "grand",
        "--depth",
        "1",
        "--fen",
        "bad",
    ]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("--fen") && err.trim().lines().count() == 1,
        "{err}"
    );
}

/// `--divide` writes each variant's moves as UCI engines read them: drops as `N@f3`, a
/// Chess960 castling as the king taking its rook, Antichess's king promotion as `a7a8k`.
#[test]
fn divide_writes_variant_moves() {
    let divide = |variant: &str, fen: &str| {
        let (code, out, err) = chessd(&[
            "perft",
            "--variant",
            variant,
            "--depth",
            "1",
            "--fen",
            fen,
            "--divide",
        ]);
        assert_eq!(code, 0, "{variant} {fen}: {err}");
        out
    };
    let zh = divide("crazyhouse", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
    assert!(zh.lines().any(|l| l == "N@f3: 1"), "{zh}");
    let c960 = divide("chess960", "1k6/8/8/8/8/8/8/RK5R w HA - 0 1");
    for castle in ["b1a1: 1", "b1h1: 1"] {
        assert!(c960.lines().any(|l| l == castle), "{castle} in {c960}");
    }
    let anti = divide("antichess", "8/P7/8/8/8/8/8/7k w - - 0 1");
    assert!(anti.lines().any(|l| l == "a7a8k: 1"), "{anti}");
}

/// `--divide` prints `<uci>: <count>` per legal move, then the total.
#[test]
fn divide_lines_then_total() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (code, out, _) = chessd(&[
        "perft",
        "--variant",
        "chess",
        "--depth",
        "2",
        "--fen",
        fen,
        "--divide",
    ]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 49);
    assert!(lines.contains(&"e1g1: 43"), "{out}");
    assert_eq!(*lines.last().unwrap(), "2039");
    let sum: u64 = lines[..48]
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 2039);
}

/// A bad FEN, variant or depth: one line on stderr, nothing on stdout, exit code 2.
#[test]
fn bad_arguments_exit_2_with_one_line() {
    for args in [
        &[
            "perft",
            "--variant",
            "chess",
            "--depth",
            "2",
            "--fen",
            "not a fen",
        ][..],
        &[
            "perft",
            "--variant",
            "racingkings",
            "--depth",
            "2",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ],
        &["perft", "--variant", "bughouse", "--depth", "2"],
        &["perft", "--variant", "chess", "--depth", "-1"],
        &["perft", "--variant", "chess", "--depth", "two"],
        &["perft", "--variant", "chess"],
        &["perft", "--variant", "chess", "--depth", "1", "--bogus"],
    ] {
        let (code, out, err) = chessd(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(out, "", "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err:?}");
    }
}
