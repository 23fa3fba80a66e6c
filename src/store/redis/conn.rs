//! The connection to Redis, one standalone server or a Redis Cluster, behind one handle that
//! every command, pipeline and script of the store goes through.
//!
//! - **Standalone** (`--redis redis://HOST:PORT/`): a [`ConnectionManager`], multiplexed and
//!   self-reconnecting.
//! - **Cluster** (`--redis-cluster`, `--redis` with one or more comma-separated seed node
//!   URLs): the `redis` crate's async cluster connection, which learns the slot map from any
//!   seed, sends each command to its slot's primary, follows MOVED and ASK redirections and
//!   refreshes the map when slots move. It is only correct because every script and pipeline
//!   of the store touches one bucket's keys, all under one hash tag (see `keys::BUCKETS`);
//!   anything spanning buckets is sent bucket by bucket.
//!
//! - **Sentinel** (`--redis-sentinel MASTER`, `--redis` with the Sentinels' URLs): a
//!   multiplexed connection to the primary the Sentinels name, asked again after a failover
//!   (see `sentinel`).
//!
//! A CLUSTERDOWN answer (a slot without a reachable primary) is a Redis error like any other:
//! the call fails UNAVAILABLE / STORE_UNAVAILABLE and the error is logged with its text.
//!
//! With traces on, every command, script and pipeline a call sends is a span of that call
//! (`spans::REDIS`: the command, the script's name, a pipeline's size); outside calls (sweeps,
//! probes, followers) and with traces off nothing is added.

use std::sync::Arc;
use std::time::Duration;

use ::redis::aio::{ConnectionLike, ConnectionManager, ConnectionManagerConfig};
use ::redis::cluster::{ClusterClientBuilder, ClusterConfig};
use ::redis::cluster_async::ClusterConnection;
use ::redis::{Arg, AsyncConnectionConfig, Client, Cmd, Pipeline, RedisFuture, Value};
use tracing::{Instrument, Span};

use crate::store::config::RedisTopology;
use crate::store::redis::scripts;
use crate::store::redis::sentinel::{SentinelConn, Sentinels};
use crate::telemetry::spans;

/// How long one command may take before the call fails UNAVAILABLE.
pub(super) const RESPONSE_TIMEOUT: Duration = Duration::from_secs(2);
/// How long connecting may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(1);
/// Retries of a cluster command after a connection error or a redirection the slot map did not
/// expect (the crate's default of 16 with backoff would hold a call for many seconds).
const CLUSTER_RETRIES: u32 = 3;
/// Longest a cluster command may take with its retries.
const CLUSTER_OVERALL_TIMEOUT: Duration = Duration::from_secs(4);

/// Where the store's Redis is, parsed from `--redis`, `--redis-cluster` and
/// `--redis-sentinel`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Target {
    /// One URL standalone; the seed nodes of a cluster; the Sentinels.
    pub urls: Vec<String>,
    pub topology: RedisTopology,
}

impl Target {
    /// `text` is one URL, or with `cluster` one or more comma-separated seed URLs.
    pub(super) fn parse(text: &str, cluster: bool) -> Result<Target, String> {
        Target::of(
            text,
            if cluster {
                RedisTopology::Cluster
            } else {
                RedisTopology::Single
            },
        )
    }

    /// `text` is one URL, or (a cluster's seeds, Sentinels) one or more comma-separated.
    pub(super) fn of(text: &str, topology: RedisTopology) -> Result<Target, String> {
        let urls: Vec<String> = text
            .split(',')
            .map(str::trim)
            .filter(|u| !u.is_empty())
            .map(str::to_owned)
            .collect();
        if urls.is_empty() {
            return Err("no redis url".into());
        }
        for url in &urls {
            check_url(url)?;
        }
        if urls.len() > 1 && topology == RedisTopology::Single {
            return Err(format!(
                "several redis urls ({:?}) need --redis-cluster or --redis-sentinel: one standalone Redis takes one url",
                redact(text)
            ));
        }
        if let RedisTopology::Sentinel { master } = &topology
            && master.trim().is_empty()
        {
            return Err("--redis-sentinel: the primary set's name is empty".into());
        }
        Ok(Target { urls, topology })
    }
}

