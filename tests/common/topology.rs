//! Redis with replicas, as deployments that outgrow one machine run it: a Redis Cluster of
//! three primaries with a replica each ([`ReplicatedCluster`]), and one primary with a replica
//! under three Sentinels ([`Sentinels`]). Both fail over by themselves when a primary dies;
//! the tests kill primaries and bring them back as replicas.

use std::time::{Duration, Instant};

use crate::common::redis::{Redis, create_cluster, free_port};

/// How long a primary may be silent before the others give up on it (the Cluster's
/// `cluster-node-timeout`, the Sentinels' `down-after-milliseconds`): short, so a test's
/// failovers take a few seconds.
const NODE_TIMEOUT_MS: u64 = 1000;

/// A Redis Cluster of three primaries, each with one replica.
pub struct ReplicatedCluster {
    pub nodes: Vec<Redis>,
}

impl ReplicatedCluster {
    /// Six cluster nodes joined with `redis-cli --cluster create --cluster-replicas 1`; waits
    /// until every node is ok and every primary has its replica in sync.
    pub fn start() -> ReplicatedCluster {
        let extra = || {
            vec![
                "--cluster-node-timeout".to_owned(),
                NODE_TIMEOUT_MS.to_string(),
                // A replica that lost its primary for a while still takes over: the test's
                // replicas are never far behind.
                "--cluster-replica-validity-factor".to_owned(),
                "0".to_owned(),
            ]
        };
        let nodes: Vec<Redis> = (0..6)
            .map(|_| Redis::launch_with(false, true, extra()))
            .collect();
        create_cluster(&nodes, 1);
        let cluster = ReplicatedCluster { nodes };
        cluster.wait_until_healthy(Duration::from_secs(30));
        cluster
    }

