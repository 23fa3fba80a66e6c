//! Ambiguous Chess over the API: a whole turn (the opponent's pending target executed, one's
//! own marked) is one SubmitMove; seeded random games reach their end through the server as
//! the rules engine plays them; a wrong execution and a wrong mark are each refused naming the
//! part; a retry is answered again; a takeback restores the pending target. On every store.

use chessd::proto as pb;
use chessd_rules::wide::{WidePosition, WideVariant};
use tonic::Code;

use crate::common::authed;
use crate::common::takebacks::{propose, respond};
use crate::support::{
    Seats, assert_refused, by_key, create_with, export_pgn, get, outcome, play, start,
    start_unlimited,
};

fn side_of(game: &pb::Game) -> char {
    if game.turn == pb::Color::White as i32 {
        'w'
    } else {
        'b'
    }
}

fn pending(fen: &str) -> &str {
    fen.split(' ').nth(6).unwrap_or("")
}

fn submit(seats: &Seats, mv: &str) -> pb::SubmitMoveRequest {
    pb::SubmitMoveRequest {
        game_id: seats.id.clone(),
        r#move: mv.into(),
        ..Default::default()
    }
}

/// A small seeded generator: the games are the same on every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Seeded random games to their end: each turn the server offers is the rules engine's for
/// the FEN it shows, sent alternately in its UCI and its SAN form, and the end is the one
/// the rules engine finds in the last position (or a draw rule of the game's record).
#[tokio::test]
async fn random_games_reach_their_end() {
    let server = start_unlimited().await;
    let mut client = server.client().await;
    let mut ends = Vec::new();
    for seed in 1..=6u64 {
        let mut rng = Lcg(seed);
        let (created, seats) = create_with(&mut client, by_key("ambiguous")).await;
        assert_eq!(pending(&created.fen), "-");
        let mut game = created;
        let mut turns = Vec::new();
        while game.outcome.is_none() && turns.len() < 600 {
            let pos = WidePosition::from_fen(WideVariant::Ambiguous, &game.fen).unwrap();
            let mut offered: Vec<String> = game.legal_moves.iter().map(|m| m.uci.clone()).collect();
            let mut expected: Vec<String> = pos
                .legal_moves()
                .iter()
                .map(|m| m.to_uci(&pos).to_string())
                .collect();
            offered.sort();
            expected.sort();
            assert_eq!(offered, expected, "at {}", game.fen);
            let pick = &game.legal_moves[rng.below(game.legal_moves.len())];
            // The first turn marks only; every later one executes the pending target first,
            // unless the mark before was executed at once.
            assert_eq!(pick.uci.starts_with('>'), pending(&game.fen) == "-");
            let text = if turns.len() % 2 == 0 {
                &pick.uci
            } else {
                &pick.san
            };
            let played = play(&mut client, &seats, side_of(&game), text).await;
            let recorded = played.r#move.expect("the move");
            assert_eq!(recorded.uci, pick.uci);
            turns.push(recorded.uci);
            game = played.game.expect("the game");
        }
        let game = get(&mut client, &seats.id).await;
        let Some(_) = game.outcome else {
            panic!(
                "seed {seed}: no end in {} turns at {}",
                turns.len(),
                game.fen
            );
        };
        let (_, termination) = outcome(&game);
        let last = WidePosition::from_fen(WideVariant::Ambiguous, &game.fen).unwrap();
        match last.outcome() {
            Some(o) if o.termination == chessd_rules::Termination::KingCaptured => {
                assert_eq!(termination, pb::Termination::KingCaptured, "{}", game.fen);
            }
            Some(_) => assert_eq!(termination, pb::Termination::Stalemate, "{}", game.fen),
            None => assert!(
                matches!(
                    termination,
                    pb::Termination::Repetition | pb::Termination::FiftyMoveRule
                ),
                "{termination:?} at {}",
                game.fen
            ),
        }
        let moves: Vec<&str> = game.moves.iter().map(|m| m.uci.as_str()).collect();
        assert_eq!(moves, turns);
        let pgn = export_pgn(&mut client, &seats.id).await;
        assert!(pgn.contains("[Variant \"Ambiguous\"]"), "{pgn}");
        assert!(turns.iter().all(|t| pgn.contains(t.as_str())), "{pgn}");
        ends.push(termination);
    }
    assert!(
        ends.contains(&pb::Termination::KingCaptured),
        "no king was taken in {ends:?}"
    );
}

