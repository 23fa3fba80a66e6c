//! Differential tests against reference data produced by python-chess, an independent
//! implementation (`tools/gen_reference.py` writes `tests/data/reference-*.json`; python-chess
//! is only a test tool, never a dependency).
//!
//! For each position: perft counts, the exact legal move set, the SAN of every move, the FEN
//! after every move, check, and the outcome (and, for the variants after Racing Kings, each
//! side's insufficient material, which decides a flag). For each game: SAN and FEN per ply,
//! threefold / fifty-move claimability, fivefold / seventy-five-move, and the automatic
//! outcome. One file per variant after Racing Kings holds its positions and games.

use std::collections::BTreeSet;

use chessd_rules::{
    Color, DrawClaim, DrawRule, Game, Outcome, Position, Rules, Termination, UciMove, Variant,
    san_plus,
};
use serde_json::Value;

fn load(text: &str) -> Vec<Value> {
    serde_json::from_str::<Value>(text)
        .expect("reference json")
        .as_array()
        .expect("array")
        .clone()
}

/// python-chess marks a move that ends a Racing Kings race with `#`; RULES.md says Racing
/// Kings SAN never carries `+` or `#` (as lichess writes it), so that suffix is dropped here.
fn expected_san(variant: Variant, san: &str) -> &str {
    match variant {
        Variant::RacingKings => san.trim_end_matches('#'),
        _ => san,
    }
}

/// python-chess termination names, by what they mean here. `variant_win`/`variant_loss` are
/// relative to the side to move, so the result is compared as well; which variant rule they
/// stand for depends on the variant (and in antichess on whether the winner has pieces left).
fn termination(name: &str, pos: &Position) -> Termination {
    match name {
        "checkmate" => Termination::Checkmate,
        "stalemate" => Termination::Stalemate,
        "insufficient_material" => Termination::InsufficientMaterial,
        "seventyfive_moves" => Termination::FiftyMoveRule,
        "fivefold_repetition" => Termination::Repetition,
        "variant_win" | "variant_loss" | "variant_draw" => match pos.variant() {
            Variant::RacingKings => Termination::Race,
            Variant::ThreeCheck => Termination::ThirdCheck,
            Variant::KingOfTheHill => Termination::KingOfTheHill,
            Variant::Atomic => Termination::KingExploded,
            Variant::Horde => Termination::HordeDestroyed,
            Variant::Antichess if pos.board().by_color(pos.turn()).is_empty() => {
                Termination::AllPiecesLost
            }
            Variant::Antichess => Termination::StalemateWin,
            other => panic!("python-chess ended a {other} game by a variant rule"),
        },
        other => panic!("unknown termination {other}"),
    }
}

fn check_outcome(got: Option<Outcome>, want: &Value, pos: &Position, context: &str) {
    match (got, want) {
        (None, Value::Null) => {}
        (Some(o), Value::Object(w)) => {
            assert_eq!(
                o.result(),
                w["result"].as_str().unwrap(),
                "result of {context}"
            );
            assert_eq!(
                o.termination,
                termination(w["termination"].as_str().unwrap(), pos),
                "termination of {context}"
            );
        }
        _ => panic!("outcome of {context}: got {got:?}, want {want}"),
    }
}

fn check_positions(variant: Variant, text: &str) -> usize {
    check_records(variant, &load(text))
}

fn check_records(variant: Variant, records: &[Value]) -> usize {
    for rec in records {
        let fen = rec["fen"].as_str().unwrap();
        let pos = Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos.fen(), fen, "fen round trip");
        assert_eq!(
            pos.is_check(),
            rec["in_check"].as_bool().unwrap(),
            "check in {fen}"
        );
        for (depth, want) in rec["perft"].as_array().unwrap().iter().enumerate() {
            assert_eq!(
                pos.perft(depth as u32 + 1),
                want.as_u64().unwrap(),
                "perft {} of {fen}",
                depth + 1
            );
        }
        let want: BTreeSet<&str> = rec["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["uci"].as_str().unwrap())
            .collect();
        let got_strings: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
        let got: BTreeSet<&str> = got_strings.iter().map(String::as_str).collect();
        assert_eq!(got, want, "legal moves of {fen}");
        for m in rec["moves"].as_array().unwrap() {
            let uci = m["uci"].as_str().unwrap();
            let mv = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
            assert_eq!(
                san_plus(&pos, mv),
                expected_san(variant, m["san"].as_str().unwrap()),
                "san of {uci} in {fen}"
            );
            let after = pos.play(mv).unwrap();
            assert_eq!(
                after.fen(),
                m["fen"].as_str().unwrap(),
                "fen after {uci} in {fen}"
            );
        }
        // A fresh record has no history: only the position and its clock decide.
        let game = Game::new(pos, DrawRule::Claim);
        check_outcome(game.outcome(), &rec["outcome"], &pos, fen);
        if let Some(flags) = rec["insufficient"].as_array() {
            for (color, flag) in Color::ALL.into_iter().zip(flags) {
                assert_eq!(
                    pos.has_insufficient_material(color),
                    flag.as_bool().unwrap(),
                    "{color}'s insufficient material in {fen}"
                );
            }
        }
    }
    records.len()
}

