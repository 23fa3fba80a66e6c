//! Security: what stands between chessd and a network shared with strangers' bots.
//!
//! Layout:
//! - here: the flags (`SecurityArgs`, each with an environment variable and a documented
//!   default), the configuration they give (`SecurityConfig`) and the start-up errors.
//! - `tls`: TLS and mutual TLS through rustls (`--tls-cert`, `--tls-key`, `--tls-client-ca`).
//! - `redact`: marks credential metadata sensitive, so no `Debug` or trace ever prints it.
//! - `keys`: backend API keys (`--api-key-file`), kept as digests, reloaded on SIGHUP and when
//!   the file changes.
//! - `limits`: rate limiters per seat token, API key and peer address, idle keys evicted.
//! - `access`: who may call what (one row per RPC: no credential, seat, API key, arbiter...),
//!   who may see a game, and the caller facts handlers read (`Caller`).
//! - `error`: what this layer refuses, `AccessError` and `LimitError`.
//! - `gate`: the tower layer in front of GameService: applies each call's access row before
//!   the body is decoded, and the per-key and per-peer limits.
//! - `page_create`: games started from the browser page without an API key (`--page-create`,
//!   off by default): their shape and rate.
//!
//! The bounds on connections and streams (`--max-connections`, `--handshake-timeout`,
//! `--idle-timeout`, `--stall-timeout`) are flags here and are enforced by `transport`; the
//! per-address watcher bounds by the WatchGame handler.

pub(crate) mod access;
pub(crate) mod error;
pub(crate) mod gate;
pub(crate) mod keys;
pub(crate) mod limits;
pub(crate) mod page_create;
pub(crate) mod redact;
pub(crate) mod tls;

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use crate::transport::TransportConfig;
use crate::units::{count, duration, rate};

/// WatchGame streams one address may hold on one game, and in all (callers with an API key
/// are not bound: a backend watches from few addresses). One address may be a household or
/// an office behind NAT, so these are well above one person's needs, and far below
/// `--max-watchers-per-game`.
pub const DEFAULT_MAX_PEER_WATCHERS_PER_GAME: usize = 16;
pub const DEFAULT_MAX_PEER_WATCHERS: usize = 1_024;
/// WatchGames streams one address may hold (callers without an API key: player tokens, one a
/// bot, several behind one NAT), and the server in all (a stream is a task and a cursor; the
/// feed's log, not the stream, holds what a slow one has not read).
pub const DEFAULT_MAX_PEER_FEEDS: usize = 16;
pub const DEFAULT_MAX_FEEDS: usize = 10_000;
/// Calls per second per peer address without an API key (sustained), and the burst above it.
/// Generous: one address may be a NAT in front of many players.
pub const DEFAULT_PEER_RATE: u32 = 200;
pub const DEFAULT_PEER_BURST: u32 = 400;
/// Calls per second per API key (a platform's backend), and the burst.
pub const DEFAULT_KEY_RATE: u32 = 2_000;
pub const DEFAULT_KEY_BURST: u32 = 4_000;
/// Calls per second per seat token (other than moves on the seat's own turn), and the burst.
pub const DEFAULT_TOKEN_RATE: u32 = 20;
pub const DEFAULT_TOKEN_BURST: u32 = 40;
/// The floor for a seat's own moves on its own turn: never refused below this many per second
/// (the burst is twice as many), whatever the other limits say. Bullet bots premove at a few
/// moves a second at most; 50 leaves a wide margin while a flood still stops.
pub const DEFAULT_MOVE_FLOOR: u32 = 50;
/// Limiter keys idle this long are forgotten (keeps the limiters' memory bounded).
pub const LIMITER_IDLE: Duration = Duration::from_secs(60);

/// The security flags of `chessd serve`.
#[derive(Args, Clone, Debug)]
pub struct SecurityArgs {
    /// Serve TLS with this certificate chain (PEM); needs --tls-key. Default: plaintext.
    #[arg(long, env = "CHESSD_TLS_CERT", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,

    /// The private key (PEM: PKCS#8, PKCS#1 or SEC1) of --tls-cert.
    #[arg(long, env = "CHESSD_TLS_KEY", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,

