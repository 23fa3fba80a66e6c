//! Test support: chessd replicas on a `redis-server` child (`common::redis`): the library's
//! `run` in this process, or the real binary when a test must SIGKILL one; clients and small
//! helpers.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::common::json_field;
pub use crate::common::redis::{Cluster, Redis};
pub use crate::common::{authed, channel_at, next_event, reason, wait_for_health, watch};
use chessd::proto::game_service_client::GameServiceClient;
use chessd::proto::{self as pb, watch_game_response::Event};
use chessd::{RunError, ServerConfig};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::Channel;
use tonic::{Status, Streaming};
use tonic_health::pb::health_check_response::ServingStatus;

pub type Client = GameServiceClient<Channel>;

/// A replica running `chessd::run` in this test's runtime.
pub struct Replica {
    pub addr: SocketAddr,
    /// Dropping it stops the replica.
    _stop: oneshot::Sender<()>,
    _task: JoinHandle<Result<(), RunError>>,
}

/// A replica on `redis`.
pub async fn replica(redis: &Redis) -> Replica {
    replica_with(crate::common::on_redis(redis.url(), false)).await
}

/// A replica on a Redis Cluster, given every node as a seed (`--redis-cluster`).
pub async fn cluster_replica(cluster: &Cluster) -> Replica {
    replica_with(cluster_config(cluster)).await
}

/// The configuration of a replica on `cluster`.
pub fn cluster_config(cluster: &Cluster) -> ServerConfig {
    crate::common::on_redis(cluster.urls(), true)
}

pub async fn replica_with(config: ServerConfig) -> Replica {
    let replica = start_replica(config).await;
    replica.wait_for(ServingStatus::Serving).await;
    replica
}

/// A replica, without waiting for it to be ready.
pub async fn start_replica(mut config: ServerConfig) -> Replica {
    // Stopping a test replica needs no grace for balancers.
    config.shutdown_grace = Duration::ZERO;
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("local addr");
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(chessd::run(listener, config, async {
        let _ = stopped.await;
    }));
    Replica {
        addr,
        _stop: stop,
        _task: task,
    }
}

impl Replica {
    pub async fn client(&self) -> Client {
        client_at(self.addr).await
    }

    /// Waits (up to 20 s) until health reports `status`.
    pub async fn wait_for(&self, status: ServingStatus) {
        wait_for_health(self.addr, status).await;
    }
}

pub async fn client_at(addr: SocketAddr) -> Client {
    GameServiceClient::new(channel_at(addr).await)
}

/// A `chessd serve --redis` child process (for SIGKILL).
pub struct Process {
    child: Child,
    pub addr: SocketAddr,
    _lines: mpsc::Receiver<String>,
}

impl Process {
    /// Starts the binary on `redis` and waits (up to 20 s) until it listens.
    pub fn start(redis: &Redis) -> Process {
        Process::start_with(redis, &[])
    }

