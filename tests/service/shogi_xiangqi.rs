//! Shogi, minishogi and xiangqi through the service (issue 29): created by key with their
//! boards, played in every notation their players write (USI, Fairy-Stockfish's coordinates,
//! Western shogi notation; xiangqi's coordinates), drops with the hands on the answer, and
//! each end with its own termination: impasse, perpetual check, minishogi's repetition loss,
//! xiangqi's stalemate loss. On every store: these games are stored and read back as any other.

use chessd::proto::{self as pb};
use tonic::Code;

use crate::support::*;

/// Each game by its key alone, with its board; the first legal move played and read back.
#[tokio::test]
async fn each_game_is_created_and_played() {
    let server = start().await;
    let mut client = server.client().await;
    for (key, files, ranks, moves) in [
        ("shogi", 9, 9, 30),
        ("minishogi", 5, 5, 14),
        ("xiangqi", 9, 10, 44),
    ] {
        let (game, seats) = create_with(&mut client, by_key(key)).await;
        assert_eq!(game.variant_key, key);
        assert_eq!(game.variant, pb::Variant::Unspecified as i32, "{key}");
        assert_eq!(
            game.geometry,
            Some(pb::BoardGeometry { files, ranks }),
            "{key}"
        );
        assert_eq!(game.legal_moves.len(), moves, "{key}");
        let first = game.legal_moves.first().expect("a legal move at the start");
        let after = play(&mut client, &seats, 'w', &first.uci)
            .await
            .game
            .unwrap();
        assert_eq!(after.moves[0].uci, first.uci, "{key}");
        assert_eq!(after.moves[0].san, first.san, "{key}");
        let read = get(&mut client, &seats.id).await;
        assert_eq!((read.fen, read.ply), (after.fen, 1), "{key}");
    }
}

fn pieces(hand: Option<pb::Hand>) -> Vec<(String, u32)> {
    hand.map(|h| h.pieces.into_iter().map(|p| (p.piece, p.count)).collect())
        .unwrap_or_default()
}

/// Shogi in USI (`7g7f`), Fairy-Stockfish's text (`g7g6`) and Western notation (`Bx2b+`): each
/// recorded in the common UCI-style text and in Western notation as its SAN; a capture goes
/// to the hand, unpromoted, and comes back as a drop; an illegal drop (nifu) is refused.
#[tokio::test]
async fn shogi_is_played_in_its_notations_with_drops() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create_with(&mut client, by_key("shogi")).await;
    let after = play_all(&mut client, &seats, 'w', "7g7f g7g6 Bx2b+ 3a2b").await;
    let ucis: Vec<&str> = after.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(ucis, ["c3c4", "g7g6", "b2h8+", "g9h8"]);
    let sans: Vec<&str> = after.moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["P-7f", "P-3d", "Bx2b+", "Sx2b"]);
    let hands = after.hands.expect("shogi has hands");
    assert_eq!(pieces(hands.white), [("B".to_owned(), 1)]);
    assert_eq!(pieces(hands.black), [("B".to_owned(), 1)]);

    let submit = |mv: &str| pb::SubmitMoveRequest {
        game_id: seats.id.clone(),
        r#move: mv.into(),
        ..Default::default()
    };
    // A second unpromoted pawn on a file: refused, nothing played.
    assert_refused(
        client
            .submit_move(authed(submit("P*7e"), &seats.white))
            .await,
        Code::FailedPrecondition,
        "ILLEGAL_MOVE",
    );
    let dropped = play(&mut client, &seats, 'w', "B*4e").await.game.unwrap();
    assert_eq!(
        dropped
            .moves
            .last()
            .map(|m| (m.uci.as_str(), m.san.as_str())),
        Some(("B@f5", "B*4e"))
    );
    assert_eq!(pieces(dropped.hands.and_then(|h| h.white)), []);
    let read = get(&mut client, &seats.id).await;
    assert_eq!((read.fen, read.ply), (dropped.fen, 5));

    let pgn = export_pgn(&mut client, &seats.id).await;
    assert!(pgn.contains("[Variant \"Shogi\"]"), "{pgn}");
    assert!(pgn.contains("1. P-7f P-3d 2. Bx2b+ Sx2b 3. B*4e"), "{pgn}");
    // And as KIF, the shogi programs' record: Japanese notation with each move's origin.
    let kif = export_kif(&mut client, &seats.id).await;
    assert!(kif.contains("手合割：平手"), "{kif}");
    assert!(kif.contains("   1 ７六歩(77)"), "{kif}");
    assert!(kif.contains("   3 ２二角成(88)"), "{kif}");
    assert!(kif.contains("   5 ４五角打"), "{kif}");
    // A game set up from an SFEN opens with its board diagram (gote to move, a rook in hand).
    let (_, set_up) = create_with(
        &mut client,
        pb::CreateGameRequest {
            start_fen: "4k4/9/4G4/9/9/9/9/9/4K4 w R 1".into(),
            ..by_key("shogi")
        },
    )
    .await;
    play(&mut client, &set_up, 'b', "5a4a").await;
    let kif = export_kif(&mut client, &set_up.id).await;
    assert!(!kif.contains("手合割"), "{kif}");
    assert!(kif.contains("| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n"), "{kif}");
    assert!(kif.contains("先手の持駒：飛\n後手番\n"), "{kif}");
    assert!(kif.contains("   1 ４一玉(51)"), "{kif}");

    // The promotion typed in the common UCI-style text is a promotion (`+` is not a check
    // mark here), and the same move without it is the move that declines.
    let (_, seats) = create_with(&mut client, by_key("shogi")).await;
    let after = play_all(&mut client, &seats, 'w', "c3c4 g7g6 b2h8+").await;
    let last = after.moves.last().map(|m| (m.uci.as_str(), m.san.as_str()));
    assert_eq!(last, Some(("b2h8+", "Bx2b+")));
    let (_, seats) = create_with(&mut client, by_key("shogi")).await;
    let after = play_all(&mut client, &seats, 'w', "c3c4 g7g6 b2h8").await;
    let last = after.moves.last().map(|m| (m.uci.as_str(), m.san.as_str()));
    assert_eq!(last, Some(("b2h8", "Bx2b=")));
}

