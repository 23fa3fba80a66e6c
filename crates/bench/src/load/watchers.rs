//! The watchers: WatchGame streams from the start of a game, and the delivery latency of each
//! move they receive (from the mover's SubmitMove send, and from the event's server time),
//! and how late a flag fell (`flagfall`).

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use chessd_proto as pb;
use chessd_proto::game_service_client::GameServiceClient;
use chessd_proto::watch_game_response::Event;
use tokio::sync::mpsc;
use tokio::time::{timeout, timeout_at};
use tonic::Request;
use tonic::transport::Channel;

use crate::channels::CALL_TIMEOUT;
use crate::load::shared::{Shared, Table};
use crate::timed::flagfall;

/// The game service's client over one of the bench's connections.
pub type Client = GameServiceClient<Channel>;

/// Opens a watch from the start of the game.
pub async fn open_watch(
    client: &mut Client,
    table: &Table,
) -> Option<tonic::Streaming<pb::WatchGameResponse>> {
    let mut request = Request::new(pb::WatchGameRequest {
        game_id: table.id.clone(),
        after_seq: 0,
    });
    // The stream lives as long as its game: a day-long deadline bounds it on the server
    // without ever ending a bench's stream early.
    request.set_timeout(Duration::from_secs(24 * 3600));
    timeout(CALL_TIMEOUT, client.watch_game(request))
        .await
        .ok()?
        .ok()
        .map(tonic::Response::into_inner)
}

/// Records a move event's delivery, if it arrived in the measured window.
pub fn delivered(shared: &Shared, table: &Table, message: &pb::WatchGameResponse, ply: u32) {
    let now = Instant::now();
    if !shared.measured(now) {
        return;
    }
    let server_lag = message
        .server_time
        .and_then(|t| SystemTime::try_from(t).ok())
        .and_then(|t| SystemTime::now().duration_since(t).ok());
    let mut stats = shared.stats();
    if let Some(sent) = table.sent.get(u64::from(ply)) {
        stats.deliveries_measured += 1;
        stats
            .delivery
            .record_nanos(shared.nanos(now).saturating_sub(sent));
    }
    if let Some(lag) = server_lag {
        stats.server_delivery.record(lag);
    }
}

/// A spectator: records its deliveries until the game ends. It says `ready` once its stream
/// is open, so the game starts only when every watcher will see every move.
pub async fn watcher(
    shared: Arc<Shared>,
    mut client: Client,
    table: Arc<Table>,
    ready: mpsc::Sender<()>,
) {
    let Some(mut stream) = open_watch(&mut client, &table).await else {
        shared.stats().stream_failures += 1;
        return;
    };
    // The receiver may have given up waiting; the stream is open either way.
    let _ = ready.try_send(());
    drop(ready);
    let hard_end = shared.end + CALL_TIMEOUT * 2;
    // When the side to move's flag is due, from the last move's clocks.
    let mut flag_due = None;
    loop {
        match timeout_at(hard_end.into(), stream.message()).await {
            Ok(Ok(Some(message))) => match &message.event {
                Some(Event::MovePlayed(m)) => {
                    let ply = m.r#move.as_ref().map_or(0, |m| m.ply);
                    flag_due = flagfall::due(m.clocks.as_ref());
                    delivered(&shared, &table, &message, ply);
                }
                Some(Event::GameOver(over)) => {
                    if flagfall::is_flag(over) && shared.measured(Instant::now()) {
                        let server_time = message
                            .server_time
                            .and_then(|t| SystemTime::try_from(t).ok());
                        shared
                            .stats()
                            .flags
                            .record(flag_due, server_time, SystemTime::now());
                    }
                    return;
                }
                _ => {}
            },
            Ok(Ok(None)) => return,
            _ => {
                shared.stats().stream_failures += 1;
                return;
            }
        }
    }
}
