//! The clocks' controls: when the clocks start (on creation, after the first moves, at a
//! given time), the first-move timer, per-side times, time given (AddTime) and an arbiter's
//! changes (AdjustClock), each change a ClockChanged event replayed exactly on resume; and
//! the refusals of bad input. On every store (`CHESSD_TEST_STORE`); in real time, as the
//! Redis store sweeps deadlines by wall time.

use std::time::Duration;

use chessd::proto::{self as pb, watch_game_response::Event};
use tonic::Code;

use crate::support::{
    CHESS_START, Client, Seats, assert_refused, authed, create_with, drain, get, next_event, play,
    start, tc, watch,
};

fn secs(d: Option<&prost_types::Duration>) -> f64 {
    d.map_or(-1.0, |d| d.seconds as f64 + f64::from(d.nanos) / 1e9)
}

fn dur(secs: i64) -> prost_types::Duration {
    prost_types::Duration {
        seconds: secs,
        nanos: 0,
    }
}

fn millis(t: Option<&prost_types::Timestamp>) -> i64 {
    t.map_or(0, |t| t.seconds * 1000 + i64::from(t.nanos) / 1_000_000)
}

fn timed(tc: pb::TimeControl) -> pb::CreateGameRequest {
    pb::CreateGameRequest {
        variant: pb::Variant::Chess as i32,
        white_player: "white".into(),
        black_player: "black".into(),
        time_control: Some(tc),
        ..Default::default()
    }
}

/// Both clocks of a game, in seconds.
fn clocks(game: &pb::Game) -> (f64, f64, i32) {
    let c = game.clocks.as_ref().expect("clocks");
    (
        secs(c.white_remaining.as_ref()),
        secs(c.black_remaining.as_ref()),
        c.running,
    )
}

#[track_caller]
fn near(found: f64, expected: f64, slack: f64) {
    assert!(
        (found - expected).abs() <= slack,
        "{found} s, expected {expected} s (within {slack} s)"
    );
}

async fn add_time(
    client: &mut Client,
    seats: &Seats,
    side: char,
    amount: Option<prost_types::Duration>,
) -> Result<pb::Game, tonic::Status> {
    let request = pb::AddTimeRequest {
        game_id: seats.id.clone(),
        amount,
    };
    client
        .add_time(authed(request, seats.token(side)))
        .await
        .map(|r| r.into_inner().game.expect("game"))
}

async fn adjust(
    client: &mut Client,
    id: &str,
    side: pb::Color,
    change: Option<pb::adjust_clock_request::Change>,
) -> Result<pb::Game, tonic::Status> {
    client
        .adjust_clock(pb::AdjustClockRequest {
            game_id: id.into(),
            side: side as i32,
            change,
        })
        .await
        .map(|r| r.into_inner().game.expect("game"))
}

/// The default: the clocks run from the creation, and a timed game has a 30-second
/// first-move timer; an untimed game has none unless asked, and zero turns it off.
#[tokio::test]
async fn defaults() {
    let server = start().await;
    let mut client = server.client().await;
    let (game, _) = create_with(&mut client, timed(tc(300, 0))).await;
    assert_eq!(game.clock_start, pb::ClockStart::OnCreation as i32);
    assert_eq!(clocks(&game).2, pb::Color::White as i32);
    let wait = millis(game.first_move_deadline.as_ref()) - millis(game.created_at.as_ref());
    assert_eq!(wait, 30_000, "the default first-move timer");
    assert!(game.clock_start_at.is_none());

    let untimed = pb::CreateGameRequest {
        time_control: None,
        ..timed(tc(1, 0))
    };
    let (game, _) = create_with(&mut client, untimed.clone()).await;
    assert_eq!(game.clock_start, pb::ClockStart::Unspecified as i32);
    assert!(game.first_move_deadline.is_none(), "no timer untimed");
    let (game, _) = create_with(
        &mut client,
        pb::CreateGameRequest {
            first_move_timeout: Some(dur(45)),
            ..untimed
        },
    )
    .await;
    let wait = millis(game.first_move_deadline.as_ref()) - millis(game.created_at.as_ref());
    assert_eq!(wait, 45_000, "asked for untimed");
    let (game, _) = create_with(
        &mut client,
        pb::CreateGameRequest {
            first_move_timeout: Some(dur(0)),
            ..timed(tc(300, 0))
        },
    )
    .await;
    assert!(game.first_move_deadline.is_none(), "zero: none");
}

