//! The wide family's rules that perft cannot see: how games end (mate, stalemate, the
//! insufficient-material rule of GAMES.md, repetition, fifty moves), Grand's promotions, each
//! game's castling notation, every Capablanca Random array, and refusals of bad input.

use chessd_rules::wide::{
    BehemothStep, CAPARANDOM_ARRAYS, WideFenError, WideGame, WidePosition, WideUciError,
    WideVariant, caparandom_arrays,
};
use chessd_rules::{Color, DrawRule, Outcome, PlayError, Termination};

fn pos(variant: WideVariant, fen: &str) -> WidePosition {
    WidePosition::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn ucis(p: &WidePosition) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(p).to_string())
        .collect();
    v.sort();
    v
}

/// A mated king loses; a king with no move and not in check draws.
#[test]
fn checkmate_and_stalemate() {
    let mate = pos(
        WideVariant::Capablanca,
        "k9/1Q8/1K8/10/10/10/10/10 b - - 0 1",
    );
    assert_eq!(
        mate.outcome(),
        Some(Outcome::win(Color::White, Termination::Checkmate))
    );
    let stalemate = pos(
        WideVariant::Capablanca,
        "k9/2Q7/1K8/10/10/10/10/10 b - - 0 1",
    );
    assert_eq!(
        stalemate.outcome(),
        Some(Outcome::draw(Termination::Stalemate))
    );
    // The marshal's rook line checks along rank 8; its knight leap covers a7.
    let chancellor = pos(WideVariant::Embassy, "k1C7/10/1K8/10/10/10/10/10 b - - 0 1");
    assert_eq!(
        chancellor.outcome().map(|o| o.termination),
        Some(Termination::Checkmate)
    );
    let grand = pos(
        WideVariant::Grand,
        "k9/10/1K8/10/10/10/10/10/10/1R8 w - - 0 1",
    );
    assert_eq!(grand.outcome(), None);
}

/// GAMES.md: every piece but a lone bishop or knight is mating material, the compounds too;
/// bishops all on one colour cannot mate.
#[test]
fn insufficient_material() {
    let cases = [
        ("4k5/10/10/10/10/10/10/4K5", true),
        ("4k5/10/10/10/10/10/10/3NK5", true),
        ("4k5/10/10/10/10/10/10/3BK5", true),
        ("4kb4/10/10/10/10/10/10/2B1K5", true),
        ("4k1b3/10/10/10/10/10/10/2B1K5", false),
        ("4kn4/10/10/10/10/10/10/3NK5", false),
        ("4k5/10/10/10/10/10/10/3AK5", false),
        ("4k5/10/10/10/10/10/10/3CK5", false),
        ("4k5/10/10/10/10/10/10/3RK5", false),
        ("4k5/p9/10/10/10/10/10/4K5", false),
    ];
    for (board, insufficient) in cases {
        let p = pos(WideVariant::Capablanca, &format!("{board} w - - 0 1"));
        assert_eq!(p.is_insufficient_material(), insufficient, "{board}");
        let expected = insufficient.then_some(Outcome::draw(Termination::InsufficientMaterial));
        assert_eq!(p.outcome(), expected, "{board}");
    }
}

/// The third occurrence of a position draws, as does the hundredth half-move without a
/// capture or pawn move; a finished game takes no more moves.
#[test]
fn repetition_and_fifty_moves() {
    let mut game = WideGame::new(WidePosition::new(WideVariant::Janus), DrawRule::Automatic);
    for m in ["c1d3", "c8d6", "d3c1", "d6c8", "c1d3", "c8d6", "d3c1"] {
        game.play_text(m).unwrap();
        assert_eq!(game.outcome(), None, "{m}");
    }
    game.play_text("d6c8").unwrap();
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.outcome(), Some(Outcome::draw(Termination::Repetition)));
    assert_eq!(game.play_text("c1d3"), Err(PlayError::GameOver));

    let start = pos(
        WideVariant::Grand,
        "k9/10/1K8/10/10/10/10/10/10/1R8 w - - 99 80",
    );
    let mut game = WideGame::new(start, DrawRule::Automatic);
    game.play_text("b1b2").unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::draw(Termination::FiftyMoveRule))
    );
}

