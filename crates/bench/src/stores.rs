//! `chessd-bench stores`: SubmitMove on an in-process chessd in memory and on SQLite
//! (`--data-dir`, with `--sync full` and `--sync normal`), one store after another in each
//! round, and the medians side by side with their ratio to memory.
//!
//! Each store gets a fresh server and, for SQLite, a fresh folder, removed after its run. The
//! play is the default mode's (the same bots, flags and measured window), without watchers or
//! idle games.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{BenchError, fail};
use crate::flags::{PlayArgs, StoresArgs};
use crate::load::play::{PlayFigures, play_phase};
use crate::replicas::Probe;
use crate::report;
use crate::report::measure::{ServerProc, median};
use crate::server::{LocalServer, Room, Store};
use crate::timed::TimedArgs;

/// The stores compared, by the name the report gives them and the SQLite sync mode.
const STORES: [(&str, Option<&str>); 3] = [
    ("memory", None),
    ("sqlite sync=full", Some("full")),
    ("sqlite sync=normal", Some("normal")),
];

/// Runs every round and writes the report to `out`.
pub async fn run(args: &StoresArgs, out: &mut dyn Write) -> Result<(), BenchError> {
    args.check()?;
    let play = PlayArgs {
        addr: Vec::new(),
        server_pid: Vec::new(),
        redis: Vec::new(),
        play: args.play.clone(),
        watchers: 0,
        watcher_connections: 1,
        rate: 0.0,
        max_moves: 0,
        idle_games: 0,
        finished_games: 0,
        finished_plies: 0,
        timed: TimedArgs::default(),
    };
    let parent = args.data_dir.clone().unwrap_or_else(std::env::temp_dir);
    report::write_lines(
        out,
        [format!(
            "chessd-bench stores: in-process server, games={} turns={:?} view={:?} connections={} {} s per store, {} rounds, SQLite under {}",
            args.play.games,
            args.play.turns,
            args.play.view,
            args.play.connections,
            args.play.duration.as_secs_f64(),
            args.rounds,
            parent.display(),
        )],
    )?;
    let mut rates: Vec<Vec<f64>> = vec![Vec::new(); STORES.len()];
    for round in 1..=args.rounds {
        for (i, &(name, sync)) in STORES.iter().enumerate() {
            let dir = match sync {
                Some(_) => Some(scratch_dir(&parent, round, i)?),
                None => None,
            };
            let store = match (&dir, sync) {
                (Some(dir), Some(sync)) => Store::Sqlite {
                    dir: dir.clone(),
                    sync,
                },
                _ => Store::Memory,
            };
            let result = measure(&play, &store).await;
            if let Some(dir) = &dir {
                // Best effort: a leftover folder in the temporary folder is harmless, and
                // the run's result matters more than the clean-up.
                let _ = std::fs::remove_dir_all(dir);
            }
            let figures = result?;
            rates[i].push(figures.moves_per_sec());
            report::write_lines(out, [report::store_round(round, name, &figures)])?;
        }
    }
    let medians: Vec<(&str, f64)> = STORES
        .iter()
        .zip(&mut rates)
        .map(|(&(name, _), r)| (name, median(r)))
        .collect();
    report::write_lines(out, report::stores_summary(&medians))
}

/// One store's run: a fresh server, the play phase, the server stopped.
async fn measure(play: &PlayArgs, store: &Store) -> Result<PlayFigures, BenchError> {
    let room = Room {
        games: 2 * play.play.games,
        watchers_per_game: 0,
    };
    let server = LocalServer::start(store, room)?;
    let figures = play_phase(
        play,
        &[server.addr],
        ServerProc::OwnProcess,
        &mut Probe::none(),
    )
    .await;
    drop(server);
    figures
}

/// A folder of its own for one SQLite run, created empty so a run never reads another's
/// games.
fn scratch_dir(parent: &Path, round: usize, store: usize) -> Result<PathBuf, BenchError> {
    let dir = parent.join(format!(
        "chessd-bench-stores-{}-{round}-{store}",
        std::process::id()
    ));
    // A leftover of an earlier process with the same pid; usually there is none.
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| fail(&format!("create {}", dir.display()), e))?;
    Ok(dir)
}
