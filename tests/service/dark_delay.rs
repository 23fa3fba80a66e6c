//! A hidden game's delayed public view (`CreateGameRequest.public_delay_plies`, issue 31): a
//! spectator of a Dark Chess game in play is shown the whole game as it stood that many plies
//! ago (GetGame, ExportPgn, WatchGame, a resumed stream too), while the seats keep their own
//! views; a takeback takes the delayed game back too; once over, everyone sees all. The truth
//! is the platform's view (an API key sees the whole game). On every store.

use std::collections::HashMap;

use chessd::proto::{self as pb, watch_game_response::Event};
use chessd_rules::Color;
use chessd_rules::any::{AnyGame, AnyPosition, AnyVariant};
use tonic::{Code, Request, Streaming};

use crate::common::takebacks::{propose, respond};
use crate::common::{authed, next_event};
use crate::support::*;

const KEY: &str = "delay-platform-key-0123456789abcdef0123456";
const DELAY: u32 = 3;

fn platform<T>(msg: T) -> Request<T> {
    let mut request = Request::new(msg);
    request
        .metadata_mut()
        .insert("x-api-key", KEY.parse().unwrap());
    request
}

fn dark() -> AnyVariant {
    AnyVariant::by_key("dark").expect("Dark Chess")
}

/// The whole game after its first `ply` moves of `ucis`.
fn whole_at(ucis: &[String], ply: usize) -> AnyPosition {
    let mut game = AnyGame::new(AnyPosition::new(dark()), chessd_rules::DrawRule::Automatic);
    for uci in &ucis[..ply] {
        game.play_text(uci).expect("the game's own move");
    }
    game.position()
}

fn ucis(game: &pb::Game) -> Vec<String> {
    game.moves.iter().map(|m| m.uci.clone()).collect()
}

async fn get_as(client: &mut Client, request: Request<pb::GetGameRequest>) -> pb::Game {
    client
        .get_game(request)
        .await
        .expect("get game")
        .into_inner()
        .game
        .expect("the game")
}

/// The moves a spectator's stream shows, rebuilt from its events up to the game's end; each
/// move must follow the one before, and each event show the game `DELAY` plies before the
/// game's ply at its seq (`plies`: the game's ply after each event that changed it).
async fn follow(
    stream: &mut Streaming<pb::WatchGameResponse>,
    plies: &HashMap<u64, u32>,
) -> (Vec<String>, usize) {
    let mut moves = Vec::new();
    let mut takebacks = 0;
    loop {
        let e = next_event(stream).await.expect("stream").expect("events");
        match e.event.expect("an event") {
            Event::Snapshot(g) => moves = ucis(&g),
            Event::MovePlayed(m) => {
                let m = m.r#move.expect("the move");
                assert_eq!(
                    Some(m.ply),
                    plies[&e.seq].checked_sub(DELAY),
                    "the move shown at seq {}",
                    e.seq
                );
                assert_eq!(m.ply as usize, moves.len() + 1, "seq {}: {moves:?}", e.seq);
                assert_ne!(m.uci, "?", "a delayed move is shown whole");
                moves.push(m.uci);
            }
            Event::MovesTakenBack(t) => {
                takebacks += 1;
                assert_eq!(t.ply, plies[&e.seq].saturating_sub(DELAY), "seq {}", e.seq);
                moves.truncate(t.ply as usize);
            }
            Event::GameOver(_) => return (moves, takebacks),
            _ => {}
        }
    }
}

