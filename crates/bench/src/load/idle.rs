//! The idle-games phase: `--idle-games` games created and never played, and the server's
//! resident memory before and after, for what one idle game costs.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use chessd_proto as pb;
use chessd_rules::any::AnyVariant;
use tokio::task::JoinSet;
use tokio::time::{sleep, timeout};

use crate::channels::{self, CALL_TIMEOUT};
use crate::error::BenchError;
use crate::load::watchers::Client;
use crate::report::measure::ServerProc;
use chessd::api::encode::proto_variant;

/// Concurrent CreateGame calls.
const CREATORS: usize = 64;
/// Refusals after which a creator stops: a full server refuses every further game.
const MAX_REFUSALS: usize = 10;

/// What the phase measured.
pub struct IdleFigures {
    pub made: usize,
    pub refused: usize,
    pub took: Duration,
    /// The server's resident memory before and after, in bytes, where readable.
    pub rss: Option<(u64, u64)>,
}

impl IdleFigures {
    /// RSS growth divided by the games made.
    pub fn bytes_per_game(&self) -> Option<f64> {
        let (before, after) = self.rss?;
        (self.made > 0).then(|| after.saturating_sub(before) as f64 / self.made as f64)
    }
}

/// Creates `count` games of `variant` over `connections` connections to `addrs`.
pub async fn idle_phase(
    count: usize,
    variant: AnyVariant,
    addrs: &[SocketAddr],
    connections: usize,
    server: ServerProc,
) -> Result<IdleFigures, BenchError> {
    let channels = channels::connect_all(addrs, connections).await?;
    let before = server.rss();
    let started = Instant::now();
    let per_task = count.div_ceil(CREATORS);
    let mut creators = JoinSet::new();
    for i in 0..CREATORS {
        let mine = per_task.min(count.saturating_sub(i * per_task));
        let mut client = Client::new(channels[i % channels.len()].clone());
        creators.spawn(async move {
            let (mut made, mut refused) = (0usize, 0usize);
            for _ in 0..mine {
                let request = pb::CreateGameRequest {
                    variant: proto_variant(variant),
                    variant_key: variant.key().into(),
                    white_player: "idle-w".into(),
                    black_player: "idle-b".into(),
                    ..Default::default()
                };
                match timeout(CALL_TIMEOUT, client.create_game(request)).await {
                    Ok(Ok(_)) => made += 1,
                    _ => {
                        refused += 1;
                        if refused > MAX_REFUSALS {
                            break;
                        }
                    }
                }
            }
            (made, refused)
        });
    }
    let (mut made, mut refused) = (0usize, 0usize);
    while let Some(done) = creators.join_next().await {
        if let Ok((m, r)) = done {
            made += m;
            refused += r;
        }
    }
    let took = started.elapsed();
    // Let the allocator and the kernel settle before reading.
    sleep(Duration::from_millis(200)).await;
    let after = server.rss();
    Ok(IdleFigures {
        made,
        refused,
        took,
        rss: before.zip(after).map(|((b, _), (a, _))| (b, a)),
    })
}
