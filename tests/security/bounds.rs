//! Resource bounds: abandoned games end by themselves (watchers told, result counted), the
//! connection cap and the per-connection stream cap hold callers back until room is made.

use std::time::Duration;

use chessd::ServerConfig;
use chessd::proto as pb;
use chessd::proto::game_service_client::GameServiceClient;
use chessd::proto::watch_game_response::Event;

use crate::support::{self, describe, next_event, watch};

/// With nobody moving, a fresh game is aborted and a started one is lost by the side to move;
/// watchers get the game over, and the result is counted (tokio's clock is paused: no wait).
#[tokio::test(start_paused = true)]
async fn abandoned_games_end() {
    let mut config = ServerConfig::default();
    config.store.limits.abandon_after = Some(Duration::from_secs(600));
    let server = support::start_with(config).await;
    let mut client = server.client().await;
    let (_, fresh) = support::create(&mut client, "chess", "").await;
    let (_, started) = support::create(&mut client, "chess", "").await;
    support::play_all(&mut client, &started, 'w', "e4 e5").await;
    let mut stream = watch(&mut client, &started.id, 0).await;
    assert_eq!(
        describe(&next_event(&mut stream).await.unwrap().unwrap()),
        "snapshot ply 2"
    );
    let over = next_event(&mut stream).await.unwrap().unwrap();
    let Some(Event::GameOver(over)) = over.event else {
        panic!("expected game over, got {over:?}")
    };
    let outcome = over.outcome.unwrap();
    assert_eq!(
        (outcome.pgn_result.as_str(), outcome.termination),
        ("0-1", pb::Termination::Abandonment as i32),
        "white, to move, walked away"
    );
    let fresh = support::get(&mut client, &fresh.id).await;
    assert_eq!(fresh.status, pb::GameStatus::Aborted as i32);
    let stats = client
        .get_stats(pb::GetStatsRequest::default())
        .await
        .unwrap()
        .into_inner();
    let chess = &stats.variants[0];
    assert_eq!((chess.black_wins, chess.finished_games), (1, 1));
    server.shutdown().await.unwrap();
}

/// Whether `call` is still waiting after a moment. A call held back by a cap never finishes
/// while the cap holds; were the cap broken it would finish at once, failing the test.
async fn still_waiting<T>(call: &mut tokio::task::JoinHandle<T>) -> bool {
    tokio::time::timeout(Duration::from_millis(300), call)
        .await
        .is_err()
}

/// Beyond --max-connections a new connection waits in the kernel's queue until one closes.
#[tokio::test]
async fn connection_cap() {
    let mut config = ServerConfig::default();
    config.transport.max_connections = 1;
    let server = support::start_with(config).await;
    let mut first = server.client().await;
    first
        .get_stats(pb::GetStatsRequest::default())
        .await
        .unwrap();
    let url = server.url();
    let mut second = tokio::spawn(async move {
        let mut client = GameServiceClient::connect(url).await.unwrap();
        client
            .get_stats(pb::GetStatsRequest::default())
            .await
            .map(|_| ())
    });
    assert!(
        still_waiting(&mut second).await,
        "a second connection was served"
    );
    drop(first);
    second
        .await
        .unwrap()
        .expect("served once the first connection closed");
    server.shutdown().await.unwrap();
}

/// Beyond --max-streams-per-connection a new call on the connection waits for a stream to end.
#[tokio::test]
async fn stream_cap() {
    let mut config = ServerConfig::default();
    config.transport.max_streams_per_connection = 2;
    let server = support::start_with(config).await;
    let channel = server.channel().await;
    let mut client = GameServiceClient::new(channel.clone());
    let (_, a) = support::create(&mut client, "chess", "").await;
    let (_, b) = support::create(&mut client, "chess", "").await;
    let first = watch(&mut client, &a.id, 0).await;
    let _second = watch(&mut client, &b.id, 0).await;
    let mut third = tokio::spawn(async move {
        GameServiceClient::new(channel)
            .get_stats(pb::GetStatsRequest::default())
            .await
            .map(|_| ())
    });
    assert!(still_waiting(&mut third).await, "a third stream was opened");
    drop(first);
    third.await.unwrap().expect("served once a stream ended");
    server.shutdown().await.unwrap();
}
