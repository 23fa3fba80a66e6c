//! Complete games of both variants to every kind of end, through the public API.

use std::time::Duration;

use chessd::proto::{self as pb, watch_game_response::Event};
use tonic::Code;

use crate::support::*;

/// Checkmate ends the game at once: Fool's mate, with the result, the SAN with `#`, no legal
/// moves left, a game-over event for a watcher, and the PGN.
#[tokio::test]
async fn checkmate() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;
    let mut stream = watch(&mut client, &seats.id, 0).await;
    let game = play_all(&mut client, &seats, 'w', "f3 e5 g4 Qh4#").await;
    assert_eq!(outcome(&game), ("0-1".into(), pb::Termination::Checkmate));
    assert_eq!(game.status, pb::GameStatus::Finished as i32);
    assert!(game.legal_moves.is_empty());
    assert!(game.in_check);
    let sans: Vec<&str> = game.moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["f3", "e5", "g4", "Qh4#"]);
    let events: Vec<String> = drain(&mut stream).await.iter().map(describe).collect();
    assert_eq!(
        events,
        [
            "snapshot ply 0",
            "move f2f3",
            "move e7e5",
            "move g2g4",
            "move d8h4",
            "over 0-1"
        ]
    );
    let pgn = client
        .export_pgn(pb::ExportPgnRequest {
            game_id: seats.id.clone(),
        })
        .await
        .unwrap()
        .into_inner()
        .pgn;
    assert!(
        pgn.contains("[Result \"0-1\"]") && pgn.contains("[White \"white\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("1. f3 e5 2. g4 Qh4# 0-1"), "{pgn}");
    assert!(
        pgn.contains("[Variant \"Standard\"]") && pgn.contains("[Termination \"normal\"]"),
        "{pgn}"
    );
}

/// Stalemate is a draw.
#[tokio::test]
async fn stalemate() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1").await;
    let game = play(&mut client, &seats, 'w', "f1f7").await.game.unwrap();
    assert_eq!(
        outcome(&game),
        ("1/2-1/2".into(), pb::Termination::Stalemate)
    );
}

/// King against king is a draw by insufficient material, the moment the last piece goes.
#[tokio::test]
async fn insufficient_material() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "8/8/8/4k3/8/8/3r4/4K3 w - - 0 1").await;
    let game = play(&mut client, &seats, 'w', "Kxd2").await.game.unwrap();
    assert_eq!(
        outcome(&game),
        ("1/2-1/2".into(), pb::Termination::InsufficientMaterial)
    );
}

/// Threefold repetition is claimed by the player to move, only once it holds.
#[tokio::test]
async fn repetition_claim() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;
    let claim = |token: &str| {
        authed(
            pb::ClaimDrawRequest {
                game_id: seats.id.clone(),
                claim: pb::DrawClaim::ThreefoldRepetition as i32,
            },
            token,
        )
    };
    play_all(&mut client, &seats, 'w', "Nf3 Nf6 Ng1 Ng8").await;
    assert_refused(
        client.claim_draw(claim(&seats.white)).await,
        Code::FailedPrecondition,
        "DRAW_CLAIM_INVALID",
    );
    play_all(&mut client, &seats, 'w', "Nf3 Nf6 Ng1 Ng8").await;
    assert_refused(
        client.claim_draw(claim(&seats.black)).await,
        Code::FailedPrecondition,
        "NOT_YOUR_TURN",
    );
    let game = client
        .claim_draw(claim(&seats.white))
        .await
        .unwrap()
        .into_inner()
        .game
        .unwrap();
    assert_eq!(
        outcome(&game),
        ("1/2-1/2".into(), pb::Termination::Repetition)
    );
}

/// With automatic draws, the third occurrence ends the game without a claim.
#[tokio::test]
async fn automatic_repetition() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create_with(
        &mut client,
        pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            draw_rule: pb::DrawRule::Automatic as i32,
            ..Default::default()
        },
    )
    .await;
    let game = play_all(&mut client, &seats, 'w', "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8").await;
    assert_eq!(
        outcome(&game),
        ("1/2-1/2".into(), pb::Termination::Repetition)
    );
    assert_eq!(game.draw_rule, pb::DrawRule::Automatic as i32);
}

/// The fifty-move claim holds from 100 half-moves without capture or pawn move.
#[tokio::test]
async fn fifty_move_claim() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "4k3/8/8/8/8/8/8/R3K3 w - - 99 60").await;
    let claim = |token: &str| {
        authed(
            pb::ClaimDrawRequest {
                game_id: seats.id.clone(),
                claim: pb::DrawClaim::FiftyMoves as i32,
            },
            token,
        )
    };
    assert_refused(
        client.claim_draw(claim(&seats.white)).await,
        Code::FailedPrecondition,
        "DRAW_CLAIM_INVALID",
    );
    play(&mut client, &seats, 'w', "Ra2").await;
    let game = client
        .claim_draw(claim(&seats.black))
        .await
        .unwrap()
        .into_inner()
        .game
        .unwrap();
    assert_eq!(
        outcome(&game),
        ("1/2-1/2".into(), pb::Termination::FiftyMoveRule)
    );
}

