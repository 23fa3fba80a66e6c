//! Every error code of the contract, with its ErrorInfo reason, through the public API.

use chessd::ServerConfig;
use chessd::proto as pb;
use tonic::{Code, Request};
use tonic_types::StatusExt;

use crate::support::*;

fn submit(seats: &Seats, mv: &str) -> pb::SubmitMoveRequest {
    pb::SubmitMoveRequest {
        game_id: seats.id.clone(),
        r#move: mv.into(),
        ..Default::default()
    }
}

/// An unknown (well-formed) game id is NOT_FOUND.
#[tokio::test]
async fn not_found() {
    let server = start().await;
    let mut client = server.client().await;
    let result = client
        .get_game(pb::GetGameRequest {
            game_id: "0000000000000".into(),
        })
        .await;
    assert_refused(result, Code::NotFound, "GAME_NOT_FOUND");
    let result = client
        .watch_game(pb::WatchGameRequest {
            game_id: "0000000000000".into(),
            after_seq: 0,
        })
        .await;
    assert_refused(result, Code::NotFound, "GAME_NOT_FOUND");
}

/// Malformed ids, FENs, moves, page tokens and unknown variants are INVALID_ARGUMENT, with the
/// field named in a BadRequest detail.
#[tokio::test]
async fn invalid_arguments() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;

    let result = client
        .get_game(pb::GetGameRequest {
            game_id: "not-an-id".into(),
        })
        .await;
    assert_refused(result, Code::InvalidArgument, "INVALID_GAME_ID");

    let create_from = |variant: i32, fen: &str| pb::CreateGameRequest {
        variant,
        start_fen: fen.into(),
        ..Default::default()
    };
    let status = assert_refused(
        client
            .create_game(create_from(
                pb::Variant::Chess as i32,
                "rnbqkbnr/pppppppp/8/8 w",
            ))
            .await,
        Code::InvalidArgument,
        "INVALID_FEN",
    );
    assert_eq!(
        status.get_details_bad_request().unwrap().field_violations[0].field,
        "fen"
    );
    // Legal chess, but Racing Kings has no pawns.
    let status = assert_refused(
        client
            .create_game(create_from(pb::Variant::RacingKings as i32, CHESS_START))
            .await,
        Code::InvalidArgument,
        "INVALID_FEN",
    );
    assert!(status.message().contains("pawn"), "{}", status.message());
    // A position that names its problem.
    let status = assert_refused(
        client
            .create_game(create_from(
                pb::Variant::Chess as i32,
                "8/8/8/8/8/8/8/4K3 w - - 0 1",
            ))
            .await,
        Code::InvalidArgument,
        "INVALID_FEN",
    );
    assert!(status.message().contains("king"), "{}", status.message());

    for variant in [pb::Variant::Unspecified as i32, 99] {
        assert_refused(
            client.create_game(create_from(variant, "")).await,
            Code::InvalidArgument,
            "INVALID_VARIANT",
        );
    }
    let analyze = pb::AnalyzePositionRequest {
        variant: 99,
        fen: CHESS_START.into(),
        ..Default::default()
    };
    assert_refused(
        client.analyze_position(analyze).await,
        Code::InvalidArgument,
        "INVALID_VARIANT",
    );

    let result = client
        .submit_move(authed(submit(&seats, "zz9"), &seats.white))
        .await;
    let status = assert_refused(result, Code::InvalidArgument, "MALFORMED_MOVE");
    assert!(status.message().contains("\"zz9\""), "{}", status.message());

    let list = pb::ListGamesRequest {
        page_token: "garbage".into(),
        ..Default::default()
    };
    assert_refused(
        client.list_games(list).await,
        Code::InvalidArgument,
        "INVALID_PAGE_TOKEN",
    );

    let timed = pb::CreateGameRequest {
        variant: pb::Variant::Chess as i32,
        time_control: Some(tc(0, 5)),
        ..Default::default()
    };
    let status = assert_refused(
        client.create_game(timed).await,
        Code::InvalidArgument,
        "INVALID_FIELD",
    );
    assert_eq!(
        status.get_details_bad_request().unwrap().field_violations[0].field,
        "time_control.initial"
    );

    let claim = pb::ClaimDrawRequest {
        game_id: seats.id.clone(),
        claim: 0,
    };
    assert_refused(
        client.claim_draw(authed(claim, &seats.white)).await,
        Code::InvalidArgument,
        "INVALID_FIELD",
    );

    let bad_id = pb::SubmitMoveRequest {
        request_id: "has spaces".into(),
        ..submit(&seats, "e4")
    };
    assert_refused(
        client.submit_move(authed(bad_id, &seats.white)).await,
        Code::InvalidArgument,
        "INVALID_FIELD",
    );

    let long_name = pb::CreateGameRequest {
        variant: pb::Variant::Chess as i32,
        white_player: "x".repeat(101),
        ..Default::default()
    };
    assert_refused(
        client.create_game(long_name).await,
        Code::InvalidArgument,
        "INVALID_FIELD",
    );
}