/// 300 chess positions from biased random playouts and classic traps agree with python-chess.
#[test]
fn chess_positions_match_python_chess() {
    assert!(check_positions(Variant::Chess, include_str!("data/reference-chess.json")) >= 300);
}

/// 300 Racing Kings positions, many with the race decided or Black's catch-up pending.
#[test]
fn racing_kings_positions_match_python_chess() {
    assert!(
        check_positions(
            Variant::RacingKings,
            include_str!("data/reference-racingkings.json")
        ) >= 300
    );
}

/// 150 games: SAN, FEN and the repetition and move-count rules at every ply, with history.
#[test]
fn games_match_python_chess() {
    let games = load(include_str!("data/reference-games.json"));
    let mut plies = 0;
    for rec in &games {
        let variant: Variant = rec["variant"].as_str().unwrap().parse().unwrap();
        let start_fen = rec["start_fen"].as_str().unwrap();
        let mut game = Game::new(
            Position::from_fen(variant, start_fen).unwrap(),
            DrawRule::Claim,
        );
        if let Some(outcome) = game.outcome() {
            // A record that starts decided (python-chess only looks after each push): the game
            // is over from the start here, and python-chess agrees one ply later.
            let first = &rec["plies"][0]["outcome"];
            check_outcome(
                Some(outcome),
                first,
                game.position(),
                &format!("the start {start_fen}"),
            );
            continue;
        }
        for (i, ply) in rec["plies"].as_array().unwrap().iter().enumerate() {
            let context = format!("ply {} of the game from {start_fen}", i + 1);
            let uci = ply["uci"].as_str().unwrap();
            let played = game
                .play_text(uci)
                .unwrap_or_else(|e| panic!("{uci} at {context}: {e}"));
            assert_eq!(
                played.san,
                expected_san(variant, ply["san"].as_str().unwrap()),
                "san at {context}"
            );
            let pos = game.position();
            assert_eq!(pos.fen(), ply["fen"].as_str().unwrap(), "fen at {context}");
            let reps = game.repetitions();
            assert_eq!(
                reps >= 3,
                ply["threefold_now"].as_bool().unwrap(),
                "threefold at {context}"
            );
            assert_eq!(
                reps >= 5,
                ply["fivefold"].as_bool().unwrap(),
                "fivefold at {context}"
            );
            assert_eq!(
                pos.halfmoves() >= 100,
                ply["fifty_now"].as_bool().unwrap(),
                "fifty at {context}"
            );
            let seventyfive = pos.halfmoves() >= 150 && !pos.legal_moves().is_empty();
            assert_eq!(
                seventyfive,
                ply["seventyfive"].as_bool().unwrap(),
                "seventy-five at {context}"
            );
            check_outcome(game.outcome(), &ply["outcome"], pos, &context);
            plies += 1;
        }
    }
    assert!(games.len() >= 150 && plies > 5000);
}

