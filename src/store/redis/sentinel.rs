//! The primary that Redis Sentinels name (`--redis-sentinel MASTER --redis URL,URL,...`),
//! followed across failovers.
//!
//! [`Sentinels`] asks the Sentinels (any that answers) for the primary's address and checks
//! that the server there says it is a primary (`ROLE`), so a demoted primary that Sentinels
//! have not yet told about is never taken for one. [`SentinelConn`] is a multiplexed
//! connection to that primary which forgets it, and asks again at its next command, when
//! the connection drops, a command times out, or the server refuses a write as a replica
//! (`READONLY`: a failover demoted it while it stayed up). The command that met the failure
//! fails (UNAVAILABLE for its call, which the client retries); nothing is resent by itself,
//! since a script may have run before its reply was lost.
//!
//! The master's credentials and database are the Sentinel URLs' own (the first one's): one
//! password for Sentinels and data nodes, as common deployments set them.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use ::redis::aio::{ConnectionLike, MultiplexedConnection};
use ::redis::sentinel::{SentinelClient, SentinelNodeConnectionInfo, SentinelServerType};
use ::redis::{
    AsyncConnectionConfig, Client, Cmd, IntoConnectionInfo, Pipeline, RedisError, RedisFuture,
    RedisResult, ServerErrorKind, Value,
};

/// Longest a lookup of the primary may take (every Sentinel asked, the primary's role
/// checked), so a silent Sentinel fails a call instead of holding it.
const LOOKUP_TIMEOUT: Duration = Duration::from_secs(2);

/// The Sentinels of one primary set, asked for its primary.
pub(super) struct Sentinels {
    /// A tokio mutex, held across the lookup on purpose: one lookup at a time, so a failover
    /// met by many calls at once asks the Sentinels once per connection, not once per call.
    client: tokio::sync::Mutex<SentinelClient>,
    config: AsyncConnectionConfig,
    master: String,
    /// The URLs' database.
    db: i64,
}

impl std::fmt::Debug for Sentinels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sentinels")
            .field("master", &self.master)
            .finish_non_exhaustive()
    }
}

impl Sentinels {
    /// The Sentinels at `urls`, for the primary set named `master`; nothing is dialled yet.
    pub(super) fn new(
        urls: &[String],
        master: &str,
        config: AsyncConnectionConfig,
    ) -> Result<Arc<Sentinels>, String> {
        let first = urls.first().ok_or("no sentinel url")?;
        let info = first
            .as_str()
            .into_connection_info()
            .map_err(|e| format!("invalid sentinel url: {e}"))?;
        let db = info.redis_settings().db();
        let node = SentinelNodeConnectionInfo::default()
            .set_redis_connection_info(info.redis_settings().clone());
        let client = SentinelClient::build(
            urls.to_vec(),
            master.to_owned(),
            Some(node),
            SentinelServerType::Master,
        )
        .map_err(|e| format!("redis sentinel client: {e}"))?;
        Ok(Arc::new(Sentinels {
            client: tokio::sync::Mutex::new(client),
            config,
            master: master.to_owned(),
            db,
        }))
    }

    /// A client of the primary as the Sentinels name it now (its role checked).
    pub(super) async fn primary(&self) -> RedisResult<Client> {
        let lookup = async { self.client.lock().await.async_get_client().await };
        match tokio::time::timeout(LOOKUP_TIMEOUT, lookup).await {
            Ok(found) => found,
            Err(_) => Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "no sentinel named the primary in time",
            )
            .into()),
        }
    }

    async fn connect(&self, response_timeout: Duration) -> RedisResult<MultiplexedConnection> {
        let client = self.primary().await?;
        let address = client.get_connection_info().addr().to_string();
        let config = self
            .config
            .clone()
            .set_response_timeout(Some(response_timeout));
        let conn = client
            .get_multiplexed_async_connection_with_config(&config)
            .await?;
        tracing::info!(master = %self.master, %address, "redis primary found through sentinel");
        Ok(conn)
    }
}

/// A connection to the Sentinels' primary; clones share it.
#[derive(Clone, Debug)]
pub(super) struct SentinelConn {
    sentinels: Arc<Sentinels>,
    response_timeout: Duration,
    /// The connection while it is believed to reach the primary, numbered so that a failure
    /// forgets only the connection it met. A std mutex: held to clone or swap it.
    current: Arc<Mutex<Option<(MultiplexedConnection, u64)>>>,
}

impl SentinelConn {
    pub(super) fn new(sentinels: Arc<Sentinels>, response_timeout: Duration) -> SentinelConn {
        SentinelConn {
            sentinels,
            response_timeout,
            current: Arc::default(),
        }
    }

    fn current(&self) -> std::sync::MutexGuard<'_, Option<(MultiplexedConnection, u64)>> {
        self.current.lock().unwrap_or_else(PoisonError::into_inner)
    }

    async fn connection(&self) -> RedisResult<(MultiplexedConnection, u64)> {
        if let Some(found) = self.current().clone() {
            return Ok(found);
        }
        let conn = self.sentinels.connect(self.response_timeout).await?;
        let mut current = self.current();
        // Another command may have connected meanwhile: keep the first, drop this one.
        if let Some(found) = current.clone() {
            return Ok(found);
        }
        let number = getrandom::u64().unwrap_or(0);
        *current = Some((conn.clone(), number));
        Ok((conn, number))
    }

    /// After `error` on the connection numbered `number`: forgets it if the error says it may
    /// no longer reach the primary.
    fn judge(&self, number: u64, error: &RedisError) {
        let lost = error.is_io_error()
            || error.is_connection_dropped()
            || error.is_connection_refusal()
            || error.is_timeout()
            || matches!(
                error.kind(),
                ::redis::ErrorKind::Server(ServerErrorKind::ReadOnly | ServerErrorKind::MasterDown)
            );
        if !lost {
            return;
        }
        let mut current = self.current();
        if current.as_ref().is_some_and(|(_, n)| *n == number) {
            tracing::warn!(error = %error, "redis primary connection lost: asking the sentinels again");
            *current = None;
        }
    }

    /// Forgets the connection, so the next command asks the Sentinels (the probe found the
    /// server is no longer the primary).
    pub(super) fn forget(&self) {
        *self.current() = None;
    }
}

impl ConnectionLike for SentinelConn {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        Box::pin(async move {
            let (mut conn, number) = self.connection().await?;
            let answer = conn.req_packed_command(cmd).await;
            if let Err(e) = &answer {
                self.judge(number, e);
            }
            answer
        })
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        Box::pin(async move {
            let (mut conn, number) = self.connection().await?;
            let answer = conn.req_packed_commands(pipeline, offset, count).await;
            match &answer {
                Err(e) => self.judge(number, e),
                // A pipeline's own errors come back inside its values.
                Ok(values) => {
                    for value in values {
                        if let Value::ServerError(e) = value {
                            self.judge(number, &RedisError::from(e.clone()));
                        }
                    }
                }
            }
            answer
        })
    }

    fn get_db(&self) -> i64 {
        self.sentinels.db
    }
}
