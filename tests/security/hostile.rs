//! Hostile input: every RPC with empty, malformed, oversized and out-of-range fields, ids of
//! the wrong kind, and random bytes as FEN, moves and tokens, each answered with its exact
//! code and reason; undecodable protobuf and broken gRPC framing sent as hand-framed HTTP/2
//! requests; and after each barrage the server still plays a game.

use chessd::proto as pb;
use http_body_util::BodyExt;
use prost::bytes::Bytes;
use tonic::{Code, Request, Status};

use crate::support::{self, Client, TestServer, assert_refused, authed};

/// A deterministic generator (xorshift64*), so a failure replays exactly.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }

    /// Visible ASCII, as metadata values must be.
    fn visible(&mut self, len: usize) -> String {
        (0..len)
            .map(|_| char::from(b'!' + (self.next() % 94) as u8))
            .collect()
    }
}

/// The server still creates a game and plays a move.
async fn still_serves(client: &mut Client) {
    let (_, seats) = support::create(client, "chess", "").await;
    let played = support::play(client, &seats, 'w', "e4").await;
    assert_eq!(played.game.unwrap().ply, 1);
}

/// A server without the per-peer limit: these tests send hundreds of calls a second from
/// one address, and what they check is the answer to each input, not the rate limits.
async fn start() -> (TestServer, Client) {
    let mut config = chessd::ServerConfig::default();
    config.security.rates.peer = chessd::security::Rate::new(u32::MAX, u32::MAX);
    let server = support::start_with(config).await;
    let client = server.client().await;
    (server, client)
}

/// Every RPC with an empty request: the first missing field is named; the two list calls
/// succeed.
#[tokio::test]
async fn empty_requests() {
    let (server, mut c) = start().await;
    let bad = Code::InvalidArgument;
    assert_refused(
        c.create_game(pb::CreateGameRequest::default()).await,
        bad,
        "INVALID_VARIANT",
    );
    assert_refused(
        c.get_game(pb::GetGameRequest::default()).await,
        bad,
        "INVALID_GAME_ID",
    );
    c.list_games(pb::ListGamesRequest::default())
        .await
        .expect("empty list");
    assert_refused(
        c.submit_move(pb::SubmitMoveRequest::default()).await,
        bad,
        "INVALID_GAME_ID",
    );
    assert_refused(
        c.resign(pb::ResignRequest::default()).await,
        bad,
        "INVALID_GAME_ID",
    );
    assert_refused(
        c.offer_draw(pb::OfferDrawRequest::default()).await,
        bad,
        "INVALID_GAME_ID",
    );
    assert_refused(
        c.respond_to_draw(pb::RespondToDrawRequest::default()).await,
        bad,
        "INVALID_GAME_ID",
    );
    assert_refused(
        c.claim_draw(pb::ClaimDrawRequest::default()).await,
        bad,
        "INVALID_FIELD",
    );
    assert_refused(
        c.abort(pb::AbortRequest::default()).await,
        bad,
        "INVALID_GAME_ID",
    );
    assert_refused(
        c.watch_game(pb::WatchGameRequest::default()).await,
        bad,
        "INVALID_GAME_ID",
    );
    assert_refused(
        c.export_pgn(pb::ExportPgnRequest::default()).await,
        bad,
        "INVALID_GAME_ID",
    );
    c.get_stats(pb::GetStatsRequest::default())
        .await
        .expect("stats");
    assert_refused(
        c.analyze_position(pb::AnalyzePositionRequest::default())
            .await,
        bad,
        "INVALID_VARIANT",
    );
    still_serves(&mut c).await;
    server.shutdown().await.unwrap();
}

