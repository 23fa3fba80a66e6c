//! The leak test of issue 31 for the games with a secret setup (Screen and Crazy Screen
//! Chess): seeded random setups (drafts replaced, placements made final, bad placements and
//! moves tried too early, retries, changes refused after a final one), and every message every
//! caller gets before the reveal (GetGame, SubmitSetup's answers and refusals, the WatchGame
//! streams, the feed, ListGames, ExportPgn, every error's message and metadata) scanned for
//! any piece of a placement that caller may not see: a seat sees its own, the platform both,
//! a spectator neither (`docs/games/screen.md`). Each caller's GetGame is also checked field by
//! field against the placements the test made, so the scan is known to read real boards. On
//! every store, on a server without API keys (seat tokens, spectators' lists and feed) and on
//! one with them (a player token's seat and feed, the platform).

use std::collections::HashMap;

use chessd::proto::{self as pb, watch_game_response::Event, watch_games_response};
use tonic::{Request, Status, Streaming};

use crate::common::{authed, next_event};
use crate::feed::{after, game_of, next_feed};
use crate::support::*;

const KEY: &str = "screen-platform-key-0123456789abcdef0123";
const EMPTY: &str = "8/8/8/8/8/8/8/8 w - - 0 1";

/// Who asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Who {
    White,
    Black,
    Spectator,
    Platform,
}