/// Illegal and ambiguous moves, moving out of turn, moving after the end, invalid claims and
/// aborts are FAILED_PRECONDITION; the message shows the position.
#[tokio::test]
async fn failed_preconditions() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;

    let status = assert_refused(
        client
            .submit_move(authed(submit(&seats, "e2e5"), &seats.white))
            .await,
        Code::FailedPrecondition,
        "ILLEGAL_MOVE",
    );
    assert!(
        status.message().contains(CHESS_START),
        "{}",
        status.message()
    );
    assert_refused(
        client
            .submit_move(authed(submit(&seats, "e5"), &seats.black))
            .await,
        Code::FailedPrecondition,
        "NOT_YOUR_TURN",
    );
    let claim = pb::ClaimDrawRequest {
        game_id: seats.id.clone(),
        claim: pb::DrawClaim::FiftyMoves as i32,
    };
    assert_refused(
        client.claim_draw(authed(claim, &seats.white)).await,
        Code::FailedPrecondition,
        "DRAW_CLAIM_INVALID",
    );
    let respond = pb::RespondToDrawRequest {
        game_id: seats.id.clone(),
        accept: true,
    };
    assert_refused(
        client.respond_to_draw(authed(respond, &seats.black)).await,
        Code::FailedPrecondition,
        "NO_DRAW_OFFER",
    );

    let (_, knights) = create(&mut client, "chess", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1").await;
    assert_refused(
        client
            .submit_move(authed(submit(&knights, "Nd2"), &knights.white))
            .await,
        Code::FailedPrecondition,
        "AMBIGUOUS_MOVE",
    );

    play_all(&mut client, &seats, 'w', "e4 e5").await;
    let abort = pb::AbortRequest {
        game_id: seats.id.clone(),
    };
    assert_refused(
        client.abort(authed(abort, &seats.white)).await,
        Code::FailedPrecondition,
        "ABORT_NOT_ALLOWED",
    );
    client
        .resign(authed(
            pb::ResignRequest {
                game_id: seats.id.clone(),
            },
            &seats.white,
        ))
        .await
        .unwrap();
    assert_refused(
        client
            .submit_move(authed(submit(&seats, "Nf3"), &seats.white))
            .await,
        Code::FailedPrecondition,
        "GAME_OVER",
    );
    let offer = pb::OfferDrawRequest {
        game_id: seats.id.clone(),
    };
    assert_refused(
        client.offer_draw(authed(offer, &seats.black)).await,
        Code::FailedPrecondition,
        "GAME_OVER",
    );
}

/// `expected_ply` other than the game's ply is ABORTED, with both plies in the details, and
/// nothing is played.
#[tokio::test]
async fn ply_mismatch() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;
    play(&mut client, &seats, 'w', "e4").await;
    let request = pb::SubmitMoveRequest {
        expected_ply: Some(0),
        ..submit(&seats, "e5")
    };
    let status = assert_refused(
        client.submit_move(authed(request, &seats.black)).await,
        Code::Aborted,
        "PLY_MISMATCH",
    );
    let info = status.get_details_error_info().unwrap();
    assert_eq!(
        (
            info.metadata["expected_ply"].as_str(),
            info.metadata["current_ply"].as_str()
        ),
        ("0", "1")
    );
    assert_eq!(get(&mut client, &seats.id).await.ply, 1);
    let request = pb::SubmitMoveRequest {
        expected_ply: Some(1),
        ..submit(&seats, "e5")
    };
    client
        .submit_move(authed(request, &seats.black))
        .await
        .unwrap();
}

/// A missing, malformed or unknown token is UNAUTHENTICATED; a token of another game is
/// unknown here.
#[tokio::test]
async fn unauthenticated() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;
    let (_, other) = create(&mut client, "chess", "").await;
    assert_refused(
        client.submit_move(submit(&seats, "e4")).await,
        Code::Unauthenticated,
        "TOKEN_MISSING",
    );
    assert_refused(
        client
            .submit_move(authed(submit(&seats, "e4"), "nonsense"))
            .await,
        Code::Unauthenticated,
        "TOKEN_INVALID",
    );
    let mut basic = Request::new(submit(&seats, "e4"));
    basic.metadata_mut().insert(
        "authorization",
        format!("Basic {}", seats.white).parse().unwrap(),
    );
    assert_refused(
        client.submit_move(basic).await,
        Code::Unauthenticated,
        "TOKEN_INVALID",
    );
    assert_refused(
        client
            .submit_move(authed(submit(&seats, "e4"), &other.white))
            .await,
        Code::Unauthenticated,
        "TOKEN_INVALID",
    );
    let resign = pb::ResignRequest {
        game_id: seats.id.clone(),
    };
    assert_refused(
        client.resign(resign).await,
        Code::Unauthenticated,
        "TOKEN_MISSING",
    );
}

