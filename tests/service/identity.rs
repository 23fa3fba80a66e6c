//! A game's identity and board on the wire (issue 27): `variant_key` accepted on CreateGame
//! and AnalyzePosition and in the ListGames and WatchGames filters (alone, or with a
//! `variant` that agrees) and returned on every game message; the board's geometry; the
//! general hands beside Crazyhouse's chess-shaped pockets. On every store.

use chessd::proto::{self as pb, watch_game_response::Event};
use tonic::Code;

use crate::feed::{after, feed, next_feed};
use crate::support::*;

/// The keys, in the `Variant` enum's order.
const KEYS: [(pb::Variant, &str); 9] = [
    (pb::Variant::Chess, "chess"),
    (pb::Variant::RacingKings, "racingkings"),
    (pb::Variant::Chess960, "chess960"),
    (pb::Variant::ThreeCheck, "threecheck"),
    (pb::Variant::KingOfTheHill, "kingofthehill"),
    (pb::Variant::Antichess, "antichess"),
    (pb::Variant::Atomic, "atomic"),
    (pb::Variant::Horde, "horde"),
    (pb::Variant::Crazyhouse, "crazyhouse"),
];

const EIGHT_BY_EIGHT: Option<pb::BoardGeometry> = Some(pb::BoardGeometry { files: 8, ranks: 8 });

/// Every key alone creates its variant, and every game message says the key back with the
/// number and an 8 by 8 board: the game, its list entry, its watcher's snapshot.
#[tokio::test]
async fn every_key_creates_its_variant() {
    let server = start().await;
    let mut client = server.client().await;
    for (variant, key) in KEYS {
        let (game, seats) = create_with(&mut client, by_key(key)).await;
        assert_eq!(game.variant, variant as i32, "{key}");
        assert_eq!(game.variant_key, key);
        assert_eq!(game.geometry, EIGHT_BY_EIGHT, "{key}");
        assert_eq!(get(&mut client, &seats.id).await.variant_key, key);

        let mut stream = watch(&mut client, &seats.id, 0).await;
        let first = next_event(&mut stream).await.unwrap().expect("a message");
        let Some(Event::Snapshot(snapshot)) = first.event else {
            panic!("the first message is the snapshot");
        };
        assert_eq!(
            (snapshot.variant_key.as_str(), snapshot.geometry),
            (key, EIGHT_BY_EIGHT)
        );
    }
    let listed = client
        .list_games(pb::ListGamesRequest::default())
        .await
        .unwrap()
        .into_inner()
        .games;
    assert_eq!(listed.len(), KEYS.len());
    for summary in listed {
        let (_, key) = KEYS
            .iter()
            .find(|(v, _)| *v as i32 == summary.variant)
            .expect("a known variant");
        assert_eq!(summary.variant_key, *key);
        assert_eq!(summary.geometry, EIGHT_BY_EIGHT);
    }
}

/// A key with the number that names the same variant is accepted; the number alone works as
/// before and the answer carries the key.
#[tokio::test]
async fn key_and_number_together() {
    let server = start().await;
    let mut client = server.client().await;
    let mut both = by_key("crazyhouse");
    both.variant = pb::Variant::Crazyhouse as i32;
    let (game, _) = create_with(&mut client, both).await;
    assert_eq!(game.variant, pb::Variant::Crazyhouse as i32);
    let (game, _) = create(&mut client, "racingkings", "").await;
    assert_eq!(game.variant_key, "racingkings");
}

