//! The play phase: `--games` tables, each playing games one after another (its watchers
//! first, then its two bots), over the measured window; returns what was measured.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use chessd_proto as pb;
use chessd_rules::{Color, any::AnyPosition};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio::time::{sleep, sleep_until, timeout};
use tonic::transport::Channel;

use crate::channels::{self, CALL_TIMEOUT};
use crate::error::BenchError;
use crate::flags::{PlayArgs, Turns};
use crate::load::bots::{handoff_bot, watching_bot};
use crate::load::shared::{SendTimes, Shared, Stats, Table};
use crate::load::watchers::{Client, watcher};
use crate::replicas::{Probe, ProbeMark};
use crate::report::measure::{CpuMark, CpuUse, ServerProc};
use crate::timed::TimeControl;
use chessd::api::encode::proto_variant;

/// How long a table waits after a refused CreateGame before it asks again.
const CREATE_RETRY: Duration = Duration::from_millis(100);

/// What the play phase measured.
pub struct PlayFigures {
    pub stats: Stats,
    /// CPU over the measured window (its wall time included).
    pub cpu: CpuUse,
    /// The server's resident memory and its peak at the end of the window.
    pub rss: Option<(u64, u64)>,
    /// The probe's readings at the window's start and end.
    pub probe: (ProbeMark, ProbeMark),
    /// The server's resident memory and its peak before the phase.
    pub rss_before: Option<(u64, u64)>,
}

impl PlayFigures {
    /// Measured SubmitMoves per second.
    pub fn moves_per_sec(&self) -> f64 {
        self.stats.moves_measured as f64 / self.cpu.window.as_secs_f64()
    }
}

/// Plays `args.play.games` games at once against `addrs` for the warm-up and the measured
/// window (or until the move budget is spent), then ends every game within a bounded time.
pub async fn play_phase(
    args: &PlayArgs,
    addrs: &[SocketAddr],
    server: ServerProc,
    probe: &mut Probe,
) -> Result<PlayFigures, BenchError> {
    let rss_before = server.rss();
    // A watching bot holds its stream and a SubmitMove at times: room for both seats' on the
    // players' connections, or calls beyond a connection's stream limit would queue.
    let player_streams = match args.play.turns {
        Turns::Watch => 3 * args.play.games,
        Turns::Handoff => args.play.games,
    };
    let players = channels::connect_all(
        addrs,
        channels::for_streams(player_streams, args.play.connections),
    )
    .await?;
    let watchers = if args.watchers > 0 {
        let streams = args.play.games * args.watchers;
        let n = channels::for_streams(streams, args.watcher_connections);
        channels::connect_all(addrs, n).await?
    } else {
        Vec::new()
    };
    let shared = Arc::new(Shared::new(args)?);
    let mut tables = JoinSet::new();
    // With several replicas, a game's two bots talk to different ones, so every move crosses
    // replicas on its way to the opponent's watch stream.
    let step = usize::from(addrs.len() > 1);
    for i in 0..args.play.games {
        let seats = [
            players[i % players.len()].clone(),
            players[(i + step) % players.len()].clone(),
        ];
        let watcher_channels: Vec<Channel> = (0..args.watchers)
            .map(|j| watchers[(i * args.watchers + j) % watchers.len()].clone())
            .collect();
        let spec = TableSpec {
            start: args.timed.start_delay(i, args.play.games),
            control: args.timed.control(i),
            flagger: args.timed.flagger(i),
        };
        tables.spawn(table(
            shared.clone(),
            seats,
            watcher_channels,
            args.play.turns,
            spec,
        ));
    }
    // Readings over the measured window only.
    sleep_until(shared.warm_end.into()).await;
    let probe_start = probe.mark().await?;
    let start = CpuMark::now(server);
    let budget_done = async {
        while shared.playing() {
            sleep(Duration::from_millis(20)).await;
        }
    };
    // The window ends at the deadline or when the move budget ran out.
    tokio::select! {
        () = sleep_until(shared.end.into()) => {}
        () = budget_done => {}
    }
    let end = CpuMark::now(server);
    let probe_end = probe.mark().await;
    let rss = server.rss();
    shared.stop();
    // Tables end their games (a resignation) and return; give them a bounded time.
    let drained = timeout(CALL_TIMEOUT * 2, async {
        while tables.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tables.abort_all();
    }
    let stats = shared.stats().clone();
    Ok(PlayFigures {
        stats,
        cpu: CpuUse::between(start, end, server),
        rss,
        probe: (probe_start, probe_end?),
        rss_before,
    })
}

/// How one table plays (`--time-control`, `--flag-share`, `--ramp`).
struct TableSpec {
    /// When its first game starts, after the phase's start.
    start: Duration,
    control: Option<TimeControl>,
    flagger: bool,
}

/// Plays games one after another on one table; `seats` are White's and Black's connections.
async fn table(
    shared: Arc<Shared>,
    seats: [Channel; 2],
    watchers: Vec<Channel>,
    turns: Turns,
    spec: TableSpec,
) {
    let mut client = Client::new(seats[0].clone());
    sleep(spec.start).await;
    while shared.playing() {
        let created = client
            .create_game(pb::CreateGameRequest {
                variant: proto_variant(shared.variant),
                variant_key: shared.variant.key().into(),
                white_player: "bench-w".into(),
                black_player: "bench-b".into(),
                time_control: spec.control.map(TimeControl::proto),
                ..Default::default()
            })
            .await;
        let created = match created {
            Ok(r) => r.into_inner(),
            Err(status) => {
                shared.stats().errors.add(status.code());
                sleep(CREATE_RETRY).await;
                continue;
            }
        };
        let Some(game) = created.game else { return };
        let table = Arc::new(Table {
            id: game.game_id,
            auth: [created.white_token, created.black_token]
                .map(|token| format!("Bearer {token}").parse().ok()),
            sent: SendTimes::default(),
            flagger: spec.flagger,
        });
        let mut tasks = JoinSet::new();
        // Watchers first, so they see every move.
        let (ready_tx, mut ready_rx) = mpsc::channel::<()>(watchers.len().max(1));
        for channel in &watchers {
            tasks.spawn(watcher(
                shared.clone(),
                Client::new(channel.clone()),
                table.clone(),
                ready_tx.clone(),
            ));
        }
        drop(ready_tx);
        let all_ready = timeout(CALL_TIMEOUT, async {
            while ready_rx.recv().await.is_some() {}
        })
        .await;
        if all_ready.is_err() {
            shared.stats().stream_failures += 1;
        }
        match turns {
            Turns::Watch => {
                for color in Color::ALL {
                    tasks.spawn(watching_bot(
                        shared.clone(),
                        seats[color.index()].clone(),
                        table.clone(),
                        color,
                    ));
                }
            }
            Turns::Handoff => {
                let (white_tx, white_rx) = mpsc::channel(1);
                let (black_tx, black_rx) = mpsc::channel(1);
                // The first turn: White to move from the start.
                if white_tx
                    .try_send((AnyPosition::new(shared.variant), 0u32))
                    .is_err()
                {
                    return;
                }
                tasks.spawn(handoff_bot(
                    shared.clone(),
                    seats[0].clone(),
                    table.clone(),
                    Color::White,
                    white_rx,
                    black_tx.clone(),
                ));
                tasks.spawn(handoff_bot(
                    shared.clone(),
                    seats[1].clone(),
                    table.clone(),
                    Color::Black,
                    black_rx,
                    white_tx,
                ));
                drop(black_tx);
            }
        }
        while tasks.join_next().await.is_some() {}
    }
}
