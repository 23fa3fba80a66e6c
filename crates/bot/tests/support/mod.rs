//! Test support: a real chessd server in-process on `127.0.0.1:0`, games created through the
//! public API, the `chessd-bot` binary run as a real process with its JSON logs collected, a
//! random mover for the other seat, and a TCP proxy between bot and server that can cut every
//! connection or swallow one answer.

// Each test binary uses its own part of this module.
#![allow(dead_code)]

pub mod players;

use std::net::SocketAddr;
use std::path::Path;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chessd_bot::proto::{self as pb, game_service_client::GameServiceClient};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::process::{Child, Command};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::Channel;

pub type Client = GameServiceClient<Channel>;

pub const STOCKFISH: &str = "/usr/games/stockfish";
pub const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";
/// The Debian packages the tests play with.
pub const INSTALL: &str = "apt-get install -y stockfish fairy-stockfish";

/// `path`, which must exist: these tests play real engines and never skip silently.
pub fn engine(path: &str) -> &str {
    assert!(
        Path::new(path).exists(),
        "{path} is missing: chessd-bot's tests play real engines; install them with `{INSTALL}` (Debian)"
    );
    path
}

/// The misbehaving engine of the fault tests (it wraps Stockfish).
pub fn fake_engine() -> String {
    format!("{}/tests/data/fake_engine.py", env!("CARGO_MANIFEST_DIR"))
}

/// A server running `chessd::run` in this test's runtime; stopped when dropped.
pub struct Server {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    _task: JoinHandle<Result<(), chessd::RunError>>,
}

impl Server {
    pub async fn start() -> Server {
        Server::start_with(chessd::ServerConfig::default()).await
    }

    pub async fn start_with(config: chessd::ServerConfig) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local addr");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(chessd::run(listener, config, async {
            // A dropped sender also stops the server.
            let _ = stopped.await;
        }));
        Server {
            addr,
            stop: Some(stop),
            _task: task,
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub async fn client(&self) -> Client {
        client(&self.url()).await
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            // The server may have stopped already.
            let _ = stop.send(());
        }
    }
}

pub async fn client(url: &str) -> Client {
    let channel = Channel::from_shared(url.to_owned())
        .expect("url")
        .connect()
        .await
        .expect("connect to the test server");
    GameServiceClient::new(channel)
}

/// A game and its seat tokens.
#[derive(Clone, Debug)]
pub struct Seats {
    pub id: String,
    pub white: String,
    pub black: String,
}

fn duration(d: Duration) -> prost_types::Duration {
    prost_types::Duration {
        seconds: d.as_secs() as i64,
        nanos: d.subsec_nanos() as i32,
    }
}

/// Creates a game of `variant`, timed `initial`+`increment` when given.
pub async fn create(
    client: &mut Client,
    variant: pb::Variant,
    clock: Option<(Duration, Duration)>,
) -> Seats {
    create_from(client, variant, "", clock).await
}

/// Creates a game from `fen` ("" for the variant's start).
pub async fn create_from(
    client: &mut Client,
    variant: pb::Variant,
    fen: &str,
    clock: Option<(Duration, Duration)>,
) -> Seats {
    let response = client
        .create_game(pb::CreateGameRequest {
            variant: variant as i32,
            start_fen: fen.into(),
            white_player: "white".into(),
            black_player: "black".into(),
            time_control: clock.map(|(initial, increment)| pb::TimeControl {
                initial: Some(duration(initial)),
                increment: Some(duration(increment)),
                ..Default::default()
            }),
            ..Default::default()
        })
        .await
        .expect("CreateGame")
        .into_inner();
    Seats {
        id: response.game.expect("a game").game_id,
        white: response.white_token,
        black: response.black_token,
    }
}

/// Creates an untimed game by its key alone (`capablanca`: the wide family has no `Variant`
/// number).
pub async fn create_by_key(client: &mut Client, key: &str) -> Seats {
    let response = client
        .create_game(pb::CreateGameRequest {
            variant_key: key.into(),
            white_player: "white".into(),
            black_player: "black".into(),
            ..Default::default()
        })
        .await
        .expect("CreateGame")
        .into_inner();
    Seats {
        id: response.game.expect("a game").game_id,
        white: response.white_token,
        black: response.black_token,
    }
}