/// A wrong execution and a wrong mark are each refused with the part named; text that is no
/// turn is malformed; the SAN form of the execution is read too.
#[tokio::test]
async fn wrong_parts_are_refused_with_their_reason() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create_with(&mut client, by_key("ambiguous")).await;
    let refused = client
        .submit_move(authed(submit(&seats, "e2e4"), seats.token('w')))
        .await;
    let status = assert_refused(refused, Code::FailedPrecondition, "ILLEGAL_MOVE");
    assert!(
        status.message().contains("only marks"),
        "{}",
        status.message()
    );
    play(&mut client, &seats, 'w', ">f3").await;
    for (text, part) in [
        ("b1c3>d5", "the execution b1c3 is not"),
        (">d5", "the execution is missing"),
        ("g1f3>d4", "the mark d4 is not a target"),
        ("g1f3", "the mark is missing"),
        ("g1f3>d5=c7c5", "the mark d5 forces d7d5, not c7c5"),
    ] {
        let refused = client
            .submit_move(authed(submit(&seats, text), seats.token('b')))
            .await;
        let status = assert_refused(refused, Code::FailedPrecondition, "ILLEGAL_MOVE");
        assert!(
            status.message().contains(part),
            "{text}: {}",
            status.message()
        );
    }
    for text in ["g1f3>", "g1f3>d5~3", "g1f3>>d5"] {
        let refused = client
            .submit_move(authed(submit(&seats, text), seats.token('b')))
            .await;
        assert_refused(refused, Code::InvalidArgument, "MALFORMED_MOVE");
    }
    let played = play(&mut client, &seats, 'b', "Nf3>d5").await;
    let mv = played.r#move.expect("the move");
    assert_eq!(
        (mv.uci.as_str(), mv.san.as_str()),
        ("g1f3>d5=d7d5", "g1f3>d5=d7d5")
    );
    let game = played.game.expect("the game");
    assert_eq!(pending(&game.fen), "-");
    assert_eq!(game.turn, pb::Color::White as i32);
}

/// A retried SubmitMove is answered with the turn first played, in either of its forms; a
/// different turn under the same request id is refused.
#[tokio::test]
async fn a_retry_is_answered_again() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create_with(&mut client, by_key("ambiguous")).await;
    play(&mut client, &seats, 'w', ">f3").await;
    let request = |mv: &str| pb::SubmitMoveRequest {
        request_id: "turn-1".into(),
        ..submit(&seats, mv)
    };
    let first = client
        .submit_move(authed(request("g1f3>a6"), seats.token('b')))
        .await
        .unwrap()
        .into_inner();
    for again in ["g1f3>a6", "Nf3>a6"] {
        let answer = client
            .submit_move(authed(request(again), seats.token('b')))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(answer.r#move, first.r#move, "{again}");
    }
    let other = client
        .submit_move(authed(request("f2f3>a6"), seats.token('b')))
        .await;
    assert_refused(other, Code::InvalidArgument, "REQUEST_ID_REUSED");
    let game = get(&mut client, &seats.id).await;
    assert_eq!((game.ply, pending(&game.fen)), (2, "a6"));
}

