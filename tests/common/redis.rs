//! A `redis-server` child on a free loopback port, killed on drop and restartable on the same
//! port and directory: the Redis of the replica tests, and of the service suite when it runs
//! on Redis (`CHESSD_TEST_STORE=redis`). And a [`Cluster`] of three such children as the
//! primaries of a real Redis Cluster. Needs `redis-server` (and `redis-cli` for the cluster)
//! on PATH.

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A `redis-server` child process.
pub struct Redis {
    child: Option<Child>,
    pub port: u16,
    dir: PathBuf,
    /// Append-only file with a flush per write: what Redis acknowledged survives a SIGKILL.
    durable: bool,
    /// A Redis Cluster node (`--cluster-enabled yes`, its node file in `dir`): the port of its
    /// cluster bus, chosen free like `port`. Redis's default, `port` + 10000, is nobody's to
    /// check: an outgoing connection's ephemeral port may hold it, and Redis then exits.
    cluster_port: Option<u16>,
    /// More arguments (`--replicaof`, `--cluster-node-timeout`), given at every start.
    extra: Vec<String>,
    /// A Sentinel's config file: the process runs as a Sentinel (see `common::topology`).
    sentinel_conf: Option<String>,
}

/// A loopback port free now and not handed out before in this process: the kernel may give a
/// closed listener's port to the next caller at once, before the first one's Redis binds it.
pub fn free_port() -> u16 {
    static GIVEN: Mutex<BTreeSet<u16>> = Mutex::new(BTreeSet::new());
    loop {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
        let port = listener.local_addr().expect("local addr").port();
        if GIVEN
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(port)
        {
            return port;
        }
    }
}

impl Redis {
    /// A Redis that keeps nothing on disk.
    pub fn start() -> Redis {
        Redis::launch(false, false)
    }

    /// A Redis with `appendonly yes` and `appendfsync always`.
    pub fn start_durable() -> Redis {
        Redis::launch(true, false)
    }

    fn launch(durable: bool, cluster_node: bool) -> Redis {
        Redis::launch_with(durable, cluster_node, Vec::new())
    }

    /// A Redis started with `extra` arguments too (see `common::topology`).
    pub fn launch_with(durable: bool, cluster_node: bool, extra: Vec<String>) -> Redis {
        // Numbered, not timed: the service suite starts many at once in one process.
        static STARTED: AtomicU64 = AtomicU64::new(0);
        let n = STARTED.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("chessd-redis-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut redis = Redis {
            child: None,
            port: free_port(),
            dir,
            durable,
            cluster_port: cluster_node.then(free_port),
            extra,
            sentinel_conf: None,
        };
        // A port another process took after free_port closed it makes Redis exit: new ports.
        for _ in 0..3 {
            if redis.try_spawn() {
                return redis;
            }
            redis.port = free_port();
            redis.cluster_port = cluster_node.then(free_port);
        }
        redis.spawn();
        redis
    }

    /// A Redis Sentinel on `port` with the config file `conf` (which it rewrites as it
    /// learns the set; its directory is the Sentinel's).
    pub fn launch_sentinel(conf: String, port: u16) -> Redis {
        let dir = std::path::Path::new(&conf)
            .parent()
            .expect("a config file in a directory")
            .to_path_buf();
        let mut sentinel = Redis {
            child: None,
            port,
            dir,
            durable: false,
            cluster_port: None,
            extra: Vec::new(),
            sentinel_conf: Some(conf),
        };
        sentinel.spawn();
        sentinel
    }

    fn spawn(&mut self) {
        assert!(
            self.try_spawn(),
            "redis-server exited at start (port {} taken?)",
            self.port
        );
    }

