//! Screen and Crazy Screen Chess over the API: the secret setup phase. Each seat places its
//! army with SubmitSetup (drafts it may replace, then a final placement); neither the opponent
//! nor a spectator sees a placement in any answer or event before the reveal; a bad placement
//! is refused with the rule it breaks; a move waits for the reveal; the second final placement
//! reveals both and White moves from the joined board; a final placement is retried, not
//! changed; Black's king attacked at the reveal is White's win; a seat whose time runs out
//! first loses. On every store.

use chessd::proto::{self as pb, watch_game_response::Event};
use tonic::{Code, Request, Streaming};

use crate::common::{authed, next_event};
use crate::support::*;

const WHITE: &str = "2P2P2/P2PP2P/1P4P1/RNBQKBNR";
const BLACK: &str = "rn1qk1nr/1b1pp1b1/p1p2p1p/1p4p1";
const WHITE_DRAFT: &str = "8/PPPPPPPP/8/RNBQKBNR";
const START: &str = "rn1qk1nr/1b1pp1b1/p1p2p1p/1p4p1/2P2P2/P2PP2P/1P4P1/RNBQKBNR w - - 0 1";
const EMPTY: &str = "8/8/8/8/8/8/8/8 w - - 0 1";

fn placing(seats: &Seats, placement: &str, commit: bool) -> pb::SubmitSetupRequest {
    pb::SubmitSetupRequest {
        game_id: seats.id.clone(),
        placement: placement.into(),
        commit,
    }
}

async fn place(
    client: &mut Client,
    seats: &Seats,
    side: char,
    placement: &str,
    commit: bool,
) -> pb::Game {
    client
        .submit_setup(authed(placing(seats, placement, commit), seats.token(side)))
        .await
        .expect("placement accepted")
        .into_inner()
        .game
        .expect("the game")
}

async fn get_as(client: &mut Client, seats: &Seats, side: Option<char>) -> pb::Game {
    let msg = pb::GetGameRequest {
        game_id: seats.id.clone(),
    };
    let request = match side {
        Some(s) => authed(msg, seats.token(s)),
        None => Request::new(msg),
    };
    client
        .get_game(request)
        .await
        .expect("get game")
        .into_inner()
        .game
        .expect("the game")
}

fn seat_of(game: &pb::Game, side: char) -> pb::SetupSeat {
    let setup = game.setup.clone().expect("a setup");
    if side == 'w' {
        setup.white.expect("white's seat")
    } else {
        setup.black.expect("black's seat")
    }
}

fn state(game: &pb::Game, side: char) -> pb::SetupState {
    pb::SetupState::try_from(seat_of(game, side).state).expect("a state")
}

/// What the test must never find before the reveal in what a caller who may not see a
/// placement gets: any row of it.
fn assert_hidden(text: &str, placement: &str, who: &str) {
    for row in placement.split('/') {
        if row.chars().any(|c| c.is_ascii_alphabetic()) {
            assert!(
                !text.contains(&format!("/{row}/")) && !text.contains(&format!("{row}/")),
                "{who} sees the row {row} in {text}"
            );
        }
    }
}

async fn watch_from_start(
    client: &mut Client,
    seats: &Seats,
    side: Option<char>,
) -> Streaming<pb::WatchGameResponse> {
    let msg = pb::WatchGameRequest {
        game_id: seats.id.clone(),
        after_seq: 0,
    };
    let request = match side {
        Some(s) => authed(msg, seats.token(s)),
        None => Request::new(msg),
    };
    client
        .watch_game(request)
        .await
        .expect("watch")
        .into_inner()
}