    /// Mutual TLS: require a client certificate signed by one of these CAs (PEM).
    #[arg(long, env = "CHESSD_TLS_CLIENT_CA", requires = "tls_cert")]
    pub tls_client_ca: Option<PathBuf>,

    /// Require an API key for CreateGame, ListGames, GetStats, AdjustClock, IssuePlayerToken
    /// and RevokePlayerToken, and for WatchGames unless it carries a player token: one key a
    /// line, `#` comments; reloaded on SIGHUP and when the file changes. Default: no keys, those
    /// calls open, but for the player-token ones, refused (no player tokens without keys).
    #[arg(long, env = "CHESSD_API_KEY_FILE")]
    pub api_key_file: Option<PathBuf>,

    /// WatchGame, GetGame and ExportPgn need a seat token of that game or an API key;
    /// ListGames needs an API key, and so does WatchGames unless it carries a player token.
    #[arg(long, env = "CHESSD_PRIVATE_WATCH")]
    pub private_watch: bool,

    /// Turn every rate limit and per-address watcher bound off (benchmarks, or a trusted
    /// network behind a limiting proxy, where every caller has the proxy's address).
    #[arg(long, env = "CHESSD_NO_RATE_LIMITS")]
    pub no_rate_limits: bool,

    /// Calls per second per peer address (callers without an API key).
    #[arg(long, env = "CHESSD_PEER_RATE", default_value_t = DEFAULT_PEER_RATE, value_parser = rate)]
    pub peer_rate: u32,

    /// Burst of calls per peer address above --peer-rate.
    #[arg(long, env = "CHESSD_PEER_BURST", default_value_t = DEFAULT_PEER_BURST, value_parser = rate)]
    pub peer_burst: u32,

    /// Calls per second per API key.
    #[arg(long, env = "CHESSD_KEY_RATE", default_value_t = DEFAULT_KEY_RATE, value_parser = rate)]
    pub key_rate: u32,

    /// Burst of calls per API key above --key-rate.
    #[arg(long, env = "CHESSD_KEY_BURST", default_value_t = DEFAULT_KEY_BURST, value_parser = rate)]
    pub key_burst: u32,

    /// Calls per second per seat token (own moves on own turn: see --move-floor).
    #[arg(long, env = "CHESSD_TOKEN_RATE", default_value_t = DEFAULT_TOKEN_RATE, value_parser = rate)]
    pub token_rate: u32,

    /// Burst of calls per seat token above --token-rate.
    #[arg(long, env = "CHESSD_TOKEN_BURST", default_value_t = DEFAULT_TOKEN_BURST, value_parser = rate)]
    pub token_burst: u32,

    /// A seat's moves on its own turn are never refused below this many per second.
    #[arg(long, env = "CHESSD_MOVE_FLOOR", default_value_t = DEFAULT_MOVE_FLOOR, value_parser = rate)]
    pub move_floor: u32,

    /// Open connections at once: at the cap, connections that have not greeted yet are closed
    /// to make room, else new ones wait in the kernel's queue.
    #[arg(long, env = "CHESSD_MAX_CONNECTIONS", default_value_t = crate::transport::DEFAULT_MAX_CONNECTIONS, value_parser = count)]
    pub max_connections: usize,

    /// Concurrent calls and watches per connection.
    #[arg(long, env = "CHESSD_MAX_STREAMS_PER_CONNECTION", default_value_t = crate::transport::DEFAULT_MAX_STREAMS_PER_CONNECTION, value_parser = rate)]
    pub max_streams_per_connection: u32,

    /// How often an idle connection is pinged (e.g. 30s).
    #[arg(long, env = "CHESSD_KEEPALIVE_INTERVAL", default_value = "30s", value_parser = duration)]
    pub keepalive_interval: Duration,

    /// How long a ping may go unanswered before the connection is dropped (e.g. 10s).
    #[arg(long, env = "CHESSD_KEEPALIVE_TIMEOUT", default_value = "10s", value_parser = duration)]
    pub keepalive_timeout: Duration,

