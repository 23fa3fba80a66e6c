//! `chessd-bench echo load-fanout`: `--subscribers` streams on one topic over
//! `--connections` HTTP/2 connections, and one publisher on its own connection sending
//! `--messages` moves at `--rate` per second.
//!
//! It measures as `chessd-bench --watchers` measures WatchGame: every stream is open before
//! the first move; a delivery's latency runs from the publisher's send (stamped in the move,
//! on this process's clock) to the stream's receipt; the publisher thinks `1 / --rate`
//! before each move and waits for its answer, as a bot does; the server's CPU is read from
//! the first send until the last stream has its last move.

use std::io::Write;
use std::time::{Duration, Instant};

use prost::Message;
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio::time::{sleep, timeout, timeout_at};
use tonic::transport::Channel;

use super::{EchoServiceClient, PublishRequest, SubscribeRequest, TOPIC, sample_move};
use crate::channels::{self, CALL_TIMEOUT};
use crate::error::{BenchError, fail};
use crate::flags::FanoutArgs;
use crate::report::measure::field;
use crate::report::measure::{CodeCounts, CpuMark, CpuUse, Latency, ServerProc};
use crate::report::{cpu_line, latency_summary, write_lines};

/// What one stream saw.
struct Stream {
    latency: Latency,
    received: u64,
    /// The stream broke or fell silent before the last move.
    broken: bool,
}

/// Runs the load and writes its report to `out`.
pub async fn run(args: &FanoutArgs, out: &mut dyn Write) -> Result<(), BenchError> {
    args.check()?;
    let addr = args.target.addr;
    let server = ServerProc::external(args.target.server_pid);
    let n = channels::for_streams(args.subscribers, args.connections);
    let sample = PublishRequest {
        topic: TOPIC.into(),
        r#move: Some(sample_move(u64::MAX / 2)),
    };
    write_lines(
        out,
        [format!(
            "chessd-bench echo load-fanout: server {addr}, subscribers={} over {n} connections, messages={} rate={}, publish {} bytes",
            args.subscribers,
            args.messages,
            if args.rate > 0.0 {
                format!("{}/s", args.rate)
            } else {
                "max".into()
            },
            sample.encoded_len()
        )],
    )?;
    let connections = channels::connect_all(&[addr], n).await?;
    let mut publisher = EchoServiceClient::new(channels::connect(addr).await?);

    let base = Instant::now();
    let messages = u64::from(args.messages);
    let pause = (args.rate > 0.0).then(|| Duration::from_secs_f64(1.0 / args.rate));
    // The whole run's bound: subscribing, every pause and every publish, and the drain.
    let hard_end =
        base + CALL_TIMEOUT * 2 + pause.unwrap_or(Duration::ZERO) * args.messages + CALL_TIMEOUT;
    let (ready_tx, mut ready_rx) = mpsc::channel::<()>(args.subscribers);
    let mut streams = JoinSet::new();
    for i in 0..args.subscribers {
        let client = EchoServiceClient::new(connections[i % connections.len()].clone());
        streams.spawn(subscriber(
            client,
            base,
            messages,
            hard_end,
            ready_tx.clone(),
        ));
    }
    drop(ready_tx);
    let mut open = 0usize;
    let subscribed = timeout(CALL_TIMEOUT * 2, async {
        while ready_rx.recv().await.is_some() {
            open += 1;
        }
    })
    .await;
    if subscribed.is_err() || open < args.subscribers {
        streams.abort_all();
        return Err(BenchError::new(format!(
            "only {open} of {} streams opened",
            args.subscribers
        )));
    }

    let start = CpuMark::now(server);
    let mut errors = CodeCounts::default();
    for _ in 0..args.messages {
        if let Some(pause) = pause {
            sleep(pause).await;
        }
        let mut request = sample.clone();
        if let Some(m) = request.r#move.as_mut() {
            m.sent_nanos = nanos_since(base);
        }
        match timeout_at(hard_end.into(), publisher.publish(request)).await {
            Ok(Ok(_)) => {}
            Ok(Err(status)) => errors.add(status.code()),
            Err(_) => return Err(fail("publish", "no answer before the run's deadline")),
        }
    }

    let mut latency = Latency::new()?;
    let (mut received, mut broken) = (0u64, 0u64);
    while let Some(done) = streams.join_next().await {
        if let Ok(Ok(s)) = done {
            latency.merge(&s.latency);
            received += s.received;
            broken += u64::from(s.broken);
        } else {
            broken += 1;
        }
    }
    let cpu = CpuUse::between(start, CpuMark::now(server), server);
    let expected = messages * args.subscribers as u64;
    let secs = cpu.window.as_secs_f64();
    write_lines(
        out,
        [
            format!(
                "deliveries: {received} of {expected} ({} lost) in {secs:.2} s = {:.0} deliveries/s",
                expected.saturating_sub(received),
                received as f64 / secs
            ),
            format!(
                "delivery latency (publish send to receipt): {}",
                latency_summary(&latency)
            ),
            format!("errors: {}, broken streams: {broken}", errors.list()),
            cpu_line(&cpu, received, "delivery"),
            format!(
                "RESULT echo-fanout subscribers={} messages={} deliveries={received} lost={} delivery_p50_us={:.1} delivery_p99_us={:.1} delivery_p999_us={:.1} server_cpu_us_per_delivery={}",
                args.subscribers,
                args.messages,
                expected.saturating_sub(received),
                latency.quantile_us(0.5),
                latency.quantile_us(0.99),
                latency.quantile_us(0.999),
                field(cpu.server_us_per(received)),
            ),
        ],
    )
}

fn nanos_since(base: Instant) -> u64 {
    u64::try_from(base.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// One stream: opens, says `ready`, and records every move until it has `messages` of them.
async fn subscriber(
    mut client: EchoServiceClient<Channel>,
    base: Instant,
    messages: u64,
    hard_end: Instant,
    ready: mpsc::Sender<()>,
) -> Result<Stream, BenchError> {
    let mut seen = Stream {
        latency: Latency::new()?,
        received: 0,
        broken: false,
    };
    let request = SubscribeRequest {
        topic: TOPIC.into(),
    };
    let Ok(Ok(response)) = timeout(CALL_TIMEOUT, client.subscribe(request)).await else {
        seen.broken = true;
        return Ok(seen);
    };
    let mut stream = response.into_inner();
    // The receiver may have given up waiting; then the run stops anyway.
    let _ = ready.try_send(());
    drop(ready);
    while seen.received < messages {
        match timeout_at(hard_end.into(), stream.message()).await {
            Ok(Ok(Some(delivery))) => {
                let now = nanos_since(base);
                seen.received += 1;
                if let Some(m) = delivery.r#move {
                    seen.latency.record_nanos(now.saturating_sub(m.sent_nanos));
                }
            }
            _ => {
                seen.broken = true;
                break;
            }
        }
    }
    Ok(seen)
}
