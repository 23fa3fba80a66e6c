//! Games stored by earlier schemas load as they were: schema 4's (an event's fields in columns,
//! its kind, seat and termination by number) are migrated to events as lines, schema 6's (a
//! game's draw rule and takeback policy by number) to the header codec's keys.

use chessd::proto as pb;

use crate::support::{self, DataDir, Server};

/// A finished game of schema 4, its termination by index, loads as it was, before and after a
/// restart on the migrated file.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_4_database_is_migrated() {
    let dir = DataDir::new("legacy-termination");
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let id = "06H2VNYWZK5VP";
    {
        let conn = rusqlite::Connection::open(data.join("chessd.db")).unwrap();
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
        conn.execute_batch(include_str!("fixtures/schema4.sql"))
            .unwrap();
        conn.execute(
            "INSERT INTO games (id, variant, start_fen, white, black, draw_rule, created_at_ms,
                 ended_at_ms)
             VALUES (?1, 'chess', ?2, 'ann', 'bob', 0, 1, 3)",
            rusqlite::params![
                id,
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            ],
        )
        .unwrap();
        // A move, a draw offered by Black (kind 1, seat 1) and declined by White (kind 2), then
        // Black resigns: winner 0 (White), termination 6 (Resignation).
        conn.execute_batch(&format!(
            "INSERT INTO events (game_id, seq, at_ms, kind, seat, mv, clocks_stopped)
                 VALUES ('{id}', 1, 2, 0, 0, 'e2e4', 0);
             INSERT INTO events (game_id, seq, at_ms, kind, seat) VALUES ('{id}', 2, 2, 1, 1);
             INSERT INTO events (game_id, seq, at_ms, kind, seat) VALUES ('{id}', 3, 2, 2, 0);
             INSERT INTO events (game_id, seq, at_ms, kind, seat, winner, termination)
                 VALUES ('{id}', 4, 3, 3, 1, 0, 6);"
        ))
        .unwrap();
    }
    let server = Server::start(&data, &[]);
    let mut client = server.client().await;
    let game = support::get(&mut client, id).await;
    let outcome = game.outcome.expect("an outcome");
    assert_eq!(outcome.termination, pb::Termination::Resignation as i32);
    assert_eq!(outcome.winner, pb::Color::White as i32);
    assert_eq!((game.ply, outcome.pgn_result.as_str()), (1, "1-0"));
    assert!(server.terminate().success());
    let conn = rusqlite::Connection::open(data.join("chessd.db")).unwrap();
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, chessd::store::SCHEMA_VERSION);
    let last: String = conn
        .query_row(
            "SELECT body FROM events WHERE game_id = ?1 AND seq = 4",
            [id],
            |r| r.get(0),
        )
        .unwrap();
    assert!(last.contains("w:resignation"), "{last:?}");
    drop(conn);
    // And it loads again from schema 5.
    let server = Server::start(&data, &[]);
    let mut client = server.client().await;
    assert_eq!(support::get(&mut client, id).await.outcome, Some(outcome));
    assert!(server.terminate().success());
}

/// A schema 4 game that does not play back (here a move that is not legal where it stands)
/// stops the server at start with one line naming the game and the event, and exit code 1;
/// the migration's transaction is rolled back, so the file is still schema 4 with its events
/// in columns, as the build before schema 5 reads it. No flag skips the game.
#[test]
fn a_schema_4_game_that_does_not_replay_stops_the_migration() {
    let dir = DataDir::new("legacy-bad-game");
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let path = data.join("chessd.db");
    let id = "06H2VNYWZK5VP";
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
        conn.execute_batch(include_str!("fixtures/schema4.sql"))
            .unwrap();
        conn.execute(
            "INSERT INTO games (id, variant, start_fen, white, black, draw_rule, created_at_ms)
             VALUES (?1, 'chess', ?2, 'ann', 'bob', 0, 1)",
            rusqlite::params![
                id,
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            ],
        )
        .unwrap();
        conn.execute_batch(&format!(
            "INSERT INTO events (game_id, seq, at_ms, kind, seat, mv, clocks_stopped)
                 VALUES ('{id}', 1, 2, 0, 0, 'e2e4', 0);
             INSERT INTO events (game_id, seq, at_ms, kind, seat, mv, clocks_stopped)
                 VALUES ('{id}', 2, 3, 0, 1, 'e7e4', 0);"
        ))
        .unwrap();
    }
    let (status, output) = support::start_failing(&data, &[]);
    assert_eq!(status.code(), Some(1), "output: {output}");
    for said in [
        "cannot migrate the database",
        "to schema 5",
        &format!("game {id}: event 2: e7e4"),
        "nothing was changed",
    ] {
        assert!(output.contains(said), "no {said:?} in: {output}");
    }
    let conn = rusqlite::Connection::open(&path).unwrap();
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, 4, "nothing was changed");
    let moves: Vec<String> = conn
        .prepare("SELECT mv FROM events WHERE game_id = ?1 ORDER BY seq")
        .unwrap()
        .query_map([id], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(moves, ["e2e4", "e7e4"], "the events keep their columns");
}

