//! API keys for backend calls (`--api-key-file`), their rotation without a restart, and
//! `--private-watch`.

use chessd::ServerConfig;
use chessd::proto as pb;
use tonic::{Code, Request};

use crate::TempDir;
use crate::support::{self, Client, TestServer, assert_refused, authed};

const KEY_A: &str = "platform-a-0123456789abcdef0123456789";
const KEY_B: &str = "platform-b-fedcba9876543210fedcba98765432";

fn keyed<T>(msg: T, key: &str) -> Request<T> {
    let mut request = Request::new(msg);
    request
        .metadata_mut()
        .insert("x-api-key", key.parse().unwrap());
    request
}

fn chess() -> pb::CreateGameRequest {
    pb::CreateGameRequest {
        variant: pb::Variant::Chess as i32,
        ..Default::default()
    }
}

async fn start(dir: &TempDir, keys: &str, private_watch: bool) -> TestServer {
    let mut config = ServerConfig::default();
    config.security.api_key_file = Some(dir.write("keys", keys));
    config.security.private_watch = private_watch;
    support::start_with(config).await
}

async fn create(client: &mut Client, key: &str) -> support::Seats {
    let created = client
        .create_game(keyed(chess(), key))
        .await
        .expect("create with a key")
        .into_inner();
    support::Seats {
        id: created.game.unwrap().game_id,
        white: created.white_token,
        black: created.black_token,
    }
}

/// Backend calls need a key in force (x-api-key or bearer); players need only their tokens.
#[tokio::test]
async fn backend_calls_need_a_key() {
    let dir = TempDir::new("keys");
    let server = start(&dir, &format!("# platform A\n{KEY_A}\n\n{KEY_B}\n"), false).await;
    let mut client = server.client().await;

    let missing = assert_refused(
        client.create_game(chess()).await,
        Code::Unauthenticated,
        "API_KEY_MISSING",
    );
    assert!(
        missing.message().contains("x-api-key"),
        "{}",
        missing.message()
    );
    assert_refused(
        client.list_games(pb::ListGamesRequest::default()).await,
        Code::Unauthenticated,
        "API_KEY_MISSING",
    );
    assert_refused(
        client.get_stats(pb::GetStatsRequest::default()).await,
        Code::Unauthenticated,
        "API_KEY_MISSING",
    );
    assert_refused(
        client
            .create_game(keyed(chess(), "platform-c-not-a-key-at-all-000000"))
            .await,
        Code::Unauthenticated,
        "API_KEY_INVALID",
    );
    // A seat token is not an API key.
    let seats = create(&mut client, KEY_A).await;
    assert_refused(
        client.create_game(authed(chess(), &seats.white)).await,
        Code::Unauthenticated,
        "API_KEY_INVALID",
    );
    // Bearer works for backend calls, and both keys are in force.
    client
        .list_games(authed(pb::ListGamesRequest::default(), KEY_B))
        .await
        .expect("bearer key");
    client
        .get_stats(keyed(pb::GetStatsRequest::default(), KEY_B))
        .await
        .expect("x-api-key");
    // Players and watchers need no key.
    support::play(&mut client, &seats, 'w', "e4").await;
    assert_eq!(support::get(&mut client, &seats.id).await.ply, 1);
    server.shutdown().await.unwrap();
}

