//! The Prometheus endpoint: a real server with metrics on, real calls, and a scrape over HTTP
//! that must show each call by method and status code, the latency histograms, live games,
//! watchers, moves played and finished games by variant and termination.
//!
//! Its own test binary: the recorder is process-wide, so no other test's calls are counted.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Duration;

use chessd::ServerConfig;
use chessd::proto::game_service_client::GameServiceClient;
use chessd::proto::{self as pb};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tonic::Request;
use tonic::transport::Channel;

/// GET `path` over HTTP/1.1; returns the status line and the body.
async fn http_get(addr: SocketAddr, path: &str) -> (String, String) {
    let mut stream = TcpStream::connect(addr).await.expect("connect to metrics");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut answer = String::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_string(&mut answer))
        .await
        .expect("an answer within 10 s")
        .expect("read");
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head.lines().next().unwrap_or_default().to_owned();
    (status, body.to_owned())
}

/// Every sample line of a scrape: `name{labels}` to value.
fn samples(text: &str) -> HashMap<String, f64> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let (series, value) = l.rsplit_once(' ')?;
            Some((series.to_owned(), value.parse().ok()?))
        })
        .collect()
}

#[track_caller]
fn value(samples: &HashMap<String, f64>, series: &str, text: &str) -> f64 {
    match samples.get(series) {
        Some(v) => *v,
        None => panic!("no series {series} in the scrape:\n{text}"),
    }
}

fn authed<T>(message: T, token: &str) -> Request<T> {
    let mut request = Request::new(message);
    request
        .metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    request
}

async fn create(client: &mut GameServiceClient<Channel>) -> pb::CreateGameResponse {
    client
        .create_game(pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            ..Default::default()
        })
        .await
        .expect("create game")
        .into_inner()
}

/// A scrape after a fool's mate, a refused move, an unknown game and an open watch shows
/// each of them in its series, with the right values.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scrape_shows_calls_games_and_watchers() {
    let handle = chessd::metrics::install().expect("install the recorder");
    let metrics_listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let metrics_addr = metrics_listener.local_addr().unwrap();
    tokio::spawn(chessd::metrics::serve(
        metrics_listener,
        handle,
        std::future::pending(),
    ));
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().unwrap();
    tokio::spawn(chessd::run(
        listener,
        ServerConfig::default(),
        std::future::pending(),
    ));
    let channel = Channel::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect()
        .await
        .expect("connect");
    let mut client = GameServiceClient::new(channel);

    // Fool's mate: 4 moves, then a move after the mate (FAILED_PRECONDITION).
    let mated = create(&mut client).await;
    let id = mated.game.unwrap().game_id;
    let tokens = [mated.white_token, mated.black_token];
    for (i, mv) in ["f3", "e5", "g4", "Qh4#"].into_iter().enumerate() {
        client
            .submit_move(authed(
                pb::SubmitMoveRequest {
                    game_id: id.clone(),
                    r#move: mv.into(),
                    ..Default::default()
                },
                &tokens[i % 2],
            ))
            .await
            .unwrap_or_else(|s| panic!("{mv}: {}", s.message()));
    }
    let late = client
        .submit_move(authed(
            pb::SubmitMoveRequest {
                game_id: id.clone(),
                r#move: "e4".into(),
                ..Default::default()
            },
            &tokens[0],
        ))
        .await;
    assert_eq!(late.unwrap_err().code(), tonic::Code::FailedPrecondition);
    let missing = client
        .get_game(pb::GetGameRequest {
            game_id: "0000000000000".into(),
        })
        .await;
    assert_eq!(missing.unwrap_err().code(), tonic::Code::NotFound);

    // A second game stays live, with one watcher.
    let live = create(&mut client).await;
    let mut stream = client
        .watch_game(pb::WatchGameRequest {
            game_id: live.game.unwrap().game_id,
            after_seq: 0,
        })
        .await
        .expect("watch")
        .into_inner();
    stream.message().await.expect("snapshot").expect("snapshot");

    let (status, text) = http_get(metrics_addr, "/metrics").await;
    assert!(status.contains("200"), "{status}");
    let s = samples(&text);
    let v = |series: &str| value(&s, series, &text);
    assert_eq!(
        v(r#"chessd_rpc_requests_total{method="SubmitMove",code="OK"}"#),
        4.0
    );
    assert_eq!(
        v(r#"chessd_rpc_requests_total{method="SubmitMove",code="FAILED_PRECONDITION"}"#),
        1.0
    );
    assert_eq!(
        v(r#"chessd_rpc_requests_total{method="CreateGame",code="OK"}"#),
        2.0
    );
    assert_eq!(
        v(r#"chessd_rpc_requests_total{method="GetGame",code="NOT_FOUND"}"#),
        1.0
    );
    assert_eq!(
        v(r#"chessd_rpc_requests_total{method="WatchGame",code="OK"}"#),
        1.0
    );
    assert_eq!(
        v(r#"chessd_rpc_duration_seconds_count{method="SubmitMove",code="OK"}"#),
        4.0
    );
    assert_eq!(
        v(r#"chessd_rpc_duration_seconds_bucket{method="SubmitMove",code="OK",le="+Inf"}"#),
        4.0
    );
    assert!(v(r#"chessd_rpc_duration_seconds_sum{method="SubmitMove",code="OK"}"#) > 0.0);
    assert_eq!(v(r#"chessd_moves_played_total{variant="chess"}"#), 4.0);
    assert_eq!(
        v(r#"chessd_games_finished_total{variant="chess",termination="checkmate"}"#),
        1.0
    );
    assert_eq!(v("chessd_live_games"), 1.0);
    assert_eq!(v("chessd_watchers"), 1.0);
    assert!(
        text.contains("# TYPE chessd_rpc_duration_seconds histogram"),
        "{text}"
    );

    // The watcher leaves: the gauge follows once the server sees the stream go.
    drop(stream);
    let mut watchers = 1.0;
    for _ in 0..100 {
        let (_, text) = http_get(metrics_addr, "/metrics").await;
        watchers = value(&samples(&text), "chessd_watchers", &text);
        if watchers == 0.0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(watchers, 0.0, "the watchers gauge after the stream closed");

    let (status, _) = http_get(metrics_addr, "/other").await;
    assert!(status.contains("404"), "{status}");
}