/// Checks that `url` is a Redis URL this build can use.
pub(super) fn check_url(url: &str) -> Result<(), String> {
    Client::open(url)
        .map(|_| ())
        .map_err(|e| format!("invalid redis url {:?}: {e}", redact(url)))
}

/// URLs (one, or a cluster's comma-separated seeds) without their passwords, for logs and
/// error messages: the user and password before `@`, and the whole query, where a `unix://`
/// URL carries its `pass`.
pub(super) fn redact(urls: &str) -> String {
    let one = |url: &str| {
        let (url, query) = match url.split_once('?') {
            Some((url, _)) => (url, "?***"),
            None => (url, ""),
        };
        match (url.find("://"), url.rfind('@')) {
            (Some(scheme), Some(at)) if at > scheme => {
                format!("{}://***{}{query}", &url[..scheme], &url[at..])
            }
            _ => format!("{url}{query}"),
        }
    };
    urls.split(',').map(one).collect::<Vec<_>>().join(",")
}

/// The store's command connection; cloning is cheap and shares it.
#[derive(Clone)]
pub(super) enum Conn {
    Single(ConnectionManager),
    Cluster(ClusterConnection),
    Sentinel(SentinelConn),
}

impl std::fmt::Debug for Conn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Conn::Single(_) => "Conn::Single",
            Conn::Cluster(_) => "Conn::Cluster",
            Conn::Sentinel(_) => "Conn::Sentinel",
        })
    }
}

/// How a store reaches its Redis: what [`Conn::open`] dials, and (for Sentinel) the shared
/// lookup of the primary that every connection and the pub/sub connection use.
#[derive(Clone, Debug)]
pub(super) enum Dialer {
    Fixed(Target),
    Sentinel(Arc<Sentinels>),
}

impl Dialer {
    pub(super) fn new(target: &Target) -> Result<Dialer, String> {
        match &target.topology {
            RedisTopology::Sentinel { master } => {
                let config = AsyncConnectionConfig::new()
                    .set_connection_timeout(Some(CONNECT_TIMEOUT))
                    .set_response_timeout(Some(RESPONSE_TIMEOUT));
                let sentinels = Sentinels::new(&target.urls, master, config)?;
                Ok(Dialer::Sentinel(sentinels))
            }
            _ => Ok(Dialer::Fixed(target.clone())),
        }
    }

    /// A client for the pub/sub connection's `attempt`-th try: the one Redis, a cluster's
    /// seeds in turn, or the primary the Sentinels name now.
    pub(super) async fn pubsub_client(&self, attempt: usize) -> Option<Client> {
        match self {
            Dialer::Fixed(target) => {
                let url = target.urls.get(attempt % target.urls.len().max(1))?;
                Client::open(url.as_str()).ok()
            }
            Dialer::Sentinel(sentinels) => match sentinels.primary().await {
                Ok(client) => Some(client),
                Err(e) => {
                    tracing::warn!(error = %e, "no redis primary from the sentinels");
                    None
                }
            },
        }
    }
}

impl Conn {
    /// A lazy connection: nothing is dialled until the first command, so the server starts
    /// (not ready) while Redis is down. `response_timeout` bounds each command.
    pub(super) fn open(dialer: &Dialer, response_timeout: Duration) -> Result<Conn, String> {
        let target = match dialer {
            Dialer::Sentinel(sentinels) => {
                return Ok(Conn::Sentinel(SentinelConn::new(
                    sentinels.clone(),
                    response_timeout,
                )));
            }
            Dialer::Fixed(target) => target,
        };
        if target.topology == RedisTopology::Cluster {
            let client = ClusterClientBuilder::new(target.urls.clone())
                .overall_response_timeout(Some(
                    CLUSTER_OVERALL_TIMEOUT + response_timeout.saturating_sub(RESPONSE_TIMEOUT),
                ))
                .retries(CLUSTER_RETRIES)
                .max_retry_wait(500)
                .build()
                .map_err(|e| format!("redis cluster client: {e}"))?;
            // The timeouts go in the connection's config: it replaces the builder's.
            let config = ClusterConfig::new()
                .set_connection_timeout(CONNECT_TIMEOUT)
                .set_response_timeout(response_timeout);
            return Ok(Conn::Cluster(
                client.get_pending_async_connection_with_config(config),
            ));
        }
        let url = target.urls.first().ok_or("no redis url")?;
        let client = Client::open(url.as_str()).map_err(|e| format!("invalid redis url: {e}"))?;
        let config = ConnectionManagerConfig::new()
            .set_response_timeout(Some(response_timeout))
            .set_connection_timeout(Some(CONNECT_TIMEOUT))
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_millis(500));
        ConnectionManager::new_lazy_with_config(client, config)
            .map(Conn::Single)
            .map_err(|e| format!("redis connection: {e}"))
    }

    pub(super) fn is_cluster(&self) -> bool {
        matches!(self, Conn::Cluster(_))
    }

    /// After a probe found the server is not a primary: a Sentinel connection asks again.
    pub(super) fn not_primary(&self) {
        if let Conn::Sentinel(c) = self {
            c.forget();
        }
    }
}

