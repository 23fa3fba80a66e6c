//! A CreateGame whose reply from Redis is lost: the script ran, the replica never heard, the
//! client got UNAVAILABLE and retries with its request id. The retry must get that game and
//! its seat tokens, and no second game may exist.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use chessd::proto as pb;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tonic::Code;
use tonic_health::pb::health_check_response::ServingStatus;

use crate::support::{self, Redis, Seats};

/// A TCP proxy in front of Redis that, while `swallow` is set, passes every command on but
/// throws away Redis's replies, then cuts the connection: replies lost on the way back.
async fn lossy_proxy(redis_port: u16, swallow: Arc<AtomicBool>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind proxy");
    let port = listener.local_addr().expect("proxy addr").port();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let Ok(server) = TcpStream::connect(("127.0.0.1", redis_port)).await else {
                continue;
            };
            let swallow = swallow.clone();
            tokio::spawn(async move {
                let (mut client_rx, mut client_tx) = client.into_split();
                let (mut server_rx, mut server_tx) = server.into_split();
                let upstream = tokio::io::copy(&mut client_rx, &mut server_tx);
                let downstream = async {
                    let mut buf = vec![0u8; 64 * 1024];
                    loop {
                        let n = server_rx.read(&mut buf).await.unwrap_or(0);
                        if n == 0 {
                            return;
                        }
                        if swallow.load(Ordering::SeqCst) {
                            // Lost: keep passing commands on for a moment, then cut.
                            tokio::time::sleep(Duration::from_millis(2500)).await;
                            return;
                        }
                        if client_tx.write_all(&buf[..n]).await.is_err() {
                            return;
                        }
                    }
                };
                tokio::select! { _ = upstream => {}, () = downstream => {} }
            });
        }
    });
    port
}

/// The replica's connection loses Redis's replies for a while: its CreateGame (with a
/// request id) runs in Redis but the call fails UNAVAILABLE. The retry with the same request
/// id gets the game made, with seat tokens that play, and that is the only game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_retried_after_a_lost_reply_gets_its_game() {
    let redis = Redis::start();
    let swallow = Arc::new(AtomicBool::new(false));
    let port = lossy_proxy(redis.port, swallow.clone()).await;
    let replica = support::replica_with(crate::common::on_redis(
        format!("redis://127.0.0.1:{port}/"),
        false,
    ))
    .await;
    let mut client = replica.client().await;
    // Redis learns the create script first, so the lost call is one EVALSHA that runs.
    let earlier = support::create(&mut client, None).await;
    let request = pb::CreateGameRequest {
        variant: pb::Variant::Chess as i32,
        white_player: "ann".into(),
        black_player: "bob".into(),
        request_id: "lost-reply-1".into(),
        ..Default::default()
    };
    swallow.store(true, Ordering::SeqCst);
    let first = client.create_game(request.clone()).await;
    swallow.store(false, Ordering::SeqCst);
    assert_eq!(
        first.as_ref().map_err(tonic::Status::code).err(),
        Some(Code::Unavailable),
        "{first:?}"
    );
    // The script ran: the earlier game's hash and this one's.
    let games = redis.command(&["KEYS", "*:game:*"]);
    assert_eq!(games.matches(":game:").count(), 2, "{games}");
    // The proxy cuts the connection 2.5 s after the first lost reply; the replica's next
    // connection passes replies again.
    tokio::time::sleep(Duration::from_millis(1000)).await;
    replica.wait_for(ServingStatus::Serving).await;
    let retry = client
        .create_game(request)
        .await
        .unwrap_or_else(|s| panic!("the retry gets the game: {s:?}"))
        .into_inner();
    let seats = Seats {
        id: retry.game.expect("game").game_id,
        white: retry.white_token,
        black: retry.black_token,
    };
    support::play(&mut client, &seats, 'w', "e2e4").await;
    support::play(&mut client, &seats, 'b', "e7e5").await;
    let mut listed = support::list_all(&mut client, &mut replica.client().await, 10).await;
    listed.sort();
    let mut expected = vec![earlier.id, seats.id];
    expected.sort();
    assert_eq!(listed, expected, "the retry made no second game");
}
