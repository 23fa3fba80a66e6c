//! The report lines of a timed run at scale: how late flags fell, and the server's memory
//! grown per game and per watch stream over the play phase.
//!
//! Printed after the play phase's own lines, each with its `RESULT` line for scripts
//! (`scripts/bench-many-games`).

use crate::flags::PlayArgs;
use crate::load::play::PlayFigures;

const MIB: f64 = 1024.0 * 1024.0;

/// The lines for timed games (none for an untimed run).
pub fn lines(args: &PlayArgs, figures: &PlayFigures) -> Vec<String> {
    let mut lines = Vec::new();
    if args.timed.time_control.is_some() {
        let f = &figures.stats.flags;
        let ms = |us: f64| us / 1e3;
        // Receipt, then the server's event: p50, p99 and max of each, in milliseconds.
        let [p50, p99, max, server_p50, server_p99, server_max] = [
            f.late.quantile_us(0.5),
            f.late.quantile_us(0.99),
            f.late.max_us(),
            f.server_late.quantile_us(0.5),
            f.server_late.quantile_us(0.99),
            f.server_late.max_us(),
        ]
        .map(ms);
        lines.push(format!(
            "flags: {} fell in the window (as {} watcher streams saw them; {} before the due moment by the server's ms rounding, {} without clocks): due-to-receipt p50 {p50:.1} ms, p99 {p99:.1} ms, max {max:.1} ms; due-to-server-event p50 {server_p50:.1} ms, p99 {server_p99:.1} ms, max {server_max:.1} ms",
            f.late.count() / args.watchers.max(1) as u64,
            f.late.count(),
            f.early,
            f.unmeasured,
        ));
        lines.push(format!(
            "RESULT flags seen={} late_p50_ms={p50:.1} late_p99_ms={p99:.1} late_max_ms={max:.1} server_late_p50_ms={server_p50:.1} server_late_p99_ms={server_p99:.1} server_late_max_ms={server_max:.1}",
            f.late.count(),
        ));
    }
    if let (Some((before, _)), Some((after, peak))) = (figures.rss_before, figures.rss)
        && !figures.cpu.server_in_process
        && args.play.games > 0
    {
        let grown = after.saturating_sub(before) as f64;
        // Streams held: every watcher's and, with watching bots, both seats'.
        let bots = match args.play.turns {
            crate::flags::Turns::Watch => 2,
            crate::flags::Turns::Handoff => 0,
        };
        let streams = args.play.games * (args.watchers + bots);
        lines.push(format!(
            "server memory grown over the play phase: {:.1} MiB (peak {:.1} MiB) = {:.0} KiB per game with its {} streams, {:.1} KiB per stream",
            grown / MIB,
            peak as f64 / MIB,
            grown / 1024.0 / args.play.games as f64,
            args.watchers + bots,
            grown / 1024.0 / streams.max(1) as f64,
        ));
        lines.push(format!(
            "RESULT memory rss_before={before} rss_after={after} rss_peak={peak} games={} streams={streams}",
            args.play.games
        ));
    }
    lines
}
