//! The real binary, for the tests that need a process of its own: signals, a file descriptor
//! limit, the trace exporter.

use std::net::SocketAddr;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use std::io::BufRead;

use crate::common::json_field;

/// A running `chessd serve` with JSON logs, its log lines collected.
pub struct Chessd {
    child: Child,
    pub addr: SocketAddr,
    /// Every log line so far.
    lines: Arc<Mutex<Vec<String>>>,
}

impl Chessd {
    /// Starts `chessd serve` with `flags`, under `ulimit -n` when `nofile` is given, and waits
    /// until it listens.
    pub async fn start(flags: &[&str], nofile: Option<u32>) -> Chessd {
        Chessd::start_with_env(flags, &[], nofile).await
    }

    /// [`Chessd::start`], with `env` added to the process's environment.
    pub async fn start_with_env(
        flags: &[&str],
        env: &[(&str, &str)],
        nofile: Option<u32>,
    ) -> Chessd {
        let binary = env!("CARGO_BIN_EXE_chessd");
        let mut command = match nofile {
            None => Command::new(binary),
            Some(n) => {
                let mut sh = Command::new("sh");
                sh.args([
                    "-c",
                    &format!("ulimit -n {n} && exec \"$0\" \"$@\""),
                    binary,
                ]);
                sh
            }
        };
        command
            .args(["serve", "--listen", "127.0.0.1:0", "--log-format", "json"])
            .args(flags)
            .env("RUST_LOG", "info,chessd::transport=debug")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        let mut child = command.spawn().expect("spawn chessd");
        let stdout = child.stdout.take().unwrap();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let collected = lines.clone();
        // A thread, not a task: it reads for as long as the process writes, so its pipe never
        // fills, whatever the test's runtime does.
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                collected.lock().unwrap().push(line.clone());
                let _ = tx.send(line);
            }
        });
        let addr = tokio::time::timeout(Duration::from_secs(20), async {
            while let Some(line) = rx.recv().await {
                if line.contains("chessd listening")
                    && let Some(addr) = json_field(&line, "addr")
                {
                    return addr.parse().expect("listening address");
                }
            }
            panic!("chessd exited before listening");
        })
        .await
        .expect("chessd listening within 20 s");
        Chessd { child, addr, lines }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The log lines that contain `text`.
    pub fn logged(&self, text: &str) -> Vec<String> {
        self.lines
            .lock()
            .unwrap()
            .iter()
            .filter(|l| l.contains(text))
            .cloned()
            .collect()
    }

    /// The first log line that contains `text`, waiting up to 10 s for it: the reader thread
    /// may not have seen a line the server has already written.
    pub async fn wait_logged(&self, text: &str) -> String {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(line) = self.logged(text).into_iter().next() {
                return line;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "no log line with {text:?} within 10 s"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Sends SIGTERM.
    pub fn terminate(&self) {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(sent.success(), "kill -TERM {pid}");
    }

    /// Waits for the process to exit, up to `limit`.
    pub async fn exit_within(&mut self, limit: Duration) -> ExitStatus {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "chessd still running {limit:?} after the signal"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Drop for Chessd {
    fn drop(&mut self) {
        // A test that failed half-way must not leave a server behind.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