    /// How long a new connection has to greet (TLS handshake, then the HTTP/2 preface and
    /// SETTINGS or an HTTP/1.1 request) before it is closed (e.g. 5s).
    #[arg(long, env = "CHESSD_HANDSHAKE_TIMEOUT", default_value = "5s", value_parser = duration)]
    pub handshake_timeout: Duration,

    /// A connection with no open call for this long is sent GOAWAY (e.g. 5m).
    #[arg(long, env = "CHESSD_IDLE_TIMEOUT", default_value = "5m", value_parser = duration)]
    pub idle_timeout: Duration,

    /// A peer that takes nothing for this long (no byte of a pending write, no event of its
    /// WatchGame stream) is cut off (e.g. 10s).
    #[arg(long, env = "CHESSD_STALL_TIMEOUT", default_value = "10s", value_parser = duration)]
    pub stall_timeout: Duration,

    /// WatchGame streams one address may hold on one game (API key holders are not bound).
    #[arg(long, env = "CHESSD_MAX_PEER_WATCHERS_PER_GAME", default_value_t = DEFAULT_MAX_PEER_WATCHERS_PER_GAME, value_parser = count)]
    pub max_peer_watchers_per_game: usize,

    /// WatchGame streams one address may hold in all (API key holders are not bound).
    #[arg(long, env = "CHESSD_MAX_PEER_WATCHERS", default_value_t = DEFAULT_MAX_PEER_WATCHERS, value_parser = count)]
    pub max_peer_watchers: usize,

    /// WatchGames streams one address may hold (API key holders are not bound).
    #[arg(long, env = "CHESSD_MAX_PEER_FEEDS", default_value_t = DEFAULT_MAX_PEER_FEEDS, value_parser = count)]
    pub max_peer_feeds: usize,

    /// WatchGames streams open on this server in all.
    #[arg(long, env = "CHESSD_MAX_FEEDS", default_value_t = DEFAULT_MAX_FEEDS, value_parser = count)]
    pub max_feeds: usize,

    #[command(flatten)]
    pub page_create: page_create::PageCreateArgs,
}

impl SecurityArgs {
    /// The transport's bounds these flags describe.
    #[must_use]
    pub fn transport(&self) -> TransportConfig {
        TransportConfig {
            max_connections: self.max_connections,
            max_streams_per_connection: self.max_streams_per_connection,
            keepalive_interval: self.keepalive_interval,
            keepalive_timeout: self.keepalive_timeout,
            handshake_timeout: self.handshake_timeout,
            idle_timeout: self.idle_timeout,
            stall_timeout: self.stall_timeout,
        }
    }

    /// The configuration these flags describe.
    #[must_use]
    pub fn config(&self) -> SecurityConfig {
        SecurityConfig {
            tls: self
                .tls_cert
                .clone()
                .zip(self.tls_key.clone())
                .map(|(cert, key)| TlsFiles {
                    cert,
                    key,
                    client_ca: self.tls_client_ca.clone(),
                }),
            api_key_file: self.api_key_file.clone(),
            private_watch: self.private_watch,
            rate_limits: !self.no_rate_limits,
            rates: Rates {
                peer: Rate::new(self.peer_rate, self.peer_burst),
                key: Rate::new(self.key_rate, self.key_burst),
                token: Rate::new(self.token_rate, self.token_burst),
                move_floor: Rate::new(self.move_floor, self.move_floor.saturating_mul(2)),
            },
            max_peer_watchers_per_game: self.max_peer_watchers_per_game,
            max_peer_watchers: self.max_peer_watchers,
            max_peer_feeds: self.max_peer_feeds,
            max_feeds: self.max_feeds,
            page_create: self.page_create.config(),
        }
    }
}

/// The files of a TLS identity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsFiles {
    /// Certificate chain, PEM, leaf first.
    pub cert: PathBuf,
    /// Its private key, PEM.
    pub key: PathBuf,
    /// With mutual TLS: the CAs a client certificate must chain to, PEM.
    pub client_ca: Option<PathBuf>,
}

/// A sustained rate per second and the burst allowed above it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    pub per_second: u32,
    pub burst: u32,
}