/// Ids of the wrong kind, unknown ids, and out-of-range numbers and enums.
#[tokio::test]
async fn wrong_ids_and_out_of_range_fields() {
    let (server, mut c) = start().await;
    let (_, seats) = support::create(&mut c, "chess", "").await;
    let bad = Code::InvalidArgument;
    // A seat token where a game id goes, a game id where a token goes, a game id of nothing.
    assert_refused(
        c.get_game(pb::GetGameRequest {
            game_id: seats.white.clone(),
        })
        .await,
        bad,
        "INVALID_GAME_ID",
    );
    let resign = |id: &str| pb::ResignRequest { game_id: id.into() };
    assert_refused(
        c.resign(authed(resign(&seats.id), &seats.id)).await,
        Code::Unauthenticated,
        "TOKEN_INVALID",
    );
    assert_refused(
        c.resign(resign(&seats.id)).await,
        Code::Unauthenticated,
        "TOKEN_MISSING",
    );
    assert_refused(
        c.get_game(pb::GetGameRequest {
            game_id: "0000000000000".into(),
        })
        .await,
        Code::NotFound,
        "GAME_NOT_FOUND",
    );
    assert_refused(
        c.list_games(pb::ListGamesRequest {
            page_token: seats.white.clone(),
            ..Default::default()
        })
        .await,
        bad,
        "INVALID_PAGE_TOKEN",
    );
    // Enums beyond their values.
    let create = |f: fn(&mut pb::CreateGameRequest)| {
        let mut r = pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            ..Default::default()
        };
        f(&mut r);
        r
    };
    assert_refused(
        c.create_game(create(|r| r.variant = 99)).await,
        bad,
        "INVALID_VARIANT",
    );
    assert_refused(
        c.create_game(create(|r| r.variant = -1)).await,
        bad,
        "INVALID_VARIANT",
    );
    assert_refused(
        c.create_game(create(|r| r.draw_rule = 42)).await,
        bad,
        "INVALID_FIELD",
    );
    assert_refused(
        c.list_games(pb::ListGamesRequest {
            status: 7,
            ..Default::default()
        })
        .await,
        bad,
        "INVALID_FIELD",
    );
    assert_refused(
        c.list_games(pb::ListGamesRequest {
            variant: i32::MIN,
            ..Default::default()
        })
        .await,
        bad,
        "INVALID_VARIANT",
    );
    assert_refused(
        c.claim_draw(authed(
            pb::ClaimDrawRequest {
                game_id: seats.id.clone(),
                claim: i32::MAX,
            },
            &seats.white,
        ))
        .await,
        bad,
        "INVALID_FIELD",
    );
    // Durations: negative, beyond range, zero initial, huge increment.
    let duration = |seconds: i64, nanos: i32| Some(prost_types::Duration { seconds, nanos });
    for (initial, increment) in [
        (duration(-1, 0), None),
        (duration(i64::MAX, 999_999_999), None),
        (duration(0, 0), None),
        (duration(86_401, 0), None),
        (duration(60, 0), duration(3_601, 0)),
    ] {
        let request = create(|_| {});
        let request = pb::CreateGameRequest {
            time_control: Some(pb::TimeControl {
                initial,
                increment,
                ..Default::default()
            }),
            ..request
        };
        assert_refused(c.create_game(request).await, bad, "INVALID_FIELD");
    }
    // Numbers at their limits.
    let huge_page = c
        .list_games(pb::ListGamesRequest {
            page_size: u32::MAX,
            ..Default::default()
        })
        .await
        .expect("a huge page size is capped");
    assert_eq!(huge_page.into_inner().games.len(), 1);
    assert_refused(
        c.watch_game(pb::WatchGameRequest {
            game_id: seats.id.clone(),
            after_seq: u64::MAX,
        })
        .await,
        Code::OutOfRange,
        "SEQ_OUT_OF_RANGE",
    );
    assert_refused(
        c.submit_move(authed(
            pb::SubmitMoveRequest {
                game_id: seats.id.clone(),
                r#move: "e4".into(),
                expected_ply: Some(u32::MAX),
                ..Default::default()
            },
            &seats.white,
        ))
        .await,
        Code::Aborted,
        "PLY_MISMATCH",
    );
    still_serves(&mut c).await;
    server.shutdown().await.unwrap();
}

