//! `chessd-bench` end to end, each run a second or two: the default mode against its own
//! in-process server reports moves, latencies and memory per idle game; `stores` compares
//! memory and SQLite; a non-loopback target and bad flags are refused with one line.

use std::process::Command;

fn bench(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chessd-bench"))
        .args(args)
        .output()
        .expect("run chessd-bench");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The `RESULT <name>` line of a report.
fn result_line<'a>(stdout: &'a str, name: &str) -> &'a str {
    let prefix = format!("RESULT {name} ");
    stdout
        .lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} line:\n{stdout}"))
}

/// A numeric field of a `RESULT` line.
fn field(line: &str, key: &str) -> f64 {
    let prefix = format!("{key}=");
    line.split_whitespace()
        .find_map(|f| f.strip_prefix(prefix.as_str()))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no number {key}= in {line}"))
}

/// Two games with watchers for one second, then 200 idle games: every figure is reported.
#[test]
fn short_bench_reports_every_figure() {
    let (ok, stdout, stderr) = bench(&[
        "--games",
        "2",
        "--watchers",
        "3",
        "--duration",
        "1s",
        "--warmup",
        "0s",
        "--idle-games",
        "200",
    ]);
    assert!(ok, "bench failed: {stderr}\n{stdout}");
    let result = result_line(&stdout, "bench");
    assert!(field(result, "moves") > 0.0, "{result}");
    assert!(field(result, "deliveries") > 0.0, "{result}");
    assert!(stdout.contains("RESULT idle games=200 "), "{stdout}");
    assert!(stdout.contains("server memory:"), "{stdout}");
}

/// Handoff turns with the full view, and `play` named explicitly, run the same bench.
#[test]
fn play_subcommand_with_handoff_and_full_view() {
    let (ok, stdout, stderr) = bench(&[
        "play",
        "--games",
        "2",
        "--turns",
        "handoff",
        "--view",
        "full",
        "--duration",
        "1s",
        "--warmup",
        "0s",
        "--idle-games",
        "0",
    ]);
    assert!(ok, "bench failed: {stderr}\n{stdout}");
    let result = result_line(&stdout, "bench");
    assert!(result.contains("turns=Handoff view=Full"), "{result}");
    assert!(field(result, "moves") > 0.0, "{result}");
    assert!(!stdout.contains("RESULT idle"), "{stdout}");
}

/// Memory and both SQLite sync modes each play moves, and their ratios to memory are given.
#[test]
fn stores_compares_memory_and_sqlite() {
    let dir = std::env::temp_dir().join(format!("chessd-bench-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (ok, stdout, stderr) = bench(&[
        "stores",
        "--games",
        "2",
        "--turns",
        "handoff",
        "--duration",
        "500ms",
        "--warmup",
        "0s",
        "--data-dir",
        dir.to_str().expect("utf-8 temp dir"),
    ]);
    let left: Vec<_> = std::fs::read_dir(&dir).expect("read dir").collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(ok, "stores failed: {stderr}\n{stdout}");
    let result = result_line(&stdout, "stores");
    for store in ["memory", "sqlite_sync_full", "sqlite_sync_normal"] {
        assert!(
            field(result, &format!("{store}_moves_per_s")) > 0.0,
            "{result}"
        );
    }
    assert_eq!(field(result, "memory_ratio"), 1.0, "{result}");
    assert!(left.is_empty(), "stores left {left:?} behind");
}

/// The bench only loads loopback servers.
#[test]
fn refuses_non_loopback_targets() {
    let (ok, _, stderr) = bench(&["--addr", "10.1.2.3:50051", "--duration", "1s"]);
    assert!(!ok);
    assert!(stderr.contains("loopback"), "{stderr}");
}

/// A bad flag is one line on stderr and exit code 2, never a panic.
#[test]
fn bad_flags_are_one_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_chessd-bench"))
        .args(["--duration", "soon"])
        .output()
        .expect("run chessd-bench");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("chessd-bench: "), "{stderr}");
}