/// A takeback removes the whole turn and gives the pending target back.
#[tokio::test]
async fn a_takeback_restores_the_pending_target() {
    let server = start().await;
    let mut client = server.client().await;
    let request = pb::CreateGameRequest {
        takebacks: pb::TakebackPolicy::OnRequest as i32,
        ..by_key("ambiguous")
    };
    let (_, seats) = create_with(&mut client, request).await;
    play(&mut client, &seats, 'w', ">f3").await;
    let before = get(&mut client, &seats.id).await.fen;
    play(&mut client, &seats, 'b', "g1f3>a6").await;
    propose(&mut client, &seats.id, seats.token('b'))
        .await
        .unwrap();
    respond(&mut client, &seats.id, seats.token('w'), true)
        .await
        .unwrap();
    let game = get(&mut client, &seats.id).await;
    assert_eq!((game.ply, game.fen.as_str()), (1, before.as_str()));
    let played = play(&mut client, &seats, 'b', "f2f3>e5").await;
    assert_eq!(played.r#move.expect("the move").uci, "f2f3>e5=e7e5");
}

/// The ends: a king taken by the execution the opponent chose, and no target left to mark.
/// A start with a pending target (the seventh FEN field) is read by CreateGame and
/// AnalyzePosition alike.
#[tokio::test]
async fn the_ends_and_a_pending_start() {
    let server = start().await;
    let mut client = server.client().await;
    let fen = "k3r3/8/8/8/8/8/8/r3K3 w - - 0 1 e1";
    let analyzed = client
        .analyze_position(pb::AnalyzePositionRequest {
            fen: fen.into(),
            variant_key: "ambiguous".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(analyzed.fen, fen);
    let mut ucis: Vec<&str> = analyzed
        .legal_moves
        .iter()
        .map(|m| m.uci.as_str())
        .collect();
    ucis.sort_unstable();
    assert_eq!(ucis, ["a1e1", "e8e1"]);
    for (fen, turn, result, termination) in [
        (
            "k3r3/8/8/8/8/8/8/r3K3 w - - 0 1 e1",
            "a1e1",
            "0-1",
            pb::Termination::KingCaptured,
        ),
        (
            "3r3k/8/5r2/8/1p6/pPp5/PRP5/KB6 w - - 0 1 d6",
            "f6d6",
            "1/2-1/2",
            pb::Termination::Stalemate,
        ),
        (
            "4k3/8/8/8/8/8/8/4RK2 w - - 0 1 -",
            ">e8",
            "1-0",
            pb::Termination::KingCaptured,
        ),
    ] {
        let request = pb::CreateGameRequest {
            start_fen: fen.into(),
            ..by_key("ambiguous")
        };
        let (_, seats) = create_with(&mut client, request).await;
        let over = play(&mut client, &seats, 'w', turn)
            .await
            .game
            .expect("the game");
        assert_eq!(
            outcome(&over),
            (result.to_string(), termination),
            "{fen} {turn}"
        );
        assert!(over.legal_moves.is_empty());
    }
}

/// WatchGame and the feed carry each turn as the record writes it, with the pending target in
/// the position after it.
#[tokio::test]
async fn watchers_see_whole_turns() {
    use crate::common::watch;
    use crate::feed::{feed, next_feed};
    use crate::support::{describe, drain};
    use chessd::proto::watch_games_response::Event;

    let server = start().await;
    let mut client = server.client().await;
    let mut stream = feed(
        &mut client,
        pb::WatchGamesRequest {
            include_moves: true,
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let (_, seats) = create_with(&mut client, by_key("ambiguous")).await;
    let mut watcher = watch(&mut client, &seats.id, 0).await;
    for (side, turn) in [('w', ">f3"), ('b', "g1f3>a6"), ('w', "b8a6>e4=e2e4")] {
        play(&mut client, &seats, side, turn).await;
    }
    let request = pb::ResignRequest {
        game_id: seats.id.clone(),
    };
    client
        .resign(authed(request, seats.token('b')))
        .await
        .unwrap();
    let seen: Vec<String> = drain(&mut watcher).await.iter().map(describe).collect();
    assert_eq!(
        seen,
        [
            "snapshot ply 0",
            "move >f3",
            "move g1f3>a6",
            "move b8a6>e4=e2e4",
            "over 1-0"
        ]
    );
    let mut moved = Vec::new();
    while moved.len() < 3 {
        if let Event::GameMoved(m) = next_feed(&mut stream).await.unwrap().event.unwrap() {
            moved.push((m.r#move.unwrap().uci, pending(&m.fen).to_string()));
        }
    }
    assert_eq!(
        moved,
        [
            (">f3".to_string(), "f3".to_string()),
            ("g1f3>a6".to_string(), "a6".to_string()),
            ("b8a6>e4=e2e4".to_string(), "-".to_string()),
        ]
    );
}
