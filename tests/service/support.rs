//! Test support: a real chessd server on `127.0.0.1:0`, a generated client, and helpers that
//! fail with the position (FEN) and the server's message when something is off.
//!
//! The store comes from `CHESSD_TEST_STORE`: `memory` (unset: the default), `sqlite`, where
//! each server gets its own database in a fresh temporary directory (`--data-dir`), `redis`,
//! where each server gets its own `redis-server` on a free loopback port, or `redis-cluster`,
//! where each server gets its own three-primary Redis Cluster (`--redis-cluster`), so the same
//! suite checks that every backend answers as the memory store does.

use std::net::SocketAddr;

use crate::common::redis::{Cluster, Redis};
use crate::common::wait_for_health;
pub use crate::common::{authed, next_event, reason, watch};
use chessd::proto::game_service_client::GameServiceClient;
use chessd::proto::{self as pb, watch_game_response::Event};
use chessd::store::{Backend, RedisConfig, SyncMode};
use chessd::{RunError, ServerConfig};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::Channel;
use tonic::{Code, Status, Streaming};
use tonic_health::pb::health_check_response::ServingStatus;

pub type Client = GameServiceClient<Channel>;

pub const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
pub const RK_START: &str = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1";

/// A server running `chessd::run` in this test's runtime.
pub struct TestServer {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<Result<(), RunError>>,
    /// The server's own Redis or database when the suite runs on one; killed or removed when
    /// the test ends.
    _redis: Option<Backing>,
    /// The directory of its API key file, removed when the test ends.
    _keys: Option<DataDir>,
}

/// A test server's Redis, or its SQLite database's directory.
enum Backing {
    Single(Redis),
    Cluster(Cluster),
    Sqlite(DataDir),
}

/// A fresh directory for one server's database, removed when the test ends.
struct DataDir(std::path::PathBuf);

impl DataDir {
    fn new() -> DataDir {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!(
            "chessd-service-{}-{n}-{}",
            std::process::id(),
            getrandom::u64().expect("randomness")
        ));
        std::fs::create_dir_all(&dir).expect("create a data directory");
        DataDir(dir)
    }
}

