//! Metrics: what chessd counts and the Prometheus endpoint that shows it.
//!
//! The code that knows an event emits through the [`metrics`] facade (`counter!`, `gauge!`,
//! `histogram!`); with no recorder installed those are no-ops, so the library, its tests and
//! chessd-bench's in-process server pay nothing unless metrics are on. `chessd serve --metrics-listen ADDR`
//! installs the Prometheus recorder once per process ([`install`]) and serves its text on
//! `GET /metrics` ([`serve`]), on its own port so the gRPC port never speaks HTTP/1.1.
//!
//! The series (names are constants below):
//! - `chessd_rpc_requests_total{method,code}` and `chessd_rpc_duration_seconds{method,code}`:
//!   every GameService call by method and gRPC status code, with its handling time (for
//!   WatchGame: the time to open the stream). Calls tonic refuses before a handler runs (an
//!   unknown method, an undecodable or oversized message) are not counted.
//! - `chessd_live_games`: games being played.
//! - `chessd_watchers`: open WatchGame streams.
//! - `chessd_moves_played_total{variant}`: moves played (retried requests count once).
//! - `chessd_games_finished_total{variant,termination}`: games that ended, aborted ones
//!   included (termination `aborted`).
//! - `chessd_connections`: open client connections; `chessd_connections_closed_total{reason}`:
//!   the ones the server closed and why; `chessd_connection_cap_reached_total` and
//!   `chessd_accept_errors_total{kind}`: the connection cap and the file-descriptor limit hit.
//! - `chessd_store_rewound_total` and `chessd_store_not_replicated_total`: games a replica
//!   found Redis no longer held as it had seen them (a failover lost writes), and changes
//!   not acknowledged because too few Redis replicas confirmed them (`--redis-min-replicas`).
//! - `chessd_watchers_cut_total{reason}`: WatchGame streams the server ended early;
//!   `chessd_peer_watchers_refused_total`: streams refused by the per-address bounds.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use chessd_rules::{Termination, any::AnyVariant};
use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

/// GameService calls by method and status code.
pub const RPC_REQUESTS: &str = "chessd_rpc_requests_total";
/// GameService handling time by method and status code, in seconds.
pub const RPC_DURATION: &str = "chessd_rpc_duration_seconds";
/// Games being played.
pub const LIVE_GAMES: &str = "chessd_live_games";
/// Open WatchGame streams.
pub const WATCHERS: &str = "chessd_watchers";
/// Moves played, by variant.
pub const MOVES_PLAYED: &str = "chessd_moves_played_total";
/// Games that ended, by variant and termination.
pub const GAMES_FINISHED: &str = "chessd_games_finished_total";
/// Open client connections (gRPC and gRPC-Web).
pub const CONNECTIONS: &str = "chessd_connections";
/// Connections the server closed, by reason (`transport::Closed`).
pub const CONNECTIONS_CLOSED: &str = "chessd_connections_closed_total";
/// Times the accept loop found every connection place taken.
pub const CONNECTION_CAP_REACHED: &str = "chessd_connection_cap_reached_total";
/// Failed accepts, by kind (`fd_limit`: out of file descriptors; `other`).
pub const ACCEPT_ERRORS: &str = "chessd_accept_errors_total";
/// WatchGame streams the server ended early, by reason (`too_slow`, `shutting_down`), and
/// those of them it had to reset because the client took not even the ending (`reset`).
pub const WATCHERS_CUT: &str = "chessd_watchers_cut_total";
/// WatchGame streams refused because the caller's address holds its maximum.
pub const PEER_WATCHERS_REFUSED: &str = "chessd_peer_watchers_refused_total";
/// Open WatchGames streams.
pub const FEEDS: &str = "chessd_feeds";
/// WatchGames streams the server ended, by reason (`too_slow`, `shutting_down`, `revoked`,
/// `out_of_range`, `store`; `reset`: the client took not even the ending).
pub const FEEDS_CUT: &str = "chessd_feeds_cut_total";

