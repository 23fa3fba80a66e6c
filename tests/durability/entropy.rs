//! The players' entropy survives a crash: the round half done (both commitments and one
//! secret in) is after SIGKILL and a restart what it was, the second secret then starts the
//! game; a game played on from the key and killed again draws after the restart what the key
//! says (a Behemoth's step, recomputed here from the revealed seed and both secrets).

use chessd::proto as pb;
use chessd_rules::wide::{BehemothStep, Direction, Nature};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::common::{authed, seen_by};
use crate::support::{self, DataDir, Server};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn mac(key: &[u8], text: &str) -> Vec<u8> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).unwrap();
    mac.update(text.as_bytes());
    mac.finalize().into_bytes().to_vec()
}

/// docs/fairness.md's draw, from `key`.
fn draw(key: &[u8], ply: u32, purpose: &str, index: u32, n: u64) -> u64 {
    let limit = u64::MAX - (u64::MAX % n + 1) % n;
    (0u64..)
        .find_map(|k| {
            let out = mac(key, &format!("chessd draw v1 {purpose} {ply} {index} {k}"));
            let x = u64::from_be_bytes(out[..8].try_into().unwrap());
            (x <= limit).then_some(x % n)
        })
        .unwrap()
}

async fn submit(
    client: &mut support::Client,
    id: &str,
    token: &str,
    value: String,
    reveal: bool,
) -> pb::Game {
    let request = pb::SubmitEntropyRequest {
        game_id: id.into(),
        commitment: if reveal { String::new() } else { value.clone() },
        reveal: if reveal { value } else { String::new() },
    };
    client
        .submit_entropy(authed(request, token))
        .await
        .unwrap_or_else(|s| panic!("entropy refused: {}", s.message()))
        .into_inner()
        .game
        .expect("the game")
}

#[tokio::test]
async fn the_players_entropy_survives_a_crash() {
    let (white, black) = ([0x5a; 32], [0xa5; 32]);
    let dir = DataDir::new("entropy");
    let server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    let seats = support::create(
        &mut client,
        pb::CreateGameRequest {
            variant_key: "behemoth".into(),
            player_entropy: true,
            ..Default::default()
        },
    )
    .await;
    submit(
        &mut client,
        &seats.id,
        &seats.white,
        hex(&Sha256::digest(white)),
        false,
    )
    .await;
    submit(
        &mut client,
        &seats.id,
        &seats.black,
        hex(&Sha256::digest(black)),
        false,
    )
    .await;
    submit(&mut client, &seats.id, &seats.black, hex(&black), true).await;
    let tokens = [Some(seats.white.clone()), Some(seats.black.clone()), None];
    let mut before = Vec::new();
    for token in &tokens {
        before.push(seen_by(&mut client, &seats.id, token.as_deref()).await);
    }
    let round = before[2].entropy.clone().expect("the round");
    assert_eq!(round.phase, pb::EntropyPhase::Reveals as i32);
    server.kill();

    let mut server = Server::start(dir.path(), &[]);
    let mut client = server.client().await;
    for (token, before) in tokens.iter().zip(&before) {
        let after = seen_by(&mut client, &seats.id, token.as_deref()).await;
        assert_eq!(&after, before, "{token:?} after the restart");
    }
    let started = submit(&mut client, &seats.id, &seats.white, hex(&white), true).await;
    assert_eq!(
        started.entropy.map(|e| e.phase),
        Some(pb::EntropyPhase::Done as i32)
    );
    let script = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"];
    let mut played = Vec::new();
    let mut plies = 0u32;
    for (i, mv) in script.iter().enumerate() {
        if i == 3 {
            let at = seen_by(&mut client, &seats.id, None).await;
            server.kill();
            server = Server::start(dir.path(), &[]);
            client = server.client().await;
            assert_eq!(
                seen_by(&mut client, &seats.id, None).await,
                at,
                "after the second restart"
            );
        }
        match support::play(&mut client, &seats, plies, mv, "").await {
            Ok(answer) => {
                played.push(answer.r#move.expect("the move").uci);
                plies += 1;
            }
            // The Behemoth took a piece the script needed, or a king: play stops there.
            Err(_) => break,
        }
        if seen_by(&mut client, &seats.id, None)
            .await
            .outcome
            .is_some()
        {
            break;
        }
    }
    assert!(!played.is_empty());
    let resign = pb::ResignRequest {
        game_id: seats.id.clone(),
    };
    let _ = client.resign(authed(resign, &seats.white)).await;
    let over = seen_by(&mut client, &seats.id, None).await;
    let seed: Vec<u8> = (0..over.seed.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&over.seed[i..i + 2], 16).unwrap())
        .collect();
    let key = mac(
        &seed,
        &format!("chessd entropy v1 {} {}", hex(&white), hex(&black)),
    );
    for (i, uci) in played.iter().enumerate() {
        let ply = i as u32 + 1;
        let (_, step) = uci.split_once('~').expect("a step after every move");
        let direction = Direction::ALL[draw(&key, ply, "step", 0, 8) as usize];
        let distance = draw(&key, ply, "step", 1, 4) as u8 + 1;
        let want = Nature::Step(BehemothStep::new(direction, distance).unwrap());
        assert_eq!(
            format!("~{step}").parse::<Nature>().unwrap(),
            want,
            "ply {ply}"
        );
    }
}
