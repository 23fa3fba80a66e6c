//! Takebacks through the API, on every store (`CHESSD_TEST_STORE`): what is taken back, every
//! watcher's view (joined before, after, resumed mid-way) equal to GetGame, the PGN, retried
//! request ids, expected_ply, the feed with and without moves, a withdrawn proposal, and every
//! refusal.

use chessd::proto::watch_game_response::Event;
use chessd::proto::{self as pb, watch_games_response::Event as FeedEvent};
use tonic::Code;

use crate::common::takebacks::{Follower, propose, respond, withdraw};
use crate::feed::{feed, next_feed};
use crate::support::*;

async fn takeback_game(client: &mut Client, time_control: Option<pb::TimeControl>) -> Seats {
    let (game, seats) = create_with(
        client,
        pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            white_player: "white".into(),
            black_player: "black".into(),
            takebacks: pb::TakebackPolicy::OnRequest as i32,
            time_control,
            ..Default::default()
        },
    )
    .await;
    assert_eq!(game.takebacks, pb::TakebackPolicy::OnRequest as i32);
    seats
}

fn mv(uci: &str, ply: u32, request_id: &str) -> pb::SubmitMoveRequest {
    pb::SubmitMoveRequest {
        r#move: uci.into(),
        expected_ply: Some(ply),
        request_id: request_id.into(),
        ..Default::default()
    }
}

/// A game with two takebacks (one ply, then two after a declined proposal), moves replayed
/// in their place: watchers that joined before, after the first takeback, and one that
/// resumed mid-way all end with GetGame's view; seq rose throughout while the ply fell; the
/// PGN holds only the moves that stand.
#[tokio::test]
async fn every_watcher_sees_the_game_getgame_shows() {
    let server = start().await;
    let mut client = server.client().await;
    let seats = takeback_game(&mut client, Some(tc(300, 2))).await;
    let id = seats.id.clone();
    let mut before = watch(&mut client, &id, 0).await;
    let mut seen_before = Follower::default();
    let mut resumed = Follower::default();
    let mut resuming = watch(&mut client, &id, 0).await;

    play_all(&mut client, &seats, 'w', "e4 e5 Nf3").await;
    let proposed = propose(&mut client, &id, &seats.white).await.unwrap();
    assert_eq!(proposed.takeback_offer, pb::Color::White as i32);
    let back = respond(&mut client, &id, &seats.black, true).await.unwrap();
    assert_eq!(back.ply, 2, "White's own last move went");
    assert_eq!(back.turn, pb::Color::White as i32);
    assert_eq!(back.takeback_offer, pb::Color::Unspecified as i32);
    let clocks = back.clocks.as_ref().expect("clocks");
    assert_eq!(clocks.running, pb::Color::White as i32);
    let first_takeback_seq = back.last_seq;
    assert_eq!(
        first_takeback_seq, 5,
        "three moves, a proposal, the takeback"
    );

    // Joined after the first takeback.
    let mut after = watch(&mut client, &id, 0).await;
    let mut seen_after = Follower::default();
    // One watcher stops mid-way, right after the first takeback.
    resumed.until(&mut resuming, first_takeback_seq).await;
    drop(resuming);

    play(&mut client, &seats, 'w', "Nc3").await;
    offer_draw(&mut client, &seats, 'b').await;
    propose(&mut client, &id, &seats.black).await.unwrap();
    respond(&mut client, &id, &seats.white, false)
        .await
        .unwrap();
    let again = propose(&mut client, &id, &seats.black).await.unwrap();
    assert_eq!(again.takeback_offer, pb::Color::Black as i32);
    let back = respond(&mut client, &id, &seats.white, true).await.unwrap();
    assert_eq!(back.ply, 1, "Black to move took back Nc3 and e5");
    assert_eq!(
        back.draw_offer,
        pb::Color::Unspecified as i32,
        "the offer went"
    );
    play_all(&mut client, &seats, 'b', "c5 Nf3 d6").await;

    let mut resuming = watch(&mut client, &id, first_takeback_seq).await;
    let resign = pb::ResignRequest {
        game_id: id.clone(),
    };
    client
        .resign(authed(resign, &seats.black))
        .await
        .expect("resign");
    let game = get(&mut client, &id).await;
    let want = Follower::of_game(&game);
    for (name, follower, stream) in [
        ("before", &mut seen_before, &mut before),
        ("after", &mut seen_after, &mut after),
        ("resumed", &mut resumed, &mut resuming),
    ] {
        follower.drain(stream).await;
        assert_eq!(*follower, want, "the watcher that joined {name}");
    }
    let sans: Vec<&str> = want.moves.iter().map(|(_, san)| san.as_str()).collect();
    assert_eq!(sans, ["e4", "c5", "Nf3", "d6"]);
    assert_eq!(game.last_seq, 15);
    let pgn = client
        .export_pgn(pb::ExportPgnRequest { game_id: id })
        .await
        .expect("pgn")
        .into_inner()
        .pgn;
    assert!(pgn.contains("1. e4 c5 2. Nf3 d6 1-0"), "{pgn}");
    assert!(!pgn.contains("Nc3") && !pgn.contains("e5"), "{pgn}");
}

