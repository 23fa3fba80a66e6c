//! perft from the command line with the same interface as the shakmaty anchor
//! (`../shared/anchors/perft-shakmaty`), so the two binaries can be timed side by side, whole
//! process, on the same positions (`tools/bench-perft.sh` does that):
//!
//! ```text
//! cargo run --release -p chessd-rules --example perft -- --variant chess --depth 6
//! cargo run --release -p chessd-rules --example perft -- --variant chess960 --depth 5 \
//!     --fen 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9'
//! cargo run --release -p chessd-rules --example perft -- --variant janus --depth 5
//! cargo run --release -p chessd-rules --example perft -- --variant shogi --depth 5 \
//!     --sfen 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1'
//! ```
//!
//! `--variant` also takes the wide family's games (`janus`, `grand`, ...) and `xiangqi`, with
//! the same interface as Fairy-Stockfish's anchor
//! (`../shared/anchors/perft-fairy-stockfish/perft.sh`; for xiangqi, `--divide` prints each
//! legal move's count, sorted, and the total instead of the timing line), and `shogi` and
//! `minishogi`, whose `--fen` (or `--sfen`) takes FSF's FEN or USI's SFEN, as the shogi anchor
//! (`../shared/anchors/perft-shogi`) does.
//!
//! The last line is `nodes=N secs=S mnps=M`; the count is bulk (the last ply counted, not
//! played), as the anchor counts by default. `--cpu` makes `secs` the thread's CPU time (from
//! `/proc/thread-self/schedstat`, as the anchors' `--cpu` does) instead of wall time, steadier
//! on a shared machine. A bad argument prints one line and exits with 2.

use std::process::ExitCode;
use std::time::Instant;

use chessd_rules::shogi::{ShogiPosition, ShogiVariant};
use chessd_rules::wide::{WidePosition, WideVariant};
use chessd_rules::xiangqi::XiangqiPosition;
use chessd_rules::{Position, Variant};

fn run(args: &[String]) -> Result<String, String> {
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .map(|i| {
                args.get(i + 1)
                    .cloned()
                    .ok_or(format!("{name} needs a value"))
            })
            .transpose()
    };
    let cpu = args.iter().any(|a| a == "--cpu");
    let timed = |perft: &dyn Fn() -> u64| timed(perft, cpu);
    let name = flag("--variant")?.unwrap_or_else(|| "chess".to_string());
    let depth: u32 = flag("--depth")?
        .ok_or("--depth N is required")?
        .parse()
        .map_err(|_| "--depth: expected a whole number")?;
    if let Ok(shogi) = name.parse::<ShogiVariant>() {
        let text = match flag("--sfen")? {
            Some(sfen) => Some(sfen),
            None => flag("--fen")?,
        };
        let position = match text {
            Some(text) => {
                ShogiPosition::from_fen(shogi, &text).map_err(|e| format!("--fen {text:?}: {e}"))?
            }
            None => ShogiPosition::new(shogi),
        };
        return Ok(timed(&|| position.perft(depth)));
    }
    if name == "xiangqi" {
        let position = match flag("--fen")? {
            Some(fen) => {
                XiangqiPosition::from_fen(&fen).map_err(|e| format!("--fen {fen:?}: {e}"))?
            }
            None => XiangqiPosition::new(),
        };
        if args.iter().any(|a| a == "--divide") {
            return Ok(divide(&position, depth));
        }
        return Ok(timed(&|| position.perft(depth)));
    }
    if let Ok(wide) = name.parse::<WideVariant>() {
        let position = match flag("--fen")? {
            Some(fen) => {
                WidePosition::from_fen(wide, &fen).map_err(|e| format!("--fen {fen:?}: {e}"))?
            }
            None => WidePosition::new(wide),
        };
        return Ok(timed(&|| position.perft(depth)));
    }
    let variant: Variant = name.parse().map_err(|e| format!("--variant: {e}"))?;
    let position = match flag("--fen")? {
        Some(fen) => {
            Position::from_fen(variant, &fen).map_err(|e| format!("--fen {fen:?}: {e}"))?
        }
        None => Position::new(variant),
    };
    Ok(timed(&|| position.perft(depth)))
}

/// One `MOVE: NODES` line per legal move, sorted, then the total (as the anchor's `--divide`).
fn divide(position: &XiangqiPosition, depth: u32) -> String {
    let mut lines: Vec<(String, u64)> = position
        .divide(depth)
        .into_iter()
        .map(|(m, n)| (m.to_string(), n))
        .collect();
    lines.sort();
    let total: u64 = lines.iter().map(|(_, n)| n).sum();
    let mut out: String = lines.iter().map(|(m, n)| format!("{m}: {n}\n")).collect();
    out.push_str(&format!("nodes={total}"));
    out
}

/// This thread's CPU time so far, in seconds, where Linux reports it.
fn thread_cpu() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

fn timed(perft: &dyn Fn() -> u64, cpu: bool) -> String {
    let started = Instant::now();
    let cpu_started = thread_cpu();
    let nodes = perft();
    let wall = started.elapsed().as_secs_f64();
    let secs = match (cpu, cpu_started, thread_cpu()) {
        (true, Some(a), Some(b)) => b - a,
        _ => wall,
    };
    format!(
        "nodes={nodes} secs={secs:.4} mnps={:.1}",
        nodes as f64 / secs / 1e6
    )
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("perft: {e}");
            ExitCode::from(2)
        }
    }
}