/// A game of schema 6 with every header column set (draw rule and takebacks by number, labels,
/// a bound player, per-side times, a clock start, a first-move timer, a claim grace), and its
/// feed event as schema 6's build wrote it: the file is migrated to schema 7 at start, the game
/// loads as it was (before and after a restart), and its enums are stored by key.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_6_database_is_migrated() {
    let dir = DataDir::new("legacy-header");
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let id = "06H2VNYWZK5VP";
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    {
        let conn = rusqlite::Connection::open(data.join("chessd.db")).unwrap();
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
        conn.execute_batch(include_str!("fixtures/schema6.sql"))
            .unwrap();
        conn.execute(
            "INSERT INTO games (id, variant, start_fen, white, black, initial_ms, increment_ms,
                 draw_rule, white_digest, black_digest, created_at_ms, request_id, labels,
                 white_player_id, black_player_id, black_initial_ms, black_increment_ms,
                 clock_start, first_move_timeout_ms, takebacks, claim_after_ms)
             VALUES (?1, 'chess', ?2, 'ann', 'bob', 180000, 2000, 1, x'', zeroblob(32), ?3,
                 'req-1', ?4, 'ann-1', NULL, 60000, NULL, 'first-moves', 3600000, 1, 45000)",
            rusqlite::params![id, fen, now_ms, "round\u{1f}2"],
        )
        .unwrap();
        // Its creation's feed event, as schema 6's build wrote it.
        let body = [
            "k",
            "c",
            "at",
            &now_ms.to_string(),
            "g",
            id,
            "v",
            "chess",
            "s",
            fen,
            "w",
            "ann",
            "b",
            "bob",
            "dr",
            "automatic",
            "ca",
            &now_ms.to_string(),
            "cl",
            "45000",
            "wi",
            "ann-1",
            "l",
            "round\u{1f}2",
            "tc",
            "180000+2000",
            "tcbi",
            "60000",
            "cs",
            "first-moves",
            "fm",
            "3600000",
        ]
        .join("\u{1e}");
        conn.execute(
            "INSERT INTO feed (pos, at_ms, game_id, body) VALUES (1, ?1, ?2, ?3)",
            rusqlite::params![now_ms, id, body],
        )
        .unwrap();
        conn.execute("INSERT INTO meta (key, value) VALUES ('feed_last', 1)", [])
            .unwrap();
    }
    let check = |game: &pb::Game| {
        assert_eq!(game.draw_rule, pb::DrawRule::Automatic as i32);
        assert_eq!(game.takebacks, pb::TakebackPolicy::OnRequest as i32);
        assert_eq!(game.labels.get("round").map(String::as_str), Some("2"));
        assert_eq!(
            (game.white_player_id.as_str(), game.black_player_id.as_str()),
            ("ann-1", "")
        );
        let tc = game.time_control.as_ref().expect("a time control");
        assert_eq!(tc.initial.unwrap().seconds, 180);
        assert_eq!(tc.increment.unwrap().seconds, 2);
        assert_eq!(tc.black_initial.unwrap().seconds, 60);
        assert_eq!(tc.black_increment, None);
        assert_eq!(game.clock_start, pb::ClockStart::AfterFirstMoves as i32);
        assert!(game.first_move_deadline.is_some());
        assert_eq!(game.start_fen, fen);
    };
    let server = Server::start(&data, &[]);
    let mut client = server.client().await;
    let game = support::get(&mut client, id).await;
    check(&game);
    assert!(server.terminate().success());
    let conn = rusqlite::Connection::open(data.join("chessd.db")).unwrap();
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, chessd::store::SCHEMA_VERSION);
    let keys: (String, String) = conn
        .query_row(
            "SELECT draw_rule, takebacks FROM games WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(keys, ("automatic".to_owned(), "on-request".to_owned()));
    drop(conn);
    // And it loads again from schema 7, its feed event with it.
    let server = Server::start(&data, &[]);
    let mut client = server.client().await;
    let again = support::get(&mut client, id).await;
    check(&again);
    assert_eq!(again.created_at, game.created_at);
    assert!(server.terminate().success());
}
