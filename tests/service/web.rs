//! The browser side of the gRPC port, over hand-made HTTP/1.1 requests: the spectator page's
//! files (content types, CSP, ETags, 404/405), `--no-web`, gRPC-Web calls (unary and server
//! streaming, framed by hand), CORS by `--cors-allow-origin`, and plain gRPC on the same port.

use std::net::SocketAddr;

use chessd::ServerConfig;
use chessd::proto as pb;
use chessd::server::web::{CONTENT_SECURITY_POLICY, WebConfig};
use http::{Method, Request, StatusCode, header};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use prost::Message;
use tokio::net::TcpStream;

use crate::support::{self, authed, create};

/// What came back: status, headers and the whole body.
struct Answer {
    status: StatusCode,
    headers: http::HeaderMap,
    body: Bytes,
}

impl Answer {
    fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .map_or("", |v| v.to_str().expect("ASCII header"))
    }
}

/// Sends one HTTP/1.1 request on a fresh connection.
async fn send(addr: SocketAddr, request: Request<Full<Bytes>>) -> Answer {
    let stream = TcpStream::connect(addr).await.expect("connect");
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("HTTP/1.1 handshake");
    tokio::spawn(connection);
    let response = sender.send_request(request).await.expect("response");
    let (parts, body) = response.into_parts();
    let body = body.collect().await.expect("body").to_bytes();
    Answer {
        status: parts.status,
        headers: parts.headers,
        body,
    }
}

fn request(method: Method, path: &str) -> http::request::Builder {
    Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, "chessd.test")
}

async fn get(addr: SocketAddr, path: &str) -> Answer {
    send(
        addr,
        request(Method::GET, path).body(Full::default()).unwrap(),
    )
    .await
}

/// The committed bundle file `name` (what the binary embeds).
fn dist(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/web/dist/{name}", env!("CARGO_MANIFEST_DIR"))).expect("web/dist")
}

/// `/` is the page, with a strict CSP, an ETag that revalidates, and no caching without it.
#[tokio::test]
async fn index_serves_html_with_csp_and_etag() {
    let server = support::start().await;
    let page = get(server.addr, "/").await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.header("content-type"), "text/html; charset=utf-8");
    assert_eq!(
        page.header("content-security-policy"),
        CONTENT_SECURITY_POLICY
    );
    assert!(CONTENT_SECURITY_POLICY.contains("default-src 'none'"));
    assert!(!CONTENT_SECURITY_POLICY.contains("unsafe"));
    assert_eq!(page.header("x-content-type-options"), "nosniff");
    assert_eq!(page.header("cache-control"), "no-cache");
    assert_eq!(page.body, dist("index.html"));
    let text = std::str::from_utf8(&page.body).unwrap();
    assert!(
        text.contains(r#"<script type="module" src="/app.js">"#),
        "{text}"
    );

    let etag = page.header("etag").to_owned();
    assert!(etag.starts_with('"') && etag.ends_with('"'), "{etag}");
    let again = send(
        server.addr,
        request(Method::GET, "/")
            .header(header::IF_NONE_MATCH, &etag)
            .body(Full::default())
            .unwrap(),
    )
    .await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.body.is_empty());
    let stale = send(
        server.addr,
        request(Method::GET, "/")
            .header(header::IF_NONE_MATCH, "\"0000000000000000\"")
            .body(Full::default())
            .unwrap(),
    )
    .await;
    assert_eq!(stale.status, StatusCode::OK);

    let head = send(
        server.addr,
        request(Method::HEAD, "/").body(Full::default()).unwrap(),
    )
    .await;
    assert_eq!(head.status, StatusCode::OK);
    assert!(head.body.is_empty());
    assert_eq!(head.header("etag"), etag);
}

