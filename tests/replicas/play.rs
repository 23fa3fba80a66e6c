//! A game played across three replicas, watched on all of them.

use chessd::proto as pb;

use crate::support::{self, Redis, Replica};

/// Moves and draw answers go to different replicas in turn; every replica's watchers (from
/// the start, and one resuming after seq 2) see every event once, in order; every replica
/// then tells the same game, list and statistics.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn any_replica_serves_and_every_watcher_sees_each_event_once() {
    let redis = Redis::start();
    let replicas = [
        support::replica(&redis).await,
        support::replica(&redis).await,
        support::replica(&redis).await,
    ];
    play_across(&replicas).await;
}

/// The game of the test above on `replicas` (at least two; a store with no other game): its
/// moves and draw answers spread over them, watched on each, then the same game, list and
/// statistics everywhere.
pub async fn play_across(replicas: &[Replica]) {
    let mut clients = Vec::new();
    for r in replicas {
        clients.push(r.client().await);
    }
    let n = clients.len();
    let seats = support::create(&mut clients[0], None).await;
    let mut watchers = Vec::new();
    for c in &mut clients {
        watchers.push(support::watch(c, &seats.id, 0).await);
    }

    support::play(&mut clients[1 % n], &seats, 'w', "f2f3").await;
    clients[2 % n]
        .offer_draw(support::authed(
            pb::OfferDrawRequest {
                game_id: seats.id.clone(),
            },
            &seats.black,
        ))
        .await
        .expect("offer draw");
    let late = support::watch(&mut clients[1 % n], &seats.id, 2).await;
    clients[0]
        .respond_to_draw(support::authed(
            pb::RespondToDrawRequest {
                game_id: seats.id.clone(),
                accept: false,
            },
            &seats.white,
        ))
        .await
        .expect("decline");
    support::play(&mut clients[0], &seats, 'b', "e7e5").await;
    support::play(&mut clients[2 % n], &seats, 'w', "g2g4").await;
    let last = support::play(&mut clients[1 % n], &seats, 'b', "d8h4").await;
    assert_eq!(last.r#move.expect("move").seq, 6);

    let over = format!("over 0-1 {}", pb::Termination::Checkmate as i32);
    let tail: Vec<(u64, String)> = vec![
        (1, "move f2f3".into()),
        (2, "offer b".into()),
        (3, "decline w".into()),
        (4, "move e7e5".into()),
        (5, "move g2g4".into()),
        (6, "move d8h4".into()),
        (7, over),
    ];
    let mut expected = vec![(0, "snapshot ply 0".to_owned())];
    expected.extend(tail.iter().cloned());
    for (i, w) in watchers.iter_mut().enumerate() {
        assert_eq!(support::drain(w).await, expected, "watcher on replica {i}");
    }
    let mut late = late;
    assert_eq!(
        support::drain(&mut late).await,
        tail[2..].to_vec(),
        "resumed watcher"
    );

    let mut games = Vec::new();
    let mut lists = Vec::new();
    let mut stats = Vec::new();
    for c in &mut clients {
        let game = support::get(c, &seats.id).await.expect("get game");
        games.push((game.fen, game.moves.len(), game.last_seq, game.status));
        let list = c
            .list_games(pb::ListGamesRequest::default())
            .await
            .expect("list")
            .into_inner();
        lists.push(
            list.games
                .iter()
                .map(|g| (g.game_id.clone(), g.status, g.ply))
                .collect::<Vec<_>>(),
        );
        stats.push(
            c.get_stats(pb::GetStatsRequest::default())
                .await
                .expect("stats")
                .into_inner(),
        );
    }
    assert!(games.windows(2).all(|w| w[0] == w[1]), "{games:?}");
    assert_eq!(games[0].1, 4);
    assert!(lists.windows(2).all(|w| w[0] == w[1]), "{lists:?}");
    assert_eq!(
        lists[0],
        vec![(seats.id.clone(), pb::GameStatus::Finished as i32, 4)]
    );
    assert!(stats.windows(2).all(|w| w[0] == w[1]), "{stats:?}");
    let chess = &stats[0].variants[0];
    assert_eq!(
        (chess.finished_games, chess.black_wins),
        (1, 1),
        "{chess:?}"
    );
}

/// Many games at once, each move on a random replica: every game's watcher on every replica
/// gets exactly the game's events, in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_games_across_replicas() {
    let redis = Redis::start();
    let replicas = [
        support::replica(&redis).await,
        support::replica(&redis).await,
    ];
    let mut tasks = Vec::new();
    for g in 0..8u64 {
        let a = replicas[0].client().await;
        let b = replicas[1].client().await;
        tasks.push(tokio::spawn(async move {
            let mut clients = [a, b];
            let seats = support::create(&mut clients[(g % 2) as usize], None).await;
            let mut watchers = [
                support::watch(&mut clients[0], &seats.id, 0).await,
                support::watch(&mut clients[1], &seats.id, 0).await,
            ];
            let moves = [
                "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6",
            ];
            let mut side = 'w';
            for (i, mv) in moves.iter().enumerate() {
                let c = &mut clients[(i as u64 + g) as usize % 2];
                support::play(c, &seats, side, mv).await;
                side = if side == 'w' { 'b' } else { 'w' };
            }
            clients[0]
                .resign(support::authed(
                    pb::ResignRequest {
                        game_id: seats.id.clone(),
                    },
                    &seats.white,
                ))
                .await
                .expect("resign");
            let mut expected = vec![(0, "snapshot ply 0".to_owned())];
            for (i, mv) in moves.iter().enumerate() {
                expected.push((i as u64 + 1, format!("move {mv}")));
            }
            expected.push((
                9,
                format!("over 0-1 {}", pb::Termination::Resignation as i32),
            ));
            for w in &mut watchers {
                assert_eq!(support::drain(w).await, expected, "game {}", seats.id);
            }
        }));
    }
    for t in tasks {
        t.await.expect("game task");
    }
}

/// Watchers scale by follower, not by connection: many watchers of a game on two replicas
/// make exactly one subscription per replica, all get every event, and the subscriptions go
/// once nobody watches.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_follower_per_game_per_replica() {
    let redis = Redis::start();
    let replicas = [
        support::replica(&redis).await,
        support::replica(&redis).await,
    ];
    let mut c0 = replicas[0].client().await;
    let seats = support::create(&mut c0, None).await;
    let channel = format!("chessd:{{{}}}:appended", seats.id);
    let mut watchers = Vec::new();
    for i in 0..20 {
        let mut c = replicas[i % 2].client().await;
        watchers.push(support::watch(&mut c, &seats.id, 0).await);
    }
    assert_eq!(
        redis.subscribers(&channel),
        2,
        "one subscription per replica"
    );
    support::play(&mut c0, &seats, 'w', "e2e4").await;
    c0.resign(support::authed(
        pb::ResignRequest {
            game_id: seats.id.clone(),
        },
        &seats.black,
    ))
    .await
    .expect("resign");
    let expected = vec![
        (0, "snapshot ply 0".to_owned()),
        (1, "move e2e4".to_owned()),
        (
            2,
            format!("over 1-0 {}", pb::Termination::Resignation as i32),
        ),
    ];
    for w in &mut watchers {
        assert_eq!(support::drain(w).await, expected);
    }
    // A finished game's followers go, and their subscriptions with them.
    let mut left = redis.subscribers(&channel);
    for _ in 0..100 {
        if left == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        left = redis.subscribers(&channel);
    }
    assert_eq!(left, 0, "subscriptions left after the game ended");
}