/// `future` inside `span`, unless there is no span (no second box then).
fn traced<'a, T>(future: RedisFuture<'a, T>, span: Span) -> RedisFuture<'a, T>
where
    T: Send + 'a,
{
    if span.is_none() {
        future
    } else {
        Box::pin(future.instrument(span))
    }
}

/// The span of one command: its name, and for EVALSHA the script's.
fn command_span(parent: &Span, cmd: &Cmd) -> Span {
    let mut args = cmd.args_iter();
    let name = match args.next() {
        Some(Arg::Simple(name)) => String::from_utf8_lossy(name).to_ascii_uppercase(),
        _ => String::new(),
    };
    let script = match (name.as_str(), args.next()) {
        ("EVALSHA", Some(Arg::Simple(sha))) => scripts::name_of(sha),
        _ => None,
    };
    tracing::debug_span!(parent: parent, spans::REDIS, command = name.as_str(), script)
}

impl ConnectionLike for Conn {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        let span = spans::in_call(|parent| command_span(parent, cmd));
        let future = match self {
            Conn::Single(c) => c.req_packed_command(cmd),
            Conn::Cluster(c) => c.req_packed_command(cmd),
            Conn::Sentinel(c) => c.req_packed_command(cmd),
        };
        traced(future, span)
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        let span = spans::in_call(
            |parent| tracing::debug_span!(parent: parent, spans::REDIS, command = "PIPELINE", commands = pipeline.len()),
        );
        let future = match self {
            Conn::Single(c) => c.req_packed_commands(pipeline, offset, count),
            Conn::Cluster(c) => c.req_packed_commands(pipeline, offset, count),
            Conn::Sentinel(c) => c.req_packed_commands(pipeline, offset, count),
        };
        traced(future, span)
    }

    fn get_db(&self) -> i64 {
        match self {
            Conn::Single(c) => c.get_db(),
            // A cluster has only database 0.
            Conn::Cluster(_) => 0,
            Conn::Sentinel(c) => c.get_db(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One URL standalone; several only as a cluster's seeds; each must be a Redis URL.
    #[test]
    fn targets() {
        let one = Target::parse("redis://a:6379/", false).unwrap();
        assert_eq!(one.urls, ["redis://a:6379/"]);
        let seeds = Target::parse("redis://a:7000/, redis://b:7001/", true).unwrap();
        assert_eq!(seeds.urls.len(), 2);
        assert_eq!(seeds.topology, RedisTopology::Cluster);
        let refused = Target::parse("redis://a:7000/,redis://b:7001/", false).unwrap_err();
        assert!(refused.contains("--redis-cluster"), "{refused}");
        assert!(Target::parse("redis://a/,http://b/", true).is_err());
        assert!(Target::parse(" , ", true).is_err());
    }

    /// Sentinels are several URLs and name a primary set.
    #[test]
    fn sentinel_targets() {
        let sentinels = RedisTopology::Sentinel {
            master: "main".into(),
        };
        let target = Target::of("redis://s1:26379/,redis://s2:26379/", sentinels).unwrap();
        assert_eq!(target.urls.len(), 2);
        let unnamed = RedisTopology::Sentinel { master: " ".into() };
        assert!(Target::of("redis://s1:26379/", unnamed).is_err());
    }

    /// URLs the client cannot use are refused with the reason.
    #[test]
    fn bad_urls() {
        assert!(check_url("redis://127.0.0.1:6379/").is_ok());
        assert!(check_url("http://127.0.0.1/").is_err());
        assert!(check_url("not a url").is_err());
    }
}
