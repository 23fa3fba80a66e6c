//! Appends of many games per round trip: the moves of different games that arrive while
//! earlier appends are on their way go to Redis together, as one `APPEND_MANY` script call
//! (one write, one read), rather than one call each.
//!
//! Each game in a batch keeps its own compare-and-append (its seq and last event key checked
//! inside the script, as alone): batching changes how many games one call carries, never what
//! is checked. A caller is answered from its own game's result in the reply, so no change is
//! acknowledged before Redis has it; with `--redis-min-replicas` the batch's call is followed
//! by one WAIT that covers every game in it. A batch whose call fails fails every game in it
//! (UNAVAILABLE, as a lone append that failed: its outcome is unknown to the caller).
//!
//! Batching is the group commit's: at most [`IN_FLIGHT`] batches are on their way at once,
//! and whatever queues behind them leaves as the next batch when one returns. A lone move
//! therefore leaves at once; under load, batches grow by themselves. Each batch is sent from
//! a task of its own, so a caller that goes away (a cancelled call) never cuts short the
//! others' batch.
//!
//! With traces on, a caller's span holds a `spans::REDIS` span named as a lone append's was
//! (`EVALSHA`, script `append`) for its wait on the batch; the batch's own call, sent outside
//! any call, has none.
//!
//! Redis Cluster: a script call must stay in one slot, so a batch is sent as one call per
//! bucket (every key of a bucket shares its hash tag), those calls concurrently; on one Redis
//! or behind Sentinel, the whole batch is one call.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ::redis::{Cmd, RedisError, RedisResult, ServerErrorKind};
use tokio::sync::oneshot;
use tracing::Instrument;

use crate::store::redis::ack::{Acks, Confirmed};
use crate::store::redis::conn::{Conn, RESPONSE_TIMEOUT};
use crate::store::redis::failure::unavailable;
use crate::store::redis::keys::{self, AppendNames};
use crate::store::redis::scripts;
use crate::telemetry::spans;

/// Batches on their way to Redis at once.
pub(super) const IN_FLIGHT: usize = 2;
/// Most games in one batch: bounds how long one script holds Redis.
pub(super) const MAX_GAMES: usize = 64;

/// One game's append as the batch carries it: its names (keys, id, channel) and its
/// arguments after them (see [`scripts::APPEND_MANY`]).
pub(super) struct Job {
    pub names: Arc<AppendNames>,
    pub bucket: usize,
    /// The block's arguments from the expected seq on, in a command used as a buffer.
    pub args: Cmd,
}

/// What Redis did with one game's append: the script's status for it (its seq is not needed:
/// a stale caller reads the game again), and with `--redis-min-replicas` what the replicas
/// confirmed of its batch.
#[derive(Clone, Copy, Debug)]
pub(super) struct Outcome {
    pub status: i64,
    pub confirmed: Option<Confirmed>,
}

/// A batch's call failed (logged once for the batch).
#[derive(Clone, Copy, Debug)]
pub(super) struct Failed;

type Reply = oneshot::Sender<Result<Outcome, Failed>>;

/// A queued append: the job, when it was queued, and where its answer goes.
type Queued = (Job, Instant, Reply);

/// The queue of appends and the batches on their way.
pub(super) struct Batches {
    shared: Arc<Shared>,
}

struct Shared {
    conn: Conn,
    acks: Option<Arc<Acks>>,
    /// How long a batch's call may take: an append queued longer is failed unsent.
    expire_after: Duration,
    queue: Mutex<Queue>,
}

#[derive(Default)]
struct Queue {
    waiting: VecDeque<Queued>,
    in_flight: usize,
}

impl std::fmt::Debug for Batches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Batches")
    }
}

impl Batches {
    pub(super) fn new(conn: Conn, acks: Option<Arc<Acks>>) -> Batches {
        let expire_after =
            RESPONSE_TIMEOUT + acks.as_ref().map_or(Duration::ZERO, |a| a.need().timeout);
        Batches {
            shared: Arc::new(Shared {
                conn,
                acks,
                expire_after,
                queue: Mutex::default(),
            }),
        }
    }

