//! Takebacks across replicas on one Redis: proposed on one replica and answered on another,
//! a stale cached copy acting after another replica took moves back (a retried request id of
//! a move taken back is refused there too, a move on the stale copy is played on the game as
//! it is), and watchers on both replicas ending with GetGame's view on each.

use chessd::proto as pb;
use tonic::Code;

use crate::common::takebacks::{Follower, propose, respond};
use crate::support::{self, Redis};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takebacks_cross_replicas_and_stale_copies() {
    let redis = Redis::start();
    let (ra, rb) = (
        support::replica(&redis).await,
        support::replica(&redis).await,
    );
    let (mut a, mut b) = (ra.client().await, rb.client().await);
    let created = a
        .create_game(pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            white_player: "ann".into(),
            black_player: "bob".into(),
            time_control: Some(pb::TimeControl {
                initial: Some(prost_types::Duration {
                    seconds: 300,
                    nanos: 0,
                }),
                increment: None,
                ..Default::default()
            }),
            takebacks: pb::TakebackPolicy::OnRequest as i32,
            ..Default::default()
        })
        .await
        .expect("create")
        .into_inner();
    let seats = support::Seats {
        id: created.game.expect("game").game_id,
        white: created.white_token,
        black: created.black_token,
    };
    let id = seats.id.clone();
    let mut on_b = support::watch(&mut b, &id, 0).await;
    let mut seen_on_b = Follower::default();
    let mut resumed = Follower::default();
    let mut resuming = support::watch(&mut b, &id, 0).await;
    support::play(&mut a, &seats, 'w', "e2e4").await;
    support::play(&mut a, &seats, 'b', "e7e5").await;

    // A's copy: White to move at ply 2. On B, White plays Nf3 and has it taken back.
    support::submit(&mut b, &seats, 'w', "g1f3", Some(2), "w-nf3")
        .await
        .expect("Nf3 on B");
    propose(&mut b, &id, &seats.white)
        .await
        .expect("propose on B");
    let back = respond(&mut b, &id, &seats.black, true)
        .await
        .expect("accept on B");
    assert_eq!(back.ply, 2);
    let refused = support::submit(&mut a, &seats, 'w', "g1f3", Some(2), "w-nf3")
        .await
        .expect_err("the retry of a move taken back, on A's stale copy");
    assert_eq!(
        (refused.code(), support::reason(&refused).as_str()),
        (Code::FailedPrecondition, "MOVE_TAKEN_BACK"),
        "{}",
        refused.message()
    );
    let d4 = support::submit(&mut a, &seats, 'w', "d2d4", Some(2), "w-d4")
        .await
        .expect("d4 on A");
    assert_eq!(d4.r#move.expect("move").seq, 6);

    // Black proposes on A (two plies: d4 and e5), White accepts on B; A's copy (Black to
    // move at ply 3) plays c5 unread, and the game as it is (ply 1) gets it.
    propose(&mut a, &id, &seats.black)
        .await
        .expect("propose on A");
    let back = respond(&mut b, &id, &seats.white, true)
        .await
        .expect("accept on B");
    assert_eq!(back.ply, 1);
    let c5 = support::play(&mut a, &seats, 'b', "c7c5").await;
    assert_eq!(c5.r#move.expect("move").ply, 2);

    let mut on_a = support::watch(&mut a, &id, 0).await;
    let mut seen_on_a = Follower::default();
    resumed.until(&mut resuming, 3).await;
    drop(resuming);
    let mut resuming = support::watch(&mut a, &id, 3).await;
    support::play(&mut b, &seats, 'w', "g1f3").await;
    a.resign(support::authed(
        pb::ResignRequest {
            game_id: id.clone(),
        },
        &seats.white,
    ))
    .await
    .expect("resign on A");
    for client in [&mut a, &mut b] {
        let want = Follower::of_game(&support::get(client, &id).await.expect("get"));
        let moves: Vec<&str> = want.moves.iter().map(|(uci, _)| uci.as_str()).collect();
        assert_eq!(moves, ["e2e4", "c7c5", "g1f3"]);
        for (name, follower, stream) in [
            ("on B from the start", &mut seen_on_b, &mut on_b),
            ("on A, joined late", &mut seen_on_a, &mut on_a),
            ("resumed from seq 3 on A", &mut resumed, &mut resuming),
        ] {
            follower.drain(stream).await;
            assert_eq!(*follower, want, "the watcher {name}");
        }
    }
}