/// Games whose copy a replica found ahead of Redis, or beside it (a failover lost writes).
pub const STORE_REWOUND: &str = "chessd_store_rewound_total";
/// Changes not acknowledged because too few Redis replicas confirmed them in time.
pub const STORE_NOT_REPLICATED: &str = "chessd_store_not_replicated_total";

/// Histogram buckets for call durations, in seconds: a move is handled in tens of
/// microseconds, so the buckets start at 50 us and reach the slowest plausible call.
const RPC_BUCKETS: [f64; 14] = [
    0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
    1.0,
];

/// How often histogram samples are folded into their buckets when nobody scrapes, so the
/// recorder's sample buffers stay small under load.
const UPKEEP_INTERVAL: Duration = Duration::from_secs(5);
/// Scrape connections served at once; more wait for a place.
const MAX_SCRAPE_CONNECTIONS: usize = 16;
/// How long a scraper may take to send its request headers.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// The process's Prometheus recorder, installed once.
static RECORDER: OnceLock<PrometheusHandle> = OnceLock::new();

/// Why metrics could not be turned on.
#[derive(Debug)]
pub struct MetricsError(String);

impl std::fmt::Display for MetricsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MetricsError {}

/// Installs the Prometheus recorder as the process's metrics recorder (once: later calls return
/// the same handle) and describes the series. Install before the server starts: what is emitted
/// before goes nowhere.
pub fn install() -> Result<PrometheusHandle, MetricsError> {
    if let Some(handle) = RECORDER.get() {
        return Ok(handle.clone());
    }
    let recorder = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Full(RPC_DURATION.to_owned()), &RPC_BUCKETS)
        .map_err(|e| MetricsError(format!("histogram buckets: {e}")))?
        .build_recorder();
    let handle = recorder.handle();
    // Another thread may have won the race, or another recorder may be installed; either way
    // the first one stays and is the one to use.
    match metrics::set_global_recorder(recorder) {
        Ok(()) => {
            let _ = RECORDER.set(handle.clone());
            describe();
            Ok(handle)
        }
        Err(_) => RECORDER.get().cloned().ok_or_else(|| {
            MetricsError("another metrics recorder is already installed".to_owned())
        }),
    }
}

fn describe() {
    metrics::describe_counter!(RPC_REQUESTS, "GameService calls by method and status code.");
    metrics::describe_histogram!(
        RPC_DURATION,
        metrics::Unit::Seconds,
        "GameService handling time by method and status code (WatchGame: opening the stream)."
    );
    metrics::describe_gauge!(LIVE_GAMES, "Games being played.");
    metrics::describe_gauge!(WATCHERS, "Open WatchGame streams.");
    metrics::describe_counter!(MOVES_PLAYED, "Moves played, by variant.");
    metrics::describe_counter!(
        GAMES_FINISHED,
        "Games that ended (aborted ones included), by variant and termination."
    );
    metrics::describe_gauge!(CONNECTIONS, "Open client connections.");
    metrics::describe_counter!(
        CONNECTIONS_CLOSED,
        "Connections the server closed, by reason (handshake_timeout, evicted, idle, write_stall, reset, drain_timeout)."
    );
    metrics::describe_counter!(
        CONNECTION_CAP_REACHED,
        "Times every connection place (--max-connections) was taken when a connection arrived."
    );
    metrics::describe_counter!(
        ACCEPT_ERRORS,
        "Failed accepts, by kind (fd_limit: out of file descriptors)."
    );
    metrics::describe_counter!(
        WATCHERS_CUT,
        "WatchGame streams ended early, by reason (too_slow, shutting_down; reset: the client took not even the ending)."
    );
    metrics::describe_counter!(
        PEER_WATCHERS_REFUSED,
        "WatchGame streams refused because the caller's address holds its maximum."
    );
    metrics::describe_counter!(
        STORE_REWOUND,
        "Games a replica found Redis no longer held as it had seen them (a failover lost writes); read again."
    );
    metrics::describe_counter!(
        STORE_NOT_REPLICATED,
        "Changes not acknowledged (NOT_REPLICATED) because fewer Redis replicas than --redis-min-replicas confirmed them in time."
    );
    metrics::describe_gauge!(FEEDS, "Open WatchGames streams.");
    metrics::describe_counter!(
        FEEDS_CUT,
        "WatchGames streams the server ended, by reason (too_slow, shutting_down, revoked, out_of_range, store; reset: the client took not even the ending)."
    );
}

