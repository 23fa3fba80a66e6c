//! Redis's own cost over a measured window, read from every node named by `--redis`: its CPU
//! time (`INFO cpu`: `used_cpu_user` + `used_cpu_sys`, the whole server, every thread) and the
//! commands it ran (`INFO commandstats`: calls and microseconds per command), before and after
//! the window, so the report can say what each move or created game cost Redis.
//!
//! On Redis 7 `commandstats` also counts the commands a script calls (`redis.call` inside an
//! `EVALSHA`), so a move's breakdown lists the script and what it did; the `INFO` calls of this
//! module are left out of every count. The connections are plain ones to each node (a Cluster
//! node answers `INFO` about itself), made before the load starts.

use redis::aio::MultiplexedConnection;
use redis::{Client, ConnectionAddr};

use crate::error::{BenchError, fail};

/// The commands of this module, left out of the counts.
const OWN_COMMANDS: [&str; 1] = ["info"];

/// One node's readings at one moment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    /// Seconds of CPU the whole Redis process used since it started.
    pub cpu_s: f64,
    /// Per command (lower case, as `commandstats` names them): calls and microseconds inside
    /// Redis since it started or since `CONFIG RESETSTAT`.
    pub commands: Vec<(String, u64, u64)>,
}

/// What one node did over a window.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeUse {
    /// `host:port`, for the report.
    pub label: String,
    pub cpu_s: f64,
    /// Per command with calls in the window: calls and microseconds, most called first.
    pub commands: Vec<(String, u64, u64)>,
}

impl NodeUse {
    /// Commands run in the window.
    pub fn calls(&self) -> u64 {
        self.commands.iter().map(|(_, calls, _)| calls).sum()
    }
}

/// The nodes named by `--redis`, connected.
pub struct RedisNodes {
    nodes: Vec<(String, MultiplexedConnection)>,
}

impl RedisNodes {
    /// Connects to every URL (loopback or a Unix socket only, like every target of the bench).
    pub async fn connect(urls: &[String]) -> Result<RedisNodes, BenchError> {
        let mut nodes = Vec::with_capacity(urls.len());
        for url in urls {
            let client = Client::open(url.as_str()).map_err(|e| fail("--redis", e))?;
            let label = local_label(client.get_connection_info().addr())?;
            let conn = client
                .get_multiplexed_async_connection()
                .await
                .map_err(|e| fail(&format!("redis {label}"), e))?;
            nodes.push((label, conn));
        }
        Ok(RedisNodes { nodes })
    }

    /// No node to read.
    pub fn none() -> RedisNodes {
        RedisNodes { nodes: Vec::new() }
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Every node's readings now, in `--redis` order.
    pub async fn snapshot(&mut self) -> Result<Vec<Snapshot>, BenchError> {
        let mut out = Vec::with_capacity(self.nodes.len());
        for (label, conn) in &mut self.nodes {
            let text: String = redis::cmd("INFO")
                .arg("cpu")
                .arg("commandstats")
                .query_async(conn)
                .await
                .map_err(|e| fail(&format!("INFO on redis {label}"), e))?;
            out.push(parse_info(&text).ok_or_else(|| {
                BenchError::new(format!("redis {label}: INFO has no used_cpu_user/sys"))
            })?);
        }
        Ok(out)
    }

    /// What each node did between two snapshots of [`RedisNodes::snapshot`].
    pub fn between(&self, before: &[Snapshot], after: &[Snapshot]) -> Vec<NodeUse> {
        self.nodes
            .iter()
            .zip(before.iter().zip(after))
            .map(|((label, _), (b, a))| diff(label, b, a))
            .collect()
    }
}

/// `host:port` of a loopback TCP address, or the socket's path; anything else refused.
fn local_label(addr: &ConnectionAddr) -> Result<String, BenchError> {
    let tcp = |host: &str, port: u16| {
        let loopback = host == "localhost"
            || host
                .trim_matches(['[', ']'])
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback());
        if loopback {
            Ok(format!("{host}:{port}"))
        } else {
            Err(BenchError::new(format!(
                "refusing redis {host}:{port}: the bench only reads loopback addresses"
            )))
        }
    };
    match addr {
        ConnectionAddr::Tcp(host, port) => tcp(host, *port),
        ConnectionAddr::TcpTls { host, port, .. } => tcp(host, *port),
        ConnectionAddr::Unix(path) => Ok(path.display().to_string()),
        _ => Err(BenchError::new(
            "--redis: an address kind the bench does not read",
        )),
    }
}

