//! Redis killed and restarted mid-game: calls fail UNAVAILABLE and health turns NOT_SERVING
//! while it is down; then every replica serves again by itself, with no acknowledged move
//! lost (Redis runs with appendonly yes and appendfsync always), and open watch streams go on.

use tonic::Code;
use tonic_health::pb::health_check_response::ServingStatus;

use chessd::proto as pb;

use crate::support::{self, Redis};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_outage_is_unavailable_then_heals() {
    let mut redis = Redis::start_durable();
    let (r0, r1) = (
        support::replica(&redis).await,
        support::replica(&redis).await,
    );
    let (mut c0, mut c1) = (r0.client().await, r1.client().await);
    let seats = support::create(&mut c0, None).await;
    support::play(&mut c0, &seats, 'w', "e2e4").await;
    support::play(&mut c1, &seats, 'b', "c7c5").await;
    let mut watcher = support::watch(&mut c1, &seats.id, 2).await;

    redis.kill();
    let refused = support::submit(&mut c0, &seats, 'w', "g1f3", Some(2), "outage-1")
        .await
        .expect_err("no store, no move");
    assert_eq!(
        (refused.code(), support::reason(&refused).as_str()),
        (Code::Unavailable, "STORE_UNAVAILABLE"),
        "{}",
        refused.message()
    );
    assert!(
        !refused.message().contains("127.0.0.1"),
        "{}",
        refused.message()
    );
    let refused = support::get(&mut c1, &seats.id)
        .await
        .expect_err("no store");
    assert_eq!(refused.code(), Code::Unavailable);
    r0.wait_for(ServingStatus::NotServing).await;
    r1.wait_for(ServingStatus::NotServing).await;

    redis.restart();
    r0.wait_for(ServingStatus::Serving).await;
    r1.wait_for(ServingStatus::Serving).await;
    let game = support::get(&mut c1, &seats.id)
        .await
        .expect("get after the restart");
    let moves: Vec<_> = game.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(moves, ["e2e4", "c7c5"], "acknowledged moves survive");
    // The retry of the refused move, on the other replica, plays it now.
    let played = support::submit(&mut c1, &seats, 'w', "g1f3", Some(2), "outage-1")
        .await
        .expect("the retry after the outage");
    assert_eq!(played.r#move.expect("move").seq, 3);
    c0.resign(support::authed(
        pb::ResignRequest {
            game_id: seats.id.clone(),
        },
        &seats.black,
    ))
    .await
    .expect("resign after the outage");
    // The stream opened before the outage carries on where it was, without a gap.
    let events = support::drain(&mut watcher).await;
    assert_eq!(
        events,
        [
            (3, "move g1f3".to_owned()),
            (
                4,
                format!("over 1-0 {}", pb::Termination::Resignation as i32)
            ),
        ]
    );
}

/// A replica started while Redis is down listens, says NOT_SERVING and UNAVAILABLE, and
/// serves once Redis comes up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replica_started_before_redis() {
    let mut redis = Redis::start();
    redis.kill();
    let replica = support::start_replica(crate::common::on_redis(redis.url(), false)).await;
    replica.wait_for(ServingStatus::NotServing).await;
    let mut client = replica.client().await;
    create_is_refused(&mut client).await;
    redis.restart();
    replica.wait_for(ServingStatus::Serving).await;
    let seats = support::create(&mut client, None).await;
    let mut watcher = support::watch(&mut client, &seats.id, 0).await;
    support::play(&mut client, &seats, 'w', "d2d4").await;
    let first = support::next_event(&mut watcher).await.expect("stream");
    assert_eq!(
        first.map(|e| support::describe(&e)).as_deref(),
        Some("snapshot ply 0")
    );
    let second = support::next_event(&mut watcher).await.expect("stream");
    assert_eq!(
        second.map(|e| support::describe(&e)).as_deref(),
        Some("move d2d4")
    );
}

/// A Redis that still holds keys of the layout before buckets (`chessd:games`) keeps a new
/// replica NOT_SERVING and refusing calls, so its games are never silently out of sight; once
/// the operator has dealt with them, the replica serves by itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn old_layout_keys_keep_replicas_from_serving() {
    let redis = Redis::start();
    let reply = redis.command(&["ZADD", "chessd:games", "0", "0000000000001"]);
    assert_eq!(reply, ":1\r\n");
    let replica = support::start_replica(crate::common::on_redis(redis.url(), false)).await;
    // Several probes (one every 500 ms) have found the old key.
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert_eq!(
        crate::common::health_at(replica.addr).await,
        ServingStatus::NotServing
    );
    let mut client = replica.client().await;
    create_is_refused(&mut client).await;
    assert_eq!(redis.command(&["DEL", "chessd:games"]), ":1\r\n");
    replica.wait_for(ServingStatus::Serving).await;
    support::create(&mut client, None).await;
}

