//! The report: the lines the bench prints, for a person (`moves: ...`, `SubmitMove latency:
//! ...`) and for scripts (one `RESULT` line per measurement, `key=value` fields).
//!
//! `scripts/bench-anchor`, `scripts/bench-replicas` and `scripts/bench-scale` read these lines:
//! a change to a line's start or to a `RESULT` field name is a change to them too.
//!
//! What the lines are made of is measured in `measure` (histograms, `/proc` memory and CPU).

pub mod measure;

use std::io::Write;
use std::net::SocketAddr;

use crate::error::{BenchError, fail};
use crate::flags::PlayArgs;
use crate::load::finished::FinishedFigures;
use crate::load::idle::IdleFigures;
use crate::load::play::PlayFigures;
use crate::report::measure::{CpuUse, Latency, field};

const MIB: f64 = 1024.0 * 1024.0;

/// Writes `lines` to `out`, each ended by a newline, and flushes (the report may be piped).
pub fn write_lines(
    out: &mut dyn Write,
    lines: impl IntoIterator<Item = String>,
) -> Result<(), BenchError> {
    for line in lines {
        writeln!(out, "{line}").map_err(|e| fail("output", e))?;
    }
    out.flush().map_err(|e| fail("output", e))
}

/// The first line: what is loaded and how.
pub fn header(args: &PlayArgs, addrs: &[SocketAddr], in_process: bool) -> String {
    let addrs: Vec<String> = addrs.iter().map(ToString::to_string).collect();
    format!(
        "chessd-bench: server {} ({}), games={} watchers/game={} turns={:?} view={:?} connections={} rate={} variant={}",
        addrs.join(" "),
        if in_process {
            "in this process"
        } else {
            "external"
        },
        args.play.games,
        args.watchers,
        args.play.turns,
        args.play.view,
        args.play.connections,
        if args.rate > 0.0 {
            format!("{}/s", args.rate)
        } else {
            "max".into()
        },
        args.play.variant.key(),
    )
}

/// `cpu: ...`: the server's and the load generator's share of the window and their time per
/// operation (`unit`: move, call, delivery).
pub fn cpu_line(cpu: &CpuUse, operations: u64, unit: &str) -> String {
    let secs = cpu.window.as_secs_f64();
    let ops = operations.max(1) as f64;
    let share = |d: std::time::Duration| {
        let s = d.as_secs_f64();
        format!("{:.0}% = {:.1} us/{unit}", 100.0 * s / secs, 1e6 * s / ops)
    };
    match (cpu.server, cpu.own) {
        (Some(server), Some(own)) => {
            format!(
                "cpu: server {}, load generator {}",
                share(server),
                share(own)
            )
        }
        (None, Some(own)) if cpu.server_in_process => {
            format!(
                "cpu: this process (server and load generator) {}",
                share(own)
            )
        }
        (None, Some(own)) => format!(
            "cpu: load generator {} (server not readable: pass --server-pid)",
            share(own)
        ),
        _ => "cpu: not readable".into(),
    }
}

/// `p50 .. us, p99 .. us, p99.9 .. us, max .. us`.
pub fn latency_summary(latency: &Latency) -> String {
    format!(
        "p50 {:.0} us, p99 {:.0} us, p99.9 {:.0} us, max {:.0} us",
        latency.quantile_us(0.5),
        latency.quantile_us(0.99),
        latency.quantile_us(0.999),
        latency.max_us()
    )
}