/// The CPU seconds and command counts in the text of `INFO cpu commandstats`; `None` without
/// the CPU fields.
pub fn parse_info(text: &str) -> Option<Snapshot> {
    let mut user = None;
    let mut sys = None;
    let mut commands = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(v) = line.strip_prefix("used_cpu_user:") {
            user = v.parse::<f64>().ok();
        } else if let Some(v) = line.strip_prefix("used_cpu_sys:") {
            sys = v.parse::<f64>().ok();
        } else if let Some(rest) = line.strip_prefix("cmdstat_") {
            // cmdstat_evalsha:calls=10,usec=230,usec_per_call=23.00,rejected_calls=0,...
            let Some((name, fields)) = rest.split_once(':') else {
                continue;
            };
            let field = |key: &str| {
                fields
                    .split(',')
                    .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
                    .and_then(|v| v.parse::<u64>().ok())
            };
            if let (Some(calls), Some(usec)) = (field("calls"), field("usec")) {
                commands.push((name.to_ascii_lowercase(), calls, usec));
            }
        }
    }
    Some(Snapshot {
        cpu_s: user? + sys?,
        commands,
    })
}

/// What a node did from `before` to `after`; a command absent before counts from zero (its
/// first call), one whose count went down (a `CONFIG RESETSTAT` meanwhile) counts as it is
/// after.
pub fn diff(label: &str, before: &Snapshot, after: &Snapshot) -> NodeUse {
    let mut commands: Vec<(String, u64, u64)> = after
        .commands
        .iter()
        .filter(|(name, _, _)| !OWN_COMMANDS.contains(&name.as_str()))
        .filter_map(|(name, calls, usec)| {
            let (c0, u0) = before
                .commands
                .iter()
                .find(|(n, _, _)| n == name)
                .map_or((0, 0), |&(_, c, u)| (c, u));
            let (calls, usec) = if *calls >= c0 {
                (calls - c0, usec.saturating_sub(u0))
            } else {
                (*calls, *usec)
            };
            (calls > 0).then(|| (name.clone(), calls, usec))
        })
        .collect();
    commands.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    NodeUse {
        label: label.to_string(),
        cpu_s: (after.cpu_s - before.cpu_s).max(0.0),
        commands,
    }
}

/// The report's lines for a window of `ops` operations (`unit`: move, game): per node and in
/// all, Redis CPU and commands per operation, the busiest commands, and one `RESULT redis`
/// line (`tag` names the measurement in it).
pub fn lines(uses: &[NodeUse], ops: u64, unit: &str, tag: &str) -> Vec<String> {
    let per = |x: f64| x / ops.max(1) as f64;
    // A fold from +0.0: an empty f64 sum is -0.0, which prints as "-0.00".
    let cpu_us = uses.iter().fold(0.0, |t, u| t + u.cpu_s * 1e6);
    let calls: u64 = uses.iter().map(NodeUse::calls).sum();
    let mut out = Vec::new();
    let mut result = format!(
        "RESULT redis what={tag} nodes={} ops={ops} redis_cpu_us_per_{unit}={:.2} redis_cmds_per_{unit}={:.2}",
        uses.len(),
        per(cpu_us),
        per(calls as f64),
    );
    // Every node's commands together, by name, for the in-all breakdown.
    let mut all: Vec<(String, u64, u64)> = Vec::new();
    for (i, u) in uses.iter().enumerate() {
        result.push_str(&format!(
            " node{i}_cpu_us_per_{unit}={:.2} node{i}_cmds_per_{unit}={:.2}",
            per(u.cpu_s * 1e6),
            per(u.calls() as f64)
        ));
        out.push(format!(
            "redis {}: cpu {:.1} us/{unit}, {:.2} commands/{unit}: {}",
            u.label,
            per(u.cpu_s * 1e6),
            per(u.calls() as f64),
            breakdown(&u.commands, ops, unit)
        ));
        for (name, c, us) in &u.commands {
            match all.iter_mut().find(|(n, _, _)| n == name) {
                Some(entry) => {
                    entry.1 += c;
                    entry.2 += us;
                }
                None => all.push((name.clone(), *c, *us)),
            }
        }
    }
    all.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    // The RESULT line names the commands of at least one call per hundred operations, as
    // the breakdown does; the totals above count every one.
    for (name, c, us) in all.iter().filter(|(_, c, _)| *c * 100 >= ops.max(1)) {
        let key = name.replace(['|', '-'], "_");
        result.push_str(&format!(
            " {key}_per_{unit}={:.3} {key}_usec_per_call={:.2}",
            per(*c as f64),
            *us as f64 / (*c).max(1) as f64
        ));
    }
    if uses.len() > 1 {
        out.push(format!(
            "redis, all {} nodes: cpu {:.1} us/{unit}, {:.2} commands/{unit}: {}",
            uses.len(),
            per(cpu_us),
            per(calls as f64),
            breakdown(&all, ops, unit)
        ));
    }
    out.push(result);
    out
}

