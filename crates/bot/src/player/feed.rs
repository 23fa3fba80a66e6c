//! Following the player's games: a task that keeps a WatchGames stream open with the player
//! token and hands the games it announces to the dispatcher on a bounded channel.
//!
//! The stream starts live: first a GameCreated for each game the player is seated in that is
//! already running (with an empty cursor: they are not feed events), then a heartbeat with the
//! cursor it stands at, then the events of the player's games. When it breaks (a dropped
//! connection, a server restart, `FEED_TOO_SLOW`, or silence past [`IDLE_TIMEOUT`]) the task
//! watches again after the last cursor it received: no game is missed and none is announced
//! twice. Without a cursor yet, or with one the server no longer serves
//! (`CURSOR_OUT_OF_RANGE`), it starts live again, which lists the running games afresh (the
//! dispatcher ignores those it already plays); a game created and finished in the gap needs
//! no bot. A refused token (revoked, invalid) ends the task with the refusal.

use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::{Instant, timeout};
use tonic::{Code, Status};

use crate::board::Side;
use crate::client::{self, Api, Bearer, CALL_TIMEOUT, Failure};
use crate::proto::{self, watch_games_response::Event};

/// Silence after which the stream counts as dead (the server's heartbeat comes every few
/// seconds).
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(30);
/// Failures in a row before the task gives up: about five minutes at the 2 s backoff cap,
/// enough for a server restart or a rolling deploy.
const MAX_FAILURES: u32 = 150;
/// Announcements buffered between the task and the dispatcher.
const BUFFER: usize = 64;

/// What the task hands the dispatcher.
#[derive(Debug)]
pub enum Announce {
    /// A game the player is seated in was created, or was running when the stream started.
    Game {
        game_id: String,
        /// The player's seat, as the feed names it.
        seat: Option<Side>,
        /// The game's key (`chess`, `capablanca`, ...): the number alone says nothing of the
        /// games the wide family plays, which all share `VARIANT_UNSPECIFIED`.
        variant: String,
    },
    /// A game of the player ended.
    Finished { game_id: String },
    /// The stream is open: resumed after a cursor, or live.
    Following { resumed: bool },
    /// The stream broke and is being opened again, after the last cursor if there is one.
    Resuming { from_cursor: bool, error: Status },
    /// The feed cannot be followed (a refused token, too many failures).
    Failed(Status),
}

/// Starts following the feed of `bearer`'s player.
pub fn follow(api: Api, bearer: Bearer) -> (mpsc::Receiver<Announce>, tokio::task::JoinHandle<()>) {
    let (tx, rx) = mpsc::channel(BUFFER);
    let task = tokio::spawn(run(api, bearer, tx));
    (rx, task)
}

/// What one feed message announces, if anything.
fn announce(message: proto::WatchGamesResponse) -> Option<Announce> {
    match message.event? {
        Event::GameCreated(created) => {
            let game = created.game?;
            Some(Announce::Game {
                game_id: game.game_id,
                seat: Side::from_proto(created.seat),
                // A server from before the wide games sends no key: its number names the game.
                variant: if game.variant_key.is_empty() {
                    proto::Variant::try_from(game.variant)
                        .map_or_else(|_| game.variant.to_string(), |v| v.as_str_name().to_owned())
                } else {
                    game.variant_key
                },
            })
        }
        Event::GameFinished(finished) => Some(Announce::Finished {
            game_id: finished.game?.game_id,
        }),
        Event::GameMoved(_)
        | Event::GameTakenBack(_)
        | Event::GameEntropy(_)
        | Event::Heartbeat(_) => None,
    }
}

