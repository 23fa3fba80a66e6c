//! The players' entropy over the API (CreateGameRequest.player_entropy, SubmitEntropy;
//! docs/fairness.md): the commit-reveal round before the first move, its refusals and
//! retries, its events in WatchGame, and every draw of the game then derived from the key,
//! recomputed here from the revealed seed and both secrets with the `hmac` crate. On every
//! store.

use chessd::proto as pb;
use chessd_rules::wide::WideVariant;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};
use tonic::Code;

use crate::chance::{check_draws_with, hex, play_on, unhex};
use crate::common::{authed, watch};
use crate::support::{
    Client, Seats, assert_refused, by_key, create_with, describe, drain, get, play, start,
    start_unlimited,
};

/// docs/fairness.md's key: HMAC-SHA256 keyed with the seed over both secrets.
fn key(seed: &[u8], white: &[u8; 32], black: &[u8; 32]) -> Vec<u8> {
    let mut mac = Hmac::<Sha256>::new_from_slice(seed).unwrap();
    mac.update(format!("chessd entropy v1 {} {}", hex(white), hex(black)).as_bytes());
    mac.finalize().into_bytes().to_vec()
}

fn commitment(secret: &[u8; 32]) -> String {
    hex(&Sha256::digest(secret))
}

/// SubmitEntropy with a commitment or (`reveal`) a secret, for seat `side`.
async fn submit(
    client: &mut Client,
    seats: &Seats,
    side: char,
    value: String,
    reveal: bool,
) -> Result<pb::Game, tonic::Status> {
    let request = if reveal {
        pb::SubmitEntropyRequest {
            game_id: seats.id.clone(),
            reveal: value,
            ..Default::default()
        }
    } else {
        pb::SubmitEntropyRequest {
            game_id: seats.id.clone(),
            commitment: value,
            ..Default::default()
        }
    };
    client
        .submit_entropy(authed(request, seats.token(side)))
        .await
        .map(|r| r.into_inner().game.expect("the game"))
}

/// A game of `key` with the players' entropy.
async fn create(client: &mut Client, key: &str) -> (pb::Game, Seats) {
    create_with(
        client,
        pb::CreateGameRequest {
            player_entropy: true,
            ..by_key(key)
        },
    )
    .await
}

/// Both seats commit, then both reveal: the last answer, the game in play.
async fn round(client: &mut Client, seats: &Seats, white: &[u8; 32], black: &[u8; 32]) -> pb::Game {
    submit(client, seats, 'w', commitment(white), false)
        .await
        .unwrap();
    submit(client, seats, 'b', commitment(black), false)
        .await
        .unwrap();
    submit(client, seats, 'b', hex(black), true).await.unwrap();
    submit(client, seats, 'w', hex(white), true).await.unwrap()
}

