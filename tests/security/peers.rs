//! Hostile peers at the transport: each test is an attack as a stranger would run it, with
//! raw HTTP/2 (the `h2` crate) where a real client would not misbehave on purpose.
//! - a connection that answers PINGs and SETTINGS but never sends WINDOW_UPDATE, holding
//!   watch streams on a game while its events pile up;
//! - silent sockets at the connection cap, and a flood of them;
//! - connections that stop half-way through their greeting, and idle ones;
//! - one address taking a game's every watcher seat.

use std::net::SocketAddr;
use std::time::Duration;

use chessd::ServerConfig;
use chessd::proto as pb;
use h2::client::ResponseFuture;
use prost::Message;
use prost::bytes::Bytes;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::{Instant, timeout};
use tonic::Code;

use crate::support::{self, Client, assert_refused, watch};

/// The HTTP/2 preface every client sends first.
const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// A gRPC frame (uncompressed) of `message`.
fn grpc_frame(message: &impl Message) -> Bytes {
    let payload = message.encode_to_vec();
    let mut frame = vec![0];
    frame.extend_from_slice(&(payload.len() as u32).to_be_bytes());
    frame.extend_from_slice(&payload);
    Bytes::from(frame)
}

/// An HTTP/2 connection that greets, answers PINGs and SETTINGS (h2 does that by itself),
/// and never sends WINDOW_UPDATE: it never releases the capacity of what it receives.
async fn withholding_client(addr: SocketAddr) -> h2::client::SendRequest<Bytes> {
    let tcp = TcpStream::connect(addr).await.unwrap();
    let (client, connection) = h2::client::Builder::new()
        .initial_window_size(65_535)
        .initial_connection_window_size(65_535)
        // h2 guards its own user against piles of small unread DATA frames; this peer
        // piles them up on purpose.
        .data_frame_budget(1 << 30)
        .handshake::<_, Bytes>(tcp)
        .await
        .unwrap();
    tokio::spawn(async move {
        // The connection's end (the server closing it) is not this peer's concern.
        let _ = connection.await;
    });
    client
}

/// Opens a WatchGame stream over raw HTTP/2.
async fn raw_watch(
    client: &mut h2::client::SendRequest<Bytes>,
    addr: SocketAddr,
    game_id: &str,
) -> ResponseFuture {
    let request = http::Request::builder()
        .method("POST")
        .uri(format!("http://{addr}/chessd.v1.GameService/WatchGame"))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(())
        .unwrap();
    let mut ready = client.clone().ready().await.unwrap();
    let (response, mut body) = ready.send_request(request, false).unwrap();
    body.send_data(
        grpc_frame(&pb::WatchGameRequest {
            game_id: game_id.into(),
            after_seq: 0,
        }),
        true,
    )
    .unwrap();
    response
}

/// How a raw stream ended: the server reset it (the h2 reason), or ended it with trailers
/// (the grpc-status and ErrorInfo reason). Reads what arrived without granting window.
async fn raw_end(response: ResponseFuture, by: Instant) -> String {
    let response = tokio::time::timeout_at(by, response)
        .await
        .expect("the response headers before the deadline");
    let mut body = match response {
        Ok(response) => response.into_body(),
        Err(e) if e.is_remote() => return format!("reset {:?}", e.reason()),
        Err(e) => panic!("the stream failed on this side: {e:?}"),
    };
    loop {
        match tokio::time::timeout_at(by, body.data()).await {
            Err(_) => panic!("a stalled stream was still open at the deadline"),
            Ok(Some(Ok(_))) => {}
            Ok(Some(Err(e))) if e.is_remote() => return format!("reset {:?}", e.reason()),
            Ok(Some(Err(e))) => panic!("the stream failed on this side: {e:?}"),
            Ok(None) => {
                let trailers = body.trailers().await.unwrap().unwrap_or_default();
                let status = tonic::Status::from_header_map(&trailers).expect("a grpc-status");
                return format!("{:?} {}", status.code(), support::reason(&status));
            }
        }
    }
}

/// 50 offers and declines: 100 events on the game, far past a stalled watcher's window.
async fn hundred_events(client: &mut Client, seats: &support::Seats) {
    for _ in 0..50 {
        support::offer_draw(client, seats, 'w').await;
        support::decline_draw(client, seats, 'b').await;
    }
}

