//! Dark Chess over the API, and the leak test of issue 31: in a game whose players see only
//! part of the board, every message every caller gets (GetGame, SubmitMove's answer, the
//! WatchGame streams of both seats and a spectator, the feed, ListGames, ExportPgn) is checked
//! field by field against what that caller may see (`GAMES.md`: a seat its own view, its own
//! moves and that the opponent moved; a spectator the clocks and the number of moves; the
//! platform, and everyone once the game is over, the whole game). The true position is kept
//! here by the rules engine from the moves the seats chose, and each seat's view is the rules
//! engine's (`WidePosition::fog_fen`, checked against a python-chess reference in
//! `crates/rules`). On every store.

use std::collections::HashMap;

use chessd::proto::{self as pb, watch_game_response::Event, watch_games_response};
use chessd_rules::Color;
use chessd_rules::any::{AnyPosition, AnyVariant};
use tonic::{Code, Request, Streaming};

use crate::common::{authed, next_event};
use crate::feed::{after, feed, next_feed};
use crate::support::*;

const KEY: &str = "dark-platform-key-0123456789abcdef012345";

fn dark() -> AnyVariant {
    AnyVariant::by_key("dark").expect("Dark Chess")
}

/// Who asks: a seat, a spectator (no credential), or the platform (its API key).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Who {
    Seat(Color),
    Spectator,
    Platform,
}

impl Who {
    fn request<T>(self, seats: &Seats, msg: T) -> Request<T> {
        match self {
            Who::Seat(Color::White) => authed(msg, &seats.white),
            Who::Seat(Color::Black) => authed(msg, &seats.black),
            Who::Spectator => Request::new(msg),
            Who::Platform => {
                let mut request = Request::new(msg);
                request
                    .metadata_mut()
                    .insert("x-api-key", KEY.parse().unwrap());
                request
            }
        }
    }

    /// The FEN this caller may be shown of `pos` while the game is in play.
    fn fen(self, pos: &AnyPosition) -> String {
        match self {
            Who::Seat(color) => pos.fen_seen_by(Some(color)),
            Who::Spectator => pos.fen_seen_by(None),
            Who::Platform => pos.fen(),
        }
    }

    /// Whether this caller may see the text of `mover`'s moves while the game is in play.
    fn sees(self, mover: Color) -> bool {
        match self {
            Who::Seat(color) => color == mover,
            Who::Spectator => false,
            Who::Platform => true,
        }
    }
}

/// The game as it truly is, kept from the moves played.
struct Truth {
    /// The position after each ply (index 0: the start).
    positions: Vec<AnyPosition>,
    /// Each ply's move, UCI.
    moves: Vec<String>,
}

impl Truth {
    fn new() -> Truth {
        Truth {
            positions: vec![AnyPosition::new(dark())],
            moves: Vec::new(),
        }
    }

    fn now(&self) -> &AnyPosition {
        self.positions.last().unwrap()
    }

    fn play(&mut self, uci: &str) {
        let mut next = *self.now();
        let m = next.parse_uci(uci).expect("a move the server took parses");
        next.play_unchecked(m);
        self.positions.push(next);
        self.moves.push(uci.to_owned());
    }

    fn mover(&self, ply: usize) -> Color {
        if ply % 2 == 1 {
            Color::White
        } else {
            Color::Black
        }
    }
}

/// A game answer as `who` may see it while the game is in play: the board, the moves, the
/// legal moves and everything else the board would tell.
fn check_game(who: Who, game: &pb::Game, truth: &Truth, what: &str) {
    let pos = truth.now();
    assert_eq!(game.fen, who.fen(pos), "{who:?} {what}: fen");
    assert_eq!(
        game.start_fen,
        who.fen(&truth.positions[0]),
        "{who:?} {what}: start"
    );
    assert_eq!(game.ply as usize, truth.moves.len(), "{who:?} {what}: ply");
    assert_eq!(game.moves.len(), truth.moves.len(), "{who:?} {what}: moves");
    for (i, (shown, real)) in game.moves.iter().zip(&truth.moves).enumerate() {
        if who.sees(truth.mover(i + 1)) {
            assert_eq!(&shown.uci, real, "{who:?} {what}: move {}", i + 1);
        } else {
            assert_eq!(
                (shown.uci.as_str(), shown.san.as_str()),
                ("?", "?"),
                "{who:?} {what}: move {} of the unseen side",
                i + 1
            );
        }
    }
    let turn = pos.turn();
    if who.sees(turn) {
        let mut legal: Vec<&str> = game.legal_moves.iter().map(|m| m.uci.as_str()).collect();
        let mut real: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
        legal.sort_unstable();
        real.sort_unstable();
        assert_eq!(legal, real, "{who:?} {what}: legal moves");
    } else {
        assert!(
            game.legal_moves.is_empty(),
            "{who:?} {what}: the other side's legal moves shown"
        );
    }
    assert!(!game.in_check, "{who:?} {what}");
    assert!(game.outcome.is_none() && game.pockets.is_none() && game.hands.is_none());
}

