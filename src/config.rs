//! Configuration: `chessd serve` flags, each with an environment variable, the defaults as
//! documented constants, and [`ServerConfig`], which holds each layer's own configuration
//! (the store's, the security's, the page's, the API's), built from the flags here.
//!
//! Precedence: flag, then environment variable, then default. Durations are written as a number
//! with a unit: `500ms`, `5s`, `2m`, `1h` (a bare number means seconds; see `units`).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};

use crate::api::ApiConfig;
use crate::security::{SecurityArgs, SecurityConfig};
use crate::server::web::WebConfig;
use crate::store::{
    Backend, RedisConfig, RedisTopology, ReplicaAck, StoreConfig, StoreLimits, SyncMode,
};
use crate::telemetry::{TelemetryArgs, TelemetryConfig};
use crate::transport::TransportConfig;
use crate::units::{count, duration, duration_or_zero, retention};

/// Where the server listens by default: this machine only (loopback), gRPC's customary port.
/// Without API keys the backend calls are open to whoever reaches the port, so reaching it
/// from other machines is a choice made with `--listen` (the image and manifests make it).
pub const DEFAULT_LISTEN: &str = "127.0.0.1:50051";
/// Ongoing games held at once.
pub const DEFAULT_MAX_LIVE_GAMES: usize = 100_000;
/// Finished games kept for GetGame, ListGames and ExportPgn before the oldest is forgotten.
pub const DEFAULT_MAX_FINISHED_GAMES: usize = 100_000;
/// Open WatchGame streams per game.
pub const DEFAULT_MAX_WATCHERS_PER_GAME: usize = 1_000;
/// Events buffered per watched game; a watcher further behind is cut off (a game rarely has
/// more than a few events a second, so 64 covers long network stalls).
pub const DEFAULT_WATCH_BUFFER: usize = 64;
/// The largest request message decoded, in bytes (chessd's requests are a few hundred bytes).
pub const DEFAULT_MAX_REQUEST_BYTES: usize = 64 * 1024;
/// The largest ListGames page.
pub const DEFAULT_MAX_PAGE_SIZE: usize = 500;
/// The quiet time after which a watcher gets a heartbeat (well under common proxy idle
/// timeouts of 30 to 60 seconds).
pub const DEFAULT_HEARTBEAT: Duration = Duration::from_secs(5);
/// How long a shutdown waits for open requests and streams before closing them.
pub const DEFAULT_DRAIN_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a shutdown keeps serving with health NOT_SERVING before it drains: long enough
/// for a balancer's health check or Kubernetes' endpoint removal to take the replica out.
pub const DEFAULT_SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// An ongoing game with no move for this long is abandoned (`--abandon-after`): longer than
/// any sane time control's think, short enough that deserted games do not pile up against
/// `--max-live-games` (untimed games have no flag to end them).
pub const DEFAULT_ABANDON_AFTER: Duration = Duration::from_secs(24 * 60 * 60);

/// How long the feed (WatchGames) keeps an event (`--feed-retention`): a consumer that was
/// down for up to a day resumes where it stopped.
pub const DEFAULT_FEED_RETENTION: Duration = Duration::from_secs(24 * 60 * 60);

/// Feed events kept at most, whatever their age (`--feed-max-events`): the feed's memory (and
/// file, and Redis) bound when games are many and moves are fast.
pub const DEFAULT_FEED_MAX_EVENTS: usize = 1_000_000;

/// What the server needs besides its listener.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerConfig {
    /// Which store, where, and its limits.
    pub store: StoreConfig,
    /// Maximum decoded request size in bytes (larger requests: RESOURCE_EXHAUSTED).
    pub max_request_bytes: usize,
    /// Maximum ListGames page size (larger asks are capped).
    pub max_page_size: usize,
    /// Quiet time before a watcher's heartbeat.
    pub heartbeat: Duration,
    /// Serving on with health NOT_SERVING, before the drain.
    pub shutdown_grace: Duration,
    /// Bound on a graceful shutdown.
    pub drain_timeout: Duration,
    /// The spectator page and CORS for gRPC-Web (`--no-web`, `--cors-allow-origin`).
    pub web: WebConfig,
    /// TLS, API keys, rate limits and per-address bounds (see `security`).
    pub security: SecurityConfig,
    /// The bounds on connections and streams (see `transport`; flags in `SecurityArgs`).
    pub transport: TransportConfig,
    /// Traces are exported (`--otlp-endpoint`; the exporter itself is set up with the logs):
    /// calls read their caller's `traceparent` and their spans record the gRPC code.
    pub traces: bool,
}