pub async fn get(client: &mut Client, id: &str) -> pb::Game {
    client
        .get_game(pb::GetGameRequest { game_id: id.into() })
        .await
        .expect("GetGame")
        .into_inner()
        .game
        .expect("a game")
}

/// Waits up to `limit` for the game to end; fails with its position otherwise.
pub async fn game_over(client: &mut Client, id: &str, limit: Duration) -> pb::Game {
    let start = tokio::time::Instant::now();
    loop {
        let game = get(client, id).await;
        if game.status != pb::GameStatus::Ongoing as i32 {
            return game;
        }
        assert!(
            start.elapsed() < limit,
            "game {id} still going after {limit:?}: ply {}, FEN {}",
            game.ply,
            game.fen
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until the game has reached `ply`.
pub async fn reach_ply(client: &mut Client, id: &str, ply: u32, limit: Duration) -> pb::Game {
    let start = tokio::time::Instant::now();
    loop {
        let game = get(client, id).await;
        if game.ply >= ply || game.status != pb::GameStatus::Ongoing as i32 {
            return game;
        }
        assert!(
            start.elapsed() < limit,
            "game {id} stuck at ply {}: FEN {}",
            game.ply,
            game.fen
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn termination(game: &pb::Game) -> String {
    game.outcome
        .as_ref()
        .and_then(|o| pb::Termination::try_from(o.termination).ok())
        .map_or("none".into(), |t| t.as_str_name().to_owned())
}

/// The game's result and termination, e.g. `1-0 TERMINATION_CHECKMATE`.
pub fn result(game: &pb::Game) -> String {
    let result = game.outcome.as_ref().map_or("*", |o| o.pgn_result.as_str());
    format!("{result} {}", termination(game))
}

/// Plays `side` (the seat of `token`) with random legal moves until the game ends.
pub fn random_mover(url: String, id: String, token: String, side: pb::Color) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut client = client(&url).await;
        let bearer: tonic::metadata::AsciiMetadataValue =
            format!("Bearer {token}").parse().expect("token");
        let mut n: u64 = 0x9e37_79b9_7f4a_7c15;
        loop {
            let game = get(&mut client, &id).await;
            if game.status != pb::GameStatus::Ongoing as i32 {
                return;
            }
            let mine = game.turn == side as i32 && !game.legal_moves.is_empty();
            if mine {
                n ^= n << 13;
                n ^= n >> 7;
                n ^= n << 17;
                let mv = &game.legal_moves[(n % game.legal_moves.len() as u64) as usize];
                let mut request = tonic::Request::new(pb::SubmitMoveRequest {
                    game_id: id.clone(),
                    r#move: mv.uci.clone(),
                    expected_ply: Some(game.ply),
                    ..Default::default()
                });
                request
                    .metadata_mut()
                    .insert("authorization", bearer.clone());
                // A stale move (the game moved on) is refused; the next loop sees why.
                let _ = client.submit_move(request).await;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
}

/// A `chessd-bot` process with its log lines (JSON) collected.
pub struct Bot {
    child: Child,
    logs: Arc<Mutex<Vec<Value>>>,
    reader: JoinHandle<()>,
}

/// A log line's field (`message`, `pid`, ...).
pub fn field<'a>(line: &'a Value, name: &str) -> Option<&'a Value> {
    line.get("fields").and_then(|f| f.get(name))
}

pub fn message(line: &Value) -> &str {
    field(line, "message").and_then(Value::as_str).unwrap_or("")
}

impl Bot {
    /// Starts the bot binary on `seat` of `game` at `url` with extra `args`.
    pub fn spawn(
        name: &str,
        url: &str,
        game: &str,
        token: &str,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> Bot {
        let mut all = vec!["--game", game];
        all.extend_from_slice(args);
        let mut vars = vec![("CHESSD_TOKEN", token)];
        vars.extend_from_slice(env);
        Bot::run(name, url, &all, &vars)
    }

    /// Starts the bot binary in player mode with `token` (passed as CHESSD_PLAYER_TOKEN).
    pub fn player(name: &str, url: &str, token: &str, args: &[&str], env: &[(&str, &str)]) -> Bot {
        let mut vars = vec![("CHESSD_PLAYER_TOKEN", token)];
        vars.extend_from_slice(env);
        Bot::run(name, url, args, &vars)
    }

    /// Starts the bot binary against `url` with `args` and `env`, JSON logs collected.
    pub fn run(name: &str, url: &str, args: &[&str], env: &[(&str, &str)]) -> Bot {
        let mut command = Command::new(env!("CARGO_BIN_EXE_chessd-bot"));
        command
            .args(["--addr", url, "--log-format", "json"])
            .args(args)
            .env_remove("CHESSD_TOKEN")
            .env_remove("CHESSD_PLAYER_TOKEN")
            .env("RUST_LOG", "chessd_bot=debug")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true);
        for (k, v) in env {
            command.env(k, v);
        }
        let mut child = command.spawn().expect("start chessd-bot");
        let stdout = child.stdout.take().expect("stdout");
        let logs = Arc::new(Mutex::new(Vec::new()));
        let sink = logs.clone();
        let name = name.to_owned();
        let reader = tokio::spawn(async move {
            let mut lines = BufReader::new(stdout).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let value = serde_json::from_str(&line)
                    .unwrap_or_else(|_| serde_json::json!({ "raw": line }));
                if message(&value) != "from engine" && message(&value) != "to engine" {
                    eprintln!("[{name}] {line}");
                }
                sink.lock().expect("logs").push(value);
            }
        });
        Bot {
            child,
            logs,
            reader,
        }
    }

    /// Sends the bot SIGTERM.
    pub fn terminate(&self) {
        let pid = self.child.id().expect("the bot is running");
        let status = std::process::Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status()
            .expect("run kill");
        assert!(status.success(), "kill -TERM {pid}: {status}");
    }

    pub fn logs(&self) -> Vec<Value> {
        self.logs.lock().expect("logs").clone()
    }

    /// Waits up to `limit` for a log line that satisfies `found`.
    pub async fn wait_for(
        &self,
        what: &str,
        limit: Duration,
        found: impl Fn(&Value) -> bool,
    ) -> Value {
        let start = tokio::time::Instant::now();
        loop {
            if let Some(line) = self.logs().into_iter().find(|l| found(l)) {
                return line;
            }
            assert!(
                start.elapsed() < limit,
                "the bot never logged {what} within {limit:?}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Waits up to `limit` for the bot to exit; its exit status and every log line.
    pub async fn finish(mut self, limit: Duration) -> (ExitStatus, Vec<Value>) {
        let status = tokio::time::timeout(limit, self.child.wait())
            .await
            .unwrap_or_else(|_| panic!("the bot did not exit within {limit:?}"))
            .expect("wait for the bot");
        // The pipe closes with the process: the reader is done soon after.
        let _ = tokio::time::timeout(Duration::from_secs(5), &mut self.reader).await;
        (status, self.logs())
    }
}

/// The bot's `game over` line; fails with the bot's last lines when there is none.
pub fn game_over_line(logs: &[Value]) -> Value {
    logs.iter()
        .find(|l| message(l) == "game over")
        .cloned()
        .unwrap_or_else(|| {
            let tail: Vec<String> = logs.iter().rev().take(5).map(Value::to_string).collect();
            panic!("no `game over` line; last lines: {tail:#?}")
        })
}

/// `request` with `token` as its bearer credential.
pub fn authed<T>(request: T, token: &str) -> tonic::Request<T> {
    let mut request = tonic::Request::new(request);
    let bearer = format!("Bearer {token}").parse().expect("token");
    request.metadata_mut().insert("authorization", bearer);
    request
}

/// A log line's span field (the `game` span's `game_id`).
pub fn span_field<'a>(line: &'a Value, name: &str) -> Option<&'a str> {
    line.get("span")
        .and_then(|s| s.get(name))
        .and_then(Value::as_str)
}

pub fn count(logs: &[Value], text: &str) -> usize {
    logs.iter().filter(|l| message(l) == text).count()
}

/// A TCP proxy between the bot and the server.
pub struct Proxy {
    pub addr: SocketAddr,
    state: Arc<ProxyState>,
    _accept: JoinHandle<()>,
}

#[derive(Default)]
struct ProxyState {
    connections: Mutex<Vec<JoinHandle<()>>>,
    /// Forward the next request-sized chunk from the client, then drop the server's answer
    /// and close the connection.
    lose_next_answer: AtomicBool,
}

/// Client chunks at least this large are requests (HTTP/2 control frames such as
/// WINDOW_UPDATE and PING are a few dozen bytes at most).
const REQUEST_BYTES: usize = 60;

impl Proxy {
    pub async fn start(target: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the proxy");
        let addr = listener.local_addr().expect("proxy addr");
        let state = Arc::new(ProxyState::default());
        let shared = state.clone();
        let accept = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let task = tokio::spawn(relay(client, target, shared.clone()));
                shared.connections.lock().expect("connections").push(task);
            }
        });
        Proxy {
            addr,
            state,
            _accept: accept,
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Closes every open connection (new ones are accepted again at once).
    pub fn cut(&self) {
        for task in self
            .state
            .connections
            .lock()
            .expect("connections")
            .drain(..)
        {
            task.abort();
        }
    }

    /// The next request the bot sends reaches the server, but its answer never comes back.
    pub fn lose_next_answer(&self) {
        self.state.lose_next_answer.store(true, Ordering::SeqCst);
    }
}

async fn relay(client: TcpStream, target: SocketAddr, state: Arc<ProxyState>) {
    let Ok(server) = TcpStream::connect(target).await else {
        return;
    };
    let (mut from_client, mut to_client) = client.into_split();
    let (mut from_server, mut to_server) = server.into_split();
    let blackhole = Arc::new(AtomicBool::new(false));
    let hole = blackhole.clone();
    let up = async move {
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            let n = match from_client.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => n,
            };
            let lose = n >= REQUEST_BYTES && state.lose_next_answer.swap(false, Ordering::SeqCst);
            if to_server.write_all(&buf[..n]).await.is_err() {
                return;
            }
            if lose {
                hole.store(true, Ordering::SeqCst);
                // Time for the server to act on the request; its answer goes nowhere.
                tokio::time::sleep(Duration::from_millis(300)).await;
                return;
            }
        }
    };
    let down = async move {
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            let n = match from_server.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => n,
            };
            if !blackhole.load(Ordering::SeqCst) && to_client.write_all(&buf[..n]).await.is_err() {
                return;
            }
        }
    };
    // Either side closing (or the blackhole ending) closes both.
    tokio::select! {
        () = up => {}
        () = down => {}
    }
}