/// Every message of a WatchGame stream as `who` may see it, up to the end of the game.
fn check_stream(who: Who, events: &[pb::WatchGameResponse], truth: &Truth) {
    let mut moves = 0;
    for e in events {
        match e.event.as_ref().unwrap() {
            Event::Snapshot(game) => {
                assert_eq!(game.ply, 0, "{who:?}: a stream from the start");
                assert_eq!(game.fen, who.fen(&truth.positions[0]), "{who:?} snapshot");
            }
            Event::MovePlayed(played) => {
                moves += 1;
                let m = played.r#move.as_ref().unwrap();
                let ply = m.ply as usize;
                assert_eq!(ply, moves);
                if who.sees(truth.mover(ply)) {
                    assert_eq!(m.uci, truth.moves[ply - 1], "{who:?} ply {ply}");
                } else {
                    assert_eq!((m.uci.as_str(), m.san.as_str()), ("?", "?"), "{who:?}");
                }
                assert_eq!(
                    played.fen,
                    who.fen(&truth.positions[ply]),
                    "{who:?} ply {ply}"
                );
            }
            Event::GameOver(over) => {
                assert_eq!(over.fen, truth.now().fen(), "{who:?}: the end shows all");
            }
            other => panic!("{who:?}: unexpected event {other:?}"),
        }
    }
    assert_eq!(moves, truth.moves.len(), "{who:?}: every move announced");
}

async fn watch_as(
    client: &mut Client,
    who: Who,
    seats: &Seats,
) -> Streaming<pb::WatchGameResponse> {
    let request = who.request(
        seats,
        pb::WatchGameRequest {
            game_id: seats.id.clone(),
            after_seq: 0,
        },
    );
    client
        .watch_game(request)
        .await
        .expect("watch")
        .into_inner()
}

/// Every event of the stream up to and including the game's end.
async fn until_over(stream: &mut Streaming<pb::WatchGameResponse>) -> Vec<pb::WatchGameResponse> {
    let mut events = Vec::new();
    loop {
        let e = next_event(stream)
            .await
            .expect("stream")
            .expect("the stream lasts to the end");
        let over = matches!(e.event, Some(Event::GameOver(_)));
        events.push(e);
        if over {
            return events;
        }
    }
}

async fn game_as(client: &mut Client, who: Who, seats: &Seats) -> pb::Game {
    let request = who.request(
        seats,
        pb::GetGameRequest {
            game_id: seats.id.clone(),
        },
    );
    client
        .get_game(request)
        .await
        .expect("get game")
        .into_inner()
        .game
        .unwrap()
}

/// The feed's events of game `id`, up to its end. Events of other games read on the way are
/// kept in `early` (on Redis the feed's lanes interleave games by time), and taken from there
/// first.
async fn feed_of_game(
    stream: &mut Streaming<pb::WatchGamesResponse>,
    id: &str,
    early: &mut HashMap<String, Vec<pb::WatchGamesResponse>>,
) -> Vec<pb::WatchGamesResponse> {
    let mut events = early.remove(id).unwrap_or_default();
    let finished = |m: &pb::WatchGamesResponse| {
        matches!(m.event, Some(watch_games_response::Event::GameFinished(_)))
    };
    while !events.iter().any(finished) {
        let m = next_feed(stream).await.expect("feed");
        let game = crate::feed::game_of(&m);
        if game == id {
            events.push(m);
        } else {
            early.entry(game).or_default().push(m);
        }
    }
    events
}

