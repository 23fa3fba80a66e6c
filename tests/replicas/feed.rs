//! The feed (WatchGames) across replicas, on one Redis and on a Redis Cluster: a consumer that
//! leaves one replica and resumes on another with its last cursor sees every event exactly
//! once, each game's in order, and the same events as one that never left; a player token
//! revoked on one replica ends the feed it holds open on another and is refused there.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use chessd::ServerConfig;
use chessd::proto::{self as pb, watch_games_response::Event};
use tonic::{Code, Request, Streaming};

use crate::support::{self, Client, Cluster, Redis, Replica, authed, reason};

const KEY: &str = "platform-key-0123456789abcdef0123456789";

async fn next(
    stream: &mut Streaming<pb::WatchGamesResponse>,
) -> Result<pb::WatchGamesResponse, tonic::Status> {
    tokio::time::timeout(Duration::from_secs(20), stream.message())
        .await
        .expect("a feed message within 20 s")?
        .ok_or_else(|| tonic::Status::internal("the feed ended"))
}

async fn next_event(stream: &mut Streaming<pb::WatchGamesResponse>) -> pb::WatchGamesResponse {
    loop {
        let m = next(stream).await.expect("the feed goes on");
        if !matches!(m.event, Some(Event::Heartbeat(_))) {
            return m;
        }
    }
}

/// (game id, `created` or `finished`).
fn what(m: &pb::WatchGamesResponse) -> (String, &'static str) {
    match &m.event {
        Some(Event::GameCreated(c)) => (c.game.as_ref().unwrap().game_id.clone(), "created"),
        Some(Event::GameFinished(f)) => (f.game.as_ref().unwrap().game_id.clone(), "finished"),
        other => panic!("not a lifecycle event: {other:?}"),
    }
}

async fn feed(client: &mut Client, after_cursor: &str) -> Streaming<pb::WatchGamesResponse> {
    client
        .watch_games(pb::WatchGamesRequest {
            after_cursor: after_cursor.into(),
            ..Default::default()
        })
        .await
        .unwrap_or_else(|s| panic!("WatchGames: {}", s.message()))
        .into_inner()
}

async fn resign(client: &mut Client, seats: &support::Seats) {
    let request = pb::ResignRequest {
        game_id: seats.id.clone(),
    };
    client.resign(authed(request, &seats.white)).await.unwrap();
}

/// The consumer alternates replicas: reads one event on one, drops the stream, resumes on the
/// other from the event's cursor, while both replicas create and end games.
async fn resume_across(replicas: &[Replica; 2]) {
    let mut clients = [replicas[0].client().await, replicas[1].client().await];
    let mut steady = feed(&mut clients[0].clone(), "").await;
    let mut consumer = feed(&mut clients[1].clone(), "").await;
    let mut seen = Vec::new();
    let mut expected: HashMap<String, Vec<&str>> = HashMap::new();
    for round in 0..6 {
        let on = round % 2;
        let seats = support::create(&mut clients[on], None).await;
        expected.insert(seats.id.clone(), vec!["created"]);
        if round % 3 != 2 {
            resign(&mut clients[1 - on], &seats).await;
            expected.get_mut(&seats.id).unwrap().push("finished");
        }
        let m = next_event(&mut consumer).await;
        let cursor = m.cursor.clone();
        assert!(!cursor.is_empty());
        seen.push(what(&m));
        drop(consumer);
        consumer = feed(&mut clients[1 - on].clone(), &cursor).await;
    }
    let total: usize = expected.values().map(Vec::len).sum();
    while seen.len() < total {
        seen.push(what(&next_event(&mut consumer).await));
    }
    let unique: HashSet<&(String, &str)> = seen.iter().collect();
    assert_eq!(unique.len(), seen.len(), "a duplicate: {seen:?}");
    let mut per_game: HashMap<String, Vec<&str>> = HashMap::new();
    for (game, kind) in &seen {
        per_game.entry(game.clone()).or_default().push(kind);
    }
    assert_eq!(per_game, expected, "every event once, each game's in order");
    let mut steady_seen = Vec::new();
    for _ in 0..total {
        steady_seen.push(what(&next_event(&mut steady).await));
    }
    let mut a = seen.clone();
    a.sort();
    steady_seen.sort();
    assert_eq!(
        a, steady_seen,
        "the same events as a consumer that never left"
    );
    // Nothing more: the resumed stream's next message is a heartbeat.
    let beat = next(&mut consumer).await.unwrap();
    assert!(matches!(beat.event, Some(Event::Heartbeat(_))), "{beat:?}");
}

