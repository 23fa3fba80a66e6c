//! Presence and claims across a restart of a durable server: the grace period is kept with the
//! game, nobody is connected after the restart until it watches again, and the restart itself
//! never makes a claim possible at once (the absence counts from the restart).

use std::time::Duration;

use chessd::proto as pb;
use tonic_types::StatusExt;

use crate::support::{self, DataDir, Server, authed};

fn claim_request(id: &str) -> pb::ClaimVictoryRequest {
    pb::ClaimVictoryRequest {
        game_id: id.into(),
        draw: false,
    }
}

/// Black leaves and the server restarts long after Black's grace period: White's claim right
/// after the restart is too early, and holds one grace period later. The game's grace period
/// is what it was created with.
#[tokio::test]
async fn a_restart_never_makes_a_claim_possible_at_once() {
    let data = DataDir::new("presence-restart");
    let server = Server::start(data.path(), &[]);
    let mut client = server.client().await;
    let mut request = support::chess("ann", "bob");
    request.claim_after = Some(prost_types::Duration {
        seconds: 2,
        nanos: 0,
    });
    let seats = support::create(&mut client, request).await;
    for (ply, mv) in ["e2e4", "e7e5", "g1f3"].into_iter().enumerate() {
        support::play(&mut client, &seats, ply as u32, mv, "")
            .await
            .expect("move");
    }
    // Black never watches; wait out its grace period before the restart.
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let status = server.terminate();
    assert!(status.success(), "{status}");

    let server = Server::start(data.path(), &[]);
    let mut client = server.client().await;
    let game = support::get(&mut client, &seats.id).await;
    let black = game.black_presence.expect("black presence");
    assert!(!black.connected);
    assert!(black.since.is_none(), "not seen since the restart");
    assert_eq!(black.claim_after.expect("claim_after").seconds, 2);
    assert!(black.claim_at.is_some(), "Black is to move and gone");
    let refused = client
        .claim_victory(authed(claim_request(&seats.id), &seats.white))
        .await
        .unwrap_err();
    assert_eq!(
        refused.get_details_error_info().unwrap().reason,
        "CLAIM_TOO_EARLY"
    );
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let game = client
        .claim_victory(authed(claim_request(&seats.id), &seats.white))
        .await
        .expect("claim after the grace period")
        .into_inner()
        .game
        .expect("game");
    assert_eq!(
        game.outcome.map(|o| (o.pgn_result, o.termination)),
        Some(("1-0".to_owned(), pb::Termination::Abandonment as i32))
    );
    let status = server.terminate();
    assert!(status.success(), "{status}");

    // The claim's end is durable like any other.
    let server = Server::start(data.path(), &[]);
    let mut client = server.client().await;
    let game = support::get(&mut client, &seats.id).await;
    assert_eq!(game.status, pb::GameStatus::Finished as i32);
    let status = server.terminate();
    assert!(status.success(), "{status}");
}
