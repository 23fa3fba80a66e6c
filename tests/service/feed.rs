//! WatchGames, the deployment-wide feed: every game's creation and end (and moves when asked),
//! each with a cursor that resumes with no gap and no duplicate; filters; heartbeats with the
//! cursor (its bounds are in `feed_bounds`). On every store (`CHESSD_TEST_STORE`).

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use chessd::ServerConfig;
use chessd::proto::{self as pb, watch_games_response::Event};
use tonic::{Status, Streaming};

use crate::support::*;

/// How long a test waits for the next feed message.
pub const WAIT: Duration = Duration::from_secs(20);

pub async fn feed(
    client: &mut Client,
    request: pb::WatchGamesRequest,
) -> Result<Streaming<pb::WatchGamesResponse>, Status> {
    client.watch_games(request).await.map(|r| r.into_inner())
}

pub fn after(cursor: &str) -> pb::WatchGamesRequest {
    pb::WatchGamesRequest {
        after_cursor: cursor.into(),
        ..Default::default()
    }
}

/// The next message, heartbeats included.
pub async fn next_message(
    stream: &mut Streaming<pb::WatchGamesResponse>,
) -> Result<pb::WatchGamesResponse, Status> {
    tokio::time::timeout(WAIT, stream.message())
        .await
        .expect("a feed message within the wait")?
        .ok_or_else(|| Status::internal("the feed ended"))
}

/// The next event, heartbeats skipped.
pub async fn next_feed(
    stream: &mut Streaming<pb::WatchGamesResponse>,
) -> Result<pb::WatchGamesResponse, Status> {
    loop {
        let m = next_message(stream).await?;
        if !matches!(m.event, Some(Event::Heartbeat(_))) {
            return Ok(m);
        }
    }
}

/// The game an event is about.
pub fn game_of(m: &pb::WatchGamesResponse) -> String {
    match &m.event {
        Some(Event::GameCreated(c)) => c.game.as_ref().unwrap().game_id.clone(),
        Some(Event::GameFinished(f)) => f.game.as_ref().unwrap().game_id.clone(),
        Some(Event::GameMoved(m)) => m.game_id.clone(),
        _ => String::new(),
    }
}

/// A short name: `created ID`, `moved ID e2e4`, `finished ID 0-1`, `heartbeat`.
pub fn what(m: &pb::WatchGamesResponse) -> String {
    match &m.event {
        Some(Event::GameCreated(_)) => format!("created {}", game_of(m)),
        Some(Event::GameMoved(e)) => {
            format!("moved {} {}", e.game_id, e.r#move.as_ref().unwrap().uci)
        }
        Some(Event::GameFinished(f)) => format!(
            "finished {} {}",
            game_of(m),
            f.outcome.as_ref().unwrap().pgn_result
        ),
        Some(Event::GameTakenBack(t)) => format!("taken back {} {}", t.game_id, t.ply),
        Some(Event::GameEntropy(e)) => format!("entropy {} {}", e.game_id, e.seq),
        Some(Event::Heartbeat(_)) => "heartbeat".into(),
        None => "empty".into(),
    }
}

/// A game between `white` and `black` with `labels`.
pub async fn labelled(
    client: &mut Client,
    white: &str,
    black: &str,
    labels: &[(&str, &str)],
) -> Seats {
    create_with(
        client,
        pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            white_player: white.into(),
            black_player: black.into(),
            labels: labels
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            ..Default::default()
        },
    )
    .await
    .1
}

pub async fn resign(client: &mut Client, seats: &Seats, side: char) {
    let request = pb::ResignRequest {
        game_id: seats.id.clone(),
    };
    client
        .resign(authed(request, seats.token(side)))
        .await
        .unwrap_or_else(|s| panic!("{side} resigns: {}", s.message()));
}

