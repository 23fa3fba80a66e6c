//! The binary under signals and limits: SIGTERM's grace and drain as balancers see them, and
//! the connection cap and the file-descriptor limit, logged and counted in `/metrics`.

use std::time::Duration;

use chessd::proto as pb;
use chessd::proto::game_service_client::GameServiceClient;
use prost::bytes::Bytes;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::{Instant, timeout};
use tonic::Code;
use tonic::transport::Channel;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

use crate::common::process::Chessd;
use crate::support::{self, next_event, watch};

/// SIGTERM: health turns NOT_SERVING at once (a health Watch stream is told), while calls and
/// new connections are still served for the grace period; then the drain: a WatchGame stream
/// ends with UNAVAILABLE and the seq to resume from, the health Watch stream ends, and the
/// process exits 0 within grace plus drain.
#[tokio::test]
async fn sigterm_grace_then_drain() {
    let mut server =
        Chessd::start(&["--shutdown-grace", "2s", "--drain-timeout", "3s"], None).await;
    let channel = Channel::from_shared(server.url())
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut client = GameServiceClient::new(channel.clone());
    let mut health = HealthClient::new(channel);
    let (_, seats) = support::create(&mut client, "chess", "").await;
    let mut game_watch = watch(&mut client, &seats.id, 0).await;
    next_event(&mut game_watch).await.unwrap().unwrap();
    let mut health_watch = health
        .watch(HealthCheckRequest {
            service: String::new(),
        })
        .await
        .unwrap()
        .into_inner();
    let first = health_watch.message().await.unwrap().unwrap();
    assert_eq!(first.status, ServingStatus::Serving as i32);

    let signalled = Instant::now();
    server.terminate();
    let update = timeout(Duration::from_secs(1), health_watch.message())
        .await
        .expect("health Watch told at once")
        .unwrap()
        .unwrap();
    assert_eq!(update.status, ServingStatus::NotServing as i32);
    let check = health
        .check(HealthCheckRequest {
            service: chessd::SERVICE_NAME.into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(check.status, ServingStatus::NotServing as i32);
    // Still serving: a move on the open connection, a call on a new one.
    support::play(&mut client, &seats, 'w', "e4").await;
    let mut fresh = GameServiceClient::connect(server.url()).await.unwrap();
    fresh
        .get_stats(pb::GetStatsRequest::default())
        .await
        .unwrap();
    assert!(
        signalled.elapsed() < Duration::from_secs(2),
        "the checks took the whole grace"
    );
    let moved = next_event(&mut game_watch).await.unwrap().unwrap();
    assert_eq!(moved.seq, 1);

    let cut = loop {
        match next_event(&mut game_watch).await {
            Ok(Some(_)) => {}
            Ok(None) => panic!("the watch ended without saying where to resume"),
            Err(status) => break status,
        }
    };
    assert!(
        signalled.elapsed() >= Duration::from_millis(1900),
        "the drain began before the grace ended ({:?})",
        signalled.elapsed()
    );
    assert_eq!(
        (cut.code(), support::reason(&cut).as_str()),
        (Code::Unavailable, "SHUTTING_DOWN")
    );
    let info = tonic_types::StatusExt::get_details_error_info(&cut).unwrap();
    assert_eq!(info.metadata["resume_after_seq"], "1");
    let ended = timeout(Duration::from_secs(2), health_watch.message())
        .await
        .expect("the health Watch stream ends with the drain");
    match ended {
        Err(status) => assert_eq!(status.code(), Code::Unavailable, "{status:?}"),
        Ok(None) => {}
        Ok(Some(m)) => panic!("a health update after NOT_SERVING: {m:?}"),
    }
    drop((client, health, fresh));
    let exit = server.exit_within(Duration::from_secs(2 + 3 + 2)).await;
    assert!(exit.success(), "exit status after SIGTERM: {exit}");
}

/// The metrics text of `addr`, over plain HTTP/1.1.
async fn scrape(addr: &str) -> Option<String> {
    let mut socket = TcpStream::connect(addr).await.ok()?;
    socket
        .write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .ok()?;
    let mut text = String::new();
    timeout(Duration::from_secs(2), socket.read_to_string(&mut text))
        .await
        .ok()?
        .ok()?;
    text.contains("200 OK").then_some(text)
}

/// The value of the series whose line starts with `series`, once it is above zero.
async fn counted(metrics_addr: &str, series: &str) -> f64 {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(text) = scrape(metrics_addr).await
            && let Some(value) = text
                .lines()
                .find(|l| l.starts_with(series))
                .and_then(|l| l.rsplit(' ').next())
                .and_then(|v| v.parse::<f64>().ok())
            && value > 0.0
        {
            return value;
        }
        assert!(Instant::now() < deadline, "{series} never counted");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The address `chessd serve --metrics-listen 127.0.0.1:0` logged.
async fn metrics_addr(server: &Chessd) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(line) = server.logged("metrics listening").first()
            && let Some(addr) = crate::common::json_field(line, "addr")
        {
            return addr.to_owned();
        }
        assert!(Instant::now() < deadline, "no metrics address logged");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Silent sockets at `--max-connections`: the cap is logged and counted, the evicted and
/// timed-out connections are counted by reason, and a client is served.
#[tokio::test]
async fn connection_cap_is_logged_and_counted() {
    let server = Chessd::start(
        &[
            "--max-connections",
            "5",
            "--handshake-timeout",
            "1s",
            "--metrics-listen",
            "127.0.0.1:0",
        ],
        None,
    )
    .await;
    let metrics = metrics_addr(&server).await;
    let mut silent = Vec::new();
    for _ in 0..8 {
        silent.push(TcpStream::connect(server.addr).await.unwrap());
    }
    let mut client = timeout(
        Duration::from_secs(3),
        GameServiceClient::connect(server.url()),
    )
    .await
    .expect("connected at the cap")
    .unwrap();
    client
        .get_stats(pb::GetStatsRequest::default())
        .await
        .unwrap();
    assert!(counted(&metrics, "chessd_connection_cap_reached_total").await >= 1.0);
    assert!(
        counted(
            &metrics,
            "chessd_connections_closed_total{reason=\"evicted\"}"
        )
        .await
            >= 1.0
    );
    assert!(
        counted(
            &metrics,
            "chessd_connections_closed_total{reason=\"handshake_timeout\"}"
        )
        .await
            >= 1.0
    );
    assert!(
        !server.logged("connection cap reached").is_empty(),
        "the cap was not logged"
    );
    drop(silent);
}

/// At the file-descriptor limit (`ulimit -n 64`) accepts fail: the server logs it (once per
/// interval, not per failure), counts it, makes room by closing connections that have not
/// greeted, and a client is still served.
#[tokio::test]
async fn fd_limit_is_logged_counted_and_survived() {
    let server = Chessd::start(
        &[
            "--handshake-timeout",
            "2s",
            "--metrics-listen",
            "127.0.0.1:0",
        ],
        Some(64),
    )
    .await;
    let metrics = metrics_addr(&server).await;
    let mut silent = Vec::new();
    for _ in 0..100 {
        silent.push(TcpStream::connect(server.addr).await.unwrap());
    }
    let started = Instant::now();
    let mut client = timeout(
        Duration::from_secs(5),
        GameServiceClient::connect(server.url()),
    )
    .await
    .expect("connected at the fd limit")
    .unwrap();
    timeout(
        Duration::from_secs(5),
        client.get_stats(pb::GetStatsRequest::default()),
    )
    .await
    .expect("served at the fd limit")
    .unwrap();
    let logged = server.logged("accept failed");
    assert!(
        logged.iter().any(|l| l.contains("\"fd_limit\":true")),
        "no fd-limit log line in {logged:?}"
    );
    assert!(
        logged.len() <= 1 + started.elapsed().as_secs() as usize / 10,
        "accept failures logged once each: {}",
        logged.len()
    );
    drop(silent);
    assert!(counted(&metrics, "chessd_accept_errors_total{kind=\"fd_limit\"}").await >= 1.0);
}

/// A peer that opened a health Watch, read its first answer and then stopped reading its
/// socket (it never answers the PING of HTTP/2's graceful GOAWAY): its Watch is ended and its
/// connection closed within a second of the drain's start, not held for the drain timeout.
#[tokio::test]
async fn a_silent_health_watcher_does_not_hold_the_drain() {
    let mut server =
        Chessd::start(&["--shutdown-grace", "1s", "--drain-timeout", "10s"], None).await;
    let tcp = TcpStream::connect(server.addr).await.unwrap();
    let (client, connection) = h2::client::handshake(tcp).await.unwrap();
    let (stop_reading, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        let mut connection = connection;
        tokio::select! {
            _ = &mut connection => return,
            _ = stopped => {}
        }
        // Holds the socket open, unread, for as long as the test lives.
        std::future::pending::<()>().await;
        drop(connection);
    });
    let request = http::Request::builder()
        .method("POST")
        .uri(format!(
            "http://{}/grpc.health.v1.Health/Watch",
            server.addr
        ))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(())
        .unwrap();
    let mut ready = client.ready().await.unwrap();
    let (response, mut body) = ready.send_request(request, false).unwrap();
    body.send_data(Bytes::from_static(&[0, 0, 0, 0, 0]), true)
        .unwrap();
    let mut watch = response.await.unwrap().into_body();
    let first = timeout(Duration::from_secs(5), watch.data())
        .await
        .expect("the first health answer")
        .unwrap()
        .unwrap();
    assert!(!first.is_empty());
    stop_reading.send(()).unwrap();

    let signalled = Instant::now();
    server.terminate();
    let exit = server.exit_within(Duration::from_secs(15)).await;
    assert!(exit.success(), "exit status after SIGTERM: {exit}");
    assert!(
        signalled.elapsed() < Duration::from_secs(1 + 2),
        "exited {:?} after SIGTERM: the silent watcher held the drain",
        signalled.elapsed()
    );
}

/// With no grace, the drain follows NOT_SERVING at once: a health Watch still gets the
/// NOT_SERVING update before its stream ends, and no update after it.
#[tokio::test]
async fn a_health_watch_learns_not_serving_before_it_ends() {
    let mut server =
        Chessd::start(&["--shutdown-grace", "0s", "--drain-timeout", "3s"], None).await;
    let channel = Channel::from_shared(server.url())
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut health = HealthClient::new(channel);
    let mut health_watch = health
        .watch(HealthCheckRequest {
            service: chessd::SERVICE_NAME.into(),
        })
        .await
        .unwrap()
        .into_inner();
    let first = health_watch.message().await.unwrap().unwrap();
    assert_eq!(first.status, ServingStatus::Serving as i32);
    server.terminate();
    let mut seen = Vec::new();
    let end = loop {
        match timeout(Duration::from_secs(5), health_watch.message())
            .await
            .expect("the health Watch ends with the drain")
        {
            Ok(Some(update)) => seen.push(update.status),
            Ok(None) => break None,
            Err(status) => break Some(status.code()),
        }
    };
    assert_eq!(seen, [ServingStatus::NotServing as i32], "then {end:?}");
    assert!(matches!(end, None | Some(Code::Unavailable)), "{end:?}");
    drop(health);
    let exit = server.exit_within(Duration::from_secs(5)).await;
    assert!(exit.success(), "exit status after SIGTERM: {exit}");
}