/// Serves `GET /metrics` on `listener` until `shutdown` completes, and keeps the recorder's
/// buffers folded meanwhile. Any other path is 404, any other method 405.
pub async fn serve(
    listener: TcpListener,
    handle: PrometheusHandle,
    shutdown: impl Future<Output = ()> + Send,
) {
    if let Ok(addr) = listener.local_addr() {
        tracing::info!(%addr, "metrics listening");
    }
    let places = Arc::new(Semaphore::new(MAX_SCRAPE_CONNECTIONS));
    // Dropping the set at shutdown aborts the connections still open.
    let mut connections = JoinSet::new();
    let mut upkeep = tokio::time::interval(UPKEEP_INTERVAL);
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => return,
            _ = upkeep.tick() => handle.run_upkeep(),
            // Reap finished connections so the set stays as small as the open ones.
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            accepted = listener.accept() => {
                let (stream, peer) = match accepted {
                    Ok(a) => a,
                    Err(e) => {
                        // Out of file descriptors and the like: pause rather than spin.
                        tracing::warn!(error = %e, "metrics accept failed");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                };
                // Beyond the bound, refuse the connection rather than stall the accept loop.
                let Ok(place) = places.clone().try_acquire_owned() else {
                    tracing::warn!(%peer, "too many metrics connections: refused");
                    continue;
                };
                let handle = handle.clone();
                connections.spawn(async move {
                    let _place = place;
                    scrape_connection(stream, peer, handle).await;
                });
            }
        }
    }
}

async fn scrape_connection(
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    handle: PrometheusHandle,
) {
    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
        let handle = handle.clone();
        async move { Ok::<_, Infallible>(answer(&request, &handle)) }
    });
    let served = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .serve_connection(TokioIo::new(stream), service)
        .await;
    if let Err(e) = served {
        tracing::debug!(%peer, error = %e, "metrics connection ended");
    }
}

fn answer(request: &Request<Incoming>, handle: &PrometheusHandle) -> Response<Full<Bytes>> {
    let (status, content_type, body) = match (request.method(), request.uri().path()) {
        (&Method::GET, "/metrics") => {
            handle.run_upkeep();
            (
                StatusCode::OK,
                "text/plain; version=0.0.4; charset=utf-8",
                handle.render(),
            )
        }
        (_, "/metrics") => (
            StatusCode::METHOD_NOT_ALLOWED,
            "text/plain",
            "only GET\n".to_owned(),
        ),
        _ => (
            StatusCode::NOT_FOUND,
            "text/plain",
            "metrics are at /metrics\n".to_owned(),
        ),
    };
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static(content_type),
    );
    response
}

/// Counts one GameService call and its handling time.
pub fn rpc(method: &'static str, code: tonic::Code, elapsed: Duration) {
    let code = code_name(code);
    metrics::counter!(RPC_REQUESTS, "method" => method, "code" => code).increment(1);
    metrics::histogram!(RPC_DURATION, "method" => method, "code" => code)
        .record(elapsed.as_secs_f64());
}

/// A game started.
pub fn game_started() {
    metrics::gauge!(LIVE_GAMES).increment(1.0);
}

/// A game ended (aborted games included).
pub fn game_ended(variant: AnyVariant, termination: Termination) {
    metrics::gauge!(LIVE_GAMES).decrement(1.0);
    metrics::counter!(
        GAMES_FINISHED,
        "variant" => variant.key(),
        "termination" => termination_name(termination)
    )
    .increment(1);
}

