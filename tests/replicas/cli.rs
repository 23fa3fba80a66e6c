//! `--redis` on the command line: refused with --data-dir, with a URL that is not one, and
//! with several URLs unless they are a cluster's seeds (`--redis-cluster`).

use std::process::{Command, Stdio};

fn serve(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chessd"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(args)
        .env_remove("CHESSD_REDIS_URL")
        .env_remove("CHESSD_DATA_DIR")
        .env_remove("CHESSD_REDIS_CLUSTER")
        .stdin(Stdio::null())
        .output()
        .expect("run chessd");
    // Clap's refusals go to stderr, the server's own (a log line) to stdout: both are read.
    let mut output = String::from_utf8_lossy(&out.stderr).into_owned();
    output.push_str(&String::from_utf8_lossy(&out.stdout));
    (out.status.code(), output)
}

#[test]
fn redis_with_data_dir_is_refused() {
    let (code, stderr) = serve(&[
        "--redis",
        "redis://127.0.0.1:1/",
        "--data-dir",
        "/nonexistent/x",
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--redis") && stderr.contains("--data-dir"),
        "{stderr}"
    );
}

/// Several URLs name a cluster's seeds: without --redis-cluster the server refuses to start and
/// says so; --redis-cluster alone has no Redis to name.
#[test]
fn several_urls_need_redis_cluster() {
    let (code, stderr) = serve(&["--redis", "redis://127.0.0.1:1/,redis://127.0.0.1:2/"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("--redis-cluster"), "{stderr}");
    let (code, stderr) = serve(&["--redis-cluster"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("--redis"), "{stderr}");
}

#[test]
fn malformed_redis_url_is_refused() {
    let (code, stderr) = serve(&["--redis", "http://example"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("invalid redis url"), "{stderr}");
}

/// A refused `--redis` (or `CHESSD_REDIS_URL`) is named without its password: the message
/// goes to stderr and on to whatever collects it.
#[test]
fn refused_redis_url_hides_its_password() {
    for url in [
        "redis://:hunter2@127.0.0.1:6379/notanumber",
        "redis://user:hunter2@127.0.0.1:6379/0,redis://:hunter2@127.0.0.1:6380/x",
    ] {
        let (code, stderr) = serve(&["--redis-cluster", "--redis", url]);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains("invalid redis url"), "{stderr}");
        assert!(!stderr.contains("hunter2"), "{stderr}");
    }
}
