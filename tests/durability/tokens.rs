//! Seat tokens on disk: the database holds their digests only, and a schema 1 database (tokens
//! in clear) is migrated at start so its seats still open with their old tokens.

use crate::support::{self, DataDir, Server};

/// The schema chessd 1 wrote, tokens in clear (kept here as the migration's input).
const SCHEMA_V1: &str = "
CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE games (
    id TEXT PRIMARY KEY, variant TEXT NOT NULL, start_fen TEXT NOT NULL, white TEXT NOT NULL,
    black TEXT NOT NULL, initial_ms INTEGER, increment_ms INTEGER, draw_rule INTEGER NOT NULL,
    white_token TEXT NOT NULL, black_token TEXT NOT NULL, created_at_ms INTEGER NOT NULL,
    request_id TEXT, ended_at_ms INTEGER
) WITHOUT ROWID;
CREATE INDEX games_ended ON games (ended_at_ms) WHERE ended_at_ms IS NOT NULL;
CREATE TABLE events (
    game_id TEXT NOT NULL, seq INTEGER NOT NULL, at_ms INTEGER NOT NULL, kind INTEGER NOT NULL,
    seat INTEGER, mv TEXT, request_id TEXT, log_white_ms INTEGER, log_black_ms INTEGER,
    clocks_stopped INTEGER, white_ms INTEGER, black_ms INTEGER, winner INTEGER,
    termination INTEGER, PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE stats (
    variant TEXT PRIMARY KEY, white_wins INTEGER NOT NULL, black_wins INTEGER NOT NULL,
    draws INTEGER NOT NULL
) WITHOUT ROWID;
PRAGMA user_version = 1;
";

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Every byte of the database and its WAL (whatever exists of them).
fn file_bytes(dir: &std::path::Path) -> Vec<u8> {
    let mut all = Vec::new();
    for name in ["chessd.db", "chessd.db-wal", "chessd.db-journal"] {
        if let Ok(bytes) = std::fs::read(dir.join(name)) {
            all.extend(bytes);
        }
    }
    all
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// The token's 16 bytes, from its 32 hex digits.
fn raw(token: &str) -> Vec<u8> {
    (0..token.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&token[i..i + 2], 16).unwrap())
        .collect()
}

/// Neither the text nor the bytes of a seat token reach the file, while the seats still open
/// with them after a crash.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_digests_reach_the_disk() {
    let dir = DataDir::new("digests");
    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let seats = support::create(&mut client, support::chess("ann", "bob")).await;
    support::play(&mut client, &seats, 0, "e2e4", "")
        .await
        .expect("move");
    server.kill();

    let bytes = file_bytes(dir.path());
    assert!(contains(&bytes, seats.id.as_bytes()), "the game is on disk");
    for token in [&seats.white, &seats.black] {
        assert!(!contains(&bytes, token.as_bytes()), "clear token on disk");
        assert!(!contains(&bytes, &raw(token)), "raw token bytes on disk");
    }

    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let played = support::play(&mut client, &seats, 1, "e7e5", "")
        .await
        .expect("black's token still opens its seat");
    assert_eq!(played.game.unwrap().ply, 2);
    let white = support::play(&mut client, &seats, 2, "Nf3", "").await;
    assert!(white.is_ok(), "white's too: {white:?}");
}

/// A schema 1 database is migrated: the old clear tokens still open their seats, the file no
/// longer contains them anywhere, and its schema version is the current one (3, through 2).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schema_1_tokens_are_hashed_on_start() {
    let dir = DataDir::new("migrate");
    let path = dir.path().join("chessd.db");
    let (white, black) = (
        "0123456789abcdef0123456789abcdef",
        "fedcba9876543210fedcba9876543210",
    );
    let id = "06H2VNYWZK5VP";
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
        conn.execute_batch(SCHEMA_V1).unwrap();
        conn.execute(
            "INSERT INTO games (id, variant, start_fen, white, black, draw_rule, white_token,
                 black_token, created_at_ms) VALUES (?1, 'chess', ?2, 'ann', 'bob', 0, ?3, ?4, 1)",
            rusqlite::params![id, START, white, black],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO events (game_id, seq, at_ms, kind, seat, mv, clocks_stopped)
             VALUES (?1, 1, 2, 0, 0, 'e2e4', 0)",
            [id],
        )
        .unwrap();
    }
    assert!(contains(&file_bytes(dir.path()), white.as_bytes()));

    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let bytes = file_bytes(dir.path());
    for token in [white, black] {
        assert!(!contains(&bytes, token.as_bytes()), "clear token left");
    }
    let seats = support::Seats {
        id: id.into(),
        white: white.into(),
        black: black.into(),
    };
    assert_eq!(support::get(&mut client, id).await.ply, 1);
    let played = support::play(&mut client, &seats, 1, "c7c5", "")
        .await
        .expect("the old black token plays");
    assert_eq!(played.game.unwrap().ply, 2);
    let status = server.terminate();
    assert!(status.success(), "{status}");

    let conn = rusqlite::Connection::open(&path).unwrap();
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, chessd::store::SCHEMA_VERSION);
    let mut columns = conn
        .prepare("SELECT name FROM pragma_table_info('games')")
        .unwrap();
    let names: Vec<String> = columns
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(names.contains(&"white_digest".to_string()), "{names:?}");
    // Schema 4's clock columns, added by the last migration.
    assert!(names.contains(&"clock_start".to_string()), "{names:?}");
    assert!(
        names.contains(&"first_move_timeout_ms".to_string()),
        "{names:?}"
    );
    assert!(!names.iter().any(|n| n.ends_with("_token")), "{names:?}");
}

/// A schema 1 database with a malformed token is refused with one line, and left at schema 1
/// with its tokens.
#[test]
fn unmigratable_database_is_refused_and_kept() {
    let dir = DataDir::new("migrate-bad");
    let path = dir.path().join("chessd.db");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(SCHEMA_V1).unwrap();
        conn.execute(
            "INSERT INTO games (id, variant, start_fen, white, black, draw_rule, white_token,
                 black_token, created_at_ms)
             VALUES ('06H2VNYWZK5VP', 'chess', ?1, 'ann', 'bob', 0, 'not-a-token', 'x', 1)",
            [START],
        )
        .unwrap();
    }
    let (status, output) = support::start_failing(dir.path(), &[]);
    assert!(!status.success());
    assert!(output.contains("cannot migrate"), "output: {output}");
    assert!(output.contains("malformed seat token"), "output: {output}");
    let conn = rusqlite::Connection::open(&path).unwrap();
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, 1, "nothing was changed");
    let token: String = conn
        .query_row("SELECT white_token FROM games", [], |r| r.get(0))
        .unwrap();
    assert_eq!(token, "not-a-token");
}