/// `got` is `expected`: exactly, on a store with one lane; on Redis, whose lanes (one per
/// bucket) are merged by time, each game's events in exactly their order and the same events.
fn assert_in_order(got: &[pb::WatchGamesResponse], expected: &[String]) {
    let names: Vec<String> = got.iter().map(what).collect();
    if !on_redis() {
        assert_eq!(names, expected);
        return;
    }
    let per_game = |list: &[String]| -> HashMap<String, Vec<String>> {
        let mut map: HashMap<String, Vec<String>> = HashMap::new();
        for name in list {
            let game = name.split(' ').nth(1).unwrap_or_default().to_owned();
            map.entry(game).or_default().push(name.clone());
        }
        map
    };
    assert_eq!(per_game(&names), per_game(expected), "{names:#?}");
}

/// Every event name in order, and each game's events in the order creation, moves, end.
fn check_exactly_once(events: &[pb::WatchGamesResponse], games: &[String]) {
    let names: Vec<String> = events.iter().map(what).collect();
    let unique: HashSet<&String> = names.iter().collect();
    assert_eq!(unique.len(), names.len(), "a duplicate: {names:#?}");
    let mut stage: HashMap<String, u8> = HashMap::new();
    for m in events {
        let s = stage.entry(game_of(m)).or_default();
        let next = match m.event {
            Some(Event::GameCreated(_)) => 1,
            Some(Event::GameMoved(_)) => 2,
            Some(Event::GameFinished(_)) => 3,
            _ => continue,
        };
        assert!(
            next >= *s && !(next == 1 && *s == 1),
            "out of order: {names:#?}"
        );
        *s = next;
    }
    for g in games {
        assert!(
            names.contains(&format!("created {g}")),
            "{g} not created: {names:#?}"
        );
    }
}

/// A consumer that keeps dropping its stream and resuming from the last cursor it got sees
/// every creation and end exactly once, each game's in order, and the same events as a
/// consumer that never left.
#[tokio::test]
async fn resuming_sees_every_event_exactly_once() {
    let server = start().await;
    let mut client = server.client().await;
    let mut reader = server.client().await;
    let mut steady = feed(&mut reader, pb::WatchGamesRequest::default())
        .await
        .unwrap();
    let mut resumed = feed(&mut reader, pb::WatchGamesRequest::default())
        .await
        .unwrap();
    let mut cursor = String::new();
    let mut seen = Vec::new();
    let mut games = Vec::new();
    for round in 0..6 {
        // Some activity while the resuming consumer is away...
        let seats = labelled(&mut client, "w", "b", &[]).await;
        games.push(seats.id.clone());
        if round % 2 == 1 {
            resign(&mut client, &seats, 'w').await;
        }
        // ...then it reads one event, and goes away again.
        let m = next_feed(&mut resumed).await.unwrap();
        assert!(!m.cursor.is_empty());
        cursor = m.cursor.clone();
        seen.push(m);
        drop(resumed);
        resumed = feed(&mut reader, after(&cursor)).await.unwrap();
    }
    // Nine events in all: six creations, three ends.
    while seen.len() < 9 {
        seen.push(next_feed(&mut resumed).await.unwrap());
    }
    let mut all = Vec::new();
    for _ in 0..9 {
        all.push(next_feed(&mut steady).await.unwrap());
    }
    check_exactly_once(&seen, &games);
    check_exactly_once(&all, &games);
    let names = |v: &[pb::WatchGamesResponse]| -> HashSet<String> { v.iter().map(what).collect() };
    assert_eq!(names(&seen), names(&all));
    // Nothing more is pending: the next message on either is a heartbeat, not a ninth+1 event
    // (checked by creating one more game and seeing exactly it next).
    let last = labelled(&mut client, "w", "b", &[]).await;
    assert_eq!(
        what(&next_feed(&mut resumed).await.unwrap()),
        format!("created {}", last.id)
    );
    assert_eq!(
        what(&next_feed(&mut steady).await.unwrap()),
        format!("created {}", last.id)
    );
    let _ = cursor;
}

