//! Every lichess variant through the API, on whichever store the suite runs on: each game is
//! created, played and ended by its own variant's rule, and what the API shows of the variant
//! (pockets, checks given, Chess960 castling as the king taking its rook) is checked; the
//! watchers' events and the PGN say the same.

use chessd::proto as pb;
use chessd::proto::watch_game_response::Event;
use tonic::Code;

use crate::support::*;

/// A game of `variant` from `fen`.
async fn game_from(client: &mut Client, variant: pb::Variant, fen: &str) -> (pb::Game, Seats) {
    create_with(
        client,
        pb::CreateGameRequest {
            variant: variant as i32,
            start_fen: fen.into(),
            white_player: "white".into(),
            black_player: "black".into(),
            ..Default::default()
        },
    )
    .await
}

/// The game's end as (result, termination), after the moves, with the watcher's last event
/// saying the same.
async fn ends(
    client: &mut Client,
    seats: &Seats,
    first: char,
    moves: &str,
) -> (String, pb::Termination) {
    let mut stream = watch(client, &seats.id, 0).await;
    let game = play_all(client, seats, first, moves).await;
    let events = drain(&mut stream).await;
    let (result, termination) = outcome(&game);
    let Some(Event::GameOver(over)) = events.last().and_then(|e| e.event.clone()) else {
        panic!("the stream did not end with the game: {:?}", events.last());
    };
    assert_eq!(
        over.outcome.map(|o| o.termination),
        Some(termination as i32),
        "the watcher's end is the game's"
    );
    (result, termination)
}

/// Chess960: a start by number, castling written as the king taking its rook (read from that,
/// from SAN and from the king's two-square move), and a checkmate.
#[tokio::test]
async fn chess960_castles_and_mates() {
    let server = start().await;
    let mut client = server.client().await;
    let (game, seats) = create_with(
        &mut client,
        pb::CreateGameRequest {
            variant: pb::Variant::Chess960 as i32,
            chess960_start: Some(518),
            ..Default::default()
        },
    )
    .await;
    assert_eq!(game.start_fen, CHESS_START);
    // The king's two-square move castles where it cannot mean anything else.
    play_all(&mut client, &seats, 'w', "Nf3 Nf6 g3 g6 Bg2 Bg7 e1g1").await;
    let after = get(&mut client, &seats.id).await;
    let castle = after.moves.last().unwrap();
    assert_eq!((castle.uci.as_str(), castle.san.as_str()), ("e1h1", "O-O"));
    assert!(
        after
            .fen
            .starts_with("rnbqk2r/ppppppbp/5np1/8/8/5NP1/PPPPPPBP/RNBQ1RK1 b kq"),
        "{}",
        after.fen
    );
    // Black castles with SAN; then a mate.
    play(&mut client, &seats, 'b', "O-O").await;
    let (_, seats) = create_with(
        &mut client,
        pb::CreateGameRequest {
            variant: pb::Variant::Chess960 as i32,
            chess960_start: Some(518),
            ..Default::default()
        },
    )
    .await;
    let ended = ends(&mut client, &seats, 'w', "f3 e5 g4 Qh4#").await;
    assert_eq!(ended, ("0-1".to_owned(), pb::Termination::Checkmate));

    // A shuffled start, castling both ways by king-takes-rook.
    let (_, seats) = game_from(
        &mut client,
        pb::Variant::Chess960,
        "1k6/8/8/8/8/8/8/RK5R w HA - 0 1",
    )
    .await;
    let played = play(&mut client, &seats, 'w', "b1a1").await.r#move.unwrap();
    assert_eq!(
        (played.uci.as_str(), played.san.as_str()),
        ("b1a1", "O-O-O")
    );
    assert!(
        get(&mut client, &seats.id)
            .await
            .fen
            .starts_with("1k6/8/8/8/8/8/8/2KR3R b")
    );

    // Without a number or a FEN a start is drawn; a number out of range, or with a FEN, is refused.
    let (random, _) = create_with(
        &mut client,
        pb::CreateGameRequest {
            variant: pb::Variant::Chess960 as i32,
            ..Default::default()
        },
    )
    .await;
    assert_eq!(random.variant, pb::Variant::Chess960 as i32);
    assert!(random.legal_moves.len() >= 18, "{}", random.start_fen);
    for request in [
        pb::CreateGameRequest {
            variant: pb::Variant::Chess960 as i32,
            chess960_start: Some(960),
            ..Default::default()
        },
        pb::CreateGameRequest {
            variant: pb::Variant::Chess960 as i32,
            chess960_start: Some(1),
            start_fen: CHESS_START.into(),
            ..Default::default()
        },
        pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            chess960_start: Some(518),
            ..Default::default()
        },
    ] {
        let status = assert_refused(
            client.create_game(request).await,
            Code::InvalidArgument,
            "INVALID_FIELD",
        );
        assert!(
            status.message().contains("chess960_start"),
            "{}",
            status.message()
        );
    }
    server.shutdown().await.unwrap();
}