/// A peer that grants no flow-control window holds 50 watch streams on one game while 100
/// events are played: within a bounded time every stream is ended (reset, since the peer
/// cannot even take the ending), and the game's whole watcher quota is free again.
#[tokio::test]
async fn stalled_watchers_are_cut_and_free_their_seats() {
    let mut config = ServerConfig::default();
    config.store.limits.max_watchers_per_game = 60;
    config.transport.stall_timeout = Duration::from_secs(1);
    // 100 calls from two seats in a burst: rate limits are not what this test is about (they
    // also lift the per-address watcher bounds, tested below).
    config.security.rate_limits = false;
    let server = support::start_with(config).await;
    let mut client = server.client().await;
    let (_, seats) = support::create(&mut client, "chess", "").await;

    let mut attacker = withholding_client(server.addr).await;
    let mut stalled = Vec::new();
    for _ in 0..50 {
        stalled.push(raw_watch(&mut attacker, server.addr, &seats.id).await);
    }
    hundred_events(&mut client, &seats).await;

    // Each stall is noticed within the stall timeout, and a stream that cannot take its
    // ending is reset one stall timeout later.
    let by = Instant::now() + Duration::from_secs(15);
    for response in stalled {
        let end = raw_end(response, by).await;
        assert!(
            end == "reset Some(CANCEL)" || end == "ResourceExhausted WATCHER_TOO_SLOW",
            "{end}"
        );
    }
    // All 60 watcher seats of the game are free again: the 50 stalled streams hold none.
    let mut watchers = Vec::new();
    for _ in 0..60 {
        watchers.push(watch(&mut client, &seats.id, 0).await);
    }
    assert_refused(
        client
            .watch_game(pb::WatchGameRequest {
                game_id: seats.id.clone(),
                after_seq: 0,
            })
            .await,
        Code::ResourceExhausted,
        "TOO_MANY_WATCHERS",
    );
    drop(watchers);
    server.shutdown().await.unwrap();
}

/// A watcher that takes its events slowly but surely is not cut off by the stall bound: the
/// bound is about taking nothing at all.
#[tokio::test]
async fn slow_but_steady_watchers_stay() {
    let mut config = ServerConfig::default();
    config.transport.stall_timeout = Duration::from_secs(1);
    config.security.rate_limits = false;
    let server = support::start_with(config).await;
    let mut client = server.client().await;
    let (_, seats) = support::create(&mut client, "chess", "").await;
    let mut stream = watch(&mut client, &seats.id, 0).await;
    support::next_event(&mut stream).await.unwrap().unwrap();
    for _ in 0..3 {
        hundred_events(&mut client, &seats).await;
        // Slower than the game, well inside the stall timeout each time.
        for _ in 0..100 {
            let event = support::next_event(&mut stream).await.unwrap().unwrap();
            assert!(event.seq > 0);
        }
        tokio::time::sleep(Duration::from_millis(600)).await;
    }
    server.shutdown().await.unwrap();
}

/// Reads until the server closes the socket; `true` if it did before `by`.
async fn closed_by(socket: &mut TcpStream, by: Instant) -> bool {
    let mut buf = [0u8; 1024];
    loop {
        match tokio::time::timeout_at(by, socket.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => {}
        }
    }
}