impl Rate {
    /// A rate; the burst is at least the rate (a smaller burst would refuse an even pace).
    #[must_use]
    pub fn new(per_second: u32, burst: u32) -> Rate {
        Rate {
            per_second: per_second.max(1),
            burst: burst.max(per_second).max(1),
        }
    }
}

/// Every rate limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rates {
    /// Per peer address, for callers without an API key.
    pub peer: Rate,
    /// Per API key.
    pub key: Rate,
    /// Per seat token, except moves on the seat's own turn.
    pub token: Rate,
    /// Per seat token, moves on the seat's own turn: the floor no other limit lowers.
    pub move_floor: Rate,
}

/// What the security flags configure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecurityConfig {
    /// `None`: plaintext.
    pub tls: Option<TlsFiles>,
    /// `None`: backend calls are open.
    pub api_key_file: Option<PathBuf>,
    /// Reading a game needs one of its seat tokens or an API key.
    pub private_watch: bool,
    /// `false` (`--no-rate-limits`): no limiter is consulted.
    pub rate_limits: bool,
    pub rates: Rates,
    pub max_peer_watchers_per_game: usize,
    pub max_peer_watchers: usize,
    pub max_peer_feeds: usize,
    pub max_feeds: usize,
    /// `--page-create`: games the page may start without an API key; `None`: off.
    pub page_create: Option<page_create::PageCreateConfig>,
}

impl Default for SecurityConfig {
    fn default() -> SecurityConfig {
        SecurityConfig {
            tls: None,
            api_key_file: None,
            private_watch: false,
            rate_limits: true,
            rates: Rates {
                peer: Rate::new(DEFAULT_PEER_RATE, DEFAULT_PEER_BURST),
                key: Rate::new(DEFAULT_KEY_RATE, DEFAULT_KEY_BURST),
                token: Rate::new(DEFAULT_TOKEN_RATE, DEFAULT_TOKEN_BURST),
                move_floor: Rate::new(DEFAULT_MOVE_FLOOR, DEFAULT_MOVE_FLOOR * 2),
            },
            max_peer_watchers_per_game: DEFAULT_MAX_PEER_WATCHERS_PER_GAME,
            max_peer_watchers: DEFAULT_MAX_PEER_WATCHERS,
            max_peer_feeds: DEFAULT_MAX_PEER_FEEDS,
            max_feeds: DEFAULT_MAX_FEEDS,
            page_create: None,
        }
    }
}

/// The security flags put to work: the checked TLS configuration, the gate's shared state,
/// and the background tasks (key reloads, limiter sweeps), aborted when this is dropped.
#[derive(Debug)]
pub struct Setup {
    /// `None`: plaintext.
    pub tls: Option<Arc<tokio_rustls::rustls::ServerConfig>>,
    pub guard: Arc<gate::Guard>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    /// No API key is configured.
    open: bool,
}

impl Setup {
    /// Reads and checks every file the flags name (a bad one stops the server before
    /// anything else starts), then starts the background tasks. Inside a tokio runtime.
    pub fn start(config: &SecurityConfig) -> Result<Setup, SetupError> {
        let tls = config.tls.as_ref().map(tls::server_config).transpose()?;
        let keys = config
            .api_key_file
            .as_deref()
            .map(keys::ApiKeys::load)
            .transpose()?
            .map(Arc::new);
        let guard = Arc::new(gate::Guard::new(keys.clone(), config));
        let open = keys.is_none();
        let mut tasks = vec![limits::Limiters::spawn_sweeper(&guard.limiters)];
        tasks.extend(keys.as_ref().map(keys::ApiKeys::spawn_reloader));
        tracing::info!(
            tls = tls.is_some(),
            mutual_tls = config.tls.as_ref().is_some_and(|t| t.client_ca.is_some()),
            api_keys = keys.as_ref().map_or(0, |k| k.len()),
            private_watch = config.private_watch,
            "security"
        );
        Ok(Setup {
            tls,
            guard,
            tasks,
            open,
        })
    }