/// With the clocks starting after the first moves, neither first move costs time or earns
/// an increment; then White's clock runs.
#[tokio::test]
async fn clocks_start_after_the_first_moves() {
    let server = start().await;
    let mut client = server.client().await;
    let (game, seats) = create_with(
        &mut client,
        pb::CreateGameRequest {
            clock_start: pb::ClockStart::AfterFirstMoves as i32,
            ..timed(tc(60, 2))
        },
    )
    .await;
    assert_eq!(game.clock_start, pb::ClockStart::AfterFirstMoves as i32);
    assert_eq!(clocks(&game), (60.0, 60.0, pb::Color::Unspecified as i32));
    tokio::time::sleep(Duration::from_millis(600)).await;
    let after_e4 = play(&mut client, &seats, 'w', "e2e4").await.game.unwrap();
    assert_eq!(
        clocks(&after_e4),
        (60.0, 60.0, pb::Color::Unspecified as i32)
    );
    assert!(
        after_e4.first_move_deadline.is_some(),
        "Black's first-move timer runs"
    );
    tokio::time::sleep(Duration::from_millis(600)).await;
    let after_e5 = play(&mut client, &seats, 'b', "e7e5").await.game.unwrap();
    assert_eq!(clocks(&after_e5), (60.0, 60.0, pb::Color::White as i32));
    assert!(after_e5.first_move_deadline.is_none(), "both have moved");
    tokio::time::sleep(Duration::from_millis(600)).await;
    let after_nf3 = play(&mut client, &seats, 'w', "g1f3").await.game.unwrap();
    let (w, b, running) = clocks(&after_nf3);
    near(w, 61.4, 0.3);
    assert_eq!((b, running), (60.0, pb::Color::Black as i32));
}

/// With the clocks starting at a given time, a move before it is free and nothing runs; from
/// it, the side to move's clock runs. The first-move timer counts from it.
#[tokio::test]
async fn clocks_start_at_a_given_time() {
    let server = start().await;
    let mut client = server.client().await;
    let at = std::time::SystemTime::now() + Duration::from_millis(1500);
    let (game, seats) = create_with(
        &mut client,
        pb::CreateGameRequest {
            clock_start: pb::ClockStart::At as i32,
            clock_start_at: Some(at.into()),
            first_move_timeout: Some(dur(20)),
            ..timed(tc(30, 5))
        },
    )
    .await;
    let start_ms = millis(game.clock_start_at.as_ref());
    assert!((start_ms - millis(Some(&at.into()))).abs() <= 1);
    assert_eq!(millis(game.first_move_deadline.as_ref()), start_ms + 20_000);
    assert_eq!(clocks(&game), (30.0, 30.0, pb::Color::Unspecified as i32));
    let early = play(&mut client, &seats, 'w', "e2e4").await.game.unwrap();
    assert_eq!(
        clocks(&early),
        (30.0, 30.0, pb::Color::Unspecified as i32),
        "free, no increment"
    );
    assert_eq!(
        millis(early.first_move_deadline.as_ref()),
        start_ms + 20_000,
        "Black's timer too counts from the start"
    );
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let game = get(&mut client, &seats.id).await;
    let (w, b, running) = clocks(&game);
    assert_eq!((w, running), (30.0, pb::Color::Black as i32));
    near(b, 29.0, 0.5);
}

