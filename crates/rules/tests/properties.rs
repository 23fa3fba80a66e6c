//! Property tests over positions reached by random playouts in both variants: notation round
//! trips, legality agreement, rejected moves changing nothing, and parsers that never panic.

use chessd_rules::{
    Color, DrawRule, Game, Move, MoveKind, Position, Role, Rules, San, Setup, Square, UciMove,
    Variant, parse_move, san_plus,
};
use proptest::prelude::*;

/// Plays the moves picked by `choices` (each taken modulo the number of legal moves) from the
/// variant's start, stopping when the game ends.
fn playout(variant: Variant, choices: &[u16]) -> Vec<Position> {
    let mut pos = Position::new(variant);
    let mut seen = vec![pos];
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[c as usize % moves.len()]);
        seen.push(pos);
    }
    seen
}

fn variant_strategy() -> impl Strategy<Value = Variant> {
    prop_oneof![Just(Variant::Chess), Just(Variant::RacingKings)]
}

fn king_attacked(pos: &Position, color: Color) -> bool {
    let board = pos.board();
    let king = board.king_of(color).expect("one king");
    board.is_attacked(king, !color, board.occupied())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// FEN written for a position parses back to the same position and the same FEN.
    #[test]
    fn fen_round_trips(variant in variant_strategy(), choices in prop::collection::vec(any::<u16>(), 0..120)) {
        for pos in playout(variant, &choices) {
            let fen = pos.fen();
            let back = Position::from_fen(variant, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            prop_assert_eq!(back.fen(), fen);
        }
    }

    /// Every legal move's SAN (and UCI) reads back as exactly that move.
    #[test]
    fn san_and_uci_read_back(variant in variant_strategy(), choices in prop::collection::vec(any::<u16>(), 0..80)) {
        for pos in playout(variant, &choices) {
            for &m in pos.legal_moves().iter() {
                let san = san_plus(&pos, m);
                prop_assert_eq!(parse_move(&pos, &san), Ok(m), "{} in {}", san, pos.fen());
                let without_suffix = san.trim_end_matches(['+', '#']);
                prop_assert_eq!(parse_move(&pos, without_suffix), Ok(m), "{} in {}", san, pos.fen());
                prop_assert_eq!(parse_move(&pos, &m.to_string()), Ok(m), "{} in {}", m, pos.fen());
                if variant == Variant::RacingKings {
                    prop_assert!(!san.ends_with('+') && !san.ends_with('#'));
                }
            }
        }
    }

    /// `is_legal` agrees with the generated list, for generated moves and arbitrary candidates;
    /// no legal move leaves the mover's king attacked, and in Racing Kings none gives check.
    #[test]
    fn is_legal_agrees_with_generator(
        variant in variant_strategy(),
        choices in prop::collection::vec(any::<u16>(), 0..80),
        candidates in prop::collection::vec((0u32..64, 0u32..64, 0usize..6), 16),
    ) {
        for pos in playout(variant, &choices) {
            let moves = pos.legal_moves();
            prop_assert_eq!(moves.len() as u64, pos.count_legal_moves());
            for &m in moves.iter() {
                prop_assert!(pos.is_legal(m));
                let mut after = pos;
                after.play_unchecked(m);
                prop_assert!(!king_attacked(&after, pos.turn()), "{} leaves the king attacked in {}", m, pos.fen());
                if variant == Variant::RacingKings {
                    prop_assert!(!king_attacked(&after, !pos.turn()), "{} gives check in {}", m, pos.fen());
                }
            }
            for &(from, to, role) in &candidates {
                let (from, to) = (Square::new(from).unwrap(), Square::new(to).unwrap());
                for kind in [MoveKind::Normal, MoveKind::DoublePush, MoveKind::Castle, MoveKind::EnPassant, MoveKind::Promotion(Role::Queen)] {
                    let m = Move::new(Role::ALL[role], from, to, kind);
                    prop_assert_eq!(pos.is_legal(m), moves.contains(&m));
                }
            }
        }
    }

    /// The SAN a game records for each move is the SAN of that move in the position it was
    /// played from, with its check or mate suffix.
    #[test]
    fn recorded_san_matches_replay(
        variant in variant_strategy(),
        choices in prop::collection::vec(any::<u16>(), 0..150),
    ) {
        let mut game = Game::new(Position::new(variant), DrawRule::Claim);
        let mut expected = Vec::new();
        for &c in &choices {
            let moves = game.position().legal_moves();
            if moves.is_empty() || game.is_over() {
                break;
            }
            let m = moves[c as usize % moves.len()];
            expected.push(san_plus(game.position(), m));
            let played = game.play(m).unwrap();
            prop_assert_eq!(&played.san, expected.last().unwrap());
        }
        let recorded: Vec<String> = game.sans().map(str::to_owned).collect();
        prop_assert_eq!(recorded, expected);
    }

    /// A rejected move leaves the game exactly as it was.
    #[test]
    fn rejected_move_changes_nothing(
        variant in variant_strategy(),
        choices in prop::collection::vec(any::<u16>(), 0..60),
        text in "[a-hKQRBNOx0-9=+#-]{1,7}",
    ) {
        let mut game = Game::new(Position::new(variant), DrawRule::Claim);
        for &c in &choices {
            let moves = game.position().legal_moves();
            if moves.is_empty() || game.is_over() {
                break;
            }
            game.play(moves[c as usize % moves.len()]).unwrap();
        }
        let before = (game.position().fen(), game.ply(), game.repetitions(), game.outcome(), game.sans().map(str::to_owned).collect::<Vec<_>>());
        if game.play_text(&text).is_err() {
            let after = (game.position().fen(), game.ply(), game.repetitions(), game.outcome(), game.sans().map(str::to_owned).collect::<Vec<_>>());
            prop_assert_eq!(after, before);
        }
    }

    /// Parsers return a value or a typed error for any input; none panics.
    #[test]
    fn parsers_never_panic(text in any::<String>(), bytes in prop::collection::vec(any::<u8>(), 0..100)) {
        let lossy = String::from_utf8_lossy(&bytes).into_owned();
        for s in [text.as_str(), lossy.as_str()] {
            let _ = s.parse::<Setup>();
            let _ = s.parse::<UciMove>();
            let _ = s.parse::<San>();
            let _ = s.parse::<Variant>();
            for variant in Variant::ALL {
                let _ = Position::from_fen(variant, s);
                let _ = parse_move(&Position::new(variant), s);
            }
        }
    }

    /// FEN-shaped noise (valid syntax, random placement) is validated without panicking, and a
    /// position that validates generates moves and round-trips.
    #[test]
    fn random_setups_validate_or_error(
        pieces in prop::collection::vec((0u32..64, "[PNBRQKpnbrqk]"), 2..20),
        white in any::<bool>(),
        castling in "(-|K?Q?k?q?)",
    ) {
        let mut board = [None; 64];
        for (sq, c) in &pieces {
            board[*sq as usize] = c.chars().next();
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    Some(c) => {
                        if empty > 0 { fen.push_str(&empty.to_string()); empty = 0; }
                        fen.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 { fen.push_str(&empty.to_string()); }
            if rank > 0 { fen.push('/'); }
        }
        let castling = if castling.is_empty() { "-".to_string() } else { castling };
        let fen = format!("{fen} {} {castling} - 0 1", if white { 'w' } else { 'b' });
        for variant in Variant::ALL {
            if let Ok(pos) = Position::from_fen(variant, &fen) {
                let _ = pos.perft(2);
                prop_assert_eq!(Position::from_fen(variant, &pos.fen()).map(|p| p.fen()), Ok(pos.fen()));
            }
        }
    }
}
