//! The load the failover tests run, and what they check after it.
//!
//! [`Load`] plays games through several chessd replicas the way a careful client does: each
//! move with `expected_ply` and a `request_id`, retried with the same id (on another replica)
//! while the store answers UNAVAILABLE, and every acknowledged move written down with its ply
//! in the [`Ledger`]. Each game has a watcher on another replica that resumes after errors
//! from the last seq it saw, and writes down every event it was sent.
//!
//! [`Ledger::verify`] reads every game from a replica started afresh and compares: how many
//! acknowledged moves are missing or replaced at their ply (lost), whether any ply was
//! acknowledged with two different moves (a fork), whether a watcher saw a seq twice, skipped
//! one or saw a move the game does not have, and whether every unfinished game still takes a
//! move.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chessd::proto as pb;
use chessd::proto::watch_game_response::Event;
use tokio::task::JoinSet;
use tonic::Code;

use crate::common::{authed, reason};
use crate::support::{Client, client_at};

/// What one game's player and watcher saw.
#[derive(Debug, Default)]
pub struct GameLog {
    pub white: String,
    pub black: String,
    /// Every acknowledged move: ply → uci.
    pub acked: BTreeMap<u32, String>,
    /// A ply acknowledged with a move other than the one acknowledged before: (ply, first,
    /// second).
    pub forks: Vec<(u32, String, String)>,
    /// The watcher's events by seq: a move's uci, or another event's description.
    pub watched: BTreeMap<u64, String>,
    /// A seq the watcher was sent twice with different content, or a seq it skipped.
    pub watch_faults: Vec<String>,
    /// Watch streams the server interrupted (the store lost events the watcher was sent).
    pub interrupted: u32,
    /// Acknowledged moves the player found gone from the game (it went back to an earlier
    /// ply): lost, even if the same move was played again at that ply later.
    pub found_lost: u32,
}

/// Every game's log.
#[derive(Debug, Default)]
pub struct Ledger {
    pub games: Mutex<BTreeMap<String, GameLog>>,
    /// Calls answered UNAVAILABLE or DEADLINE_EXCEEDED, then retried.
    pub retries: AtomicU64,
    /// Of those, NOT_REPLICATED.
    pub not_replicated: AtomicU64,
    pub acked_moves: AtomicU64,
}

impl Ledger {
    fn with<T>(&self, id: &str, f: impl FnOnce(&mut GameLog) -> T) -> T {
        let mut games = self.games.lock().unwrap();
        f(games.entry(id.to_owned()).or_default())
    }

    fn ack(&self, id: &str, ply: u32, uci: &str) {
        self.acked_moves.fetch_add(1, Ordering::Relaxed);
        self.with(id, |g| match g.acked.get(&ply) {
            Some(first) if first != uci => g.forks.push((ply, first.clone(), uci.to_owned())),
            Some(_) => {}
            None => {
                g.acked.insert(ply, uci.to_owned());
            }
        });
    }
}

/// The load: games played and watched through `replicas`, until [`Load::stop`].
pub struct Load {
    pub ledger: Arc<Ledger>,
    stop: Arc<AtomicBool>,
    tasks: JoinSet<()>,
}

impl Load {
    /// Starts `games` games (each new one when one ends), played through `replicas` in turn.
    pub async fn start(replicas: Vec<SocketAddr>, games: usize) -> Load {
        let ledger = Arc::new(Ledger::default());
        let stop = Arc::new(AtomicBool::new(false));
        let mut tasks = JoinSet::new();
        for n in 0..games {
            let replicas = replicas.clone();
            let ledger = ledger.clone();
            let stop = stop.clone();
            tasks.spawn(async move { player(n, replicas, ledger, stop).await });
        }
        Load {
            ledger,
            stop,
            tasks,
        }
    }

    /// Moves acknowledged so far.
    pub fn acked(&self) -> u64 {
        self.ledger.acked_moves.load(Ordering::Relaxed)
    }