/// The first-move timer aborts the game of a side that never moves, by itself, once: the
/// watcher sees one game-over (NO_START, no result) and the game is ABORTED. The second
/// side's timer counts from the first move.
#[tokio::test]
async fn first_move_timer_aborts_once() {
    let server = start().await;
    let mut client = server.client().await;
    let request = pb::CreateGameRequest {
        first_move_timeout: Some(dur(1)),
        ..timed(tc(300, 0))
    };
    for moves in [0, 1] {
        let (game, seats) = create_with(&mut client, request.clone()).await;
        let mut stream = watch(&mut client, &seats.id, 0).await;
        let mut base = millis(game.created_at.as_ref());
        if moves == 1 {
            tokio::time::sleep(Duration::from_millis(500)).await;
            let moved = play(&mut client, &seats, 'w', "e2e4").await;
            base = millis(moved.game.as_ref().unwrap().first_move_deadline.as_ref()) - 1000;
        }
        let events = drain(&mut stream).await;
        let overs: Vec<_> = events
            .iter()
            .filter(|e| matches!(e.event, Some(Event::GameOver(_))))
            .collect();
        assert_eq!(overs.len(), 1, "{events:?}");
        let Some(Event::GameOver(over)) = &overs[0].event else {
            unreachable!()
        };
        let outcome = over.outcome.as_ref().unwrap();
        assert_eq!(outcome.termination, pb::Termination::NoStart as i32);
        assert_eq!(outcome.result, pb::GameResult::Unspecified as i32);
        assert_eq!(outcome.pgn_result, "*");
        let late = millis(overs[0].server_time.as_ref()) - base;
        assert!((1000..4000).contains(&late), "aborted {late} ms after");
        let game = get(&mut client, &seats.id).await;
        assert_eq!(game.status, pb::GameStatus::Aborted as i32);
        assert_eq!(game.ply, moves);
        assert_eq!(game.last_seq, u64::from(moves) + 1, "one game over");
        assert!(game.first_move_deadline.is_none());
        // A move on it says why the game is over, in words and in the metadata.
        let (side, mv) = if moves == 0 {
            ('w', "d2d4")
        } else {
            ('b', "e7e5")
        };
        let request = pb::SubmitMoveRequest {
            game_id: seats.id.clone(),
            r#move: mv.into(),
            ..Default::default()
        };
        let refused = client
            .submit_move(authed(request, seats.token(side)))
            .await
            .expect_err("the game is over");
        assert_eq!(refused.code(), Code::FailedPrecondition);
        assert_eq!(crate::support::reason(&refused), "GAME_OVER");
        assert!(
            refused
                .message()
                .contains("aborted, no first move within 1 s"),
            "{}",
            refused.message()
        );
        let info = tonic_types::StatusExt::get_details_error_info(&refused).unwrap();
        assert_eq!(info.metadata["termination"], "no_start");
        assert_eq!(info.metadata["first_move_timeout_ms"], "1000");
    }
}

/// Per-side times and increments (odds, Armageddon): each side starts with its own time and
/// gets its own increment; unset parts are White's.
#[tokio::test]
async fn per_side_times() {
    let server = start().await;
    let mut client = server.client().await;
    let mut odds = tc(300, 3);
    odds.black_initial = Some(dur(240));
    odds.black_increment = Some(dur(0));
    let (game, seats) = create_with(&mut client, timed(odds)).await;
    let shown = game.time_control.as_ref().unwrap();
    assert_eq!(secs(shown.black_initial.as_ref()), 240.0);
    assert_eq!(secs(shown.black_increment.as_ref()), 0.0);
    let (w, b, _) = clocks(&game);
    assert_eq!(b, 240.0);
    near(w, 300.0, 0.2);
    let after = play(&mut client, &seats, 'w', "e2e4").await.game.unwrap();
    near(clocks(&after).0, 303.0, 0.3);
    let after = play(&mut client, &seats, 'b', "e7e5").await.game.unwrap();
    near(clocks(&after).1, 240.0, 0.3);

    let mut armageddon = tc(300, 0);
    armageddon.black_initial = Some(dur(240));
    let (game, _) = create_with(&mut client, timed(armageddon)).await;
    let shown = game.time_control.as_ref().unwrap();
    assert!(shown.black_increment.is_none(), "unset stays unset");
    assert_eq!(clocks(&game).1, 240.0);
}