    /// The same, with more flags.
    pub fn start_with(redis: &Redis, flags: &[&str]) -> Process {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chessd"))
            .args(["serve", "--listen", "127.0.0.1:0", "--log-format", "json"])
            .args(["--shutdown-grace", "0s"])
            .args(["--redis", &redis.url()])
            .args(flags)
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn chessd");
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
                        return Process {
                            child,
                            addr: addr.parse().expect("listening address"),
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

    /// SIGKILL: the replica dies at once, whatever it was doing.
    pub fn kill(mut self) {
        self.child.kill().expect("SIGKILL chessd");
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Forwards a child's output line by line (so its pipes never fill).
pub fn forward(child: &mut Child) -> mpsc::Receiver<String> {
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

/// A game and its seats.
#[derive(Clone, Debug)]
pub struct Seats {
    pub id: String,
    pub white: String,
    pub black: String,
}

impl Seats {
    pub fn token(&self, side: char) -> &str {
        if side == 'w' {
            &self.white
        } else {
            &self.black
        }
    }
}

pub fn tc(initial_secs: i64, increment_secs: i64) -> pb::TimeControl {
    let d = |seconds| prost_types::Duration { seconds, nanos: 0 };
    pb::TimeControl {
        initial: Some(d(initial_secs)),
        increment: Some(d(increment_secs)),
        ..Default::default()
    }
}

pub async fn create(client: &mut Client, time_control: Option<pb::TimeControl>) -> Seats {
    create_with(
        client,
        pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            white_player: "ann".into(),
            black_player: "bob".into(),
            time_control,
            ..Default::default()
        },
    )
    .await
}

/// Creates the game `request` asks for; its seats.
pub async fn create_with(client: &mut Client, request: pb::CreateGameRequest) -> Seats {
    let created = client
        .create_game(request)
        .await
        .unwrap_or_else(|s| panic!("create game: {}", s.message()))
        .into_inner();
    Seats {
        id: created.game.expect("game").game_id,
        white: created.white_token,
        black: created.black_token,
    }
}

/// Submits `mv` for `side` ('w' or 'b').
pub async fn submit(
    client: &mut Client,
    seats: &Seats,
    side: char,
    mv: &str,
    expected_ply: Option<u32>,
    request_id: &str,
) -> Result<pb::SubmitMoveResponse, Status> {
    let request = pb::SubmitMoveRequest {
        game_id: seats.id.clone(),
        r#move: mv.into(),
        expected_ply,
        request_id: request_id.into(),
        ..Default::default()
    };
    client
        .submit_move(authed(request, seats.token(side)))
        .await
        .map(tonic::Response::into_inner)
}

/// Plays `mv` for `side`; panics with the server's message on refusal.
pub async fn play(
    client: &mut Client,
    seats: &Seats,
    side: char,
    mv: &str,
) -> pb::SubmitMoveResponse {
    submit(client, seats, side, mv, None, "")
        .await
        .unwrap_or_else(|s| panic!("{side} {mv} refused: {:?} {}", s.code(), s.message()))
}

pub async fn get(client: &mut Client, id: &str) -> Result<pb::Game, Status> {
    client
        .get_game(pb::GetGameRequest { game_id: id.into() })
        .await
        .map(|r| r.into_inner().game.expect("game"))
}

/// Every game id ListGames gives, page after page of `page_size`, the pages asked of `a` and
/// `b` in turn (so each page token crosses replicas).
pub async fn list_all(a: &mut Client, b: &mut Client, page_size: u32) -> Vec<String> {
    let mut listed = Vec::new();
    let mut token = String::new();
    for page in 0.. {
        let c = if page % 2 == 0 { &mut *b } else { &mut *a };
        let answer = c
            .list_games(pb::ListGamesRequest {
                page_size,
                page_token: token.clone(),
                ..Default::default()
            })
            .await
            .expect("list a page")
            .into_inner();
        listed.extend(answer.games.into_iter().map(|g| g.game_id));
        token = answer.next_page_token;
        if token.is_empty() {
            break;
        }
    }
    listed
}

/// Events until the game-over event: the descriptions of those before it, then it and its
/// game-over message.
pub async fn until_game_over(
    stream: &mut Streaming<pb::WatchGameResponse>,
) -> (Vec<String>, pb::WatchGameResponse, pb::GameOver) {
    let mut seen = Vec::new();
    loop {
        let event = next_event(stream)
            .await
            .expect("stream")
            .expect("the game-over event before the stream ends");
        match &event.event {
            Some(Event::GameOver(over)) => {
                let over = over.clone();
                return (seen, event, over);
            }
            _ => seen.push(describe(&event)),
        }
    }
}

/// Every message until the stream ends, as `(seq, description)`.
pub async fn drain(stream: &mut Streaming<pb::WatchGameResponse>) -> Vec<(u64, String)> {
    let mut events = Vec::new();
    while let Some(event) = next_event(stream)
        .await
        .unwrap_or_else(|s| panic!("stream error: {s:?}"))
    {
        events.push((event.seq, describe(&event)));
    }
    events
}

/// A short name for an event: `move e2e4`, `offer b`, `over 0-1`, ...
pub fn describe(event: &pb::WatchGameResponse) -> String {
    let color = |c: i32| {
        if c == pb::Color::White as i32 {
            "w"
        } else {
            "b"
        }
    };
    match &event.event {
        Some(Event::Snapshot(g)) => format!("snapshot ply {}", g.ply),
        Some(Event::MovePlayed(m)) => {
            format!("move {}", m.r#move.as_ref().map_or("?", |m| m.uci.as_str()))
        }
        Some(Event::DrawOffered(o)) => format!("offer {}", color(o.by)),
        Some(Event::DrawDeclined(d)) => format!("decline {}", color(d.by)),
        Some(Event::GameOver(o)) => format!(
            "over {} {}",
            o.outcome.as_ref().map_or("?", |o| o.pgn_result.as_str()),
            o.outcome.as_ref().map_or(0, |o| o.termination)
        ),
        Some(Event::ClockChanged(c)) => format!("clock {} {}", color(c.side), c.reason),
        Some(Event::TakebackProposed(p)) => format!("takeback offer {}", color(p.by)),
        Some(Event::TakebackDeclined(d)) => format!("takeback decline {}", color(d.by)),
        Some(Event::TakebackWithdrawn(w)) => format!("takeback withdrawn {}", color(w.by)),
        Some(Event::MovesTakenBack(t)) => format!("taken back to {}", t.ply),
        Some(Event::SetupPlaced(p)) => {
            format!("setup {} {} {}", color(p.by), p.committed, p.start_fen)
        }
        Some(Event::EntropySubmitted(e)) => format!(
            "entropy {} {} {}{} {}",
            color(e.by),
            e.commitment,
            e.white_secret,
            e.black_secret,
            e.start_fen
        ),
        Some(Event::Heartbeat(_)) => "heartbeat".into(),
        Some(Event::PlayerPresence(p)) => format!(
            "presence {} {}",
            color(p.seat),
            p.presence.as_ref().is_some_and(|p| p.connected)
        ),
        None => "empty".into(),
    }
}
