//! The finished-games phase: `--finished-games` games played with random legal moves to their
//! end (or resigned at `--finished-plies`), and the server's resident memory around all but a
//! short warm-up, for what a finished game costs, per game and per ply.
//!
//! The games are played one SubmitMove at a time per game, many games at once, with no
//! watchers: the memory left behind is what the server keeps of a game once it is over (its
//! record, and its share of the feed while the feed keeps its events).

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use chessd_proto as pb;
use chessd_rules::any::{AnyPosition, AnyVariant};
use tokio::task::JoinSet;
use tokio::time::{sleep, timeout};

use crate::channels::{self, CALL_TIMEOUT};
use crate::error::BenchError;
use crate::load::bots::{Rng, authed};
use crate::load::watchers::Client;
use crate::report::measure::ServerProc;
use crate::timed::TimeControl;
use chessd::api::encode::proto_variant;

/// Games played at once.
const PLAYERS: usize = 64;
/// Games played before the measured ones: a few rounds of every player.
const WARM_UP: usize = 4 * PLAYERS;
/// Failed calls after which a player stops: a server that refuses keeps refusing.
const MAX_FAILURES: usize = 10;

/// How the phase plays.
#[derive(Clone, Copy)]
pub struct FinishedPlan {
    pub games: usize,
    /// The ply at which the side to move resigns (0: every game plays to its own end).
    pub resign_at: u32,
    pub variant: AnyVariant,
    pub time_control: Option<TimeControl>,
}

/// What the phase measured (after its warm-up: see [`finished_phase`]).
pub struct FinishedFigures {
    pub games: usize,
    pub plies: u64,
    pub failures: usize,
    pub took: Duration,
    /// The server's resident memory before and after, in bytes, where readable.
    pub rss: Option<(u64, u64)>,
}

impl FinishedFigures {
    /// RSS growth divided by the games finished.
    pub fn bytes_per_game(&self) -> Option<f64> {
        let (before, after) = self.rss?;
        (self.games > 0).then(|| after.saturating_sub(before) as f64 / self.games as f64)
    }

    /// RSS growth divided by the plies of the finished games.
    pub fn bytes_per_ply(&self) -> Option<f64> {
        let (before, after) = self.rss?;
        (self.plies > 0).then(|| after.saturating_sub(before) as f64 / self.plies as f64)
    }
}

/// Plays `plan.games` games to their end over `connections` connections to `addrs`: first a
/// warm-up of `WARM_UP` games (or half of them, if fewer), then the rest, whose memory is
/// measured: what one more finished game costs on a server whose allocator pools, buffers and
/// in-flight games are already there. The warm-up is kept small so that the memory it frees
/// (a build that packs finished games frees their live records) cannot hide the growth of the
/// measured games.
pub async fn finished_phase(
    plan: FinishedPlan,
    addrs: &[SocketAddr],
    connections: usize,
    server: ServerProc,
) -> Result<FinishedFigures, BenchError> {
    let channels = channels::connect_all(addrs, connections).await?;
    let started = Instant::now();
    let warm_up = WARM_UP.min(plan.games / 2);
    let first = play_batch(&channels, warm_up, plan, 0).await;
    // Let the allocator and the kernel settle before reading.
    sleep(Duration::from_millis(200)).await;
    let before = server.rss();
    let second = play_batch(&channels, plan.games - warm_up, plan, PLAYERS as u64).await;
    let took = started.elapsed();
    sleep(Duration::from_millis(200)).await;
    let after = server.rss();
    Ok(FinishedFigures {
        games: second.0,
        plies: second.1,
        failures: first.2 + second.2,
        took,
        rss: before.zip(after).map(|((b, _), (a, _))| (b, a)),
    })
}