/// An event carries the game's header: players, labels, time control, start; an end carries
/// the outcome, the final position, the plies and when it ended.
#[tokio::test]
async fn events_carry_the_game() {
    let server = start().await;
    let mut client = server.client().await;
    let mut stream = feed(&mut client, pb::WatchGamesRequest::default())
        .await
        .unwrap();
    let (_, seats) = create_with(
        &mut client,
        pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            white_player: "ann".into(),
            black_player: "bob".into(),
            time_control: Some(tc(300, 2)),
            labels: [("tournament".into(), "spring".into())].into(),
            ..Default::default()
        },
    )
    .await;
    play_all(&mut client, &seats, 'w', "f3 e5 g4 Qh4#").await;
    let Some(Event::GameCreated(created)) = next_feed(&mut stream).await.unwrap().event else {
        panic!("a creation first");
    };
    let game = created.game.unwrap();
    assert_eq!(game.game_id, seats.id);
    assert_eq!(
        (game.white_player.as_str(), game.black_player.as_str()),
        ("ann", "bob")
    );
    assert_eq!(game.labels["tournament"], "spring");
    assert_eq!(game.start_fen, CHESS_START);
    assert_eq!(game.time_control.unwrap().initial.unwrap().seconds, 300);
    assert_eq!(
        created.seat,
        pb::Color::Unspecified as i32,
        "no seat for a backend"
    );
    let end = next_feed(&mut stream).await.unwrap();
    let Some(Event::GameFinished(finished)) = end.event else {
        panic!("then its end (moves only with include_moves)");
    };
    assert_eq!(finished.game.unwrap().labels["tournament"], "spring");
    let outcome = finished.outcome.unwrap();
    assert_eq!(outcome.pgn_result, "0-1");
    assert_eq!(outcome.termination, pb::Termination::Checkmate as i32);
    assert_eq!(finished.ply, 4);
    assert!(
        finished
            .fen
            .starts_with("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w")
    );
    assert!(finished.ended_at.is_some());
}

