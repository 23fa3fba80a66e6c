//! Presence and ClaimVictory: a seat watching its game counts as connected, every watcher
//! hears it come and go, and the opponent of a side to move that left may claim the game once
//! the grace period has passed, never before, never on its own turn, never while the side
//! watches.

use std::time::{Duration, SystemTime};

use chessd::proto::{self as pb, watch_game_response::Event};
use tonic::{Code, Streaming};
use tonic_types::StatusExt;

use crate::common::next_message;
use crate::support::{self, Client, Seats, assert_refused, authed, play_all, watch};

/// A chess game whose claims wait `claim_after_secs`.
async fn game(client: &mut Client, claim_after_secs: i64) -> Seats {
    let (_, seats) = support::create_with(
        client,
        pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            white_player: "white".into(),
            black_player: "black".into(),
            claim_after: Some(prost_types::Duration {
                seconds: claim_after_secs,
                nanos: 0,
            }),
            ..Default::default()
        },
    )
    .await;
    seats
}

/// `side`'s stream of its own game.
async fn watch_as(
    client: &mut Client,
    seats: &Seats,
    side: char,
) -> Streaming<pb::WatchGameResponse> {
    client
        .watch_game(authed(
            pb::WatchGameRequest {
                game_id: seats.id.clone(),
                after_seq: 0,
            },
            seats.token(side),
        ))
        .await
        .expect("watch as a seat")
        .into_inner()
}

/// The next presence message, skipping events; panics on anything else ending the stream.
async fn next_presence(
    stream: &mut Streaming<pb::WatchGameResponse>,
) -> (pb::Color, pb::SeatPresence, u64) {
    loop {
        let message = next_message(stream)
            .await
            .expect("stream ok")
            .expect("a presence message before the stream ends");
        if let Some(Event::PlayerPresence(p)) = message.event {
            let seat = pb::Color::try_from(p.seat).expect("a color");
            return (seat, p.presence.expect("presence"), message.seq);
        }
    }
}

/// The snapshot that opens a stream from seq 0.
async fn snapshot(stream: &mut Streaming<pb::WatchGameResponse>) -> pb::Game {
    match next_message(stream)
        .await
        .expect("stream ok")
        .and_then(|m| m.event)
    {
        Some(Event::Snapshot(g)) => g,
        other => panic!("expected a snapshot, got {other:?}"),
    }
}

async fn claim(
    client: &mut Client,
    seats: &Seats,
    side: char,
    draw: bool,
) -> Result<pb::Game, tonic::Status> {
    client
        .claim_victory(authed(
            pb::ClaimVictoryRequest {
                game_id: seats.id.clone(),
                draw,
            },
            seats.token(side),
        ))
        .await
        .map(|r| r.into_inner().game.expect("game"))
}

fn millis(t: &prost_types::Timestamp) -> i64 {
    t.seconds * 1000 + i64::from(t.nanos) / 1_000_000
}