/// Three-check: the checks given are shown, and the third check wins.
#[tokio::test]
async fn three_check_third_check_wins() {
    let server = start().await;
    let mut client = server.client().await;
    let (game, seats) = game_from(
        &mut client,
        pb::Variant::ThreeCheck,
        "4k3/8/8/8/8/8/8/4K2R w - - 1+3 0 1",
    )
    .await;
    let given = game
        .checks_given
        .expect("three-check shows the checks given");
    assert_eq!((given.white, given.black), (2, 0));
    let ended = ends(&mut client, &seats, 'w', "Rh8+").await;
    assert_eq!(ended, ("1-0".to_owned(), pb::Termination::ThirdCheck));
    let game = get(&mut client, &seats.id).await;
    assert_eq!(game.checks_given.map(|c| (c.white, c.black)), Some((3, 0)));
    assert!(game.pockets.is_none(), "no pockets outside crazyhouse");
    server.shutdown().await.unwrap();
}

/// King of the Hill: a king on the centre wins.
#[tokio::test]
async fn king_of_the_hill_centre_wins() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = game_from(
        &mut client,
        pb::Variant::KingOfTheHill,
        "4k3/8/8/8/8/3K4/8/8 w - - 0 1",
    )
    .await;
    let ended = ends(&mut client, &seats, 'w', "Kd4").await;
    assert_eq!(ended, ("1-0".to_owned(), pb::Termination::KingOfTheHill));
    server.shutdown().await.unwrap();
}

/// Antichess: a capture is forced, and the side that loses its last piece wins.
#[tokio::test]
async fn antichess_losing_everything_wins() {
    let server = start().await;
    let mut client = server.client().await;
    let (game, seats) = game_from(
        &mut client,
        pb::Variant::Antichess,
        "8/8/8/8/8/8/p7/1R6 b - - 0 1",
    )
    .await;
    assert!(
        game.legal_moves.iter().all(|m| m.uci.starts_with("a2b1")),
        "captures only: {:?}",
        game.legal_moves
    );
    assert_refused(
        client
            .submit_move(authed(
                pb::SubmitMoveRequest {
                    game_id: seats.id.clone(),
                    r#move: "a2a1q".into(),
                    ..Default::default()
                },
                &seats.black,
            ))
            .await,
        Code::FailedPrecondition,
        "ILLEGAL_MOVE",
    );
    let ended = ends(&mut client, &seats, 'b', "axb1=K").await;
    assert_eq!(ended, ("1-0".to_owned(), pb::Termination::AllPiecesLost));
    server.shutdown().await.unwrap();
}

/// Atomic: a capture next to the enemy king explodes it.
#[tokio::test]
async fn atomic_explosion_wins() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = game_from(
        &mut client,
        pb::Variant::Atomic,
        "4k3/3p4/8/8/8/8/8/3QK3 w - - 0 1",
    )
    .await;
    let ended = ends(&mut client, &seats, 'w', "Qxd7").await;
    assert_eq!(ended, ("1-0".to_owned(), pb::Termination::KingExploded));
    let game = get(&mut client, &seats.id).await;
    assert!(
        game.fen.starts_with("8/8/8/8/8/8/8/4K3"),
        "the explosion cleared the board: {}",
        game.fen
    );
    server.shutdown().await.unwrap();
}

/// Horde: Black wins by capturing every white piece; the horde's start is the default.
#[tokio::test]
async fn horde_destroyed() {
    let server = start().await;
    let mut client = server.client().await;
    let (game, _) = game_from(&mut client, pb::Variant::Horde, "").await;
    assert_eq!(
        game.start_fen,
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"
    );
    let (_, seats) = game_from(
        &mut client,
        pb::Variant::Horde,
        "4k3/8/8/8/8/3p4/4P3/8 b - - 0 1",
    )
    .await;
    let ended = ends(&mut client, &seats, 'b', "dxe2").await;
    assert_eq!(ended, ("0-1".to_owned(), pb::Termination::HordeDestroyed));
    server.shutdown().await.unwrap();
}