/// AddTime gives the opponent time (15 s by default), whoever is to move, with a
/// ClockChanged event; AdjustClock sets, adds and takes off; every change replays exactly
/// on resume from any seq.
#[tokio::test]
async fn time_given_and_arbiter_changes_replay_exactly() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create_with(&mut client, timed(tc(60, 0))).await;
    let mut live = watch(&mut client, &seats.id, 0).await;
    next_event(&mut live).await.unwrap().expect("snapshot");
    play(&mut client, &seats, 'w', "e2e4").await;
    let given = add_time(&mut client, &seats, 'w', None).await.unwrap();
    near(clocks(&given).1, 75.0, 0.3);
    let given = add_time(&mut client, &seats, 'b', Some(dur(10)))
        .await
        .unwrap();
    near(clocks(&given).0, 70.0, 0.3);
    use pb::adjust_clock_request::Change;
    let set = adjust(
        &mut client,
        &seats.id,
        pb::Color::Black,
        Some(Change::SetRemaining(dur(42))),
    )
    .await
    .unwrap();
    near(clocks(&set).1, 42.0, 0.2);
    let added = adjust(
        &mut client,
        &seats.id,
        pb::Color::White,
        Some(Change::Add(dur(20))),
    )
    .await
    .unwrap();
    near(clocks(&added).0, 90.0, 0.3);
    let cut = adjust(
        &mut client,
        &seats.id,
        pb::Color::White,
        Some(Change::Subtract(dur(100))),
    )
    .await
    .unwrap();
    assert_eq!(clocks(&cut).0, 0.0, "stops at zero");
    play(&mut client, &seats, 'b', "e7e5").await;
    // White's clock, at zero, runs: its flag falls.
    let mut seen = Vec::new();
    while let Some(e) = next_event(&mut live).await.unwrap() {
        seen.push(e);
    }
    let changes: Vec<&pb::ClockChanged> = seen
        .iter()
        .filter_map(|e| match &e.event {
            Some(Event::ClockChanged(c)) => Some(c),
            _ => None,
        })
        .collect();
    let summary: Vec<(i32, i32, i32)> = changes.iter().map(|c| (c.side, c.by, c.reason)).collect();
    use pb::ClockChangeReason as R;
    use pb::Color as C;
    assert_eq!(
        summary,
        vec![
            (C::Black as i32, C::White as i32, R::Given as i32),
            (C::White as i32, C::Black as i32, R::Given as i32),
            (C::Black as i32, C::Unspecified as i32, R::ArbiterSet as i32),
            (
                C::White as i32,
                C::Unspecified as i32,
                R::ArbiterAdded as i32
            ),
            (
                C::White as i32,
                C::Unspecified as i32,
                R::ArbiterSubtracted as i32
            ),
        ]
    );
    let first = changes[0].clocks.as_ref().unwrap();
    near(secs(first.black_remaining.as_ref()), 75.0, 0.3);
    assert_eq!(first.running, C::Black as i32);
    let Some(Event::GameOver(over)) = &seen.last().unwrap().event else {
        panic!("ends with the flag: {seen:?}")
    };
    assert_eq!(
        over.outcome.as_ref().unwrap().termination,
        pb::Termination::TimeForfeit as i32
    );
    let last_seq = seen.last().unwrap().seq;
    for after in 1..last_seq {
        let mut again = watch(&mut client, &seats.id, after).await;
        let replayed = drain(&mut again).await;
        let expected: Vec<_> = seen.iter().filter(|e| e.seq > after).cloned().collect();
        assert_eq!(replayed, expected, "after seq {after}");
    }
}

