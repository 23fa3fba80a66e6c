//! Rate limits: per peer, per API key and per seat, RESOURCE_EXHAUSTED with RetryInfo; a
//! seat's own moves on its own turn pass under the move floor whatever the other limits say.

use chessd::ServerConfig;
use chessd::proto as pb;
use chessd::security::Rate;
use tonic::{Code, Request};
use tonic_types::StatusExt;

use crate::TempDir;
use crate::support::{self, assert_refused, authed};

/// One call a second sustained, bursts of `burst`: the refill is slow enough that a test's
/// quick calls cannot earn a new one in between.
fn slow(burst: u32) -> Rate {
    Rate::new(1, burst)
}

/// Past the peer burst, calls are refused with RATE_LIMITED and a RetryInfo delay.
#[tokio::test]
async fn peer_limit_refuses_with_retry_info() {
    let mut config = ServerConfig::default();
    config.security.rates.peer = slow(5);
    let server = support::start_with(config).await;
    let mut client = server.client().await;
    for i in 0..5 {
        client
            .get_stats(pb::GetStatsRequest::default())
            .await
            .unwrap_or_else(|s| panic!("call {i} refused: {}", s.message()));
    }
    let status = assert_refused(
        client.get_stats(pb::GetStatsRequest::default()).await,
        Code::ResourceExhausted,
        "RATE_LIMITED",
    );
    let delay = status
        .get_details_retry_info()
        .and_then(|r| r.retry_delay)
        .expect("RetryInfo with a delay");
    assert!(delay > std::time::Duration::ZERO);
    assert!(delay <= std::time::Duration::from_secs(1), "{delay:?}");
    assert!(
        status.message().contains("per peer address"),
        "{}",
        status.message()
    );
    // Health checks are not limited.
    let mut health = tonic_health::pb::health_client::HealthClient::new(server.channel().await);
    health
        .check(tonic_health::pb::HealthCheckRequest {
            service: chessd::SERVICE_NAME.into(),
        })
        .await
        .expect("health is not rate limited");
    server.shutdown().await.unwrap();
}

/// With the peer and seat limits exhausted, both seats still play their own moves (the floor);
/// a move out of turn and a read are refused by the limits.
#[tokio::test]
async fn own_moves_pass_under_the_floor() {
    let mut config = ServerConfig::default();
    config.security.rates.peer = slow(4);
    config.security.rates.token = slow(1);
    let server = support::start_with(config).await;
    let mut client = server.client().await;
    let (_, seats) = support::create(&mut client, "chess", "").await;
    // Twelve moves (12 calls from one peer, three times its burst), each on its own turn.
    let game = support::play_all(
        &mut client,
        &seats,
        'w',
        "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5",
    )
    .await;
    assert_eq!(game.ply, 12);
    let out_of_turn = pb::SubmitMoveRequest {
        game_id: seats.id.clone(),
        r#move: "d6".into(),
        ..Default::default()
    };
    let refused = client
        .submit_move(authed(out_of_turn, &seats.black))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert_refused(
        client
            .get_game(pb::GetGameRequest {
                game_id: seats.id.clone(),
            })
            .await,
        Code::ResourceExhausted,
        "RATE_LIMITED",
    );
    // White's own move still passes.
    let played = support::play(&mut client, &seats, 'w', "Bb3").await;
    assert_eq!(played.game.unwrap().ply, 13);
    server.shutdown().await.unwrap();
}

/// A backend is limited per key, not per address.
#[tokio::test]
async fn key_limit() {
    let dir = TempDir::new("key-limit");
    let key = "backend-key-0123456789abcdef0123";
    let mut config = ServerConfig::default();
    config.security.api_key_file = Some(dir.write("keys", &format!("{key}\n")));
    config.security.rates.key = slow(3);
    config.security.rates.peer = slow(100);
    let server = support::start_with(config).await;
    let mut client = server.client().await;
    let keyed = || {
        let mut r = Request::new(pb::GetStatsRequest::default());
        r.metadata_mut().insert("x-api-key", key.parse().unwrap());
        r
    };
    for _ in 0..3 {
        client
            .get_stats(keyed())
            .await
            .expect("within the key's burst");
    }
    let status = assert_refused(
        client.get_stats(keyed()).await,
        Code::ResourceExhausted,
        "RATE_LIMITED",
    );
    assert!(
        status.message().contains("per API key"),
        "{}",
        status.message()
    );
    // The same address without the key still has its own budget for open calls.
    client
        .get_game(pb::GetGameRequest {
            game_id: "0000000000000".into(),
        })
        .await
        .map(|_| ())
        .unwrap_err()
        .code()
        .eq(&Code::NotFound)
        .then_some(())
        .expect("the peer's budget is separate");
    server.shutdown().await.unwrap();
}

/// `--no-rate-limits`: however small the limits, no call is refused by them.
#[tokio::test]
async fn limits_off() {
    let mut config = ServerConfig::default();
    config.security.rate_limits = false;
    config.security.rates.peer = slow(1);
    config.security.rates.token = slow(1);
    config.security.rates.move_floor = slow(1);
    let server = support::start_with(config).await;
    let mut client = server.client().await;
    let (_, seats) = support::create(&mut client, "chess", "").await;
    let game = support::play_all(&mut client, &seats, 'w', "e4 e5 Nf3 Nc6 Bb5 a6").await;
    assert_eq!(game.ply, 6);
    for _ in 0..10 {
        client
            .get_stats(pb::GetStatsRequest::default())
            .await
            .expect("no limit");
    }
    server.shutdown().await.unwrap();
}