/// An unknown key (an alias too: one spelling per game), and a key that disagrees with the
/// number, are refused as INVALID_FIELD naming `variant_key`; no game is created.
#[tokio::test]
async fn bad_keys_are_refused() {
    let server = start().await;
    let mut client = server.client().await;
    for bad in ["bughouse", "3check", "Chess"] {
        let status = assert_refused(
            client.create_game(by_key(bad)).await,
            Code::InvalidArgument,
            "INVALID_FIELD",
        );
        assert!(
            status.message().contains("unknown variant key")
                && status.message().contains(&format!("{bad:?}")),
            "{}",
            status.message()
        );
    }
    let mut disagree = by_key("atomic");
    disagree.variant = pb::Variant::Horde as i32;
    let status = assert_refused(
        client.create_game(disagree).await,
        Code::InvalidArgument,
        "INVALID_FIELD",
    );
    assert!(
        status.message().contains("variant_key"),
        "{}",
        status.message()
    );
    let listed = client
        .list_games(pb::ListGamesRequest::default())
        .await
        .unwrap()
        .into_inner()
        .games;
    assert!(listed.is_empty(), "a refused request created {listed:?}");
}

/// ListGames and WatchGames filter by key as by number; a bad key filter is refused.
#[tokio::test]
async fn filters_by_key() {
    let server = start().await;
    let mut client = server.client().await;
    let mut stream = feed(
        &mut client,
        pb::WatchGamesRequest {
            variant_key: "horde".into(),
            ..Default::default()
        },
    )
    .await
    .expect("the feed opens");
    create_with(&mut client, by_key("atomic")).await;
    let (_, horde) = create_with(&mut client, by_key("horde")).await;
    let created = next_feed(&mut stream)
        .await
        .expect("the horde game's creation");
    let Some(pb::watch_games_response::Event::GameCreated(c)) = created.event else {
        panic!("expected a creation, got {created:?}");
    };
    assert_eq!(c.game.map(|g| g.game_id), Some(horde.id.clone()));

    let list = |key: &str, variant: pb::Variant| pb::ListGamesRequest {
        variant_key: key.into(),
        variant: variant as i32,
        ..Default::default()
    };
    let listed = client
        .list_games(list("horde", pb::Variant::Unspecified))
        .await
        .unwrap()
        .into_inner()
        .games;
    let ids: Vec<_> = listed.iter().map(|g| g.game_id.as_str()).collect();
    assert_eq!(ids, [horde.id.as_str()]);
    for (key, variant) in [
        ("koth", pb::Variant::Unspecified),
        ("horde", pb::Variant::Atomic),
    ] {
        assert_refused(
            client.list_games(list(key, variant)).await,
            Code::InvalidArgument,
            "INVALID_FIELD",
        );
    }
    let bad = pb::WatchGamesRequest {
        variant_key: "koth".into(),
        ..Default::default()
    };
    assert_refused(
        feed(&mut client, bad).await,
        Code::InvalidArgument,
        "INVALID_FIELD",
    );
}

/// AnalyzePosition takes the key as CreateGame does: alone or with the number that agrees,
/// answering as for the number; an unknown key or a disagreeing pair is INVALID_FIELD naming
/// `variant_key`, and neither is still INVALID_VARIANT.
#[tokio::test]
async fn analysis_by_key() {
    let server = start().await;
    let mut client = server.client().await;
    let fen = "4k3/8/4K3/8/8/8/8/8[Qn] w - - 0 1";
    let analyze = |variant: pb::Variant, key: &str| pb::AnalyzePositionRequest {
        variant: variant as i32,
        fen: fen.into(),
        variant_key: key.into(),
    };
    let by_number = client
        .analyze_position(analyze(pb::Variant::Crazyhouse, ""))
        .await
        .unwrap()
        .into_inner();
    for variant in [pb::Variant::Unspecified, pb::Variant::Crazyhouse] {
        let by_key = client
            .analyze_position(analyze(variant, "crazyhouse"))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(by_key.variant_key, "crazyhouse");
        assert!(by_key.hands.is_some(), "analysed as Crazyhouse: {by_key:?}");
        assert_eq!(by_key, by_number, "{variant:?}");
    }
    for bad in ["bughouse", "zh"] {
        let status = assert_refused(
            client
                .analyze_position(analyze(pb::Variant::Unspecified, bad))
                .await,
            Code::InvalidArgument,
            "INVALID_FIELD",
        );
        assert!(
            status.message().contains("unknown variant key")
                && status.message().contains(&format!("{bad:?}")),
            "{}",
            status.message()
        );
    }
    let status = assert_refused(
        client
            .analyze_position(analyze(pb::Variant::Chess, "crazyhouse"))
            .await,
        Code::InvalidArgument,
        "INVALID_FIELD",
    );
    assert!(
        status.message().contains("variant_key"),
        "{}",
        status.message()
    );
    assert_refused(
        client
            .analyze_position(analyze(pb::Variant::Unspecified, ""))
            .await,
        Code::InvalidArgument,
        "INVALID_VARIANT",
    );
}

