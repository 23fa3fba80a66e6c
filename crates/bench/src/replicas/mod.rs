//! The window probe: what every server behind the load cost over a measured window, beyond
//! the single `--server-pid` of the main report. Each replica (`--server-pid`, one per
//! `--addr`, in the same order) by its CPU time and resident memory, and every Redis node
//! (`--redis`) by [`redis_info`] (Redis's INFO), so the report can give chessd's and Redis's
//! cost per move and per created game on one replica or several.

pub mod redis_info;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use self::redis_info::{RedisNodes, Snapshot};
use crate::error::BenchError;
use crate::report::measure::{ServerProc, field};

const MIB: f64 = 1024.0 * 1024.0;

/// The replicas and Redis nodes to read.
pub struct Probe {
    replicas: Vec<(SocketAddr, ServerProc)>,
    redis: RedisNodes,
}

/// Every reading at one moment.
pub struct ProbeMark {
    at: Instant,
    replicas: Vec<Option<Duration>>,
    redis: Vec<Snapshot>,
}

impl Probe {
    /// Pairs each `--addr` with its `--server-pid` (none: no per-replica lines) and connects
    /// to the `--redis` nodes.
    pub async fn new(
        addrs: &[SocketAddr],
        pids: &[u32],
        redis: &[String],
    ) -> Result<Probe, BenchError> {
        let replicas = if pids.len() == addrs.len() {
            addrs
                .iter()
                .zip(pids)
                .map(|(a, p)| (*a, ServerProc::Pid(*p)))
                .collect()
        } else {
            Vec::new()
        };
        Ok(Probe {
            replicas,
            redis: RedisNodes::connect(redis).await?,
        })
    }

    /// A probe that reads nothing (a server in this process).
    pub fn none() -> Probe {
        Probe {
            replicas: Vec::new(),
            redis: RedisNodes::none(),
        }
    }

    /// Whether there is anything to read.
    pub fn is_empty(&self) -> bool {
        self.replicas.is_empty() && self.redis.is_empty()
    }

    /// Every reading now.
    pub async fn mark(&mut self) -> Result<ProbeMark, BenchError> {
        Ok(ProbeMark {
            at: Instant::now(),
            replicas: self.replicas.iter().map(|(_, p)| p.cpu()).collect(),
            redis: self.redis.snapshot().await?,
        })
    }

    /// The lines for `ops` operations (`unit`: move, game) between two marks: one per replica
    /// and a `RESULT replicas` line (with several replicas, or always when there is one), then
    /// Redis's (see [`redis_info::lines`]). `tag` names the measurement in the `RESULT` lines.
    pub fn lines(
        &self,
        start: &ProbeMark,
        end: &ProbeMark,
        ops: u64,
        unit: &str,
        tag: &str,
    ) -> Vec<String> {
        let mut out = Vec::new();
        if !self.replicas.is_empty() {
            out.extend(replica_lines(&self.replicas, start, end, ops, unit, tag));
        }
        if !self.redis.is_empty() {
            let uses = self.redis.between(&start.redis, &end.redis);
            out.extend(redis_info::lines(&uses, ops, unit, tag));
        }
        out
    }
}

fn replica_lines(
    replicas: &[(SocketAddr, ServerProc)],
    start: &ProbeMark,
    end: &ProbeMark,
    ops: u64,
    unit: &str,
    tag: &str,
) -> Vec<String> {
    let per = |d: Duration| (ops > 0).then(|| 1e6 * d.as_secs_f64() / ops as f64);
    let mut out = Vec::new();
    let mut total = Some(Duration::ZERO);
    let secs = end
        .at
        .saturating_duration_since(start.at)
        .as_secs_f64()
        .max(1e-3);
    let mut result = format!(
        "RESULT replicas what={tag} n={} ops={ops} ops_per_s={:.0}",
        replicas.len(),
        ops as f64 / secs
    );
    for (i, (addr, proc)) in replicas.iter().enumerate() {
        let used = start.replicas[i]
            .zip(end.replicas[i])
            .map(|(a, b)| b.saturating_sub(a));
        total = total.zip(used).map(|(t, u)| t + u);
        let rss = proc.rss();
        out.push(format!(
            "replica {addr}: cpu {} us/{unit}, memory {}",
            field(used.and_then(per)),
            rss.map_or_else(
                || "not readable".into(),
                |(r, p)| format!(
                    "{:.1} MiB resident, peak {:.1} MiB",
                    r as f64 / MIB,
                    p as f64 / MIB
                )
            )
        ));
        result.push_str(&format!(
            " replica{i}_cpu_us_per_{unit}={} replica{i}_rss={}",
            field(used.and_then(per)),
            rss.map_or_else(|| "-".into(), |(r, _)| r.to_string())
        ));
    }
    result.push_str(&format!(
        " replicas_cpu_us_per_{unit}={}",
        field(total.and_then(per))
    ));
    out.push(result);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each replica's CPU is its own growth over the window; the sum is every replica's.
    #[test]
    fn replica_figures() {
        let a: SocketAddr = "127.0.0.1:1".parse().unwrap();
        let b: SocketAddr = "127.0.0.1:2".parse().unwrap();
        let replicas = [(a, ServerProc::Unknown), (b, ServerProc::Unknown)];
        let at = Instant::now();
        let start = ProbeMark {
            at,
            replicas: vec![
                Some(Duration::from_millis(10)),
                Some(Duration::from_millis(5)),
            ],
            redis: Vec::new(),
        };
        let end = ProbeMark {
            at: at + Duration::from_secs(2),
            replicas: vec![
                Some(Duration::from_millis(30)),
                Some(Duration::from_millis(15)),
            ],
            redis: Vec::new(),
        };
        let out = replica_lines(&replicas, &start, &end, 1000, "move", "moves");
        assert_eq!(
            out[0],
            "replica 127.0.0.1:1: cpu 20.0 us/move, memory not readable"
        );
        assert_eq!(
            out[2],
            "RESULT replicas what=moves n=2 ops=1000 ops_per_s=500 replica0_cpu_us_per_move=20.0 replica0_rss=- replica1_cpu_us_per_move=10.0 replica1_rss=- replicas_cpu_us_per_move=30.0"
        );
        // A replica that cannot be read leaves the sum unknown, not too small.
        let gone = ProbeMark {
            at: at + Duration::from_secs(2),
            replicas: vec![Some(Duration::from_millis(30)), None],
            redis: Vec::new(),
        };
        let out = replica_lines(&replicas, &start, &gone, 1000, "move", "moves");
        assert!(out[2].ends_with("replicas_cpu_us_per_move=-"), "{}", out[2]);
        // No operations: no figure.
        let out = replica_lines(&replicas, &start, &end, 0, "game", "create");
        assert!(out[0].contains("cpu - us/game"), "{}", out[0]);
    }
}
