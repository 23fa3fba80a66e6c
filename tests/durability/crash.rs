//! SIGKILL at arbitrary moments and SIGTERM: every acknowledged move is there after a restart,
//! in order, and play and streams go on.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chessd::proto::{self as pb, watch_game_response::Event};

use crate::support::{self, DataDir, Seats, Server};

/// Concurrent games per round.
const GAMES: usize = 24;

/// The moves acknowledged so far, per game, in order.
type Acked = Arc<Mutex<HashMap<String, Vec<String>>>>;

/// Plays every game as fast as the server answers until the server goes away; records each
/// move whose SubmitMove returned OK.
async fn play_until_gone(server: &Server, games: &[Seats], acked: &Acked, salt: u64) {
    let mut tasks = Vec::new();
    for (i, seats) in games.iter().cloned().enumerate() {
        let mut client = server.client().await;
        let acked = acked.clone();
        tasks.push(tokio::spawn(async move {
            let Ok(game) = client
                .get_game(pb::GetGameRequest {
                    game_id: seats.id.clone(),
                })
                .await
            else {
                return;
            };
            let mut game = game.into_inner().game.expect("game");
            let mut n = 0u64;
            while let Some(mv) = support::pick(&game, salt ^ (i as u64) << 8) {
                n += 1;
                let rid = format!("{salt}-{i}-{n}");
                match support::play(&mut client, &seats, game.ply, &mv, &rid).await {
                    Ok(answer) => {
                        acked
                            .lock()
                            .unwrap()
                            .entry(seats.id.clone())
                            .or_default()
                            .push(mv);
                        game = answer.game.expect("game");
                    }
                    // The server was killed (or the game ended): stop.
                    Err(_) => return,
                }
            }
        }));
    }
    for task in tasks {
        task.await.expect("player task");
    }
}

/// Checks the restarted server holds every acknowledged move in order; returns the games.
async fn check_acked(server: &Server, games: &[Seats], acked: &Acked) -> HashMap<String, pb::Game> {
    let mut client = server.client().await;
    let acked = acked.lock().unwrap().clone();
    let mut stored_games = HashMap::new();
    for seats in games {
        let id = seats.id.clone();
        let moves = acked.get(&id).cloned().unwrap_or_default();
        let game = support::get(&mut client, &id).await;
        let stored = support::ucis(&game);
        // One move more than acknowledged is allowed: committed, but killed before answering.
        assert!(
            stored.len() >= moves.len() && stored[..moves.len()] == moves[..],
            "game {id} at {}: acknowledged {moves:?}, stored {stored:?}",
            game.fen
        );
        stored_games.insert(id, game);
    }
    stored_games
}

