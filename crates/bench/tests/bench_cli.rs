//! `chessd-bench` end to end, each run a second or two: the default mode against its own
//! in-process server reports moves, latencies and memory per idle game; `stores` compares
//! memory and SQLite; the echo yardstick serves and both its loads report; a non-loopback
//! target and bad flags are refused with one line.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

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

/// `echo serve` on a free port, stopped when dropped.
struct EchoServer {
    child: Child,
    addr: String,
}

impl EchoServer {
    fn start() -> EchoServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chessd-bench"))
            .args(["echo", "serve", "--addr", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start echo serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("read the address");
        let addr = line
            .trim()
            .strip_prefix("echo: listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_owned();
        EchoServer { child, addr }
    }

    fn pid(&self) -> String {
        self.child.id().to_string()
    }
}

impl Drop for EchoServer {
    fn drop(&mut self) {
        // Already gone is fine: the test has its figures.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The unary load counts calls, their latency and the server's CPU per call.
#[test]
fn echo_unary_reports_calls_and_server_cpu() {
    let server = EchoServer::start();
    let (ok, stdout, stderr) = bench(&[
        "echo",
        "load-unary",
        "--addr",
        &server.addr,
        "--server-pid",
        &server.pid(),
        "--connections",
        "2",
        "--concurrency",
        "8",
        "--duration",
        "1s",
        "--warmup",
        "0s",
    ]);
    assert!(ok, "load-unary failed: {stderr}\n{stdout}");
    let result = result_line(&stdout, "echo-unary");
    assert!(field(result, "calls") > 0.0, "{result}");
    assert!(
        field(result, "p99_us") >= field(result, "p50_us"),
        "{result}"
    );
    assert!(field(result, "server_cpu_us_per_call") > 0.0, "{result}");
    assert!(stdout.contains("errors: []"), "{stdout}");
}

/// Every stream receives every published move, in a fan-out of 50 streams and 5 moves.
#[test]
fn echo_fanout_delivers_every_move_to_every_stream() {
    let server = EchoServer::start();
    let (ok, stdout, stderr) = bench(&[
        "echo",
        "load-fanout",
        "--addr",
        &server.addr,
        "--subscribers",
        "50",
        "--connections",
        "2",
        "--messages",
        "5",
        "--rate",
        "20",
    ]);
    assert!(ok, "load-fanout failed: {stderr}\n{stdout}");
    let result = result_line(&stdout, "echo-fanout");
    assert_eq!(field(result, "deliveries"), 250.0, "{result}");
    assert_eq!(field(result, "lost"), 0.0, "{result}");
    assert!(field(result, "delivery_p50_us") > 0.0, "{result}");
}

/// The bench only loads loopback servers.
#[test]
fn refuses_non_loopback_targets() {
    for args in [
        &["--addr", "10.1.2.3:50051", "--duration", "1s"][..],
        &["echo", "load-unary", "--addr", "10.1.2.3:50551"],
        &["echo", "serve", "--addr", "0.0.0.0:50551"],
    ] {
        let (ok, _, stderr) = bench(args);
        assert!(!ok, "{args:?} accepted");
        assert!(stderr.contains("loopback"), "{args:?}: {stderr}");
    }
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
