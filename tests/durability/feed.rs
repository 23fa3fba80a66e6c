//! The feed (WatchGames) and player tokens across a restart: a consumer killed with the server
//! resumes from its last cursor and sees every later event exactly once, in order; a player
//! token, kept on disk only as a digest, still opens its seats after a crash, and a revocation
//! survives one. A schema 2 database (before all this) is migrated.

use std::time::Duration;

use chessd::proto::{self as pb, watch_games_response::Event};
use tonic::{Request, Streaming};

use crate::support::{self, DataDir, Server, authed};

const KEY: &str = "platform-key-0123456789abcdef0123456789";

async fn next(stream: &mut Streaming<pb::WatchGamesResponse>) -> pb::WatchGamesResponse {
    tokio::time::timeout(Duration::from_secs(20), stream.message())
        .await
        .expect("a feed message within 20 s")
        .expect("the feed goes on")
        .expect("the feed is open")
}

/// The next event, heartbeats skipped.
async fn next_event(stream: &mut Streaming<pb::WatchGamesResponse>) -> pb::WatchGamesResponse {
    loop {
        let m = next(stream).await;
        if !matches!(m.event, Some(Event::Heartbeat(_))) {
            return m;
        }
    }
}

/// `created ID` or `finished ID RESULT`.
fn what(m: &pb::WatchGamesResponse) -> String {
    match &m.event {
        Some(Event::GameCreated(c)) => format!("created {}", c.game.as_ref().unwrap().game_id),
        Some(Event::GameFinished(f)) => format!(
            "finished {} {}",
            f.game.as_ref().unwrap().game_id,
            f.outcome.as_ref().unwrap().pgn_result
        ),
        other => format!("{other:?}"),
    }
}

async fn resign(client: &mut support::Client, game_id: &str, token: &str) {
    let request = pb::ResignRequest {
        game_id: game_id.into(),
    };
    client.resign(authed(request, token)).await.unwrap();
}