/// The play phase's lines.
pub fn play(args: &PlayArgs, figures: &PlayFigures) -> Vec<String> {
    let stats = &figures.stats;
    let secs = figures.cpu.window.as_secs_f64();
    let mut lines = vec![
        format!(
            "moves: {} in {secs:.2} s measured = {:.0} moves/s ({} in all, {} games finished)",
            stats.moves_measured,
            figures.moves_per_sec(),
            stats.moves_total,
            stats.games_finished
        ),
        format!("SubmitMove latency: {}", latency_summary(&stats.submit)),
        format!(
            "WatchGame delivery ({} recording streams/game, {} deliveries): send-to-receipt p50 {:.0} us, p99 {:.0} us, p99.9 {:.0} us; server-time-to-receipt p50 {:.1} ms, p99 {:.1} ms",
            args.watchers.max(1),
            stats.deliveries_measured,
            stats.delivery.quantile_us(0.5),
            stats.delivery.quantile_us(0.99),
            stats.delivery.quantile_us(0.999),
            stats.server_delivery.quantile_us(0.5) / 1e3,
            stats.server_delivery.quantile_us(0.99) / 1e3,
        ),
        format!(
            "errors: {}, broken streams: {}, moves after an automatic draw: {}",
            stats.errors.list(),
            stats.stream_failures,
            stats.late_moves
        ),
        cpu_line(&figures.cpu, stats.moves_measured, "move"),
    ];
    if let Some((rss, peak)) = figures.rss {
        lines.push(format!(
            "server memory: {:.1} MiB resident, peak {:.1} MiB{}",
            rss as f64 / MIB,
            peak as f64 / MIB,
            if figures.cpu.server_in_process {
                " (with the load generator)"
            } else {
                ""
            }
        ));
    }
    lines.push(format!(
        "RESULT bench games={} watchers={} turns={:?} view={:?} rate={} moves={} moves_per_s={:.0} submit_p50_us={:.1} submit_p99_us={:.1} submit_p999_us={:.1} deliveries={} delivery_p50_us={:.1} delivery_p99_us={:.1} delivery_p999_us={:.1} server_time_delivery_p99_ms={:.1} server_cpu_us_per_move={} server_cpu_us_per_delivery={} mean_ply={:.1}",
        args.play.games,
        args.watchers,
        args.play.turns,
        args.play.view,
        args.rate,
        stats.moves_measured,
        figures.moves_per_sec(),
        stats.submit.quantile_us(0.5),
        stats.submit.quantile_us(0.99),
        stats.submit.quantile_us(0.999),
        stats.deliveries_measured,
        stats.delivery.quantile_us(0.5),
        stats.delivery.quantile_us(0.99),
        stats.delivery.quantile_us(0.999),
        stats.server_delivery.quantile_us(0.99) / 1e3,
        field(figures.cpu.server_us_per(stats.moves_measured)),
        field(figures.cpu.server_us_per(stats.deliveries_measured)),
        stats.plies_measured as f64 / stats.moves_measured.max(1) as f64,
    ));
    lines
}

/// The idle-games phase's lines.
pub fn idle(figures: &IdleFigures) -> Vec<String> {
    let IdleFigures {
        made,
        refused,
        took,
        rss,
    } = figures;
    match (rss, figures.bytes_per_game()) {
        (Some((before, after)), Some(per_game)) => vec![
            format!(
                "idle games: {made} created in {:.1} s ({refused} refused); server RSS {:.1} -> {:.1} MiB = {per_game:.0} bytes per idle game",
                took.as_secs_f64(),
                *before as f64 / MIB,
                *after as f64 / MIB,
            ),
            format!(
                "RESULT idle games={made} rss_before={before} rss_after={after} bytes_per_game={per_game:.0}"
            ),
        ],
        _ => vec![format!(
            "idle games: {made} created ({refused} refused); server memory not readable (pass --server-pid with --addr)"
        )],
    }
}

/// The finished-games phase's lines.
pub fn finished(figures: &FinishedFigures) -> Vec<String> {
    let FinishedFigures {
        games,
        plies,
        failures,
        took,
        rss,
    } = figures;
    match (rss, figures.bytes_per_game(), figures.bytes_per_ply()) {
        (Some((before, after)), Some(per_game), Some(per_ply)) => vec![
            format!(
                "finished games: after the warm-up, {games} games played to their end ({plies} plies; {failures} failed calls, all in {:.1} s): server RSS {:.1} -> {:.1} MiB = {per_game:.0} bytes per game, {per_ply:.1} bytes per ply",
                took.as_secs_f64(),
                *before as f64 / MIB,
                *after as f64 / MIB,
            ),
            format!(
                "RESULT finished games={games} plies={plies} rss_before={before} rss_after={after} bytes_per_game={per_game:.0} bytes_per_ply={per_ply:.1}"
            ),
        ],
        _ => vec![format!(
            "finished games: {games} played ({plies} plies, {failures} failed calls); server memory not readable (pass --server-pid with --addr)"
        )],
    }
}

