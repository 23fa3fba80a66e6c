//! Player credentials: IssuePlayerToken and RevokePlayerToken (only where API keys are), seats
//! bound to player ids and played with the player's token, the seat GetGame reports, and a
//! bot that learns its games from WatchGames. On every store.

use std::time::Duration;

use chessd::ServerConfig;
use chessd::proto::{self as pb, watch_games_response::Event};
use tonic::{Code, Request, Streaming};

use crate::feed::{next_feed, next_message};
use crate::support::*;

const KEY: &str = "platform-key-0123456789abcdef0123456789";

/// A file with the platform's API key, removed when dropped.
struct KeyFile(std::path::PathBuf);

impl KeyFile {
    fn new() -> KeyFile {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let path = std::env::temp_dir().join(format!(
            "chessd-players-{}-{nanos}.keys",
            std::process::id()
        ));
        std::fs::write(&path, format!("{KEY}\n")).unwrap();
        KeyFile(path)
    }
}

impl Drop for KeyFile {
    fn drop(&mut self) {
        // Best effort: a leftover temporary file is harmless.
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A server with API keys (and so player tokens), quick heartbeats.
async fn keyed_server() -> (TestServer, KeyFile) {
    let keys = KeyFile::new();
    let mut config = ServerConfig::default();
    config.security.api_key_file = Some(keys.0.clone());
    config.heartbeat = Duration::from_millis(200);
    (start_with(config).await, keys)
}

fn keyed<T>(msg: T) -> Request<T> {
    let mut request = Request::new(msg);
    request
        .metadata_mut()
        .insert("x-api-key", KEY.parse().unwrap());
    request
}

async fn issue(client: &mut Client, player: &str) -> pb::IssuePlayerTokenResponse {
    client
        .issue_player_token(keyed(pb::IssuePlayerTokenRequest {
            player_id: player.into(),
        }))
        .await
        .unwrap_or_else(|s| panic!("issue a token for {player}: {}", s.message()))
        .into_inner()
}

/// A game with the given seats bound (empty: not bound), created with the API key.
async fn bound(client: &mut Client, white_id: &str, black_id: &str) -> pb::CreateGameResponse {
    client
        .create_game(keyed(pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            white_player_id: white_id.into(),
            black_player_id: black_id.into(),
            ..Default::default()
        }))
        .await
        .unwrap_or_else(|s| panic!("create: {}", s.message()))
        .into_inner()
}

async fn player_feed(client: &mut Client, token: &str) -> Streaming<pb::WatchGamesResponse> {
    client
        .watch_games(authed(pb::WatchGamesRequest::default(), token))
        .await
        .unwrap_or_else(|s| panic!("open the player's feed: {}", s.message()))
        .into_inner()
}

async fn submit(
    client: &mut Client,
    game_id: &str,
    mv: &str,
    token: &str,
) -> Result<pb::SubmitMoveResponse, tonic::Status> {
    let request = pb::SubmitMoveRequest {
        game_id: game_id.into(),
        r#move: mv.into(),
        ..Default::default()
    };
    client
        .submit_move(authed(request, token))
        .await
        .map(|r| r.into_inner())
}

fn created(m: &pb::WatchGamesResponse) -> (String, i32) {
    match &m.event {
        Some(Event::GameCreated(c)) => (c.game.as_ref().unwrap().game_id.clone(), c.seat),
        other => panic!("expected a GameCreated, got {other:?}"),
    }
}

/// Without --api-key-file nobody could tell who may mint a token for a player id: both calls
/// are refused, saying why, and a seat cannot be played with a player token.
#[tokio::test]
async fn refused_without_api_keys() {
    let server = start().await;
    let mut client = server.client().await;
    let issue = pb::IssuePlayerTokenRequest {
        player_id: "bot-1".into(),
    };
    let status = assert_refused(
        client.issue_player_token(issue).await,
        Code::FailedPrecondition,
        "PLAYER_TOKENS_DISABLED",
    );
    assert!(
        status.message().contains("--api-key-file"),
        "{}",
        status.message()
    );
    let revoke = pb::RevokePlayerTokenRequest {
        target: Some(pb::revoke_player_token_request::Target::PlayerId(
            "bot-1".into(),
        )),
    };
    assert_refused(
        client.revoke_player_token(revoke).await,
        Code::FailedPrecondition,
        "PLAYER_TOKENS_DISABLED",
    );
    let game = bound_open(&mut client).await;
    let fake = format!("chp_{}", "0".repeat(32));
    assert_refused(
        submit(&mut client, &game, "e2e4", &fake).await,
        Code::FailedPrecondition,
        "PLAYER_TOKENS_DISABLED",
    );
}

/// A game with White bound to `bot-1` on a server without API keys.
async fn bound_open(client: &mut Client) -> String {
    let (game, _) = create_with(
        client,
        pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            white_player_id: "bot-1".into(),
            ..Default::default()
        },
    )
    .await;
    game.game_id
}