/// Plays a seeded game in which each seat picks among the legal moves of its own view only,
/// checking every answer on the way; resigns for Black after `max_plies` if the game is not
/// over. Returns the truth.
async fn play_checked(
    client: &mut Client,
    seats: &Seats,
    seed: u64,
    max_plies: usize,
    whos: &[Who],
) -> Truth {
    let mut seed = seed;
    let mut truth = Truth::new();
    loop {
        for &who in whos {
            check_game(who, &game_as(client, who, seats).await, &truth, "GetGame");
        }
        let mover = truth.now().turn();
        let mine = game_as(client, Who::Seat(mover), seats).await;
        let uci = mine.legal_moves[next(&mut seed) % mine.legal_moves.len()]
            .uci
            .clone();
        let request = Who::Seat(mover).request(
            seats,
            pb::SubmitMoveRequest {
                game_id: seats.id.clone(),
                r#move: uci.clone(),
                ..Default::default()
            },
        );
        let answer = client
            .submit_move(request)
            .await
            .expect("move")
            .into_inner();
        truth.play(&uci);
        let game = answer.game.unwrap();
        if game.outcome.is_some() {
            return truth;
        }
        check_game(Who::Seat(mover), &game, &truth, "SubmitMove");
        if truth.moves.len() >= max_plies {
            break;
        }
    }
    for &who in whos {
        let pgn = client
            .export_pgn(who.request(
                seats,
                pb::ExportPgnRequest {
                    game_id: seats.id.clone(),
                },
            ))
            .await;
        if who == Who::Platform {
            assert!(pgn.is_ok(), "the platform reads the record in play");
        } else {
            assert_refused(pgn, Code::PermissionDenied, "RECORD_HIDDEN");
        }
    }
    let resign = Who::Seat(Color::Black).request(
        seats,
        pb::ResignRequest {
            game_id: seats.id.clone(),
        },
    );
    client.resign(resign).await.expect("resign");
    truth
}

/// Once over, a hidden game is whole to everyone: board, moves, record.
async fn check_over(client: &mut Client, seats: &Seats, truth: &Truth, whos: &[Who]) {
    for &who in whos {
        let game = game_as(client, who, seats).await;
        assert!(game.outcome.is_some());
        assert_eq!(game.fen, truth.now().fen(), "{who:?}: the end shows all");
        let shown: Vec<&str> = game.moves.iter().map(|m| m.uci.as_str()).collect();
        assert_eq!(shown, truth.moves, "{who:?}: the whole record");
        let pgn = client
            .export_pgn(who.request(
                seats,
                pb::ExportPgnRequest {
                    game_id: seats.id.clone(),
                },
            ))
            .await
            .expect("the record once over")
            .into_inner()
            .pgn;
        assert!(pgn.contains("[Variant \"Dark\"]"), "{pgn}");
    }
}

/// On a server without API keys: both seats and a spectator, every answer and stream message,
/// the feed and ListGames, over three seeded games.
#[tokio::test]
async fn each_caller_sees_only_its_view() {
    let server = start_unlimited().await;
    let mut client = server.client().await;
    let mut feed_stream = feed(
        &mut client,
        pb::WatchGamesRequest {
            include_moves: true,
            variant_key: "dark".into(),
            ..after("")
        },
    )
    .await
    .expect("the feed");
    let whos = [
        Who::Seat(Color::White),
        Who::Seat(Color::Black),
        Who::Spectator,
    ];
    let mut early = HashMap::new();
    for seed in [1u64, 2, 3] {
        let (created, seats) = create_with(&mut client, by_key("dark")).await;
        assert_eq!(created.draw_rule, pb::DrawRule::Automatic as i32);
        let mut streams = Vec::new();
        for who in whos {
            streams.push((who, watch_as(&mut client, who, &seats).await));
        }
        let truth = play_checked(&mut client, &seats, seed, 40, &whos).await;
        for (who, stream) in &mut streams {
            let events = until_over(stream).await;
            check_stream(*who, &events, &truth);
        }
        // The feed's spectator: that each move was made, never which, and no square.
        let mut moved = 0;
        for m in feed_of_game(&mut feed_stream, &seats.id, &mut early).await {
            match m.event.unwrap() {
                watch_games_response::Event::GameCreated(c) => {
                    let header = c.game.unwrap();
                    assert_eq!(header.game_id, seats.id);
                    assert_eq!(header.start_fen, Who::Spectator.fen(&truth.positions[0]));
                }
                watch_games_response::Event::GameMoved(g) => {
                    moved += 1;
                    let m = g.r#move.unwrap();
                    assert_eq!((m.uci.as_str(), m.san.as_str()), ("?", "?"));
                    assert_eq!(g.fen, Who::Spectator.fen(&truth.positions[m.ply as usize]));
                }
                watch_games_response::Event::GameFinished(f) => {
                    assert_eq!(f.fen, truth.now().fen());
                }
                other => panic!("unexpected feed event {other:?}"),
            }
        }
        assert_eq!(moved, truth.moves.len());
        check_over(&mut client, &seats, &truth, &whos).await;
    }
    // A list shows a hidden game in play to a spectator as it shows it to the feed.
    let (_, seats) = create_with(&mut client, by_key("dark")).await;
    play(&mut client, &seats, 'w', "e2e4").await;
    let listed = client
        .list_games(pb::ListGamesRequest {
            variant_key: "dark".into(),
            ..Default::default()
        })
        .await
        .expect("list")
        .into_inner();
    let entry = listed
        .games
        .iter()
        .find(|g| g.game_id == seats.id)
        .expect("listed");
    let mut now = AnyPosition::new(dark());
    let m = now.parse_uci("e2e4").unwrap();
    now.play_unchecked(m);
    assert_eq!(entry.fen, now.fen_seen_by(None));
    assert_eq!(entry.ply, 1);
}