/// Each asset comes with its own content type and its exact committed bytes.
#[tokio::test]
async fn assets_have_their_content_types() {
    let server = support::start().await;
    for (path, file, content_type) in [
        ("/app.js", "app.js", "text/javascript; charset=utf-8"),
        ("/app.css", "app.css", "text/css; charset=utf-8"),
        ("/favicon.svg", "favicon.svg", "image/svg+xml"),
        ("/licenses.txt", "licenses.txt", "text/plain; charset=utf-8"),
    ] {
        let answer = get(server.addr, path).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        assert_eq!(answer.header("content-type"), content_type, "{path}");
        assert_eq!(answer.body, dist(file), "{path}");
        assert!(!answer.header("etag").is_empty(), "{path}");
        assert_eq!(
            answer.header("content-security-policy"),
            CONTENT_SECURITY_POLICY
        );
        assert_eq!(answer.header("content-encoding"), "", "{path}");
    }

    // Browsers that take gzip get the script compressed, with its own ETag.
    let plain = get(server.addr, "/app.js").await;
    let zipped = send(
        server.addr,
        request(Method::GET, "/app.js")
            .header(header::ACCEPT_ENCODING, "gzip, deflate, br")
            .body(Full::default())
            .unwrap(),
    )
    .await;
    assert_eq!(zipped.status, StatusCode::OK);
    assert_eq!(zipped.header("content-encoding"), "gzip");
    assert_eq!(zipped.header("vary"), "accept-encoding");
    assert_eq!(
        zipped.header("content-type"),
        "text/javascript; charset=utf-8"
    );
    assert!(
        zipped.body.len() * 2 < plain.body.len(),
        "gzip saves at least half"
    );
    assert_ne!(zipped.header("etag"), plain.header("etag"));
    let mut unzipped = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(&zipped.body[..]),
        &mut unzipped,
    )
    .expect("valid gzip");
    assert_eq!(unzipped, dist("app.js"));
}