    /// Warns when the server is reachable from other machines with no API key configured:
    /// the backend calls (CreateGame and the lists and statistics, the feed, player tokens,
    /// AdjustClock) then answer anyone who reaches the port.
    pub fn warn_if_exposed(&self, addr: std::net::SocketAddr) {
        if self.open && !addr.ip().is_loopback() {
            tracing::warn!(
                %addr,
                "listening beyond this machine with no API key (--api-key-file): anyone who reaches the port may create games, issue player tokens and adjust clocks"
            );
        }
    }
}

impl Drop for Setup {
    /// The tasks hold their state weakly and would end on their own; aborting them leaves no
    /// task behind a stopped server.
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

/// Why the security set-up failed at start. Each names the flag and the file.
#[derive(Debug)]
pub enum SetupError {
    /// A file could not be read.
    Read {
        flag: &'static str,
        path: PathBuf,
        cause: std::io::Error,
    },
    /// A file was read but does not hold what the flag needs.
    Content {
        flag: &'static str,
        path: PathBuf,
        problem: String,
    },
    /// The pieces do not fit together (e.g. the key is not the certificate's).
    Tls(String),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Read { flag, path, cause } => {
                write!(
                    f,
                    "--{flag} {}: cannot read the file: {cause}",
                    path.display()
                )
            }
            SetupError::Content {
                flag,
                path,
                problem,
            } => write!(f, "--{flag} {}: {problem}", path.display()),
            SetupError::Tls(problem) => write!(f, "TLS set-up failed: {problem}"),
        }
    }
}

impl std::error::Error for SetupError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// With no flags the security flags give exactly the documented defaults.
    #[test]
    fn flag_defaults_match_constants() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            security: SecurityArgs,
        }
        let cli = <Cli as clap::Parser>::try_parse_from(["chessd"]).unwrap();
        assert_eq!(cli.security.config(), SecurityConfig::default());
        let parse = |args: &[&str]| {
            <Cli as clap::Parser>::try_parse_from(
                std::iter::once("chessd").chain(args.iter().copied()),
            )
        };
        assert!(parse(&["--tls-cert", "c.pem"]).is_err(), "cert without key");
        assert!(
            parse(&["--tls-client-ca", "ca.pem"]).is_err(),
            "ca without cert"
        );
        assert!(parse(&["--peer-rate", "0"]).is_err());
        assert!(parse(&["--max-connections", "0"]).is_err());
        let tls = parse(&["--tls-cert", "c.pem", "--tls-key", "k.pem"]).unwrap();
        assert_eq!(
            tls.security.config().tls,
            Some(TlsFiles {
                cert: "c.pem".into(),
                key: "k.pem".into(),
                client_ca: None
            })
        );
    }

    /// The help of --api-key-file and of --private-watch names exactly the RPCs that the
    /// access table (`access::RPCS`, and `sight` for reading one game) refuses to a caller
    /// without a key under that flag alone, and lets through with one.
    #[test]
    fn key_flags_name_the_calls_that_need_a_key() {
        use access::{Access, Caller, Presented, RPCS, Server};
        use clap::Args;

        let command = SecurityArgs::augment_args(clap::Command::new("serve"));
        let help = |id: &str| {
            command
                .get_arguments()
                .find(|a| a.get_id() == id)
                .and_then(|a| a.get_help())
                .map(ToString::to_string)
                .unwrap_or_else(|| panic!("no help for {id}"))
        };
        let flags = [
            (
                "api_key_file",
                Server {
                    api_keys: true,
                    private_watch: false,
                },
            ),
            (
                "private_watch",
                Server {
                    api_keys: false,
                    private_watch: true,
                },
            ),
        ];
        for (flag, server) in flags {
            let text = help(flag);
            let words: Vec<&str> = text.split(|c: char| !c.is_ascii_alphanumeric()).collect();
            for rpc in RPCS {
                let gated = rpc.access.admit(server, false, false).is_err()
                    && rpc.access.admit(server, true, false).is_ok();
                let read = rpc.access == Access::Reader
                    && access::sight(server, &Caller::default(), Presented::Nothing).is_err();
                let needs_key = gated || read;
                assert_eq!(
                    words.contains(&rpc.method),
                    needs_key,
                    "--{}'s help and {} (needs a key: {needs_key}): {text}",
                    flag.replace('_', "-"),
                    rpc.method
                );
            }
        }
    }
}
