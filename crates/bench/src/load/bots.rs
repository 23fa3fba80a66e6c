//! The bots: each plays one seat of a game with random legal moves, learning that it is its
//! turn either from its own WatchGame stream (`--turns watch`, as a real bot does) or from its
//! opponent in-process (`--turns handoff`: exactly one SubmitMove in flight per game). A
//! flagger's bot stops moving after `--flag-after` plies, so its flag falls.

use std::sync::Arc;
use std::time::Instant;

use chessd_proto as pb;
use chessd_proto::watch_game_response::Event;
use chessd_rules::Color;
use chessd_rules::any::AnyPosition;
use tokio::sync::mpsc;
use tokio::time::{sleep, timeout_at};
use tonic::Request;
use tonic::metadata::{Ascii, MetadataValue};
use tonic::transport::Channel;
use tonic_types::StatusExt;

use crate::channels::CALL_TIMEOUT;
use crate::load::shared::{Shared, Table};
use crate::load::skim::Skim;
use crate::load::watchers::{Client, delivered, open_watch};
use crate::timed::stops;

/// A small fast generator for move choice (xorshift64*); quality does not matter here.
pub struct Rng(u64);

impl Rng {
    fn seeded() -> Rng {
        Rng(getrandom::u64().unwrap_or(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A generator that draws the same numbers for the same `seed` on every run.
    pub fn from_seed(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (x % n.max(1) as u64) as usize
    }
}

/// A bot's two clients over its connection: SubmitMove with its answer skimmed, and the rest.
struct Calls {
    client: Client,
    skim: Skim,
}

impl Calls {
    fn new(channel: Channel) -> Calls {
        Calls {
            client: Client::new(channel.clone()),
            skim: Skim::new(channel),
        }
    }
}

/// A request with a seat's authorization. No per-call deadline, like the echo's client: a
/// `grpc-timeout` costs the server a timer per call, and the drain after the measured window
/// is bounded anyway.
pub fn authed<T>(message: T, auth: &Option<MetadataValue<Ascii>>) -> Request<T> {
    let mut request = Request::new(message);
    if let Some(value) = auth {
        request
            .metadata_mut()
            .insert("authorization", value.clone());
    }
    request
}

/// Plays one move for `color` from `pos` at `ply`: picks a random legal move and submits it.
/// Returns the position after it, `None` when the game is over or the bench stops.
async fn submit(
    shared: &Shared,
    calls: &mut Calls,
    table: &Table,
    color: Color,
    pos: &AnyPosition,
    ply: u32,
    rng: &mut Rng,
) -> Option<(AnyPosition, u32)> {
    if let Some(pause) = shared.pause {
        sleep(pause).await;
    }
    // A game of the chosen length ends as one the bench stops.
    if (shared.max_ply > 0 && ply >= shared.max_ply) || !shared.take_move() {
        // Stopping: end the game so its streams end too. A refusal changes nothing: the
        // streams end at the bench's hard deadline anyway.
        let _ = calls
            .client
            .resign(authed(
                pb::ResignRequest {
                    game_id: table.id.clone(),
                },
                &table.auth[color.index()],
            ))
            .await;
        return None;
    }
    let moves = pos.legal_moves();
    let mv = *moves.get(rng.below(moves.len()))?;
    let request = pb::SubmitMoveRequest {
        game_id: table.id.clone(),
        r#move: mv.to_string(),
        expected_ply: Some(ply),
        view: shared.view as i32,
        ..Default::default()
    };
    let t0 = Instant::now();
    table.sent.set(u64::from(ply) + 1, shared.nanos(t0));
    let answer = calls
        .skim
        .submit_move(authed(request, &table.auth[color.index()]))
        .await;
    let t1 = Instant::now();
    let mut stats = shared.stats();
    stats.moves_total += 1;
    match answer {
        Ok(response) => {
            // Calls that start after the warm-up and end before the deadline, as the echo's
            // load counts them.
            if shared.measured(t0) && shared.measured(t1) {
                stats.moves_measured += 1;
                stats.plies_measured += u64::from(ply) + 1;
                stats.submit.record(t1 - t0);
            }
            let game = response.into_inner().game?;
            if game.status != pb::GameStatus::Ongoing as i32 {
                stats.games_finished += 1;
                return None;
            }
            // The bot knows the position its own legal move leads to; parsing the answer's FEN
            // instead would cost the load generator more than the move itself, on the cores
            // the server shares.
            let mut next = *pos;
            next.play_unchecked(mv);
            Some((next, game.ply))
        }
        // A move event does not say the game ended by repetition or the move rules; the
        // game-over event that follows does, after the opponent may already have moved.
        Err(status)
            if status
                .get_details_error_info()
                .is_some_and(|i| i.reason == "GAME_OVER") =>
        {
            stats.late_moves += 1;
            None
        }
        Err(status) => {
            stats.errors.add(status.code());
            None
        }
    }
}

/// A bot that learns whose turn it is from its WatchGame stream.
pub async fn watching_bot(shared: Arc<Shared>, channel: Channel, table: Arc<Table>, color: Color) {
    let mut calls = Calls::new(channel);
    let mut rng = Rng::seeded();
    let Some(mut stream) = open_watch(&mut calls.client, &table).await else {
        shared.stats().stream_failures += 1;
        return;
    };
    let hard_end = shared.end + CALL_TIMEOUT * 2;
    loop {
        let message = match timeout_at(hard_end.into(), stream.message()).await {
            Ok(Ok(Some(message))) => message,
            Ok(Ok(None)) => return,
            _ => {
                shared.stats().stream_failures += 1;
                return;
            }
        };
        let (fen, ply) = match &message.event {
            Some(Event::Snapshot(game)) if game.status == pb::GameStatus::Ongoing as i32 => {
                (game.fen.as_str(), game.ply)
            }
            Some(Event::MovePlayed(m)) => (m.fen.as_str(), m.r#move.as_ref().map_or(0, |m| m.ply)),
            Some(Event::GameOver(_) | Event::Snapshot(_)) => return,
            _ => continue,
        };
        let Ok(pos) = AnyPosition::from_fen(shared.variant, fen) else {
            return;
        };
        if pos.turn() != color || stops(table.flagger, shared.flag_after, ply) {
            continue;
        }
        // Without watchers, the bot waiting for the move is the one delivery that counts.
        if shared.bots_record && matches!(message.event, Some(Event::MovePlayed(_))) {
            delivered(&shared, &table, &message, ply);
        }
        if submit(&shared, &mut calls, &table, color, &pos, ply, &mut rng)
            .await
            .is_none()
            && !shared.playing()
        {
            return;
        }
    }
}

/// A bot that gets the position from its opponent in-process and hands its own move back.
pub async fn handoff_bot(
    shared: Arc<Shared>,
    channel: Channel,
    table: Arc<Table>,
    color: Color,
    mut my_turn: mpsc::Receiver<(AnyPosition, u32)>,
    their_turn: mpsc::Sender<(AnyPosition, u32)>,
) {
    let mut calls = Calls::new(channel);
    let mut rng = Rng::seeded();
    while let Some((pos, ply)) = my_turn.recv().await {
        if stops(table.flagger, shared.flag_after, ply) {
            // Its flag falls; the watchers see the game end.
            return;
        }
        let Some(next) = submit(&shared, &mut calls, &table, color, &pos, ply, &mut rng).await
        else {
            return;
        };
        if their_turn.send(next).await.is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every index is below the bound, and more than one comes up.
    #[test]
    fn rng_stays_below_its_bound() {
        let mut rng = Rng(42);
        let picks: Vec<usize> = (0..1000).map(|_| rng.below(20)).collect();
        assert!(picks.iter().all(|&i| i < 20));
        assert!(picks.iter().any(|&i| i != picks[0]));
        assert_eq!(rng.below(0), 0);
    }
}