/// After a takeback, `expected_ply` is the ply that stands; a retried request id whose move
/// was taken back is refused (its move no longer stands) while one whose move stands gets
/// its first answer; a fresh id plays the move again.
#[tokio::test]
async fn expected_ply_and_retries_after_a_takeback() {
    let server = start().await;
    let mut client = server.client().await;
    let seats = takeback_game(&mut client, None).await;
    let id = seats.id.clone();
    let submit = |req: pb::SubmitMoveRequest| pb::SubmitMoveRequest {
        game_id: id.clone(),
        ..req
    };
    let mut c = client.clone();
    let e4 = c
        .submit_move(authed(submit(mv("e2e4", 0, "w-1")), &seats.white))
        .await
        .unwrap()
        .into_inner();
    c.submit_move(authed(submit(mv("e7e5", 1, "b-1")), &seats.black))
        .await
        .unwrap();
    propose(&mut client, &id, &seats.black).await.unwrap();
    respond(&mut client, &id, &seats.white, true).await.unwrap();
    assert_refused(
        c.submit_move(authed(submit(mv("e7e5", 1, "b-1")), &seats.black))
            .await,
        Code::FailedPrecondition,
        "MOVE_TAKEN_BACK",
    );
    assert_refused(
        c.submit_move(authed(submit(mv("e7e5", 2, "b-2")), &seats.black))
            .await,
        Code::Aborted,
        "PLY_MISMATCH",
    );
    let retried = c
        .submit_move(authed(submit(mv("e2e4", 0, "w-1")), &seats.white))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        retried.r#move, e4.r#move,
        "the move that stands answers again"
    );
    let replayed = c
        .submit_move(authed(submit(mv("c7c5", 1, "b-2")), &seats.black))
        .await
        .unwrap()
        .into_inner();
    let m = replayed.r#move.unwrap();
    assert_eq!((m.ply, m.seq), (2, 5));
    assert_eq!(get(&mut client, &id).await.ply, 2);
}