    /// Starts redis-server and waits until it answers; false when it exits first.
    fn try_spawn(&mut self) -> bool {
        let mut cmd = Command::new("redis-server");
        if let Some(conf) = &self.sentinel_conf {
            // The config file must come first.
            cmd.arg(conf).arg("--sentinel");
        }
        cmd.args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .arg("--dir")
            .arg(&self.dir);
        if self.sentinel_conf.is_none() {
            cmd.args(["--save", ""]);
        }
        if self.durable {
            cmd.args(["--appendonly", "yes", "--appendfsync", "always"]);
        } else if self.sentinel_conf.is_none() {
            cmd.args(["--appendonly", "no"]);
        }
        if let Some(bus) = self.cluster_port {
            cmd.args(["--cluster-enabled", "yes"])
                .args(["--cluster-port", &bus.to_string()])
                .args(["--cluster-config-file", "nodes.conf"])
                .args(["--cluster-node-timeout", "2000"]);
        }
        cmd.args(&self.extra);
        let child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn redis-server (is it on PATH? apt-get install redis-server)");
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut child = child;
        loop {
            if child.try_wait().is_ok_and(|status| status.is_some()) {
                return false;
            }
            // Exit checked before each ping: a child that could not bind its port is seen as
            // such, rather than another process's Redis on that port taken for it.
            if self.pings() {
                break;
            }
            assert!(Instant::now() < deadline, "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        self.child = Some(child);
        true
    }

    /// True when Redis answers PING (and has loaded its data).
    fn pings(&self) -> bool {
        let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.port)) else {
            return false;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
        if stream.write_all(b"PING\r\n").is_err() {
            return false;
        }
        let mut answer = [0u8; 7];
        stream.read_exact(&mut answer).is_ok() && &answer == b"+PONG\r\n"
    }

    /// The directory Redis runs in (its files, a Sentinel's config).
    pub fn dir(&self) -> &std::path::Path {
        &self.dir
    }

    /// Whether the process runs (not killed).
    pub fn running(&self) -> bool {
        self.child.is_some()
    }

    /// Starts a killed Redis again on its port and directory.
    pub fn revive(&mut self) {
        if self.child.is_none() {
            self.spawn();
        }
    }

    /// Starts a killed Redis again as a replica of the Redis on `primary`. A data node
    /// without persistence comes back empty; brought back as a primary, it would be one the
    /// Sentinels may fail over to (a second failover, which a starved machine's slow answers
    /// can set off), and the set would then copy its emptiness: Redis's hazard of a primary
    /// without persistence that restarts by itself. Operators bring such a node back as a
    /// replica.
    pub fn revive_as_replica_of(&mut self, primary: u16) {
        if let Some(at) = self.extra.iter().position(|a| a == "--replicaof") {
            self.extra.drain(at..at + 3);
        }
        self.extra.extend([
            "--replicaof".to_owned(),
            "127.0.0.1".to_owned(),
            primary.to_string(),
        ]);
        self.revive();
    }

    /// Runs one command (words without spaces) and returns the raw RESP reply.
    pub fn command(&self, words: &[&str]) -> String {
        self.try_command(words)
            .unwrap_or_else(|| panic!("redis on port {} did not answer {words:?}", self.port))
    }

    /// [`Redis::command`], `None` when Redis does not answer (killed, frozen).
    pub fn try_command(&self, words: &[&str]) -> Option<String> {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).ok()?;
        stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
        let mut request = format!("*{}\r\n", words.len());
        for w in words {
            request.push_str(&format!("${}\r\n{w}\r\n", w.len()));
        }
        stream.write_all(request.as_bytes()).ok()?;
        let mut reply = vec![0u8; 16384];
        let n = stream.read(&mut reply).ok()?;
        Some(String::from_utf8_lossy(&reply[..n]).into_owned())
    }