/// Plays `count` games over `channels`, [`PLAYERS`] at a time: (games, plies, failed calls).
async fn play_batch(
    channels: &[tonic::transport::Channel],
    count: usize,
    plan: FinishedPlan,
    seed: u64,
) -> (usize, u64, usize) {
    let per_task = count.div_ceil(PLAYERS);
    let mut players = JoinSet::new();
    for i in 0..PLAYERS {
        let mine = per_task.min(count.saturating_sub(i * per_task));
        let client = Client::new(channels[i % channels.len()].clone());
        players.spawn(play_games(client, mine, plan, seed + i as u64));
    }
    let (mut games, mut plies, mut failures) = (0usize, 0u64, 0usize);
    while let Some(done) = players.join_next().await {
        if let Ok((g, p, f)) = done {
            games += g;
            plies += p;
            failures += f;
        }
    }
    (games, plies, failures)
}

/// Plays `count` games one after another: (games finished, their plies, failed calls).
async fn play_games(
    mut client: Client,
    count: usize,
    plan: FinishedPlan,
    seed: u64,
) -> (usize, u64, usize) {
    // Seeded: the same seeds play the same games on every build, so two builds are measured
    // on the same games.
    let mut rng =
        Rng::from_seed(0x9E37_79B9_7F4A_7C15 ^ (seed + 1).wrapping_mul(0xD134_2543_DE82_EF95));
    let (mut games, mut plies, mut failures) = (0usize, 0u64, 0usize);
    while games < count && failures <= MAX_FAILURES {
        match play_one(&mut client, plan, &mut rng).await {
            Some(ply) => {
                games += 1;
                plies += u64::from(ply);
            }
            None => failures += 1,
        }
    }
    (games, plies, failures)
}

/// Plays one game to its end: its plies, `None` if a call failed.
async fn play_one(client: &mut Client, plan: FinishedPlan, rng: &mut Rng) -> Option<u32> {
    let created = timeout(
        CALL_TIMEOUT,
        client.create_game(pb::CreateGameRequest {
            variant: proto_variant(plan.variant),
            variant_key: plan.variant.key().into(),
            white_player: "finished-w".into(),
            black_player: "finished-b".into(),
            time_control: plan.time_control.map(TimeControl::proto),
            ..Default::default()
        }),
    )
    .await
    .ok()?
    .ok()?
    .into_inner();
    let game = created.game?;
    let auth = [created.white_token, created.black_token]
        .map(|token| format!("Bearer {token}").parse().ok());
    let mut pos = AnyPosition::from_fen(plan.variant, &game.fen).ok()?;
    let mut ply = game.ply;
    loop {
        let seat = &auth[pos.turn().index()];
        if plan.resign_at > 0 && ply >= plan.resign_at {
            let request = pb::ResignRequest {
                game_id: game.game_id.clone(),
            };
            timeout(CALL_TIMEOUT, client.resign(authed(request, seat)))
                .await
                .ok()?
                .ok()?;
            return Some(ply);
        }
        let moves = pos.legal_moves();
        let mv = *moves.get(rng.below(moves.len()))?;
        let request = pb::SubmitMoveRequest {
            game_id: game.game_id.clone(),
            r#move: mv.to_string(),
            expected_ply: Some(ply),
            view: pb::GameView::Basic as i32,
            ..Default::default()
        };
        let answer = timeout(CALL_TIMEOUT, client.submit_move(authed(request, seat)))
            .await
            .ok()?
            .ok()?
            .into_inner()
            .game?;
        pos.play_unchecked(mv);
        ply = answer.ply;
        if answer.status != pb::GameStatus::Ongoing as i32 {
            return Some(ply);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Figures divide the growth by games and by plies, and say nothing without a reading.
    #[test]
    fn figures_divide_the_growth() {
        let figures = FinishedFigures {
            games: 10,
            plies: 800,
            failures: 0,
            took: Duration::from_secs(1),
            rss: Some((1_000, 9_000)),
        };
        assert_eq!(figures.bytes_per_game(), Some(800.0));
        assert_eq!(figures.bytes_per_ply(), Some(10.0));
        let unread = FinishedFigures {
            rss: None,
            ..figures
        };
        assert_eq!(unread.bytes_per_game(), None);
    }
}
