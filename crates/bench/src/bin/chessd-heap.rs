//! The `chessd-heap` binary: what the memory store keeps of a finished (or idle) game, in
//! bytes the allocator counted (see `chessd_bench::heap`). Its global allocator is mimalloc,
//! as chessd's, behind a counter of the bytes asked for and not yet freed.
//!
//! One `RESULT` line per length in `--plies`, each on a fresh store, and a `RESULT slope` line
//! with the bytes a ply adds between the shortest and the longest games.

use std::process::ExitCode;

use cap::Cap;
use chessd_bench::flags::parse_or_exit;
use chessd_bench::heap::{HeapPlan, measure};
use chessd_rules::any::AnyVariant;
use clap::Parser;

#[global_allocator]
static ALLOCATOR: Cap<mimalloc::MiMalloc> = Cap::new(mimalloc::MiMalloc, usize::MAX);

/// Memory per game held by chessd's memory store, counted by the allocator.
#[derive(Parser, Debug)]
#[command(name = "chessd-heap", version)]
struct Args {
    /// Games measured per length (after a warm-up of 256).
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    games: u32,
    /// The plies at which games are resigned, comma-separated; 0: games created and left idle.
    #[arg(long, value_delimiter = ',', default_values_t = [2u32, 80, 300])]
    plies: Vec<u32>,
    #[arg(long, default_value = "chess")]
    variant: AnyVariant,
    /// Games on a 5+3 clock.
    #[arg(long)]
    timed: bool,
    /// The feed's cap; 1 counts the games alone.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    feed_max_events: u32,
}

fn main() -> ExitCode {
    let args: Args = match parse_or_exit("chessd-heap") {
        Ok(args) => args,
        Err(code) => return code,
    };
    // One thread: the games are played one call after another, and nothing else allocates.
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("chessd-heap: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut figures = Vec::new();
    for &plies in &args.plies {
        let plan = HeapPlan {
            games: args.games as usize,
            plies,
            variant: args.variant,
            timed: args.timed,
            feed_max_events: args.feed_max_events as usize,
        };
        let f = runtime.block_on(measure(plan, || ALLOCATOR.allocated()));
        println!(
            "RESULT heap variant={} timed={} feed_max_events={} resign_at={plies} games={} \
             plies_per_game={:.1} bytes_per_game={:.0}",
            args.variant,
            args.timed,
            args.feed_max_events,
            f.games,
            f.plies as f64 / f.games as f64,
            f.per_game(),
        );
        figures.push(f);
    }
    let played: Vec<_> = figures.iter().filter(|f| f.plies > 0).collect();
    if let (Some(short), Some(long)) = (played.first(), played.last())
        && long.plies > short.plies
    {
        let plies = long.plies as f64 / long.games as f64 - short.plies as f64 / short.games as f64;
        println!(
            "RESULT slope bytes_per_ply={:.1}",
            (long.per_game() - short.per_game()) / plies
        );
    }
    ExitCode::SUCCESS
}