    /// How many connections subscribe to `channel` (PUBSUB NUMSUB).
    pub fn subscribers(&self, channel: &str) -> u64 {
        let reply = self.command(&["PUBSUB", "NUMSUB", channel]);
        // *2 $len channel :count
        reply
            .lines()
            .find_map(|l| l.strip_prefix(':'))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("unexpected reply {reply:?}"))
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// SIGKILL: Redis dies at once.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.kill().expect("SIGKILL redis-server");
            let _ = child.wait();
        }
    }

    /// SIGSTOP: Redis keeps its connections open and answers nothing (as a stuck Redis, or a
    /// path that drops every reply, does) until [`Redis::thaw`].
    pub fn freeze(&self) {
        self.signal("-STOP");
    }

    /// SIGCONT: a frozen Redis answers again.
    pub fn thaw(&self) {
        self.signal("-CONT");
    }

    fn signal(&self, signal: &str) {
        let pid = self.child.as_ref().expect("redis-server running").id();
        let status = std::process::Command::new("kill")
            .args([signal, &pid.to_string()])
            .status()
            .expect("run kill");
        assert!(status.success(), "kill {signal} {pid}");
    }

    /// Starts Redis again on the same port and directory (a durable one reads its file back).
    pub fn restart(&mut self) {
        self.kill();
        self.spawn();
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.kill();
        // Best effort: a leftover temporary directory is harmless.
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `redis-cli --cluster create` of `nodes`, with `replicas` replicas per primary (the first
/// nodes become the primaries).
pub fn create_cluster(nodes: &[Redis], replicas: u32) {
    let addrs: Vec<String> = nodes
        .iter()
        .map(|n| format!("127.0.0.1:{}", n.port))
        .collect();
    let out = Command::new("redis-cli")
        .args(["--cluster", "create"])
        .args(&addrs)
        .args(["--cluster-replicas", &replicas.to_string(), "--cluster-yes"])
        .stdin(Stdio::null())
        .output()
        .expect("run redis-cli --cluster create (is redis-cli on PATH?)");
    assert!(
        out.status.success(),
        "redis-cli --cluster create failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A Redis Cluster of three primaries (no replicas) on free loopback ports, made with
/// `redis-cli --cluster create`; its nodes are killed on drop.
pub struct Cluster {
    pub nodes: Vec<Redis>,
}

impl Cluster {
    /// Starts three cluster-enabled nodes, joins them into one cluster with every slot
    /// assigned, and waits (up to 20 s) until every node says `cluster_state:ok`.
    pub fn start() -> Cluster {
        Cluster::launch(false)
    }

    /// The same with nodes that keep every write (`appendfsync always`), for restarts.
    pub fn start_durable() -> Cluster {
        Cluster::launch(true)
    }

    fn launch(durable: bool) -> Cluster {
        let cluster = Cluster::unformed(durable);
        cluster.form();
        cluster
    }

    /// Three cluster-enabled nodes that are not a cluster yet (no slot assigned).
    pub fn unformed(durable: bool) -> Cluster {
        Cluster {
            nodes: (0..3).map(|_| Redis::launch(durable, true)).collect(),
        }
    }

    /// Joins the nodes into one cluster with every slot assigned and waits until it is ok.
    pub fn form(&self) {
        create_cluster(&self.nodes, 0);
        self.wait_until_ok();
    }

    /// Waits (up to 20 s) until every node says `cluster_state:ok`.
    pub fn wait_until_ok(&self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !self
            .nodes
            .iter()
            .all(|n| n.command(&["CLUSTER", "INFO"]).contains("cluster_state:ok"))
        {
            assert!(Instant::now() < deadline, "the cluster did not become ok");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Every node's URL, comma-separated: chessd's `--redis` seeds.
    pub fn urls(&self) -> String {
        self.nodes
            .iter()
            .map(Redis::url)
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Keys held by each node (DBSIZE), in node order.
    pub fn keys_per_node(&self) -> Vec<u64> {
        self.nodes
            .iter()
            .map(|n| {
                let reply = n.command(&["DBSIZE"]);
                reply
                    .trim()
                    .strip_prefix(':')
                    .and_then(|k| k.parse().ok())
                    .unwrap_or_else(|| panic!("unexpected DBSIZE reply {reply:?}"))
            })
            .collect()
    }
}