/// Killed with its server, a consumer comes back to the restarted server with the last cursor
/// it got: the events it had not read, from before and after the crash, arrive exactly once
/// and in order, and then only heartbeats.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_consumer_resumes_across_a_restart() {
    let dir = DataDir::new("feed");
    let quick = ["--heartbeat", "200ms"];
    let server = Server::start(dir.path(), &quick);
    let mut client = server.client().await;
    let mut feed = client
        .watch_games(pb::WatchGamesRequest::default())
        .await
        .unwrap()
        .into_inner();
    let a = support::create(&mut client, support::chess("a", "b")).await;
    resign(&mut client, &a.id, &a.black).await;
    let b = support::create(&mut client, support::chess("c", "d")).await;
    let first = next_event(&mut feed).await;
    assert_eq!(what(&first), format!("created {}", a.id));
    server.kill();

    let server = Server::start(dir.path(), &quick);
    let mut client = server.client().await;
    let c = support::create(&mut client, support::chess("e", "f")).await;
    resign(&mut client, &b.id, &b.white).await;
    let mut resumed = client
        .watch_games(pb::WatchGamesRequest {
            after_cursor: first.cursor.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let mut got = Vec::new();
    for _ in 0..4 {
        got.push(what(&next_event(&mut resumed).await));
    }
    assert_eq!(
        got,
        [
            format!("finished {} 1-0", a.id),
            format!("created {}", b.id),
            format!("created {}", c.id),
            format!("finished {} 0-1", b.id),
        ]
    );
    // Nothing twice: what follows is a heartbeat, whose cursor also resumes after all four.
    let beat = next(&mut resumed).await;
    assert!(matches!(beat.event, Some(Event::Heartbeat(_))), "{beat:?}");
    let mut after_beat = client
        .watch_games(pb::WatchGamesRequest {
            after_cursor: beat.cursor,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let quiet = next(&mut after_beat).await;
    assert!(
        matches!(quiet.event, Some(Event::Heartbeat(_))),
        "{quiet:?}"
    );
}

fn keyed<T>(msg: T) -> Request<T> {
    let mut request = Request::new(msg);
    request
        .metadata_mut()
        .insert("x-api-key", KEY.parse().unwrap());
    request
}

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

/// A player token reaches the disk only as a digest, opens its seat again after a crash, and
/// a token revoked before a crash stays revoked after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn player_tokens_survive_a_crash_as_digests() {
    let dir = DataDir::new("players");
    let keys = dir.path().join("keys");
    std::fs::write(&keys, format!("{KEY}\n")).unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let flags = ["--api-key-file", keys.to_str().unwrap()];
    let server = Server::start(&data, &flags);
    let mut client = server.client().await;
    let issue = |client: &mut support::Client| {
        let mut client = client.clone();
        async move {
            client
                .issue_player_token(keyed(pb::IssuePlayerTokenRequest {
                    player_id: "bot-1".into(),
                }))
                .await
                .unwrap()
                .into_inner()
        }
    };
    let kept = issue(&mut client).await;
    let revoked = issue(&mut client).await;
    client
        .revoke_player_token(keyed(pb::RevokePlayerTokenRequest {
            target: Some(pb::revoke_player_token_request::Target::TokenId(
                revoked.token_id.clone(),
            )),
        }))
        .await
        .unwrap();
    let game = client
        .create_game(keyed(pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            white_player_id: "bot-1".into(),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    let id = game.game.unwrap().game_id;
    server.kill();

    let bytes = file_bytes(&data);
    assert!(!bytes.is_empty());
    for token in [&kept.token, &revoked.token] {
        assert!(
            !bytes.windows(token.len()).any(|w| w == token.as_bytes()),
            "a player token in clear on disk"
        );
        let hex = &token["chp_".len()..];
        let raw: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        assert!(
            !bytes.windows(raw.len()).any(|w| w == raw.as_slice()),
            "a player token's bytes on disk"
        );
    }

    let server = Server::start(&data, &flags);
    let mut client = server.client().await;
    let mv = |token: &str| {
        authed(
            pb::SubmitMoveRequest {
                game_id: id.clone(),
                r#move: "e2e4".into(),
                ..Default::default()
            },
            token,
        )
    };
    let refused = client.submit_move(mv(&revoked.token)).await.unwrap_err();
    assert_eq!(crate::common::reason(&refused), "TOKEN_INVALID");
    client.submit_move(mv(&kept.token)).await.unwrap();
}

/// The schema chessd wrote before the feed (2: seat token digests, no labels, player ids,
/// feed or player tokens), kept here as the migration's input.
const SCHEMA_V2: &str = "
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    initial_ms INTEGER,
    increment_ms INTEGER,
    draw_rule INTEGER NOT NULL,
    created_at_ms INTEGER NOT NULL,
    request_id TEXT,
    ended_at_ms INTEGER,
    white_digest BLOB NOT NULL DEFAULT x'',
    black_digest BLOB NOT NULL DEFAULT x''
) WITHOUT ROWID;
CREATE INDEX games_ended ON games (ended_at_ms) WHERE ended_at_ms IS NOT NULL;
CREATE TABLE events (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    at_ms INTEGER NOT NULL,
    kind INTEGER NOT NULL,
    seat INTEGER,
    mv TEXT,
    request_id TEXT,
    log_white_ms INTEGER,
    log_black_ms INTEGER,
    clocks_stopped INTEGER,
    white_ms INTEGER,
    black_ms INTEGER,
    winner INTEGER,
    termination INTEGER,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE stats (
    variant TEXT PRIMARY KEY,
    white_wins INTEGER NOT NULL,
    black_wins INTEGER NOT NULL,
    draws INTEGER NOT NULL
) WITHOUT ROWID;
PRAGMA user_version = 2;
";

/// A schema 2 database is migrated to 3 at start: its game comes back as it was (no labels,
/// no bound players), and the new parts work on it: a labelled game, a player token, the
/// feed from a cursor across another restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_2_database_is_migrated() {
    let dir = DataDir::new("schema2");
    let keys = dir.path().join("keys");
    std::fs::write(&keys, format!("{KEY}\n")).unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let id = "06H2VNYWZK5VP";
    {
        let conn = rusqlite::Connection::open(data.join("chessd.db")).unwrap();
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
        conn.execute_batch(SCHEMA_V2).unwrap();
        conn.execute(
            "INSERT INTO games (id, variant, start_fen, white, black, draw_rule, created_at_ms,
                 white_digest, black_digest)
             VALUES (?1, 'chess', ?2, 'ann', 'bob', 0, 1, zeroblob(32), zeroblob(32))",
            rusqlite::params![
                id,
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            ],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO events (game_id, seq, at_ms, kind, seat, mv, clocks_stopped)
             VALUES (?1, 1, 2, 0, 0, 'e2e4', 0)",
            [id],
        )
        .unwrap();
    }
    let flags = [
        "--api-key-file",
        keys.to_str().unwrap(),
        "--heartbeat",
        "200ms",
    ];
    let server = Server::start(&data, &flags);
    let mut client = server.client().await;
    let old = support::get(&mut client, id).await;
    assert_eq!((old.ply, old.white_player.as_str()), (1, "ann"));
    assert!(old.labels.is_empty() && old.white_player_id.is_empty());
    let token = client
        .issue_player_token(keyed(pb::IssuePlayerTokenRequest {
            player_id: "bot-1".into(),
        }))
        .await
        .unwrap()
        .into_inner()
        .token;
    let mut feed = client
        .watch_games(keyed(pb::WatchGamesRequest::default()))
        .await
        .unwrap()
        .into_inner();
    let beat = next(&mut feed).await;
    assert!(matches!(beat.event, Some(Event::Heartbeat(_))), "{beat:?}");
    let game = client
        .create_game(keyed(pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            white_player_id: "bot-1".into(),
            labels: [("round".to_owned(), "1".to_owned())].into(),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    let new_id = game.game.unwrap().game_id;
    let status = server.terminate();
    assert!(status.success(), "{status}");
    let conn = rusqlite::Connection::open(data.join("chessd.db")).unwrap();
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, chessd::store::SCHEMA_VERSION);
    drop(conn);

    let server = Server::start(&data, &flags);
    let mut client = server.client().await;
    let mut resumed = client
        .watch_games(keyed(pb::WatchGamesRequest {
            after_cursor: beat.cursor,
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        what(&next_event(&mut resumed).await),
        format!("created {new_id}")
    );
    let labelled = support::get(&mut client, &new_id).await;
    assert_eq!(labelled.labels["round"], "1");
    client
        .submit_move(authed(
            pb::SubmitMoveRequest {
                game_id: new_id,
                r#move: "e2e4".into(),
                ..Default::default()
            },
            &token,
        ))
        .await
        .unwrap();
}