/// Sockets that never send a byte fill the connection cap: a new client is still served at
/// once (the oldest silent connection makes room), and every silent socket is closed within
/// the handshake timeout. A flood of them, kept up while clients come and go, changes nothing.
#[tokio::test]
async fn silent_sockets_never_lock_clients_out() {
    let mut config = ServerConfig::default();
    config.transport.max_connections = 5;
    config.transport.handshake_timeout = Duration::from_secs(1);
    let server = support::start_with(config).await;
    let started = Instant::now();
    let mut silent = Vec::new();
    for _ in 0..5 {
        silent.push(TcpStream::connect(server.addr).await.unwrap());
    }
    let mut client = timeout(Duration::from_secs(3), server.client())
        .await
        .expect("connected at the cap");
    timeout(
        Duration::from_secs(3),
        client.get_stats(pb::GetStatsRequest::default()),
    )
    .await
    .expect("served at the cap")
    .unwrap();
    for socket in &mut silent {
        assert!(
            closed_by(socket, started + Duration::from_secs(4)).await,
            "a silent socket outlived the handshake timeout"
        );
    }
    drop(client);

    // A flood: 40 silent sockets at a time, each replaced as soon as it is closed.
    let addr = server.addr;
    let flood = tokio::spawn(async move {
        let mut sockets = Vec::new();
        loop {
            while sockets.len() < 40 {
                if let Ok(s) = TcpStream::connect(addr).await {
                    sockets.push(s);
                }
            }
            let mut buf = [0u8; 16];
            let mut open = Vec::new();
            for mut s in sockets {
                match timeout(Duration::from_millis(1), s.read(&mut buf)).await {
                    Ok(Ok(0) | Err(_)) => {}
                    _ => open.push(s),
                }
            }
            sockets = open;
            tokio::task::yield_now().await;
        }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    for round in 0..5 {
        let mut client = timeout(Duration::from_secs(3), server.client())
            .await
            .unwrap_or_else(|_| panic!("round {round}: not connected during the flood"));
        timeout(
            Duration::from_secs(3),
            client.get_stats(pb::GetStatsRequest::default()),
        )
        .await
        .unwrap_or_else(|_| panic!("round {round}: not served during the flood"))
        .unwrap();
    }
    flood.abort();
    server.shutdown().await.unwrap();
}

/// The greeting has a deadline: a connection that sends the HTTP/2 preface but no SETTINGS
/// is closed with the silent ones, while one that greeted stays until it has been idle for
/// the idle timeout, and then gets GOAWAY.
#[tokio::test]
async fn greeting_deadline_and_idle_timeout() {
    let mut config = ServerConfig::default();
    config.transport.handshake_timeout = Duration::from_secs(1);
    config.transport.idle_timeout = Duration::from_secs(3);
    let server = support::start_with(config).await;
    let started = Instant::now();
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    let mut preface_only = TcpStream::connect(server.addr).await.unwrap();
    preface_only.write_all(PREFACE).await.unwrap();
    let mut half_http1 = TcpStream::connect(server.addr).await.unwrap();
    half_http1
        .write_all(b"POST /chessd.v1.GameService/GetStats HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();

    let tcp = TcpStream::connect(server.addr).await.unwrap();
    // Kept: h2's connection future ends by itself once nothing can open a stream on it.
    let (_greeted, connection) = h2::client::handshake(tcp).await.unwrap();
    let connection = tokio::spawn(connection);

    let by = started + Duration::from_secs(3);
    assert!(closed_by(&mut silent, by).await, "silent socket still open");
    assert!(
        closed_by(&mut preface_only, by).await,
        "preface-only socket still open"
    );
    assert!(
        closed_by(&mut half_http1, by).await,
        "half an HTTP/1.1 request still open"
    );
    assert!(
        !connection.is_finished(),
        "a greeted connection was closed by the greeting deadline"
    );
    let ended = timeout(Duration::from_secs(5), connection)
        .await
        .expect("an idle connection got GOAWAY and was closed");
    let ended = ended.unwrap();
    assert!(ended.is_ok(), "closed with GOAWAY, not an error: {ended:?}");
    assert!(
        started.elapsed() >= Duration::from_secs(3),
        "closed before the idle timeout"
    );
    server.shutdown().await.unwrap();
}

/// One address may hold `--max-peer-watchers-per-game` streams on a game and
/// `--max-peer-watchers` in all; closing one frees its place.
#[tokio::test]
async fn one_address_cannot_take_every_seat() {
    let mut config = ServerConfig::default();
    config.security.max_peer_watchers_per_game = 3;
    config.security.max_peer_watchers = 4;
    let server = support::start_with(config).await;
    let mut client = server.client().await;
    let (_, a) = support::create(&mut client, "chess", "").await;
    let (_, b) = support::create(&mut client, "chess", "").await;
    let mut on_a = Vec::new();
    for _ in 0..3 {
        on_a.push(watch(&mut client, &a.id, 0).await);
    }
    let refused = |id: &str| pb::WatchGameRequest {
        game_id: id.into(),
        after_seq: 0,
    };
    let status = assert_refused(
        client.watch_game(refused(&a.id)).await,
        Code::ResourceExhausted,
        "TOO_MANY_PEER_WATCHERS",
    );
    assert_eq!(
        tonic_types::StatusExt::get_details_error_info(&status)
            .unwrap()
            .metadata["scope"],
        "game"
    );
    let _on_b = watch(&mut client, &b.id, 0).await;
    let status = assert_refused(
        client.watch_game(refused(&b.id)).await,
        Code::ResourceExhausted,
        "TOO_MANY_PEER_WATCHERS",
    );
    assert_eq!(
        tonic_types::StatusExt::get_details_error_info(&status)
            .unwrap()
            .metadata["scope"],
        "server"
    );
    drop(on_a.pop());
    // The place is given back when the server notices the stream is gone.
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        match client.watch_game(refused(&b.id)).await {
            Ok(_) => break,
            Err(status) if Instant::now() < deadline => {
                assert_eq!(support::reason(&status), "TOO_MANY_PEER_WATCHERS");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(status) => panic!("the freed place was not given back: {status:?}"),
        }
    }
    server.shutdown().await.unwrap();
}
