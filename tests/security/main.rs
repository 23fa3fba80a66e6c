//! Security tests against the real server (`chessd::run` on `127.0.0.1:0`, or the binary for
//! start-up errors): TLS and mutual TLS, API keys, private watching, rate limits, and a
//! hostile-input suite. One test binary, one module per concern.

mod access;
mod bounds;
#[path = "../common/mod.rs"]
mod common;
mod hostile;
mod keys;
mod limits;
mod peers;
mod shutdown;
#[allow(dead_code)]
#[path = "../service/support.rs"]
mod support;
mod tls;

/// A temporary directory removed when dropped.
pub struct TempDir(std::path::PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        let dir = std::env::temp_dir().join(format!(
            "chessd-security-{name}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// Writes `text` to `name` in the directory; returns its path.
    pub fn write(&self, name: &str, text: &str) -> std::path::PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    pub fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        // Best effort: a leftover temporary directory is harmless.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs the real binary with `args` expecting it to refuse to start: exit status and output.
pub fn start_failing(args: &[&str]) -> (std::process::ExitStatus, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_chessd"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run chessd");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status, text)
}
