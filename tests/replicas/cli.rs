//! `--redis` on the command line: refused with --data-dir, and with a URL that is not one.

use std::process::{Command, Stdio};

fn serve(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chessd"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(args)
        .env_remove("CHESSD_REDIS_URL")
        .env_remove("CHESSD_DATA_DIR")
        .stdin(Stdio::null())
        .output()
        .expect("run chessd");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
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

#[test]
fn malformed_redis_url_is_refused() {
    let (code, stderr) = serve(&["--redis", "http://example"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("invalid redis url"), "{stderr}");
}