/// `scripts/verify-draws` checks the finished `game` of `key_name` from what the game shows:
/// the seed, both secrets and commitments, the start and the moves.
fn verify_draws(key_name: &str, game: &pb::Game) {
    let round = game.entropy.as_ref().expect("the round");
    let moves: Vec<&str> = game.moves.iter().map(|m| m.uci.as_str()).collect();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/verify-draws");
    let out = std::process::Command::new("python3")
        .arg(script)
        .args(["--variant", key_name, "--seed", &game.seed])
        .args(["--commitment", &game.seed_sha256])
        .args(["--white-entropy", &round.white_secret])
        .args(["--black-entropy", &round.black_secret])
        .args(["--white-commitment", &round.white_commitment])
        .args(["--black-commitment", &round.black_commitment])
        .args(["--start-fen", &game.start_fen, "--moves", &moves.join(" ")])
        .output()
        .expect("python3 runs scripts/verify-draws");
    assert!(
        out.status.success(),
        "{key_name}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Dice Chess, Dice Chess 10x10 and Behemoth with the players' entropy: no legal move and no
/// roll until the round is done, then every draw (the first roll, made then, and each later
/// one) is the key's, recomputed from the seed revealed at the end and both secrets, here and
/// by `scripts/verify-draws`.
#[tokio::test]
async fn every_draw_comes_from_the_players_key() {
    // Hundreds of calls a second from one address: the peer limit has tests of its own.
    let server = start_unlimited().await;
    let mut client = server.client().await;
    for (key_name, variant) in [
        ("dice", WideVariant::Dice),
        ("dice10x10", WideVariant::Dice10x10),
        ("behemoth", WideVariant::Behemoth),
    ] {
        let mut checked = 0;
        for g in 0..6u8 {
            let (created, seats) = create(&mut client, key_name).await;
            let round_state = created.entropy.clone().expect("the round");
            assert_eq!(round_state.phase, pb::EntropyPhase::Commitments as i32);
            assert!(
                created.legal_moves.is_empty(),
                "{key_name}: moves before the round"
            );
            assert_eq!(created.seed_sha256.len(), 64);
            if variant != WideVariant::Behemoth {
                assert_eq!(
                    created.fen.split(' ').nth(6),
                    Some("-"),
                    "rolled before the round"
                );
            }
            let white = [g.wrapping_mul(3).wrapping_add(1); 32];
            let black = [g.wrapping_mul(5).wrapping_add(2); 32];
            let game = round(&mut client, &seats, &white, &black).await;
            let done = game.entropy.clone().expect("the round");
            assert_eq!(done.phase, pb::EntropyPhase::Done as i32);
            assert_eq!(done.white_secret, hex(&white));
            assert_eq!(done.black_commitment, commitment(&black));
            assert!(!game.legal_moves.is_empty() || game.outcome.is_some());
            let game = play_on(&mut client, &seats, 30).await;
            if game.outcome.is_none() {
                let request = pb::ResignRequest {
                    game_id: seats.id.clone(),
                };
                client
                    .resign(authed(request, seats.token('w')))
                    .await
                    .unwrap();
            }
            let over = get(&mut client, &seats.id).await;
            let seed = unhex(&over.seed);
            assert_eq!(hex(&Sha256::digest(&seed)), created.seed_sha256);
            checked += check_draws_with(variant, &over, &key(&seed, &white, &black));
            verify_draws(key_name, &over);
        }
        assert!(checked >= 20, "{key_name}: {checked} draws");
    }
}

/// A retried creation with the players' entropy finds the game first made; the same request
/// id without it is another request.
#[tokio::test]
async fn a_retried_creation_keeps_the_round() {
    let server = start().await;
    let mut client = server.client().await;
    let request = pb::CreateGameRequest {
        request_id: "dice-with-entropy".into(),
        player_entropy: true,
        ..by_key("dice")
    };
    let first = client
        .create_game(request.clone())
        .await
        .unwrap()
        .into_inner();
    let again = client
        .create_game(request.clone())
        .await
        .unwrap()
        .into_inner();
    let id = |r: &pb::CreateGameResponse| r.game.as_ref().map(|g| g.game_id.clone());
    assert_eq!(id(&again), id(&first));
    let other = client
        .create_game(pb::CreateGameRequest {
            player_entropy: false,
            ..request
        })
        .await;
    assert_refused(other, Code::InvalidArgument, "REQUEST_ID_REUSED");
}

/// What the round refuses, and what it answers again: a move before it is done, a secret
/// before both commitments, another commitment, a wrong secret, malformed values, a call
/// without a token, a game without the round, and a game that draws nothing during play.
#[tokio::test]
async fn refusals_and_retries() {
    let server = start().await;
    let mut client = server.client().await;
    for key_name in ["chess", "chess960", "screen"] {
        let refused = client
            .create_game(pb::CreateGameRequest {
                player_entropy: true,
                ..by_key(key_name)
            })
            .await;
        let status = assert_refused(refused, Code::InvalidArgument, "INVALID_FIELD");
        assert!(
            status.message().contains("player_entropy"),
            "{}",
            status.message()
        );
    }
    let (plain, plain_seats) = create_with(&mut client, by_key("dice")).await;
    assert!(plain.entropy.is_none());
    let none = submit(&mut client, &plain_seats, 'w', commitment(&[1; 32]), false).await;
    assert_refused(none, Code::FailedPrecondition, "NO_ENTROPY_PHASE");

    let (_, seats) = create(&mut client, "behemoth").await;
    let (white, black) = ([7; 32], [8; 32]);
    let early = client
        .submit_move(authed(
            pb::SubmitMoveRequest {
                game_id: seats.id.clone(),
                r#move: "e2e4".into(),
                ..Default::default()
            },
            seats.token('w'),
        ))
        .await;
    let status = assert_refused(early, Code::FailedPrecondition, "ENTROPY_PENDING");
    assert!(
        status.message().contains("commitments"),
        "{}",
        status.message()
    );
    let bad = submit(&mut client, &seats, 'w', "xyz".into(), false).await;
    assert_refused(bad, Code::InvalidArgument, "INVALID_ENTROPY");
    let both = client
        .submit_entropy(authed(
            pb::SubmitEntropyRequest {
                game_id: seats.id.clone(),
                commitment: commitment(&white),
                reveal: hex(&white),
            },
            seats.token('w'),
        ))
        .await;
    assert_refused(both, Code::InvalidArgument, "INVALID_ENTROPY");
    let anonymous = client
        .submit_entropy(pb::SubmitEntropyRequest {
            game_id: seats.id.clone(),
            commitment: commitment(&white),
            ..Default::default()
        })
        .await;
    assert_refused(anonymous, Code::Unauthenticated, "TOKEN_MISSING");
    let first = submit(&mut client, &seats, 'w', commitment(&white), false)
        .await
        .unwrap();
    let again = submit(&mut client, &seats, 'w', commitment(&white), false)
        .await
        .unwrap();
    assert_eq!(
        again.last_seq, first.last_seq,
        "a retried commitment logged again"
    );
    let other = submit(&mut client, &seats, 'w', commitment(&black), false).await;
    assert_refused(other, Code::FailedPrecondition, "ENTROPY_OUT_OF_ORDER");
    let too_soon = submit(&mut client, &seats, 'w', hex(&white), true).await;
    assert_refused(too_soon, Code::FailedPrecondition, "ENTROPY_OUT_OF_ORDER");
    submit(&mut client, &seats, 'b', commitment(&black), false)
        .await
        .unwrap();
    let wrong = submit(&mut client, &seats, 'b', hex(&white), true).await;
    assert_refused(wrong, Code::InvalidArgument, "INVALID_ENTROPY");
    let revealed = submit(&mut client, &seats, 'b', hex(&black), true)
        .await
        .unwrap();
    // One secret in: shown to nobody yet, not even in its own seat's answer.
    let state = revealed.entropy.expect("the round");
    assert_eq!(state.phase, pb::EntropyPhase::Reveals as i32);
    assert!(state.black_secret.is_empty() && state.white_secret.is_empty());
    let pending = play_move(&mut client, &seats, "e2e4").await;
    let status = assert_refused(pending, Code::FailedPrecondition, "ENTROPY_PENDING");
    assert!(status.message().contains("secrets"), "{}", status.message());
    let started = submit(&mut client, &seats, 'w', hex(&white), true)
        .await
        .unwrap();
    let retried = submit(&mut client, &seats, 'w', hex(&white), true)
        .await
        .unwrap();
    assert_eq!(
        retried.last_seq, started.last_seq,
        "a retried secret logged again"
    );
    let after = submit(&mut client, &seats, 'b', commitment(&[9; 32]), false).await;
    assert_refused(after, Code::FailedPrecondition, "NO_ENTROPY_PHASE");
    play(&mut client, &seats, 'w', "e2e4").await;
}

async fn play_move(
    client: &mut Client,
    seats: &Seats,
    mv: &str,
) -> Result<tonic::Response<pb::SubmitMoveResponse>, tonic::Status> {
    client
        .submit_move(authed(
            pb::SubmitMoveRequest {
                game_id: seats.id.clone(),
                r#move: mv.into(),
                ..Default::default()
            },
            seats.token('w'),
        ))
        .await
}

/// Each commitment and secret is an event with its seq, live and replayed alike: the
/// commitments public, the first secret shown by nothing but its seat's step, the second
/// with both secrets and the game's start (Dice Chess's first roll in it).
#[tokio::test]
async fn the_round_in_watch_game() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create(&mut client, "dice").await;
    let mut live = watch(&mut client, &seats.id, 0).await;
    let (white, black) = ([3; 32], [4; 32]);
    let game = round(&mut client, &seats, &white, &black).await;
    let resign = pb::ResignRequest {
        game_id: seats.id.clone(),
    };
    client
        .resign(authed(resign, seats.token('b')))
        .await
        .unwrap();
    let events = drain(&mut live).await;
    let names: Vec<String> = events.iter().map(describe).collect();
    assert_eq!(
        names,
        [
            "snapshot ply 0",
            "entropy w commit",
            "entropy b commit",
            "entropy b reveal",
            "entropy w start",
            "over 1-0"
        ],
        "{names:?}"
    );
    let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, [0, 1, 2, 3, 4, 5]);
    let Some(pb::watch_game_response::Event::EntropySubmitted(commit)) = &events[1].event else {
        panic!("{:?}", events[1]);
    };
    assert_eq!(commit.commitment, commitment(&white));
    let Some(pb::watch_game_response::Event::EntropySubmitted(first)) = &events[3].event else {
        panic!("{:?}", events[3]);
    };
    assert!(first.revealed && first.white_secret.is_empty() && first.black_secret.is_empty());
    let Some(pb::watch_game_response::Event::EntropySubmitted(last)) = &events[4].event else {
        panic!("{:?}", events[4]);
    };
    assert_eq!(
        (last.white_secret.as_str(), last.black_secret.as_str()),
        (hex(&white).as_str(), hex(&black).as_str())
    );
    assert_eq!(last.start_fen, game.start_fen);
    let roll = last.start_fen.split(' ').nth(6).unwrap_or("-");
    assert!(("1"..="6").contains(&roll), "the first roll {roll}");
    // A watcher that resumes sees exactly what the live one saw.
    let replayed = drain(&mut watch(&mut client, &seats.id, 1).await).await;
    let without_time = |e: &pb::WatchGameResponse| pb::WatchGameResponse {
        server_time: None,
        ..e.clone()
    };
    let live_tail: Vec<_> = events[2..].iter().map(without_time).collect();
    let replay_tail: Vec<_> = replayed.iter().map(without_time).collect();
    assert_eq!(replay_tail, live_tail);
}

