//! Byoyomi clocks over the API: main time, then periods; a move within a period keeps it, a
//! period is used up only when exceeded, the flag falls when the last runs out; every answer
//! and event tells the periods each side has left; PGN names the time control; and the
//! refusals of a byoyomi that cannot be. On every store, in real time off memory (see
//! `real_time_off_memory`): the waits are whole periods apart from every boundary, so the
//! readings are exact however slow the machine.

use std::time::Duration;

use chessd::proto::{self as pb, watch_game_response::Event};
use tonic::Code;

use crate::support::{
    assert_refused, by_key, create_with, drain, export_pgn, get, outcome, play,
    real_time_off_memory, start, watch,
};

fn secs(seconds: i64) -> Option<prost_types::Duration> {
    Some(prost_types::Duration { seconds, nanos: 0 })
}

/// `main` seconds, then `periods` periods of `period` seconds.
fn byoyomi(main: i64, period: i64, periods: u32) -> pb::TimeControl {
    pb::TimeControl {
        initial: secs(main),
        byoyomi: secs(period),
        periods,
        ..Default::default()
    }
}

/// Each side's time to its flag in milliseconds, and its periods left.
fn reading(c: Option<&pb::Clocks>) -> ((i64, u32), (i64, u32)) {
    let c = c.expect("clocks");
    let ms = |d: Option<&prost_types::Duration>| {
        let d = d.expect("remaining");
        d.seconds * 1000 + i64::from(d.nanos) / 1_000_000
    };
    (
        (ms(c.white_remaining.as_ref()), c.white_periods),
        (ms(c.black_remaining.as_ref()), c.black_periods),
    )
}

/// Shogi with 3 s of main time and two periods of 2 s: sente spends its main time and a
/// second of a period (both periods kept: 4 s to its flag), then 2.5 s (one period used up),
/// then runs out of its last period and loses on time.
#[tokio::test(start_paused = true)]
async fn periods_are_used_only_when_exceeded() {
    real_time_off_memory();
    let server = start().await;
    let mut client = server.client().await;
    let request = pb::CreateGameRequest {
        time_control: Some(byoyomi(3, 2, 2)),
        ..by_key("shogi")
    };
    let (game, seats) = create_with(&mut client, request).await;
    let shown = game.time_control.as_ref().unwrap();
    assert_eq!((shown.byoyomi, shown.periods), (secs(2), 2));
    let (white, black) = reading(game.clocks.as_ref());
    assert_eq!(black, (7000, 2), "main time and both periods");
    assert_eq!(white.1, 2);
    let mut live = watch(&mut client, &seats.id, 0).await;

    tokio::time::sleep(Duration::from_millis(4000)).await;
    let after = play(&mut client, &seats, 'w', "7g7f").await.game.unwrap();
    assert_eq!(reading(after.clocks.as_ref()).0, (4000, 2));
    let after = play(&mut client, &seats, 'b', "3c3d").await.game.unwrap();
    let (_, (black_ms, black_periods)) = reading(after.clocks.as_ref());
    assert!(black_ms > 4000 && black_periods == 2, "Black in main time");

    tokio::time::sleep(Duration::from_millis(2500)).await;
    let after = play(&mut client, &seats, 'w', "2g2f").await.game.unwrap();
    assert_eq!(reading(after.clocks.as_ref()).0, (2000, 1));
    play(&mut client, &seats, 'b', "8c8d").await;

    tokio::time::sleep(Duration::from_millis(3000)).await;
    let over = get(&mut client, &seats.id).await;
    assert_eq!(outcome(&over), ("0-1".into(), pb::Termination::TimeForfeit));
    assert_eq!(reading(over.clocks.as_ref()).0, (0, 0), "flag fallen");

    // The moves' events carry the same readings as the answers did.
    let events = drain(&mut live).await;
    let moved: Vec<(i64, u32)> = events
        .iter()
        .filter_map(|e| match &e.event {
            Some(Event::MovePlayed(m))
                if m.r#move.as_ref().unwrap().color == pb::Color::White as i32 =>
            {
                Some(reading(m.clocks.as_ref()).0)
            }
            _ => None,
        })
        .collect();
    assert_eq!(moved, [(4000, 2), (2000, 1)]);
    let pgn = export_pgn(&mut client, &seats.id).await;
    assert!(pgn.contains("[TimeControl \"3+2x2b\"]"), "{pgn}");
}

/// Periods only: a main time of zero is a byoyomi game from the first move; an untouched
/// period count means one.
#[tokio::test]
async fn periods_only() {
    let server = start().await;
    let mut client = server.client().await;
    let request = pb::CreateGameRequest {
        time_control: Some(byoyomi(0, 30, 0)),
        ..by_key("chess")
    };
    let (game, seats) = create_with(&mut client, request).await;
    assert_eq!(game.time_control.as_ref().unwrap().periods, 1);
    let after = play(&mut client, &seats, 'w', "e2e4").await.game.unwrap();
    assert_eq!(reading(after.clocks.as_ref()).0, (30_000, 1));
}

/// A byoyomi that cannot be is refused with its field named.
#[tokio::test]
async fn refusals() {
    let server = start().await;
    let mut client = server.client().await;
    let with_increment = pb::TimeControl {
        increment: secs(2),
        ..byoyomi(60, 10, 1)
    };
    let without_period = pb::TimeControl {
        periods: 3,
        ..byoyomi(60, 0, 0)
    };
    let without_period = pb::TimeControl {
        byoyomi: None,
        ..without_period
    };
    for (tc, field) in [
        (with_increment, "time_control.increment"),
        (byoyomi(60, 7200, 1), "time_control.byoyomi"),
        (byoyomi(60, 10, 61), "time_control.periods"),
        (without_period, "time_control.periods"),
    ] {
        let request = pb::CreateGameRequest {
            time_control: Some(tc),
            ..by_key("xiangqi")
        };
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
}
