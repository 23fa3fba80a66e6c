//! Game labels: validated with the field named, echoed in Game and GameSummary, written into
//! PGN as tags, and filters for ListGames (every label must match) and GetStats (a
//! tournament's results). On every store.

use std::collections::HashMap;

use chessd::proto as pb;
use tonic::Code;
use tonic_types::StatusExt;

use crate::feed::{labelled, resign};
use crate::support::*;

fn map(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

/// `ids` in ListGames' order: by id, newest first. Games created in one millisecond sort by
/// their ids' random bits, not by which was created first.
fn newest_first<const N: usize>(ids: [&String; N]) -> Vec<String> {
    let mut ids: Vec<String> = ids.into_iter().cloned().collect();
    ids.sort_unstable_by(|a, b| b.cmp(a));
    ids
}

/// Bad labels and player ids are refused before anything is made, each error naming its
/// field and what is wrong.
#[tokio::test]
async fn validation_names_the_field() {
    let server = start().await;
    let mut client = server.client().await;
    let refused =
        |labels: HashMap<String, String>, white_id: &str, black_id: &str| pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            labels,
            white_player_id: white_id.into(),
            black_player_id: black_id.into(),
            ..Default::default()
        };
    let too_many: HashMap<String, String> =
        (0..17).map(|i| (format!("k{i}"), "v".into())).collect();
    for (request, field, says) in [
        (
            refused(map(&[("Round", "1")]), "", ""),
            "labels",
            "lowercase letter",
        ),
        (
            refused(map(&[("round-1", "1")]), "", ""),
            "labels",
            "\"round-1\"",
        ),
        (refused(map(&[("round", "")]), "", ""), "labels", "1 to 256"),
        (
            refused(map(&[("round", &"x".repeat(257))]), "", ""),
            "labels",
            "1 to 256",
        ),
        (
            refused(map(&[("round", "a\tb")]), "", ""),
            "labels",
            "control",
        ),
        (refused(too_many, "", ""), "labels", "at most 16"),
        (
            refused(map(&[]), "user 1", ""),
            "white_player_id",
            "printable ascii",
        ),
        (
            refused(map(&[]), "", &"x".repeat(129)),
            "black_player_id",
            "128",
        ),
        (
            refused(map(&[]), "u1", "u1"),
            "black_player_id",
            "both seats",
        ),
    ] {
        let status = assert_refused(
            client.create_game(request).await,
            Code::InvalidArgument,
            "INVALID_FIELD",
        );
        let info = status.get_details_error_info().unwrap();
        assert_eq!(info.metadata["field"], field, "{}", status.message());
        assert!(status.message().contains(says), "{}", status.message());
    }
    let list = client
        .list_games(pb::ListGamesRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert!(list.games.is_empty(), "nothing was made");
    // The same checks guard the filters.
    let filter = pb::ListGamesRequest {
        labels: map(&[("Bad", "x")]),
        ..Default::default()
    };
    assert_refused(
        client.list_games(filter).await,
        Code::InvalidArgument,
        "INVALID_FIELD",
    );
    let stats = pb::GetStatsRequest {
        labels: map(&[("round", "")]),
    };
    assert_refused(
        client.get_stats(stats).await,
        Code::InvalidArgument,
        "INVALID_FIELD",
    );
}

/// Labels come back in Game (CreateGame, GetGame) and in GameSummary, and as PGN tags after
/// the standard ones.
#[tokio::test]
async fn labels_are_echoed_and_exported() {
    let server = start().await;
    let mut client = server.client().await;
    let labels = map(&[("tournament", "Spring \"Open\""), ("round", "3")]);
    let (game, seats) = create_with(
        &mut client,
        pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            labels: labels.clone(),
            white_player_id: "user-1".into(),
            bound_seat_tokens: true,
            ..Default::default()
        },
    )
    .await;
    assert_eq!(game.labels, labels);
    assert_eq!(game.white_player_id, "user-1");
    assert_eq!(game.black_player_id, "");
    assert_eq!(get(&mut client, &seats.id).await.labels, labels);
    let listed = client
        .list_games(pb::ListGamesRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.games[0].labels, labels);
    assert_eq!(listed.games[0].white_player_id, "user-1");
    let pgn = client
        .export_pgn(pb::ExportPgnRequest {
            game_id: seats.id.clone(),
        })
        .await
        .unwrap()
        .into_inner()
        .pgn;
    assert!(
        pgn.contains("[Termination \"unterminated\"]\n[round \"3\"]\n[tournament \"Spring \\\"Open\\\"\"]\n\n"),
        "{pgn}"
    );
}