/// Oversized fields: a message above the request limit, a FEN above its own limit, overlong
/// names, request ids and moves.
#[tokio::test]
async fn oversized_fields() {
    let (server, mut c) = start().await;
    let chess = pb::Variant::Chess as i32;
    let huge = "p".repeat(100 * 1024);
    assert_refused(
        c.analyze_position(pb::AnalyzePositionRequest {
            variant: chess,
            fen: huge.clone(),
            ..Default::default()
        })
        .await,
        Code::ResourceExhausted,
        "REQUEST_TOO_LARGE",
    );
    assert_refused(
        c.create_game(pb::CreateGameRequest {
            variant: chess,
            white_player: huge,
            ..Default::default()
        })
        .await,
        Code::ResourceExhausted,
        "REQUEST_TOO_LARGE",
    );
    let bad = Code::InvalidArgument;
    assert_refused(
        c.analyze_position(pb::AnalyzePositionRequest {
            variant: chess,
            fen: "8/".repeat(2000),
            ..Default::default()
        })
        .await,
        bad,
        "INVALID_FEN",
    );
    assert_refused(
        c.create_game(pb::CreateGameRequest {
            variant: chess,
            black_player: "n".repeat(10_000),
            ..Default::default()
        })
        .await,
        bad,
        "INVALID_FIELD",
    );
    assert_refused(
        c.create_game(pb::CreateGameRequest {
            variant: chess,
            request_id: "r".repeat(129),
            ..Default::default()
        })
        .await,
        bad,
        "INVALID_FIELD",
    );
    let (_, seats) = support::create(&mut c, "chess", "").await;
    let status = assert_refused(
        c.submit_move(authed(
            pb::SubmitMoveRequest {
                game_id: seats.id.clone(),
                r#move: "e".repeat(50_000),
                ..Default::default()
            },
            &seats.white,
        ))
        .await,
        bad,
        "MALFORMED_MOVE",
    );
    assert!(status.message().len() < 200, "the move is not echoed whole");
    // A metadata value far beyond a token's length.
    assert_refused(
        c.resign(authed(
            pb::ResignRequest {
                game_id: seats.id.clone(),
            },
            &"a".repeat(8_000),
        ))
        .await,
        Code::Unauthenticated,
        "TOKEN_INVALID",
    );
    still_serves(&mut c).await;
    server.shutdown().await.unwrap();
}

/// Random bytes as FEN, move text, ids and tokens: each refused with its one code.
#[tokio::test]
async fn random_bytes_everywhere() {
    let (server, mut c) = start().await;
    let (_, seats) = support::create(&mut c, "chess", "").await;
    let mut rng = Rng(0x5eed_c0ff_ee15_900d);
    for round in 0..200 {
        let len = 1 + (rng.next() % 40) as usize;
        let text = String::from_utf8_lossy(&rng.bytes(len)).into_owned();
        let variant = [pb::Variant::Chess, pb::Variant::RacingKings][round % 2] as i32;
        assert_refused(
            c.analyze_position(pb::AnalyzePositionRequest {
                variant,
                fen: text.clone(),
                ..Default::default()
            })
            .await,
            Code::InvalidArgument,
            "INVALID_FEN",
        );
        assert_refused(
            c.create_game(pb::CreateGameRequest {
                variant,
                start_fen: text.clone(),
                ..Default::default()
            })
            .await,
            Code::InvalidArgument,
            "INVALID_FEN",
        );
        assert_refused(
            c.submit_move(authed(
                pb::SubmitMoveRequest {
                    game_id: seats.id.clone(),
                    r#move: text.clone(),
                    ..Default::default()
                },
                &seats.white,
            ))
            .await,
            Code::InvalidArgument,
            "MALFORMED_MOVE",
        );
        assert_refused(
            c.get_game(pb::GetGameRequest {
                game_id: text.clone(),
            })
            .await,
            Code::InvalidArgument,
            "INVALID_GAME_ID",
        );
        let token = rng.visible(len);
        let mut request = Request::new(pb::OfferDrawRequest {
            game_id: seats.id.clone(),
        });
        request
            .metadata_mut()
            .insert("authorization", format!("Bearer {token}").parse().unwrap());
        assert_refused(
            c.offer_draw(request).await,
            Code::Unauthenticated,
            "TOKEN_INVALID",
        );
        let mut request = Request::new(pb::OfferDrawRequest {
            game_id: seats.id.clone(),
        });
        request
            .metadata_mut()
            .insert("authorization", token.parse().unwrap());
        assert_refused(
            c.offer_draw(request).await,
            Code::Unauthenticated,
            "TOKEN_INVALID",
        );
    }
    // A random well-formed token is still nobody's.
    let stranger: String = (0..32)
        .map(|_| char::from(b"0123456789abcdef"[(rng.next() % 16) as usize]))
        .collect();
    assert_refused(
        c.offer_draw(authed(
            pb::OfferDrawRequest {
                game_id: seats.id.clone(),
            },
            &stranger,
        ))
        .await,
        Code::Unauthenticated,
        "TOKEN_INVALID",
    );
    let game = support::get(&mut c, &seats.id).await;
    assert_eq!(
        (game.ply, game.last_seq),
        (0, 0),
        "nothing reached the game"
    );
    still_serves(&mut c).await;
    server.shutdown().await.unwrap();
}

/// A hand-framed gRPC call: `frame` is the whole request body (5-byte prefix included).
async fn raw_call(server: &TestServer, method: &str, frame: Vec<u8>) -> Status {
    raw_path_call(server, "chessd.v1.GameService", method, frame).await
}

