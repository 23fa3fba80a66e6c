//! Games stored before terminations had keys: a schema 4 file whose finished game holds its
//! termination as an index (as every build wrote it until then) still loads, with the same
//! outcome, and games finished from then on are written by key.

use chessd::proto as pb;

use crate::support::{self, DataDir, Server};

/// A finished game written with the termination's index reads back with its termination.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_termination_stored_by_index_still_loads() {
    let dir = DataDir::new("legacy-termination");
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    // A schema 4 file as this build creates it, then a game as the previous build wrote it.
    let server = Server::start(&data, &[]);
    assert!(server.terminate().success());
    let id = "06H2VNYWZK5VP";
    {
        let conn = rusqlite::Connection::open(data.join("chessd.db")).unwrap();
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
        // A move, then Black resigns: winner 0 (White), termination 6 (Resignation).
        conn.execute_batch(&format!(
            "INSERT INTO events (game_id, seq, at_ms, kind, seat, mv, clocks_stopped)
                 VALUES ('{id}', 1, 2, 0, 0, 'e2e4', 0);
             INSERT INTO events (game_id, seq, at_ms, kind, seat, winner, termination)
                 VALUES ('{id}', 2, 3, 3, 1, 0, 6);"
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
}