impl Drop for DataDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Where this run of the suite keeps games (`CHESSD_TEST_STORE`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum StoreKind {
    Memory,
    Sqlite,
    Redis,
    RedisCluster,
}

fn store_kind() -> StoreKind {
    match std::env::var("CHESSD_TEST_STORE").as_deref() {
        Ok("sqlite") => StoreKind::Sqlite,
        Ok("redis") => StoreKind::Redis,
        Ok("redis-cluster") => StoreKind::RedisCluster,
        Ok("memory" | "") | Err(_) => StoreKind::Memory,
        Ok(other) => {
            panic!("CHESSD_TEST_STORE is memory, sqlite, redis or redis-cluster, not {other:?}")
        }
    }
}

/// Whether this run of the suite keeps games in Redis (`CHESSD_TEST_STORE=redis` or
/// `redis-cluster`).
pub fn on_redis() -> bool {
    matches!(store_kind(), StoreKind::Redis | StoreKind::RedisCluster)
}

/// Whether a test that asks for tokio's paused clock runs in real time (see
/// [`real_time_off_memory`]).
pub fn in_real_time() -> bool {
    store_kind() != StoreKind::Memory
}

/// For a test that starts with tokio's clock paused: on any store but memory, runs it in real
/// time instead. A paused runtime jumps its clock whenever it would wait, also while a reply
/// from Redis or a commit of SQLite's writer thread is on its way: on Redis that fires the
/// client's response timeout, and the Redis store sweeps deadlines by wall time, which a paused
/// clock does not move; on SQLite every call waits for the writer, so the clock would leap to
/// the next timer (a flag, a heartbeat) in the middle of a call. The assertions stay the same;
/// only the waits become real.
pub fn real_time_off_memory() {
    if in_real_time() {
        tokio::time::resume();
    }
}

pub async fn start() -> TestServer {
    start_with(ServerConfig::default()).await
}

/// A server without rate limits, for a test that makes hundreds of calls a second from one
/// address (playing many games through every caller's eyes): the peer limit would refuse some
/// on a fast machine. The limits have tests of their own.
pub async fn start_unlimited() -> TestServer {
    let mut config = ServerConfig::default();
    config.security.rate_limits = false;
    start_with(config).await
}

/// A server whose one API key is `key` (the platform's), without rate limits as
/// [`start_unlimited`] (every caller's reads of every ply, from one address).
pub async fn start_with_key(key: &str) -> TestServer {
    let dir = DataDir::new();
    let keys = dir.0.join("api-keys");
    std::fs::write(&keys, format!("{key}\n")).expect("write the key file");
    let mut config = ServerConfig::default();
    config.security.api_key_file = Some(keys);
    config.security.rate_limits = false;
    let mut server = start_with(config).await;
    server._keys = Some(dir);
    server
}

/// A server with `config`, on its own Redis when the suite runs on Redis (once Redis answers,
/// as the health service says).
pub async fn start_with(mut config: ServerConfig) -> TestServer {
    let redis = match store_kind() {
        StoreKind::Memory => None,
        StoreKind::Sqlite => Some(Backing::Sqlite(DataDir::new())),
        StoreKind::Redis => Some(Backing::Single(Redis::start())),
        StoreKind::RedisCluster => Some(Backing::Cluster(Cluster::start())),
    };
    match &redis {
        Some(Backing::Single(redis)) => {
            config.store.backend = Backend::Redis(RedisConfig::single(redis.url()));
        }
        Some(Backing::Cluster(cluster)) => {
            config.store.backend = Backend::Redis(RedisConfig::cluster(cluster.urls()));
        }
        Some(Backing::Sqlite(dir)) => {
            config.store.backend = Backend::Sqlite {
                dir: dir.0.clone(),
                sync: SyncMode::Full,
            };
        }
        None => {}
    }
    let mut server = spawn(config).await;
    if on_redis() {
        wait_for_health(server.addr, ServingStatus::Serving).await;
    }
    server._redis = redis;
    server
}

async fn spawn(mut config: ServerConfig) -> TestServer {
    // Tests stop their servers all the time; the grace before the drain is for balancers
    // (tests/security/shutdown.rs checks it on the binary).
    config.shutdown_grace = std::time::Duration::ZERO;
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind 127.0.0.1:0");
    let addr = listener.local_addr().expect("local addr");
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(chessd::run(listener, config, async {
        // A dropped sender also stops the server.
        let _ = stopped.await;
    }));
    TestServer {
        addr,
        stop: Some(stop),
        task,
        _redis: None,
        _keys: None,
    }
}

impl TestServer {
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub async fn channel(&self) -> Channel {
        Channel::from_shared(self.url())
            .unwrap()
            .connect()
            .await
            .expect("connect to the test server")
    }

    pub async fn client(&self) -> Client {
        GameServiceClient::new(self.channel().await)
    }

    /// Asks the server to stop; returns what `run` returned.
    pub async fn shutdown(mut self) -> Result<(), RunError> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        (&mut self.task).await.expect("server task")
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
    /// The token of the side named `w` or `b`.
    pub fn token(&self, side: char) -> &str {
        if side == 'w' {
            &self.white
        } else {
            &self.black
        }
    }
}

pub fn variant_of(fen_or_variant: &str) -> i32 {
    match fen_or_variant {
        "racingkings" => pb::Variant::RacingKings as i32,
        _ => pb::Variant::Chess as i32,
    }
}

pub fn tc(initial_secs: i64, increment_secs: i64) -> pb::TimeControl {
    pb::TimeControl {
        initial: Some(prost_types::Duration {
            seconds: initial_secs,
            nanos: 0,
        }),
        increment: Some(prost_types::Duration {
            seconds: increment_secs,
            nanos: 0,
        }),
        ..Default::default()
    }
}

/// Creates a game of `variant` ("chess" or "racingkings") from `fen` ("" for the start).
pub async fn create(client: &mut Client, variant: &str, fen: &str) -> (pb::Game, Seats) {
    create_with(
        client,
        pb::CreateGameRequest {
            variant: variant_of(variant),
            start_fen: fen.into(),
            white_player: "white".into(),
            black_player: "black".into(),
            ..Default::default()
        },
    )
    .await
}

/// A CreateGame request naming its game by key alone (players "white" and "black").
pub fn by_key(key: &str) -> pb::CreateGameRequest {
    pb::CreateGameRequest {
        variant_key: key.into(),
        white_player: "white".into(),
        black_player: "black".into(),
        ..Default::default()
    }
}

/// The game's PGN (ExportPgn); panics on refusal.
pub async fn export_pgn(client: &mut Client, id: &str) -> String {
    export(client, id).await.pgn
}

/// The game's KIF (ExportPgn's `kif`: empty but for shogi); panics on refusal.
pub async fn export_kif(client: &mut Client, id: &str) -> String {
    export(client, id).await.kif
}

async fn export(client: &mut Client, id: &str) -> pb::ExportPgnResponse {
    client
        .export_pgn(pb::ExportPgnRequest { game_id: id.into() })
        .await
        .unwrap_or_else(|s| panic!("export {id}: {}", s.message()))
        .into_inner()
}

/// How a game of `key` from `fen` ends after `moves` (the first by `first`, 'w' or 'b'): its
/// result and termination; panics unless it is over.
pub async fn end_after(
    client: &mut Client,
    key: &str,
    fen: &str,
    first: char,
    moves: &str,
) -> (String, pb::Termination) {
    let request = pb::CreateGameRequest {
        start_fen: fen.into(),
        ..by_key(key)
    };
    let (_, seats) = create_with(client, request).await;
    let over = play_all(client, &seats, first, moves).await;
    assert_eq!(
        over.status,
        pb::GameStatus::Finished as i32,
        "{key} {fen} {moves}"
    );
    outcome(&over)
}

pub async fn create_with(client: &mut Client, request: pb::CreateGameRequest) -> (pb::Game, Seats) {
    let fen = request.start_fen.clone();
    let created = client
        .create_game(request)
        .await
        .unwrap_or_else(|s| panic!("create game from {fen:?}: {}", s.message()))
        .into_inner();
    let game = created.game.expect("created game");
    let seats = Seats {
        id: game.game_id.clone(),
        white: created.white_token,
        black: created.black_token,
    };
    (game, seats)
}

/// Plays `mv` for the side `side` ('w' or 'b'); panics with the position on refusal.
pub async fn play(
    client: &mut Client,
    seats: &Seats,
    side: char,
    mv: &str,
) -> pb::SubmitMoveResponse {
    let request = pb::SubmitMoveRequest {
        game_id: seats.id.clone(),
        r#move: mv.into(),
        ..Default::default()
    };
    match client.submit_move(authed(request, seats.token(side))).await {
        Ok(r) => r.into_inner(),
        Err(status) => {
            let fen = get(client, &seats.id).await.fen;
            panic!(
                "{side} {mv} refused at {fen}: {:?} {}",
                status.code(),
                status.message()
            )
        }
    }
}

/// `side` ('w' or 'b') offers a draw; panics on refusal.
pub async fn offer_draw(client: &mut Client, seats: &Seats, side: char) {
    let request = pb::OfferDrawRequest {
        game_id: seats.id.clone(),
    };
    client
        .offer_draw(authed(request, seats.token(side)))
        .await
        .unwrap_or_else(|s| panic!("{side} offers a draw: {}", s.message()));
}

/// `side` ('w' or 'b') declines the standing draw offer; panics on refusal.
pub async fn decline_draw(client: &mut Client, seats: &Seats, side: char) {
    let request = pb::RespondToDrawRequest {
        game_id: seats.id.clone(),
        accept: false,
    };
    client
        .respond_to_draw(authed(request, seats.token(side)))
        .await
        .unwrap_or_else(|s| panic!("{side} declines a draw: {}", s.message()));
}

/// Plays moves alternately, starting with `first` ('w' or 'b').
pub async fn play_all(client: &mut Client, seats: &Seats, first: char, moves: &str) -> pb::Game {
    let mut side = first;
    let mut last = None;
    for mv in moves.split_whitespace() {
        last = play(client, seats, side, mv).await.game;
        side = if side == 'w' { 'b' } else { 'w' };
    }
    last.expect("at least one move")
}

pub async fn get(client: &mut Client, id: &str) -> pb::Game {
    client
        .get_game(pb::GetGameRequest { game_id: id.into() })
        .await
        .expect("get game")
        .into_inner()
        .game
        .expect("game")
}

/// Asserts that `result` failed with `code` and ErrorInfo `expected_reason`.
#[track_caller]
pub fn assert_refused<T: std::fmt::Debug>(
    result: Result<T, Status>,
    code: Code,
    expected_reason: &str,
) -> Status {
    let status = match result {
        Ok(v) => panic!("expected {code:?}/{expected_reason}, got success: {v:?}"),
        Err(s) => s,
    };
    assert_eq!(
        (status.code(), reason(&status).as_str()),
        (code, expected_reason),
        "message: {}",
        status.message()
    );
    status
}

/// Every non-heartbeat message until the stream ends; panics on a stream error.
pub async fn drain(stream: &mut Streaming<pb::WatchGameResponse>) -> Vec<pb::WatchGameResponse> {
    let mut events = Vec::new();
    while let Some(event) = next_event(stream)
        .await
        .unwrap_or_else(|s| panic!("stream error: {s:?}"))
    {
        events.push(event);
    }
    events
}

/// A short name for an event, for comparisons in failure messages: `move e2e4`, `offer w`, ...
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
            "over {}",
            o.outcome.as_ref().map_or("?", |o| o.pgn_result.as_str())
        ),
        Some(Event::ClockChanged(c)) => format!("clock {} {}", color(c.side), c.reason),
        Some(Event::TakebackProposed(p)) => format!("takeback offer {}", color(p.by)),
        Some(Event::TakebackDeclined(d)) => format!("takeback decline {}", color(d.by)),
        Some(Event::TakebackWithdrawn(w)) => format!("takeback withdrawn {}", color(w.by)),
        Some(Event::MovesTakenBack(t)) => format!("taken back to {}", t.ply),
        Some(Event::SetupPlaced(p)) => format!("setup {} {}", color(p.by), p.committed),
        Some(Event::EntropySubmitted(e)) => format!(
            "entropy {} {}",
            color(e.by),
            if !e.start_fen.is_empty() {
                "start"
            } else if e.revealed {
                "reveal"
            } else {
                "commit"
            }
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

/// The outcome of a finished game: (pgn result, termination).
pub fn outcome(game: &pb::Game) -> (String, pb::Termination) {
    let o = game
        .outcome
        .as_ref()
        .unwrap_or_else(|| panic!("game at {} has no outcome", game.fen));
    (
        o.pgn_result.clone(),
        pb::Termination::try_from(o.termination).expect("known termination"),
    )
}

/// A small deterministic generator for seeded random games: the games differ by seed and
/// repeat exactly.
pub fn next(seed: &mut u64) -> usize {
    *seed = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    (*seed >> 33) as usize
}