/// The whole phase: drafts, finals, each caller's view before the reveal, the reveal, play.
#[tokio::test]
async fn each_seat_sees_only_its_own_placement_until_the_reveal() {
    let server = start_unlimited().await;
    let mut client = server.client().await;
    let (created, seats) = create_with(&mut client, by_key("screen")).await;
    assert_eq!(created.fen, EMPTY);
    assert_eq!(created.start_fen, EMPTY);
    assert!(created.legal_moves.is_empty());
    assert_eq!(created.turn, pb::Color::White as i32);
    assert_eq!(state(&created, 'w'), pb::SetupState::Empty);
    let mut spectator_stream = watch_from_start(&mut client, &seats, None).await;
    let mut black_stream = watch_from_start(&mut client, &seats, Some('b')).await;

    // A move waits for the setup.
    let refused = client
        .submit_move(authed(
            pb::SubmitMoveRequest {
                game_id: seats.id.clone(),
                r#move: "e2e4".into(),
                ..Default::default()
            },
            seats.token('w'),
        ))
        .await;
    assert_refused(refused, Code::FailedPrecondition, "SETUP_PENDING");

    // White drafts, then changes its mind and commits.
    let drafted = place(&mut client, &seats, 'w', WHITE_DRAFT, false).await;
    assert_eq!(state(&drafted, 'w'), pb::SetupState::Draft);
    assert_eq!(seat_of(&drafted, 'w').placement, WHITE_DRAFT);
    assert_eq!(drafted.fen, format!("8/8/8/8/{WHITE_DRAFT} w - - 0 1"));
    let white = place(&mut client, &seats, 'w', WHITE, true).await;
    assert_eq!(state(&white, 'w'), pb::SetupState::Final);
    assert_eq!(white.fen, format!("8/8/8/8/{WHITE} w - - 0 1"));

    // Black and a spectator see that White is done, and nothing of what it placed.
    for (who, game) in [
        ("black", get_as(&mut client, &seats, Some('b')).await),
        ("a spectator", get_as(&mut client, &seats, None).await),
    ] {
        assert_eq!(state(&game, 'w'), pb::SetupState::Final, "{who}");
        assert_eq!(seat_of(&game, 'w').placement, "", "{who}");
        assert_eq!(game.fen, EMPTY, "{who}");
        assert_hidden(&format!("{game:?}"), WHITE, who);
        assert_hidden(&format!("{game:?}"), WHITE_DRAFT, who);
    }
    let listed = client
        .list_games(pb::ListGamesRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_hidden(&format!("{listed:?}"), WHITE, "ListGames");

    // A final placement is retried, never changed; a bad one is refused with the rule.
    place(&mut client, &seats, 'w', WHITE, true).await;
    let changed = client
        .submit_setup(authed(placing(&seats, WHITE_DRAFT, true), seats.token('w')))
        .await;
    assert_refused(changed, Code::FailedPrecondition, "SETUP_FINAL");
    let bad = client
        .submit_setup(authed(
            placing(&seats, "rnbqkbnr/pppppppp/8/p7", false),
            seats.token('b'),
        ))
        .await;
    let status = assert_refused(bad, Code::InvalidArgument, "INVALID_SETUP");
    assert!(status.message().contains("pawn"), "{}", status.message());
    let wrong_side = client
        .submit_setup(authed(placing(&seats, WHITE, false), seats.token('b')))
        .await;
    assert_refused(wrong_side, Code::InvalidArgument, "INVALID_SETUP");

    // Black's final placement reveals both: White to move from the joined board.
    let revealed = place(&mut client, &seats, 'b', BLACK, true).await;
    assert_eq!(revealed.start_fen, START);
    assert_eq!(revealed.fen, START);
    assert!(revealed.setup.is_none());
    assert!(
        revealed.legal_moves.len() > 10,
        "{:?}",
        revealed.legal_moves
    );
    let late = client
        .submit_setup(authed(placing(&seats, BLACK, true), seats.token('b')))
        .await;
    assert_refused(late, Code::FailedPrecondition, "NO_SETUP");
    let played = play(&mut client, &seats, 'w', "c4c5").await;
    assert_eq!(played.r#move.expect("the move").ply, 1);

    // The streams: a snapshot of the empty board, then the placements as events that name
    // only who placed, then the reveal with the start, then the move.
    for (who, stream) in [
        ("a spectator", &mut spectator_stream),
        ("black", &mut black_stream),
    ] {
        let mut seen = Vec::new();
        loop {
            let e = next_event(stream).await.expect("stream").expect("events");
            let text = format!("{e:?}");
            let moved = matches!(e.event, Some(Event::MovePlayed(_)));
            seen.push(e);
            if moved {
                break;
            }
            if !text.contains("start_fen: \"rn1qk") {
                assert_hidden(&text, WHITE, who);
            }
        }
        let placed: Vec<(i32, bool, String)> = seen
            .iter()
            .filter_map(|e| match &e.event {
                Some(Event::SetupPlaced(p)) => Some((p.by, p.committed, p.start_fen.clone())),
                _ => None,
            })
            .collect();
        let (w, b) = (pb::Color::White as i32, pb::Color::Black as i32);
        assert_eq!(
            placed,
            vec![
                (w, false, String::new()),
                (w, true, String::new()),
                (b, true, START.to_owned()),
            ],
            "{who}"
        );
        // A stream resumed after the first event replays the same events.
        let mut replay = client
            .watch_game(pb::WatchGameRequest {
                game_id: seats.id.clone(),
                after_seq: 1,
            })
            .await
            .unwrap()
            .into_inner();
        for expected in seen.iter().skip(2) {
            let again = next_event(&mut replay).await.unwrap().unwrap();
            assert_eq!(
                again.event, expected.event,
                "{who}: the replay of seq {}",
                again.seq
            );
        }
    }
}

/// Black's king attacked at the reveal: White wins at once, as if capturing it.
#[tokio::test]
async fn an_attacked_black_king_loses_at_the_reveal() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create_with(&mut client, by_key("crazyscreen")).await;
    place(&mut client, &seats, 'b', "rnbqkbnr/ppp1pppp/8/3p4", true).await;
    let over = place(&mut client, &seats, 'w', "Q7/PPPPPPPP/8/RNB1KBNR", true).await;
    let (result, termination) = outcome(&over);
    assert_eq!(result, "1-0");
    assert_eq!(termination, pb::Termination::KingCaptured);
    assert_eq!(
        over.fen,
        "rnbqkbnr/ppp1pppp/8/3p4/Q7/PPPPPPPP/8/RNB1KBNR w - - 0 1"
    );
    // Read back as a finished game (rebuilt from its events): the same end on the same board.
    let again = get(&mut client, &seats.id).await;
    assert_eq!(
        (again.fen.as_str(), outcome(&again)),
        (over.fen.as_str(), (result, termination))
    );
    // Listed, from the board a store keeps as FEN (which no FEN reader accepts: the side not
    // to move is in check), the list answers with it.
    let listed = client
        .list_games(pb::ListGamesRequest::default())
        .await
        .expect("a list with the game in it")
        .into_inner();
    let entry = listed.games.iter().find(|g| g.game_id == seats.id).unwrap();
    assert_eq!(entry.fen, over.fen);
}

/// In a timed game both clocks run during the setup: the seat that has not committed when
/// its time is out loses, and the other's final placement took its time off its clock.
#[tokio::test]
async fn a_seat_out_of_time_in_the_setup_loses() {
    let server = start().await;
    let mut client = server.client().await;
    let mut request = by_key("screen");
    request.time_control = Some(tc(2, 0));
    request.clock_start = pb::ClockStart::OnCreation as i32;
    request.first_move_timeout = Some(prost_types::Duration {
        seconds: 0,
        nanos: 0,
    });
    let (created, seats) = create_with(&mut client, request).await;
    let deadline = seat_of(&created, 'w').deadline.expect("a setup deadline");
    assert!(deadline.seconds > 0);
    let white = place(&mut client, &seats, 'w', WHITE, true).await;
    // Its setup's time came off White's clock; Black's runs on, with neither shown running.
    let clocks = white.clocks.expect("clocks");
    let left =
        std::time::Duration::try_from(clocks.white_remaining.expect("white's time")).unwrap();
    assert!(left < std::time::Duration::from_secs(2), "{left:?}");
    assert_eq!(clocks.running, pb::Color::Unspecified as i32);
    tokio::time::sleep(std::time::Duration::from_millis(2_600)).await;
    let over = get(&mut client, &seats.id).await;
    let (result, termination) = outcome(&over);
    assert_eq!(
        (result.as_str(), termination),
        ("1-0", pb::Termination::TimeForfeit)
    );
    // Over, the game shows everyone what was placed, and its record begins there.
    assert_eq!(over.fen, format!("8/8/8/8/{WHITE} w - - 0 1"));
    assert_eq!(seat_of(&over, 'w').placement, WHITE);
    let pgn = export_pgn(&mut client, &seats.id).await;
    assert!(
        pgn.contains(&format!("[FEN \"8/8/8/8/{WHITE} w - - 0 1\"]")),
        "{pgn}"
    );
}

/// A game with a secret setup takes no start from its creator, and other games take no
/// placement.
#[tokio::test]
async fn setups_only_where_the_game_has_one() {
    let server = start().await;
    let mut client = server.client().await;
    let mut request = by_key("screen");
    request.start_fen = START.into();
    let refused = client.create_game(request).await;
    assert_refused(refused, Code::InvalidArgument, "INVALID_FIELD");
    let (_, seats) = create(&mut client, "chess", "").await;
    let refused = client
        .submit_setup(authed(placing(&seats, WHITE, true), seats.token('w')))
        .await;
    assert_refused(refused, Code::FailedPrecondition, "NO_SETUP");
}

/// Nobody is to move during a setup, so no claim against an absent seat is announced until
/// the reveal starts White's turn.
#[tokio::test]
async fn no_claim_is_announced_during_a_setup() {
    let server = start().await;
    let mut client = server.client().await;
    let (created, seats) = create_with(&mut client, by_key("screen")).await;
    let claim_at = |game: &pb::Game| {
        [&game.white_presence, &game.black_presence]
            .map(|p| p.as_ref().expect("presence").claim_at.is_some())
    };
    assert_eq!(
        claim_at(&get(&mut client, &created.game_id).await),
        [false; 2]
    );
    place(&mut client, &seats, 'w', WHITE, true).await;
    assert_eq!(claim_at(&get(&mut client, &seats.id).await), [false; 2]);
    place(&mut client, &seats, 'b', BLACK, true).await;
    // Revealed: White, absent, is to move, and a claim against it has a time.
    assert_eq!(claim_at(&get(&mut client, &seats.id).await), [true, false]);
}

/// A timed game with a secret setup created without a first-move timer gets three minutes,
/// which cover the setup, where other timed games get thirty seconds.
#[tokio::test]
async fn a_setup_gets_minutes_to_place() {
    let server = start().await;
    let mut client = server.client().await;
    for (key, seconds) in [("screen", 180), ("crazyscreen", 180), ("chess", 30)] {
        let mut request = by_key(key);
        request.time_control = Some(tc(300, 0));
        let (created, _) = create_with(&mut client, request).await;
        let made = created.created_at.expect("created at");
        let deadline = created.first_move_deadline.expect("a first-move timer");
        assert_eq!(deadline.seconds - made.seconds, seconds, "{key}");
    }
}