/// Either player may resign at any time, also when the opponent is to move.
#[tokio::test]
async fn resignation() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;
    play(&mut client, &seats, 'w', "e4").await;
    let request = authed(
        pb::ResignRequest {
            game_id: seats.id.clone(),
        },
        &seats.white,
    );
    let game = client
        .resign(request)
        .await
        .unwrap()
        .into_inner()
        .game
        .unwrap();
    assert_eq!(outcome(&game), ("0-1".into(), pb::Termination::Resignation));
    assert_eq!(game.outcome.unwrap().winner, pb::Color::Black as i32);
}

/// Draw offers: declined, lapsing when the opponent moves, then accepted. Watchers see the
/// offers and the decline.
#[tokio::test]
async fn agreement() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;
    let mut stream = watch(&mut client, &seats.id, 0).await;
    let offer = |token: &str| {
        authed(
            pb::OfferDrawRequest {
                game_id: seats.id.clone(),
            },
            token,
        )
    };
    let respond = |token: &str, accept: bool| {
        authed(
            pb::RespondToDrawRequest {
                game_id: seats.id.clone(),
                accept,
            },
            token,
        )
    };

    play(&mut client, &seats, 'w', "e4").await;
    let game = client
        .offer_draw(offer(&seats.white))
        .await
        .unwrap()
        .into_inner()
        .game
        .unwrap();
    assert_eq!(game.draw_offer, pb::Color::White as i32);
    let game = client
        .respond_to_draw(respond(&seats.black, false))
        .await
        .unwrap()
        .into_inner()
        .game
        .unwrap();
    assert_eq!(game.draw_offer, pb::Color::Unspecified as i32);

    // An offer made with a move lapses when the opponent moves instead of answering.
    play(&mut client, &seats, 'b', "e5").await;
    let request = pb::SubmitMoveRequest {
        game_id: seats.id.clone(),
        r#move: "Nf3".into(),
        offer_draw: true,
        ..Default::default()
    };
    let game = client
        .submit_move(authed(request, &seats.white))
        .await
        .unwrap()
        .into_inner()
        .game
        .unwrap();
    assert_eq!(game.draw_offer, pb::Color::White as i32);
    let game = play(&mut client, &seats, 'b', "Nc6").await.game.unwrap();
    assert_eq!(game.draw_offer, pb::Color::Unspecified as i32);
    assert_refused(
        client.respond_to_draw(respond(&seats.white, true)).await,
        Code::FailedPrecondition,
        "NO_DRAW_OFFER",
    );

    client.offer_draw(offer(&seats.black)).await.unwrap();
    let game = client
        .respond_to_draw(respond(&seats.white, true))
        .await
        .unwrap()
        .into_inner()
        .game
        .unwrap();
    assert_eq!(
        outcome(&game),
        ("1/2-1/2".into(), pb::Termination::Agreement)
    );

    let events: Vec<String> = drain(&mut stream).await.iter().map(describe).collect();
    assert_eq!(
        events,
        [
            "snapshot ply 0",
            "move e2e4",
            "offer w",
            "decline b",
            "move e7e5",
            "move g1f3",
            "offer w",
            "move b8c6",
            "offer b",
            "over 1/2-1/2"
        ]
    );
}

/// Offering a draw while the opponent's offer stands accepts it.
#[tokio::test]
async fn crossing_offers_agree() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;
    let offer = |token: &str| {
        authed(
            pb::OfferDrawRequest {
                game_id: seats.id.clone(),
            },
            token,
        )
    };
    client.offer_draw(offer(&seats.white)).await.unwrap();
    // Offering twice changes nothing.
    client.offer_draw(offer(&seats.white)).await.unwrap();
    let game = client
        .offer_draw(offer(&seats.black))
        .await
        .unwrap()
        .into_inner()
        .game
        .unwrap();
    assert_eq!(
        outcome(&game),
        ("1/2-1/2".into(), pb::Termination::Agreement)
    );
}

