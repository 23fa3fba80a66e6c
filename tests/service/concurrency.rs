//! Concurrent clients: exactly one move per ply, and games that do not disturb each other.

use chessd::proto as pb;
use tonic::Code;

use crate::support::*;

/// Sixteen clients race to play White's first move with `expected_ply` 0: exactly one wins, the
/// others are told PLY_MISMATCH, and the game holds one move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_move_per_ply() {
    let server = start().await;
    let mut client = server.client().await;
    let (game, seats) = create(&mut client, "chess", "").await;
    let moves: Vec<String> = game
        .legal_moves
        .iter()
        .map(|m| m.uci.clone())
        .take(16)
        .collect();
    let mut racers = Vec::new();
    for mv in moves {
        let mut client = server.client().await;
        let seats = seats.clone();
        racers.push(tokio::spawn(async move {
            let request = pb::SubmitMoveRequest {
                game_id: seats.id.clone(),
                r#move: mv,
                expected_ply: Some(0),
                ..Default::default()
            };
            client.submit_move(authed(request, &seats.white)).await
        }));
    }
    let mut won = 0;
    for racer in racers {
        match racer.await.unwrap() {
            Ok(_) => won += 1,
            Err(status) => assert_eq!(
                (status.code(), reason(&status).as_str()),
                (Code::Aborted, "PLY_MISMATCH")
            ),
        }
    }
    assert_eq!(won, 1);
    let game = get(&mut client, &seats.id).await;
    assert_eq!(game.ply, 1);
    assert_eq!(game.last_seq, 1);
}

/// Without `expected_ply`, racing submitters of one seat still get one move: the others learn
/// it is no longer their turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_without_expected_ply() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;
    let mut racers = Vec::new();
    for mv in ["a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3"] {
        let mut client = server.client().await;
        let seats = seats.clone();
        racers.push(tokio::spawn(async move {
            let request = pb::SubmitMoveRequest {
                game_id: seats.id.clone(),
                r#move: mv.into(),
                ..Default::default()
            };
            client.submit_move(authed(request, &seats.white)).await
        }));
    }
    let mut won = 0;
    for racer in racers {
        match racer.await.unwrap() {
            Ok(_) => won += 1,
            Err(status) => assert_eq!(reason(&status), "NOT_YOUR_TURN"),
        }
    }
    assert_eq!(won, 1);
}

/// Many games played at once by separate clients all finish correctly.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_games_in_parallel() {
    let server = start().await;
    let mut players = Vec::new();
    for _ in 0..24 {
        let mut client = server.client().await;
        players.push(tokio::spawn(async move {
            let (_, seats) = create(&mut client, "chess", "").await;
            play_all(&mut client, &seats, 'w', "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#").await
        }));
    }
    for player in players {
        let game = player.await.unwrap();
        assert_eq!(outcome(&game), ("1-0".into(), pb::Termination::Checkmate));
    }
    let mut client = server.client().await;
    let stats = client
        .get_stats(pb::GetStatsRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(stats.variants[0].white_wins, 24);
}
