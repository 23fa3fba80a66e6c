//! Configuration: `chessd serve` flags, each with an environment variable, and the defaults as
//! documented constants.
//!
//! Precedence: flag, then environment variable, then default. Durations are written as a number
//! with a unit: `500ms`, `5s`, `2m`, `1h` (a bare number means seconds).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};

use crate::security::{SecurityArgs, SecurityConfig};
use crate::store::StoreLimits;
use crate::web::WebConfig;

/// Where the server listens by default: every interface, gRPC's customary port.
pub const DEFAULT_LISTEN: &str = "0.0.0.0:50051";
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

/// How hard the durable store pushes each commit to the disk (`--sync`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum SyncMode {
    /// Flush the write-ahead log at every commit: acknowledged moves survive a process crash
    /// and a power loss.
    #[default]
    Full,
    /// Flush at checkpoints only: acknowledged moves survive a process crash, not a crash of
    /// the machine.
    Normal,
}

/// What the server needs besides its listener.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerConfig {
    pub limits: StoreLimits,
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
    /// Where the durable store keeps games; `None`: in memory only.
    pub data_dir: Option<PathBuf>,
    /// How the durable store flushes its commits.
    pub sync: SyncMode,
    /// The spectator page and CORS for gRPC-Web (`--no-web`, `--cors-allow-origin`).
    pub web: WebConfig,
    /// TLS, API keys, rate limits and connection bounds (see `security`).
    pub security: SecurityConfig,
    /// The Redis every replica shares (`redis://HOST:PORT/`), or with `redis_cluster` the
    /// comma-separated seed nodes of a Redis Cluster; `None`: memory or SQLite.
    pub redis_url: Option<String>,
    /// `redis_url` names the seed nodes of a Redis Cluster (`--redis-cluster`).
    pub redis_cluster: bool,
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            limits: StoreLimits {
                max_live_games: DEFAULT_MAX_LIVE_GAMES,
                max_finished_games: DEFAULT_MAX_FINISHED_GAMES,
                max_watchers_per_game: DEFAULT_MAX_WATCHERS_PER_GAME,
                watch_buffer: DEFAULT_WATCH_BUFFER,
                retention: None,
                abandon_after: Some(crate::security::DEFAULT_ABANDON_AFTER),
            },
            max_request_bytes: DEFAULT_MAX_REQUEST_BYTES,
            max_page_size: DEFAULT_MAX_PAGE_SIZE,
            heartbeat: DEFAULT_HEARTBEAT,
            shutdown_grace: DEFAULT_SHUTDOWN_GRACE,
            drain_timeout: DEFAULT_DRAIN_TIMEOUT,
            data_dir: None,
            sync: SyncMode::Full,
            web: WebConfig::default(),
            security: SecurityConfig::default(),
            redis_url: None,
            redis_cluster: false,
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
    #[arg(long, env = "CHESSD_MAX_LIVE_GAMES", default_value_t = DEFAULT_MAX_LIVE_GAMES, value_parser = positive)]
    pub max_live_games: usize,

    /// Finished games kept before the oldest is forgotten.
    #[arg(long, env = "CHESSD_MAX_FINISHED_GAMES", default_value_t = DEFAULT_MAX_FINISHED_GAMES, value_parser = positive)]
    pub max_finished_games: usize,

    /// Open WatchGame streams per game.
    #[arg(long, env = "CHESSD_MAX_WATCHERS_PER_GAME", default_value_t = DEFAULT_MAX_WATCHERS_PER_GAME, value_parser = positive)]
    pub max_watchers_per_game: usize,

    /// Events buffered per watched game before a slow watcher is cut off.
    #[arg(long, env = "CHESSD_WATCH_BUFFER", default_value_t = DEFAULT_WATCH_BUFFER, value_parser = positive)]
    pub watch_buffer: usize,

    /// Largest request message accepted, in bytes.
    #[arg(long, env = "CHESSD_MAX_REQUEST_BYTES", default_value_t = DEFAULT_MAX_REQUEST_BYTES, value_parser = positive)]
    pub max_request_bytes: usize,

    /// Largest ListGames page.
    #[arg(long, env = "CHESSD_MAX_PAGE_SIZE", default_value_t = DEFAULT_MAX_PAGE_SIZE, value_parser = positive)]
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
    #[arg(long = "cors-allow-origin", env = "CHESSD_CORS_ALLOW_ORIGIN", value_delimiter = ',', value_parser = crate::web::origin)]
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
}