/// A spectator sees White connect, leave and come back; GetGame agrees at each step; a
/// stream resumed with `after_seq` is told both seats after its replay, under the last seq.
#[tokio::test]
async fn presence_follows_a_watcher_that_leaves_and_comes_back() {
    let server = support::start().await;
    let mut client = server.client().await;
    let seats = game(&mut client, 30).await;
    let mut spectator = watch(&mut client, &seats.id, 0).await;
    let first = snapshot(&mut spectator).await;
    let white = first
        .white_presence
        .expect("white presence in the snapshot");
    assert!(!white.connected);
    assert_eq!(white.claim_after.expect("claim_after").seconds, 30);

    let mut white_stream = watch_as(&mut client, &seats, 'w').await;
    let own = snapshot(&mut white_stream).await;
    assert!(
        own.white_presence.unwrap().connected,
        "a seat sees itself connected"
    );
    let (seat, presence, seq) = next_presence(&mut spectator).await;
    assert_eq!((seat, presence.connected, seq), (pb::Color::White, true, 0));
    assert!(presence.since.is_some());
    assert!(presence.claim_at.is_none(), "connected: no claim");
    assert!(
        support::get(&mut client, &seats.id)
            .await
            .white_presence
            .unwrap()
            .connected
    );

    drop(white_stream);
    let (seat, presence, _) = next_presence(&mut spectator).await;
    assert_eq!((seat, presence.connected), (pb::Color::White, false));
    let gone_since = millis(presence.since.as_ref().expect("gone since"));
    // White is to move and gone: a claim against it waits the grace period.
    let claim_at = millis(presence.claim_at.as_ref().expect("claim_at"));
    assert!(
        claim_at >= gone_since + 30_000,
        "{claim_at} vs {gone_since}"
    );
    let got = support::get(&mut client, &seats.id)
        .await
        .white_presence
        .unwrap();
    assert!(!got.connected);
    assert_eq!(millis(got.since.as_ref().unwrap()), gone_since);

    let _back = watch_as(&mut client, &seats, 'w').await;
    let (seat, presence, _) = next_presence(&mut spectator).await;
    assert_eq!((seat, presence.connected), (pb::Color::White, true));

    play_all(&mut client, &seats, 'w', "e2e4 e7e5").await;
    let mut resumed = watch(&mut client, &seats.id, 1).await;
    let replayed = next_message(&mut resumed).await.unwrap().unwrap();
    assert!(matches!(replayed.event, Some(Event::MovePlayed(_))));
    assert_eq!(replayed.seq, 2);
    let mut told = Vec::new();
    for _ in 0..2 {
        let (seat, presence, seq) = next_presence(&mut resumed).await;
        assert_eq!(seq, 2, "presence rides under the last seq");
        told.push((seat, presence.connected));
    }
    told.sort_by_key(|(seat, _)| *seat as i32);
    assert_eq!(told, [(pb::Color::White, true), (pb::Color::Black, false)]);
}

/// ClaimVictory is refused on the claimant's own turn, while the opponent watches, and
/// before the grace period, each with its reason; the game goes on.
#[tokio::test]
async fn early_or_own_turn_claims_are_refused_with_their_reason() {
    let server = support::start().await;
    let mut client = server.client().await;
    let seats = game(&mut client, 60).await;
    play_all(&mut client, &seats, 'w', "e2e4 e7e5 g1f3").await;

    assert_refused(
        claim(&mut client, &seats, 'b', false).await,
        Code::FailedPrecondition,
        "CLAIM_ON_OWN_TURN",
    );
    let before = SystemTime::now();
    let status = assert_refused(
        claim(&mut client, &seats, 'w', false).await,
        Code::FailedPrecondition,
        "CLAIM_TOO_EARLY",
    );
    let info = status.get_details_error_info().expect("error info");
    let claim_at: u64 = info.metadata["claim_at_ms"].parse().unwrap();
    let earliest = before.duration_since(SystemTime::UNIX_EPOCH).unwrap() + Duration::from_secs(50);
    assert!(
        u128::from(claim_at) > earliest.as_millis(),
        "claim_at {claim_at}"
    );

    let _black = watch_as(&mut client, &seats, 'b').await;
    // The join is counted before the stream's snapshot is sent, so it holds by now.
    let status = assert_refused(
        claim(&mut client, &seats, 'w', true).await,
        Code::FailedPrecondition,
        "OPPONENT_CONNECTED",
    );
    assert_eq!(
        status.get_details_error_info().unwrap().metadata["opponent"],
        "black"
    );
    let game = support::get(&mut client, &seats.id).await;
    assert_eq!(game.status, pb::GameStatus::Ongoing as i32);
}

/// Once the side to move has been gone for the grace period, its opponent's claim ends the
/// game, won by abandonment, for every watcher; a draw claim draws it.
#[tokio::test]
async fn a_valid_claim_ends_the_game_for_every_watcher() {
    let server = support::start().await;
    let mut client = server.client().await;
    let seats = game(&mut client, 1).await;
    let mut white = watch_as(&mut client, &seats, 'w').await;
    let mut spectator = watch(&mut client, &seats.id, 0).await;
    play_all(&mut client, &seats, 'w', "e2e4 e7e5 g1f3").await;
    // Black never watched: its absence counts from the start of its turn.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let game = claim(&mut client, &seats, 'w', false).await.expect("claim");
    assert_eq!(
        support::outcome(&game),
        ("1-0".to_owned(), pb::Termination::Abandonment)
    );
    for stream in [&mut white, &mut spectator] {
        let events = support::drain(stream).await;
        let last = events.last().expect("events");
        assert_eq!(support::describe(last), "over 1-0", "{events:?}");
    }

    let seats = game_with_moves(&mut client).await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let game = claim(&mut client, &seats, 'b', true)
        .await
        .expect("draw claim");
    assert_eq!(
        support::outcome(&game),
        ("1/2-1/2".to_owned(), pb::Termination::Abandonment)
    );
    assert_refused(
        claim(&mut client, &seats, 'b', false).await,
        Code::FailedPrecondition,
        "GAME_OVER",
    );
}