    /// Appends `job` with the next batch and waits for its game's result.
    pub(super) async fn append(&self, job: Job) -> Result<Outcome, Failed> {
        let (tx, rx) = oneshot::channel();
        {
            let mut queue = lock(&self.shared.queue);
            queue.waiting.push_back((job, Instant::now(), tx));
        }
        Shared::launch(&self.shared);
        let span = spans::in_call(
            |parent| tracing::debug_span!(parent: parent, spans::REDIS, command = "EVALSHA", script = "append"),
        );
        let answer = if span.is_none() {
            rx.await
        } else {
            rx.instrument(span).await
        };
        answer.unwrap_or(Err(Failed))
    }
}

fn lock(queue: &Mutex<Queue>) -> std::sync::MutexGuard<'_, Queue> {
    queue
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Shared {
    /// Sends what waits as a batch if fewer than [`IN_FLIGHT`] are on their way. An append
    /// that waited longer than a command may take is failed unsent, so a Redis that stopped
    /// answering fails each call in about the time one command would, however long the queue.
    fn launch(this: &Arc<Shared>) {
        let (batch, expired) = {
            let mut queue = lock(&this.queue);
            if queue.in_flight >= IN_FLIGHT || queue.waiting.is_empty() {
                return;
            }
            let mut batch = Vec::new();
            let mut expired = Vec::new();
            while batch.len() < MAX_GAMES
                && let Some((job, queued, reply)) = queue.waiting.pop_front()
            {
                if queued.elapsed() > this.expire_after {
                    expired.push(reply);
                } else {
                    batch.push((job, reply));
                }
            }
            if !batch.is_empty() {
                queue.in_flight += 1;
            }
            (batch, expired)
        };
        if !expired.is_empty() {
            tracing::warn!(
                appends = expired.len(),
                "redis appends failed unsent: queued longer than a command may take"
            );
            fail(expired);
        }
        if batch.is_empty() {
            return;
        }
        let this = Arc::clone(this);
        let guard = InFlight(Arc::clone(&this));
        tokio::spawn(async move {
            this.send(batch).await;
            drop(guard);
            Shared::launch(&this);
        });
    }

    /// Sends one batch and answers each of its callers.
    async fn send(&self, batch: Vec<(Job, Reply)>) {
        let groups: Vec<Vec<(Job, Reply)>> = if self.conn.is_cluster() {
            let mut by_bucket: BTreeMap<usize, Vec<(Job, Reply)>> = BTreeMap::new();
            for item in batch {
                by_bucket.entry(item.0.bucket).or_default().push(item);
            }
            by_bucket.into_values().collect()
        } else {
            vec![batch]
        };
        futures_util::future::join_all(groups.into_iter().map(|group| self.send_one(group))).await;
    }

    /// One script call for `group` (one slot on a Cluster), then each caller's answer.
    async fn send_one(&self, group: Vec<(Job, Reply)>) {
        let (jobs, replies): (Vec<Job>, Vec<Reply>) = group.into_iter().unzip();
        let cmd = command(&jobs);
        match self.call(&cmd).await {
            Ok((results, confirmed)) if results.len() == 2 * replies.len() => {
                for (reply, pair) in replies.into_iter().zip(results.chunks_exact(2)) {
                    let _ = reply.send(Ok(Outcome {
                        status: pair[0],
                        confirmed,
                    }));
                }
            }
            Ok((results, _)) => {
                tracing::error!(
                    games = replies.len(),
                    answers = results.len(),
                    "redis append script answered for another number of games"
                );
                fail(replies);
            }
            Err(e) => {
                let _ = unavailable(&e);
                fail(replies);
            }
        }
    }

    /// Runs the call (and with `--redis-min-replicas` its WAIT), loading the script first if
    /// Redis does not have it (a server restarted or flushed since).
    async fn call(&self, cmd: &Cmd) -> RedisResult<(Vec<i64>, Option<Confirmed>)> {
        match &self.acks {
            None => {
                let mut conn = self.conn.clone();
                match cmd.query_async(&mut conn).await {
                    Err(e) if is_noscript(&e) => {
                        scripts::APPEND_MANY.load_async(&mut conn).await?;
                        Ok((cmd.query_async(&mut conn).await?, None))
                    }
                    other => Ok((other?, None)),
                }
            }
            Some(acks) => {
                let mut conn = acks.conn();
                let mut pipe = ::redis::pipe();
                pipe.add_command(cmd.clone());
                let (answers, confirmed) = match acks.run(&mut conn, &pipe).await {
                    Err(e) if is_noscript(&e) => {
                        scripts::APPEND_MANY.load_async(&mut conn).await?;
                        acks.run(&mut conn, &pipe).await?
                    }
                    other => other?,
                };
                let answer = answers.into_iter().next().unwrap_or(::redis::Value::Nil);
                Ok((
                    ::redis::FromRedisValue::from_redis_value(answer)?,
                    Some(confirmed),
                ))
            }
        }
    }
}