/// A hand-framed gRPC call to any service's method.
async fn raw_path_call(server: &TestServer, service: &str, method: &str, frame: Vec<u8>) -> Status {
    let channel = server.channel().await;
    let request = http::Request::builder()
        .method("POST")
        .uri(format!("{}/{service}/{method}", server.url()))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(tonic::body::Body::new(
            http_body_util::Full::new(Bytes::from(frame)).map_err(|e| match e {}),
        ))
        .unwrap();
    let response = tower::ServiceExt::oneshot(channel, request)
        .await
        .expect("an HTTP answer");
    assert_eq!(
        response.status(),
        http::StatusCode::OK,
        "gRPC answers over HTTP 200"
    );
    if let Some(status) = Status::from_header_map(response.headers()) {
        return status;
    }
    let collected = response.into_body().collect().await.expect("the body");
    let trailers = collected
        .trailers()
        .cloned()
        .expect("trailers with a grpc-status");
    Status::from_header_map(&trailers).expect("a grpc-status")
}

fn framed(flag: u8, declared: u32, payload: &[u8]) -> Vec<u8> {
    let mut frame = vec![flag];
    frame.extend_from_slice(&declared.to_be_bytes());
    frame.extend_from_slice(payload);
    frame
}

/// Undecodable protobuf and broken framing, over raw HTTP/2: INVALID_ARGUMENT (a malformed
/// request is the client's fault, not INTERNAL), and the server goes on serving.
#[tokio::test]
async fn undecodable_requests() {
    let (server, mut c) = start().await;
    let mut rng = Rng(0xbad_f00d);
    let methods = [
        "CreateGame",
        "GetGame",
        "ListGames",
        "SubmitMove",
        "Resign",
        "OfferDraw",
        "RespondToDraw",
        "ClaimDraw",
        "Abort",
        "WatchGame",
        "ExportPgn",
        "GetStats",
        "AnalyzePosition",
    ];
    // Bytes that are no protobuf: a field with wire type 7, a truncated varint, a string
    // field whose length runs past the end, a string that is not UTF-8.
    let undecodable: [&[u8]; 4] = [
        &[0x0f],
        &[0x08, 0xff],
        &[0x0a, 0x10, b'a'],
        &[0x0a, 0x02, 0xff, 0xfe],
    ];
    for method in methods {
        for payload in undecodable {
            // GetStatsRequest has no field, so a length-delimited field 1 is an unknown field,
            // skipped whatever its bytes.
            if method == "GetStats" && payload[0] == 0x0a {
                continue;
            }
            let status = raw_call(&server, method, framed(0, payload.len() as u32, payload)).await;
            assert_eq!(
                (status.code(), support::reason(&status).as_str()),
                (Code::InvalidArgument, "MALFORMED_REQUEST"),
                "{method} {payload:?}: {}",
                status.message()
            );
        }
    }
    for _ in 0..50 {
        let method = methods[(rng.next() % methods.len() as u64) as usize];
        let len = 1 + (rng.next() % 64) as usize;
        let payload = rng.bytes(len);
        let status = raw_call(&server, method, framed(0, payload.len() as u32, &payload)).await;
        // Random bytes may happen to decode (protobuf skips unknown fields): then the fields
        // are refused or accepted like any others; never INTERNAL or UNKNOWN.
        assert!(
            !matches!(status.code(), Code::Internal | Code::Unknown),
            "{method} {payload:?}: {status:?}"
        );
    }
    // A frame that declares more bytes than it carries; a body with no message at all.
    let status = raw_call(&server, "GetStats", framed(0, 100, &[0; 10])).await;
    assert_eq!(support::reason(&status), "MALFORMED_REQUEST", "{status:?}");
    let status = raw_call(&server, "GetGame", Vec::new()).await;
    assert_eq!(support::reason(&status), "MALFORMED_REQUEST", "{status:?}");
    // A message flagged compressed with no compression agreed, and a flag that is neither 0
    // nor 1: malformed, with the reason, like every other malformed request.
    let status = raw_call(&server, "GetStats", framed(1, 2, &[0, 0])).await;
    assert_eq!(
        (status.code(), support::reason(&status).as_str()),
        (Code::InvalidArgument, "MALFORMED_REQUEST"),
        "{status:?}"
    );
    assert!(status.message().contains("grpc-encoding"), "{status:?}");
    let status = raw_call(&server, "GetStats", framed(7, 0, &[])).await;
    assert_eq!(support::reason(&status), "MALFORMED_REQUEST", "{status:?}");
    // A frame declaring 4 GiB: the size limit answers.
    let status = raw_call(&server, "GetStats", framed(0, u32::MAX, &[0; 16])).await;
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    still_serves(&mut c).await;
    server.shutdown().await.unwrap();
}