    /// Every node's URL, comma-separated: chessd's `--redis` seeds.
    pub fn urls(&self) -> String {
        self.nodes
            .iter()
            .map(Redis::url)
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The running nodes that are primaries now, by index.
    pub fn primaries(&self) -> Vec<usize> {
        (0..self.nodes.len())
            .filter(|&i| self.nodes[i].running() && role(&self.nodes[i]) == "master")
            .collect()
    }

    /// The running replica of primary `i`.
    pub fn replica_of(&self, i: usize) -> Option<usize> {
        let primary = self.nodes[i].port.to_string();
        (0..self.nodes.len()).find(|&j| {
            j != i
                && self.nodes[j].running()
                && role(&self.nodes[j]) == "slave"
                && info_field(&self.nodes[j], "replication", "master_port").as_deref()
                    == Some(primary.as_str())
        })
    }

    /// Waits until every running node says `cluster_state:ok`, three primaries serve, and each
    /// has a replica whose link is up.
    pub fn wait_until_healthy(&self, limit: Duration) {
        let deadline = Instant::now() + limit;
        loop {
            let ok = self.nodes.iter().filter(|n| n.running()).all(|n| {
                n.try_command(&["CLUSTER", "INFO"])
                    .is_some_and(|i| i.contains("cluster_state:ok"))
            });
            let primaries = self.primaries();
            let replicated = primaries.len() == 3
                && primaries.iter().all(|&p| {
                    self.replica_of(p).is_some_and(|r| {
                        info_field(&self.nodes[r], "replication", "master_link_status").as_deref()
                            == Some("up")
                    })
                });
            if ok && replicated {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the cluster did not become healthy: primaries {primaries:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits until the cluster serves every slot again after primary `dead` died (its replica
    /// promoted).
    pub fn wait_for_failover(&self, dead: usize, limit: Duration) {
        let deadline = Instant::now() + limit;
        loop {
            let ok = self
                .nodes
                .iter()
                .enumerate()
                .filter(|(i, n)| *i != dead && n.running())
                .all(|(_, n)| {
                    n.try_command(&["CLUSTER", "INFO"])
                        .is_some_and(|i| i.contains("cluster_state:ok"))
                });
            if ok && self.primaries().len() == 3 {
                return;
            }
            assert!(Instant::now() < deadline, "no failover within {limit:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// One primary with one replica, watched by three Sentinels (quorum 2) as the set
/// [`Sentinels::MASTER`].
pub struct Sentinels {
    /// The data nodes: the first started as primary, the second as its replica.
    pub data: Vec<Redis>,
    pub sentinels: Vec<Redis>,
}

impl Sentinels {
    pub const MASTER: &'static str = "chessd";

    pub fn start() -> Sentinels {
        let primary = Redis::launch_with(false, false, Vec::new());
        let replica = replica_of(&primary);
        let sentinels = (0..3)
            .map(|_| {
                let port = free_port();
                let dir = std::env::temp_dir()
                    .join(format!("chessd-sentinel-{}-{port}", std::process::id()));
                std::fs::create_dir_all(&dir).unwrap();
                let conf = dir.join("sentinel.conf");
                std::fs::write(
                    &conf,
                    format!(
                        "sentinel monitor {m} 127.0.0.1 {p} 2\n\
                         sentinel down-after-milliseconds {m} {t}\n\
                         sentinel failover-timeout {m} 5000\n\
                         sentinel parallel-syncs {m} 1\n",
                        m = Sentinels::MASTER,
                        p = primary.port,
                        t = NODE_TIMEOUT_MS,
                    ),
                )
                .unwrap();
                // The config file comes first: redis-server reads it, then the flags.
                Redis::launch_sentinel(conf.to_string_lossy().into_owned(), port)
            })
            .collect();
        let set = Sentinels {
            data: vec![primary, replica],
            sentinels,
        };
        set.wait_until_replicated(Duration::from_secs(30));
        set
    }

    /// The Sentinels' URLs, comma-separated: chessd's `--redis` with `--redis-sentinel`.
    pub fn urls(&self) -> String {
        self.sentinels
            .iter()
            .map(Redis::url)
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The data node the Sentinels name as primary now (by index in `data`), if they agree on
    /// a running one.
    pub fn primary(&self) -> Option<usize> {
        let named = self.sentinels.iter().find_map(|s| {
            let reply =
                s.try_command(&["SENTINEL", "GET-MASTER-ADDR-BY-NAME", Sentinels::MASTER])?;
            reply
                .lines()
                .nth(4)
                .and_then(|p| p.trim().parse::<u16>().ok())
        })?;
        self.data
            .iter()
            .position(|d| d.port == named && d.running() && role(d) == "master")
    }

    /// Waits until the named primary has every other running data node as a replica in sync.
    pub fn wait_until_replicated(&self, limit: Duration) {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(p) = self.primary() {
                let others = self.data.iter().filter(|d| d.running()).count() - 1;
                let synced = (0..self.data.len())
                    .filter(|&i| i != p && self.data[i].running())
                    .filter(|&i| {
                        info_field(&self.data[i], "replication", "master_link_status").as_deref()
                            == Some("up")
                            && info_field(&self.data[i], "replication", "master_port")
                                == Some(self.data[p].port.to_string())
                    })
                    .count();
                if synced == others {
                    return;
                }
            }
            assert!(
                Instant::now() < deadline,
                "the sentinels' set did not become replicated"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits until the Sentinels name a running primary other than `dead`.
    pub fn wait_for_failover(&self, dead: usize, limit: Duration) -> usize {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(p) = self.primary()
                && p != dead
            {
                return p;
            }
            assert!(Instant::now() < deadline, "no failover within {limit:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// A Redis started as a replica of `primary` (not waited for to sync).
pub fn replica_of(primary: &Redis) -> Redis {
    Redis::launch_with(
        false,
        false,
        vec![
            "--replicaof".into(),
            "127.0.0.1".into(),
            primary.port.to_string(),
        ],
    )
}

/// A node's `role:` (`master` or `slave`), or "" when it does not answer.
pub fn role(node: &Redis) -> String {
    info_field(node, "replication", "role").unwrap_or_default()
}

/// One field of `INFO section`, `None` when the node does not answer.
pub fn info_field(node: &Redis, section: &str, field: &str) -> Option<String> {
    node.try_command(&["INFO", section])?
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{field}:")))
        .map(|v| v.trim().to_owned())
}