/// `evalsha 1.00 (23.1 us), publish 1.00 (1.2 us), ...`: calls per operation and time per
/// call inside Redis, for the commands with at least one call per hundred operations.
fn breakdown(commands: &[(String, u64, u64)], ops: u64, unit: &str) -> String {
    let items: Vec<String> = commands
        .iter()
        .filter(|(_, c, _)| *c * 100 >= ops.max(1))
        .map(|(name, c, us)| {
            format!(
                "{name} {:.2}/{unit} ({:.1} us)",
                *c as f64 / ops.max(1) as f64,
                *us as f64 / (*c).max(1) as f64
            )
        })
        .collect();
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INFO: &str = "# CPU\r\nused_cpu_sys:1.500000\r\nused_cpu_user:2.250000\r\nused_cpu_sys_children:0.000000\r\n\r\n# Commandstats\r\ncmdstat_evalsha:calls=10,usec=230,usec_per_call=23.00,rejected_calls=0,failed_calls=0\r\ncmdstat_info:calls=3,usec=30,usec_per_call=10.00,rejected_calls=0,failed_calls=0\r\ncmdstat_client|setname:calls=1,usec=1,usec_per_call=1.00,rejected_calls=0,failed_calls=0\r\n";

    /// CPU is user plus system; every command keeps its calls and microseconds.
    #[test]
    fn parses_info() {
        let s = parse_info(INFO).unwrap();
        assert_eq!(s.cpu_s, 3.75);
        assert_eq!(s.commands.len(), 3);
        assert_eq!(s.commands[0], ("evalsha".into(), 10, 230));
        assert_eq!(s.commands[2].0, "client|setname");
        assert_eq!(parse_info("# CPU\r\nused_cpu_sys:1.0\r\n"), None);
        assert_eq!(parse_info(""), None);
    }

    /// The window counts only its own calls, never the bench's INFO, and survives a reset.
    #[test]
    fn diffs_a_window() {
        let before = parse_info(INFO).unwrap();
        let after = Snapshot {
            cpu_s: 4.0,
            commands: vec![
                ("evalsha".into(), 30, 690),
                ("info".into(), 5, 50),
                ("publish".into(), 20, 40),
                ("client|setname".into(), 1, 1),
            ],
        };
        let u = diff("127.0.0.1:6379", &before, &after);
        assert!((u.cpu_s - 0.25).abs() < 1e-9);
        assert_eq!(
            u.commands,
            vec![("evalsha".into(), 20, 460), ("publish".into(), 20, 40)]
        );
        assert_eq!(u.calls(), 40);
        let reset = Snapshot {
            cpu_s: 4.0,
            commands: vec![("evalsha".into(), 2, 40)],
        };
        assert_eq!(diff("x", &before, &reset).commands[0].1, 2);
    }

    /// Per-operation figures in the lines and in the RESULT line, summed over nodes.
    #[test]
    fn report_lines() {
        let a = NodeUse {
            label: "a".into(),
            cpu_s: 0.002,
            commands: vec![("evalsha".into(), 100, 2000), ("publish".into(), 100, 100)],
        };
        let b = NodeUse {
            label: "b".into(),
            cpu_s: 0.001,
            commands: vec![("publish".into(), 100, 50)],
        };
        let out = lines(&[a, b], 100, "move", "moves");
        assert!(
            out[0].starts_with(
                "redis a: cpu 20.0 us/move, 2.00 commands/move: evalsha 1.00/move (20.0 us)"
            ),
            "{}",
            out[0]
        );
        assert!(out[2].contains("all 2 nodes: cpu 30.0 us/move, 3.00 commands/move"));
        let result = out.last().unwrap();
        assert!(result.starts_with(
            "RESULT redis what=moves nodes=2 ops=100 redis_cpu_us_per_move=30.00 redis_cmds_per_move=3.00 node0_cpu_us_per_move=20.00"
        ), "{result}");
        assert!(result.contains(" publish_per_move=2.000 publish_usec_per_call=0.75"));
        // No operations: no division by zero.
        assert!(lines(&[], 0, "game", "x")[0].contains("redis_cpu_us_per_game=0.00"));
    }

    /// Only loopback hosts and sockets.
    #[test]
    fn only_local_redis() {
        assert!(local_label(&ConnectionAddr::Tcp("127.0.0.1".into(), 1)).is_ok());
        assert!(local_label(&ConnectionAddr::Tcp("localhost".into(), 1)).is_ok());
        assert!(local_label(&ConnectionAddr::Tcp("[::1]".into(), 1)).is_ok());
        assert!(local_label(&ConnectionAddr::Tcp("192.0.2.1".into(), 1)).is_err());
        assert!(local_label(&ConnectionAddr::Tcp("redis.example".into(), 1)).is_err());
    }
}
