//! The feed's bounds, on every store: a cursor whose next events the feed no longer holds
//! (past `--feed-max-events` or `--feed-retention`) is OUT_OF_RANGE with the oldest cursor,
//! which resumes; a consumer that takes nothing is cut off with the cursor to resume from.

use std::collections::HashSet;
use std::time::Duration;

use chessd::ServerConfig;
use chessd::proto as pb;
use chessd::proto::game_service_client::GameServiceClient;
use tonic::Code;
use tonic::transport::Endpoint;
use tonic_types::StatusExt;

use crate::feed::{WAIT, after, feed, game_of, labelled, next_feed, what};
use crate::support::*;

/// A cursor the feed no longer holds the events after is OUT_OF_RANGE with the oldest cursor
/// that resumes, which then resumes; text that is no cursor is INVALID_ARGUMENT naming the
/// field.
#[tokio::test]
async fn old_cursors_are_refused_with_the_oldest() {
    let mut config = ServerConfig::default();
    // On Redis the bound is per lane (16 lanes): one event a lane.
    config.store.limits.feed_max_events = 16;
    let server = start_with(config).await;
    let mut client = server.client().await;
    let mut stream = feed(&mut client, pb::WatchGamesRequest::default())
        .await
        .unwrap();
    let first = labelled(&mut client, "a", "b", &[]).await;
    let m = next_feed(&mut stream).await.unwrap();
    assert_eq!(what(&m), format!("created {}", first.id));
    let old = m.cursor;
    // Enough games that the first game's lane holds later ones too, so its creation is
    // trimmed: with 64, a lane that drew no other game (about one run in 60 on Redis's 16
    // lanes) kept it, and the oldest cursor resumed there. With 160, one run in 28,000.
    let mut ids = Vec::new();
    for _ in 0..160 {
        ids.push(labelled(&mut client, "a", "b", &[]).await.id);
    }
    // The Redis store trims in its background sweep (every second).
    let deadline = tokio::time::Instant::now() + WAIT;
    let status = loop {
        match feed(&mut client, after(&old)).await {
            Err(status) => break status,
            Ok(_) => {
                assert!(
                    tokio::time::Instant::now() < deadline,
                    "the old cursor stays valid"
                );
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    };
    assert_refused::<()>(Err(status.clone()), Code::OutOfRange, "CURSOR_OUT_OF_RANGE");
    let oldest = status.get_details_error_info().unwrap().metadata["oldest_cursor"].clone();
    let mut rest = feed(&mut client, after(&oldest)).await.unwrap();
    let m = next_feed(&mut rest).await.unwrap();
    assert!(
        ids.contains(&game_of(&m)),
        "resumes within the games kept: {}",
        what(&m)
    );

    let garbage = feed(&mut client, after("not a cursor")).await.map(|_| ());
    let status = assert_refused(garbage, Code::InvalidArgument, "INVALID_FIELD");
    assert_eq!(
        status.get_details_error_info().unwrap().metadata["field"],
        "after_cursor"
    );
}

/// `--feed-retention`: events older than it are forgotten, and a cursor before them is refused
/// with the oldest cursor, never a silent gap; that one resumes with what came since.
#[tokio::test]
async fn cursors_past_the_retention_are_refused() {
    let mut config = ServerConfig::default();
    config.store.limits.feed_retention = Duration::from_millis(300);
    let server = start_with(config).await;
    let mut client = server.client().await;
    let mut stream = feed(&mut client, pb::WatchGamesRequest::default())
        .await
        .unwrap();
    let first = labelled(&mut client, "a", "b", &[]).await;
    let m = next_feed(&mut stream).await.unwrap();
    assert_eq!(what(&m), format!("created {}", first.id));
    let old = m.cursor;
    // An event after the cursor: once it is forgotten, resuming from `old` would skip it.
    // (A cursor past everything forgotten stays good: nothing after it is missing.)
    labelled(&mut client, "c", "d", &[]).await;
    // The Redis store trims in its background sweep (every second).
    let deadline = tokio::time::Instant::now() + WAIT;
    let status = loop {
        match feed(&mut client, after(&old)).await {
            Err(status) => break status,
            Ok(_) => {
                assert!(
                    tokio::time::Instant::now() < deadline,
                    "the old cursor stays valid"
                );
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };
    assert_refused::<()>(Err(status.clone()), Code::OutOfRange, "CURSOR_OUT_OF_RANGE");
    let oldest = status.get_details_error_info().unwrap().metadata["oldest_cursor"].clone();
    assert_ne!(oldest, old);
    let third = labelled(&mut client, "e", "f", &[]).await;
    let mut rest = feed(&mut client, after(&oldest)).await.unwrap();
    assert_eq!(
        what(&next_feed(&mut rest).await.unwrap()),
        format!("created {}", third.id)
    );
}

/// A consumer that takes nothing for the stall timeout is cut off with FEED_TOO_SLOW and the
/// cursor to resume from, which gives the rest exactly once.
#[tokio::test]
async fn a_slow_consumer_is_cut_off_with_a_cursor() {
    let mut config = ServerConfig::default();
    config.transport.stall_timeout = Duration::from_secs(1);
    let server = start_with(config).await;
    let mut client = server.client().await;
    // A tiny HTTP/2 window: the server can send the slow consumer only a few events ahead.
    let channel = Endpoint::from_shared(server.url())
        .unwrap()
        .initial_stream_window_size(Some(256))
        .connect()
        .await
        .unwrap();
    let mut slow = GameServiceClient::new(channel);
    let mut stream = feed(&mut slow, pb::WatchGamesRequest::default())
        .await
        .unwrap();
    let mut ids = Vec::new();
    for _ in 0..30 {
        ids.push(labelled(&mut client, "a", "b", &[]).await.id);
    }
    // Past the stall timeout (the pump gives up on it), within a second more (the ending still
    // waits for room: one that cannot take even that is reset instead).
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut got = Vec::new();
    let status = loop {
        match next_feed(&mut stream).await {
            Ok(m) => got.push(m),
            Err(status) => break status,
        }
    };
    assert_eq!(
        (status.code(), reason(&status).as_str()),
        (Code::ResourceExhausted, "FEED_TOO_SLOW"),
        "{}",
        status.message()
    );
    assert!(got.len() < ids.len(), "cut off before everything came");
    let resume = status.get_details_error_info().unwrap().metadata["resume_after_cursor"].clone();
    if let Some(last) = got.last() {
        assert_eq!(resume, last.cursor, "resume after the last event taken");
    }
    let mut rest = feed(&mut client, after(&resume)).await.unwrap();
    while got.len() < ids.len() {
        got.push(next_feed(&mut rest).await.unwrap());
    }
    let order: Vec<String> = got.iter().map(game_of).collect();
    let unique: HashSet<&String> = order.iter().collect();
    assert_eq!(unique.len(), ids.len(), "each creation exactly once");
    assert!(ids.iter().all(|id| unique.contains(id)));
}
