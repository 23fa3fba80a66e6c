//! The wide family's games through the service (issue 28): created by key, played in UCI and
//! SAN as Fairy-Stockfish writes them (ranks up to 10, the games' own letters, drops), with
//! their board's size, their hands, refusals that say what was wrong, a watcher's replay and
//! PGN. On every store: a wide game is stored and read back as any other.

use chessd::proto::{self as pb, watch_game_response::Event};
use tonic::Code;

use crate::support::*;

/// Every wide-family game, its key and its board (files, ranks).
const GAMES: [(&str, u32, u32); 22] = [
    ("losalamos", 6, 6),
    ("janus", 10, 8),
    ("embassy", 10, 8),
    ("capablanca", 10, 8),
    ("caparandom", 10, 8),
    ("grand", 10, 10),
    ("corner", 8, 8),
    ("fortress", 8, 8),
    ("bkhorde", 8, 8),
    ("extinction", 8, 8),
    ("massacre", 8, 8),
    ("maharajah", 8, 8),
    ("amazon", 8, 8),
    ("knightmate", 8, 8),
    ("berolina", 8, 8),
    ("legan", 8, 8),
    ("loop", 8, 8),
    ("cylinder", 8, 8),
    ("knightrelay", 8, 8),
    ("cheshirecat", 8, 8),
    ("recycle", 8, 8),
    ("iceage", 8, 8),
];

/// Every wide game is created by its key alone, says its key and board back (it has no
/// `Variant` number), lists its legal moves, takes the first of them, and reads back the
/// same after the move.
#[tokio::test]
async fn every_wide_game_is_created_and_played() {
    let server = start().await;
    let mut client = server.client().await;
    for (key, files, ranks) in GAMES {
        let (game, seats) = create_with(&mut client, by_key(key)).await;
        assert_eq!(game.variant_key, key);
        assert_eq!(game.variant, pb::Variant::Unspecified as i32, "{key}");
        assert_eq!(
            game.geometry,
            Some(pb::BoardGeometry { files, ranks }),
            "{key}"
        );
        let first = game.legal_moves.first().expect("a legal move at the start");
        let side = if game.turn == pb::Color::White as i32 {
            'w'
        } else {
            'b'
        };
        let after = play(&mut client, &seats, side, &first.uci)
            .await
            .game
            .expect("the game after the move");
        assert_eq!(after.ply, 1, "{key}");
        assert_eq!(after.moves.len(), 1, "{key}");
        assert_eq!(after.moves[0].uci, first.uci, "{key}");
        assert_eq!(after.moves[0].san, first.san, "{key}");
        let read = get(&mut client, &seats.id).await;
        assert_eq!((read.fen, read.ply), (after.fen, 1), "{key}");
    }
    // A key filters the list to its game, with the game's board on the summary.
    let listed = client
        .list_games(pb::ListGamesRequest {
            variant_key: "grand".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .games;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].variant_key, "grand");
    assert_eq!(
        listed[0].geometry,
        Some(pb::BoardGeometry {
            files: 10,
            ranks: 10
        })
    );
}

