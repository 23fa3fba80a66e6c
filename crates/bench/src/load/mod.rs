//! `chessd-bench play` (the default mode) end to end: the target (a running chessd, or one
//! started in this process), the play phase, then the idle-games phase, each reported as it
//! ends.
//!
//! The folder is that mode: `play` (the play phase) with `shared` (what its tasks share),
//! `bots` (the players, with `skim`, their SubmitMove answers decoded only as far as they
//! read them) and `watchers` (the spectators and delivery latency); `idle` (the idle-games
//! phase); `finished` (the finished-games phase).

pub mod bots;
pub mod finished;
pub mod idle;
pub mod play;
pub mod shared;
pub mod skim;
pub mod watchers;

use std::io::Write;
use std::net::SocketAddr;

use crate::error::BenchError;
use crate::flags::PlayArgs;
use crate::load::finished::{FinishedPlan, finished_phase};
use crate::load::idle::idle_phase;
use crate::load::play::play_phase;
use crate::replicas::Probe;
use crate::report;
use crate::report::measure::ServerProc;
use crate::server::{LocalServer, Room, Store};

/// Runs the bench and writes its report to `out`.
pub async fn run(args: &PlayArgs, out: &mut dyn Write) -> Result<(), BenchError> {
    args.check()?;
    let local = if args.addr.is_empty() {
        let room = Room {
            games: args.idle_games + args.finished_games + 2 * args.play.games,
            watchers_per_game: args.watchers,
        };
        Some(LocalServer::start(&Store::Memory, room)?)
    } else {
        None
    };
    let addrs: Vec<SocketAddr> = match &local {
        Some(l) => vec![l.addr],
        None => args.addr.clone(),
    };
    let server = match &local {
        Some(_) => ServerProc::OwnProcess,
        // With several replicas the main lines have no single server to read: the probe's
        // lines give each replica's.
        None if addrs.len() == 1 => ServerProc::external(args.server_pid.first().copied()),
        None => ServerProc::Unknown,
    };
    let mut probe = match &local {
        Some(_) => Probe::none(),
        None => Probe::new(&addrs, &args.server_pid, &args.redis).await?,
    };
    report::write_lines(out, [report::header(args, &addrs, local.is_some())])?;
    if args.play.games > 0 {
        let figures = play_phase(args, &addrs, server, &mut probe).await?;
        report::write_lines(out, report::play(args, &figures))?;
        let (start, end) = &figures.probe;
        let moves = figures.stats.moves_measured;
        report::write_lines(out, probe.lines(start, end, moves, "move", "moves"))?;
        report::write_lines(out, crate::timed::many::lines(args, &figures))?;
    }
    if args.idle_games > 0 {
        // The whole creation burst is the window (and the phase's short settling pause).
        let start = probe.mark().await?;
        let figures = idle_phase(
            args.idle_games,
            args.play.variant,
            &addrs,
            args.play.connections,
            server,
        )
        .await?;
        let end = probe.mark().await?;
        report::write_lines(out, report::idle(&figures))?;
        let made = u64::try_from(figures.made).unwrap_or(u64::MAX);
        report::write_lines(out, probe.lines(&start, &end, made, "game", "create"))?;
    }
    if args.finished_games > 0 {
        let plan = FinishedPlan {
            games: args.finished_games,
            resign_at: args.finished_plies,
            variant: args.play.variant,
            time_control: args.timed.time_control,
        };
        let figures = finished_phase(plan, &addrs, args.play.connections, server).await?;
        report::write_lines(out, report::finished(&figures))?;
    }
    drop(local);
    Ok(())
}
