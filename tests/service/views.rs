//! SubmitMove's `view`: the basic view leaves out the move list and the legal moves and keeps
//! everything else.

use chessd::proto as pb;

use crate::support::*;

/// A basic answer has no moves or legal moves, and the same position, ply, turn, status and
/// last seq as a full one; unset means full.
#[tokio::test]
async fn basic_view_leaves_out_the_lists() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "chess", "").await;
    let submit = |mv: &str, view: pb::GameView| {
        authed(
            pb::SubmitMoveRequest {
                game_id: seats.id.clone(),
                r#move: mv.into(),
                view: view as i32,
                ..Default::default()
            },
            seats.token(if mv == "e4" { 'w' } else { 'b' }),
        )
    };
    let basic = client
        .submit_move(submit("e4", pb::GameView::Basic))
        .await
        .expect("e4")
        .into_inner();
    let game = basic.game.expect("game");
    assert!(
        game.moves.is_empty() && game.legal_moves.is_empty(),
        "{game:?}"
    );
    assert_eq!(basic.r#move.expect("move").san, "e4");
    assert_eq!(
        (game.fen.as_str(), game.ply, game.last_seq),
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            1,
            1
        )
    );
    assert_eq!(game.turn, pb::Color::Black as i32);
    assert_eq!(game.status, pb::GameStatus::Ongoing as i32);

    let full = client
        .submit_move(submit("e5", pb::GameView::Unspecified))
        .await
        .expect("e5")
        .into_inner()
        .game
        .expect("game");
    assert_eq!(
        full.moves.len(),
        2,
        "unset view is the full game at {}",
        full.fen
    );
    assert_eq!(full.legal_moves.len(), 29, "legal moves at {}", full.fen);
    server.shutdown().await.expect("shutdown");
}