/// A game can be aborted until both sides have moved; it then has no result.
#[tokio::test]
async fn abort() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;
    play(&mut client, &seats, 'w', "e4").await;
    let request = authed(
        pb::AbortRequest {
            game_id: seats.id.clone(),
        },
        &seats.black,
    );
    let game = client
        .abort(request)
        .await
        .unwrap()
        .into_inner()
        .game
        .unwrap();
    assert_eq!(outcome(&game), ("*".into(), pb::Termination::Aborted));
    assert_eq!(game.status, pb::GameStatus::Aborted as i32);
    assert_eq!(
        game.outcome.unwrap().result,
        pb::GameResult::Unspecified as i32
    );

    let (_, seats) = create(&mut client, "chess", "").await;
    play_all(&mut client, &seats, 'w', "e4 e5").await;
    let request = authed(
        pb::AbortRequest {
            game_id: seats.id.clone(),
        },
        &seats.white,
    );
    assert_refused(
        client.abort(request).await,
        Code::FailedPrecondition,
        "ABORT_NOT_ALLOWED",
    );
}

/// The side to move loses on time with nobody calling: the server's timer ends the game and
/// watchers get game over at once (tokio's clock is paused, so the wait is instant; off memory
/// it takes the 3 s).
#[tokio::test(start_paused = true)]
async fn time_forfeit() {
    real_time_off_memory();
    let server = start().await;
    let mut client = server.client().await;
    let (game, seats) = create_with(
        &mut client,
        pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            time_control: Some(tc(3, 0)),
            ..Default::default()
        },
    )
    .await;
    assert_eq!(
        game.clocks.as_ref().unwrap().running,
        pb::Color::White as i32
    );
    let mut stream = watch(&mut client, &seats.id, 0).await;
    assert_eq!(
        describe(&next_event(&mut stream).await.unwrap().unwrap()),
        "snapshot ply 0"
    );
    let over = next_event(&mut stream).await.unwrap().unwrap();
    let Some(Event::GameOver(over)) = over.event else {
        panic!("expected game over, got {over:?}")
    };
    let o = over.outcome.unwrap();
    assert_eq!(
        (o.pgn_result.as_str(), o.termination),
        ("0-1", pb::Termination::TimeForfeit as i32)
    );
    assert!(
        next_event(&mut stream).await.unwrap().is_none(),
        "the stream ends after game over"
    );

    let game = get(&mut client, &seats.id).await;
    let clocks = game.clocks.unwrap();
    assert_eq!(
        clocks.white_remaining.unwrap(),
        prost_types::Duration {
            seconds: 0,
            nanos: 0
        }
    );
    assert_eq!(clocks.running, pb::Color::Unspecified as i32);
    let request = pb::SubmitMoveRequest {
        game_id: seats.id.clone(),
        r#move: "e4".into(),
        ..Default::default()
    };
    assert_refused(
        client.submit_move(authed(request, &seats.white)).await,
        Code::FailedPrecondition,
        "GAME_OVER",
    );
}

/// A flag against a lone king is a draw in chess, never in Racing Kings (a lone king still
/// races).
#[tokio::test(start_paused = true)]
async fn time_forfeit_against_insufficient_material() {
    real_time_off_memory();
    let server = start().await;
    let mut client = server.client().await;
    let mut games = Vec::new();
    for (variant, fen, result) in [
        ("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "1/2-1/2"),
        ("racingkings", "8/8/8/8/8/8/k6K/8 w - - 0 1", "0-1"),
    ] {
        let (_, seats) = create_with(
            &mut client,
            pb::CreateGameRequest {
                variant: variant_of(variant),
                start_fen: fen.into(),
                time_control: Some(tc(5, 0)),
                ..Default::default()
            },
        )
        .await;
        games.push((variant, fen, result, seats));
    }
    // Both flags fall during one wait (off memory a real one).
    tokio::time::sleep(Duration::from_secs(6)).await;
    for (variant, fen, result, seats) in games {
        let game = get(&mut client, &seats.id).await;
        assert_eq!(
            outcome(&game),
            (result.into(), pb::Termination::TimeForfeit),
            "{variant} {fen}"
        );
    }
}

/// The increment goes to the mover after each move; only the side to move's clock runs.
/// Memory steps a paused clock, so readings are whole seconds; on the other stores the seconds
/// are real (see `real_time_off_memory`), so readings come a few milliseconds short and are compared to
/// the nearest second.
#[tokio::test(start_paused = true)]
async fn increment_after_each_move() {
    real_time_off_memory();
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create_with(
        &mut client,
        pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            time_control: Some(tc(10, 5)),
            ..Default::default()
        },
    )
    .await;
    let real = in_real_time();
    let secs = |d: Option<prost_types::Duration>| {
        let d = d.unwrap();
        if real {
            (d.seconds * 1000 + i64::from(d.nanos) / 1_000_000 + 500) / 1000
        } else {
            d.seconds
        }
    };
    let pass = |secs| async move {
        if real {
            tokio::time::sleep(Duration::from_secs(secs)).await;
        } else {
            tokio::time::advance(Duration::from_secs(secs)).await;
        }
    };
    pass(2).await;
    let game = play(&mut client, &seats, 'w', "e4").await.game.unwrap();
    let clocks = game.clocks.unwrap();
    assert_eq!(
        (secs(clocks.white_remaining), secs(clocks.black_remaining)),
        (13, 10)
    );
    assert_eq!(clocks.running, pb::Color::Black as i32);
    pass(3).await;
    let clocks = get(&mut client, &seats.id).await.clocks.unwrap();
    assert_eq!(
        (secs(clocks.white_remaining), secs(clocks.black_remaining)),
        (13, 7)
    );
    let clocks = play(&mut client, &seats, 'b', "e5")
        .await
        .game
        .unwrap()
        .clocks
        .unwrap();
    assert_eq!(
        (secs(clocks.white_remaining), secs(clocks.black_remaining)),
        (13, 12)
    );
}