    /// Waits until `more` moves more than now are acknowledged, or `limit` passes (false).
    pub async fn progress(&self, more: u64, limit: Duration) -> bool {
        let target = self.acked() + more;
        let deadline = tokio::time::Instant::now() + limit;
        while self.acked() < target {
            if tokio::time::Instant::now() > deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        true
    }

    /// Stops the players and watchers; their logs stay in the ledger.
    pub async fn stop(mut self) -> Arc<Ledger> {
        self.stop.store(true, Ordering::Relaxed);
        while self.tasks.join_next().await.is_some() {}
        self.ledger
    }
}

/// Whether a call's failure is one a client retries (the store or the replica is away).
fn retryable(status: &tonic::Status) -> bool {
    matches!(
        status.code(),
        Code::Unavailable | Code::DeadlineExceeded | Code::Cancelled | Code::Unknown
    )
}

/// A fresh client of `replicas[i % len]`, or `None` while that replica does not answer.
async fn client(replicas: &[SocketAddr], i: usize) -> Option<Client> {
    let addr = replicas[i % replicas.len()];
    tokio::time::timeout(Duration::from_secs(2), client_at(addr))
        .await
        .ok()
}

/// Plays game after game through `replicas` until `stop`.
async fn player(n: usize, replicas: Vec<SocketAddr>, ledger: Arc<Ledger>, stop: Arc<AtomicBool>) {
    let mut attempt = n;
    while !stop.load(Ordering::Relaxed) {
        // Creation, retried with its request id on the same replica (only the one that made
        // the game knows its seat tokens) until it answers; with a new id if that replica
        // cannot give them back.
        let mut request_id = format!("create-{n}-{attempt}");
        let on = attempt;
        let created = loop {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            attempt += 1;
            let Some(mut c) = client(&replicas, on).await else {
                continue;
            };
            let answer = c
                .create_game(pb::CreateGameRequest {
                    variant: pb::Variant::Chess as i32,
                    white_player: format!("w{n}"),
                    black_player: format!("b{n}"),
                    request_id: request_id.clone(),
                    ..Default::default()
                })
                .await;
            match answer {
                Ok(created) => break created.into_inner(),
                Err(s) if retryable(&s) => {
                    ledger.retries.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Err(s) if reason(&s) == "SEAT_TOKENS_UNAVAILABLE" => {
                    request_id = format!("create-{n}-{attempt}");
                }
                Err(s) => panic!("create game: {s:?}"),
            }
        };
        let mut game = created.game.expect("game");
        let id = game.game_id.clone();
        ledger.with(&id, |g| {
            g.white = created.white_token.clone();
            g.black = created.black_token.clone();
        });
        let watcher = tokio::spawn(watcher(
            id.clone(),
            replicas.clone(),
            attempt + 1,
            ledger.clone(),
            stop.clone(),
        ));
        while game.status == pb::GameStatus::Ongoing as i32 && !stop.load(Ordering::Relaxed) {
            match play_one(&id, game, &replicas, &mut attempt, &ledger, &stop).await {
                Some(now) => game = now,
                // The game is gone (its creation was lost): a new one.
                None => break,
            }
        }
        // The watcher sees the game-over event (or stops with the load).
        let _ = tokio::time::timeout(Duration::from_secs(10), watcher).await;
    }
}

/// Plays the next move of `game` (chosen from its legal moves by the game and ply), retrying
/// with the same request id until it is acknowledged; the game as it then is, `None` if the
/// store no longer has it (a failover lost its creation).
async fn play_one(
    id: &str,
    game: pb::Game,
    replicas: &[SocketAddr],
    attempt: &mut usize,
    ledger: &Ledger,
    stop: &AtomicBool,
) -> Option<pb::Game> {
    let ply = game.ply;
    let legal = &game.legal_moves;
    let pick = (id.bytes().map(u64::from).sum::<u64>() + u64::from(ply) * 7919) as usize;
    let mv = legal[pick % legal.len()].uci.clone();
    let (white, black) = ledger.with(id, |g| (g.white.clone(), g.black.clone()));
    let token = if ply.is_multiple_of(2) { white } else { black };
    let request_id = format!("{id}-{ply}");
    loop {
        if stop.load(Ordering::Relaxed) {
            return Some(game);
        }
        *attempt += 1;
        let Some(mut c) = client(replicas, *attempt).await else {
            continue;
        };
        let request = pb::SubmitMoveRequest {
            game_id: id.into(),
            r#move: mv.clone(),
            expected_ply: Some(ply),
            request_id: request_id.clone(),
            ..Default::default()
        };
        match c.submit_move(authed(request, &token)).await {
            Ok(answer) => {
                let answer = answer.into_inner();
                let played = answer.r#move.expect("the move played");
                ledger.ack(id, played.ply - 1, &played.uci);
                return answer.game;
            }
            Err(s) if retryable(&s) => {
                ledger.retries.fetch_add(1, Ordering::Relaxed);
                if reason(&s) == "NOT_REPLICATED" {
                    ledger.not_replicated.fetch_add(1, Ordering::Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(s) => {
                // The game is not where this player left it: an acknowledged move was lost
                // (the ledger shows it) or the game ended by itself. Go on from where it is.
                let now = match c.get_game(pb::GetGameRequest { game_id: id.into() }).await {
                    Ok(now) => now,
                    Err(s) if s.code() == Code::NotFound => {
                        ledger.with(id, |g| g.found_lost += ply);
                        return None;
                    }
                    Err(_) => continue,
                };
                let now = now.into_inner().game.expect("game");
                assert!(
                    now.ply != ply || now.status != pb::GameStatus::Ongoing as i32,
                    "move {mv} at ply {ply} of {id} refused with the game at that ply: {s:?}"
                );
                if now.ply < ply {
                    ledger.with(id, |g| g.found_lost += ply - now.ply);
                }
                return Some(now);
            }
        }
    }
}

/// Follows game `id` through `replicas` (starting after the player's), resuming from the
/// last seq seen after each error, until the game ends or the load stops.
async fn watcher(
    id: String,
    replicas: Vec<SocketAddr>,
    mut attempt: usize,
    ledger: Arc<Ledger>,
    stop: Arc<AtomicBool>,
) {
    let mut last_seq = 0u64;
    while !stop.load(Ordering::Relaxed) {
        attempt += 1;
        let Some(mut c) = client(&replicas, attempt).await else {
            continue;
        };
        let opened = c
            .watch_game(pb::WatchGameRequest {
                game_id: id.clone(),
                after_seq: last_seq,
            })
            .await;
        let mut stream = match opened {
            Ok(s) => s.into_inner(),
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        loop {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let next = tokio::time::timeout(Duration::from_millis(500), stream.message()).await;
            let message = match next {
                Err(_) => continue,
                Ok(Ok(Some(m))) => m,
                Ok(Ok(None)) => return,
                Ok(Err(s)) => {
                    if reason(&s) == "WATCH_INTERRUPTED" {
                        ledger.with(&id, |g| g.interrupted += 1);
                        last_seq = 0;
                    }
                    break;
                }
            };
            let text = match &message.event {
                Some(Event::MovePlayed(m)) => m.r#move.as_ref().map(|m| m.uci.clone()),
                Some(Event::GameOver(_)) => Some("over".to_owned()),
                Some(Event::DrawOffered(_)) => Some("offer".to_owned()),
                Some(Event::DrawDeclined(_)) => Some("decline".to_owned()),
                Some(Event::ClockChanged(_)) => Some("clock".to_owned()),
                Some(Event::Snapshot(_))
                | Some(Event::Heartbeat(_))
                | Some(Event::PlayerPresence(_))
                | None => None,
                Some(_) => Some("other".to_owned()),
            };
            let over = matches!(message.event, Some(Event::GameOver(_)));
            if let Some(text) = text {
                let seq = message.seq;
                ledger.with(&id, |g| {
                    if seq != last_seq + 1 {
                        g.watch_faults.push(format!("seq {seq} after {last_seq}"));
                    }
                    if let Some(before) = g.watched.insert(seq, text.clone())
                        && before != text
                    {
                        g.watch_faults
                            .push(format!("seq {seq} sent as {before}, then as {text}"));
                    }
                });
                last_seq = seq;
            } else if matches!(message.event, Some(Event::Snapshot(_))) {
                last_seq = message.seq;
            }
            if over {
                return;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// What [`Ledger::verify`] found.
#[derive(Debug, Default)]
pub struct Verdict {
    pub games: usize,
    pub acked: usize,
    /// Acknowledged moves missing from their ply, or replaced there by another move, or found
    /// gone by their player (and played again).
    pub lost: usize,
    pub forks: Vec<String>,
    pub watch_faults: Vec<String>,
    /// Moves a watcher was sent that the game does not have at that seq.
    pub watched_lost: usize,
    pub interrupted: u32,
    /// Unfinished games that refused a further move.
    pub stuck: Vec<String>,
    /// Games whose acknowledged creation was lost.
    pub games_lost: usize,
}

impl Verdict {
    /// Nothing acknowledged was lost, no ply forked, every watcher saw every event once and
    /// nothing the game lacks, and every game went on.
    pub fn assert_nothing_lost(&self) {
        let summary = format!("{self:?}");
        assert_eq!(self.lost, 0, "{summary}");
        assert_eq!(self.games_lost, 0, "{summary}");
        assert!(self.forks.is_empty(), "{summary}");
        assert!(self.watch_faults.is_empty(), "{summary}");
        assert_eq!(self.watched_lost, 0, "{summary}");
        assert_eq!(self.interrupted, 0, "{summary}");
        assert!(self.stuck.is_empty(), "{summary}");
    }
}

impl Ledger {
    /// Reads every game through `replica` (started after the load) and compares it with what
    /// the players and watchers were told; then plays one more move in every unfinished game.
    pub async fn verify(&self, replica: SocketAddr) -> Verdict {
        let mut c = client_at(replica).await;
        let games: Vec<(String, GameLog)> = std::mem::take(&mut *self.games.lock().unwrap())
            .into_iter()
            .collect();
        let mut verdict = Verdict {
            games: games.len(),
            ..Verdict::default()
        };
        for (id, log) in games {
            let Some(game) = read(&mut c, &id).await else {
                // Its creation was lost: so is every move acknowledged in it (those its
                // player found gone are counted already).
                verdict.games_lost += 1;
                verdict.acked += log.acked.len();
                verdict.lost += (log.acked.len() as u32).max(log.found_lost) as usize;
                continue;
            };
            verdict.acked += log.acked.len();
            verdict.lost += log.found_lost as usize;
            for (ply, uci) in &log.acked {
                if game.moves.get(*ply as usize).map(|m| m.uci.as_str()) != Some(uci.as_str()) {
                    verdict.lost += 1;
                }
            }
            verdict.forks.extend(
                log.forks
                    .iter()
                    .map(|(ply, a, b)| format!("{id} ply {ply}: {a} then {b}")),
            );
            verdict
                .watch_faults
                .extend(log.watch_faults.iter().map(|f| format!("{id}: {f}")));
            verdict.interrupted += log.interrupted;
            // With moves only, event seq k is the move of ply k, and the last one may be the
            // game-over event.
            for (seq, text) in &log.watched {
                let at = game.moves.get(*seq as usize - 1).map(|m| m.uci.as_str());
                if text != "over" && at != Some(text.as_str()) {
                    verdict.watched_lost += 1;
                }
            }
            if game.status == pb::GameStatus::Ongoing as i32 {
                let mv = game.legal_moves[0].uci.clone();
                let token = if game.ply.is_multiple_of(2) {
                    &log.white
                } else {
                    &log.black
                };
                let request = pb::SubmitMoveRequest {
                    game_id: id.clone(),
                    r#move: mv.clone(),
                    expected_ply: Some(game.ply),
                    ..Default::default()
                };
                if let Err(s) = c.submit_move(authed(request, token)).await {
                    verdict
                        .stuck
                        .push(format!("{id} at ply {}: {mv} refused: {s:?}", game.ply));
                }
            }
        }
        verdict
    }
}

/// The game as `c` reads it, retried while the store is away; `None` if it has no such game.
async fn read(c: &mut Client, id: &str) -> Option<pb::Game> {
    for _ in 0..100 {
        match c.get_game(pb::GetGameRequest { game_id: id.into() }).await {
            Ok(g) => return Some(g.into_inner().game.expect("game")),
            Err(s) if s.code() == Code::NotFound => return None,
            Err(s) if retryable(&s) => tokio::time::sleep(Duration::from_millis(100)).await,
            Err(s) => panic!("get {id}: {s:?}"),
        }
    }
    panic!("get {id}: the store never answered");
}