/// ListGames shows only games carrying every given label (and the player id, when given);
/// pages go on as without a filter.
#[tokio::test]
async fn list_filters_need_every_label() {
    let server = start().await;
    let mut client = server.client().await;
    let t1r1 = labelled(
        &mut client,
        "a",
        "b",
        &[("tournament", "t1"), ("round", "1")],
    )
    .await;
    let t1r2 = labelled(
        &mut client,
        "a",
        "b",
        &[("tournament", "t1"), ("round", "2")],
    )
    .await;
    let t2r1 = labelled(
        &mut client,
        "a",
        "b",
        &[("tournament", "t2"), ("round", "1")],
    )
    .await;
    let _plain = labelled(&mut client, "a", "b", &[]).await;
    let (_, bound) = create_with(
        &mut client,
        pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            black_player_id: "user-2".into(),
            labels: map(&[("tournament", "t1")]),
            ..Default::default()
        },
    )
    .await;
    let ids = |client: &mut Client, request: pb::ListGamesRequest| {
        let mut client = client.clone();
        async move {
            let mut ids = Vec::new();
            let mut request = request;
            loop {
                let page = client
                    .list_games(request.clone())
                    .await
                    .unwrap()
                    .into_inner();
                ids.extend(page.games.into_iter().map(|g| g.game_id));
                if page.next_page_token.is_empty() {
                    return ids;
                }
                request.page_token = page.next_page_token;
            }
        }
    };
    let by = |labels: &[(&str, &str)]| pb::ListGamesRequest {
        labels: map(labels),
        page_size: 1,
        ..Default::default()
    };
    assert_eq!(
        ids(&mut client, by(&[("tournament", "t1")])).await,
        newest_first([&bound.id, &t1r2.id, &t1r1.id])
    );
    assert_eq!(
        ids(&mut client, by(&[("tournament", "t1"), ("round", "1")])).await,
        std::slice::from_ref(&t1r1.id)
    );
    assert_eq!(
        ids(&mut client, by(&[("round", "1")])).await,
        newest_first([&t2r1.id, &t1r1.id])
    );
    assert!(ids(&mut client, by(&[("round", "9")])).await.is_empty());
    let player = pb::ListGamesRequest {
        player_id: "user-2".into(),
        ..Default::default()
    };
    assert_eq!(
        ids(&mut client, player).await,
        std::slice::from_ref(&bound.id)
    );
}

/// GetStats with labels counts the results of the finished games that carry them all: a
/// tournament's standings, apart from every other game's.
#[tokio::test]
async fn stats_per_tournament() {
    let server = start().await;
    let mut client = server.client().await;
    let t1 = [("tournament", "t1")];
    let a = labelled(&mut client, "a", "b", &t1).await;
    resign(&mut client, &a, 'b').await; // 1-0
    let b = labelled(&mut client, "a", "b", &t1).await;
    resign(&mut client, &b, 'w').await; // 0-1
    let c = labelled(&mut client, "a", "b", &t1).await;
    offer_draw(&mut client, &c, 'w').await;
    offer_draw(&mut client, &c, 'b').await; // 1/2
    let _ongoing = labelled(&mut client, "a", "b", &t1).await;
    let aborted = labelled(&mut client, "a", "b", &t1).await;
    client
        .abort(authed(
            pb::AbortRequest {
                game_id: aborted.id.clone(),
            },
            &aborted.white,
        ))
        .await
        .unwrap();
    let other = labelled(&mut client, "a", "b", &[("tournament", "t2")]).await;
    resign(&mut client, &other, 'b').await;
    let chess = |labels: &[(&str, &str)]| {
        let mut client = client.clone();
        let request = pb::GetStatsRequest {
            labels: map(labels),
        };
        async move {
            let stats = client.get_stats(request).await.unwrap().into_inner();
            stats
                .variants
                .into_iter()
                .find(|v| v.variant == pb::Variant::Chess as i32)
                .unwrap()
        }
    };
    let t1_stats = chess(&t1).await;
    assert_eq!(
        (
            t1_stats.finished_games,
            t1_stats.white_wins,
            t1_stats.black_wins,
            t1_stats.draws
        ),
        (3, 1, 1, 1)
    );
    let t2 = chess(&[("tournament", "t2")]).await;
    assert_eq!((t2.finished_games, t2.white_wins), (1, 1));
    assert_eq!(chess(&[("tournament", "t9")]).await.finished_games, 0);
    let all = chess(&[]).await;
    assert_eq!(all.finished_games, 4, "without labels: every game");
}