/// A CreateGame is refused UNAVAILABLE / STORE_UNAVAILABLE.
async fn create_is_refused(client: &mut support::Client) {
    let refused = client
        .create_game(pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            ..Default::default()
        })
        .await
        .expect_err("the store is not usable");
    assert_eq!(support::reason(&refused), "STORE_UNAVAILABLE");
}

/// Redis forgets its scripts (`SCRIPT FLUSH`, as a restart or a failover to a fresh replica
/// does): the next move, and the next creation, load their script again and go on, with
/// nothing lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forgotten_scripts_are_loaded_again() {
    let redis = Redis::start();
    let replica = support::replica(&redis).await;
    let mut client = replica.client().await;
    let seats = support::create(&mut client, None).await;
    support::play(&mut client, &seats, 'w', "e2e4").await;
    assert_eq!(redis.command(&["SCRIPT", "FLUSH"]), "+OK\r\n");
    support::play(&mut client, &seats, 'b', "e7e5").await;
    let game = support::get(&mut client, &seats.id).await.expect("get");
    let moves: Vec<_> = game.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(moves, ["e2e4", "e7e5"]);
    assert_eq!(redis.command(&["SCRIPT", "FLUSH"]), "+OK\r\n");
    let another = support::create(&mut client, None).await;
    support::play(&mut client, &another, 'w', "d2d4").await;
}

/// A Redis that keeps its connections open but answers nothing (SIGSTOP, unlike the outage
/// above, closes no connection): a new watch of a game and a new feed consumer are refused
/// UNAVAILABLE rather than left waiting for Redis; once it answers again, a watch follows the
/// game. (The pub/sub commands' own bound, `hub::answered`, has a unit test: here a read
/// before them fails first.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_redis_refuses_new_watches_instead_of_hanging() {
    let redis = Redis::start();
    let (r0, r1) = (
        support::replica(&redis).await,
        support::replica(&redis).await,
    );
    let (mut c0, mut c1) = (r0.client().await, r1.client().await);
    let seats = support::create(&mut c0, None).await;
    r1.wait_for(ServingStatus::Serving).await;

    redis.freeze();
    // The bound only tells a hang from an answer; the calls' own limits are far below it.
    let bound = std::time::Duration::from_secs(60);
    let watch = tokio::time::timeout(
        bound,
        c1.watch_game(pb::WatchGameRequest {
            game_id: seats.id.clone(),
            after_seq: 0,
        }),
    )
    .await
    .expect("WatchGame answers while Redis is silent");
    let refused = watch.expect_err("no watch without Redis");
    assert_eq!(refused.code(), Code::Unavailable, "{}", refused.message());
    let feed = tokio::time::timeout(bound, async {
        let mut stream = c1
            .watch_games(pb::WatchGamesRequest::default())
            .await?
            .into_inner();
        stream.message().await
    })
    .await
    .expect("WatchGames answers while Redis is silent");
    let refused = feed.expect_err("no feed without Redis");
    assert_eq!(refused.code(), Code::Unavailable, "{}", refused.message());

    redis.thaw();
    let mut watcher = tokio::time::timeout(bound, async {
        loop {
            match c1
                .watch_game(pb::WatchGameRequest {
                    game_id: seats.id.clone(),
                    after_seq: 0,
                })
                .await
            {
                Ok(stream) => return stream.into_inner(),
                Err(status) if status.code() == Code::Unavailable => {
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                }
                Err(status) => panic!("watch after the thaw: {status}"),
            }
        }
    })
    .await
    .expect("a watch once Redis answers again");
    support::play(&mut c0, &seats, 'w', "e2e4").await;
    let mut seen = Vec::new();
    while !seen.iter().any(|e: &String| e.starts_with("move")) {
        let event = tokio::time::timeout(bound, watcher.message())
            .await
            .expect("the move reaches the watch")
            .expect("an event")
            .expect("the stream is open");
        let text = support::describe(&event);
        if text != "heartbeat" && !text.starts_with("presence") {
            seen.push(text);
        }
    }
    assert_eq!(
        seen.last().map(String::as_str),
        Some("move e2e4"),
        "{seen:?}"
    );
}
