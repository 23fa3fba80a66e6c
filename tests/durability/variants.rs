//! Every variant survives a crash: games of each variant are played from their start (a
//! drawn Chess960 start among them) through random legal moves, which bring drops, promoted
//! pieces, explosions, castling as king-takes-rook and check counters along; after SIGKILL
//! and a restart each game has the same moves, position, pockets and checks, and plays on.
//! The wide family's games too, created by key: ranks up to 10, their own letters, Loop
//! Chess's hands.

use chessd::proto as pb;

use crate::common::seen_by;
use crate::support::{self, DataDir, Server};

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

/// Plays up to `plies` moves picked from the legal ones; returns the game after them.
async fn random_moves(
    client: &mut support::Client,
    seats: &support::Seats,
    salt: u64,
    plies: u32,
) -> pb::Game {
    let mut game = support::get(client, &seats.id).await;
    for _ in 0..plies {
        let Some(mv) = support::pick(&game, salt) else {
            break;
        };
        let played = support::play(client, seats, game.ply, &mv, "")
            .await
            .unwrap_or_else(|s| panic!("{mv} at {}: {}", game.fen, s.message()));
        game = played.game.expect("the game after the move");
    }
    support::get(client, &seats.id).await
}

/// What must come back unchanged.
type State = (
    Vec<String>,
    String,
    Option<pb::Pockets>,
    Option<pb::CheckCounts>,
    Option<pb::Hands>,
    i32,
    String,
);

fn state(game: &pb::Game) -> State {
    (
        support::ucis(game),
        game.fen.clone(),
        game.pockets,
        game.checks_given,
        game.hands.clone(),
        game.status,
        game.seed_sha256.clone(),
    )
}

/// The wide family's games, by key (they have no `Variant` number).
const WIDE_KEYS: [&str; 25] = [
    "losalamos",
    "janus",
    "embassy",
    "capablanca",
    "caparandom",
    "grand",
    "corner",
    "fortress",
    "bkhorde",
    "extinction",
    "massacre",
    "maharajah",
    "amazon",
    "knightmate",
    "berolina",
    "legan",
    "loop",
    "cylinder",
    "knightrelay",
    "cheshirecat",
    "recycle",
    "iceage",
    // The games of chance: their seed comes back, so the draws after the restart are the
    // ones the seed committed to.
    "dice",
    "dice10x10",
    "behemoth",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_variant_survives_a_crash() {
    let dir = DataDir::new("variants");
    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let mut games = Vec::new();
    for (i, variant) in VARIANTS.into_iter().enumerate() {
        let seats = support::create(
            &mut client,
            pb::CreateGameRequest {
                variant: variant as i32,
                white_player: "w".into(),
                black_player: "b".into(),
                ..Default::default()
            },
        )
        .await;
        let game = random_moves(&mut client, &seats, 7 + i as u64, 60).await;
        assert!(game.ply > 0, "{variant:?} played no move");
        games.push((format!("{variant:?}"), seats, state(&game)));
    }
    for (i, key) in WIDE_KEYS.into_iter().enumerate() {
        let seats = support::create(
            &mut client,
            pb::CreateGameRequest {
                variant_key: key.into(),
                white_player: "w".into(),
                black_player: "b".into(),
                ..Default::default()
            },
        )
        .await;
        let game = random_moves(&mut client, &seats, 50 + i as u64, 60).await;
        assert!(game.ply > 0, "{key} played no move");
        games.push((key.to_owned(), seats, state(&game)));
    }
    server.kill();

    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    for (i, (variant, seats, before)) in games.iter().enumerate() {
        let game = support::get(&mut client, &seats.id).await;
        assert_eq!(&state(&game), before, "{variant} after the restart");
        // It plays on where it can (a game the random moves ended stays over).
        if game.status == pb::GameStatus::Ongoing as i32 {
            let on = random_moves(&mut client, seats, 100 + i as u64, 4).await;
            assert!(on.ply > game.ply, "{variant} plays on after the restart");
        }
    }
}

/// Dark Chess after a SIGKILL: each seat is shown exactly the view it had (its pieces, `?`
/// elsewhere, the opponent's moves as `?`), a spectator still no square, and the seats play on
/// from their views.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hidden_game_survives_a_crash() {
    let dir = DataDir::new("dark");
    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let seats = support::create(
        &mut client,
        pb::CreateGameRequest {
            variant_key: "dark".into(),
            ..Default::default()
        },
    )
    .await;
    // Each side picks from its own view's legal moves, as a player must.
    let play_on = |client: &mut support::Client, plies: u32| {
        let (mut client, seats) = (client.clone(), seats.clone());
        async move {
            for _ in 0..plies {
                let spectator = seen_by(&mut client, &seats.id, None).await;
                let token = seats.to_move(spectator.ply).to_owned();
                let mine = seen_by(&mut client, &seats.id, Some(&token)).await;
                let Some(mv) = support::pick(&mine, 31) else {
                    break;
                };
                support::play(&mut client, &seats, mine.ply, &mv, "")
                    .await
                    .unwrap_or_else(|s| panic!("{mv} at {}: {}", mine.fen, s.message()));
            }
        }
    };
    play_on(&mut client, 20).await;
    let tokens = [Some(seats.white.clone()), Some(seats.black.clone()), None];
    let mut before = Vec::new();
    for token in &tokens {
        before.push(seen_by(&mut client, &seats.id, token.as_deref()).await);
    }
    assert_eq!(before[2].ply, 20, "the seeded game ended early");
    assert!(before[0].fen.contains('?') && before[1].fen.contains('?'));
    server.kill();

    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    for (token, before) in tokens.iter().zip(&before) {
        let after = seen_by(&mut client, &seats.id, token.as_deref()).await;
        assert_eq!(&after, before, "{token:?} after the restart");
    }
    play_on(&mut client, 4).await;
    assert_eq!(
        seen_by(&mut client, &seats.id, None).await.ply,
        24,
        "plays on after the restart"
    );
}

