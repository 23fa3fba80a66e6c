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
        &["perft", "--variant", "shogi", "--depth", "2"],
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
