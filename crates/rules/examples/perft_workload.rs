//! One named perft workload per process, for the instruction-count guard
//! (`scripts/perft-guard`, issue 28): valgrind counts the whole process, so the process does
//! nothing but set up one position and count its tree (no clock, no output but one line).
//!
//! ```text
//! cargo build --release -p chessd-rules --example perft_workload
//! target/release/examples/perft_workload --list          # the workloads' names, one a line
//! target/release/examples/perft_workload chess-start-d5  # prints `chess-start-d5 nodes=4865609`
//! target/release/examples/perft_workload --fixed-cost chess-start-d5  # the same at depth 0
//! ```
//!
//! `--fixed-cost` does everything the workload does but count (process start, the position
//! set up, perft at depth 0), so the guard can subtract what no change to the generator moves
//! and a 2% slower generator reads as 2% even on the smallest workload.
//!
//! The node count is printed so the guard can check the tree is the one its baseline measured:
//! a generator that got faster by missing moves must not pass as an improvement. An unknown
//! name prints one line on stderr and exits with 2.

use std::process::ExitCode;

use chessd_rules::{Position, Variant};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// A workload: its name, its variant, its FEN (`None`: the variant's start) and its depth.
type Workload = (&'static str, Variant, Option<&'static str>, u32);

/// Issue 28's three, then the other lichess variants' starts (Chess960 is chess's generator
/// from another start). The variants go a ply deeper than the issue's racing kings, to the
/// plies where their own rules bite often (captures for atomic and antichess, drops for
/// crazyhouse, checks for three-check), and still cost each under a second under valgrind
/// (100 to 300 million instructions).
const WORKLOADS: &[Workload] = &[
    ("chess-start-d5", Variant::Chess, None, 5),
    ("kiwipete-d4", Variant::Chess, Some(KIWIPETE), 4),
    ("racingkings-start-d4", Variant::RacingKings, None, 4),
    ("threecheck-start-d5", Variant::ThreeCheck, None, 5),
    ("kingofthehill-start-d5", Variant::KingOfTheHill, None, 5),
    ("antichess-start-d5", Variant::Antichess, None, 5),
    ("atomic-start-d5", Variant::Atomic, None, 5),
    ("horde-start-d6", Variant::Horde, None, 6),
    ("crazyhouse-start-d5", Variant::Crazyhouse, None, 5),
];

fn run(name: &str, fixed_cost: bool) -> Result<u64, String> {
    let &(_, variant, fen, depth) = WORKLOADS
        .iter()
        .find(|w| w.0 == name)
        .ok_or_else(|| format!("no workload named {name:?} (--list names them)"))?;
    let position = match fen {
        Some(fen) => Position::from_fen(variant, fen).map_err(|e| format!("{fen:?}: {e}"))?,
        None => Position::new(variant),
    };
    let depth = if fixed_cost { 0 } else { depth };
    // Opaque to the optimiser, so the count is never folded into the binary.
    Ok(std::hint::black_box(&position).perft(std::hint::black_box(depth)))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [flag] if flag == "--list" => {
            for (name, ..) in WORKLOADS {
                println!("{name}");
            }
            ExitCode::SUCCESS
        }
        [name] => report(name, run(name, false)),
        [flag, name] if flag == "--fixed-cost" => report(name, run(name, true)),
        _ => {
            eprintln!("usage: perft_workload [--fixed-cost] NAME | --list");
            ExitCode::from(2)
        }
    }
}

fn report(name: &str, nodes: Result<u64, String>) -> ExitCode {
    match nodes {
        Ok(nodes) => {
            println!("{name} nodes={nodes}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("perft_workload: {e}");
            ExitCode::from(2)
        }
    }
}
