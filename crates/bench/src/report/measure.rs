//! Measurement: latency histograms, refusal counts, and the memory and CPU time of the server
//! and of this process, read from `/proc`.
//!
//! CPU time is the sum of every thread's `schedstat` (nanoseconds, no clock-tick rounding);
//! memory is `VmRSS` and its peak `VmHWM`. Where `/proc` is missing the readings are `None`
//! and the report says the figure is not readable.

use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use tonic::Code;

use crate::error::{BenchError, fail};

/// The longest latency a histogram holds; longer ones count as this (every wait of the bench
/// has a deadline well below it).
const LATENCY_CEILING_NS: u64 = 60_000_000_000;

/// A latency distribution in nanoseconds, three significant digits.
#[derive(Clone)]
pub struct Latency(Histogram<u64>);

impl Latency {
    pub fn new() -> Result<Latency, BenchError> {
        Histogram::new_with_bounds(1, LATENCY_CEILING_NS, 3)
            .map(Latency)
            .map_err(|e| fail("histogram", e))
    }

    pub fn record(&mut self, latency: Duration) {
        self.record_nanos(u64::try_from(latency.as_nanos()).unwrap_or(u64::MAX));
    }

    pub fn record_nanos(&mut self, nanos: u64) {
        self.0.saturating_record(nanos.max(1));
    }

    /// Adds every sample of `other`.
    pub fn merge(&mut self, other: &Latency) {
        // Both have the same bounds, so adding cannot fail; were it to, the samples are lost
        // and the count in the report shows it.
        let _ = self.0.add(&other.0);
    }

    pub fn count(&self) -> u64 {
        self.0.len()
    }

    /// The latency at quantile `q` (0.5 is the median) in microseconds; 0 without samples.
    pub fn quantile_us(&self, q: f64) -> f64 {
        self.0.value_at_quantile(q) as f64 / 1e3
    }

    pub fn max_us(&self) -> f64 {
        self.0.max() as f64 / 1e3
    }
}

/// Refusals and transport failures, by gRPC code, in the order first seen.
#[derive(Clone, Default)]
pub struct CodeCounts(Vec<(Code, u64)>);

impl CodeCounts {
    pub fn add(&mut self, code: Code) {
        match self.0.iter_mut().find(|(c, _)| *c == code) {
            Some((_, n)) => *n += 1,
            None => self.0.push((code, 1)),
        }
    }

    pub fn merge(&mut self, other: &CodeCounts) {
        for &(code, n) in &other.0 {
            match self.0.iter_mut().find(|(c, _)| *c == code) {
                Some((_, m)) => *m += n,
                None => self.0.push((code, n)),
            }
        }
    }

    /// `[Unavailable=3 DeadlineExceeded=1]`, or `[]`.
    pub fn list(&self) -> String {
        let items: Vec<String> = self.0.iter().map(|(c, n)| format!("{c:?}={n}")).collect();
        format!("[{}]", items.join(" "))
    }
}

/// Which process is the server, for /proc readings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerProc {
    /// In this process: its readings include the load generator.
    OwnProcess,
    Pid(u32),
    Unknown,
}

impl ServerProc {
    /// A separate server: by its pid where given, else not readable.
    pub fn external(pid: Option<u32>) -> ServerProc {
        pid.map_or(ServerProc::Unknown, ServerProc::Pid)
    }

    fn path(self) -> Option<String> {
        match self {
            ServerProc::OwnProcess => Some("/proc/self".into()),
            ServerProc::Pid(pid) => Some(format!("/proc/{pid}")),
            ServerProc::Unknown => None,
        }
    }

    /// Resident memory in bytes (VmRSS), and its peak (VmHWM).
    pub fn rss(self) -> Option<(u64, u64)> {
        let status = std::fs::read_to_string(format!("{}/status", self.path()?)).ok()?;
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
                .map(|kib| kib * 1024)
        };
        Some((field("VmRSS:")?, field("VmHWM:")?))
    }

    /// CPU time used by every thread so far.
    pub fn cpu(self) -> Option<Duration> {
        let tasks = std::fs::read_dir(format!("{}/task", self.path()?)).ok()?;
        let mut total = 0u64;
        for task in tasks.flatten() {
            let Ok(text) = std::fs::read_to_string(task.path().join("schedstat")) else {
                // The thread ended meanwhile.
                continue;
            };
            total += text
                .split_whitespace()
                .next()
                .and_then(|n| n.parse::<u64>().ok())
                .unwrap_or(0);
        }
        Some(Duration::from_nanos(total))
    }
}

/// The CPU clocks at one moment: the server's, this process's, and the wall clock.
#[derive(Clone, Copy)]
pub struct CpuMark {
    at: Instant,
    server: Option<Duration>,
    own: Option<Duration>,
}