/// Rewriting the key file rotates keys without a restart (SIGHUP or the file change).
#[tokio::test]
async fn keys_rotate_without_a_restart() {
    let dir = TempDir::new("rotate");
    let server = start(&dir, &format!("{KEY_A}\n"), false).await;
    let mut client = server.client().await;
    create(&mut client, KEY_A).await;
    dir.write("keys", &format!("# rotated\n{KEY_B}\n"));
    let pid = std::process::id().to_string();
    let sent = std::process::Command::new("kill")
        .args(["-HUP", &pid])
        .status()
        .unwrap();
    assert!(sent.success());
    let mut rotated = false;
    for _ in 0..200 {
        if client.create_game(keyed(chess(), KEY_B)).await.is_ok() {
            rotated = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(rotated, "the new key was never accepted");
    assert_refused(
        client.create_game(keyed(chess(), KEY_A)).await,
        Code::Unauthenticated,
        "API_KEY_INVALID",
    );
    server.shutdown().await.unwrap();
}

/// With --private-watch, reading a game needs one of its seat tokens or an API key.
#[tokio::test]
async fn private_watch() {
    let dir = TempDir::new("private");
    let server = start(&dir, &format!("{KEY_A}\n"), true).await;
    let mut client = server.client().await;
    let seats = create(&mut client, KEY_A).await;
    let other = create(&mut client, KEY_A).await;
    let get = |id: &str| pb::GetGameRequest { game_id: id.into() };
    let watch = |id: &str| pb::WatchGameRequest {
        game_id: id.into(),
        after_seq: 0,
    };

    assert_refused(
        client.get_game(get(&seats.id)).await,
        Code::Unauthenticated,
        "CREDENTIALS_MISSING",
    );
    assert_refused(
        client.watch_game(watch(&seats.id)).await,
        Code::Unauthenticated,
        "CREDENTIALS_MISSING",
    );
    assert_refused(
        client
            .export_pgn(pb::ExportPgnRequest {
                game_id: seats.id.clone(),
            })
            .await,
        Code::Unauthenticated,
        "CREDENTIALS_MISSING",
    );
    assert_refused(
        client.get_game(authed(get(&seats.id), &other.white)).await,
        Code::PermissionDenied,
        "NOT_A_PLAYER",
    );
    assert_refused(
        client
            .watch_game(authed(watch(&seats.id), &other.black))
            .await,
        Code::PermissionDenied,
        "NOT_A_PLAYER",
    );
    client
        .get_game(authed(get(&seats.id), &seats.black))
        .await
        .expect("a player reads its game");
    client
        .watch_game(authed(watch(&seats.id), &seats.white))
        .await
        .expect("a player watches its game");
    client
        .watch_game(keyed(watch(&seats.id), KEY_A))
        .await
        .expect("a backend watches any game");
    server.shutdown().await.unwrap();
}

/// A missing or keyless key file stops the binary with one line naming the flag.
#[test]
fn bad_key_files_stop_the_server() {
    let dir = TempDir::new("keys-bad");
    let empty = dir.write("empty", "# no keys yet\n");
    let short = dir.write("short", "abc\n");
    let missing = dir.path().join("missing");
    for (path, expected) in [
        (&missing, "cannot read"),
        (&empty, "no key"),
        (&short, "line 1"),
    ] {
        let (status, output) = crate::start_failing(&["--api-key-file", path.to_str().unwrap()]);
        assert!(!status.success());
        assert!(output.contains("--api-key-file"), "{output}");
        assert!(output.contains(expected), "{output}");
        assert!(!output.contains("abc"), "the key is echoed: {output}");
    }
}

/// With --private-watch and no key file, games are readable only with their seat tokens, and
/// the list of every game is closed (no key can open it).
#[tokio::test]
async fn private_watch_without_keys() {
    let mut config = ServerConfig::default();
    config.security.private_watch = true;
    let server = support::start_with(config).await;
    let mut client = server.client().await;
    let (_, seats) = support::create(&mut client, "chess", "").await;
    assert_refused(
        client.list_games(pb::ListGamesRequest::default()).await,
        Code::Unauthenticated,
        "API_KEY_MISSING",
    );
    assert_refused(
        client
            .get_game(pb::GetGameRequest {
                game_id: seats.id.clone(),
            })
            .await,
        Code::Unauthenticated,
        "CREDENTIALS_MISSING",
    );
    client
        .get_game(authed(
            pb::GetGameRequest {
                game_id: seats.id.clone(),
            },
            &seats.white,
        ))
        .await
        .expect("a player reads its game");
    server.shutdown().await.unwrap();
}

/// AdjustClock is an arbiter's call: with API keys it needs one, and a seat token is no key;
/// with a key in force it changes the clock.
#[tokio::test]
async fn the_arbiter_needs_a_key() {
    let dir = TempDir::new("arbiter");
    let server = start(&dir, &format!("{KEY_A}\n"), false).await;
    let mut client = server.client().await;
    let created = client
        .create_game(keyed(
            pb::CreateGameRequest {
                time_control: Some(pb::TimeControl {
                    initial: Some(prost_types::Duration {
                        seconds: 300,
                        nanos: 0,
                    }),
                    ..Default::default()
                }),
                ..chess()
            },
            KEY_A,
        ))
        .await
        .unwrap()
        .into_inner();
    let id = created.game.unwrap().game_id;
    let adjust = || pb::AdjustClockRequest {
        game_id: id.clone(),
        side: pb::Color::Black as i32,
        change: Some(pb::adjust_clock_request::Change::SetRemaining(
            prost_types::Duration {
                seconds: 10,
                nanos: 0,
            },
        )),
    };
    assert_refused(
        client.adjust_clock(adjust()).await,
        Code::Unauthenticated,
        "API_KEY_MISSING",
    );
    assert_refused(
        client
            .adjust_clock(authed(adjust(), &created.white_token))
            .await,
        Code::Unauthenticated,
        "API_KEY_INVALID",
    );
    let game = client
        .adjust_clock(keyed(adjust(), KEY_A))
        .await
        .expect("the arbiter's change")
        .into_inner()
        .game
        .unwrap();
    let black = game.clocks.unwrap().black_remaining.unwrap();
    assert_eq!(black.seconds, 10);
    // A seat's own call needs no key: time given.
    client
        .add_time(authed(
            pb::AddTimeRequest {
                game_id: id.clone(),
                amount: None,
            },
            &created.white_token,
        ))
        .await
        .expect("a seat gives time without a key");
}