/// The seed site's own games (issue 30) through the service, in UCI and SAN: a knight that
/// leaps across the cylinder's seam, a Knight Relay pawn's leap named by its file, and Cheshire
/// Cat's vanished square in the FEN, refused as a destination.
#[tokio::test]
async fn the_seed_sites_games_are_played() {
    let server = start().await;
    let mut client = server.client().await;

    let (_, seats) = create_with(&mut client, by_key("cylinder")).await;
    let after = play_all(&mut client, &seats, 'w', "Nh3 a6 Na5").await;
    let ucis: Vec<&str> = after.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(ucis, ["g1h3", "a7a6", "h3a5"]);
    assert_eq!(
        after.fen,
        "rnbqkbnr/1ppppppp/p7/N7/8/8/PPPPPPPP/RNBQKB1R b KQkq - 1 2"
    );

    let (_, seats) = create_with(&mut client, by_key("knightrelay")).await;
    let after = play_all(&mut client, &seats, 'w', "ef4 d7d5").await;
    let sans: Vec<&str> = after.moves.iter().map(|m| m.san.as_str()).collect();
    // Black's e7 pawn, defended by g8's knight, could leap to d5 too: the step names its file.
    assert_eq!(sans, ["ef4", "dd5"]);
    assert_eq!(after.moves[0].uci, "e2f4");
    assert_eq!(
        after.fen,
        "rnbqkbnr/ppp1pppp/8/3p4/5P2/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );

    let (_, seats) = create_with(&mut client, by_key("cheshirecat")).await;
    let after = play_all(&mut client, &seats, 'w', "Nf3 e7e5").await;
    assert_eq!(
        after.fen,
        "rnbqkbnr/pppp*ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB*R w Kk - 0 2"
    );
    let back = pb::SubmitMoveRequest {
        game_id: seats.id.clone(),
        r#move: "f3g1".into(),
        ..Default::default()
    };
    assert_refused(
        client.submit_move(authed(back, &seats.white)).await,
        Code::FailedPrecondition,
        "ILLEGAL_MOVE",
    );
}

/// Grand Chess, 10 by 10: a move to and from rank 10 in UCI, SAN with two-digit ranks, an
/// illegal move and one no game could play refused with their reasons, the watcher's
/// replay, and a PGN that names the game and gives its start.
#[tokio::test]
async fn grand_chess_is_played_and_exported() {
    let server = start().await;
    let mut client = server.client().await;
    let (game, seats) = create_with(&mut client, by_key("grand")).await;
    assert!(
        game.fen.starts_with("r8r/1nbqkcabn1/pppppppppp/"),
        "{}",
        game.fen
    );
    let mut stream = watch(&mut client, &seats.id, 0).await;

    let after = play_all(&mut client, &seats, 'w', "e3e5 a10a9 Nc4 Raa10").await;
    let sans: Vec<&str> = after.moves.iter().map(|m| m.san.as_str()).collect();
    // Both black rooks reach a10: the SAN names the file it came from.
    assert_eq!(sans, ["e5", "Ra9", "Nc4", "Raa10"]);
    let ucis: Vec<&str> = after.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(ucis, ["e3e5", "a10a9", "b2c4", "a9a10"]);

    let submit = |mv: &str| pb::SubmitMoveRequest {
        game_id: seats.id.clone(),
        r#move: mv.into(),
        ..Default::default()
    };
    assert_refused(
        client
            .submit_move(authed(submit("e5e7"), &seats.white))
            .await,
        Code::FailedPrecondition,
        "ILLEGAL_MOVE",
    );
    assert_refused(
        client
            .submit_move(authed(submit("e5-e7!?"), &seats.white))
            .await,
        Code::InvalidArgument,
        "MALFORMED_MOVE",
    );
    assert_eq!(get(&mut client, &seats.id).await.ply, 4);

    client
        .resign(authed(
            pb::ResignRequest {
                game_id: seats.id.clone(),
            },
            &seats.white,
        ))
        .await
        .unwrap();
    let events: Vec<String> = drain(&mut stream).await.iter().map(describe).collect();
    assert_eq!(
        events,
        [
            "snapshot ply 0",
            "move e3e5",
            "move a10a9",
            "move b2c4",
            "move a9a10",
            "over 0-1"
        ]
    );
    let pgn = export_pgn(&mut client, &seats.id).await;
    assert!(pgn.contains("[Variant \"Grand\"]"), "{pgn}");
    assert!(pgn.contains("[FEN \"r8r/1nbqkcabn1/"), "{pgn}");
    assert!(pgn.contains("1. e5 Ra9 2. Nc4 Raa10 0-1"), "{pgn}");
}

/// Loop Chess: a capture goes to the capturer's hand, the hands are on the answer, and the
/// piece comes back as a drop (`N@e5`, or `P@...` in UCI), which a watcher sees as played.
#[tokio::test]
async fn loop_chess_drops_what_it_took() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create_with(&mut client, by_key("loop")).await;
    let after = play_all(&mut client, &seats, 'w', "e4 d5 exd5 Qxd5 Nc3 Qa5").await;
    let hands = after.hands.expect("Loop Chess has hands");
    let pieces = |hand: Option<pb::Hand>| -> Vec<(String, u32)> {
        hand.map(|h| h.pieces.into_iter().map(|p| (p.piece, p.count)).collect())
            .unwrap_or_default()
    };
    assert_eq!(pieces(hands.white), [("P".to_string(), 1)]);
    assert_eq!(pieces(hands.black), [("P".to_string(), 1)]);
    let dropped = play(&mut client, &seats, 'w', "P@e6").await.game.unwrap();
    assert_eq!(dropped.moves.last().map(|m| m.san.as_str()), Some("P@e6"));
    assert_eq!(pieces(dropped.hands.and_then(|h| h.white)), []);
    let read = get(&mut client, &seats.id).await;
    assert_eq!(read.fen, dropped.fen);
}

/// AnalyzePosition takes a wide game's FEN by key and lists its moves; a FEN of the wrong
/// board is refused as an invalid FEN.
#[tokio::test]
async fn wide_positions_are_analysed() {
    let server = start().await;
    let mut client = server.client().await;
    let analyze = |fen: &str| pb::AnalyzePositionRequest {
        variant: 0,
        fen: fen.into(),
        variant_key: "capablanca".into(),
    };
    let start = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
    let answer = client
        .analyze_position(analyze(start))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(answer.legal_moves.len(), 28);
    assert_eq!(answer.variant_key, "capablanca");
    assert_eq!(
        answer.geometry,
        Some(pb::BoardGeometry {
            files: 10,
            ranks: 8
        })
    );
    let refused = client
        .analyze_position(analyze(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ))
        .await;
    assert_refused(refused, Code::InvalidArgument, "INVALID_FEN");
}