impl CpuMark {
    pub fn now(server: ServerProc) -> CpuMark {
        CpuMark {
            at: Instant::now(),
            server: server.cpu(),
            own: ServerProc::OwnProcess.cpu(),
        }
    }
}

/// CPU used over a window.
#[derive(Clone, Copy, Debug)]
pub struct CpuUse {
    /// The window's wall time (at least a millisecond, so rates stay finite).
    pub window: Duration,
    /// A separate server's CPU time; `None` when it is this process or unknown.
    pub server: Option<Duration>,
    /// This process's CPU time (with an in-process server, the server's too).
    pub own: Option<Duration>,
    /// The server runs in this process: `own` is the server and the load generator together.
    pub server_in_process: bool,
}

impl CpuUse {
    pub fn between(start: CpuMark, end: CpuMark, server: ServerProc) -> CpuUse {
        let diff = |a: Option<Duration>, b: Option<Duration>| Some(b?.saturating_sub(a?));
        CpuUse {
            window: end
                .at
                .saturating_duration_since(start.at)
                .max(Duration::from_millis(1)),
            server: match server {
                ServerProc::Pid(_) => diff(start.server, end.server),
                ServerProc::OwnProcess | ServerProc::Unknown => None,
            },
            own: diff(start.own, end.own),
            server_in_process: server == ServerProc::OwnProcess,
        }
    }

    /// The server's CPU microseconds per operation, where a separate server was read and
    /// there were operations.
    pub fn server_us_per(&self, operations: u64) -> Option<f64> {
        let server = self.server?;
        (operations > 0).then(|| 1e6 * server.as_secs_f64() / operations as f64)
    }
}

/// The median of `values` (the mean of the middle two for an even count); 0 for none. Sorts
/// `values` in place.
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// A figure for a `RESULT` field: `-` where it was not readable.
pub fn field(value: Option<f64>) -> String {
    value.map_or_else(|| "-".into(), |v| format!("{v:.1}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quantiles read back what was recorded, to three significant digits.
    #[test]
    fn latency_quantiles() {
        let mut l = Latency::new().unwrap();
        for us in 1..=1000u64 {
            l.record(Duration::from_micros(us));
        }
        assert_eq!(l.count(), 1000);
        assert!(
            (l.quantile_us(0.5) - 500.0).abs() < 1.0,
            "{}",
            l.quantile_us(0.5)
        );
        assert!((l.quantile_us(0.99) - 990.0).abs() < 1.0);
        let mut m = Latency::new().unwrap();
        m.merge(&l);
        assert_eq!(m.count(), 1000);
    }

    /// The middle value, or the mean of the middle two.
    #[test]
    fn medians() {
        assert_eq!(median(&mut []), 0.0);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
    }

    /// Codes are counted apart and merged by code.
    #[test]
    fn code_counts() {
        let mut a = CodeCounts::default();
        a.add(Code::Unavailable);
        a.add(Code::Unavailable);
        let mut b = CodeCounts::default();
        b.add(Code::Internal);
        b.add(Code::Unavailable);
        a.merge(&b);
        assert_eq!(a.list(), "[Unavailable=3 Internal=1]");
    }

    /// This process can read itself on Linux: memory above zero, CPU moving forward.
    #[test]
    #[cfg(target_os = "linux")]
    fn reads_its_own_process() {
        let (rss, peak) = ServerProc::OwnProcess.rss().expect("VmRSS");
        assert!(rss > 0 && peak >= rss);
        let start = CpuMark::now(ServerProc::OwnProcess);
        // Busy until the process has used more CPU than at the start (a fixed loop ends inside
        // one tick in a release build). Not "until the reading changes": the reading sums the
        // live threads, so another test's thread that ends makes it drop, and the window then
        // counts nothing. Bounded so that a clock that never moves fails the test, not hangs it.
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        let mut x = 0u64;
        let used = loop {
            for i in 0..100_000u64 {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
            }
            let used = CpuUse::between(
                start,
                CpuMark::now(ServerProc::OwnProcess),
                ServerProc::OwnProcess,
            );
            if used.own.is_some_and(|d| d > Duration::ZERO) || std::time::Instant::now() >= deadline
            {
                break used;
            }
        };
        assert!(used.own.is_some_and(|d| d > Duration::ZERO), "{used:?}");
        assert!(used.server.is_none() && used.server_in_process);
        assert_eq!(used.server_us_per(10), None);
        let separate = CpuUse {
            server: Some(Duration::from_millis(3)),
            ..used
        };
        assert_eq!(separate.server_us_per(3), Some(1000.0));
        assert_eq!(separate.server_us_per(0), None, "no operations, no figure");
        assert_eq!(ServerProc::Unknown.rss(), None);
    }
}