/// Unknown paths are 404 whatever the method; known paths refuse other methods with 405.
#[tokio::test]
async fn unknown_paths_404_and_other_methods_405() {
    let server = support::start().await;
    for path in [
        "/nope",
        "/index.html",
        "/app.js/x",
        "/../Cargo.toml",
        "/chessd.v1.GameService/GetGame",
    ] {
        assert_eq!(
            get(server.addr, path).await.status,
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    for method in [Method::POST, Method::PUT, Method::DELETE, Method::OPTIONS] {
        let answer = send(
            server.addr,
            request(method.clone(), "/app.js")
                .body(Full::default())
                .unwrap(),
        )
        .await;
        assert_eq!(answer.status, StatusCode::METHOD_NOT_ALLOWED, "{method}");
        assert_eq!(answer.header("allow"), "GET, HEAD");
    }
}

/// `--no-web`: no page, every static path 404, and gRPC-Web and gRPC still work.
#[tokio::test]
async fn no_web_turns_the_page_off() {
    let config = ServerConfig {
        web: WebConfig {
            page: false,
            ..WebConfig::default()
        },
        ..ServerConfig::default()
    };
    let server = support::start_with(config).await;
    for path in ["/", "/app.js", "/app.css", "/favicon.svg"] {
        assert_eq!(
            get(server.addr, path).await.status,
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    let mut client = server.client().await;
    let (game, _) = create(&mut client, "chess", "").await;
    let (status, messages) = grpc_web(
        server.addr,
        "GetGame",
        &pb::GetGameRequest {
            game_id: game.game_id.clone(),
        },
    )
    .await;
    assert_eq!(status, "0");
    assert_eq!(messages.len(), 1);
}

/// A gRPC-Web call: one length-prefixed message in, data frames and a trailer frame out.
/// Returns the grpc-status (from the trailer frame, or from the headers of a trailers-only
/// answer) and the message frames.
async fn grpc_web(addr: SocketAddr, method: &str, message: &impl Message) -> (String, Vec<Bytes>) {
    let encoded = message.encode_to_vec();
    let mut body = vec![0u8];
    body.extend_from_slice(&u32::try_from(encoded.len()).unwrap().to_be_bytes());
    body.extend_from_slice(&encoded);
    let answer = send(
        addr,
        request(Method::POST, &format!("/chessd.v1.GameService/{method}"))
            .header(header::CONTENT_TYPE, "application/grpc-web+proto")
            .header("x-grpc-web", "1")
            .body(Full::new(Bytes::from(body)))
            .unwrap(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.header("content-type"), "application/grpc-web+proto");
    let mut status = answer.header("grpc-status").to_owned();
    let mut messages = Vec::new();
    let mut rest = answer.body.clone();
    while !rest.is_empty() {
        assert!(rest.len() >= 5, "truncated frame header");
        let flags = rest[0];
        let len = u32::from_be_bytes(rest[1..5].try_into().unwrap()) as usize;
        let frame = rest.slice(5..5 + len);
        rest = rest.slice(5 + len..);
        if flags & 0x80 != 0 {
            let trailers = std::str::from_utf8(&frame).expect("text trailers");
            for line in trailers.split("\r\n") {
                if let Some(value) = line.strip_prefix("grpc-status:") {
                    status = value.trim().to_owned();
                }
            }
            assert!(rest.is_empty(), "data after the trailer frame");
        } else {
            messages.push(frame);
        }
    }
    (status, messages)
}

/// gRPC-Web over HTTP/1.1: a unary call, a server stream (WatchGame) to its end, and an error
/// status, all answered in gRPC-Web framing.
#[tokio::test]
async fn grpc_web_unary_streaming_and_errors() {
    let server = support::start().await;
    let (status, messages) = grpc_web(
        server.addr,
        "CreateGame",
        &pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            white_player: "ann".into(),
            black_player: "bob".into(),
            ..Default::default()
        },
    )
    .await;
    assert_eq!(status, "0");
    assert_eq!(messages.len(), 1);
    let created = pb::CreateGameResponse::decode(messages[0].clone()).expect("decodes");
    let game = created.game.expect("game");
    assert_eq!(game.white_player, "ann");
    assert_eq!(game.fen, support::CHESS_START);

    // Finish the game over plain gRPC, then watch it over gRPC-Web from the start.
    let mut client = server.client().await;
    let seats = support::Seats {
        id: game.game_id.clone(),
        white: created.white_token,
        black: created.black_token,
    };
    support::play_all(&mut client, &seats, 'w', "f3 e5 g4 Qh4#").await;
    let (status, messages) = grpc_web(
        server.addr,
        "WatchGame",
        &pb::WatchGameRequest {
            game_id: game.game_id.clone(),
            after_seq: 1,
        },
    )
    .await;
    assert_eq!(status, "0");
    let events: Vec<_> = messages
        .into_iter()
        .map(|m| support::describe(&pb::WatchGameResponse::decode(m).expect("decodes")))
        .collect();
    assert_eq!(
        events,
        ["move e7e5", "move g2g4", "move d8h4", "over 0-1"],
        "the stream replays every event after seq 1 and ends after the game-over event"
    );

    let (status, messages) = grpc_web(
        server.addr,
        "GetGame",
        &pb::GetGameRequest {
            game_id: "0000000000000".into(),
        },
    )
    .await;
    assert_eq!(status, (tonic::Code::NotFound as i32).to_string());
    assert!(messages.is_empty());

    // The request size limit answers gRPC-Web callers as it answers gRPC ones.
    let (status, _) = grpc_web(
        server.addr,
        "CreateGame",
        &pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            white_player: "a".repeat(chessd::config::DEFAULT_MAX_REQUEST_BYTES + 1),
            ..Default::default()
        },
    )
    .await;
    assert_eq!(status, (tonic::Code::ResourceExhausted as i32).to_string());

    // A gRPC-Web call with a seat token in the headers plays a move.
    let (game, seats) = create(&mut client, "chess", "").await;
    let encoded = pb::SubmitMoveRequest {
        game_id: game.game_id.clone(),
        r#move: "e4".into(),
        ..Default::default()
    }
    .encode_to_vec();
    let mut body = vec![0u8];
    body.extend_from_slice(&u32::try_from(encoded.len()).unwrap().to_be_bytes());
    body.extend_from_slice(&encoded);
    let answer = send(
        server.addr,
        request(Method::POST, "/chessd.v1.GameService/SubmitMove")
            .header(header::CONTENT_TYPE, "application/grpc-web+proto")
            .header(header::AUTHORIZATION, format!("Bearer {}", seats.white))
            .body(Full::new(Bytes::from(body)))
            .unwrap(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(support::get(&mut client, &game.game_id).await.ply, 1);
}

/// Plain gRPC (HTTP/2) shares the port with the page, and a gRPC request to `/` reaches the
/// gRPC router (UNIMPLEMENTED), not the static files.
#[tokio::test]
async fn grpc_shares_the_port() {
    let server = support::start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "racingkings", "").await;
    let moved = client
        .submit_move(authed(
            pb::SubmitMoveRequest {
                game_id: seats.id.clone(),
                r#move: "Kh3".into(),
                ..Default::default()
            },
            &seats.white,
        ))
        .await
        .expect("gRPC move");
    assert_eq!(moved.into_inner().r#move.expect("move").uci, "h2h3");
    assert_eq!(get(server.addr, "/").await.status, StatusCode::OK);

    let answer = send(
        server.addr,
        request(Method::POST, "/")
            .header(header::CONTENT_TYPE, "application/grpc-web+proto")
            .body(Full::new(Bytes::from_static(&[0, 0, 0, 0, 0])))
            .unwrap(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(
        answer.header("grpc-status"),
        (tonic::Code::Unimplemented as i32).to_string()
    );
}

async fn preflight(addr: SocketAddr, origin: &str) -> Answer {
    send(
        addr,
        request(Method::OPTIONS, "/chessd.v1.GameService/ListGames")
            .header(header::ORIGIN, origin)
            .header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST")
            .header(
                header::ACCESS_CONTROL_REQUEST_HEADERS,
                "content-type,x-grpc-web,x-user-agent",
            )
            .body(Full::default())
            .unwrap(),
    )
    .await
}

/// CORS: off by default (no allow-origin header, so browsers refuse cross-site calls); with
/// `--cors-allow-origin` the named origins, and only they, pass the preflight and see the
/// gRPC status headers.
#[tokio::test]
async fn cors_follows_the_flag() {
    let server = support::start().await;
    let answer = preflight(server.addr, "https://app.example").await;
    assert_eq!(answer.header("access-control-allow-origin"), "");

    let config = ServerConfig {
        web: WebConfig {
            cors_allow_origins: vec!["https://app.example".into(), "http://localhost:5173".into()],
            ..WebConfig::default()
        },
        ..ServerConfig::default()
    };
    let server = support::start_with(config).await;
    let answer = preflight(server.addr, "https://app.example").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(
        answer.header("access-control-allow-origin"),
        "https://app.example"
    );
    assert!(
        answer
            .header("access-control-allow-methods")
            .contains("POST")
    );
    let allowed = answer.header("access-control-allow-headers");
    for h in [
        "content-type",
        "x-grpc-web",
        "x-user-agent",
        "authorization",
        "traceparent",
        "tracestate",
    ] {
        assert!(allowed.contains(h), "{h} not in {allowed}");
    }
    let refused = preflight(server.addr, "https://evil.example").await;
    assert_eq!(refused.header("access-control-allow-origin"), "");

    let encoded = pb::ListGamesRequest::default().encode_to_vec();
    let mut body = vec![0u8];
    body.extend_from_slice(&u32::try_from(encoded.len()).unwrap().to_be_bytes());
    body.extend_from_slice(&encoded);
    let answer = send(
        server.addr,
        request(Method::POST, "/chessd.v1.GameService/ListGames")
            .header(header::ORIGIN, "http://localhost:5173")
            .header(header::CONTENT_TYPE, "application/grpc-web+proto")
            .body(Full::new(Bytes::from(body)))
            .unwrap(),
    )
    .await;
    assert_eq!(
        answer.header("access-control-allow-origin"),
        "http://localhost:5173"
    );
    assert!(
        answer
            .header("access-control-expose-headers")
            .contains("grpc-status")
    );
}

/// Splits gRPC-Web frames off the front of `buffer`: (is trailer, payload) for each whole one.
fn take_frames(buffer: &mut Vec<u8>) -> Vec<(bool, Vec<u8>)> {
    let mut frames = Vec::new();
    while buffer.len() >= 5 {
        let len = u32::from_be_bytes(buffer[1..5].try_into().unwrap()) as usize;
        if buffer.len() < 5 + len {
            break;
        }
        let trailer = buffer[0] & 0x80 != 0;
        let payload = buffer[5..5 + len].to_vec();
        buffer.drain(..5 + len);
        frames.push((trailer, payload));
    }
    frames
}

/// A live gRPC-Web WatchGame over HTTP/1.1 gets the snapshot, then each move as it is played;
/// a graceful shutdown ends it with UNAVAILABLE in the trailer frame (the page then
/// reconnects from its last seq) and the server still stops cleanly.
#[tokio::test]
async fn grpc_web_live_stream_and_drain() {
    let server = support::start().await;
    let mut client = server.client().await;
    let (game, seats) = create(&mut client, "chess", "").await;

    let encoded = pb::WatchGameRequest {
        game_id: game.game_id.clone(),
        after_seq: 0,
    }
    .encode_to_vec();
    let mut body = vec![0u8];
    body.extend_from_slice(&u32::try_from(encoded.len()).unwrap().to_be_bytes());
    body.extend_from_slice(&encoded);
    let stream = TcpStream::connect(server.addr).await.expect("connect");
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("HTTP/1.1 handshake");
    tokio::spawn(connection);
    let response = sender
        .send_request(
            request(Method::POST, "/chessd.v1.GameService/WatchGame")
                .header(header::CONTENT_TYPE, "application/grpc-web+proto")
                .body(Full::new(Bytes::from(body)))
                .unwrap(),
        )
        .await
        .expect("response");
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    let mut buffer = Vec::new();
    let mut next_frame = async || loop {
        if let Some(frame) = take_frames(&mut buffer).into_iter().next() {
            return Some(frame);
        }
        let chunk = tokio::time::timeout(std::time::Duration::from_secs(10), body.frame())
            .await
            .expect("a frame within 10 seconds")?
            .expect("body chunk");
        if let Ok(data) = chunk.into_data() {
            buffer.extend_from_slice(&data);
        }
    };

    let describe = |payload: &[u8]| {
        support::describe(&pb::WatchGameResponse::decode(payload).expect("decodes"))
    };
    let (trailer, payload) = next_frame().await.expect("snapshot");
    assert!(!trailer);
    assert_eq!(describe(&payload), "snapshot ply 0");
    support::play(&mut client, &seats, 'w', "e4").await;
    let (_, payload) = next_frame().await.expect("move");
    assert_eq!(describe(&payload), "move e2e4");

    let stopped = tokio::spawn(server.shutdown());
    let mut status = None;
    while let Some((trailer, payload)) = next_frame().await {
        if trailer {
            let text = String::from_utf8(payload).expect("text trailers");
            status = text
                .split("\r\n")
                .find_map(|l| l.strip_prefix("grpc-status:").map(|s| s.trim().to_owned()));
        } else {
            assert_eq!(
                describe(&payload),
                "heartbeat",
                "only heartbeats before the end"
            );
        }
    }
    assert_eq!(
        status.as_deref(),
        Some((tonic::Code::Unavailable as i32).to_string().as_str())
    );
    stopped.await.expect("join").expect("clean shutdown");
}