/// A bot with nothing but its player token learns of the game already running when it
/// connects and of the two created for it afterwards (each with its colour), not of others',
/// plays all three with that token, and sees each of them end.
#[tokio::test]
async fn a_bot_discovers_its_games_and_plays_them() {
    let (server, _keys) = keyed_server().await;
    let mut backend = server.client().await;
    let mut bot = server.client().await;
    let issued = issue(&mut backend, "bot-1").await;
    assert!(issued.token.starts_with("chp_"), "{}", issued.token);
    assert_eq!(issued.player_id, "bot-1");
    let token = issued.token.clone();

    let running = bound(&mut backend, "bot-1", "").await;
    assert_eq!(
        running.white_token, "",
        "a bound seat gets no seat token by default"
    );
    assert!(!running.black_token.is_empty());
    let running_id = running.game.as_ref().unwrap().game_id.clone();
    assert_eq!(running.game.as_ref().unwrap().white_player_id, "bot-1");

    let mut feed = player_feed(&mut bot, &token).await;
    let first = next_message(&mut feed).await.unwrap();
    assert_eq!(
        created(&first),
        (running_id.clone(), pb::Color::White as i32)
    );
    assert_eq!(first.cursor, "", "a running game is not a feed event");
    let beat = next_message(&mut feed).await.unwrap();
    assert!(matches!(beat.event, Some(Event::Heartbeat(_))), "{beat:?}");
    assert!(!beat.cursor.is_empty(), "where the bot stands, at once");

    let _others = bound(&mut backend, "bot-2", "").await;
    let as_black = bound(&mut backend, "", "bot-1").await;
    let as_white = bound(&mut backend, "bot-1", "bot-3").await;
    let black_id = as_black.game.as_ref().unwrap().game_id.clone();
    let white_id = as_white.game.as_ref().unwrap().game_id.clone();
    // Two games created in the same millisecond may come in either order on Redis, whose
    // feed is one log per bucket merged by time (docs/api.md, the feed's order).
    let mut seen = Vec::new();
    for _ in 0..2 {
        let m = next_feed(&mut feed).await.unwrap();
        assert!(!m.cursor.is_empty());
        seen.push(created(&m));
    }
    seen.sort();
    let mut expected = vec![
        (black_id.clone(), pb::Color::Black as i32),
        (white_id.clone(), pb::Color::White as i32),
    ];
    expected.sort();
    assert_eq!(seen, expected);

    // GetGame says which seat the token holds (a probe), and nothing for a stranger.
    let probe = bot
        .get_game(authed(
            pb::GetGameRequest {
                game_id: black_id.clone(),
            },
            &token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(probe.seat, pb::Color::Black as i32);
    let anonymous = bot
        .get_game(pb::GetGameRequest {
            game_id: black_id.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(anonymous.seat, pb::Color::Unspecified as i32);

    // It plays each game with its one token.
    submit(&mut bot, &running_id, "e2e4", &token).await.unwrap();
    submit(&mut backend, &black_id, "e2e4", &as_black.white_token)
        .await
        .unwrap();
    submit(&mut bot, &black_id, "e7e5", &token).await.unwrap();
    submit(&mut bot, &white_id, "d2d4", &token).await.unwrap();
    // Not its turn, and not its seat: the token acts only for the bot's side.
    assert_refused(
        submit(&mut bot, &white_id, "d7d5", &token).await,
        Code::FailedPrecondition,
        "NOT_YOUR_TURN",
    );
    for id in [&running_id, &black_id, &white_id] {
        bot.resign(authed(
            pb::ResignRequest {
                game_id: id.clone(),
            },
            &token,
        ))
        .await
        .unwrap_or_else(|s| panic!("resign {id}: {}", s.message()));
    }
    let mut ended = Vec::new();
    while ended.len() < 3 {
        let m = next_feed(&mut feed).await.unwrap();
        match m.event {
            Some(Event::GameFinished(f)) => {
                ended.push((
                    f.game.unwrap().game_id,
                    f.seat,
                    f.outcome.unwrap().pgn_result,
                ));
            }
            other => panic!("expected a GameFinished, got {other:?}"),
        }
    }
    ended.sort();
    let mut expected = vec![
        (running_id, pb::Color::White as i32, "0-1".to_owned()),
        (black_id, pb::Color::Black as i32, "1-0".to_owned()),
        (white_id, pb::Color::White as i32, "0-1".to_owned()),
    ];
    expected.sort();
    assert_eq!(ended, expected);
}

/// A revoked token is refused on the next call and its open feed ends at once; the player's
/// other token goes on until it, too, is revoked (by player id).
#[tokio::test]
async fn a_revoked_token_is_refused_and_its_feed_ends() {
    let (server, _keys) = keyed_server().await;
    let mut backend = server.client().await;
    let mut bot = server.client().await;
    let first = issue(&mut backend, "bot-1").await;
    let second = issue(&mut backend, "bot-1").await;
    assert_ne!(first.token, second.token);
    assert_ne!(first.token_id, second.token_id);
    let game = bound(&mut backend, "bot-1", "").await;
    let id = game.game.unwrap().game_id;
    let mut feed = player_feed(&mut bot, &first.token).await;
    next_message(&mut feed).await.unwrap(); // the running game

    let revoked = backend
        .revoke_player_token(keyed(pb::RevokePlayerTokenRequest {
            target: Some(pb::revoke_player_token_request::Target::TokenId(
                first.token_id.clone(),
            )),
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(revoked.revoked, 1);
    assert_refused(
        submit(&mut bot, &id, "e2e4", &first.token).await,
        Code::Unauthenticated,
        "TOKEN_INVALID",
    );
    let ended = loop {
        match next_message(&mut feed).await {
            Ok(m) => assert!(matches!(m.event, Some(Event::Heartbeat(_))), "{m:?}"),
            Err(status) => break status,
        }
    };
    assert_eq!(ended.code(), Code::Unauthenticated, "{}", ended.message());
    assert_eq!(reason(&ended), "TOKEN_REVOKED");
    assert_refused(
        bot.watch_games(authed(pb::WatchGamesRequest::default(), &first.token))
            .await,
        Code::Unauthenticated,
        "TOKEN_INVALID",
    );

    submit(&mut bot, &id, "e2e4", &second.token).await.unwrap();
    let all = backend
        .revoke_player_token(keyed(pb::RevokePlayerTokenRequest {
            target: Some(pb::revoke_player_token_request::Target::PlayerId(
                "bot-1".into(),
            )),
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(all.revoked, 1, "only the second was still in force");
    assert_refused(
        bot.resign(authed(pb::ResignRequest { game_id: id }, &second.token))
            .await,
        Code::Unauthenticated,
        "TOKEN_INVALID",
    );
}

/// Another player's token acts for no seat of the game and reads no other player's feed;
/// a seat token minted for a bound seat keeps working beside the player's.
#[tokio::test]
async fn another_players_token_is_permission_denied() {
    let (server, _keys) = keyed_server().await;
    let mut backend = server.client().await;
    let mut bot = server.client().await;
    let mine = issue(&mut backend, "bot-1").await.token;
    let theirs = issue(&mut backend, "bot-2").await.token;
    let game = backend
        .create_game(keyed(pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            white_player_id: "bot-1".into(),
            bound_seat_tokens: true,
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    let id = game.game.unwrap().game_id;
    assert!(!game.white_token.is_empty(), "bound_seat_tokens mints one");
    assert_refused(
        submit(&mut bot, &id, "e2e4", &theirs).await,
        Code::PermissionDenied,
        "PLAYER_NOT_SEATED",
    );
    assert_refused(
        bot.abort(authed(
            pb::AbortRequest {
                game_id: id.clone(),
            },
            &theirs,
        ))
        .await,
        Code::PermissionDenied,
        "PLAYER_NOT_SEATED",
    );
    let spying = pb::WatchGamesRequest {
        player_id: "bot-1".into(),
        ..Default::default()
    };
    assert_refused(
        bot.watch_games(authed(spying, &theirs)).await,
        Code::PermissionDenied,
        "PLAYER_NOT_SEATED",
    );
    // A player-mode feed without a key, but no backend feed: that needs the API key.
    assert_refused(
        bot.watch_games(pb::WatchGamesRequest::default()).await,
        Code::Unauthenticated,
        "API_KEY_MISSING",
    );
    submit(&mut bot, &id, "e2e4", &game.white_token)
        .await
        .unwrap();
    submit(&mut bot, &id, "e7e5", &game.black_token)
        .await
        .unwrap();
    submit(&mut bot, &id, "g1f3", &mine).await.unwrap();
}
