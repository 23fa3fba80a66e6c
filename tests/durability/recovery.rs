//! What comes back after a restart besides moves: retention, statistics, answered request ids
//! and clocks.

use std::time::Duration;

use chessd::proto as pb;
use tonic::Code;
use tonic_types::StatusExt;

use crate::support::{self, DataDir, Server};

async fn resign(client: &mut support::Client, seats: &support::Seats, white: bool) {
    let token = if white { &seats.white } else { &seats.black };
    client
        .resign(support::authed(
            pb::ResignRequest {
                game_id: seats.id.clone(),
            },
            token,
        ))
        .await
        .expect("resign");
}

fn chess_stats(stats: &pb::GetStatsResponse) -> (u64, u64, u64) {
    let v = stats
        .variants
        .iter()
        .find(|v| v.variant == pb::Variant::Chess as i32)
        .expect("chess stats");
    (v.white_wins, v.black_wins, v.draws)
}

/// Statistics survive a crash and outlive the games retention deletes; finished games stay
/// queryable until their retention ends, at start and while running.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retention_and_stats_after_restart() {
    let dir = DataDir::new("retention");
    let server = Server::start(dir.path(), &["--retention", "1h"]);
    let mut client = server.client().await;
    let old = support::create(&mut client, support::chess("a", "b")).await;
    resign(&mut client, &old, false).await; // white wins
    let ongoing = support::create(&mut client, support::chess("c", "d")).await;
    let stats = client
        .get_stats(pb::GetStatsRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(chess_stats(&stats), (1, 0, 0));
    server.kill();

    // Within retention: everything is back, stats too.
    let server = Server::start(dir.path(), &["--retention", "1h"]);
    let mut client = server.client().await;
    let game = support::get(&mut client, &old.id).await;
    assert_eq!(game.status, pb::GameStatus::Finished as i32);
    let pgn = client
        .export_pgn(pb::ExportPgnRequest {
            game_id: old.id.clone(),
        })
        .await
        .expect("pgn after restart")
        .into_inner()
        .pgn;
    assert!(pgn.contains("1-0"), "{pgn}");
    let listed = client
        .list_games(pb::ListGamesRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.games.len(), 2, "both games listed after restart");
    server.kill();

    // Past retention at start: the finished game is gone, the ongoing one and the stats stay.
    std::thread::sleep(Duration::from_millis(1100));
    let server = Server::start(dir.path(), &["--retention", "1s"]);
    let mut client = server.client().await;
    let gone = client
        .get_game(pb::GetGameRequest {
            game_id: old.id.clone(),
        })
        .await;
    assert_eq!(gone.map(|_| ()).unwrap_err().code(), Code::NotFound);
    support::get(&mut client, &ongoing.id).await;
    let stats = client
        .get_stats(pb::GetStatsRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(chess_stats(&stats), (1, 0, 0), "stats outlive retention");

    // While running: a game that ends is queryable, then gone once its retention passes.
    resign(&mut client, &ongoing, true).await; // black wins
    support::get(&mut client, &ongoing.id).await;
    tokio::time::sleep(Duration::from_millis(1600)).await;
    let gone = client
        .get_game(pb::GetGameRequest {
            game_id: ongoing.id.clone(),
        })
        .await;
    assert_eq!(gone.map(|_| ()).unwrap_err().code(), Code::NotFound);
    server.kill();

    // ... and stays gone from the file, while both results are still counted.
    let server = Server::start(dir.path(), &["--retention", "1h"]);
    let mut client = server.client().await;
    let listed = client
        .list_games(pb::ListGamesRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert!(listed.games.is_empty(), "{:?}", listed.games);
    let stats = client
        .get_stats(pb::GetStatsRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(chess_stats(&stats), (1, 1, 0));
}

/// A SubmitMove retried with its request id after a crash returns the first answer and plays
/// nothing twice; a draw offer made before the crash still stands. A CreateGame retried after
/// the crash finds its game but cannot get the seat tokens back (only their digests are
/// stored): ALREADY_EXISTS naming the game, never a new game or new tokens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn request_ids_and_offers_survive_a_crash() {
    let dir = DataDir::new("request-ids");
    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let create = pb::CreateGameRequest {
        request_id: "create-1".into(),
        ..support::chess("ann", "bob")
    };
    let seats = support::create(&mut client, create.clone()).await;
    let first = support::play(&mut client, &seats, 0, "e2e4", "move-1")
        .await
        .expect("move");
    client
        .offer_draw(support::authed(
            pb::OfferDrawRequest {
                game_id: seats.id.clone(),
            },
            &seats.white,
        ))
        .await
        .expect("offer");
    server.kill();

    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let again = client.create_game(create).await.unwrap_err();
    assert_eq!(again.code(), Code::AlreadyExists, "{again:?}");
    let info = again.get_details_error_info().expect("ErrorInfo");
    assert_eq!(info.reason, "SEAT_TOKENS_UNAVAILABLE");
    assert_eq!(
        info.metadata["game_id"], seats.id,
        "names the game it found"
    );
    assert!(again.message().contains(&seats.id), "{}", again.message());
    let listed = client
        .list_games(pb::ListGamesRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.games.len(), 1, "no second game was made");
    let retried = support::play(&mut client, &seats, 0, "e4", "move-1")
        .await
        .expect("retried move");
    assert_eq!(retried.r#move, first.r#move, "the first answer's move");
    let game = retried.game.expect("game");
    assert_eq!(game.ply, 1, "nothing played twice: {}", game.fen);
    assert_eq!(game.draw_offer, pb::Color::White as i32, "the offer stands");
    // The same id from the same seat for another move is refused.
    let reused = support::play(&mut client, &seats, 0, "d2d4", "move-1").await;
    assert_eq!(
        reused.map(|_| ()).unwrap_err().code(),
        Code::InvalidArgument
    );
}

/// The time the server is down is charged to nobody: the side to move has, after a restart,
/// about what it had when the server died.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn downtime_is_not_charged() {
    let dir = DataDir::new("clocks");
    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let request = pb::CreateGameRequest {
        time_control: Some(pb::TimeControl {
            initial: Some(prost_types::Duration {
                seconds: 60,
                nanos: 0,
            }),
            increment: Some(prost_types::Duration::default()),
            ..Default::default()
        }),
        ..support::chess("ann", "bob")
    };
    let seats = support::create(&mut client, request).await;
    support::play(&mut client, &seats, 0, "e2e4", "")
        .await
        .expect("move");
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.kill();
    // Down for four seconds.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let game = support::get(&mut client, &seats.id).await;
    let clocks = game.clocks.expect("clocks");
    let black = support::secs(clocks.black_remaining.as_ref());
    let white = support::secs(clocks.white_remaining.as_ref());
    assert_eq!(clocks.running, pb::Color::Black as i32);
    // Black used ~0.3 s before the kill (plus at most a heartbeat's second of uncertainty and
    // the restart); the four seconds down are not charged.
    assert!(black > 57.5 && black <= 60.0, "black has {black} s left");
    assert!(white > 59.0 && white <= 60.0, "white has {white} s left");
}