/// The feed carries each commitment and secret with `include_moves` (its game event's seq;
/// on the second secret both secrets and the start), and a stream resumed from a cursor reads
/// them back as they were sent, from every store's feed; without moves, only the creation and
/// the end.
#[tokio::test]
async fn the_round_in_the_feed() {
    use crate::feed::{feed, next_feed};
    use pb::watch_games_response::Event as FeedEvent;
    let server = start().await;
    let mut client = server.client().await;
    let with_moves = pb::WatchGamesRequest {
        include_moves: true,
        ..Default::default()
    };
    let mut live = feed(&mut client, with_moves.clone()).await.unwrap();
    let mut without = feed(&mut client, pb::WatchGamesRequest::default())
        .await
        .unwrap();
    let (_, seats) = create(&mut client, "dice").await;
    let (white, black) = ([5; 32], [6; 32]);
    let game = round(&mut client, &seats, &white, &black).await;
    let resign = pb::ResignRequest {
        game_id: seats.id.clone(),
    };
    client
        .resign(authed(resign, seats.token('w')))
        .await
        .unwrap();
    let mut seen = Vec::new();
    let mut created_cursor = String::new();
    loop {
        let m = next_feed(&mut live).await.unwrap();
        match &m.event {
            Some(FeedEvent::GameCreated(_)) => created_cursor = m.cursor.clone(),
            Some(FeedEvent::GameEntropy(e)) => {
                assert_eq!(e.game_id, seats.id);
                seen.push(e.clone());
            }
            Some(FeedEvent::GameFinished(_)) => break,
            other => panic!("{other:?}"),
        }
    }
    let seqs: Vec<u64> = seen.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, [1, 2, 3, 4]);
    assert_eq!(seen[0].commitment, commitment(&white));
    assert!(seen[2].revealed && seen[2].white_secret.is_empty());
    assert_eq!(seen[3].white_secret, hex(&white));
    assert_eq!(seen[3].black_secret, hex(&black));
    assert_eq!(seen[3].start_fen, game.start_fen);
    let mut resumed = feed(
        &mut client,
        pb::WatchGamesRequest {
            after_cursor: created_cursor,
            ..with_moves
        },
    )
    .await
    .unwrap();
    for sent in &seen {
        match next_feed(&mut resumed).await.unwrap().event {
            Some(FeedEvent::GameEntropy(again)) => assert_eq!(&again, sent),
            other => panic!("resumed: {other:?}"),
        }
    }
    let mut plain = Vec::new();
    loop {
        match next_feed(&mut without).await.unwrap().event {
            Some(FeedEvent::GameCreated(_)) => plain.push("created"),
            Some(FeedEvent::GameFinished(_)) => {
                plain.push("finished");
                break;
            }
            other => panic!("without moves: {other:?}"),
        }
    }
    assert_eq!(plain, ["created", "finished"]);
}