/// On a server with API keys: the platform sees a hidden game whole in play (GetGame, the feed,
/// ListGames, the record), and a player token's feed shows its player's seat view.
#[tokio::test]
async fn the_platform_sees_all_and_a_player_its_seat() {
    let server = start_with_key(KEY).await;
    let mut client = server.client().await;
    let token = |client: &mut Client, player: &str| {
        let request = Who::Platform.request(
            &Seats {
                id: String::new(),
                white: String::new(),
                black: String::new(),
            },
            pb::IssuePlayerTokenRequest {
                player_id: player.into(),
            },
        );
        let mut client = client.clone();
        async move {
            client
                .issue_player_token(request)
                .await
                .expect("a player token")
                .into_inner()
                .token
        }
    };
    let white_player = token(&mut client, "ann").await;
    let none = Seats {
        id: String::new(),
        white: String::new(),
        black: String::new(),
    };
    let mut platform_feed = client
        .watch_games(Who::Platform.request(
            &none,
            pb::WatchGamesRequest {
                include_moves: true,
                ..after("")
            },
        ))
        .await
        .expect("the platform's feed")
        .into_inner();
    let mut player_feed = client
        .watch_games(authed(
            pb::WatchGamesRequest {
                include_moves: true,
                ..after("")
            },
            &white_player,
        ))
        .await
        .expect("the player's feed")
        .into_inner();
    let created = client
        .create_game(Who::Platform.request(
            &none,
            pb::CreateGameRequest {
                white_player_id: "ann".into(),
                ..by_key("dark")
            },
        ))
        .await
        .expect("create")
        .into_inner();
    let seats = Seats {
        id: created.game.unwrap().game_id,
        white: white_player.clone(),
        black: created.black_token,
    };
    let whos = [
        Who::Seat(Color::White),
        Who::Seat(Color::Black),
        Who::Platform,
    ];
    let truth = play_checked(&mut client, &seats, 7, 12, &whos).await;
    let listed = client
        .list_games(Who::Platform.request(&none, pb::ListGamesRequest::default()))
        .await
        .expect("list")
        .into_inner();
    assert!(listed.games.iter().any(|g| g.game_id == seats.id));
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (who, stream) in [
        (Who::Platform, &mut platform_feed),
        (Who::Seat(Color::White), &mut player_feed),
    ] {
        let key = if who == Who::Platform {
            "platform"
        } else {
            "ann"
        };
        for m in feed_of_game(stream, &seats.id, &mut HashMap::new()).await {
            match m.event.unwrap() {
                watch_games_response::Event::GameMoved(g) => {
                    let m = g.r#move.unwrap();
                    let ply = m.ply as usize;
                    *seen.entry(key).or_default() += 1;
                    if who.sees(truth.mover(ply)) {
                        assert_eq!(m.uci, truth.moves[ply - 1], "{who:?}");
                    } else {
                        assert_eq!(m.uci, "?", "{who:?}");
                    }
                    assert_eq!(g.fen, who.fen(&truth.positions[ply]), "{who:?} ply {ply}");
                }
                watch_games_response::Event::GameFinished(_)
                | watch_games_response::Event::GameCreated(_) => {}
                other => panic!("unexpected feed event {other:?}"),
            }
        }
    }
    assert_eq!(seen["platform"], truth.moves.len());
    assert_eq!(seen["ann"], truth.moves.len());
    check_over(&mut client, &seats, &truth, &whos).await;
}

/// Neither player can see enough to claim a draw: a hidden game's draws are the server's.
#[tokio::test]
async fn its_draws_are_automatic() {
    let server = start().await;
    let mut client = server.client().await;
    let refused = client
        .create_game(pb::CreateGameRequest {
            draw_rule: pb::DrawRule::Claim as i32,
            ..by_key("dark")
        })
        .await;
    let status = assert_refused(refused, Code::InvalidArgument, "INVALID_FIELD");
    assert!(
        status.message().contains("draw_rule"),
        "{}",
        status.message()
    );
    // Two knights shuffled back and forth: the third time the position stands, the game is
    // drawn without a claim.
    let (_, seats) = create_with(&mut client, by_key("dark")).await;
    let over = play_all(
        &mut client,
        &seats,
        'w',
        "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
    )
    .await;
    let (result, termination) = outcome(&over);
    assert_eq!(result, "1/2-1/2");
    assert_eq!(termination, pb::Termination::Repetition);
}