impl ServerConfig {
    /// What the API needs.
    #[must_use]
    pub fn api(&self) -> ApiConfig {
        ApiConfig {
            max_page_size: self.max_page_size,
            heartbeat: self.heartbeat,
            stall_timeout: self.transport.stall_timeout,
        }
    }
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            store: StoreConfig {
                backend: Backend::Memory,
                limits: StoreLimits {
                    max_live_games: DEFAULT_MAX_LIVE_GAMES,
                    max_finished_games: DEFAULT_MAX_FINISHED_GAMES,
                    max_watchers_per_game: DEFAULT_MAX_WATCHERS_PER_GAME,
                    watch_buffer: DEFAULT_WATCH_BUFFER,
                    retention: None,
                    abandon_after: Some(DEFAULT_ABANDON_AFTER),
                    feed_retention: DEFAULT_FEED_RETENTION,
                    feed_max_events: DEFAULT_FEED_MAX_EVENTS,
                },
            },
            max_request_bytes: DEFAULT_MAX_REQUEST_BYTES,
            max_page_size: DEFAULT_MAX_PAGE_SIZE,
            heartbeat: DEFAULT_HEARTBEAT,
            shutdown_grace: DEFAULT_SHUTDOWN_GRACE,
            drain_timeout: DEFAULT_DRAIN_TIMEOUT,
            web: WebConfig::default(),
            security: SecurityConfig::default(),
            transport: TransportConfig::default(),
            traces: false,
        }
    }
}

/// Log line format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

