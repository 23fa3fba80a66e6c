//! Operations and the read-side RPCs: health, reflection, graceful shutdown, listing, stats,
//! analysis.

use std::time::Duration;

use chessd::ServerConfig;
use chessd::proto as pb;
use tokio_stream::StreamExt;
use tonic::Code;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_reflection::pb::v1::ServerReflectionRequest;
use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;
use tonic_types::StatusExt;

use crate::support::*;

/// Health reports SERVING for the server ("") and for chessd.v1.GameService.
#[tokio::test]
async fn health_serving() {
    let server = start().await;
    let mut health = HealthClient::new(server.channel().await);
    for service in ["", "chessd.v1.GameService"] {
        let status = health
            .check(HealthCheckRequest {
                service: service.into(),
            })
            .await
            .unwrap()
            .into_inner()
            .status;
        assert_eq!(status, ServingStatus::Serving as i32, "{service:?}");
    }
}

/// Reflection (v1) lists every service and resolves chessd's, health's and the error-detail
/// types, so generic clients can call everything.
#[tokio::test]
async fn reflection_lists_and_resolves() {
    let server = start().await;
    let mut reflection = ServerReflectionClient::new(server.channel().await);
    let ask = |request: MessageRequest| {
        tokio_stream::iter([ServerReflectionRequest {
            host: String::new(),
            message_request: Some(request),
        }])
    };
    let mut answers = reflection
        .server_reflection_info(ask(MessageRequest::ListServices(String::new())))
        .await
        .unwrap()
        .into_inner();
    let Some(MessageResponse::ListServicesResponse(list)) =
        answers.next().await.unwrap().unwrap().message_response
    else {
        panic!("expected a service list")
    };
    let names: Vec<&str> = list.service.iter().map(|s| s.name.as_str()).collect();
    for expected in [
        "chessd.v1.GameService",
        "grpc.health.v1.Health",
        "grpc.reflection.v1.ServerReflection",
    ] {
        assert!(names.contains(&expected), "{names:?}");
    }
    for symbol in [
        "chessd.v1.GameService",
        "google.rpc.ErrorInfo",
        "google.rpc.BadRequest",
        "grpc.health.v1.Health",
    ] {
        let mut answers = reflection
            .server_reflection_info(ask(MessageRequest::FileContainingSymbol(symbol.into())))
            .await
            .unwrap()
            .into_inner();
        let answer = answers.next().await.unwrap().unwrap().message_response;
        assert!(
            matches!(answer, Some(MessageResponse::FileDescriptorResponse(_))),
            "{symbol}: {answer:?}"
        );
    }
}

