//! Client-side helpers shared by the integration test crates (`tests/service`,
//! `tests/replicas`, `tests/durability`), each of which includes this file as `mod common`.

// Each crate uses a different subset of these helpers.
#![allow(dead_code)]

use std::time::Duration;

use chessd::proto::game_service_client::GameServiceClient;
use chessd::proto::{self as pb, watch_game_response::Event};
use tonic::transport::Channel;
use tonic::{Request, Status, Streaming};
use tonic_types::StatusExt;

/// How long a test waits for the next watch event before it fails (paused-clock tests
/// advance through it at once when nothing else is pending).
const EVENT_WAIT: Duration = Duration::from_secs(20);

/// `msg` with `authorization: Bearer <token>`.
pub fn authed<T>(msg: T, token: &str) -> Request<T> {
    let mut request = Request::new(msg);
    request
        .metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    request
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

/// The next non-heartbeat message, within [`EVENT_WAIT`].
pub async fn next_event(
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