/// A seat's token used for the other seat's action is PERMISSION_DENIED: only the side a draw
/// offer was made to may answer it.
#[tokio::test]
async fn permission_denied() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;
    client
        .offer_draw(authed(
            pb::OfferDrawRequest {
                game_id: seats.id.clone(),
            },
            &seats.white,
        ))
        .await
        .unwrap();
    let respond = pb::RespondToDrawRequest {
        game_id: seats.id.clone(),
        accept: true,
    };
    let status = assert_refused(
        client.respond_to_draw(authed(respond, &seats.white)).await,
        Code::PermissionDenied,
        "WRONG_SEAT",
    );
    assert_eq!(
        status.get_details_error_info().unwrap().metadata["required_seat"],
        "black"
    );
}

/// Limits reached are RESOURCE_EXHAUSTED: live games, and request size.
#[tokio::test]
async fn resource_exhausted() {
    let mut config = ServerConfig::default();
    config.store.limits.max_live_games = 2;
    config.max_request_bytes = 256;
    let server = start_with(config).await;
    let mut client = server.client().await;
    let (_, first) = create(&mut client, "chess", "").await;
    create(&mut client, "chess", "").await;
    let new = pb::CreateGameRequest {
        variant: pb::Variant::Chess as i32,
        ..Default::default()
    };
    let status = assert_refused(
        client.create_game(new.clone()).await,
        Code::ResourceExhausted,
        "TOO_MANY_GAMES",
    );
    assert_eq!(
        status.get_details_error_info().unwrap().metadata["limit"],
        "2"
    );
    // A finished game frees its place.
    client
        .resign(authed(
            pb::ResignRequest {
                game_id: first.id.clone(),
            },
            &first.white,
        ))
        .await
        .unwrap();
    client.create_game(new).await.unwrap();

    let huge = pb::AnalyzePositionRequest {
        variant: 1,
        fen: "x".repeat(1000),
        ..Default::default()
    };
    let status = assert_refused(
        client.analyze_position(huge).await,
        Code::ResourceExhausted,
        "REQUEST_TOO_LARGE",
    );
    assert!(status.message().contains("256"), "{}", status.message());
}

/// While the server drains, new calls on an open connection are UNAVAILABLE (or refused by
/// the transport, also UNAVAILABLE).
#[tokio::test]
async fn unavailable_while_draining() {
    let config = ServerConfig {
        drain_timeout: std::time::Duration::from_secs(2),
        ..ServerConfig::default()
    };
    let server = start_with(config).await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;
    // An open stream keeps the drain going while we call.
    let mut stream = watch(&mut client, &seats.id, 0).await;
    next_event(&mut stream).await.unwrap();
    let stopping = tokio::spawn(server.shutdown());
    let status = next_event(&mut stream).await.unwrap_err();
    assert_eq!(
        (status.code(), reason(&status).as_str()),
        (Code::Unavailable, "SHUTTING_DOWN")
    );
    let after = client
        .get_game(pb::GetGameRequest {
            game_id: seats.id.clone(),
        })
        .await
        .unwrap_err();
    assert_eq!(after.code(), Code::Unavailable, "{after:?}");
    stopping.await.unwrap().unwrap();
}

/// INVALID_VARIANT names every variant the server plays, so a client learns what to send from
/// the refusal alone (its hand-kept message once named only chess and Racing Kings); and the
/// field at fault travels in a BadRequest.
#[tokio::test]
async fn invalid_variant_names_every_variant() {
    let server = start().await;
    let mut client = server.client().await;
    let status = assert_refused(
        client
            .create_game(pb::CreateGameRequest {
                variant: 99,
                ..Default::default()
            })
            .await,
        Code::InvalidArgument,
        "INVALID_VARIANT",
    );
    let played = (1..).map_while(|n| pb::Variant::try_from(n).ok());
    for variant in played {
        client
            .create_game(pb::CreateGameRequest {
                variant: variant as i32,
                ..Default::default()
            })
            .await
            .expect("every variant of the enum is played");
        let name = variant.as_str_name();
        assert!(
            status.message().contains(name),
            "{name} missing from {:?}",
            status.message()
        );
    }
    let bad = status.get_details_bad_request().expect("a BadRequest");
    assert_eq!(bad.field_violations[0].field, "variant");
    server.shutdown().await.unwrap();
}
