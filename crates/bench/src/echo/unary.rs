//! `chessd-bench echo load-unary`: `--concurrency` callers over `--connections` HTTP/2
//! connections, each with one Echo call in flight at a time, for a warm-up and a measured
//! window.
//!
//! It measures as `chessd-bench --turns handoff` measures SubmitMove: a call counts when it
//! starts after the warm-up and ends before the deadline; the server's CPU (from `/proc`,
//! with `--server-pid`) and this process's over the same window; no per-call deadline (a
//! `grpc-timeout` would cost the server a timer per call), and a bounded drain after the
//! window instead.

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use prost::Message;
use tokio::task::JoinSet;
use tokio::time::{sleep, sleep_until, timeout};

use super::{EchoRequest, EchoServiceClient, sample_move};
use crate::channels::{self, CALL_TIMEOUT};
use crate::error::BenchError;
use crate::flags::UnaryArgs;
use crate::report::measure::field;
use crate::report::measure::{CodeCounts, CpuMark, CpuUse, Latency, ServerProc};
use crate::report::{cpu_line, latency_summary, write_lines};

/// A failed call's pause before the next, so a server that is gone is not spun against.
const ERROR_PAUSE: Duration = Duration::from_millis(10);

/// What one caller saw.
struct Caller {
    latency: Latency,
    measured: u64,
    errors: CodeCounts,
}

/// Runs the load and writes its report to `out`.
pub async fn run(args: &UnaryArgs, out: &mut dyn Write) -> Result<(), BenchError> {
    args.check()?;
    let addr = args.target.addr;
    let server = ServerProc::external(args.target.server_pid);
    let template = EchoRequest {
        r#move: Some(sample_move(0)),
    };
    write_lines(
        out,
        [format!(
            "chessd-bench echo load-unary: server {addr}, connections={} concurrency={}, request {} bytes",
            args.connections,
            args.concurrency,
            template.encoded_len()
        )],
    )?;
    let connections = channels::connect_all(&[addr], args.connections).await?;
    let warm_end = Instant::now() + args.warmup;
    let end = warm_end + args.duration;
    let template = Arc::new(template);
    let mut callers = JoinSet::new();
    for i in 0..args.concurrency {
        let client = EchoServiceClient::new(connections[i % connections.len()].clone());
        callers.spawn(caller(client, template.clone(), warm_end, end));
    }
    sleep_until(warm_end.into()).await;
    let start = CpuMark::now(server);
    sleep_until(end.into()).await;
    let cpu = CpuUse::between(start, CpuMark::now(server), server);

    let mut latency = Latency::new()?;
    let mut errors = CodeCounts::default();
    let mut calls = 0u64;
    let drained = timeout(CALL_TIMEOUT, async {
        while let Some(done) = callers.join_next().await {
            if let Ok(Ok(c)) = done {
                latency.merge(&c.latency);
                errors.merge(&c.errors);
                calls += c.measured;
            }
        }
    })
    .await;
    if drained.is_err() {
        callers.abort_all();
    }
    let secs = cpu.window.as_secs_f64();
    write_lines(
        out,
        [
            format!(
                "calls: {calls} in {secs:.2} s measured = {:.0} calls/s",
                calls as f64 / secs
            ),
            format!("Echo latency: {}", latency_summary(&latency)),
            format!(
                "errors: {}{}",
                errors.list(),
                if drained.is_err() {
                    ", callers still waiting at the drain's end: stopped"
                } else {
                    ""
                }
            ),
            cpu_line(&cpu, calls, "call"),
            format!(
                "RESULT echo-unary connections={} concurrency={} calls={calls} calls_per_s={:.0} p50_us={:.1} p99_us={:.1} p999_us={:.1} server_cpu_us_per_call={}",
                args.connections,
                args.concurrency,
                calls as f64 / secs,
                latency.quantile_us(0.5),
                latency.quantile_us(0.99),
                latency.quantile_us(0.999),
                field(cpu.server_us_per(calls)),
            ),
        ],
    )
}

/// One caller: calls back to back until the deadline.
async fn caller(
    mut client: EchoServiceClient<tonic::transport::Channel>,
    template: Arc<EchoRequest>,
    warm_end: Instant,
    end: Instant,
) -> Result<Caller, BenchError> {
    let mut seen = Caller {
        latency: Latency::new()?,
        measured: 0,
        errors: CodeCounts::default(),
    };
    loop {
        let t0 = Instant::now();
        if t0 >= end {
            return Ok(seen);
        }
        // A fresh request per call, as a client builds one per move.
        let request = EchoRequest::clone(&template);
        match client.echo(request).await {
            Ok(_) => {
                let t1 = Instant::now();
                if t0 >= warm_end && t1 <= end {
                    seen.measured += 1;
                    seen.latency.record(t1 - t0);
                }
            }
            Err(status) => {
                seen.errors.add(status.code());
                sleep(ERROR_PAUSE).await;
            }
        }
    }
}