/// A seat token is its exact spelling: the same digits in upper case (or one letter changed
/// in case) are refused with TOKEN_INVALID by every seat action, and nothing reaches the game;
/// the token as issued still plays.
#[tokio::test]
async fn tokens_match_exactly() {
    let (server, mut c) = start().await;
    let (_, seats) = support::create(&mut c, "chess", "").await;
    let id = || seats.id.clone();
    for spelled in [seats.white.to_uppercase(), seats.black.to_uppercase(), {
        // The first letter digit in the other case.
        let at = seats
            .white
            .find(|ch: char| ch.is_ascii_lowercase())
            .unwrap();
        let mut t = seats.white.clone();
        t.replace_range(at..=at, &t[at..=at].to_uppercase());
        t
    }] {
        let refused = |r: Result<_, Status>| {
            assert_refused(r, Code::Unauthenticated, "TOKEN_INVALID");
        };
        refused(
            c.submit_move(authed(
                pb::SubmitMoveRequest {
                    game_id: id(),
                    r#move: "e4".into(),
                    ..Default::default()
                },
                &spelled,
            ))
            .await
            .map(|_| ()),
        );
        refused(
            c.resign(authed(pb::ResignRequest { game_id: id() }, &spelled))
                .await
                .map(|_| ()),
        );
        refused(
            c.offer_draw(authed(pb::OfferDrawRequest { game_id: id() }, &spelled))
                .await
                .map(|_| ()),
        );
        refused(
            c.respond_to_draw(authed(
                pb::RespondToDrawRequest {
                    game_id: id(),
                    accept: true,
                },
                &spelled,
            ))
            .await
            .map(|_| ()),
        );
        refused(
            c.claim_draw(authed(
                pb::ClaimDrawRequest {
                    game_id: id(),
                    claim: pb::DrawClaim::ThreefoldRepetition as i32,
                },
                &spelled,
            ))
            .await
            .map(|_| ()),
        );
        refused(
            c.abort(authed(pb::AbortRequest { game_id: id() }, &spelled))
                .await
                .map(|_| ()),
        );
    }
    let game = support::get(&mut c, &seats.id).await;
    assert_eq!(
        (game.ply, game.last_seq),
        (0, 0),
        "nothing reached the game"
    );
    let played = support::play(&mut c, &seats, 'w', "e4").await;
    assert_eq!(played.game.unwrap().ply, 1);
    server.shutdown().await.unwrap();
}

/// A method or service the server does not have: UNIMPLEMENTED with a message naming the
/// path and reason UNKNOWN_METHOD, like every other refusal.
#[tokio::test]
async fn unknown_methods_say_so() {
    let (server, mut c) = start().await;
    for path in [
        "/chessd.v1.GameService/Teleport",
        "/chessd.v2.GameService/GetGame",
        "/grpc.health.v1.Health/Nope",
    ] {
        let (service, method) = path[1..].split_once('/').unwrap();
        let status = raw_path_call(&server, service, method, framed(0, 0, &[])).await;
        assert_eq!(
            (status.code(), support::reason(&status).as_str()),
            (Code::Unimplemented, "UNKNOWN_METHOD"),
            "{path}: {status:?}"
        );
        assert!(
            status.message().contains(path),
            "{path}: {}",
            status.message()
        );
    }
    still_serves(&mut c).await;
    server.shutdown().await.unwrap();
}

/// Player names are kept exactly as given: spaces stay, and a name with a control
/// character (U+0085, which Unicode also counts as white space) is refused, never trimmed
/// into someone else's name.
#[tokio::test]
async fn names_are_kept_as_given() {
    let (server, mut c) = start().await;
    let create = |white: &str, black: &str| pb::CreateGameRequest {
        variant: pb::Variant::Chess as i32,
        white_player: white.into(),
        black_player: black.into(),
        ..Default::default()
    };
    let (game, _) = support::create_with(&mut c, create(" ann ", "bob\u{3000}")).await;
    assert_eq!(
        (game.white_player.as_str(), game.black_player.as_str()),
        (" ann ", "bob\u{3000}")
    );
    for bad in ["bob\u{85}", "\u{85}bob", "bob\n"] {
        let status = assert_refused(
            c.create_game(create("ann", bad)).await,
            Code::InvalidArgument,
            "INVALID_FIELD",
        );
        assert!(
            status.message().contains("black_player"),
            "{bad:?}: {}",
            status.message()
        );
    }
    server.shutdown().await.unwrap();
}
