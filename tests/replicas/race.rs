//! Two replicas racing on one ply: the compare-and-append lets exactly one win.

use tonic::Code;

use crate::support::{self, Redis, Replica};

/// Different moves for the same ply, sent at once to two replicas: one is played, the other
/// is told PLY_MISMATCH (with `expected_ply`) or NOT_YOUR_TURN (without), and the game holds
/// exactly the winner's move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_replicas_one_winner_per_ply() {
    let redis = Redis::start();
    let (r0, r1) = (
        support::replica(&redis).await,
        support::replica(&redis).await,
    );
    one_winner_per_ply(&r0, &r1, 12).await;
}

/// The race of the test above, `rounds` times on fresh games, between `r0` and `r1`.
pub async fn one_winner_per_ply(r0: &Replica, r1: &Replica, rounds: u32) {
    let mut c0 = r0.client().await;
    for round in 0..rounds {
        let with_expected = round % 2 == 0;
        let seats = support::create(&mut c0, None).await;
        let (mut a, mut b) = (r0.client().await, r1.client().await);
        // Both replicas have the game cached, so both really race on the append.
        support::get(&mut a, &seats.id)
            .await
            .expect("get on replica 0");
        support::get(&mut b, &seats.id)
            .await
            .expect("get on replica 1");
        let expected = with_expected.then_some(0);
        let (s0, s1) = (seats.clone(), seats.clone());
        let (first, second) = tokio::join!(
            async move { support::submit(&mut a, &s0, 'w', "e2e4", expected, "").await },
            async move { support::submit(&mut b, &s1, 'w', "d2d4", expected, "").await },
        );
        let (won, lost, winner) = match (first, second) {
            (Ok(w), Err(l)) => (w, l, "e2e4"),
            (Err(l), Ok(w)) => (w, l, "d2d4"),
            (a, b) => panic!("round {round}: expected one winner, got {a:?} and {b:?}"),
        };
        assert_eq!(won.r#move.expect("move").uci, winner);
        let (code, reason) = if with_expected {
            (Code::Aborted, "PLY_MISMATCH")
        } else {
            (Code::FailedPrecondition, "NOT_YOUR_TURN")
        };
        assert_eq!(
            (lost.code(), support::reason(&lost).as_str()),
            (code, reason),
            "round {round}: {}",
            lost.message()
        );
        let game = support::get(&mut c0, &seats.id).await.expect("get");
        let moves: Vec<_> = game.moves.iter().map(|m| m.uci.as_str()).collect();
        assert_eq!(moves, [winner], "round {round}");
        assert_eq!(game.last_seq, 1);
    }
}

/// The same move retried with the same request id on two replicas at once: both get the same
/// answer, and the move is played once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retried_request_on_two_replicas_plays_once() {
    let redis = Redis::start();
    let (r0, r1) = (
        support::replica(&redis).await,
        support::replica(&redis).await,
    );
    let mut c0 = r0.client().await;
    for round in 0..8u32 {
        let seats = support::create(&mut c0, None).await;
        let (mut a, mut b) = (r0.client().await, r1.client().await);
        let (s0, s1) = (seats.clone(), seats.clone());
        let rid = format!("retry-{round}");
        let (r_a, r_b) = (rid.clone(), rid.clone());
        let (first, second) = tokio::join!(
            async move { support::submit(&mut a, &s0, 'w', "e2e4", Some(0), &r_a).await },
            async move { support::submit(&mut b, &s1, 'w', "e4", Some(0), &r_b).await },
        );
        let (first, second) = (first.expect("first"), second.expect("second"));
        let (m1, m2) = (first.r#move.expect("move"), second.r#move.expect("move"));
        assert_eq!((m1.uci.as_str(), m1.ply, m1.seq), ("e2e4", 1, 1));
        assert_eq!(m1, m2);
        let game = support::get(&mut c0, &seats.id).await.expect("get");
        assert_eq!((game.ply, game.last_seq), (1, 1));
        // Another move under the same id is refused, on either replica.
        let mut b = r1.client().await;
        let reused = support::submit(&mut b, &seats, 'b', "e7e5", None, &rid).await;
        assert!(reused.is_ok(), "black's id space is its own: {reused:?}");
        let mut a = r0.client().await;
        let refused = support::submit(&mut a, &seats, 'w', "d2d4", None, &rid)
            .await
            .expect_err("a different move under a used id");
        assert_eq!(support::reason(&refused), "REQUEST_ID_REUSED");
    }
}

/// A CreateGame retried on the replica that made the game returns the same game and seat
/// tokens; on another replica it names the same game but cannot give the tokens, which Redis
/// holds only as digests (ALREADY_EXISTS, SEAT_TOKENS_UNAVAILABLE), and never makes a second
/// game. The same id with a different request is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_retry_on_another_replica() {
    use chessd::proto as pb;
    let redis = Redis::start();
    let (r0, r1) = (
        support::replica(&redis).await,
        support::replica(&redis).await,
    );
    let request = pb::CreateGameRequest {
        variant: pb::Variant::Chess as i32,
        white_player: "ann".into(),
        black_player: "bob".into(),
        request_id: "create-once".into(),
        ..Default::default()
    };
    let first = r0
        .client()
        .await
        .create_game(request.clone())
        .await
        .expect("create")
        .into_inner();
    let again = r0
        .client()
        .await
        .create_game(request.clone())
        .await
        .expect("retry on the same replica")
        .into_inner();
    assert_eq!(
        first.game.as_ref().unwrap().game_id,
        again.game.as_ref().unwrap().game_id
    );
    assert_eq!(
        (&first.white_token, &first.black_token),
        (&again.white_token, &again.black_token)
    );
    let elsewhere = r1
        .client()
        .await
        .create_game(request.clone())
        .await
        .expect_err("retry on another replica");
    assert_eq!(elsewhere.code(), tonic::Code::AlreadyExists);
    assert_eq!(support::reason(&elsewhere), "SEAT_TOKENS_UNAVAILABLE");
    assert!(
        elsewhere
            .message()
            .contains(&first.game.as_ref().unwrap().game_id),
        "{}",
        elsewhere.message()
    );
    let listed = r1
        .client()
        .await
        .list_games(pb::ListGamesRequest::default())
        .await
        .expect("list")
        .into_inner();
    assert_eq!(listed.games.len(), 1, "the retry made no second game");
    let other = r1
        .client()
        .await
        .create_game(pb::CreateGameRequest {
            white_player: "carl".into(),
            ..request
        })
        .await
        .expect_err("same id, different request");
    assert_eq!(support::reason(&other), "REQUEST_ID_REUSED");
}
