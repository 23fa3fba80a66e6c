//! Games stored by schema 4 (an event's fields in columns, its kind, seat and termination by
//! number): the file is migrated to schema 5 at start and its games load as they were.

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