/// Grand: promotion only to a lost type, optional on ranks 8 and 9, forced on 10; a pawn on
/// rank 9 with nothing to become stays, and still gives check.
#[test]
fn grand_promotions() {
    // White has every piece: b9 may not advance, c7 steps to c8 as a pawn only.
    let full = "r8r/1P2k5/10/2P7/10/10/10/10/1NBQKCABN1/R8R w - - 0 1";
    let moves = ucis(&pos(WideVariant::Grand, full));
    assert!(!moves.iter().any(|m| m.starts_with("b9")), "{moves:?}");
    assert!(moves.contains(&"c7c8".to_string()));
    assert!(!moves.iter().any(|m| m.starts_with("c7c8") && m.len() > 4));
    // The b9 pawn checks a king on a10 or c10.
    let check = pos(
        WideVariant::Grand,
        "2k7/1P8/10/10/10/10/10/10/1NBQKCABN1/R8R b - - 0 1",
    );
    assert!(check.is_check());
    // Queen and one bishop lost: b9b10 must promote, to one of those two; c7c8 may.
    let lost = "r8r/1P2k5/10/2P7/10/10/10/10/1N2KCABN1/R8R w - - 0 1";
    let moves = ucis(&pos(WideVariant::Grand, lost));
    let b9: Vec<&str> = moves
        .iter()
        .filter(|m| m.starts_with("b9b10"))
        .map(|m| m.as_str())
        .collect();
    assert_eq!(b9, ["b9b10b", "b9b10q"]);
    let c7: Vec<&str> = moves
        .iter()
        .filter(|m| m.starts_with("c7c8"))
        .map(|m| m.as_str())
        .collect();
    assert_eq!(c7, ["c7c8", "c7c8b", "c7c8q"]);
}

/// Castling as Fairy-Stockfish writes it: the king's move in Janus, Embassy and Capablanca,
/// the king taking its rook in Capablanca Random; king and rook land per the rule.
#[test]
fn castling_notation_and_squares() {
    let open = "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1";
    let cases = [
        (WideVariant::Janus, open, "e1i1", "R6RK1"),
        (WideVariant::Janus, open, "e1b1", "1KR6R"),
        (WideVariant::Embassy, open, "e1h1", "R5RK2"),
        (WideVariant::Embassy, open, "e1b1", "1KR6R"),
        (WideVariant::CapaRandom, open, "e1j1", "R6RK1"),
        (WideVariant::CapaRandom, open, "e1a1", "2KR5R"),
        (
            WideVariant::Capablanca,
            "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1",
            "f1i1",
            "R6RK1",
        ),
        (
            WideVariant::Capablanca,
            "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1",
            "f1c1",
            "2KR5R",
        ),
        // Chess960 squares: the king already on i1 only moves its rook.
        (
            WideVariant::CapaRandom,
            "r7kr/pppppppppp/10/10/10/10/PPPPPPPPPP/R7KR w KQkq - 0 1",
            "i1j1",
            "R6RK1",
        ),
    ];
    for (variant, fen, uci, rank1) in cases {
        let mut p = pos(variant, fen);
        p.play(uci)
            .unwrap_or_else(|e| panic!("{variant} {uci}: {e}"));
        let after = p.fen();
        let board = after.split(' ').next().unwrap();
        assert_eq!(board.rsplit('/').next().unwrap(), rank1, "{variant} {uci}");
        assert!(after.contains(" b kq "), "{after}");
    }
    // Through an attacked square: a rook on g8 stops Janus's e1i1 but not e1b1.
    let attacked = pos(
        WideVariant::Janus,
        "r3k1r2r/pppppp1ppp/10/10/10/10/PPPPPP1PPP/R3K4R w KQkq - 0 1",
    );
    let moves = ucis(&attacked);
    assert!(!moves.contains(&"e1i1".to_string()) && moves.contains(&"e1b1".to_string()));
}

