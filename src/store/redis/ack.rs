//! Acknowledging a change only once enough replicas hold it (`--redis-min-replicas N`).
//!
//! Redis replicates asynchronously: a primary that dies may take its last writes with it, and
//! the replica promoted in its place never had them. With this option a change's script is
//! followed, on the same connection and in the same pipeline, by `WAIT N timeout` (or, with
//! `--redis-replica-fsync`, `WAITAOF 0 N timeout`: on the replicas' disks), and the change
//! is acknowledged only if N replicas confirmed it. A WAIT covers every write its connection
//! sent before it, so whatever a call read before a write of its own on that connection is
//! confirmed with it: a *fence* (a write that changes nothing anyone reads, in the bucket's
//! slot) confirms what was read, for the answers that acknowledge a change made earlier (a
//! retried request, a creation found by its request id) and for what followers send
//! watchers.
//!
//! A WAIT holds its connection (Redis answers nothing else on it until the replicas do), so
//! these pipelines go over a pool of connections of their own, never the shared command
//! connection whose reads must not queue behind a replica's round trip.

use std::sync::atomic::{AtomicUsize, Ordering};

use ::redis::{Cmd, FromRedisValue, Pipeline, RedisResult, Value};

use crate::store::config::ReplicaAck;
use crate::store::redis::conn::{Conn, Dialer, RESPONSE_TIMEOUT};
use crate::store::redis::keys;

/// Connections carrying changes and their WAITs: this many WAITs may be under way at once.
pub(super) const ACK_CONNECTIONS: usize = 8;

/// What the replicas confirmed of a pipeline's writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Confirmed {
    /// Replicas that hold every write before the WAIT.
    pub replicas: u32,
    /// Replicas asked for.
    pub required: u32,
}

impl Confirmed {
    pub(super) fn enough(self) -> bool {
        self.replicas >= self.required
    }
}

/// The pool of connections whose pipelines end in a WAIT, and what they wait for.
#[derive(Debug)]
pub(super) struct Acks {
    need: ReplicaAck,
    pool: Vec<Conn>,
    next: AtomicUsize,
}

impl Acks {
    /// The pool for `need`; nothing is dialled until the first change.
    pub(super) fn open(dialer: &Dialer, need: ReplicaAck) -> Result<Acks, String> {
        // A command on these connections may wait for the replicas on top of its own time.
        let timeout = RESPONSE_TIMEOUT + need.timeout;
        let pool = (0..ACK_CONNECTIONS)
            .map(|_| Conn::open(dialer, timeout))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Acks {
            need,
            pool,
            next: AtomicUsize::new(0),
        })
    }

    pub(super) fn need(&self) -> ReplicaAck {
        self.need
    }

    /// The next connection of the pool, in turn.
    pub(super) fn conn(&self) -> Conn {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.pool.len();
        self.pool[i].clone()
    }

    /// The command that waits for the replicas.
    fn wait(&self) -> Cmd {
        let ms = u64::try_from(self.need.timeout.as_millis()).unwrap_or(u64::MAX);
        if self.need.fsync {
            let mut cmd = ::redis::cmd("WAITAOF");
            cmd.arg(0).arg(self.need.replicas).arg(ms);
            cmd
        } else {
            let mut cmd = ::redis::cmd("WAIT");
            cmd.arg(self.need.replicas).arg(ms);
            cmd
        }
    }

    /// What a WAIT's (a count) or WAITAOF's (local and replica counts) answer confirms.
    fn confirmed(&self, answer: &Value) -> RedisResult<Confirmed> {
        let replicas = if self.need.fsync {
            let (_local, replicas): (i64, i64) = FromRedisValue::from_redis_value_ref(answer)?;
            replicas
        } else {
            i64::from_redis_value_ref(answer)?
        };
        Ok(Confirmed {
            replicas: u32::try_from(replicas.max(0)).unwrap_or(u32::MAX),
            required: self.need.replicas,
        })
    }

    /// Runs `pipe` (every command in one slot) then the wait, on one connection of the pool:
    /// each command's answer, and what the replicas confirmed of them.
    pub(super) async fn run(
        &self,
        conn: &mut Conn,
        pipe: &Pipeline,
    ) -> RedisResult<(Vec<Value>, Confirmed)> {
        let mut pipe = pipe.clone();
        pipe.add_command(self.wait());
        let mut answers: Vec<Value> = pipe.query_async(conn).await?;
        let wait = answers.pop().unwrap_or(Value::Nil);
        Ok((answers, self.confirmed(&wait)?))
    }

    /// Confirms everything the primary of `bucket`'s slot held before now: a fence write in
    /// the slot, then the wait.
    pub(super) async fn fence(&self, bucket: usize) -> RedisResult<Confirmed> {
        let mut pipe = ::redis::pipe();
        pipe.cmd("INCR").arg(keys::fence_key(bucket)).ignore();
        Ok(self.run(&mut self.conn(), &pipe).await?.1)
    }
}
