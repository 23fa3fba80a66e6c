//! A script call written straight into one command. `Script::prepare_invoke` keeps every key
//! and argument in a buffer of its own and copies them all into a command when it is sent;
//! a move's append has some sixty arguments, so [`ScriptCall`] writes each one once, into the
//! `EVALSHA` itself. Like the crate's invocation, it loads the script and sends the command
//! again when Redis does not have it (a server restarted or flushed since).

use ::redis::aio::ConnectionLike;
use ::redis::{Cmd, FromRedisValue, RedisResult, Script, ServerErrorKind, ToRedisArgs};

use crate::store::redis::ack::{Acks, Confirmed};

/// `EVALSHA` of one script: its keys, given all at once (their count comes before them), then
/// its arguments.
pub(super) struct ScriptCall {
    script: &'static Script,
    cmd: Cmd,
}

impl ScriptCall {
    /// A call of `script` with `keys` as `KEYS`.
    pub(super) fn new(script: &'static Script, keys: &[String]) -> ScriptCall {
        let mut cmd = ::redis::cmd("EVALSHA");
        cmd.arg(script.get_hash()).arg(keys.len()).arg(keys);
        ScriptCall { script, cmd }
    }

    /// The next argument (`ARGV[i]`).
    pub(super) fn arg(&mut self, arg: impl ToRedisArgs) -> &mut ScriptCall {
        self.cmd.arg(arg);
        self
    }

    /// Runs the call, loading the script first if Redis answers that it does not have it.
    pub(super) async fn run<T: FromRedisValue>(
        &self,
        conn: &mut impl ConnectionLike,
    ) -> RedisResult<T> {
        match self.cmd.query_async(conn).await {
            Err(e) if is_noscript(&e) => {
                self.script.load_async(conn).await?;
                self.cmd.query_async(conn).await
            }
            other => other,
        }
    }

    /// Runs the call followed by the wait for the replicas (see `ack`), on one of their
    /// connections: the script's answer and what the replicas confirmed of it.
    pub(super) async fn run_acked<T: FromRedisValue>(
        &self,
        acks: &Acks,
    ) -> RedisResult<(T, Confirmed)> {
        let mut conn = acks.conn();
        let mut pipe = ::redis::pipe();
        pipe.add_command(self.cmd.clone());
        let (answers, confirmed) = match acks.run(&mut conn, &pipe).await {
            Err(e) if is_noscript(&e) => {
                self.script.load_async(&mut conn).await?;
                acks.run(&mut conn, &pipe).await?
            }
            other => other?,
        };
        let answer = answers.into_iter().next().unwrap_or(::redis::Value::Nil);
        Ok((T::from_redis_value(answer)?, confirmed))
    }
}

fn is_noscript(e: &::redis::RedisError) -> bool {
    e.kind() == ::redis::ErrorKind::Server(ServerErrorKind::NoScript)
}
