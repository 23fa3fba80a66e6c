//! `chessd-bench play` (the default mode) end to end: the target (a running chessd, or one
//! started in this process), the play phase, then the idle-games phase, each reported as it
//! ends.

use std::io::Write;
use std::net::SocketAddr;

use crate::error::BenchError;
use crate::flags::PlayArgs;
use crate::idle::idle_phase;
use crate::measure::ServerProc;
use crate::play::play_phase;
use crate::report;
use crate::server::{LocalServer, Room, Store};

/// Runs the bench and writes its report to `out`.
pub async fn run(args: &PlayArgs, out: &mut dyn Write) -> Result<(), BenchError> {
    args.check()?;
    let local = if args.addr.is_empty() {
        let room = Room {
            games: args.idle_games + 2 * args.play.games,
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
        None => ServerProc::external(args.server_pid),
    };
    report::write_lines(out, [report::header(args, &addrs, local.is_some())])?;
    if args.play.games > 0 {
        let figures = play_phase(args, &addrs, server).await?;
        report::write_lines(out, report::play(args, &figures))?;
        report::write_lines(out, crate::many::lines(args, &figures))?;
    }
    if args.idle_games > 0 {
        let figures = idle_phase(
            args.idle_games,
            args.play.variant,
            &addrs,
            args.play.connections,
            server,
        )
        .await?;
        report::write_lines(out, report::idle(&figures))?;
    }
    drop(local);
    Ok(())
}