/// One variant's file: its positions, then its games, checked like the chess ones. The move
/// count rules are compared as python-chess's `is_fifty_moves` / `is_seventyfive_moves` (which
/// also need a legal move left, and never hold in crazyhouse).
fn check_variant(variant: Variant, text: &str) -> (usize, usize) {
    let data: Value = serde_json::from_str(text).expect("reference json");
    assert_eq!(data["variant"].as_str(), Some(variant.key()));
    let positions = check_records(variant, data["positions"].as_array().unwrap());
    let mut plies = 0;
    for rec in data["games"].as_array().unwrap() {
        let start_fen = rec["start_fen"].as_str().unwrap();
        let start = Position::from_fen(variant, start_fen).unwrap();
        let mut game = Game::new(start, DrawRule::Claim);
        for (i, ply) in rec["plies"].as_array().unwrap().iter().enumerate() {
            let context = format!("ply {} of the {variant} game from {start_fen}", i + 1);
            let uci = ply["uci"].as_str().unwrap();
            let played = game
                .play_text(uci)
                .unwrap_or_else(|e| panic!("{uci} at {context}: {e}"));
            assert_eq!(played.san, ply["san"].as_str().unwrap(), "san at {context}");
            let pos = game.position();
            assert_eq!(pos.fen(), ply["fen"].as_str().unwrap(), "fen at {context}");
            let reps = game.repetitions();
            assert_eq!(
                reps >= 3,
                ply["threefold_now"].as_bool().unwrap(),
                "threefold at {context}"
            );
            assert_eq!(
                reps >= 5,
                ply["fivefold"].as_bool().unwrap(),
                "fivefold at {context}"
            );
            let counted = variant.has_move_count_rule() && !pos.legal_moves().is_empty();
            assert_eq!(
                counted && pos.halfmoves() >= 100,
                ply["fifty_moves"].as_bool().unwrap(),
                "fifty moves at {context}"
            );
            assert_eq!(
                counted && pos.halfmoves() >= 150,
                ply["seventyfive"].as_bool().unwrap(),
                "seventy-five moves at {context}"
            );
            if game.outcome().is_none() {
                assert_eq!(
                    game.can_claim(DrawClaim::FiftyMoves),
                    counted && pos.halfmoves() >= 100,
                    "fifty-move claim at {context}"
                );
            }
            check_outcome(game.outcome(), &ply["outcome"], pos, &context);
            plies += 1;
        }
    }
    (positions, plies)
}

/// Chess960: numbered starts, castling from every king and rook file (X-FEN letters for
/// inner rooks), king-takes-rook UCI.
#[test]
fn chess960_matches_python_chess() {
    let (positions, plies) = check_variant(
        Variant::Chess960,
        include_str!("data/reference-chess960.json"),
    );
    assert!(positions >= 150 && plies > 1000);
}

/// Three-check: counters in FEN, the third check ending the game, checks in SAN.
#[test]
fn three_check_matches_python_chess() {
    let (positions, plies) = check_variant(
        Variant::ThreeCheck,
        include_str!("data/reference-threecheck.json"),
    );
    assert!(positions >= 150 && plies > 300);
}

/// King of the Hill: kings near and on the centre.
#[test]
fn king_of_the_hill_matches_python_chess() {
    let (positions, plies) = check_variant(
        Variant::KingOfTheHill,
        include_str!("data/reference-kingofthehill.json"),
    );
    assert!(positions >= 150 && plies > 500);
}

/// Antichess: forced captures, king promotions, losing all pieces, stalemate wins, the
/// bishop and knight draws.
#[test]
fn antichess_matches_python_chess() {
    let (positions, plies) = check_variant(
        Variant::Antichess,
        include_str!("data/reference-antichess.json"),
    );
    assert!(positions >= 150 && plies > 500);
}

/// Atomic: explosions, touching kings, checks, exploded kings.
#[test]
fn atomic_matches_python_chess() {
    let (positions, plies) =
        check_variant(Variant::Atomic, include_str!("data/reference-atomic.json"));
    assert!(positions >= 150 && plies > 500);
}

/// Horde: the king-less horde, first-rank double steps, the horde destroyed, the horde's
/// mating material.
#[test]
fn horde_matches_python_chess() {
    let (positions, plies) =
        check_variant(Variant::Horde, include_str!("data/reference-horde.json"));
    assert!(positions >= 150 && plies > 500);
}

/// Crazyhouse: pockets, drops, promoted pieces, repetition with pockets.
#[test]
fn crazyhouse_matches_python_chess() {
    let (positions, plies) = check_variant(
        Variant::Crazyhouse,
        include_str!("data/reference-crazyhouse.json"),
    );
    assert!(positions >= 120 && plies > 1000);
}