/// One store's line in one round of `stores`.
pub fn store_round(round: usize, store: &str, figures: &PlayFigures) -> String {
    let s = &figures.stats;
    format!(
        "round {round}: {store:<20} {:>7.0} moves/s  SubmitMove p50 {:.0} us, p99 {:.0} us  ({} moves, errors {})",
        figures.moves_per_sec(),
        s.submit.quantile_us(0.5),
        s.submit.quantile_us(0.99),
        s.moves_measured,
        s.errors.list(),
    )
}

/// The medians of `stores` per store, each against the first (memory), and its `RESULT` line.
pub fn stores_summary(medians: &[(&str, f64)]) -> Vec<String> {
    let Some(&(_, base)) = medians.first() else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    let mut result = String::from("RESULT stores");
    for &(store, median) in medians {
        let ratio = median / base.max(f64::MIN_POSITIVE);
        lines.push(format!(
            "{store}: median {median:.0} moves/s = {ratio:.2}x in memory"
        ));
        let key = store.replace([' ', '='], "_").replace(',', "");
        result.push_str(&format!(
            " {key}_moves_per_s={median:.0} {key}_ratio={ratio:.2}"
        ));
    }
    lines.push(result);
    lines
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn cpu(server: Option<u64>, own: Option<u64>, in_process: bool) -> CpuUse {
        CpuUse {
            window: Duration::from_secs(2),
            server: server.map(Duration::from_millis),
            own: own.map(Duration::from_millis),
            server_in_process: in_process,
        }
    }

    /// Shares are of the window, times are per operation; what cannot be read says so.
    #[test]
    fn cpu_lines() {
        assert_eq!(
            cpu_line(&cpu(Some(1000), Some(500), false), 1000, "call"),
            "cpu: server 50% = 1000.0 us/call, load generator 25% = 500.0 us/call"
        );
        assert!(cpu_line(&cpu(None, Some(500), true), 10, "move").contains("this process"));
        assert!(cpu_line(&cpu(None, Some(500), false), 10, "move").contains("--server-pid"));
        assert_eq!(
            cpu_line(&cpu(None, None, false), 10, "move"),
            "cpu: not readable"
        );
    }

    /// The summary's ratios are against the first store, with keys a script can read.
    #[test]
    fn stores_summary_ratios() {
        let lines = stores_summary(&[("memory", 2000.0), ("sqlite sync=full", 500.0)]);
        assert_eq!(
            lines[1],
            "sqlite sync=full: median 500 moves/s = 0.25x in memory"
        );
        assert_eq!(
            lines[2],
            "RESULT stores memory_moves_per_s=2000 memory_ratio=1.00 sqlite_sync_full_moves_per_s=500 sqlite_sync_full_ratio=0.25"
        );
    }

    /// Memory per idle game is the growth over the games made.
    #[test]
    fn idle_lines() {
        let f = IdleFigures {
            made: 1000,
            refused: 0,
            took: Duration::from_secs(1),
            rss: Some((10_000_000, 11_000_000)),
        };
        let lines = idle(&f);
        assert!(
            lines[0].ends_with("= 1000 bytes per idle game"),
            "{}",
            lines[0]
        );
        assert_eq!(
            lines[1],
            "RESULT idle games=1000 rss_before=10000000 rss_after=11000000 bytes_per_game=1000"
        );
        let unreadable = IdleFigures { rss: None, ..f };
        assert!(idle(&unreadable)[0].contains("not readable"));
    }
}
