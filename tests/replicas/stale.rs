//! A replica's cached copy of a game gone stale (another replica moved since): the seat to
//! move in the copy acts on it unread, and whatever the append or a refusal finds, the answer
//! is the one the game as Redis has it gives.

use tonic::Code;

use crate::support::{self, Redis};

/// Replica A's copy says White is to move while replica B has played on. On A: a move B
/// already answered, retried with its request id, is answered again and not played twice;
/// White's move is refused NOT_YOUR_TURN when B's move has made it Black's turn; Black plays
/// from the copy A's last answer left; and a move with the ply only the game as it is knows
/// (`expected_ply`) is played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_copy_answers_as_the_game_is() {
    let redis = Redis::start();
    let (ra, rb) = (
        support::replica(&redis).await,
        support::replica(&redis).await,
    );
    let (mut a, mut b) = (ra.client().await, rb.client().await);
    let seats = support::create(&mut a, None).await;
    support::play(&mut a, &seats, 'w', "e2e4").await;
    support::play(&mut a, &seats, 'b', "e7e5").await;

    // A's copy: White to move at ply 2. B plays two plies.
    let first = support::submit(&mut b, &seats, 'w', "g1f3", None, "req-nf3")
        .await
        .expect("Nf3 on B");
    support::play(&mut b, &seats, 'b', "b8c6").await;
    let again = support::submit(&mut a, &seats, 'w', "g1f3", None, "req-nf3")
        .await
        .expect("the retry of Nf3 on A");
    assert_eq!(
        again.r#move, first.r#move,
        "the retry answers the first move"
    );

    // A's copy: White to move at ply 4. B plays White's move.
    support::play(&mut b, &seats, 'w', "f1c4").await;
    let refused = support::submit(&mut a, &seats, 'w', "d2d4", None, "")
        .await
        .expect_err("d4 on A after Bc4 on B");
    assert_eq!(
        (refused.code(), support::reason(&refused).as_str()),
        (Code::FailedPrecondition, "NOT_YOUR_TURN"),
        "{}",
        refused.message()
    );
    support::play(&mut a, &seats, 'b', "g8f6").await;

    // A's copy: White to move at ply 6. B plays two plies; White expects ply 8 on A.
    support::play(&mut b, &seats, 'w', "d2d3").await;
    support::play(&mut b, &seats, 'b', "f8c5").await;
    let played = support::submit(&mut a, &seats, 'w', "e1g1", Some(8), "")
        .await
        .expect("O-O on A expecting ply 8");
    assert_eq!(played.r#move.expect("move").ply, 9);

    let game = support::get(&mut b, &seats.id).await.expect("get on B");
    let moves: Vec<_> = game.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(
        moves,
        [
            "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "e1g1"
        ]
    );
    assert_eq!(game.last_seq, 9);
}
