//! Client-side helpers shared by the integration test crates (`tests/service`,
//! `tests/replicas`, `tests/durability`, `tests/security`), each of which includes this file as
//! `mod common`; the `redis-server` they may start (`redis`), with replicas and failovers
//! (`topology`); and the real binary, for tests that need a process of its own (`process`).

// Each crate uses a different subset of these helpers.
#![allow(dead_code)]

pub mod process;
pub mod redis;
pub mod takebacks;
pub mod topology;

use std::net::SocketAddr;
use std::time::Duration;

use chessd::proto::game_service_client::GameServiceClient;
use chessd::proto::{self as pb, watch_game_response::Event};
use tonic::transport::Channel;
use tonic::{Request, Status, Streaming};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_types::StatusExt;

/// How long a test waits for the next watch event before it fails (paused-clock tests
/// advance through it at once when nothing else is pending).
const EVENT_WAIT: Duration = Duration::from_secs(20);

/// The default configuration on the Redis (or, with `cluster`, the Redis Cluster seeds) at
/// `url`.
pub fn on_redis(url: String, cluster: bool) -> chessd::ServerConfig {
    let mut config = chessd::ServerConfig::default();
    config.store.backend = chessd::store::Backend::Redis(if cluster {
        chessd::store::RedisConfig::cluster(url)
    } else {
        chessd::store::RedisConfig::single(url)
    });
    config
}

/// `msg` with `authorization: Bearer <token>`.
pub fn authed<T>(msg: T, token: &str) -> Request<T> {
    let mut request = Request::new(msg);
    request
        .metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    request
}

/// Game `id` as the caller of `token` (a seat's; `None`: a spectator) is shown it, without what
/// is read afresh on every call (the clocks' reading, presence), so two reads compare equal.
pub async fn seen_by(
    client: &mut GameServiceClient<Channel>,
    id: &str,
    token: Option<&str>,
) -> pb::Game {
    let request = pb::GetGameRequest { game_id: id.into() };
    let request = match token {
        Some(token) => authed(request, token),
        None => Request::new(request),
    };
    let mut game = client
        .get_game(request)
        .await
        .expect("get game")
        .into_inner()
        .game
        .expect("game");
    game.clocks = None;
    game.white_presence = None;
    game.black_presence = None;
    game
}

/// The ErrorInfo reason of a refusal ("" if it has none).
pub fn reason(status: &Status) -> String {
    status
        .get_details_error_info()
        .map(|i| i.reason)
        .unwrap_or_default()
}

/// Opens a WatchGame stream after `after_seq`.
pub async fn watch(
    client: &mut GameServiceClient<Channel>,
    id: &str,
    after_seq: u64,
) -> Streaming<pb::WatchGameResponse> {
    client
        .watch_game(pb::WatchGameRequest {
            game_id: id.into(),
            after_seq,
        })
        .await
        .expect("watch game")
        .into_inner()
}

/// The next numbered message (neither a heartbeat nor a presence message, which ride between
/// events), within [`EVENT_WAIT`].
pub async fn next_event(
    stream: &mut Streaming<pb::WatchGameResponse>,
) -> Result<Option<pb::WatchGameResponse>, Status> {
    loop {
        match next_message(stream).await? {
            Some(m) if matches!(m.event, Some(Event::PlayerPresence(_))) => continue,
            other => return Ok(other),
        }
    }
}

/// The next message but heartbeats (presence messages included), within [`EVENT_WAIT`].
pub async fn next_message(
    stream: &mut Streaming<pb::WatchGameResponse>,
) -> Result<Option<pb::WatchGameResponse>, Status> {
    loop {
        let message = tokio::time::timeout(EVENT_WAIT, stream.message())
            .await
            .expect("an event within the wait")?;
        match message {
            Some(m) if matches!(m.event, Some(Event::Heartbeat(_))) => continue,
            other => return Ok(other),
        }
    }
}

/// The string value of `"key":"..."` in a JSON log line.
pub fn json_field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let start = line.find(&format!("\"{key}\":\""))? + key.len() + 4;
    let len = line[start..].find('"')?;
    Some(&line[start..start + len])
}

/// A connection to the server at `addr`.
pub async fn channel_at(addr: SocketAddr) -> Channel {
    Channel::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect()
        .await
        .expect("connect to the server")
}

/// What the health service says of chessd.v1.GameService at `addr`.
pub async fn health_at(addr: SocketAddr) -> ServingStatus {
    let answer = HealthClient::new(channel_at(addr).await)
        .check(HealthCheckRequest {
            service: chessd::SERVICE_NAME.into(),
        })
        .await
        .expect("health check")
        .into_inner();
    ServingStatus::try_from(answer.status).expect("known status")
}

/// Waits (up to 20 s) until the health service at `addr` reports `status`.
pub async fn wait_for_health(addr: SocketAddr, status: ServingStatus) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        if health_at(addr).await == status {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "health did not become {status:?} within 20 s"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