fn quick(mut config: ServerConfig) -> ServerConfig {
    config.heartbeat = Duration::from_millis(200);
    config
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_feed_resumes_on_another_replica() {
    let redis = Redis::start();
    let config = || quick(crate::common::on_redis(redis.url(), false));
    let replicas = [
        support::replica_with(config()).await,
        support::replica_with(config()).await,
    ];
    resume_across(&replicas).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_feed_resumes_on_another_replica_on_a_cluster() {
    let cluster = Cluster::start();
    let config = || quick(support::cluster_config(&cluster));
    let replicas = [
        support::replica_with(config()).await,
        support::replica_with(config()).await,
    ];
    resume_across(&replicas).await;
}

/// Waits up to 10 s for `redis` to count `n` subscribers of `channel`; the count it saw last.
async fn subscribers_become(redis: &Redis, channel: &str, n: u64) -> u64 {
    let mut seen = redis.subscribers(channel);
    for _ in 0..100 {
        if seen == n {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        seen = redis.subscribers(channel);
    }
    seen
}

/// Every lane's growth is published on the feed channel, once per move; a replica listens to
/// it only while it has live feed consumers, and the events still reach them at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_listen_to_the_feed_only_while_it_is_followed() {
    let redis = Redis::start();
    let config = || quick(crate::common::on_redis(redis.url(), false));
    let replicas = [
        support::replica_with(config()).await,
        support::replica_with(config()).await,
    ];
    // Both pub/sub connections are up once both listen for presence.
    assert_eq!(subscribers_become(&redis, "chessd:presence", 2).await, 2);
    let mut a = replicas[0].client().await;
    let mut b = replicas[1].client().await;
    let seats = support::create(&mut b, None).await;
    support::play(&mut b, &seats, 'w', "e2e4").await;
    assert_eq!(
        redis.subscribers("chessd:feed"),
        0,
        "no consumer, no listener"
    );

    let mut live = feed(&mut a, "").await;
    assert_eq!(subscribers_become(&redis, "chessd:feed", 1).await, 1);
    let other = support::create(&mut b, None).await;
    assert_eq!(
        what(&next_event(&mut live).await),
        (other.id.clone(), "created")
    );

    drop(live);
    assert_eq!(
        subscribers_become(&redis, "chessd:feed", 0).await,
        0,
        "the listener goes with the last consumer"
    );
}

fn keyed<T>(msg: T) -> Request<T> {
    let mut request = Request::new(msg);
    request
        .metadata_mut()
        .insert("x-api-key", KEY.parse().unwrap());
    request
}

/// A file with the platform's API key, removed when dropped.
struct KeyFile(std::path::PathBuf);

impl Drop for KeyFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A token issued on one replica plays on the other; revoked on the first, it is refused on
/// the other at once and the feed it holds open there ends with TOKEN_REVOKED.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revocation_reaches_every_replica() {
    let redis = Redis::start();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let keys = KeyFile(std::env::temp_dir().join(format!(
        "chessd-replicas-{}-{nanos}.keys",
        std::process::id()
    )));
    std::fs::write(&keys.0, format!("{KEY}\n")).unwrap();
    let config = || {
        let mut config = crate::common::on_redis(redis.url(), false);
        config.security.api_key_file = Some(keys.0.clone());
        // Long heartbeats: the end must come from the revocation notice, not a heartbeat's
        // check of the token.
        config.heartbeat = Duration::from_secs(60);
        config
    };
    let (a, b) = (
        support::replica_with(config()).await,
        support::replica_with(config()).await,
    );
    let (mut on_a, mut on_b) = (a.client().await, b.client().await);
    let issued = on_a
        .issue_player_token(keyed(pb::IssuePlayerTokenRequest {
            player_id: "bot-1".into(),
        }))
        .await
        .unwrap()
        .into_inner();
    let game = on_a
        .create_game(keyed(pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            white_player_id: "bot-1".into(),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    let id = game.game.unwrap().game_id;
    let mv = |uci: &str| {
        authed(
            pb::SubmitMoveRequest {
                game_id: id.clone(),
                r#move: uci.into(),
                ..Default::default()
            },
            &issued.token,
        )
    };
    on_b.submit_move(mv("e2e4")).await.unwrap();
    let mut held = on_b
        .watch_games(authed(pb::WatchGamesRequest::default(), &issued.token))
        .await
        .unwrap()
        .into_inner();
    let running = next(&mut held).await.unwrap();
    assert!(
        matches!(running.event, Some(Event::GameCreated(_))),
        "{running:?}"
    );
    next(&mut held).await.unwrap(); // where the stream stands

    on_a.revoke_player_token(keyed(pb::RevokePlayerTokenRequest {
        target: Some(pb::revoke_player_token_request::Target::PlayerId(
            "bot-1".into(),
        )),
    }))
    .await
    .unwrap();
    let refused = on_b
        .resign(authed(
            pb::ResignRequest {
                game_id: id.clone(),
            },
            &issued.token,
        ))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated);
    assert_eq!(reason(&refused), "TOKEN_INVALID");
    let ended = loop {
        match next(&mut held).await {
            Ok(m) => assert!(matches!(m.event, Some(Event::Heartbeat(_))), "{m:?}"),
            Err(status) => break status,
        }
    };
    assert_eq!(reason(&ended), "TOKEN_REVOKED", "{}", ended.message());
}