/// Racing Kings: Black's king reaching rank 8 first wins at once.
#[tokio::test]
async fn racing_kings_black_wins() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "racingkings", "8/k7/8/8/8/8/8/7K b - - 0 1").await;
    let game = play(&mut client, &seats, 'b', "Ka8").await.game.unwrap();
    assert_eq!(outcome(&game), ("0-1".into(), pb::Termination::Race));
}

/// Racing Kings: White reaches rank 8 and Black catches up with the next move: a draw.
#[tokio::test]
async fn racing_kings_catch_up_draw() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "racingkings", "8/1k4K1/8/8/8/8/8/8 w - - 0 1").await;
    let game = play(&mut client, &seats, 'w', "Kg8").await.game.unwrap();
    assert!(game.outcome.is_none(), "black still has its move");
    let game = play(&mut client, &seats, 'b', "Kb8").await.game.unwrap();
    assert_eq!(outcome(&game), ("1/2-1/2".into(), pb::Termination::Race));
}

/// Racing Kings: White wins when Black does not catch up with its one move, and at once when
/// Black cannot.
#[tokio::test]
async fn racing_kings_white_wins() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "racingkings", "8/1k4K1/8/8/8/8/8/8 w - - 0 1").await;
    play(&mut client, &seats, 'w', "g7g8").await;
    let game = play(&mut client, &seats, 'b', "Kb6").await.game.unwrap();
    assert_eq!(outcome(&game), ("1-0".into(), pb::Termination::Race));

    let (_, seats) = create(&mut client, "racingkings", "8/6K1/8/1k6/8/8/8/8 w - - 0 1").await;
    let game = play(&mut client, &seats, 'w', "Kg8").await.game.unwrap();
    assert_eq!(outcome(&game), ("1-0".into(), pb::Termination::Race));
}

/// Racing Kings from its start: SAN and UCI both play, SAN never carries `+`, and a move that
/// would give check is refused as illegal.
#[tokio::test]
async fn racing_kings_from_start() {
    let server = start().await;
    let mut client = server.client().await;
    let (game, seats) = create(&mut client, "racingkings", "").await;
    assert_eq!(game.start_fen, RK_START);
    assert_eq!(game.legal_moves.len(), 21);
    play_all(&mut client, &seats, 'w', "Kg3 a2a3").await;
    let pgn = client
        .export_pgn(pb::ExportPgnRequest {
            game_id: seats.id.clone(),
        })
        .await
        .unwrap()
        .into_inner()
        .pgn;
    assert!(
        pgn.contains("[Variant \"Racing Kings\"]")
            && pgn.contains(&format!("[FEN \"{RK_START}\"]")),
        "{pgn}"
    );
    // Qh3 would check Black's king on a3 along the third rank: never legal in Racing Kings.
    let (_, seats) = create(&mut client, "racingkings", "8/8/8/8/8/k7/8/6KQ w - - 0 1").await;
    let request = pb::SubmitMoveRequest {
        game_id: seats.id.clone(),
        r#move: "h1h3".into(),
        ..Default::default()
    };
    assert_refused(
        client.submit_move(authed(request, &seats.white)).await,
        Code::FailedPrecondition,
        "ILLEGAL_MOVE",
    );
}

/// Promotion by SAN and by UCI; the answer carries both notations and the event seq.
#[tokio::test]
async fn promotion_in_both_notations() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "8/4P3/8/8/8/1k6/8/4K3 w - - 0 1").await;
    let answer = play(&mut client, &seats, 'w', "e8=N").await;
    let played = answer.r#move.unwrap();
    assert_eq!(
        (
            played.uci.as_str(),
            played.san.as_str(),
            played.ply,
            played.seq
        ),
        ("e7e8n", "e8=N", 1, 1)
    );
    let (_, seats) = create(&mut client, "chess", "8/4P3/8/8/8/1k6/8/4K3 w - - 0 1").await;
    let played = play(&mut client, &seats, 'w', "e7e8q")
        .await
        .r#move
        .unwrap();
    assert_eq!(played.san, "e8=Q");
}