/// The impasse rule is applied at the start of a turn: sente, its king and ten pieces in the
/// zone with 37 points, wins as soon as gote has moved.
#[tokio::test]
async fn shogi_ends_by_impasse() {
    let server = start().await;
    let mut client = server.client().await;
    let fen = "RRBBGGGG1/SSSSK4/PPPPPPPPP/9/9/9/9/9/k8[] b - - 0 1";
    let end = end_after(&mut client, "shogi", fen, 'b', "a1b1").await;
    assert_eq!(end, ("1-0".to_owned(), pb::Termination::Impasse));
}

/// Minishogi's fourth occurrence of a position loses for sente (kings stepping out and back).
#[tokio::test]
async fn minishogi_repetition_loses_for_sente() {
    let server = start().await;
    let mut client = server.client().await;
    let start = "rbsgk/4p/5/P4/KGSBR[] w - - 0 1";
    let cycle = "a1b2 e5d4 b2a1 d4e5 ".repeat(3);
    let end = end_after(&mut client, "minishogi", start, 'w', &cycle).await;
    assert_eq!(end, ("0-1".to_owned(), pb::Termination::RepetitionLoss));
}

/// Xiangqi: coordinates as Fairy-Stockfish writes them (ranks to 10), a perpetual check that
/// loses for the checking side at the third occurrence, and the PGN naming the game.
#[tokio::test]
async fn xiangqi_perpetual_check_loses() {
    let server = start().await;
    let mut client = server.client().await;
    let fen = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1";
    let cycle = "a9a10 e10e9 a10a9 e9e10 ".repeat(2);
    let end = end_after(&mut client, "xiangqi", fen, 'w', &cycle).await;
    assert_eq!(end, ("0-1".to_owned(), pb::Termination::PerpetualCheck));
    let (_, seats) = create_with(&mut client, by_key("xiangqi")).await;
    play(&mut client, &seats, 'w', "h3e3").await;
    let pgn = export_pgn(&mut client, &seats.id).await;
    assert!(pgn.contains("[Variant \"Xiangqi\"]"), "{pgn}");
    assert!(pgn.contains("[FEN \"rnbakabnr/9/1c5c1/"), "{pgn}");
    assert!(pgn.contains("1. C2.5"), "{pgn}");
    assert_eq!(
        export_kif(&mut client, &seats.id).await,
        "",
        "KIF is shogi's alone"
    );
}

/// Xiangqi in WXF notation as its players write it (`C2.5`: the cannon on Red's second file
/// to the fifth), recorded as its coordinates and its WXF SAN; a WXF move no piece can make
/// is refused as illegal.
#[tokio::test]
async fn xiangqi_is_played_in_wxf() {
    let server = start().await;
    let mut client = server.client().await;
    let (_, seats) = create_with(&mut client, by_key("xiangqi")).await;
    let after = play_all(&mut client, &seats, 'w', "C2.5 H8+7 h1g3").await;
    let ucis: Vec<&str> = after.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(ucis, ["h3e3", "h10g8", "h1g3"]);
    let sans: Vec<&str> = after.moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["C2.5", "H8+7", "H2+3"]);
    let refused = client
        .submit_move(authed(
            pb::SubmitMoveRequest {
                game_id: seats.id.clone(),
                r#move: "R1+9".into(),
                ..Default::default()
            },
            &seats.black,
        ))
        .await;
    assert_refused(refused, Code::FailedPrecondition, "ILLEGAL_MOVE");
}

/// Xiangqi's stalemate loses for the side without a move, with its own termination.
#[tokio::test]
async fn xiangqi_stalemate_loses() {
    let server = start().await;
    let mut client = server.client().await;
    let fen = "3k5/9/9/9/9/9/9/9/1R7/4K4 w - - 0 1";
    let end = end_after(&mut client, "xiangqi", fen, 'w', "b2b9").await;
    assert_eq!(end, ("1-0".to_owned(), pb::Termination::StalemateLoss));
}