/// A chess game on a fresh server with a random mover as Black; White is the bot under test.
pub struct VsRandom {
    pub server: Server,
    pub client: Client,
    pub seats: Seats,
    random: JoinHandle<()>,
}

impl VsRandom {
    pub async fn start() -> VsRandom {
        let server = Server::start().await;
        let mut client = server.client().await;
        let seats = create(&mut client, pb::Variant::Chess, None).await;
        let random = random_mover(
            server.url(),
            seats.id.clone(),
            seats.black.clone(),
            pb::Color::Black,
        );
        VsRandom {
            server,
            client,
            seats,
            random,
        }
    }

    /// Starts the bot as White with `args` and `env`.
    pub fn white(&self, args: &[&str], env: &[(&str, &str)]) -> Bot {
        Bot::spawn(
            "white",
            &self.server.url(),
            &self.seats.id,
            &self.seats.white,
            args,
            env,
        )
    }

    /// Waits for the bot to exit; its status, its logs and the game as it is then.
    pub async fn end(&mut self, bot: Bot) -> (ExitStatus, Vec<Value>, pb::Game) {
        let (status, logs) = bot.finish(Duration::from_secs(90)).await;
        let game = get(&mut self.client, &self.seats.id).await;
        (status, logs, game)
    }
}

impl Drop for VsRandom {
    fn drop(&mut self) {
        self.random.abort();
    }
}

/// The bot exited 0 and White won by mate.
pub fn won_by_mate(status: ExitStatus, game: &pb::Game) {
    assert!(status.success(), "bot exit {status}");
    assert_eq!(
        result(game),
        "1-0 TERMINATION_CHECKMATE",
        "FEN {}",
        game.fen
    );
}

/// Why the engine was restarted, each time.
pub fn restart_reasons(logs: &[Value]) -> Vec<String> {
    logs.iter()
        .filter(|l| message(l) == "engine failed; restarting it")
        .filter_map(|l| field(l, "why").and_then(Value::as_str).map(str::to_owned))
        .collect()
}