/// Bad input gets the right code and a reason.
#[tokio::test]
async fn refusals() {
    let server = start().await;
    let mut client = server.client().await;
    let bad = |request: pb::CreateGameRequest, field: &'static str| (request, field);
    let mut zero_black = tc(60, 0);
    zero_black.black_initial = Some(dur(0));
    let mut long_black = tc(60, 0);
    long_black.black_increment = Some(dur(7200));
    let past_epoch = prost_types::Timestamp {
        seconds: -5,
        nanos: 0,
    };
    for (request, field) in [
        bad(timed(zero_black), "time_control.black_initial"),
        bad(timed(long_black), "time_control.black_increment"),
        bad(
            pb::CreateGameRequest {
                first_move_timeout: Some(dur(-1)),
                ..timed(tc(60, 0))
            },
            "first_move_timeout",
        ),
        bad(
            pb::CreateGameRequest {
                first_move_timeout: Some(dur(90_000)),
                ..timed(tc(60, 0))
            },
            "first_move_timeout",
        ),
        bad(
            pb::CreateGameRequest {
                clock_start: pb::ClockStart::At as i32,
                ..timed(tc(60, 0))
            },
            "clock_start_at",
        ),
        bad(
            pb::CreateGameRequest {
                clock_start_at: Some(past_epoch),
                ..timed(tc(60, 0))
            },
            "clock_start_at",
        ),
        bad(
            pb::CreateGameRequest {
                clock_start: pb::ClockStart::At as i32,
                clock_start_at: Some(
                    (std::time::SystemTime::now() + Duration::from_secs(40 * 86_400)).into(),
                ),
                ..timed(tc(60, 0))
            },
            "clock_start_at",
        ),
        bad(
            pb::CreateGameRequest {
                clock_start: pb::ClockStart::AfterFirstMoves as i32,
                time_control: None,
                ..timed(tc(60, 0))
            },
            "clock_start",
        ),
        bad(
            pb::CreateGameRequest {
                clock_start: 99,
                ..timed(tc(60, 0))
            },
            "clock_start",
        ),
    ] {
        let status = assert_refused(
            client.create_game(request).await,
            Code::InvalidArgument,
            "INVALID_FIELD",
        );
        assert!(
            status.message().contains(field),
            "{field}: {}",
            status.message()
        );
    }

    let (_, seats) = create_with(&mut client, timed(tc(60, 0))).await;
    let tiny = prost_types::Duration {
        seconds: 0,
        nanos: 1_000,
    };
    for amount in [dur(0), dur(-3), dur(301), tiny] {
        assert_refused(
            add_time(&mut client, &seats, 'w', Some(amount)).await,
            Code::InvalidArgument,
            "INVALID_FIELD",
        );
    }
    // A spectator has no seat token.
    assert_refused(
        client
            .add_time(pb::AddTimeRequest {
                game_id: seats.id.clone(),
                amount: None,
            })
            .await,
        Code::Unauthenticated,
        "TOKEN_MISSING",
    );
    assert_refused(
        add_time(
            &mut client,
            &Seats {
                white: "not-a-token".into(),
                ..seats.clone()
            },
            'w',
            None,
        )
        .await,
        Code::Unauthenticated,
        "TOKEN_INVALID",
    );
    use pb::adjust_clock_request::Change;
    for (side, change) in [
        (pb::Color::Unspecified, Some(Change::Add(dur(5)))),
        (pb::Color::White, None),
        (pb::Color::White, Some(Change::Add(dur(0)))),
        (pb::Color::White, Some(Change::Subtract(dur(-5)))),
        (pb::Color::White, Some(Change::SetRemaining(dur(90_000)))),
        // The clock would hold more than 24 hours.
        (pb::Color::White, Some(Change::Add(dur(86_400)))),
    ] {
        assert_refused(
            adjust(&mut client, &seats.id, side, change).await,
            Code::InvalidArgument,
            "INVALID_FIELD",
        );
    }
    // Nothing refused changed the clocks.
    let game = get(&mut client, &seats.id).await;
    assert_eq!(game.last_seq, 0);

    let untimed = pb::CreateGameRequest {
        time_control: None,
        ..timed(tc(1, 0))
    };
    let (_, plain) = create_with(&mut client, untimed).await;
    assert_refused(
        add_time(&mut client, &plain, 'w', None).await,
        Code::FailedPrecondition,
        "GAME_UNTIMED",
    );
    assert_refused(
        adjust(
            &mut client,
            &plain.id,
            pb::Color::White,
            Some(Change::Add(dur(5))),
        )
        .await,
        Code::FailedPrecondition,
        "GAME_UNTIMED",
    );

    client
        .resign(authed(
            pb::ResignRequest {
                game_id: seats.id.clone(),
            },
            &seats.black,
        ))
        .await
        .unwrap();
    assert_refused(
        add_time(&mut client, &seats, 'w', None).await,
        Code::FailedPrecondition,
        "GAME_OVER",
    );
    assert_refused(
        adjust(
            &mut client,
            &seats.id,
            pb::Color::White,
            Some(Change::Add(dur(5))),
        )
        .await,
        Code::FailedPrecondition,
        "GAME_OVER",
    );
    let _ = CHESS_START;
}