/// Screen Chess's setup survives a crash half done: after SIGKILL each seat, and a spectator,
/// sees what it saw (White's final placement, Black's draft, each only by its own seat), and
/// Black's final placement then reveals both halves.
#[tokio::test]
async fn a_setup_survives_a_crash() {
    const WHITE: &str = "2P2P2/P2PP2P/1P4P1/RNBQKBNR";
    const BLACK: &str = "rn1qk1nr/1b1pp1b1/p1p2p1p/1p4p1";
    let dir = DataDir::new("screen");
    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let seats = support::create(
        &mut client,
        pb::CreateGameRequest {
            variant_key: "screen".into(),
            ..Default::default()
        },
    )
    .await;
    let place = |client: &mut support::Client, token: String, placement: &str, commit: bool| {
        let mut client = client.clone();
        let request = crate::common::authed(
            pb::SubmitSetupRequest {
                game_id: seats.id.clone(),
                placement: placement.into(),
                commit,
            },
            &token,
        );
        async move {
            client
                .submit_setup(request)
                .await
                .expect("placement accepted")
                .into_inner()
        }
    };
    place(&mut client, seats.white.clone(), WHITE, true).await;
    place(
        &mut client,
        seats.black.clone(),
        "rnbqkbnr/pppppppp/8/8",
        false,
    )
    .await;
    let tokens = [Some(seats.white.clone()), Some(seats.black.clone()), None];
    let mut before = Vec::new();
    for token in &tokens {
        before.push(seen_by(&mut client, &seats.id, token.as_deref()).await);
    }
    assert!(before[0].fen.contains(WHITE) && !before[1].fen.contains(WHITE));
    server.kill();

    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    for (token, before) in tokens.iter().zip(&before) {
        let after = seen_by(&mut client, &seats.id, token.as_deref()).await;
        assert_eq!(&after, before, "{token:?} after the restart");
    }
    let revealed = place(&mut client, seats.black.clone(), BLACK, true)
        .await
        .game
        .expect("the game");
    assert_eq!(revealed.start_fen, format!("{BLACK}/{WHITE} w - - 0 1"));
    let played = support::play(&mut client, &seats, 0, "c4c5", "").await;
    assert!(played.is_ok(), "{played:?}");
}

/// A Dark Chess game's delayed public view is part of the game: after SIGKILL and a restart
/// a spectator is still shown the game two plies behind, and the seats their own views.
#[tokio::test]
async fn a_delayed_view_survives_a_crash() {
    let dir = DataDir::new("delay");
    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let seats = support::create(
        &mut client,
        pb::CreateGameRequest {
            variant_key: "dark".into(),
            public_delay_plies: 2,
            ..Default::default()
        },
    )
    .await;
    for (ply, mv) in ["e2e4", "e7e5", "g1f3"].into_iter().enumerate() {
        let played = support::play(&mut client, &seats, ply as u32, mv, "").await;
        assert!(played.is_ok(), "{played:?}");
    }
    let tokens = [Some(seats.white.clone()), Some(seats.black.clone()), None];
    let mut before = Vec::new();
    for token in &tokens {
        before.push(seen_by(&mut client, &seats.id, token.as_deref()).await);
    }
    let spectator = &before[2];
    assert_eq!((spectator.ply, spectator.public_delay_plies), (1, 2));
    assert_eq!(spectator.moves.len(), 1);
    server.kill();

    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    for (token, before) in tokens.iter().zip(&before) {
        let after = seen_by(&mut client, &seats.id, token.as_deref()).await;
        assert_eq!(&after, before, "{token:?} after the restart");
    }
    let played = support::play(&mut client, &seats, 3, "b8c6", "").await;
    assert!(played.is_ok(), "{played:?}");
    let spectator = seen_by(&mut client, &seats.id, None).await;
    assert_eq!(spectator.ply, 2);
}