/// Every refusal with its reason: takebacks off, nothing of one's own to take back, no token,
/// another game's token, answering one's own proposal or none, proposing over the opponent's,
/// the opponent's move clearing a proposal, the game over.
#[tokio::test]
async fn refusals_say_why() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, off) = create(&mut client, "chess", "").await;
    play(&mut client, &off, 'w', "e4").await;
    assert_refused(
        propose(&mut client, &off.id, &off.white).await,
        Code::FailedPrecondition,
        "TAKEBACKS_OFF",
    );
    assert_eq!(
        get(&mut client, &off.id).await.takebacks,
        pb::TakebackPolicy::Off as i32,
        "off by default"
    );

    let seats = takeback_game(&mut client, None).await;
    let id = seats.id.clone();
    assert_refused(
        propose(&mut client, &id, &seats.white).await,
        Code::FailedPrecondition,
        "NOTHING_TO_TAKE_BACK",
    );
    play(&mut client, &seats, 'w', "e4").await;
    assert_refused(
        propose(&mut client, &id, &seats.black).await,
        Code::FailedPrecondition,
        "NOTHING_TO_TAKE_BACK",
    );
    assert_refused(
        respond(&mut client, &id, &seats.black, true).await,
        Code::FailedPrecondition,
        "NO_TAKEBACK_PROPOSAL",
    );
    // A spectator: no token, or a token of another game.
    assert_refused(
        client
            .propose_takeback(pb::ProposeTakebackRequest {
                game_id: id.clone(),
            })
            .await,
        Code::Unauthenticated,
        "TOKEN_MISSING",
    );
    assert_refused(
        propose(&mut client, &id, &off.white).await,
        Code::Unauthenticated,
        "TOKEN_INVALID",
    );
    propose(&mut client, &id, &seats.white).await.unwrap();
    assert_eq!(
        propose(&mut client, &id, &seats.white)
            .await
            .unwrap()
            .last_seq,
        2,
        "proposing again changes nothing"
    );
    let status = assert_refused(
        respond(&mut client, &id, &seats.white, true).await,
        Code::PermissionDenied,
        "WRONG_SEAT",
    );
    assert!(status.message().contains("black"), "{}", status.message());
    assert_refused(
        propose(&mut client, &id, &seats.black).await,
        Code::FailedPrecondition,
        "TAKEBACK_PENDING",
    );
    // Black's move clears White's proposal.
    let game = play(&mut client, &seats, 'b', "e5").await.game.unwrap();
    assert_eq!(game.takeback_offer, pb::Color::Unspecified as i32);
    assert_refused(
        respond(&mut client, &id, &seats.black, true).await,
        Code::FailedPrecondition,
        "NO_TAKEBACK_PROPOSAL",
    );
    // So does the game's end; nothing is taken back after it.
    propose(&mut client, &id, &seats.white).await.unwrap();
    client
        .resign(authed(
            pb::ResignRequest {
                game_id: id.clone(),
            },
            &seats.white,
        ))
        .await
        .expect("resign");
    let over = get(&mut client, &id).await;
    assert_eq!(over.takeback_offer, pb::Color::Unspecified as i32);
    assert_refused(
        propose(&mut client, &id, &seats.black).await,
        Code::FailedPrecondition,
        "GAME_OVER",
    );
    assert_refused(
        respond(&mut client, &id, &seats.black, true).await,
        Code::FailedPrecondition,
        "GAME_OVER",
    );
    assert_eq!(over.ply, 2);
}

