//! Player credentials for the player-mode tests: a server with an API key (player tokens
//! exist only where API keys do), tokens issued and revoked with that key, and games whose
//! seat is bound to the bot's player with a random mover in the other seat.

use std::path::PathBuf;
use std::time::Duration;

use chessd_bot::proto as pb;
use tokio::task::JoinHandle;

use super::{Client, Server, random_mover};

pub const KEY: &str = "platform-key-0123456789abcdef0123456789";

/// A server with API keys; removes its key file when dropped.
pub struct Keyed {
    pub server: Server,
    pub client: Client,
    keys: PathBuf,
}

impl Drop for Keyed {
    fn drop(&mut self) {
        // Best effort: a leftover temporary file is harmless.
        let _ = std::fs::remove_file(&self.keys);
    }
}

fn keyed<T>(message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request
        .metadata_mut()
        .insert("x-api-key", KEY.parse().expect("key"));
    request
}

/// A game whose `bot_side` is bound to the bot's player, with a random mover on the other.
pub struct BoundGame {
    pub id: String,
    pub bot_side: pb::Color,
    random: JoinHandle<()>,
}

impl Drop for BoundGame {
    fn drop(&mut self) {
        self.random.abort();
    }
}

impl Keyed {
    /// A fresh server with one API key and quick heartbeats (the feed's cursor moves often).
    pub async fn start() -> Keyed {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("time")
            .as_nanos();
        let keys =
            std::env::temp_dir().join(format!("chessd-bot-keys-{}-{nanos}", std::process::id()));
        std::fs::write(&keys, format!("{KEY}\n")).expect("key file");
        let mut config = chessd::ServerConfig::default();
        config.security.api_key_file = Some(keys.clone());
        config.heartbeat = Duration::from_millis(200);
        let server = Server::start_with(config).await;
        let client = server.client().await;
        Keyed {
            server,
            client,
            keys,
        }
    }

    /// A player token for `player`.
    pub async fn issue(&mut self, player: &str) -> String {
        self.client
            .issue_player_token(keyed(pb::IssuePlayerTokenRequest {
                player_id: player.into(),
            }))
            .await
            .expect("IssuePlayerToken")
            .into_inner()
            .token
    }

    /// Revokes every token of `player`.
    pub async fn revoke(&mut self, player: &str) {
        let revoked = self
            .client
            .revoke_player_token(keyed(pb::RevokePlayerTokenRequest {
                target: Some(pb::revoke_player_token_request::Target::PlayerId(
                    player.into(),
                )),
            }))
            .await
            .expect("RevokePlayerToken")
            .into_inner()
            .revoked;
        assert_eq!(revoked, 1);
    }

    /// A chess game with `side` bound to `player` and a random mover on the other seat.
    pub async fn game(&mut self, player: &str, side: pb::Color) -> BoundGame {
        let (white, black) = match side {
            pb::Color::White => (player, ""),
            _ => ("", player),
        };
        let created = self
            .client
            .create_game(keyed(pb::CreateGameRequest {
                variant: pb::Variant::Chess as i32,
                white_player: "white".into(),
                black_player: "black".into(),
                white_player_id: white.into(),
                black_player_id: black.into(),
                ..Default::default()
            }))
            .await
            .expect("CreateGame")
            .into_inner();
        let id = created.game.expect("a game").game_id;
        let (token, other) = match side {
            pb::Color::White => (created.black_token, pb::Color::Black),
            _ => (created.white_token, pb::Color::White),
        };
        assert!(!token.is_empty(), "the unbound seat has a token");
        BoundGame {
            random: random_mover(self.server.url(), id.clone(), token, other),
            id,
            bot_side: side,
        }
    }
}
