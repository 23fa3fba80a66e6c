//! Every variant across replicas: each game's moves (random legal ones, drops and
//! explosions and king-takes-rook castling among them) go to two replicas in turn, so each
//! replica plays onto a game the other changed (caught up from the stream, or loaded whole);
//! a third replica started afterwards, with nothing cached, shows each game exactly as the
//! first two do.

use chessd::proto as pb;

use crate::support::{self, Redis};

const VARIANTS: [pb::Variant; 9] = [
    pb::Variant::Chess,
    pb::Variant::RacingKings,
    pb::Variant::Chess960,
    pb::Variant::ThreeCheck,
    pb::Variant::KingOfTheHill,
    pb::Variant::Antichess,
    pb::Variant::Atomic,
    pb::Variant::Horde,
    pb::Variant::Crazyhouse,
];

/// A move of `game` picked from `salt` (the same small generator as the durability tests).
fn pick(game: &pb::Game, salt: u64) -> Option<String> {
    if game.legal_moves.is_empty() {
        return None;
    }
    let x = salt
        .wrapping_mul(6364136223846793005)
        .wrapping_add(u64::from(game.ply).wrapping_mul(1442695040888963407));
    Some(
        game.legal_moves[(x >> 33) as usize % game.legal_moves.len()]
            .uci
            .clone(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_variant_plays_across_replicas() {
    let redis = Redis::start();
    let a = support::replica(&redis).await;
    let b = support::replica(&redis).await;
    let mut clients = [a.client().await, b.client().await];
    let mut games = Vec::new();
    // The games of chance too: whichever replica takes a move draws what follows it from the
    // seed in the shared store, so both draw the same.
    let requests = VARIANTS
        .into_iter()
        .map(|variant| pb::CreateGameRequest {
            variant: variant as i32,
            ..Default::default()
        })
        .chain(
            ["dice", "dice10x10", "behemoth"].map(|key| pb::CreateGameRequest {
                variant_key: key.into(),
                ..Default::default()
            }),
        );
    for (i, request) in requests.enumerate() {
        let variant = format!("{} {}", request.variant, request.variant_key);
        let created = clients[0]
            .create_game(request)
            .await
            .unwrap_or_else(|s| panic!("create {variant}: {}", s.message()))
            .into_inner();
        let seats = support::Seats {
            id: created.game.expect("game").game_id,
            white: created.white_token,
            black: created.black_token,
        };
        for turn in 0..40usize {
            let game = support::get(&mut clients[turn % 2], &seats.id)
                .await
                .unwrap();
            let Some(mv) = pick(&game, 11 + i as u64) else {
                break;
            };
            let side = if game.turn == pb::Color::White as i32 {
                'w'
            } else {
                'b'
            };
            support::play(&mut clients[(turn + 1) % 2], &seats, side, &mv).await;
        }
        games.push((variant, seats));
    }
    let c = support::replica(&redis).await;
    let mut fresh = c.client().await;
    for (variant, seats) in &games {
        let seen: Vec<pb::Game> = [
            support::get(&mut clients[0], &seats.id).await.unwrap(),
            support::get(&mut clients[1], &seats.id).await.unwrap(),
            support::get(&mut fresh, &seats.id).await.unwrap(),
        ]
        .into_iter()
        .map(|mut g| {
            // The clocks' reading time differs from one call to the next; presence is each
            // replica's reading (a seat never seen is gone since the replica started).
            g.clocks = None;
            g.white_presence = None;
            g.black_presence = None;
            g
        })
        .collect();
        assert!(seen[0].ply > 0, "{variant} played no move");
        assert_eq!(seen[0], seen[1], "{variant} on the two replicas");
        assert_eq!(
            seen[0], seen[2],
            "{variant} on a replica that read it whole"
        );
    }
}

/// Dark Chess across replicas: each seat reads its view from one replica and moves on the
/// other; every replica, a fresh one included, then shows each seat the same view of the
/// shared game (its own pieces, `?` elsewhere), a spectator no square, and the whole game once
/// it is over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hidden_game_shows_each_seat_its_view_on_every_replica() {
    use crate::common::{authed, seen_by};
    let redis = Redis::start();
    let a = support::replica(&redis).await;
    let b = support::replica(&redis).await;
    let mut clients = [a.client().await, b.client().await];
    let seats = support::create_with(
        &mut clients[0],
        pb::CreateGameRequest {
            variant_key: "dark".into(),
            ..Default::default()
        },
    )
    .await;
    for turn in 0..16usize {
        let white = turn % 2 == 0;
        let token = if white { &seats.white } else { &seats.black };
        let game = seen_by(&mut clients[turn % 2], &seats.id, Some(token)).await;
        let Some(mv) = pick(&game, 5) else {
            break;
        };
        support::play(
            &mut clients[(turn + 1) % 2],
            &seats,
            if white { 'w' } else { 'b' },
            &mv,
        )
        .await;
    }
    let c = support::replica(&redis).await;
    let mut fresh = c.client().await;
    for token in [Some(seats.white.as_str()), Some(seats.black.as_str()), None] {
        let seen = [
            seen_by(&mut clients[0], &seats.id, token).await,
            seen_by(&mut clients[1], &seats.id, token).await,
            seen_by(&mut fresh, &seats.id, token).await,
        ];
        assert_eq!(seen[0].ply, 16, "the seeded game ended early");
        assert!(seen[0].fen.contains('?'), "{}", seen[0].fen);
        assert!(seen[0].moves.iter().any(|m| m.uci == "?"));
        if token.is_none() {
            assert!(seen[0].moves.iter().all(|m| m.uci == "?"));
            let board = seen[0].fen.split(' ').next().unwrap();
            assert!(board.chars().all(|c| c == '?' || c == '/'), "{board}");
        }
        assert_eq!(seen[0], seen[1], "{token:?} on the two replicas");
        assert_eq!(
            seen[0], seen[2],
            "{token:?} on a replica that read it whole"
        );
    }
    clients[1]
        .resign(authed(
            pb::ResignRequest {
                game_id: seats.id.clone(),
            },
            &seats.black,
        ))
        .await
        .expect("resign");
    let over = seen_by(&mut fresh, &seats.id, None).await;
    assert!(over.outcome.is_some());
    assert!(!over.fen.contains('?') && over.moves.iter().all(|m| m.uci != "?"));
}

/// Screen Chess's setup across replicas: White places on one replica, Black on the other (a
/// draft, then its final placement, which reveals both); before the reveal each replica, and a
/// fresh third, shows each seat its own placement only; after it, all show the same start,
/// and a move played on one is seen on the others.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_setup_is_shared_by_every_replica() {
    use crate::common::{authed, seen_by};
    const WHITE: &str = "2P2P2/P2PP2P/1P4P1/RNBQKBNR";
    const BLACK: &str = "rn1qk1nr/1b1pp1b1/p1p2p1p/1p4p1";
    let redis = Redis::start();
    let a = support::replica(&redis).await;
    let b = support::replica(&redis).await;
    let mut clients = [a.client().await, b.client().await];
    let seats = support::create_with(
        &mut clients[0],
        pb::CreateGameRequest {
            variant_key: "screen".into(),
            ..Default::default()
        },
    )
    .await;
    let place = |token: &str, placement: &str, commit: bool| {
        authed(
            pb::SubmitSetupRequest {
                game_id: seats.id.clone(),
                placement: placement.into(),
                commit,
            },
            token,
        )
    };
    clients[0]
        .submit_setup(place(&seats.white, WHITE, true))
        .await
        .expect("white's placement");
    clients[1]
        .submit_setup(place(&seats.black, "rnbqkbnr/pppppppp/8/8", false))
        .await
        .expect("black's draft");
    let c = support::replica(&redis).await;
    let mut fresh = c.client().await;
    for token in [Some(seats.white.as_str()), Some(seats.black.as_str()), None] {
        let seen = [
            seen_by(&mut clients[0], &seats.id, token).await,
            seen_by(&mut clients[1], &seats.id, token).await,
            seen_by(&mut fresh, &seats.id, token).await,
        ];
        assert_eq!(
            seen[0].fen.contains(WHITE),
            token == Some(seats.white.as_str()),
            "{token:?}: {}",
            seen[0].fen
        );
        assert_eq!(seen[0], seen[1], "{token:?} on the two replicas");
        assert_eq!(seen[0], seen[2], "{token:?} on a fresh replica");
    }
    let revealed = clients[1]
        .submit_setup(place(&seats.black, BLACK, true))
        .await
        .expect("black's final placement")
        .into_inner()
        .game
        .expect("the game");
    let start = format!("{BLACK}/{WHITE} w - - 0 1");
    assert_eq!(revealed.start_fen, start);
    support::play(&mut clients[0], &seats, 'w', "c4c5").await;
    for client in [&mut clients[1], &mut fresh] {
        let game = seen_by(client, &seats.id, None).await;
        assert_eq!((game.start_fen.as_str(), game.ply), (start.as_str(), 1));
    }
}

/// The players' entropy across replicas: White commits on one replica, Black on the other,
/// the secrets likewise; every replica, and a fresh third, shows the same round and then the
/// same start (the first roll drawn with the key), and a move played on each replica (each
/// drawing with the key the other derived) leaves every replica with the same moves and die.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_players_entropy_is_shared_by_every_replica() {
    use crate::common::{authed, seen_by};
    use sha2::{Digest, Sha256};
    let hex = |bytes: &[u8]| -> String { bytes.iter().map(|b| format!("{b:02x}")).collect() };
    let (white, black) = ([0x31; 32], [0x42; 32]);
    let redis = Redis::start();
    let a = support::replica(&redis).await;
    let b = support::replica(&redis).await;
    let mut clients = [a.client().await, b.client().await];
    let seats = support::create_with(
        &mut clients[0],
        pb::CreateGameRequest {
            variant_key: "dice".into(),
            player_entropy: true,
            ..Default::default()
        },
    )
    .await;
    let send = |token: &str, commitment: String, reveal: String| {
        authed(
            pb::SubmitEntropyRequest {
                game_id: seats.id.clone(),
                commitment,
                reveal,
            },
            token,
        )
    };
    clients[0]
        .submit_entropy(send(
            &seats.white,
            hex(&Sha256::digest(white)),
            String::new(),
        ))
        .await
        .expect("white's commitment");
    clients[1]
        .submit_entropy(send(
            &seats.black,
            hex(&Sha256::digest(black)),
            String::new(),
        ))
        .await
        .expect("black's commitment");
    clients[0]
        .submit_entropy(send(&seats.black, String::new(), hex(&black)))
        .await
        .expect("black's secret");
    let round = seen_by(&mut clients[1], &seats.id, None).await;
    assert_eq!(
        round.entropy.as_ref().map(|e| e.phase),
        Some(pb::EntropyPhase::Reveals as i32)
    );
    let started = clients[1]
        .submit_entropy(send(&seats.white, String::new(), hex(&white)))
        .await
        .expect("white's secret")
        .into_inner()
        .game
        .expect("the game");
    let c = support::replica(&redis).await;
    let mut fresh = c.client().await;
    for client in [&mut clients[0], &mut fresh] {
        let game = seen_by(client, &seats.id, None).await;
        assert_eq!(game.start_fen, started.start_fen);
        assert_eq!(game.entropy, started.entropy);
    }
    let first = started.legal_moves[0].uci.clone();
    support::play(&mut clients[0], &seats, 'w', &first).await;
    let after = seen_by(&mut fresh, &seats.id, None).await;
    assert_eq!(after.ply, 1);
    let reply = after.legal_moves[0].uci.clone();
    support::play(&mut fresh, &seats, 'b', &reply).await;
    let on_a = seen_by(&mut clients[0], &seats.id, None).await;
    let on_b = seen_by(&mut clients[1], &seats.id, None).await;
    assert_eq!(on_a.moves, on_b.moves);
    assert_eq!(on_a.fen, on_b.fen);
}
