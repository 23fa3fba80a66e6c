//! SubmitMove throughput and latency, in memory versus durable (`--data-dir`), on one run.
//!
//! Starts each server in this process (`chessd::run` on `127.0.0.1:0`), then 64 concurrent
//! players (one game each, over 8 HTTP/2 connections) submit moves as fast as the server answers
//! for a fixed time; a finished game is replaced by a new one. Prints moves per second and
//! latency percentiles per store, and the durable/in-memory ratio.
//!
//! ```sh
//! cargo run --release --example bench_durable -- [seconds per store, default 5]
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use chessd::ServerConfig;
use chessd::proto::game_service_client::GameServiceClient;
use chessd::proto::{self as pb};
use chessd::store::{Backend, SyncMode};
use tokio::net::TcpListener;
use tonic::Request;
use tonic::transport::Channel;

const CONCURRENCY: usize = 64;
const CONNECTIONS: usize = 8;

/// One store's figures.
struct Figures {
    moves: usize,
    secs: f64,
    /// Sorted SubmitMove latencies.
    latencies: Vec<Duration>,
}

impl Figures {
    fn per_sec(&self) -> f64 {
        self.moves as f64 / self.secs
    }

    fn percentile(&self, p: f64) -> Duration {
        let i = ((self.latencies.len() as f64 * p) as usize).min(self.latencies.len() - 1);
        self.latencies[i]
    }
}

fn authed<T>(msg: T, token: &str) -> Request<T> {
    let mut request = Request::new(msg);
    if let Ok(value) = format!("Bearer {token}").parse() {
        request.metadata_mut().insert("authorization", value);
    }
    request
}

/// A new game: its id and both tokens.
async fn new_game(client: &mut GameServiceClient<Channel>) -> (pb::Game, [String; 2]) {
    let created = client
        .create_game(pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            white_player: "bench-white".into(),
            black_player: "bench-black".into(),
            ..Default::default()
        })
        .await
        .expect("create game")
        .into_inner();
    (
        created.game.expect("game"),
        [created.white_token, created.black_token],
    )
}

/// One player: plays its game (both sides) until `stop`; returns its latencies.
async fn player(
    mut client: GameServiceClient<Channel>,
    seed: u64,
    stop: Arc<AtomicBool>,
) -> Vec<Duration> {
    let mut latencies = Vec::new();
    let (mut game, mut tokens) = new_game(&mut client).await;
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    while !stop.load(Ordering::Relaxed) {
        if game.legal_moves.is_empty() || game.outcome.is_some() {
            (game, tokens) = new_game(&mut client).await;
            continue;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mv = game.legal_moves[(x % game.legal_moves.len() as u64) as usize]
            .uci
            .clone();
        let token = &tokens[(game.ply % 2) as usize];
        let request = pb::SubmitMoveRequest {
            game_id: game.game_id.clone(),
            r#move: mv,
            expected_ply: Some(game.ply),
            ..Default::default()
        };
        let started = Instant::now();
        let answer = client.submit_move(authed(request, token)).await;
        latencies.push(started.elapsed());
        match answer {
            Ok(answer) => game = answer.into_inner().game.expect("game"),
            Err(status) => panic!("move refused: {status:?}"),
        }
    }
    latencies
}

/// Runs one server with `config` and measures it for `secs`.
async fn measure(config: ServerConfig, secs: u64) -> Figures {
    // Every client is on 127.0.0.1 and plays as fast as it is answered: measure the store,
    // not the rate limits.
    let mut config = config;
    config.security.rate_limits = false;
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop_server, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(chessd::run(listener, config, async {
        let _ = stopped.await;
    }));
    let mut channels = Vec::new();
    for _ in 0..CONNECTIONS {
        channels.push(
            Channel::from_shared(format!("http://{addr}"))
                .expect("url")
                .connect()
                .await
                .expect("connect"),
        );
    }
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let players: Vec<_> = (0..CONCURRENCY)
        .map(|i| {
            let client = GameServiceClient::new(channels[i % CONNECTIONS].clone());
            tokio::spawn(player(client, i as u64 + 1, stop.clone()))
        })
        .collect();
    tokio::time::sleep(Duration::from_secs(secs)).await;
    stop.store(true, Ordering::Relaxed);
    let mut latencies = Vec::new();
    for p in players {
        latencies.extend(p.await.expect("player"));
    }
    let elapsed = started.elapsed().as_secs_f64();
    let _ = stop_server.send(());
    let _ = server.await;
    latencies.sort_unstable();
    Figures {
        moves: latencies.len(),
        secs: elapsed,
        latencies,
    }
}

fn report(name: &str, f: &Figures) {
    println!(
        "{name:<22} {:>9.0} moves/s  p50 {:>7.2} ms  p99 {:>7.2} ms  ({} moves in {:.1} s)",
        f.per_sec(),
        f.percentile(0.50).as_secs_f64() * 1e3,
        f.percentile(0.99).as_secs_f64() * 1e3,
        f.moves,
        f.secs
    );
}

#[tokio::main]
async fn main() {
    let secs: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let dir = std::env::temp_dir().join(format!("chessd-bench-durable-{}", std::process::id()));
    println!("SubmitMove, {CONCURRENCY} concurrent games, {secs} s per store");

    let memory = measure(ServerConfig::default(), secs).await;
    report("in memory", &memory);

    let mut results = Vec::new();
    for (name, sync) in [
        ("durable, sync=full", SyncMode::Full),
        ("durable, sync=normal", SyncMode::Normal),
    ] {
        let _ = std::fs::remove_dir_all(&dir);
        let mut config = ServerConfig::default();
        config.store.backend = Backend::Sqlite {
            dir: dir.clone(),
            sync,
        };
        let figures = measure(config, secs).await;
        report(name, &figures);
        results.push((name, figures));
    }
    // Best effort: a leftover directory in the temp dir is harmless.
    let _ = std::fs::remove_dir_all(&dir);
    for (name, figures) in &results {
        println!(
            "{name}: {:.2}x the in-memory throughput",
            figures.per_sec() / memory.per_sec()
        );
    }
}