/// Watching from an old seq replays every event after it, numbered with no gap, with the
/// game's moves in order.
async fn check_watch(server: &Server, game: &pb::Game) {
    let mut client = server.client().await;
    let mut stream = client
        .watch_game(pb::WatchGameRequest {
            game_id: game.game_id.clone(),
            after_seq: 1,
        })
        .await
        .expect("watch from seq 1")
        .into_inner();
    let mut expected_seq = 2;
    let mut moves = vec![game.moves[0].uci.clone()];
    while expected_seq <= game.last_seq {
        let message = tokio::time::timeout(Duration::from_secs(10), stream.message())
            .await
            .expect("an event within 10 s")
            .expect("stream ok")
            .expect("an event");
        if matches!(message.event, Some(Event::Heartbeat(_))) {
            continue;
        }
        assert_eq!(message.seq, expected_seq, "game {}", game.game_id);
        if let Some(Event::MovePlayed(m)) = &message.event {
            moves.push(m.r#move.as_ref().expect("move").uci.clone());
        }
        expected_seq += 1;
    }
    assert_eq!(
        moves,
        support::ucis(game),
        "replayed moves of {}",
        game.game_id
    );
}

/// SIGKILL at three different moments of a burst of concurrent games: after each restart every
/// acknowledged move is there in order, streams replay from before the crash with no gap, and
/// play goes on (the next round plays on the same games).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_loses_no_acknowledged_move() {
    let dir = DataDir::new("sigkill");
    let acked: Acked = Arc::default();
    let mut server = Server::start(dir.path(), &[]);
    let mut games = Vec::new();
    {
        let mut client = server.client().await;
        for i in 0..GAMES {
            games.push(
                support::create(
                    &mut client,
                    support::chess(&format!("w{i}"), &format!("b{i}")),
                )
                .await,
            );
        }
    }
    for (round, kill_after_ms) in [150u64, 420, 777].into_iter().enumerate() {
        // The players run until the deadline (their spawned tasks go on), then the server
        // dies under their next requests.
        let play = play_until_gone(&server, &games, &acked, round as u64 + 1);
        let still_playing = tokio::time::timeout(Duration::from_millis(kill_after_ms), play)
            .await
            .is_err();
        assert!(
            still_playing,
            "round {round}: the games ran out of moves before the kill"
        );
        server.kill();
        server = Server::start(dir.path(), &[]);
        let stored = check_acked(&server, &games, &acked).await;
        let total: usize = acked.lock().unwrap().values().map(Vec::len).sum();
        assert!(total > 0, "round {round}: no move was acknowledged");
        eprintln!(
            "round {round}: killed after {kill_after_ms} ms, {total} acknowledged moves intact"
        );
        // Several games, not all: a watch replays a whole game.
        for game in stored.values().filter(|g| g.ply >= 2).take(4) {
            check_watch(&server, game).await;
        }
        // The acknowledged lists now follow what is stored (an unacknowledged committed move
        // included), so the next round checks from here.
        let mut acked = acked.lock().unwrap();
        for (id, game) in &stored {
            acked.insert(id.clone(), support::ucis(game));
        }
    }
    // Play goes on after the last restart.
    let mut client = server.client().await;
    for seats in &games {
        let game = support::get(&mut client, &seats.id).await;
        if let Some(mv) = support::pick(&game, 99) {
            support::play(&mut client, seats, game.ply, &mv, "")
                .await
                .unwrap_or_else(|s| panic!("move after restart at {}: {}", game.fen, s.message()));
        }
    }
}

/// SIGTERM drains and exits 0; the next start has every game, and a stream resumed from
/// before the stop sees the next move live.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_drains_and_restarts_cleanly() {
    let dir = DataDir::new("sigterm");
    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let seats = support::create(&mut client, support::chess("ann", "bob")).await;
    let moves = ["e2e4", "e7e5", "g1f3", "b8c6"];
    for (ply, mv) in moves.iter().enumerate() {
        support::play(&mut client, &seats, ply as u32, mv, "")
            .await
            .expect("move");
    }
    drop(client);
    let status = server.terminate();
    assert!(status.success(), "exit status after SIGTERM: {status}");

    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let game = support::get(&mut client, &seats.id).await;
    assert_eq!(support::ucis(&game), moves, "moves after restart");
    assert_eq!(game.last_seq, 4);
    let mut stream = client
        .watch_game(pb::WatchGameRequest {
            game_id: seats.id.clone(),
            after_seq: 2,
        })
        .await
        .expect("watch")
        .into_inner();
    let mut other = server.client().await;
    support::play(&mut other, &seats, 4, "f1b5", "")
        .await
        .expect("move after restart");
    let mut seen = Vec::new();
    while seen.len() < 3 {
        let message = tokio::time::timeout(Duration::from_secs(10), stream.message())
            .await
            .expect("event in time")
            .expect("stream ok")
            .expect("event");
        if let Some(Event::MovePlayed(m)) = &message.event {
            seen.push((message.seq, m.r#move.as_ref().expect("move").uci.clone()));
        }
    }
    assert_eq!(
        seen,
        [
            (3, "g1f3".into()),
            (4, "b8c6".into()),
            (5, "f1b5".to_string())
        ]
    );
}