/// A game of two moves, White to move, claimable after a second.
async fn game_with_moves(client: &mut Client) -> Seats {
    let seats = game(client, 1).await;
    play_all(client, &seats, 'w', "d2d4 d7d5").await;
    seats
}

/// A grace period outside 1 second to 24 hours is refused at creation.
#[tokio::test]
async fn grace_periods_out_of_range_are_refused() {
    let server = support::start().await;
    let mut client = server.client().await;
    for seconds in [0, 86_401] {
        let result = client
            .create_game(pb::CreateGameRequest {
                variant: pb::Variant::Chess as i32,
                claim_after: Some(prost_types::Duration { seconds, nanos: 0 }),
                ..Default::default()
            })
            .await;
        let status = assert_refused(result, Code::InvalidArgument, "INVALID_FIELD");
        assert_eq!(
            status.get_details_error_info().unwrap().metadata["field"],
            "claim_after"
        );
    }
    // The grace period is part of what a retried creation must ask again.
    let asking = |seconds| pb::CreateGameRequest {
        variant: pb::Variant::Chess as i32,
        request_id: "presence-retry".into(),
        claim_after: Some(prost_types::Duration { seconds, nanos: 0 }),
        ..Default::default()
    };
    let first = client
        .create_game(asking(5))
        .await
        .expect("create")
        .into_inner();
    let again = client
        .create_game(asking(5))
        .await
        .expect("retry")
        .into_inner();
    assert_eq!(first.game.unwrap().game_id, again.game.unwrap().game_id);
    assert_refused(
        client.create_game(asking(6)).await,
        Code::InvalidArgument,
        "REQUEST_ID_REUSED",
    );
}

/// A move that hands a gone seat the turn tells the watchers its new claim time, the move's
/// time plus the grace period; a move to a connected seat tells nothing more.
#[tokio::test]
async fn a_move_to_a_gone_seat_tells_its_claim_time() {
    let server = support::start().await;
    let mut client = server.client().await;
    let seats = game(&mut client, 30).await;
    let _white = watch_as(&mut client, &seats, 'w').await;
    let mut spectator = watch(&mut client, &seats.id, 0).await;
    let first = snapshot(&mut spectator).await;
    assert!(first.white_presence.unwrap().connected);
    let black = first.black_presence.unwrap();
    assert!(
        !black.connected && black.claim_at.is_none(),
        "White is to move"
    );

    let mut seen = Vec::new();
    let mut claim_ats = Vec::new();
    let mut moved_at = Vec::new();
    for (side, mv) in [('w', "e2e4"), ('b', "e7e5"), ('w', "g1f3")] {
        // Apart in time, so each turn starts at its own millisecond.
        tokio::time::sleep(Duration::from_millis(10)).await;
        support::play(&mut client, &seats, side, mv).await;
        let expected = if side == 'w' { 2 } else { 1 };
        for _ in 0..expected {
            let message = next_message(&mut spectator).await.unwrap().unwrap();
            if let Some(Event::MovePlayed(_)) = &message.event {
                moved_at.push(millis(message.server_time.as_ref().unwrap()));
            }
            if let Some(Event::PlayerPresence(p)) = &message.event {
                claim_ats.push(millis(
                    p.presence.as_ref().unwrap().claim_at.as_ref().unwrap(),
                ));
            }
            seen.push(support::describe(&message));
        }
    }
    assert_eq!(
        seen,
        [
            "move e2e4",
            "presence b false",
            "move e7e5",
            "move g1f3",
            "presence b false"
        ]
    );
    // Black was never seen: its absence counts from the start of each of its turns.
    assert_eq!(claim_ats, [moved_at[0] + 30_000, moved_at[2] + 30_000]);
    let game = support::get(&mut client, &seats.id).await;
    let black = game.black_presence.unwrap();
    // The game reads its turn's start from the monotonic clock: within a millisecond.
    let read = millis(black.claim_at.as_ref().unwrap());
    assert!(
        (read - claim_ats[1]).abs() <= 1,
        "{read} vs {}",
        claim_ats[1]
    );
}
