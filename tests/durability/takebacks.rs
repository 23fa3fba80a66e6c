//! Takebacks on SQLite across restarts: the moves that stand, the moves taken back (a retried
//! request id of one is still refused), a standing proposal and the policy all come back; a
//! watcher that resumes after the restart, and one that starts after it, end with GetGame's
//! view.

use chessd::proto as pb;
use tonic::Code;
use tonic_types::StatusExt;

use crate::common::takebacks::{Follower, propose, respond};
use crate::support::{self, DataDir, Server};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takebacks_survive_restarts() {
    let dir = DataDir::new("takebacks");
    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let seats = support::create(
        &mut client,
        pb::CreateGameRequest {
            takebacks: pb::TakebackPolicy::OnRequest as i32,
            time_control: Some(pb::TimeControl {
                initial: Some(prost_types::Duration {
                    seconds: 600,
                    nanos: 0,
                }),
                increment: None,
                ..Default::default()
            }),
            ..support::chess("a", "b")
        },
    )
    .await;
    let id = seats.id.clone();
    let mut watcher = crate::common::watch(&mut client, &id, 0).await;
    let mut follower = Follower::default();
    for (ply, mv, rid) in [(0, "e2e4", "w-1"), (1, "e7e5", "b-1"), (2, "g1f3", "w-2")] {
        support::play(&mut client, &seats, ply, mv, rid)
            .await
            .unwrap_or_else(|s| panic!("{mv}: {}", s.message()));
    }
    propose(&mut client, &id, &seats.white).await.unwrap();
    respond(&mut client, &id, &seats.black, true).await.unwrap();
    support::play(&mut client, &seats, 2, "b1c3", "w-3")
        .await
        .expect("Nc3");
    // Black to move proposes: Nc3 and e5 would go. It stands across the restart.
    propose(&mut client, &id, &seats.black).await.unwrap();
    follower.until(&mut watcher, 5).await;
    drop(watcher);
    let before = support::get(&mut client, &id).await;
    server.kill();

    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let game = support::get(&mut client, &id).await;
    assert_eq!(Follower::of_game(&game), Follower::of_game(&before));
    assert_eq!(game.takebacks, pb::TakebackPolicy::OnRequest as i32);
    assert_eq!(game.takeback_offer, pb::Color::Black as i32);
    let refused = support::play(&mut client, &seats, 2, "g1f3", "w-2")
        .await
        .expect_err("the retry of a move taken back");
    assert_eq!(
        (
            refused.code(),
            refused
                .get_details_error_info()
                .map(|i| i.reason)
                .unwrap_or_default()
                .as_str()
        ),
        (Code::FailedPrecondition, "MOVE_TAKEN_BACK")
    );
    let back = respond(&mut client, &id, &seats.white, true).await.unwrap();
    assert_eq!(back.ply, 1);
    support::play(&mut client, &seats, 1, "c7c5", "b-2")
        .await
        .expect("c5");
    let now = support::get(&mut client, &id).await;
    let status = server.terminate();
    assert!(status.success(), "{status}");

    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let game = support::get(&mut client, &id).await;
    assert_eq!(Follower::of_game(&game), Follower::of_game(&now));
    let moves: Vec<&str> = game.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(moves, ["e2e4", "c7c5"]);
    client
        .resign(support::authed(
            pb::ResignRequest {
                game_id: id.clone(),
            },
            &seats.white,
        ))
        .await
        .expect("resign");
    let want = Follower::of_game(&support::get(&mut client, &id).await);
    let mut fresh = Follower::default();
    fresh
        .drain(&mut crate::common::watch(&mut client, &id, 0).await)
        .await;
    assert_eq!(fresh, want, "a watcher from the start after the restarts");
    follower
        .drain(&mut crate::common::watch(&mut client, &id, follower.last_seq).await)
        .await;
    assert_eq!(
        follower, want,
        "the watcher that resumed after the restarts"
    );
    let pgn = client
        .export_pgn(pb::ExportPgnRequest { game_id: id })
        .await
        .expect("pgn")
        .into_inner()
        .pgn;
    assert!(pgn.contains("1. e4 c5 0-1"), "{pgn}");
}