/// The flags of `chessd serve` (also accepted by `chessd` alone).
#[derive(Args, Clone, Debug)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "CHESSD_LISTEN", default_value = DEFAULT_LISTEN)]
    pub listen: SocketAddr,

    /// Serve Prometheus metrics on this address at /metrics (off by default).
    #[arg(long, env = "CHESSD_METRICS_LISTEN")]
    pub metrics_listen: Option<SocketAddr>,

    /// Log format (the level comes from RUST_LOG, default info).
    #[arg(long, env = "CHESSD_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// Ongoing games held at once.
    #[arg(long, env = "CHESSD_MAX_LIVE_GAMES", default_value_t = DEFAULT_MAX_LIVE_GAMES, value_parser = count)]
    pub max_live_games: usize,

    /// Finished games kept before the oldest is forgotten.
    #[arg(long, env = "CHESSD_MAX_FINISHED_GAMES", default_value_t = DEFAULT_MAX_FINISHED_GAMES, value_parser = count)]
    pub max_finished_games: usize,

    /// Open WatchGame streams per game.
    #[arg(long, env = "CHESSD_MAX_WATCHERS_PER_GAME", default_value_t = DEFAULT_MAX_WATCHERS_PER_GAME, value_parser = count)]
    pub max_watchers_per_game: usize,

    /// Events buffered per watched game before a slow watcher is cut off.
    #[arg(long, env = "CHESSD_WATCH_BUFFER", default_value_t = DEFAULT_WATCH_BUFFER, value_parser = count)]
    pub watch_buffer: usize,

    /// Largest request message accepted, in bytes.
    #[arg(long, env = "CHESSD_MAX_REQUEST_BYTES", default_value_t = DEFAULT_MAX_REQUEST_BYTES, value_parser = count)]
    pub max_request_bytes: usize,

    /// Largest ListGames page.
    #[arg(long, env = "CHESSD_MAX_PAGE_SIZE", default_value_t = DEFAULT_MAX_PAGE_SIZE, value_parser = count)]
    pub max_page_size: usize,

    /// Quiet time before a watcher gets a heartbeat (e.g. 5s).
    #[arg(long, env = "CHESSD_HEARTBEAT", default_value = "5s", value_parser = duration)]
    pub heartbeat: Duration,

    /// On shutdown, how long to keep serving with health NOT_SERVING before draining, so
    /// balancers stop sending calls first (e.g. 5s; 0s drains at once).
    #[arg(long, env = "CHESSD_SHUTDOWN_GRACE", default_value = "5s", value_parser = duration_or_zero)]
    pub shutdown_grace: Duration,

    /// Longest wait for open requests and streams on shutdown (e.g. 10s).
    #[arg(long, env = "CHESSD_DRAIN_TIMEOUT", default_value = "10s", value_parser = duration)]
    pub drain_timeout: Duration,

    /// Keep games durably in SQLite in this directory (default: in memory only).
    #[arg(long, env = "CHESSD_DATA_DIR")]
    pub data_dir: Option<PathBuf>,

    /// Forget finished games this long after they ended (e.g. 30d; default: keep them up to
    /// --max-finished-games).
    #[arg(long, env = "CHESSD_RETENTION", value_parser = retention)]
    pub retention: Option<Duration>,

    /// How the durable store flushes commits: full (survives power loss) or normal (survives
    /// a process crash).
    #[arg(long, env = "CHESSD_SYNC", value_enum, default_value_t = SyncMode::Full)]
    pub sync: SyncMode,

    /// Do not serve the spectator page at / (gRPC and gRPC-Web stay on).
    #[arg(long, env = "CHESSD_NO_WEB", value_parser = clap::builder::BoolishValueParser::new())]
    pub no_web: bool,

    /// Let browser pages from this origin call the API with gRPC-Web (repeatable;
    /// e.g. `https://example.com`, or `*` for any). Off by default: the spectator page is
    /// same-origin and needs no CORS.
    #[arg(long = "cors-allow-origin", env = "CHESSD_CORS_ALLOW_ORIGIN", value_delimiter = ',', value_parser = crate::server::web::origin)]
    pub cors_allow_origins: Vec<String>,
    /// TLS, API keys, rate limits and connection bounds (see `security`).
    #[command(flatten)]
    pub security: SecurityArgs,
    /// Keep games in this Redis (redis://HOST:PORT/), shared by every replica behind a load
    /// balancer (not with --data-dir); with --redis-cluster, one or more comma-separated seed
    /// nodes of a Redis Cluster.
    #[arg(long, env = "CHESSD_REDIS_URL", value_parser = RedisUrl, conflicts_with = "data_dir")]
    pub redis: Option<String>,
    /// --redis names nodes of a Redis Cluster (any of them; the rest are discovered).
    #[arg(long, env = "CHESSD_REDIS_CLUSTER", requires = "redis", value_parser = clap::builder::BoolishValueParser::new())]
    pub redis_cluster: bool,
    /// --redis names Redis Sentinels (comma-separated), asked for the primary of the set of
    /// this name, and again after every failover.
    #[arg(
        long,
        env = "CHESSD_REDIS_SENTINEL",
        value_name = "MASTER_NAME",
        requires = "redis",
        conflicts_with = "redis_cluster"
    )]
    pub redis_sentinel: Option<String>,
    /// Acknowledge a change (move, resignation, draw, takeback, clock change, creation, player
    /// token) only once this many replicas of its primary hold it (Redis WAIT), so a failover
    /// loses nothing acknowledged; 0 acknowledges what the primary holds.
    #[arg(
        long,
        env = "CHESSD_REDIS_MIN_REPLICAS",
        default_value_t = 0,
        requires = "redis"
    )]
    pub redis_min_replicas: u32,
    /// How long a change waits for --redis-min-replicas replicas before the call fails
    /// UNAVAILABLE (NOT_REPLICATED; a retry with the same request id plays nothing twice).
    #[arg(long, env = "CHESSD_REDIS_REPLICA_TIMEOUT", default_value = "500ms", value_parser = replica_timeout)]
    pub redis_replica_timeout: Duration,
    /// With --redis-min-replicas: wait until the replicas have the change on disk (WAITAOF:
    /// Redis 7.2 or later, replicas with appendonly yes), not only in memory.
    #[arg(long, env = "CHESSD_REDIS_REPLICA_FSYNC", requires = "redis_min_replicas", value_parser = clap::builder::BoolishValueParser::new())]
    pub redis_replica_fsync: bool,

    /// End ongoing games with no move for this long (e.g. 24h, 7d, or off): aborted before
    /// both sides moved, else lost by the side to move.
    #[arg(long, env = "CHESSD_ABANDON_AFTER", default_value = "24h", value_parser = abandon_after)]
    pub abandon_after: AbandonAfter,

    /// Traces over OTLP (see `telemetry`).
    #[command(flatten)]
    pub telemetry: TelemetryArgs,

    /// How long the feed (WatchGames) keeps an event; an older cursor is refused (e.g. 24h,
    /// 7d).
    #[arg(long, env = "CHESSD_FEED_RETENTION", default_value = "24h", value_parser = retention)]
    pub feed_retention: Duration,

    /// Feed events kept at most, the oldest forgotten first, whatever their age.
    #[arg(long, env = "CHESSD_FEED_MAX_EVENTS", default_value_t = DEFAULT_FEED_MAX_EVENTS, value_parser = count)]
    pub feed_max_events: usize,
}