/// The watcher of a wide game that joins late replays it from the store: its moves are read
/// back in the game's own notation.
#[tokio::test]
async fn a_late_watcher_replays_a_wide_game() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create_with(&mut client, by_key("janus")).await;
    play_all(&mut client, &seats, 'w', "e2e4 e7e5 Jc3 Jc6").await;
    let mut stream = watch(&mut client, &seats.id, 1).await;
    let mut seen = Vec::new();
    while seen.len() < 3 {
        let message = next_event(&mut stream).await.unwrap().expect("a message");
        match message.event {
            Some(Event::MovePlayed(m)) => seen.push(m.r#move.map(|m| m.san).unwrap_or_default()),
            Some(Event::Snapshot(_)) | Some(Event::Heartbeat(_)) => {}
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(seen, ["e5", "Jc3", "Jc6"]);
}

/// Extinction: taking the last piece of a kind wins, with its own termination on the wire.
#[tokio::test]
async fn extinction_ends_with_its_own_reason() {
    let server = start().await;
    let mut client = server.client().await;
    let fen = "r1bqkb1r/pppppppp/8/4n3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 1";
    let end = end_after(&mut client, "extinction", fen, 'w', "dxe5").await;
    assert_eq!(end, ("1-0".to_owned(), pb::Termination::Extinction));
}

/// Recycle Chess: the queen takes its own pawn into White's hand (SAN `Qxd2`), which comes
/// back as a drop; Ice Age: a first move takes ice, and a king frozen on Black's 40th move
/// loses with its own termination on the wire.
#[tokio::test]
async fn recycle_and_ice_age_are_played_by_key() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create_with(&mut client, by_key("recycle")).await;
    let after = play_all(&mut client, &seats, 'w', "e4 e5 Qxd2 Nc6 P@d3").await;
    assert_eq!(
        after.fen,
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/3P4/PPPQ1PPP/RNB1KBNR[] b KQkq - 2 3"
    );
    let (_, seats) = create_with(&mut client, by_key("iceage")).await;
    let after = play_all(&mut client, &seats, 'w', "hxg3 Nf6").await;
    assert_eq!(after.moves[0].uci, "h2g3");
    let fen = "7k/6p1/8/8/8/8/1P6/K7 b - - 0 40";
    let end = end_after(&mut client, "iceage", fen, 'b', "g6").await;
    assert_eq!(end, ("1-0".to_owned(), pb::Termination::KingFrozen));
}

/// Capablanca Random, Corner and Fortress start from a numbered array (`chess960_start`), or
/// a random one without it; Massacre from a shuffle. A retry with the same request id gets
/// the same start; a number past the last, or for a game with one start, is refused.
#[tokio::test]
async fn random_starts_are_numbered_or_drawn() {
    let server = start().await;
    let mut client = server.client().await;
    let numbered = |key: &str, n: u32| pb::CreateGameRequest {
        chess960_start: Some(n),
        ..by_key(key)
    };
    let (first, _) = create_with(&mut client, numbered("caparandom", 0)).await;
    let (again, _) = create_with(&mut client, numbered("caparandom", 0)).await;
    let (other, _) = create_with(&mut client, numbered("caparandom", 21_835)).await;
    assert_eq!(first.start_fen, again.start_fen);
    assert_ne!(first.start_fen, other.start_fen);
    for (key, last) in [("corner", 359), ("fortress", 359), ("caparandom", 21_835)] {
        create_with(&mut client, numbered(key, last)).await;
        assert_refused(
            client.create_game(numbered(key, last + 1)).await,
            Code::InvalidArgument,
            "INVALID_FIELD",
        );
    }
    assert_refused(
        client.create_game(numbered("janus", 0)).await,
        Code::InvalidArgument,
        "INVALID_FIELD",
    );

    for key in ["caparandom", "corner", "fortress", "massacre"] {
        let with_id = |id: &str| pb::CreateGameRequest {
            request_id: id.into(),
            ..by_key(key)
        };
        let (a, _) = create_with(&mut client, with_id(&format!("{key}-1"))).await;
        let (retried, _) = create_with(&mut client, with_id(&format!("{key}-1"))).await;
        assert_eq!(
            (a.game_id, a.start_fen.clone()),
            (retried.game_id, retried.start_fen)
        );
        let starts: std::collections::HashSet<String> = drawn_starts(&mut client, key).await;
        assert!(starts.len() > 1, "{key} always starts from {starts:?}");
    }
}

/// The starts of five games of `key` created without a number or a request id.
async fn drawn_starts(client: &mut Client, key: &str) -> std::collections::HashSet<String> {
    let mut starts = std::collections::HashSet::new();
    for _ in 0..5 {
        let (game, _) = create_with(client, by_key(key)).await;
        starts.insert(game.start_fen);
    }
    starts
}