#[tokio::test]
async fn a_spectator_sees_the_game_as_it_stood_plies_ago() {
    let server = start_with_key(KEY).await;
    let mut client = server.client().await;
    let created = client
        .create_game(platform(pb::CreateGameRequest {
            public_delay_plies: DELAY,
            takebacks: pb::TakebackPolicy::OnRequest as i32,
            ..by_key("dark")
        }))
        .await
        .expect("create")
        .into_inner();
    let id = created.game.as_ref().unwrap().game_id.clone();
    assert_eq!(created.game.as_ref().unwrap().public_delay_plies, DELAY);
    let tokens = [created.white_token.clone(), created.black_token.clone()];
    let get = |id: &str| pb::GetGameRequest { game_id: id.into() };
    let mut live = client
        .watch_game(pb::WatchGameRequest {
            game_id: id.clone(),
            after_seq: 0,
        })
        .await
        .expect("watch")
        .into_inner();
    let mut seed = 11u64;
    let mut plies = HashMap::new();
    for step in 0..14 {
        let truth = get_as(&mut client, platform(get(&id))).await;
        let mover = if truth.turn == pb::Color::White as i32 {
            Color::White
        } else {
            Color::Black
        };
        let token = &tokens[if mover == Color::White { 0 } else { 1 }];
        let mine = get_as(&mut client, authed(get(&id), token)).await;
        let uci = mine.legal_moves[next(&mut seed) % mine.legal_moves.len()]
            .uci
            .clone();
        let moved = client
            .submit_move(authed(
                pb::SubmitMoveRequest {
                    game_id: id.clone(),
                    r#move: uci,
                    ..Default::default()
                },
                token,
            ))
            .await
            .expect("a move")
            .into_inner();
        let played = moved.r#move.expect("the move played");
        plies.insert(played.seq, played.ply);
        if moved.game.unwrap().outcome.is_some() {
            break;
        }
        // Half way, the mover takes its move back: the delayed game goes back with it.
        if step == 7 {
            propose(&mut client, &id, token).await.expect("proposed");
            let other = &tokens[if mover == Color::White { 1 } else { 0 }];
            let back = respond(&mut client, &id, other, true)
                .await
                .expect("accepted");
            plies.insert(back.last_seq, back.ply);
        }
        let truth = get_as(&mut client, platform(get(&id))).await;
        let all = ucis(&truth);
        let shown = (truth.ply.saturating_sub(DELAY)) as usize;
        let seen = get_as(&mut client, Request::new(get(&id))).await;
        assert_eq!(seen.ply as usize, shown, "step {step}");
        assert_eq!(ucis(&seen), all[..shown], "step {step}");
        assert_eq!(seen.fen, whole_at(&all, shown).fen(), "step {step}");
        assert!(seen.legal_moves.is_empty(), "step {step}");
        assert_eq!(seen.public_delay_plies, DELAY);
        assert_eq!(seen.last_seq, truth.last_seq, "the stream resumes from now");
        // The seats see their own views of now, as without a delay.
        for (color, token) in [(Color::White, &tokens[0]), (Color::Black, &tokens[1])] {
            let own = get_as(&mut client, authed(get(&id), token)).await;
            assert_eq!(own.fen, whole_at(&all, all.len()).fen_seen_by(Some(color)));
        }
        let pgn = client
            .export_pgn(pb::ExportPgnRequest {
                game_id: id.clone(),
            })
            .await
            .expect("the delayed record")
            .into_inner()
            .pgn;
        let movetext = pgn.rsplit("]\n").next().unwrap_or_default();
        let sans = movetext
            .split_whitespace()
            .filter(|t| !t.ends_with('.') && *t != "*")
            .count();
        assert_eq!(sans, shown, "step {step}: {pgn}");
    }
    // A resumed stream starts again from a snapshot of the delayed game.
    let truth = get_as(&mut client, platform(get(&id))).await;
    let mut resumed = client
        .watch_game(pb::WatchGameRequest {
            game_id: id.clone(),
            after_seq: truth.last_seq - 1,
        })
        .await
        .expect("watch")
        .into_inner();
    let first = next_event(&mut resumed).await.unwrap().unwrap();
    let Some(Event::Snapshot(snapshot)) = first.event else {
        panic!("a snapshot first: {first:?}");
    };
    assert_eq!(snapshot.ply, truth.ply.saturating_sub(DELAY));
    assert_eq!(first.seq, truth.last_seq);
    // A seq the game has not reached is refused, as for any watcher.
    let beyond = client
        .watch_game(pb::WatchGameRequest {
            game_id: id.clone(),
            after_seq: truth.last_seq + 5,
        })
        .await;
    assert_refused(beyond, Code::OutOfRange, "SEQ_OUT_OF_RANGE");
    let all = ucis(&truth);
    let shown = truth.ply.saturating_sub(DELAY) as usize;
    client
        .resign(authed(
            pb::ResignRequest {
                game_id: id.clone(),
            },
            &tokens[1],
        ))
        .await
        .expect("resign");
    // The stream showed the delayed game move by move, and its takeback, to the end.
    let (moves, takebacks) = follow(&mut live, &plies).await;
    assert_eq!(moves, all[..shown]);
    assert_eq!(takebacks, 1);
    // Over: the spectator sees it all.
    let over = get_as(&mut client, Request::new(get(&id))).await;
    assert_eq!(ucis(&over), all);
    assert!(!over.fen.contains('?'));
}

/// A delay only where spectators are shown nothing, and within its bound.
#[tokio::test]
async fn a_delay_only_in_a_hidden_game() {
    let server = start().await;
    let mut client = server.client().await;
    for (key, plies) in [("chess", 3), ("screen", 3), ("dark", 1001)] {
        let refused = client
            .create_game(pb::CreateGameRequest {
                public_delay_plies: plies,
                ..by_key(key)
            })
            .await;
        let status = assert_refused(refused, Code::InvalidArgument, "INVALID_FIELD");
        assert!(
            status.message().contains("public_delay_plies"),
            "{key}: {}",
            status.message()
        );
    }
}