/// Crazyhouse fills the general hands beside the pockets, and both say the same; other
/// variants have neither. AnalyzePosition answers the same way.
#[tokio::test]
async fn hands_beside_pockets() {
    let server = start().await;
    let mut client = server.client().await;
    let (game, seats) = create_with(&mut client, by_key("crazyhouse")).await;
    let empty = Some(pb::Hands {
        white: Some(pb::Hand::default()),
        black: Some(pb::Hand::default()),
    });
    assert_eq!(game.hands, empty);
    // White takes a pawn, Black's knight takes it back, White's knight takes that knight.
    let game = play_all(
        &mut client,
        &seats,
        'w',
        "e2e4 d7d5 e4d5 g8f6 b1c3 f6d5 c3d5",
    )
    .await;
    let piece = |letter: &str| pb::PieceCount {
        piece: letter.into(),
        count: 1,
    };
    let hands = game.hands.expect("crazyhouse has hands");
    assert_eq!(
        hands.white.map(|h| h.pieces),
        Some(vec![piece("P"), piece("N")])
    );
    assert_eq!(hands.black.map(|h| h.pieces), Some(vec![piece("P")]));
    let pockets = game.pockets.expect("and pockets");
    let white = pockets.white.expect("white's pocket");
    assert_eq!((white.pawns, white.knights), (1, 1));

    let analysis = client
        .analyze_position(pb::AnalyzePositionRequest {
            variant: pb::Variant::Crazyhouse as i32,
            fen: game.fen.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (analysis.variant_key.as_str(), analysis.geometry),
        ("crazyhouse", EIGHT_BY_EIGHT)
    );
    assert_eq!(
        analysis.hands.and_then(|h| h.white).map(|h| h.pieces),
        Some(vec![piece("P"), piece("N")])
    );

    let (chess, _) = create(&mut client, "chess", "").await;
    assert_eq!((chess.hands, chess.pockets), (None, None));
}

/// The feed's header and the stats carry the key and the board too.
#[tokio::test]
async fn feed_and_stats_carry_the_key() {
    let server = start().await;
    let mut client = server.client().await;
    let mut stream = feed(&mut client, after("")).await.expect("the feed opens");
    let (_, seats) = create_with(&mut client, by_key("kingofthehill")).await;
    let created = next_feed(&mut stream).await.expect("the creation");
    let Some(pb::watch_games_response::Event::GameCreated(c)) = created.event else {
        panic!("expected the creation, got {created:?}");
    };
    let header = c.game.expect("the header");
    assert_eq!(header.game_id, seats.id);
    assert_eq!(
        (header.variant_key.as_str(), header.geometry),
        ("kingofthehill", EIGHT_BY_EIGHT)
    );

    let stats = client
        .get_stats(pb::GetStatsRequest::default())
        .await
        .unwrap()
        .into_inner()
        .variants;
    for entry in stats {
        if entry.variant == pb::Variant::Unspecified as i32 {
            // A game beyond the nine numbered ones: its key is all that names it.
            assert!(!entry.variant_key.is_empty());
            continue;
        }
        let (_, key) = KEYS
            .iter()
            .find(|(v, _)| *v as i32 == entry.variant)
            .expect("a known variant");
        assert_eq!(entry.variant_key, *key);
    }
}