impl ServeArgs {
    /// The server configuration these flags describe.
    #[must_use]
    pub fn server_config(&self) -> ServerConfig {
        ServerConfig {
            limits: StoreLimits {
                max_live_games: self.max_live_games,
                max_finished_games: self.max_finished_games,
                max_watchers_per_game: self.max_watchers_per_game,
                watch_buffer: self.watch_buffer,
                retention: self.retention,
                abandon_after: self.security.abandon_after.0,
            },
            max_request_bytes: self.max_request_bytes,
            max_page_size: self.max_page_size,
            heartbeat: self.heartbeat,
            shutdown_grace: self.shutdown_grace,
            drain_timeout: self.drain_timeout,
            data_dir: self.data_dir.clone(),
            sync: self.sync,
            web: WebConfig {
                page: !self.no_web,
                cors_allow_origins: self.cors_allow_origins.clone(),
            },
            security: self.security.config(),
            redis_url: self.redis.clone(),
            redis_cluster: self.redis_cluster,
        }
    }
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

/// A whole number of at least 1.
fn positive(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "expected a whole number of at least 1, got {text:?}"
        )),
    }
}

/// The longest duration a flag accepts (a heartbeat or drain beyond a day is a typo).
pub const MAX_DURATION: Duration = Duration::from_secs(24 * 60 * 60);

/// A positive duration up to a day: a number and a unit (`ms`, `s`, `m`, `h`; none means
/// seconds).
pub fn duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let n: u64 = number
        .parse()
        .map_err(|_| format!("expected a duration such as 500ms, 5s or 2m, got {text:?}"))?;
    let d = match unit {
        "ms" => Duration::from_millis(n),
        "" | "s" => Duration::from_secs(n),
        "m" => Duration::from_secs(n.saturating_mul(60)),
        "h" => Duration::from_secs(n.saturating_mul(3600)),
        _ => {
            return Err(format!(
                "unknown unit {unit:?} in {text:?}: expected ms, s, m or h"
            ));
        }
    };
    if d.is_zero() || d > MAX_DURATION {
        return Err(format!(
            "expected a duration above zero and at most 24h, got {text:?}"
        ));
    }
    Ok(d)
}

/// A duration as [`duration`] reads it, or zero (`0`, `0s`).
pub fn duration_or_zero(text: &str) -> Result<Duration, String> {
    match text.trim() {
        "0" | "0s" | "0ms" => Ok(Duration::ZERO),
        _ => duration(text),
    }
}

/// The longest retention a flag accepts (about a century: beyond it, keep games forever by
/// leaving the flag out).
pub const MAX_RETENTION: Duration = Duration::from_secs(36_500 * 24 * 60 * 60);

/// A retention: a number and a unit (`ms`, `s`, `m`, `h`, `d`), above zero.
pub fn retention(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let n: u64 = number
        .parse()
        .map_err(|_| format!("expected a retention such as 30d, 12h or 90s, got {text:?}"))?;
    let unit_secs = match unit {
        "ms" => return positive_retention(Duration::from_millis(n), text),
        "" | "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => {
            return Err(format!(
                "unknown unit {unit:?} in {text:?}: expected ms, s, m, h or d"
            ));
        }
    };
    positive_retention(Duration::from_secs(n.saturating_mul(unit_secs)), text)
}

fn positive_retention(d: Duration, text: &str) -> Result<Duration, String> {
    if d.is_zero() || d > MAX_RETENTION {
        return Err(format!(
            "expected a retention above zero and at most 36500d, got {text:?}"
        ));
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Durations take ms/s/m/h, seconds by default; zero and garbage are refused.
    #[test]
    fn durations() {
        assert_eq!(duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(duration("5"), Ok(Duration::from_secs(5)));
        assert_eq!(duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(duration("1h"), Ok(Duration::from_secs(3600)));
        for bad in [
            "",
            "0s",
            "5x",
            "s",
            "-1s",
            "1.5s",
            "25h",
            "99999999999999999999h",
        ] {
            assert!(duration(bad).is_err(), "{bad:?}");
        }
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

    /// A grace may also be zero.
    #[test]
    fn durations_or_zero() {
        for zero in ["0", "0s", "0ms"] {
            assert_eq!(duration_or_zero(zero), Ok(Duration::ZERO), "{zero:?}");
        }
        assert_eq!(duration_or_zero("3s"), Ok(Duration::from_secs(3)));
        for bad in ["", "s", "0x", "-0s", "25h"] {
            assert!(duration_or_zero(bad).is_err(), "{bad:?}");
        }
    }

    /// Retentions take days too; zero and garbage are refused.
    #[test]
    fn retentions() {
        assert_eq!(retention("30d"), Ok(Duration::from_secs(30 * 86_400)));
        assert_eq!(retention("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(retention("1500ms"), Ok(Duration::from_millis(1500)));
        for bad in ["", "0d", "3w", "-1d", "99999999999999999999d", "40000d"] {
            assert!(retention(bad).is_err(), "{bad:?}");
        }
    }

    /// Limits must be at least 1.
    #[test]
    fn positives() {
        assert_eq!(positive("3"), Ok(3));
        assert!(positive("0").is_err());
        assert!(positive("-1").is_err());
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
}