/// The proposer withdraws its proposal: a TakebackWithdrawn event, which a live watcher and
/// one replaying from the start both see, and nothing left to answer. Only the side that
/// proposed withdraws, only a proposal that stands, only while the game is on.
#[tokio::test]
async fn a_proposal_is_withdrawn() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, off) = create(&mut client, "chess", "").await;
    play(&mut client, &off, 'w', "e4").await;
    assert_refused(
        withdraw(&mut client, &off.id, &off.white).await,
        Code::FailedPrecondition,
        "TAKEBACKS_OFF",
    );

    let seats = takeback_game(&mut client, Some(tc(300, 2))).await;
    let id = seats.id.clone();
    let mut live = watch(&mut client, &id, 0).await;
    play_all(&mut client, &seats, 'w', "e4 e5").await;
    assert_refused(
        withdraw(&mut client, &id, &seats.white).await,
        Code::FailedPrecondition,
        "NO_TAKEBACK_PROPOSAL",
    );
    propose(&mut client, &id, &seats.black).await.unwrap();
    let status = assert_refused(
        withdraw(&mut client, &id, &seats.white).await,
        Code::PermissionDenied,
        "WRONG_SEAT",
    );
    assert!(status.message().contains("black"), "{}", status.message());
    let game = withdraw(&mut client, &id, &seats.black).await.unwrap();
    assert_eq!(game.takeback_offer, pb::Color::Unspecified as i32);
    assert_eq!(game.ply, 2, "nothing was taken back");
    assert_eq!(game.last_seq, 4, "two moves, the proposal, its withdrawal");
    assert_refused(
        respond(&mut client, &id, &seats.white, true).await,
        Code::FailedPrecondition,
        "NO_TAKEBACK_PROPOSAL",
    );
    assert_refused(
        withdraw(&mut client, &id, &seats.black).await,
        Code::FailedPrecondition,
        "NO_TAKEBACK_PROPOSAL",
    );
    // Proposed again and accepted: the withdrawal left nothing behind.
    propose(&mut client, &id, &seats.black).await.unwrap();
    let back = respond(&mut client, &id, &seats.white, true).await.unwrap();
    assert_eq!(back.ply, 1);

    let mut seen = Vec::new();
    while seen.len() < 6 {
        let event = next_event(&mut live).await.expect("stream").expect("event");
        if !matches!(
            event.event,
            Some(Event::Heartbeat(_) | Event::PlayerPresence(_) | Event::Snapshot(_))
        ) {
            seen.push(describe(&event));
        }
    }
    assert_eq!(
        seen,
        [
            "move e2e4",
            "move e7e5",
            "takeback offer b",
            "takeback withdrawn b",
            "takeback offer b",
            "taken back to 1",
        ]
    );
    // A watcher replaying it from after the first move ends with GetGame's view.
    client
        .resign(authed(
            pb::ResignRequest {
                game_id: id.clone(),
            },
            &seats.white,
        ))
        .await
        .expect("resign");
    let want = Follower::of_game(&get(&mut client, &id).await);
    let mut replayed = Follower {
        ply: 1,
        moves: vec![("e2e4".into(), "e4".into())],
        last_seq: 1,
        ..Follower::default()
    };
    replayed.drain(&mut watch(&mut client, &id, 1).await).await;
    assert_eq!(replayed, want);
}

/// The feed shows a takeback with the moves (GameTakenBack: the ply, FEN and seq), and not
/// without them.
#[tokio::test]
async fn the_feed_shows_takebacks_with_the_moves() {
    let server = start().await;
    let mut client = server.client().await;
    let mut with_moves = feed(
        &mut client,
        pb::WatchGamesRequest {
            include_moves: true,
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let mut without = feed(&mut client, pb::WatchGamesRequest::default())
        .await
        .unwrap();
    let seats = takeback_game(&mut client, None).await;
    play_all(&mut client, &seats, 'w', "e4 e5").await;
    propose(&mut client, &seats.id, &seats.white).await.unwrap();
    let back = respond(&mut client, &seats.id, &seats.black, true)
        .await
        .unwrap();
    client
        .resign(authed(
            pb::ResignRequest {
                game_id: seats.id.clone(),
            },
            &seats.white,
        ))
        .await
        .expect("resign");
    let mut kinds = Vec::new();
    loop {
        let m = next_feed(&mut with_moves).await.unwrap();
        match m.event {
            Some(FeedEvent::GameCreated(_)) => kinds.push("created".to_owned()),
            Some(FeedEvent::GameMoved(m)) => kinds.push(format!("moved {}", m.r#move.unwrap().ply)),
            Some(FeedEvent::GameTakenBack(t)) => {
                assert_eq!(t.game_id, seats.id);
                assert_eq!(t.fen, back.fen);
                assert_eq!(t.seq, back.last_seq);
                kinds.push(format!("taken back {}", t.ply));
            }
            Some(FeedEvent::GameFinished(f)) => {
                assert_eq!(f.ply, 0);
                kinds.push("finished".to_owned());
                break;
            }
            _ => {}
        }
    }
    assert_eq!(
        kinds,
        ["created", "moved 1", "moved 2", "taken back 0", "finished"]
    );
    let mut plain = Vec::new();
    loop {
        match next_feed(&mut without).await.unwrap().event {
            Some(FeedEvent::GameCreated(_)) => plain.push("created"),
            Some(FeedEvent::GameFinished(_)) => {
                plain.push("finished");
                break;
            }
            other => panic!("without moves: {other:?}"),
        }
    }
    assert_eq!(plain, ["created", "finished"]);
}