impl Who {
    fn request<T>(self, seats: &Seats, msg: T) -> Request<T> {
        match self {
            Who::White => authed(msg, &seats.white),
            Who::Black => authed(msg, &seats.black),
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

    /// Whether this caller may see `side`'s placement before the reveal.
    fn sees(self, side: Side) -> bool {
        match self {
            Who::Platform => true,
            Who::Spectator => false,
            Who::White => side == Side::White,
            Who::Black => side == Side::Black,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Side {
    White,
    Black,
}

/// The side that is not `side`.
fn other(side: Side) -> Side {
    if side == Side::White {
        Side::Black
    } else {
        Side::White
    }
}

impl Side {
    const BOTH: [Side; 2] = [Side::White, Side::Black];

    /// Whether a FEN piece letter is this side's.
    fn owns(self, piece: char) -> bool {
        piece.is_ascii_alphabetic() && (piece.is_ascii_uppercase() == (self == Side::White))
    }

    fn proto(self) -> i32 {
        if self == Side::White {
            pb::Color::White as i32
        } else {
            pb::Color::Black as i32
        }
    }
}

/// Every board or placement written in `text` (a message's debug form): each run of FEN board
/// characters with a `/` in it.
fn boards(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '/'))
        .filter(|t| t.contains('/') && t.chars().all(|c| "pnbrqkPNBRQK12345678/".contains(c)))
}

/// Fails if `text` writes a piece of a side whose placement `who` may not see.
fn assert_no_leak(who: Who, what: &str, text: &str) {
    for board in boards(text) {
        for side in Side::BOTH {
            assert!(
                who.sees(side) || !board.chars().any(|c| side.owns(c)),
                "{who:?} in {what}: {side:?}'s pieces in {board}\n{text}"
            );
        }
    }
}

/// A placement that keeps Screen Chess's rules (and so Crazy Screen's): a pawn on every file
/// on one of the three ranks before the first, the other eight pieces anywhere else on the
/// half, the bishops on squares of both colours. Four FEN rows, top to bottom.
fn random_placement(side: Side, seed: &mut u64) -> String {
    loop {
        // Rows of the half from the first rank out: 0 is the first rank.
        let mut half = [[None::<char>; 8]; 4];
        let pawn_ranks: Vec<usize> = (0..8).map(|_| 1 + next(seed) % 3).collect();
        for (file, rank) in pawn_ranks.into_iter().enumerate() {
            half[rank][file] = Some('p');
        }
        let mut bishops = Vec::new();
        for piece in ['k', 'q', 'r', 'r', 'b', 'b', 'n', 'n'] {
            let free: Vec<(usize, usize)> = (0..4)
                .flat_map(|r| (0..8).map(move |f| (r, f)))
                .filter(|&(r, f)| half[r][f].is_none())
                .collect();
            let (r, f) = free[next(seed) % free.len()];
            half[r][f] = Some(piece);
            if piece == 'b' {
                bishops.push((r + f) % 2);
            }
        }
        if bishops[0] == bishops[1] {
            continue;
        }
        let row = |cells: &[Option<char>; 8]| {
            let mut out = String::new();
            let mut empty = 0;
            for cell in cells {
                match cell {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(if side == Side::White {
                            p.to_ascii_uppercase()
                        } else {
                            *p
                        });
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        };
        // White's half is written from rank 4 down to rank 1, Black's from rank 8 down to 5.
        let rows: Vec<String> = if side == Side::White {
            half.iter().rev().map(row).collect()
        } else {
            half.iter().map(row).collect()
        };
        return rows.join("/");
    }
}

/// A placement the server must refuse, and so never show anyone.
fn bad_placement(side: Side, seed: &mut u64) -> String {
    let good = random_placement(side, seed);
    match next(seed) % 3 {
        // A piece short.
        0 => good.replacen(
            |c: char| c.is_ascii_alphabetic() && c != 'k' && c != 'K',
            "1",
            1,
        ),
        // The other side's army.
        1 => good
            .chars()
            .map(|c| {
                if c.is_ascii_alphabetic() {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                } else {
                    c
                }
            })
            .collect(),
        // Five rows.
        _ => format!("{good}/8"),
    }
}

/// What the test knows of a setup: each side's latest accepted placement and whether it is
/// final, and every accepted placement in order (the `SetupPlaced` events to expect).
#[derive(Default)]
struct Model {
    placed: HashMap<Side, (String, bool)>,
    events: Vec<(i32, bool)>,
    /// The reveal ended the game.
    decided_at_reveal: bool,
}

impl Model {
    fn is_final(&self, side: Side) -> bool {
        self.placed.get(&side).is_some_and(|(_, f)| *f)
    }

    /// The board `who` is shown while the setup runs.
    fn board(&self, who: Who) -> String {
        let half = |side: Side| match self.placed.get(&side) {
            Some((p, _)) if who.sees(side) => p.clone(),
            _ => "8/8/8/8".to_owned(),
        };
        format!("{}/{} w - - 0 1", half(Side::Black), half(Side::White))
    }
}

/// The callers of one server and the calls each may make.
struct Cast {
    whos: Vec<Who>,
    /// Who reads ListGames and the feed (the spectator without API keys, the platform with).
    lister: Who,
}

/// The game as `who` reads it.
async fn game_as(client: &mut Client, who: Who, seats: &Seats) -> pb::Game {
    client
        .get_game(who.request(
            seats,
            pb::GetGameRequest {
                game_id: seats.id.clone(),
            },
        ))
        .await
        .expect("get game")
        .into_inner()
        .game
        .expect("the game")
}

/// Checks every caller's view of the game in its setup: nothing hidden, and exactly what the
/// model says each may see.
async fn check_views(client: &mut Client, cast: &Cast, seats: &Seats, model: &Model, what: &str) {
    for &who in &cast.whos {
        let game = game_as(client, who, seats).await;
        assert_no_leak(who, &format!("GetGame after {what}"), &format!("{game:?}"));
        assert_eq!(game.fen, model.board(who), "{who:?} after {what}");
        assert_eq!(game.start_fen, model.board(who), "{who:?} after {what}");
        assert!(game.legal_moves.is_empty() && game.moves.is_empty());
        let setup = game.setup.expect("a setup");
        for (side, seat) in [(Side::White, setup.white), (Side::Black, setup.black)] {
            let seat = seat.expect("a seat");
            let (placement, state) = match model.placed.get(&side) {
                None => ("", pb::SetupState::Empty),
                Some((p, true)) => (p.as_str(), pb::SetupState::Final),
                Some((p, false)) => (p.as_str(), pb::SetupState::Draft),
            };
            assert_eq!(seat.state, state as i32, "{who:?} of {side:?} after {what}");
            let shown = if who.sees(side) { placement } else { "" };
            assert_eq!(seat.placement, shown, "{who:?} of {side:?} after {what}");
        }
        let pgn = client
            .export_pgn(who.request(
                seats,
                pb::ExportPgnRequest {
                    game_id: seats.id.clone(),
                },
            ))
            .await;
        let text = match pgn {
            Ok(answer) => answer.into_inner().pgn,
            Err(status) => format!("{status:?}"),
        };
        assert_no_leak(who, &format!("ExportPgn after {what}"), &text);
    }
    let listed = client
        .list_games(cast.lister.request(seats, pb::ListGamesRequest::default()))
        .await
        .expect("list");
    // Other games in the list are over: they show everything.
    let entry = listed
        .into_inner()
        .games
        .into_iter()
        .find(|g| g.game_id == seats.id)
        .expect("listed");
    assert_eq!(entry.fen, EMPTY, "ListGames after {what}");
    assert_no_leak(
        cast.lister,
        &format!("ListGames after {what}"),
        &format!("{entry:?}"),
    );
}

/// Sends a placement as `side` and scans the answer or the refusal, unless the placement is
/// the final one that `reveals` both.
async fn submit(
    client: &mut Client,
    seats: &Seats,
    side: Side,
    placement: &str,
    (commit, reveals): (bool, bool),
) -> Result<pb::Game, Status> {
    let who = if side == Side::White {
        Who::White
    } else {
        Who::Black
    };
    let answer = client
        .submit_setup(who.request(
            seats,
            pb::SubmitSetupRequest {
                game_id: seats.id.clone(),
                placement: placement.into(),
                commit,
            },
        ))
        .await;
    let text = match &answer {
        Ok(a) => format!("{a:?}"),
        Err(status) => format!("{status:?}"),
    };
    if !reveals {
        assert_no_leak(who, "SubmitSetup", &text);
    }
    answer.map(|a| a.into_inner().game.expect("the game"))
}

/// Plays one seeded setup to its reveal, then a few moves and a resignation, checking every
/// caller's every message; `streams` and the feeds were opened before the game began.
async fn play_setup(client: &mut Client, cast: &Cast, seats: &Seats, seed: u64) -> Model {
    let mut seed = seed;
    let mut model = Model::default();
    let mut steps = 0;
    check_views(client, cast, seats, &model, "creation").await;
    while !(model.is_final(Side::White) && model.is_final(Side::Black)) {
        steps += 1;
        let open: Vec<Side> = Side::BOTH
            .into_iter()
            .filter(|&s| !model.is_final(s))
            .collect();
        let side = open[next(&mut seed) % open.len()];
        let done = Side::BOTH.into_iter().find(|&s| model.is_final(s));
        let roll = if steps > 12 { 9 } else { next(&mut seed) % 12 };
        let what = format!("step {steps} ({side:?}, {roll})");
        match roll {
            0..=4 => {
                let placement = random_placement(side, &mut seed);
                submit(client, seats, side, &placement, (false, false))
                    .await
                    .expect("a draft");
                model.placed.insert(side, (placement, false));
                model.events.push((side.proto(), false));
            }
            5 => {
                let refused = submit(
                    client,
                    seats,
                    side,
                    &bad_placement(side, &mut seed),
                    (false, false),
                )
                .await
                .expect_err("a bad placement is refused");
                assert_eq!(refused.code(), tonic::Code::InvalidArgument, "{refused:?}");
            }
            6 => {
                let who = if side == Side::White {
                    Who::White
                } else {
                    Who::Black
                };
                let refused = client
                    .submit_move(who.request(
                        seats,
                        pb::SubmitMoveRequest {
                            game_id: seats.id.clone(),
                            r#move: "e2e4".into(),
                            ..Default::default()
                        },
                    ))
                    .await
                    .expect_err("no move before the reveal");
                assert_no_leak(who, "SubmitMove", &format!("{refused:?}"));
                assert_eq!(refused.code(), tonic::Code::FailedPrecondition);
            }
            7 if done.is_some() => {
                // The side already final: its placement again is a retry, another is refused.
                let done = done.unwrap();
                let (final_placement, _) = model.placed[&done].clone();
                submit(client, seats, done, &final_placement, (true, false))
                    .await
                    .expect("a retry");
                let other = random_placement(done, &mut seed);
                let refused = submit(client, seats, done, &other, (true, false))
                    .await
                    .expect_err("a final placement stays");
                assert_eq!(
                    refused.code(),
                    tonic::Code::FailedPrecondition,
                    "{refused:?}"
                );
            }
            _ => {
                // Final: the draft as it stands, or a fresh placement.
                let placement = match model.placed.get(&side) {
                    Some((p, _)) if next(&mut seed).is_multiple_of(2) => p.clone(),
                    _ => random_placement(side, &mut seed),
                };
                let answer = submit(
                    client,
                    seats,
                    side,
                    &placement,
                    (true, model.is_final(other(side))),
                )
                .await
                .expect("final");
                model.placed.insert(side, (placement, true));
                model.events.push((side.proto(), true));
                if model.is_final(Side::White) && model.is_final(Side::Black) {
                    let start = format!(
                        "{}/{} w - - 0 1",
                        model.placed[&Side::Black].0,
                        model.placed[&Side::White].0
                    );
                    assert_eq!(answer.start_fen, start, "the reveal");
                    model.decided_at_reveal = answer.outcome.is_some();
                    break;
                }
            }
        }
        check_views(client, cast, seats, &model, &what).await;
    }
    // Revealed: everyone sees the joined board.
    let start = format!(
        "{}/{} w - - 0 1",
        model.placed[&Side::Black].0,
        model.placed[&Side::White].0
    );
    for &who in &cast.whos {
        let game = game_as(client, who, seats).await;
        assert_eq!(game.start_fen, start, "{who:?} after the reveal");
        assert!(game.setup.is_none() || game.outcome.is_some(), "{who:?}");
    }
    // A few random moves, then Black resigns (unless the reveal or a move ended the game).
    for ply in 0..4 {
        let who = if ply % 2 == 0 { Who::White } else { Who::Black };
        let game = get(client, &seats.id).await;
        if game.outcome.is_some() {
            return model;
        }
        let uci = game.legal_moves[next(&mut seed) % game.legal_moves.len()]
            .uci
            .clone();
        client
            .submit_move(who.request(
                seats,
                pb::SubmitMoveRequest {
                    game_id: seats.id.clone(),
                    r#move: uci,
                    ..Default::default()
                },
            ))
            .await
            .expect("a move");
    }
    if get(client, &seats.id).await.outcome.is_none() {
        client
            .resign(Who::Black.request(
                seats,
                pb::ResignRequest {
                    game_id: seats.id.clone(),
                },
            ))
            .await
            .expect("resign");
    }
    model
}

async fn watch_as(
    client: &mut Client,
    who: Who,
    seats: &Seats,
) -> Streaming<pb::WatchGameResponse> {
    client
        .watch_game(who.request(
            seats,
            pb::WatchGameRequest {
                game_id: seats.id.clone(),
                after_seq: 0,
            },
        ))
        .await
        .expect("watch")
        .into_inner()
}

/// A stream's events to the game's end: every event before the reveal scanned, and the
/// placements announced exactly as they were accepted.
async fn check_stream(who: Who, stream: &mut Streaming<pb::WatchGameResponse>, model: &Model) {
    let mut revealed = false;
    let mut placed = Vec::new();
    loop {
        let e = next_event(stream)
            .await
            .expect("stream")
            .expect("events to the end");
        if let Some(Event::SetupPlaced(p)) = &e.event {
            placed.push((p.by, p.committed));
            revealed |= !p.start_fen.is_empty();
        }
        // The game's end shows everyone the whole game, placements included.
        let over = matches!(e.event, Some(Event::GameOver(_)));
        if !revealed && !over {
            assert_no_leak(who, &format!("WatchGame seq {}", e.seq), &format!("{e:?}"));
        }
        if over {
            break;
        }
    }
    assert_eq!(placed, model.events, "{who:?}: the placements announced");
    // A reveal that decides the game (Black's king attacked) is announced by the game's end.
    assert_eq!(
        revealed, !model.decided_at_reveal,
        "{who:?}: the reveal announced with the start"
    );
}

/// The feed's events of game `id` to its end; those of other games read on the way are kept
/// in `early`. Every event before the game's first move or end is scanned for `who`.
async fn check_feed(
    who: Who,
    stream: &mut Streaming<pb::WatchGamesResponse>,
    id: &str,
    early: &mut HashMap<String, Vec<pb::WatchGamesResponse>>,
) {
    let mut events = early.remove(id).unwrap_or_default().into_iter();
    let mut created = false;
    loop {
        let m = match events.next() {
            Some(m) => m,
            None => {
                let m = next_feed(stream).await.expect("feed");
                let game = game_of(&m);
                if game != id {
                    early.entry(game).or_default().push(m);
                    continue;
                }
                m
            }
        };
        match &m.event {
            Some(watch_games_response::Event::GameCreated(c)) => {
                created = true;
                assert_eq!(c.game.as_ref().unwrap().start_fen, EMPTY, "{who:?}");
                assert_no_leak(who, "the feed", &format!("{m:?}"));
            }
            Some(watch_games_response::Event::GameFinished(_)) => break,
            Some(watch_games_response::Event::GameMoved(_)) => {}
            _ => assert_no_leak(who, "the feed", &format!("{m:?}")),
        }
    }
    assert!(created, "{who:?}: the feed announced the game");
}

fn no_seats() -> Seats {
    Seats {
        id: String::new(),
        white: String::new(),
        black: String::new(),
    }
}

async fn watch_feed(
    client: &mut Client,
    request: Request<pb::WatchGamesRequest>,
) -> Streaming<pb::WatchGamesResponse> {
    client
        .watch_games(request)
        .await
        .expect("the feed")
        .into_inner()
}

/// Four seeded setups on one server, alternating the two games: each caller of `cast` watches
/// every game, and each of `feeds` (opened before them) is read to each game's end.
async fn leak_test(
    client: &mut Client,
    cast: &Cast,
    mut feeds: Vec<(Who, Streaming<pb::WatchGamesResponse>)>,
    create: impl Fn(&str) -> Request<pb::CreateGameRequest>,
    seats_of: impl Fn(pb::CreateGameResponse) -> Seats,
) {
    let mut early: Vec<HashMap<String, Vec<pb::WatchGamesResponse>>> =
        feeds.iter().map(|_| HashMap::new()).collect();
    for (seed, key) in [
        (1u64, "screen"),
        (2, "crazyscreen"),
        (3, "screen"),
        (4, "crazyscreen"),
    ] {
        let created = client
            .create_game(create(key))
            .await
            .expect("create")
            .into_inner();
        let seats = seats_of(created);
        let mut streams = Vec::new();
        for &who in &cast.whos {
            streams.push((who, watch_as(client, who, &seats).await));
        }
        let model = play_setup(client, cast, &seats, seed).await;
        for (who, stream) in &mut streams {
            check_stream(*who, stream, &model).await;
        }
        for ((who, stream), early) in feeds.iter_mut().zip(&mut early) {
            check_feed(*who, stream, &seats.id, early).await;
        }
    }
}

/// Without API keys: two seats' tokens and a spectator, who also reads the lists and the feed.
#[tokio::test]
async fn no_caller_sees_a_hidden_placement() {
    let server = start_unlimited().await;
    let mut client = server.client().await;
    let feed = watch_feed(
        &mut client,
        Request::new(pb::WatchGamesRequest {
            include_moves: true,
            ..after("")
        }),
    )
    .await;
    let cast = Cast {
        whos: vec![Who::White, Who::Black, Who::Spectator],
        lister: Who::Spectator,
    };
    leak_test(
        &mut client,
        &cast,
        vec![(Who::Spectator, feed)],
        |key| Request::new(by_key(key)),
        |created| Seats {
            id: created.game.unwrap().game_id,
            white: created.white_token,
            black: created.black_token,
        },
    )
    .await;
}

/// With API keys: White's seat held by a player token (whose feed shows its player's games as
/// its seat sees them), Black's by its seat token, a spectator, and the platform, which sees
/// both placements and reads the lists and the feed.
#[tokio::test]
async fn no_caller_sees_a_hidden_placement_with_keys() {
    let server = start_with_key(KEY).await;
    let mut client = server.client().await;
    let ann = client
        .issue_player_token(Who::Platform.request(
            &no_seats(),
            pb::IssuePlayerTokenRequest {
                player_id: "ann".into(),
            },
        ))
        .await
        .expect("a player token")
        .into_inner()
        .token;
    let request = || pb::WatchGamesRequest {
        include_moves: true,
        ..after("")
    };
    let platform_feed =
        watch_feed(&mut client, Who::Platform.request(&no_seats(), request())).await;
    let ann_feed = watch_feed(&mut client, authed(request(), &ann)).await;
    let cast = Cast {
        whos: vec![Who::White, Who::Black, Who::Spectator, Who::Platform],
        lister: Who::Platform,
    };
    leak_test(
        &mut client,
        &cast,
        vec![(Who::Platform, platform_feed), (Who::White, ann_feed)],
        |key| {
            Who::Platform.request(
                &no_seats(),
                pb::CreateGameRequest {
                    white_player_id: "ann".into(),
                    ..by_key(key)
                },
            )
        },
        |created| Seats {
            id: created.game.unwrap().game_id,
            white: ann.clone(),
            black: created.black_token,
        },
    )
    .await;
}