/// `--abandon-after`: a time, or `None` for `off`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AbandonAfter(pub Option<Duration>);

/// A retention-style time (`90s`, `12h`, `7d`) or `off`.
fn abandon_after(text: &str) -> Result<AbandonAfter, String> {
    if text.trim().eq_ignore_ascii_case("off") {
        return Ok(AbandonAfter(None));
    }
    retention(text).map(|d| AbandonAfter(Some(d)))
}

impl ServeArgs {
    /// The server configuration these flags describe.
    #[must_use]
    pub fn server_config(&self) -> ServerConfig {
        let backend = match (&self.data_dir, &self.redis) {
            (_, Some(url)) => Backend::Redis(RedisConfig {
                url: url.clone(),
                topology: match (&self.redis_sentinel, self.redis_cluster) {
                    (Some(master), _) => RedisTopology::Sentinel {
                        master: master.clone(),
                    },
                    (None, true) => RedisTopology::Cluster,
                    (None, false) => RedisTopology::Single,
                },
                ack: (self.redis_min_replicas > 0).then_some(ReplicaAck {
                    replicas: self.redis_min_replicas,
                    timeout: self.redis_replica_timeout,
                    fsync: self.redis_replica_fsync,
                }),
            }),
            (Some(dir), None) => Backend::Sqlite {
                dir: dir.clone(),
                sync: self.sync,
            },
            (None, None) => Backend::Memory,
        };
        ServerConfig {
            store: StoreConfig {
                backend,
                limits: StoreLimits {
                    max_live_games: self.max_live_games,
                    max_finished_games: self.max_finished_games,
                    max_watchers_per_game: self.max_watchers_per_game,
                    watch_buffer: self.watch_buffer,
                    retention: self.retention,
                    abandon_after: self.abandon_after.0,
                    feed_retention: self.feed_retention,
                    feed_max_events: self.feed_max_events,
                },
            },
            max_request_bytes: self.max_request_bytes,
            max_page_size: self.max_page_size,
            heartbeat: self.heartbeat,
            shutdown_grace: self.shutdown_grace,
            drain_timeout: self.drain_timeout,
            web: WebConfig {
                page: !self.no_web,
                cors_allow_origins: self.cors_allow_origins.clone(),
            },
            security: self.security.config(),
            transport: self.security.transport(),
            traces: self.telemetry().is_some(),
        }
    }

    /// Where traces go, if anywhere (see [`TelemetryArgs::config`]).
    #[must_use]
    pub fn telemetry(&self) -> Option<TelemetryConfig> {
        self.telemetry.config()
    }
}

/// `--redis-replica-timeout`: a time from 1 ms to 10 s (a WAIT longer than that holds every call
/// on its connection; 0 would wait forever).
fn replica_timeout(text: &str) -> Result<Duration, String> {
    let d = duration(text)?;
    if d < Duration::from_millis(1) || d > Duration::from_secs(10) {
        return Err(format!("{text}: must be from 1ms to 10s"));
    }
    Ok(d)
}

/// A Redis URL the client accepts (`redis://HOST:PORT/DB`, `rediss://`, `unix://`), or several
/// comma-separated (a cluster's seeds: `--redis-cluster` is checked when the store opens).
///
/// A parser of its own rather than a function: clap's message for a refused value quotes the
/// value as given, and a Redis URL may carry a password. This one's message shows the URL
/// with its credentials masked.
#[derive(Clone, Copy, Debug)]
struct RedisUrl;

