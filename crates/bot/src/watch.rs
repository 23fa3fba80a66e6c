//! Following one game: a task that keeps a WatchGame stream open and hands every message to
//! the game runner on a bounded channel.
//!
//! When the stream breaks (a dropped connection, a server restart, `WATCHER_TOO_SLOW`, or
//! silence past [`IDLE_TIMEOUT`], which a server that sends heartbeats never reaches), the
//! task watches again with `after_seq` set to the last seq it received: the server replays
//! exactly what was missed. A bounded channel is enough: if the runner lags, the task waits,
//! the server's buffer for this watcher fills, the server cuts the stream, and the task
//! resumes from where the runner is.

use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::{Instant, timeout};
use tonic::{Code, Status};

use crate::client::{self, Api, CALL_TIMEOUT, Failure, Seat};
use crate::proto::{self, watch_game_response::Event};

/// Silence after which the stream counts as dead (the server's heartbeat comes every few
/// seconds; a connection that died without a reset sends nothing).
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(30);
/// Failures in a row before the task gives up: about five minutes at the 2 s backoff cap,
/// enough for a server restart or a rolling deploy.
const MAX_FAILURES: u32 = 150;
/// Messages buffered between the task and the runner.
pub const FEED_BUFFER: usize = 64;

/// What the task hands the runner.
#[derive(Debug)]
pub enum Feed {
    /// A message, and when it arrived (the clocks count from it). Boxed: a snapshot is
    /// large beside the other variants.
    Message {
        message: Box<proto::WatchGameResponse>,
        received: std::time::Instant,
    },
    /// The stream broke and is being opened again after `after_seq`.
    Resuming { after_seq: u64, error: Status },
    /// The stream cannot be followed (unknown game, bad token, too many failures).
    Failed(Status),
}

/// Starts following `seat`'s game after `after_seq` (0: from a snapshot).
pub fn follow(
    api: Api,
    seat: Seat,
    after_seq: u64,
) -> (mpsc::Receiver<Feed>, tokio::task::JoinHandle<()>) {
    let (tx, rx) = mpsc::channel(FEED_BUFFER);
    let task = tokio::spawn(run(api, seat, after_seq, tx));
    (rx, task)
}

async fn run(api: Api, seat: Seat, mut after_seq: u64, tx: mpsc::Sender<Feed>) {
    let mut client = api.client();
    let mut failures = 0u32;
    loop {
        let request = api.request(
            seat.bearer(),
            proto::WatchGameRequest {
                game_id: seat.game_id.clone(),
                after_seq,
            },
            // No deadline on the call: it would end the stream. Opening it is bounded below.
            None,
        );
        let broke = match timeout(CALL_TIMEOUT, client.watch_game(request)).await {
            Ok(Ok(response)) => {
                let mut stream = response.into_inner();
                loop {
                    match timeout(IDLE_TIMEOUT, stream.message()).await {
                        Ok(Ok(Some(message))) => {
                            failures = 0;
                            after_seq = after_seq.max(message.seq);
                            let over = matches!(message.event, Some(Event::GameOver(_)));
                            let feed = Feed::Message {
                                message: Box::new(message),
                                received: std::time::Instant::now(),
                            };
                            if tx.send(feed).await.is_err() || over {
                                return;
                            }
                        }
                        Ok(Ok(None)) => {
                            break Status::unavailable("the stream ended before the game");
                        }
                        Ok(Err(status)) => break status,
                        Err(_) => {
                            break Status::deadline_exceeded("no message or heartbeat for 30s");
                        }
                    }
                }
            }
            Ok(Err(status)) => status,
            Err(_) => Status::deadline_exceeded("WatchGame did not open within 10s"),
        };
        failures += 1;
        let wait = if broke.code() == Code::OutOfRange {
            // The server no longer knows that seq (its history was lost): start afresh.
            tracing::warn!(
                after_seq,
                "the server does not know the last seq seen; watching from a new snapshot"
            );
            after_seq = 0;
            Duration::ZERO
        } else {
            match client::failure(&broke) {
                Failure::Fatal => {
                    // The runner may be gone already; then nobody is waiting for this.
                    let _ = tx.send(Feed::Failed(broke)).await;
                    return;
                }
                Failure::Later(wait) => wait,
                Failure::Transient => client::backoff(failures),
            }
        };
        if failures > MAX_FAILURES {
            let _ = tx.send(Feed::Failed(broke)).await;
            return;
        }
        if tx
            .send(Feed::Resuming {
                after_seq,
                error: broke,
            })
            .await
            .is_err()
        {
            return;
        }
        tokio::time::sleep_until(Instant::now() + wait).await;
    }
}