async fn run(api: Api, bearer: Bearer, tx: mpsc::Sender<Announce>) {
    let mut client = api.client();
    let mut cursor = String::new();
    let mut failures = 0u32;
    loop {
        let request = api.request(
            &bearer,
            proto::WatchGamesRequest {
                after_cursor: cursor.clone(),
                ..Default::default()
            },
            // No deadline on the call: it would end the stream. Opening it is bounded below.
            None,
        );
        let resumed = !cursor.is_empty();
        let broke = match timeout(CALL_TIMEOUT, client.watch_games(request)).await {
            Ok(Ok(response)) => {
                let mut stream = response.into_inner();
                if tx.send(Announce::Following { resumed }).await.is_err() {
                    return;
                }
                loop {
                    match timeout(IDLE_TIMEOUT, stream.message()).await {
                        Ok(Ok(Some(message))) => {
                            failures = 0;
                            if !message.cursor.is_empty() {
                                cursor.clone_from(&message.cursor);
                            }
                            if let Some(a) = announce(message)
                                && tx.send(a).await.is_err()
                            {
                                return;
                            }
                        }
                        Ok(Ok(None)) => {
                            break Status::unavailable("the feed ended (it never ends by itself)");
                        }
                        Ok(Err(status)) => break status,
                        Err(_) => {
                            break Status::deadline_exceeded("no message or heartbeat for 30s");
                        }
                    }
                }
            }
            Ok(Err(status)) => status,
            Err(_) => Status::deadline_exceeded("WatchGames did not open within 10s"),
        };
        failures += 1;
        let wait = if broke.code() == Code::OutOfRange {
            tracing::warn!(
                "the server no longer serves the last cursor seen; following live again (the running games are listed anew)"
            );
            cursor.clear();
            Duration::ZERO
        } else {
            match client::failure(&broke) {
                Failure::Fatal => {
                    // The dispatcher may be gone already; then nobody is waiting for this.
                    let _ = tx.send(Announce::Failed(broke)).await;
                    return;
                }
                Failure::Later(wait) => wait,
                Failure::Transient => client::backoff(failures),
            }
        };
        if failures > MAX_FAILURES {
            let _ = tx.send(Announce::Failed(broke)).await;
            return;
        }
        let resuming = Announce::Resuming {
            from_cursor: !cursor.is_empty(),
            error: broke,
        };
        if tx.send(resuming).await.is_err() {
            return;
        }
        tokio::time::sleep_until(Instant::now() + wait).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(id: &str) -> proto::GameHeader {
        proto::GameHeader {
            game_id: id.into(),
            variant: proto::Variant::Crazyhouse as i32,
            variant_key: "crazyhouse".into(),
            ..Default::default()
        }
    }

    /// Created games are announced with the player's seat, finished ones by id; moves and
    /// heartbeats announce nothing.
    #[test]
    fn announcements() {
        let created = proto::WatchGamesResponse {
            event: Some(Event::GameCreated(proto::GameCreated {
                game: Some(header("A")),
                seat: proto::Color::Black as i32,
            })),
            ..Default::default()
        };
        match announce(created) {
            Some(Announce::Game {
                game_id,
                seat,
                variant,
            }) => {
                assert_eq!(game_id, "A");
                assert_eq!(seat, Some(Side::Black));
                assert_eq!(variant, "crazyhouse");
            }
            other => panic!("{other:?}"),
        }
        let finished = proto::WatchGamesResponse {
            event: Some(Event::GameFinished(proto::GameFinished {
                game: Some(header("B")),
                ..Default::default()
            })),
            ..Default::default()
        };
        assert!(
            matches!(announce(finished), Some(Announce::Finished { game_id }) if game_id == "B")
        );
        let beat = proto::WatchGamesResponse {
            cursor: "c".into(),
            event: Some(Event::Heartbeat(proto::Heartbeat::default())),
            ..Default::default()
        };
        assert!(announce(beat).is_none());
        assert!(announce(proto::WatchGamesResponse::default()).is_none());
    }

    /// A game is announced by its key (a wide-family game's number is `VARIANT_UNSPECIFIED`);
    /// a server that sends no key has its game named by the number.
    #[test]
    fn games_are_named_by_key() {
        let created = |key: &str| proto::WatchGamesResponse {
            event: Some(Event::GameCreated(proto::GameCreated {
                game: Some(proto::GameHeader {
                    game_id: "G".into(),
                    variant: if key.is_empty() {
                        proto::Variant::Atomic as i32
                    } else {
                        0
                    },
                    variant_key: key.into(),
                    ..Default::default()
                }),
                seat: proto::Color::White as i32,
            })),
            ..Default::default()
        };
        let named = |key| match announce(created(key)) {
            Some(Announce::Game { variant, .. }) => variant,
            other => panic!("{other:?}"),
        };
        assert_eq!(named("grand"), "grand");
        assert_eq!(named(""), "VARIANT_ATOMIC");
    }
}