/// Every Capablanca Random array is a valid start with full castling rights, and the rule's
/// example array is among them.
#[test]
fn every_caparandom_start() {
    let mut found_example = false;
    let arrays = caparandom_arrays();
    assert_eq!(arrays.len(), CAPARANDOM_ARRAYS as usize);
    for white in arrays {
        let white = String::from_utf8(white.to_vec()).unwrap();
        let black = white.to_ascii_lowercase();
        let fen = format!("{black}/pppppppppp/10/10/10/10/PPPPPPPPPP/{white} w KQkq - 0 1");
        let p = pos(WideVariant::CapaRandom, &fen);
        assert!(p.castling_rooks(Color::White).iter().all(Option::is_some));
        assert!(p.has_legal_move());
        found_example |= p.fen().starts_with("rbqnkcnabr/");
    }
    assert!(found_example);
    assert!(WidePosition::caparandom(CAPARANDOM_ARRAYS).is_none());
    let last = WidePosition::caparandom(CAPARANDOM_ARRAYS - 1).unwrap();
    assert_eq!(last.variant(), WideVariant::CapaRandom);
}

/// Bad FENs are refused with the field named, never a panic.
#[test]
fn bad_fens_name_the_field() {
    let janus = WideVariant::Janus;
    // Each FEN with the field its error names (the error's variant).
    let cases = [
        ("", "Board"),
        ("rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP w", "Board"),
        (
            "rjnbkqbnjr/pppppppppp/11/10/10/10/PPPPPPPPPP/RJNBKQBNJR",
            "Board",
        ),
        (
            "rjnbkqbnjr/pppppppppp/9/10/10/10/PPPPPPPPPP/RJNBKQBNJR",
            "Board",
        ),
        (
            "rjnbkqbnjr/pppppppppp/010/10/10/10/PPPPPPPPPP/RJNBKQBNJR",
            "Board",
        ),
        (
            "rjnbkqbncr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR",
            "Board",
        ),
        (
            "rjnbqqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR",
            "Position",
        ),
        (
            "rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR x",
            "Turn",
        ),
        (
            "rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkx",
            "Castling",
        ),
        (
            "1jnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq",
            "Castling",
        ),
        (
            "rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq e3",
            "EnPassant",
        ),
        (
            "rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq - x 1",
            "Counter",
        ),
        (
            "rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq - 0 1 9",
            "Trailing",
        ),
        // Counters past 65535 (the fuzz target found that playing from u32::MAX overflowed).
        (
            "rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq - 4294967295 1",
            "Counter",
        ),
        (
            "rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR b KQkq - 0 65536",
            "Counter",
        ),
        (
            "rjnbkqbnjP/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w - - 0 1",
            "Position",
        ),
    ];
    // The largest counters still play a move.
    let mut most = WidePosition::from_fen(
        janus,
        "rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR b KQkq - 65535 65535",
    )
    .unwrap();
    most.play("c8d6").unwrap();
    assert!(most.fen().ends_with(" 65536 65536"), "{}", most.fen());
    for (fen, expected) in cases {
        let err = WidePosition::from_fen(janus, fen).unwrap_err();
        assert!(format!("{err:?}").starts_with(expected), "{fen}: {err:?}");
        assert!(!err.to_string().contains('\n'));
    }
    // Los Alamos has neither castling nor double steps.
    let los = WideVariant::LosAlamos;
    assert!(WidePosition::from_fen(los, "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w KQkq - 0 1").is_err());
    assert!(WidePosition::from_fen(los, "rnqknr/pppppp/6/2P3/PP1PPP/RNQKNR b - c3 0 1").is_err());
    // The side not to move in check.
    assert!(matches!(
        WidePosition::from_fen(
            WideVariant::Capablanca,
            "k9/1Q8/10/10/10/10/10/K9 w - - 0 1"
        ),
        Err(WideFenError::Position(_))
    ));
}

/// Any text at all, and every prefix of valid FENs, parse or fail without panicking.
#[test]
fn fen_parser_never_panics() {
    let seeds = [
        WideVariant::Grand.start_fen(),
        "r3k4r/p1ppqpb3/bn2pnp3/3PJ5/1p2P5/2N2Q1p2/PPPBBPPPPP/R3K4R w KQkq - 0 1",
        "r8r/1P2k5/2P7/10/3pP5/10/10/5K4/2B1QCAN2/R8R w - d7 0 1",
    ];
    for fen in seeds {
        for variant in WideVariant::ALL {
            for end in 0..=fen.len() {
                let _ = WidePosition::from_fen(variant, &fen[..end]);
            }
            let mut bytes = fen.as_bytes().to_vec();
            for i in 0..bytes.len() {
                for b in [b'9', b'0', b'/', b'K', b'-', b' ', b'z', b'1'] {
                    let saved = bytes[i];
                    bytes[i] = b;
                    if let Ok(p) = WidePosition::from_fen(variant, &String::from_utf8_lossy(&bytes))
                    {
                        // Whatever parses is a position the generator can work on.
                        let _ = p.perft(2);
                        assert_eq!(WidePosition::from_fen(variant, &p.fen()), Ok(p));
                    }
                    bytes[i] = saved;
                }
            }
        }
    }
}