/// SIGTERM's path: health turns NOT_SERVING, open watch streams end with UNAVAILABLE and the
/// seq to resume from, and `run` returns Ok within the drain timeout.
#[tokio::test]
async fn graceful_shutdown() {
    let config = ServerConfig {
        drain_timeout: Duration::from_secs(2),
        ..ServerConfig::default()
    };
    let server = start_with(config).await;
    let mut client = server.client().await;
    let mut health = HealthClient::new(server.channel().await);
    let mut health_updates = health
        .watch(HealthCheckRequest {
            service: "chessd.v1.GameService".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        health_updates.message().await.unwrap().unwrap().status,
        ServingStatus::Serving as i32
    );

    let (_, seats) = create(&mut client, "chess", "").await;
    play_all(&mut client, &seats, 'w', "e4 e5").await;
    let mut stream = watch(&mut client, &seats.id, 1).await;
    assert_eq!(next_event(&mut stream).await.unwrap().unwrap().seq, 2);

    let started = tokio::time::Instant::now();
    let stopping = tokio::spawn(server.shutdown());
    let status = next_event(&mut stream).await.unwrap_err();
    assert_eq!(
        (status.code(), reason(&status).as_str()),
        (Code::Unavailable, "SHUTTING_DOWN")
    );
    assert_eq!(
        status.get_details_error_info().unwrap().metadata["resume_after_seq"],
        "2"
    );
    assert!(
        status.message().contains("after_seq 2"),
        "{}",
        status.message()
    );
    assert_eq!(
        health_updates.message().await.unwrap().unwrap().status,
        ServingStatus::NotServing as i32
    );
    stopping.await.unwrap().expect("run returns Ok");
    assert!(started.elapsed() < Duration::from_secs(5));
}

/// ListGames pages newest first with a token, and filters by status, variant and player.
#[tokio::test]
async fn list_games_pages_and_filters() {
    let server = start().await;
    let mut client = server.client().await;
    let mut ids = Vec::new();
    for i in 0..7 {
        let variant = if i % 2 == 0 { "chess" } else { "racingkings" };
        let request = pb::CreateGameRequest {
            variant: variant_of(variant),
            white_player: format!("p{i}"),
            black_player: "common".into(),
            ..Default::default()
        };
        let (_, seats) = create_with(&mut client, request).await;
        ids.push(seats);
        // Ids order by creation time in milliseconds.
        tokio::time::sleep(Duration::from_millis(3)).await;
    }
    client
        .resign(authed(
            pb::ResignRequest {
                game_id: ids[0].id.clone(),
            },
            &ids[0].white,
        ))
        .await
        .unwrap();

    let mut seen = Vec::new();
    let mut token = String::new();
    loop {
        let page = client
            .list_games(pb::ListGamesRequest {
                page_size: 3,
                page_token: token.clone(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        assert!(page.games.len() <= 3);
        seen.extend(page.games.into_iter().map(|g| g.game_id));
        if page.next_page_token.is_empty() {
            break;
        }
        token = page.next_page_token;
    }
    let newest_first: Vec<String> = ids.iter().rev().map(|s| s.id.clone()).collect();
    assert_eq!(seen, newest_first);

    let list = |request: pb::ListGamesRequest| {
        let mut client = client.clone();
        async move { client.list_games(request).await.unwrap().into_inner().games }
    };
    let chess = list(pb::ListGamesRequest {
        variant: pb::Variant::Chess as i32,
        ..Default::default()
    })
    .await;
    assert_eq!(chess.len(), 4);
    let finished = list(pb::ListGamesRequest {
        status: pb::GameStatus::Finished as i32,
        ..Default::default()
    })
    .await;
    assert_eq!(
        finished
            .iter()
            .map(|g| g.game_id.clone())
            .collect::<Vec<_>>(),
        [ids[0].id.clone()]
    );
    assert_eq!(finished[0].outcome.as_ref().unwrap().pgn_result, "0-1");
    let p3 = list(pb::ListGamesRequest {
        player: "p3".into(),
        ..Default::default()
    })
    .await;
    assert_eq!(p3.len(), 1);
    assert_eq!(
        list(pb::ListGamesRequest {
            player: "common".into(),
            ..Default::default()
        })
        .await
        .len(),
        7
    );
    let ongoing_rk = list(pb::ListGamesRequest {
        status: pb::GameStatus::Ongoing as i32,
        variant: pb::Variant::RacingKings as i32,
        ..Default::default()
    })
    .await;
    assert_eq!(ongoing_rk.len(), 3);
}

/// GetStats counts finished games per variant with White/Black/draw shares; aborted games are
/// not counted.
#[tokio::test]
async fn stats_shares() {
    let server = start().await;
    let mut client = server.client().await;
    let resign = |seats: &Seats, side: char| {
        authed(
            pb::ResignRequest {
                game_id: seats.id.clone(),
            },
            seats.token(side),
        )
    };
    for loser in ['b', 'b', 'w'] {
        let (_, seats) = create(&mut client, "chess", "").await;
        client.resign(resign(&seats, loser)).await.unwrap();
    }
    let (_, seats) = create(&mut client, "chess", "").await;
    offer_draw(&mut client, &seats, 'w').await;
    offer_draw(&mut client, &seats, 'b').await;
    let (_, seats) = create(&mut client, "chess", "").await;
    client
        .abort(authed(
            pb::AbortRequest {
                game_id: seats.id.clone(),
            },
            &seats.white,
        ))
        .await
        .unwrap();
    let (_, seats) = create(&mut client, "racingkings", "8/k7/8/8/8/8/8/7K b - - 0 1").await;
    play(&mut client, &seats, 'b', "Ka8").await;

    let stats = client
        .get_stats(pb::GetStatsRequest::default())
        .await
        .unwrap()
        .into_inner()
        .variants;
    let chess = &stats[0];
    assert_eq!(chess.variant, pb::Variant::Chess as i32);
    assert_eq!(
        (
            chess.finished_games,
            chess.white_wins,
            chess.black_wins,
            chess.draws
        ),
        (4, 2, 1, 1)
    );
    assert_eq!(
        (
            chess.white_win_share,
            chess.black_win_share,
            chess.draw_share
        ),
        (0.5, 0.25, 0.25)
    );
    let rk = &stats[1];
    assert_eq!(
        (
            rk.variant,
            rk.finished_games,
            rk.black_wins,
            rk.black_win_share
        ),
        (pb::Variant::RacingKings as i32, 1, 1, 1.0)
    );
}

/// AnalyzePosition is stateless: legal moves in both notations, check, and final outcomes.
#[tokio::test]
async fn analyze_position() {
    let server = start().await;
    let mut client = server.client().await;
    let analyze = |variant: &str, fen: &str| pb::AnalyzePositionRequest {
        variant: variant_of(variant),
        fen: fen.into(),
        ..Default::default()
    };
    let a = client
        .analyze_position(analyze("chess", CHESS_START))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (a.legal_moves.len(), a.in_check, a.outcome.is_none()),
        (20, false, true)
    );
    assert!(
        a.legal_moves
            .iter()
            .any(|m| m.uci == "g1f3" && m.san == "Nf3")
    );

    let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let a = client
        .analyze_position(analyze("chess", mate))
        .await
        .unwrap()
        .into_inner();
    assert!(a.in_check && a.legal_moves.is_empty());
    assert_eq!(
        a.outcome.unwrap().termination,
        pb::Termination::Checkmate as i32
    );

    let a = client
        .analyze_position(analyze("racingkings", RK_START))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((a.legal_moves.len(), a.turn), (21, pb::Color::White as i32));
    let a = client
        .analyze_position(analyze("racingkings", "k7/8/8/8/8/8/8/7K w - - 0 1"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(a.outcome.unwrap().result, pb::GameResult::BlackWins as i32);
}