/// A move was played.
pub fn move_played(variant: AnyVariant) {
    metrics::counter!(MOVES_PLAYED, "variant" => variant.key()).increment(1);
}

/// A replica found a game in Redis behind (or beside) its copy.
pub fn store_rewound() {
    metrics::counter!(STORE_REWOUND).increment(1);
}

/// A change went unacknowledged: too few Redis replicas confirmed it.
pub fn store_not_replicated() {
    metrics::counter!(STORE_NOT_REPLICATED).increment(1);
}

/// Counts one open WatchGame stream for as long as it lives.
#[derive(Debug)]
pub struct WatcherGuard(());

impl WatcherGuard {
    #[must_use]
    pub fn new() -> WatcherGuard {
        metrics::gauge!(WATCHERS).increment(1.0);
        WatcherGuard(())
    }
}

impl Default for WatcherGuard {
    fn default() -> WatcherGuard {
        WatcherGuard::new()
    }
}

impl Drop for WatcherGuard {
    fn drop(&mut self) {
        metrics::gauge!(WATCHERS).decrement(1.0);
    }
}

/// Counts one open WatchGames stream in [`FEEDS`] for as long as it lives.
#[derive(Debug)]
pub struct FeedGuard(());

impl FeedGuard {
    #[must_use]
    pub fn new() -> FeedGuard {
        metrics::gauge!(FEEDS).increment(1.0);
        FeedGuard(())
    }
}

impl Default for FeedGuard {
    fn default() -> FeedGuard {
        FeedGuard::new()
    }
}

impl Drop for FeedGuard {
    fn drop(&mut self) {
        metrics::gauge!(FEEDS).decrement(1.0);
    }
}

/// A termination as a label value (snake case, stable).
#[must_use]
pub const fn termination_name(t: Termination) -> &'static str {
    match t {
        Termination::Checkmate => "checkmate",
        Termination::Stalemate => "stalemate",
        Termination::InsufficientMaterial => "insufficient_material",
        Termination::Repetition => "repetition",
        Termination::FiftyMoveRule => "fifty_move_rule",
        Termination::Race => "race",
        Termination::Resignation => "resignation",
        Termination::Agreement => "agreement",
        Termination::TimeForfeit => "time_forfeit",
        Termination::Abandonment => "abandonment",
        Termination::Aborted => "aborted",
        Termination::NoStart => "no_start",
        Termination::ThirdCheck => "third_check",
        Termination::KingOfTheHill => "king_of_the_hill",
        Termination::KingExploded => "king_exploded",
        Termination::AllPiecesLost => "all_pieces_lost",
        Termination::StalemateWin => "stalemate_win",
        Termination::HordeDestroyed => "horde_destroyed",
        Termination::Extinction => "extinction",
        Termination::NoCapture => "no_capture",
        Termination::StalemateLoss => "stalemate_loss",
        Termination::PerpetualCheck => "perpetual_check",
        Termination::PerpetualChase => "perpetual_chase",
        Termination::RepetitionLoss => "repetition_loss",
        Termination::Impasse => "impasse",
        Termination::KingFrozen => "king_frozen",
        Termination::KingCaptured => "king_captured",
        Termination::KingDestroyed => "king_destroyed",
    }
}

/// A gRPC status code as gRPC's specification spells it (`OK`, `INVALID_ARGUMENT`, ...).
#[must_use]
pub const fn code_name(code: tonic::Code) -> &'static str {
    use tonic::Code;
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Label values are distinct per termination, so no two series merge.
    #[test]
    fn termination_labels_are_distinct() {
        let mut names: Vec<_> = Termination::ALL
            .iter()
            .map(|&t| termination_name(t))
            .collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Termination::ALL.len());
    }

    /// Status codes are labelled with gRPC's canonical names.
    #[test]
    fn code_labels() {
        assert_eq!(code_name(tonic::Code::Ok), "OK");
        assert_eq!(
            code_name(tonic::Code::FailedPrecondition),
            "FAILED_PRECONDITION"
        );
    }
}
