//! Test support: a `chessd serve --data-dir` child process on `127.0.0.1:0` (its address read
//! from its JSON log), SIGKILL and SIGTERM, temporary data directories, and a client.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

pub use crate::common::authed;
use crate::common::json_field;
use chessd::proto::game_service_client::GameServiceClient;
use chessd::proto::{self as pb};
use tonic::transport::Channel;

pub type Client = GameServiceClient<Channel>;

/// A data directory removed when dropped.
pub struct DataDir(PathBuf);

impl DataDir {
    pub fn new(name: &str) -> DataDir {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        let dir = std::env::temp_dir().join(format!(
            "chessd-durability-{name}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        DataDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for DataDir {
    fn drop(&mut self) {
        // Best effort: a leftover temporary directory is harmless.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A running `chessd serve` child.
pub struct Server {
    child: Child,
    pub addr: SocketAddr,
    /// The server's output, still forwarded (so its pipes never fill) though nobody reads it.
    _lines: mpsc::Receiver<String>,
}

/// The command line of a server on `dir` listening on a free port.
fn command(dir: &Path, extra: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_chessd"));
    cmd.args(["serve", "--listen", "127.0.0.1:0", "--log-format", "json"])
        .args(["--shutdown-grace", "0s"])
        // These tests play from one address as fast as the server answers: the per-address
        // rate limit (tested in tests/security) would refuse calls once a fast machine
        // outruns its burst.
        .arg("--no-rate-limits")
        .arg("--data-dir")
        .arg(dir)
        .args(extra)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// Forwards a child's output, line by line, for as long as it writes (so its pipe never fills).
fn forward(child: &mut Child) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    if let Some(out) = child.stdout.take() {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
    }
    if let Some(err) = child.stderr.take() {
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
    }
    rx
}

impl Server {
    /// Starts a server on `dir` and waits (up to 20 s) until it listens.
    pub fn start(dir: &Path, extra: &[&str]) -> Server {
        let mut child = command(dir, extra).spawn().expect("spawn chessd");
        let lines = forward(&mut child);
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match lines.recv_timeout(left) {
                Ok(line) => {
                    if line.contains("chessd listening")
                        && let Some(addr) = json_field(&line, "addr")
                    {
                        let addr = addr.parse().expect("listening address");
                        return Server {
                            child,
                            addr,
                            _lines: lines,
                        };
                    }
                    seen.push(line);
                }
                Err(_) => {
                    let _ = child.kill();
                    panic!(
                        "chessd did not start listening; it wrote:\n{}",
                        seen.join("\n")
                    );
                }
            }
        }
    }

    pub async fn client(&self) -> Client {
        let channel = Channel::from_shared(format!("http://{}", self.addr))
            .unwrap()
            .connect()
            .await
            .expect("connect to chessd");
        GameServiceClient::new(channel)
    }

    /// SIGKILL: the process dies at once, whatever it was doing.
    pub fn kill(mut self) {
        self.child.kill().expect("SIGKILL chessd");
        let _ = self.child.wait();
    }

    /// SIGTERM, then the exit status (within 20 s).
    pub fn terminate(mut self) -> ExitStatus {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(sent.success(), "kill -TERM {pid}");
        wait_exit(&mut self.child, Duration::from_secs(20))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // A test that failed half-way must not leave a server behind.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts a server that is expected to refuse to start: its exit status and output.
pub fn start_failing(dir: &Path, extra: &[&str]) -> (ExitStatus, String) {
    let mut child = command(dir, extra).spawn().expect("spawn chessd");
    let lines = forward(&mut child);
    let status = wait_exit(&mut child, Duration::from_secs(20));
    // The forwarding threads end with the pipes; give them a moment to hand over the rest.
    std::thread::sleep(Duration::from_millis(100));
    let output: Vec<String> = lines.try_iter().collect();
    (status, output.join("\n"))
}

fn wait_exit(child: &mut Child, limit: Duration) -> ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().expect("wait for chessd") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("chessd did not exit within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A game and its seats.
#[derive(Clone, Debug)]
pub struct Seats {
    pub id: String,
    pub white: String,
    pub black: String,
}

impl Seats {
    /// The token of the side to move at `ply` in a game from the standard start.
    pub fn to_move(&self, ply: u32) -> &str {
        if ply.is_multiple_of(2) {
            &self.white
        } else {
            &self.black
        }
    }
}

pub async fn create(client: &mut Client, request: pb::CreateGameRequest) -> Seats {
    let created = client
        .create_game(request)
        .await
        .unwrap_or_else(|s| panic!("create game: {}", s.message()))
        .into_inner();
    let game = created.game.expect("created game");
    Seats {
        id: game.game_id,
        white: created.white_token,
        black: created.black_token,
    }
}

pub fn chess(white: &str, black: &str) -> pb::CreateGameRequest {
    pb::CreateGameRequest {
        variant: pb::Variant::Chess as i32,
        white_player: white.into(),
        black_player: black.into(),
        ..Default::default()
    }
}

pub async fn get(client: &mut Client, id: &str) -> pb::Game {
    client
        .get_game(pb::GetGameRequest { game_id: id.into() })
        .await
        .unwrap_or_else(|s| panic!("get game {id}: {}", s.message()))
        .into_inner()
        .game
        .expect("game")
}

/// Plays `mv` at `ply` for the side to move.
pub async fn play(
    client: &mut Client,
    seats: &Seats,
    ply: u32,
    mv: &str,
    request_id: &str,
) -> Result<pb::SubmitMoveResponse, tonic::Status> {
    let request = pb::SubmitMoveRequest {
        game_id: seats.id.clone(),
        r#move: mv.into(),
        expected_ply: Some(ply),
        request_id: request_id.into(),
        offer_draw: false,
        view: pb::GameView::Unspecified as i32,
    };
    client
        .submit_move(authed(request, seats.to_move(ply)))
        .await
        .map(tonic::Response::into_inner)
}

/// A move of `game` chosen by a small deterministic generator from `salt`.
pub fn pick(game: &pb::Game, salt: u64) -> Option<String> {
    if game.legal_moves.is_empty() {
        return None;
    }
    let x = salt
        .wrapping_mul(6364136223846793005)
        .wrapping_add(u64::from(game.ply).wrapping_mul(1442695040888963407));
    let i = (x >> 33) as usize % game.legal_moves.len();
    Some(game.legal_moves[i].uci.clone())
}

pub fn ucis(game: &pb::Game) -> Vec<String> {
    game.moves.iter().map(|m| m.uci.clone()).collect()
}

pub fn secs(d: Option<&prost_types::Duration>) -> f64 {
    d.map_or(0.0, |d| d.seconds as f64 + f64::from(d.nanos) / 1e9)
}
