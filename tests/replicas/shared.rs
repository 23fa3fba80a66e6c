//! What the replicas share besides games in play: the list, the limits, finished games.

use std::time::Duration;

use chessd::ServerConfig;
use chessd::proto as pb;
use tonic::Code;

use crate::support::{self, Redis};

fn config(redis: &Redis, max_live: usize, max_finished: usize) -> ServerConfig {
    let mut config = crate::common::on_redis(redis.url(), false);
    config.store.limits.max_live_games = max_live;
    config.store.limits.max_finished_games = max_finished;
    config
}

/// ListGames pages through the same games, newest first, whichever replica serves each page;
/// a finished game watched later on another replica replays and ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_across_replicas() {
    let redis = Redis::start();
    let (r0, r1) = (
        support::replica(&redis).await,
        support::replica(&redis).await,
    );
    let (mut c0, mut c1) = (r0.client().await, r1.client().await);
    let mut ids = Vec::new();
    for i in 0..5 {
        let c = if i % 2 == 0 { &mut c0 } else { &mut c1 };
        ids.push(support::create(c, None).await.id);
        // Ids carry the creation millisecond: keep the order unambiguous.
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    ids.reverse();
    let listed = support::list_all(&mut c0, &mut c1, 2).await;
    assert_eq!(listed, ids);

    let seats = support::create(&mut c0, None).await;
    support::play(&mut c0, &seats, 'w', "e2e4").await;
    c0.abort(support::authed(
        pb::AbortRequest {
            game_id: seats.id.clone(),
        },
        &seats.black,
    ))
    .await
    .expect("abort");
    let mut late = support::watch(&mut c1, &seats.id, 0).await;
    let events = support::drain(&mut late).await;
    assert_eq!(events, [(2, "snapshot ply 1".to_owned())]);
    let mut from_one = support::watch(&mut c1, &seats.id, 1).await;
    let events = support::drain(&mut from_one).await;
    assert_eq!(
        events,
        [(2, format!("over * {}", pb::Termination::Aborted as i32))],
        "an aborted game's end"
    );
}

/// The live-game limit holds across replicas; finished games beyond the kept number are
/// forgotten on every replica, and the statistics keep counting them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_hold_for_the_deployment() {
    let redis = Redis::start();
    let r0 = support::replica_with(config(&redis, 2, 1)).await;
    let r1 = support::replica_with(config(&redis, 2, 1)).await;
    let (mut c0, mut c1) = (r0.client().await, r1.client().await);
    let first = support::create(&mut c0, None).await;
    let second = support::create(&mut c1, None).await;
    let refused = c0
        .create_game(pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            ..Default::default()
        })
        .await
        .expect_err("a third live game");
    assert_eq!(
        (refused.code(), support::reason(&refused).as_str()),
        (Code::ResourceExhausted, "TOO_MANY_GAMES")
    );
    for (c, seats) in [(&mut c0, &first), (&mut c1, &second)] {
        c.resign(support::authed(
            pb::ResignRequest {
                game_id: seats.id.clone(),
            },
            &seats.white,
        ))
        .await
        .expect("resign");
    }
    // Room again for live games.
    support::create(&mut c1, None).await;
    // The oldest finished game goes once a replica's sweep trims (about every second).
    let mut gone = false;
    for _ in 0..100 {
        match support::get(&mut c1, &first.id).await {
            Err(s) if s.code() == Code::NotFound => {
                gone = true;
                break;
            }
            _ => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    assert!(
        gone,
        "the oldest finished game was not forgotten within 10 s"
    );
    let kept = support::get(&mut c0, &second.id)
        .await
        .expect("the newest finished game");
    assert_eq!(kept.status, pb::GameStatus::Finished as i32);
    let stats = c0
        .get_stats(pb::GetStatsRequest::default())
        .await
        .expect("stats")
        .into_inner();
    assert_eq!(stats.variants[0].black_wins, 2);
}