/// A bad or illegal move names itself and leaves the position as it was.
#[test]
fn bad_moves_are_refused() {
    let mut p = WidePosition::new(WideVariant::Grand);
    let before = p;
    for uci in ["", "e3", "e3e", "e3e6", "e3e5q", "z1z2", "a1a11", "e9e7"] {
        let err = p.play(uci).unwrap_err();
        assert_eq!(p, before, "{uci}");
        assert!(!err.to_string().is_empty());
    }
    assert!(matches!(p.play("e3e6"), Err(WideUciError::Illegal { .. })));
    assert!(matches!(p.play("e3-e5"), Err(WideUciError::Syntax(_))));
    assert_eq!(
        p.play("e3e5").map(|m| m.to_uci(&before).to_string()),
        Ok("e3e5".into())
    );
}

/// An en passant square no pawn may use (the pawn is pinned) is no difference for repetition:
/// the position after the double step recurs later without it.
#[test]
fn unusable_en_passant_square_repeats() {
    // White's e5 pawn is pinned to its king on a1 by the bishop on g7, so after d7d5 it may
    // not take on d6.
    let start = pos(
        WideVariant::Capablanca,
        "5k4/3p2b3/10/4P5/10/10/10/K8R b - - 0 1",
    );
    let mut game = WideGame::new(start, DrawRule::Automatic);
    game.play_text("d7d5").unwrap();
    assert!(
        !game
            .position()
            .legal_moves()
            .iter()
            .any(|m| m.to_uci(game.position()).to_string() == "e5d6")
    );
    for m in [
        "j1j2", "f8e8", "j2j1", "e8f8", "j1j2", "f8e8", "j2j1", "e8f8",
    ] {
        game.play_text(m).unwrap();
    }
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.outcome(), Some(Outcome::draw(Termination::Repetition)));
}

/// Over seeded random games in every game (the games of chance with rolls and steps drawn
/// here): the counting generator agrees with the listing one,
/// every move's UCI text reads back to it, no move leaves the mover's king attacked, and every
/// FEN reads back to its position.
#[test]
fn random_games_are_consistent() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: usize| {
        // xorshift64*: a fixed sequence, no dependency.
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        (seed.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    };
    for variant in WideVariant::ALL {
        for _ in 0..6 {
            let mut p = WidePosition::new(variant);
            for _ in 0..150 {
                // The games of chance: the test draws what the server would.
                if p.awaits_roll() {
                    let faces = p.rollable_faces();
                    p.set_roll(faces[next(faces.len())]).unwrap();
                }
                if p.awaits_step() {
                    let steps: Vec<BehemothStep> = BehemothStep::all().collect();
                    p.apply_step(steps[next(steps.len())]).unwrap();
                    assert_eq!(WidePosition::from_fen(variant, &p.fen()), Ok(p));
                }
                let moves = p.legal_moves();
                assert_eq!(moves.len() as u64, p.count_legal_moves(), "{}", p.fen());
                assert_eq!(!moves.is_empty(), p.has_legal_move());
                assert_eq!(WidePosition::from_fen(variant, &p.fen()), Ok(p));
                for &m in &moves {
                    let text = m.to_uci(&p).to_string();
                    let back = text.parse::<chessd_rules::wide::WideUci>().unwrap();
                    assert_eq!(back.to_move(&p), Ok(m), "{text} in {}", p.fen());
                    let mut after = p;
                    after.play_unchecked(m);
                    let mover = p.turn();
                    let attacked = after
                        .king_of(mover)
                        .is_some_and(|king| after.attackers_to(king, !mover) != 0);
                    assert!(!attacked, "{text} in {} leaves its king attacked", p.fen());
                }
                if moves.is_empty() {
                    break;
                }
                p.play_unchecked(moves[next(moves.len())]);
            }
        }
    }
}
