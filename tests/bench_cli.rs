//! `chessd bench` end to end: a short run against its own in-process server reports moves,
//! latencies and memory per idle game, and a non-loopback target is refused.

use std::process::Command;

fn chessd(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chessd"))
        .args(args)
        .output()
        .expect("run chessd");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Two games with watchers for one second, then 200 idle games: every figure is reported.
#[test]
fn short_bench_reports_every_figure() {
    let (ok, stdout, stderr) = chessd(&[
        "bench",
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
    let result = stdout
        .lines()
        .find(|l| l.starts_with("RESULT bench"))
        .unwrap_or_else(|| panic!("no RESULT line:\n{stdout}"));
    let moves: u64 = result
        .split_whitespace()
        .find_map(|f| f.strip_prefix("moves="))
        .and_then(|v| v.parse().ok())
        .expect("moves=");
    assert!(moves > 0, "{result}");
    assert!(result.contains("deliveries="), "{result}");
    assert!(stdout.contains("RESULT idle games=200 "), "{stdout}");
    assert!(stdout.contains("server memory:"), "{stdout}");
}

/// The bench only loads loopback servers.
#[test]
fn refuses_non_loopback_targets() {
    let (ok, _, stderr) = chessd(&["bench", "--addr", "10.1.2.3:50051", "--duration", "1s"]);
    assert!(!ok);
    assert!(stderr.contains("loopback"), "{stderr}");
}