/// With include_moves every move comes, in order, with its ply and its seq in the game's own
/// stream; filters keep only games with every label, the player id and the variant asked.
#[tokio::test]
async fn moves_and_filters() {
    let server = start().await;
    let mut client = server.client().await;
    let request =
        |labels: &[(&str, &str)], variant: pb::Variant, moves: bool| pb::WatchGamesRequest {
            include_moves: moves,
            labels: labels
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            variant: variant as i32,
            ..Default::default()
        };
    let mut moves = feed(&mut client, request(&[], pb::Variant::Unspecified, true))
        .await
        .unwrap();
    let mut round2 = feed(
        &mut client,
        request(
            &[("round", "2"), ("tournament", "t1")],
            pb::Variant::Unspecified,
            false,
        ),
    )
    .await
    .unwrap();
    let mut racing = feed(&mut client, request(&[], pb::Variant::RacingKings, false))
        .await
        .unwrap();
    let mut bound = feed(
        &mut client,
        pb::WatchGamesRequest {
            player_id: "user-9".into(),
            ..Default::default()
        },
    )
    .await
    .unwrap();

    let r1 = labelled(
        &mut client,
        "a",
        "b",
        &[("tournament", "t1"), ("round", "1")],
    )
    .await;
    let r2 = labelled(
        &mut client,
        "a",
        "b",
        &[("tournament", "t1"), ("round", "2")],
    )
    .await;
    play_all(&mut client, &r2, 'w', "e4 e5").await;
    resign(&mut client, &r2, 'b').await;
    let (_, rk) = create(&mut client, "racingkings", "").await;
    let (_, user9) = create_with(
        &mut client,
        pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            black_player_id: "user-9".into(),
            bound_seat_tokens: true,
            ..Default::default()
        },
    )
    .await;
    resign(&mut client, &user9, 'b').await;

    let mut got = Vec::new();
    for _ in 0..8 {
        got.push(next_feed(&mut moves).await.unwrap());
    }
    let expected = [
        format!("created {}", r1.id),
        format!("created {}", r2.id),
        format!("moved {} e2e4", r2.id),
        format!("moved {} e7e5", r2.id),
        format!("finished {} 1-0", r2.id),
        format!("created {}", rk.id),
        format!("created {}", user9.id),
        format!("finished {} 1-0", user9.id),
    ];
    assert_in_order(&got, &expected);

    assert_eq!(
        what(&next_feed(&mut round2).await.unwrap()),
        format!("created {}", r2.id)
    );
    assert_eq!(
        what(&next_feed(&mut round2).await.unwrap()),
        format!("finished {} 1-0", r2.id)
    );
    assert_eq!(
        what(&next_feed(&mut racing).await.unwrap()),
        format!("created {}", rk.id)
    );
    assert_eq!(
        what(&next_feed(&mut bound).await.unwrap()),
        format!("created {}", user9.id)
    );
    assert_eq!(
        what(&next_feed(&mut bound).await.unwrap()),
        format!("finished {} 1-0", user9.id)
    );

    // The moves carry their place in the game's own stream.
    let mut from_start = feed(
        &mut client,
        pb::WatchGamesRequest {
            include_moves: true,
            labels: [("round".to_owned(), "2".to_owned())].into(),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let marker = labelled(&mut client, "a", "b", &[("round", "2")]).await;
    play(&mut client, &marker, 'w', "d4").await;
    assert_eq!(
        what(&next_feed(&mut from_start).await.unwrap()),
        format!("created {}", marker.id)
    );
    let Some(Event::GameMoved(moved)) = next_feed(&mut from_start).await.unwrap().event else {
        panic!("a move");
    };
    let mv = moved.r#move.unwrap();
    assert_eq!(
        (mv.uci.as_str(), mv.san.as_str(), mv.ply, mv.seq),
        ("d2d4", "d4", 1, 1)
    );
    assert_eq!(mv.color, pb::Color::White as i32);
    assert!(
        moved
            .fen
            .starts_with("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b")
    );
}

/// Heartbeats carry the current cursor, which moves on past events the filter drops: resuming
/// from a heartbeat's cursor starts after them.
#[tokio::test]
async fn heartbeats_carry_the_cursor() {
    let config = ServerConfig {
        heartbeat: Duration::from_millis(200),
        ..Default::default()
    };
    let server = start_with(config).await;
    let mut client = server.client().await;
    let mut only_rated = feed(
        &mut client,
        pb::WatchGamesRequest {
            labels: [("rated".to_owned(), "yes".to_owned())].into(),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let first = next_message(&mut only_rated).await.unwrap();
    assert!(matches!(first.event, Some(Event::Heartbeat(_))));
    assert!(!first.cursor.is_empty());
    let unrated = labelled(&mut client, "a", "b", &[]).await;
    resign(&mut client, &unrated, 'w').await;
    // A heartbeat after the unrated game's events: its cursor is past them.
    let beat = loop {
        let m = next_message(&mut only_rated).await.unwrap();
        assert!(matches!(m.event, Some(Event::Heartbeat(_))), "{}", what(&m));
        if m.cursor != first.cursor {
            break m;
        }
    };
    let mut everything = feed(&mut client, after(&beat.cursor)).await.unwrap();
    let next = labelled(&mut client, "a", "b", &[]).await;
    assert_eq!(
        what(&next_feed(&mut everything).await.unwrap()),
        format!("created {}", next.id),
        "the unrated game's events are behind the heartbeat's cursor"
    );
    let mut from_first = feed(&mut client, after(&first.cursor)).await.unwrap();
    assert_eq!(
        what(&next_feed(&mut from_first).await.unwrap()),
        format!("created {}", unrated.id)
    );
}