/// A batch on its way: counted out when its task ends, even by a panic.
struct InFlight(Arc<Shared>);

impl Drop for InFlight {
    fn drop(&mut self) {
        lock(&self.0.queue).in_flight -= 1;
    }
}

fn fail(replies: Vec<Reply>) {
    for reply in replies {
        let _ = reply.send(Err(Failed));
    }
}

fn is_noscript(e: &RedisError) -> bool {
    e.kind() == ::redis::ErrorKind::Server(ServerErrorKind::NoScript)
}

/// The `EVALSHA` of [`scripts::APPEND_MANY`] for `jobs`: every game's keys, then the feed
/// channel, the number of games and each game's block.
fn command(jobs: &[Job]) -> Cmd {
    let nkeys: usize = jobs.iter().map(|j| j.names.keys.len()).sum();
    let mut cmd = ::redis::cmd("EVALSHA");
    cmd.arg(scripts::APPEND_MANY.get_hash()).arg(nkeys);
    for job in jobs {
        cmd.arg(&job.names.keys);
    }
    cmd.arg(keys::FEED_CHANNEL).arg(jobs.len());
    for job in jobs {
        cmd.arg(job.args.args_iter().count())
            .arg(job.names.keys.len());
        for arg in job.args.args_iter() {
            if let ::redis::Arg::Simple(bytes) = arg {
                cmd.arg(bytes);
            }
        }
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(id: &str, nkeys: usize, args: &[&str]) -> Job {
        let mut cmd = Cmd::new();
        for a in args {
            cmd.arg(*a);
        }
        Job {
            names: Arc::new(AppendNames {
                keys: (0..nkeys).map(|k| format!("{id}:k{k}")).collect(),
                id: id.to_owned(),
                channel: format!("{id}:ch"),
            }),
            bucket: 0,
            args: cmd,
        }
    }

    fn texts(cmd: &Cmd) -> Vec<String> {
        cmd.args_iter()
            .map(|a| match a {
                ::redis::Arg::Simple(b) => String::from_utf8_lossy(b).into_owned(),
                _ => "<not a plain argument>".to_owned(),
            })
            .collect()
    }

    /// Every game's keys come first, in the games' order; then the feed channel, the number
    /// of games, and each game's block led by its length and its number of keys, so the
    /// script finds each game's keys and arguments.
    #[test]
    fn a_batch_is_every_games_keys_then_each_games_block() {
        let jobs = [job("a", 8, &["0", "x", ""]), job("b", 7, &["3"])];
        let got = texts(&command(&jobs));
        let mut want = vec![
            "EVALSHA".to_owned(),
            scripts::APPEND_MANY.get_hash().to_owned(),
            "15".to_owned(),
        ];
        want.extend((0..8).map(|k| format!("a:k{k}")));
        want.extend((0..7).map(|k| format!("b:k{k}")));
        want.extend(
            [
                keys::FEED_CHANNEL,
                "2",
                "3",
                "8",
                "0",
                "x",
                "",
                "1",
                "7",
                "3",
            ]
            .map(str::to_owned),
        );
        assert_eq!(got, want);
    }
}
