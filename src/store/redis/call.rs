//! A script call written straight into one command. `Script::prepare_invoke` keeps every key
//! and argument in a buffer of its own and copies them all into a command when it is sent;
//! a move's append has some sixty arguments, so [`ScriptCall`] writes each one once, into the
//! `EVALSHA` itself. Like the crate's invocation, it loads the script and sends the command
//! again when Redis does not have it (a server restarted or flushed since).

use ::redis::aio::ConnectionLike;
use ::redis::{Cmd, FromRedisValue, RedisResult, Script, ServerErrorKind, ToRedisArgs};

/// `EVALSHA` of one script, its keys first, then its arguments.
pub struct ScriptCall {
    script: &'static Script,
    cmd: Cmd,
    /// Keys still to come: the count is written before them.
    keys_left: usize,
}

impl ScriptCall {
    /// A call of `script` with `keys` keys.
    pub fn new(script: &'static Script, keys: usize) -> ScriptCall {
        let mut cmd = ::redis::cmd("EVALSHA");
        cmd.arg(script.get_hash()).arg(keys);
        ScriptCall {
            script,
            cmd,
            keys_left: keys,
        }
    }

    /// The next key (`KEYS[i]`), or keys (a list is one key per item).
    pub fn key(&mut self, key: impl ToRedisArgs) -> &mut ScriptCall {
        let n = key.num_of_args();
        debug_assert!(self.keys_left >= n, "more keys than declared");
        self.keys_left = self.keys_left.saturating_sub(n);
        self.cmd.arg(key);
        self
    }

    /// The next argument (`ARGV[i]`), after every key.
    pub fn arg(&mut self, arg: impl ToRedisArgs) -> &mut ScriptCall {
        debug_assert_eq!(self.keys_left, 0, "an argument before the last key");
        self.cmd.arg(arg);
        self
    }

    /// Runs the call, loading the script first if Redis answers that it does not have it.
    pub async fn run<T: FromRedisValue>(&self, conn: &mut impl ConnectionLike) -> RedisResult<T> {
        match self.cmd.query_async(conn).await {
            Err(e) if e.kind() == ::redis::ErrorKind::Server(ServerErrorKind::NoScript) => {
                self.script.load_async(conn).await?;
                self.cmd.query_async(conn).await
            }
            other => other,
        }
    }
}
