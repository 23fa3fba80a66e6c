//! Idempotent retries: the same `request_id` returns the first answer and changes nothing.

use chessd::proto as pb;
use tonic::Code;

use crate::support::*;

/// A CreateGame retry returns the same game and tokens; the same id with another request is
/// refused.
#[tokio::test]
async fn create_game_retry() {
    let server = start().await;
    let mut client = server.client().await;
    let request = pb::CreateGameRequest {
        variant: pb::Variant::RacingKings as i32,
        white_player: "ann".into(),
        black_player: "bob".into(),
        request_id: "3f2c8a4e-create-1".into(),
        ..Default::default()
    };
    let first = client
        .create_game(request.clone())
        .await
        .unwrap()
        .into_inner();
    let again = client
        .create_game(request.clone())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        first.game.as_ref().unwrap().game_id,
        again.game.as_ref().unwrap().game_id
    );
    assert_eq!(
        (&first.white_token, &first.black_token),
        (&again.white_token, &again.black_token)
    );
    let listed = client
        .list_games(pb::ListGamesRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.games.len(), 1, "the retry made no second game");

    let changed = pb::CreateGameRequest {
        white_player: "carl".into(),
        ..request
    };
    assert_refused(
        client.create_game(changed).await,
        Code::InvalidArgument,
        "REQUEST_ID_REUSED",
    );
}

/// A SubmitMove retry returns the first answer's move (same seq) and plays nothing twice, even
/// after the opponent has moved; the same id for a different move is refused.
#[tokio::test]
async fn submit_move_retry() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;
    let request = pb::SubmitMoveRequest {
        game_id: seats.id.clone(),
        r#move: "e4".into(),
        expected_ply: Some(0),
        request_id: "move-1".into(),
        ..Default::default()
    };
    let first = client
        .submit_move(authed(request.clone(), &seats.white))
        .await
        .unwrap()
        .into_inner();
    let again = client
        .submit_move(authed(request.clone(), &seats.white))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(first.r#move, again.r#move);
    assert_eq!(again.game.unwrap().ply, 1, "nothing played twice");

    play(&mut client, &seats, 'b', "c5").await;
    // The same move written in UCI is the same request.
    let uci = pb::SubmitMoveRequest {
        r#move: "e2e4".into(),
        ..request.clone()
    };
    let late = client
        .submit_move(authed(uci, &seats.white))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(late.r#move, first.r#move);
    assert_eq!(late.game.unwrap().ply, 2);

    let other = pb::SubmitMoveRequest {
        r#move: "d4".into(),
        ..request.clone()
    };
    assert_refused(
        client.submit_move(authed(other, &seats.white)).await,
        Code::InvalidArgument,
        "REQUEST_ID_REUSED",
    );
    // Request ids are per seat: Black's "move-1" is a new request.
    let black = pb::SubmitMoveRequest {
        r#move: "Nc6".into(),
        expected_ply: None,
        ..request
    };
    assert_refused(
        client.submit_move(authed(black, &seats.black)).await,
        Code::FailedPrecondition,
        "NOT_YOUR_TURN",
    );
}

/// After the end: a retry of the move that ended the game still gets its first answer, and a
/// move the opponent sent too late (its own request id, or none) is refused as the game is
/// over. The memory store refuses the late one from the finished game's packed form and
/// leaves the retry to the rebuilt game: both must answer as the game would.
#[tokio::test]
async fn the_last_move_is_retried_and_a_late_one_refused() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;
    for (who, mv) in [('w', "f3"), ('b', "e5"), ('w', "g4")] {
        play(&mut client, &seats, who, mv).await;
    }
    let mate = pb::SubmitMoveRequest {
        game_id: seats.id.clone(),
        r#move: "Qh4#".into(),
        request_id: "the-mate".into(),
        ..Default::default()
    };
    let first = client
        .submit_move(authed(mate.clone(), &seats.black))
        .await
        .unwrap()
        .into_inner();
    let game = first.game.clone().unwrap();
    assert_eq!(game.status, pb::GameStatus::Finished as i32, "{game:?}");
    for attempt in 0..2 {
        let again = client
            .submit_move(authed(mate.clone(), &seats.black))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(again.r#move, first.r#move, "retry {attempt}");
        assert_eq!(
            again.game.unwrap().ply,
            4,
            "retry {attempt}: nothing played twice"
        );
        for request_id in ["late-1", ""] {
            let late = pb::SubmitMoveRequest {
                game_id: seats.id.clone(),
                r#move: "a3".into(),
                request_id: request_id.into(),
                ..Default::default()
            };
            assert_refused(
                client.submit_move(authed(late, &seats.white)).await,
                Code::FailedPrecondition,
                "GAME_OVER",
            );
        }
        // Black's own new request after the end is refused too.
        let another = pb::SubmitMoveRequest {
            r#move: "Qxh2".into(),
            request_id: "after-the-mate".into(),
            ..mate.clone()
        };
        assert_refused(
            client.submit_move(authed(another, &seats.black)).await,
            Code::FailedPrecondition,
            "GAME_OVER",
        );
    }
}