/// Crazyhouse: the pockets are shown, a captured piece changes sides, and a drop mates.
#[tokio::test]
async fn crazyhouse_drop_mates() {
    let server = start().await;
    let mut client = server.client().await;
    let (game, seats) = game_from(&mut client, pb::Variant::Crazyhouse, "").await;
    let empty = game.pockets.expect("crazyhouse shows its pockets");
    assert_eq!(empty.white.unwrap_or_default(), pb::Pocket::default());
    play_all(&mut client, &seats, 'w', "e4 d5 exd5").await;
    let game = get(&mut client, &seats.id).await;
    assert_eq!(
        game.pockets.unwrap().white.unwrap().pawns,
        1,
        "{}",
        game.fen
    );
    assert!(
        game.legal_moves.iter().all(|m| !m.uci.contains('@')),
        "Black has nothing to drop"
    );

    let (game, seats) = game_from(
        &mut client,
        pb::Variant::Crazyhouse,
        "4k3/8/4K3/8/8/8/8/8[Q] w - - 0 1",
    )
    .await;
    assert_eq!(game.pockets.unwrap().white.unwrap().queens, 1);
    assert!(
        game.legal_moves
            .iter()
            .any(|m| m.uci == "Q@e7" && m.san == "Q@e7#"),
        "{:?}",
        game.legal_moves
    );
    let ended = ends(&mut client, &seats, 'w', "Q@e7").await;
    assert_eq!(ended, ("1-0".to_owned(), pb::Termination::Checkmate));
    let pgn = client
        .export_pgn(pb::ExportPgnRequest {
            game_id: seats.id.clone(),
        })
        .await
        .unwrap()
        .into_inner()
        .pgn;
    assert!(
        pgn.contains("[Variant \"Crazyhouse\"]") && pgn.contains("1. Q@e7# 1-0"),
        "{pgn}"
    );
    server.shutdown().await.unwrap();
}

/// GetStats has one entry per game, the nine numbered ones in the API's order and then the
/// wide family's by key, and counts each game's results.
#[tokio::test]
async fn stats_per_variant() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = game_from(
        &mut client,
        pb::Variant::KingOfTheHill,
        "4k3/8/8/8/8/3K4/8/8 w - - 0 1",
    )
    .await;
    play(&mut client, &seats, 'w', "Kd4").await;
    let stats = client
        .get_stats(pb::GetStatsRequest::default())
        .await
        .unwrap()
        .into_inner();
    let variants: Vec<i32> = stats.variants.iter().map(|v| v.variant).collect();
    assert_eq!(variants[..9], (1..=9).collect::<Vec<i32>>());
    // The nine, the wide family's 22 open games, its 3 games of chance, Dark Chess, Ambiguous
    // Chess, the 2 screen games, shogi, minishogi and xiangqi.
    assert_eq!(stats.variants.len(), 9 + 22 + 3 + 1 + 1 + 2 + 3);
    assert!(variants[9..].iter().all(|&v| v == 0), "{variants:?}");
    assert_eq!(stats.variants[9].variant_key, "losalamos");
    assert_eq!(stats.variants[25].variant_key, "loop");
    assert_eq!(stats.variants[28].variant_key, "cheshirecat");
    assert_eq!(stats.variants[30].variant_key, "iceage");
    let keys: Vec<&str> = stats.variants[31..]
        .iter()
        .map(|v| v.variant_key.as_str())
        .collect();
    assert_eq!(
        keys,
        [
            "dark",
            "dice",
            "dice10x10",
            "behemoth",
            "screen",
            "crazyscreen",
            "ambiguous",
            "shogi",
            "minishogi",
            "xiangqi"
        ]
    );
    let koth = &stats.variants[(pb::Variant::KingOfTheHill as usize) - 1];
    assert_eq!((koth.white_wins, koth.finished_games), (1, 1));
    server.shutdown().await.unwrap();
}

/// AnalyzePosition shows the variant's state too.
#[tokio::test]
async fn analysis_shows_variant_state() {
    let server = start().await;
    let mut client = server.client().await;
    let analysis = client
        .analyze_position(pb::AnalyzePositionRequest {
            variant: pb::Variant::Crazyhouse as i32,
            fen: "4k3/8/4K3/8/8/8/8/8[Qn] w - - 0 1".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let pockets = analysis.pockets.unwrap();
    assert_eq!(
        (
            pockets.white.unwrap().queens,
            pockets.black.unwrap().knights
        ),
        (1, 1)
    );
    let analysis = client
        .analyze_position(pb::AnalyzePositionRequest {
            variant: pb::Variant::ThreeCheck as i32,
            fen: "4k3/8/8/8/8/8/8/4K2R w - - 0 1 +2+1".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        analysis.checks_given.map(|c| (c.white, c.black)),
        Some((2, 1))
    );
    server.shutdown().await.unwrap();
}