impl clap::builder::TypedValueParser for RedisUrl {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        let refuse = |why: String| {
            clap::Error::raw(clap::error::ErrorKind::ValueValidation, format!("{why}\n"))
                .with_cmd(cmd)
        };
        let text = value
            .to_str()
            .ok_or_else(|| refuse("--redis: the url is not UTF-8".to_owned()))?;
        crate::store::check_redis_url(text).map_err(|e| refuse(format!("--redis: {e}")))?;
        Ok(text.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--abandon-after` takes a time or `off`; the default is the documented constant.
    #[test]
    fn abandon_after_values() {
        assert_eq!(abandon_after("off"), Ok(AbandonAfter(None)));
        assert_eq!(
            abandon_after("7d"),
            Ok(AbandonAfter(Some(Duration::from_secs(7 * 86_400))))
        );
        assert!(abandon_after("0s").is_err());
        assert!(abandon_after("soon").is_err());
        assert_eq!(
            abandon_after("24h"),
            Ok(AbandonAfter(Some(DEFAULT_ABANDON_AFTER)))
        );
    }

    /// With no flags (and no CHESSD_* variables) the flags give exactly the documented defaults.
    #[test]
    fn flag_defaults_match_constants() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            serve: ServeArgs,
        }
        let cli = <Cli as clap::Parser>::try_parse_from(["chessd"]).unwrap();
        assert_eq!(cli.serve.server_config(), ServerConfig::default());
        assert_eq!(cli.serve.listen.to_string(), DEFAULT_LISTEN);
    }

    /// `--no-web` turns the page off; `--cors-allow-origin` repeats, and bad origins are refused.
    #[test]
    fn web_flags() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            serve: ServeArgs,
        }
        let parse = |args: &[&str]| <Cli as clap::Parser>::try_parse_from(args);
        let cli = parse(&[
            "chessd",
            "--no-web",
            "--cors-allow-origin",
            "https://a.example",
            "--cors-allow-origin",
            "http://localhost:5173",
        ])
        .unwrap();
        let web = cli.serve.server_config().web;
        assert!(!web.page);
        assert_eq!(
            web.cors_allow_origins,
            ["https://a.example", "http://localhost:5173"]
        );
        assert!(parse(&["chessd", "--cors-allow-origin", "a.example/x"]).is_err());
    }

    /// The Redis topology and acknowledgement flags: Sentinel names its primary set and
    /// excludes a Cluster; replicas are waited for only when asked; fsync needs replicas.
    #[test]
    fn redis_flags() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            serve: ServeArgs,
        }
        let parse = |args: &[&str]| <Cli as clap::Parser>::try_parse_from(args);
        let redis = |args: &[&str]| match parse(args).unwrap().serve.server_config().store.backend {
            Backend::Redis(config) => config,
            other => panic!("not redis: {other:?}"),
        };
        let one = redis(&["chessd", "--redis", "redis://a:6379/"]);
        assert_eq!(one.topology, RedisTopology::Single);
        assert_eq!(one.ack, None);
        let sentinel = redis(&[
            "chessd",
            "--redis",
            "redis://s1:26379/,redis://s2:26379/",
            "--redis-sentinel",
            "main",
            "--redis-min-replicas",
            "2",
            "--redis-replica-timeout",
            "250ms",
        ]);
        assert_eq!(
            sentinel.topology,
            RedisTopology::Sentinel {
                master: "main".into()
            }
        );
        assert_eq!(
            sentinel.ack,
            Some(ReplicaAck {
                replicas: 2,
                timeout: Duration::from_millis(250),
                fsync: false
            })
        );
        assert!(
            parse(&["chessd", "--redis-sentinel", "m"]).is_err(),
            "no --redis"
        );
        assert!(
            parse(&[
                "chessd",
                "--redis",
                "redis://a/",
                "--redis-cluster",
                "--redis-sentinel",
                "m"
            ])
            .is_err(),
            "cluster and sentinel"
        );
        assert!(
            parse(&["chessd", "--redis", "redis://a/", "--redis-replica-fsync"]).is_err(),
            "fsync without replicas"
        );
        assert!(
            parse(&[
                "chessd",
                "--redis",
                "redis://a/",
                "--redis-min-replicas",
                "1",
                "--redis-replica-timeout",
                "0s"
            ])
            .is_err(),
            "a WAIT that would wait forever"
        );
    }
}
