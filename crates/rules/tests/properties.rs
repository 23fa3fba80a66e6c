//! Property tests over positions reached by random playouts in every variant: notation round
//! trips (FEN in each form a variant reads: X-FEN and Shredder-FEN castling, bracketed and
//! ninth-rank pockets, both three-check counters; UCI and SAN including drops), legality
//! agreement, rejected moves changing nothing, and parsers that never panic.

use chessd_rules::{
    CastlingMode, Color, DrawRule, Game, Move, MoveKind, Position, Role, Rules, San, Setup, Square,
    UciMove, Variant, parse_move, san_plus, zobrist_hash,
};
use proptest::prelude::*;

/// Plays the moves picked by `choices` (each taken modulo the number of legal moves) from the
/// variant's start (Chess960: start number `choices[0]`), stopping when the game ends.
fn playout(variant: Variant, choices: &[u16]) -> Vec<Position> {
    let mut pos = match (variant, choices.first()) {
        (Variant::Chess960, Some(&n)) => Position::chess960(u32::from(n) % 960).unwrap(),
        _ => Position::new(variant),
    };
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
    prop::sample::select(Variant::ALL.to_vec())
}

fn king_attacked(pos: &Position, color: Color) -> bool {
    let board = pos.board();
    board
        .king_of(color)
        .is_some_and(|king| board.is_attacked(king, !color, board.occupied()))
}

/// True if no legal move of `variant` may leave the mover's king attacked: every variant with
/// a royal king, except atomic (touching kings, exploding the enemy king first).
fn king_must_be_safe(variant: Variant) -> bool {
    !matches!(variant, Variant::Antichess | Variant::Atomic)
}

/// `fen` with its castling field in Shredder-FEN (file letters for every right).
fn shredder(pos: &Position) -> String {
    let mut fields: Vec<String> = pos.fen().split(' ').map(str::to_owned).collect();
    let letters: String = pos
        .castling_rights()
        .map(|sq| match sq.rank() {
            chessd_rules::Rank::First => sq.file().char().to_ascii_uppercase(),
            _ => sq.file().char(),
        })
        .collect();
    if !letters.is_empty() {
        fields[2] = letters;
    }
    fields.join(" ")
}

/// The other FEN forms `pos`'s variant reads, which must all give `pos` back.
fn other_fen_forms(pos: &Position) -> Vec<String> {
    let fen = pos.fen();
    let mut forms = vec![shredder(pos)];
    if let Some((board, rest)) = fen.split_once(' ')
        && let Some((placement, pocket)) = board.strip_suffix(']').and_then(|b| b.split_once('['))
    {
        forms.push(format!("{placement}/{pocket} {rest}"));
    }
    if let Some(checks) = pos.remaining_checks() {
        let fields: Vec<&str> = fen.split(' ').collect();
        let mut lichess: Vec<&str> = fields
            .iter()
            .copied()
            .filter(|f| !f.contains('+'))
            .collect();
        let given = format!("+{}+{}", 3 - checks[Color::White], 3 - checks[Color::Black]);
        lichess.push(&given);
        forms.push(lichess.join(" "));
    }
    forms
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    /// FEN written for a position parses back to the same position and the same FEN, and so
    /// do the variant's other FEN forms (Shredder castling, ninth-rank pockets, lichess checks).
    #[test]
    fn fen_round_trips(variant in variant_strategy(), choices in prop::collection::vec(any::<u16>(), 0..120)) {
        for pos in playout(variant, &choices) {
            let fen = pos.fen();
            let back = Position::from_fen(variant, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            prop_assert_eq!(&back.fen(), &fen);
            prop_assert_eq!(zobrist_hash(&back), zobrist_hash(&pos));
            for form in other_fen_forms(&pos) {
                let again = Position::from_fen(variant, &form).unwrap_or_else(|e| panic!("{form}: {e}"));
                prop_assert_eq!(&again.fen(), &fen, "{}", form);
            }
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
                if matches!(variant, Variant::RacingKings | Variant::Antichess) {
                    prop_assert!(!san.ends_with('+') && !san.ends_with('#'));
                }
                if m.is_drop() {
                    prop_assert_eq!(m.to_string(), san.trim_end_matches(['+', '#']));
                }
            }
        }
    }

    /// `gives_check` says what playing the move and asking `is_check` says, in every variant.
    #[test]
    fn gives_check_agrees_with_play(variant in variant_strategy(), choices in prop::collection::vec(any::<u16>(), 0..120)) {
        for pos in playout(variant, &choices) {
            for &m in pos.legal_moves().iter() {
                let mut after = pos;
                after.play_unchecked(m);
                prop_assert_eq!(pos.gives_check(m), after.is_check(), "{} in {}", m, pos.fen());
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
                let safe = match variant {
                    _ if king_must_be_safe(variant) => !king_attacked(&after, pos.turn()),
                    Variant::Atomic => {
                        let board = after.board();
                        let (ours, theirs) = (board.king_of(pos.turn()), board.king_of(!pos.turn()));
                        ours.is_some()
                            && (theirs.is_none()
                                || ours.zip(theirs).is_some_and(|(a, b)| {
                                    chessd_rules::attacks::king_attacks(a).contains(b)
                                })
                                || !king_attacked(&after, pos.turn()))
                    }
                    _ => true,
                };
                prop_assert!(safe, "{} leaves the king attacked in {}", m, pos.fen());
                if variant == Variant::RacingKings {
                    prop_assert!(!king_attacked(&after, !pos.turn()), "{} gives check in {}", m, pos.fen());
                }
            }
            for &(from, to, role) in &candidates {
                let (from, to) = (Square::new(from).unwrap(), Square::new(to).unwrap());
                for kind in [MoveKind::Normal, MoveKind::DoublePush, MoveKind::Castle, MoveKind::EnPassant, MoveKind::Promotion(Role::Queen), MoveKind::Promotion(Role::King)] {
                    let m = Move::new(Role::ALL[role], from, to, kind);
                    prop_assert_eq!(pos.is_legal(m), moves.contains(&m));
                }
                let drop = Move::drop(Role::ALL[role], to);
                prop_assert_eq!(pos.is_legal(drop), moves.contains(&drop));
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
        text in "[a-hKQRBNPOx0-9=+#@-]{1,7}",
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
        castling in "(-|K?Q?k?q?|[A-H]?[A-H]?[a-h]?)",
        pocket in "(|\\[[PNBRQKpnbrqk]{0,6}\\])",
        checks in "(| [0-4]\\+[0-4])",
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
        let fen = format!("{fen}{pocket} {} {castling} -{checks} 0 1", if white { 'w' } else { 'b' });
        for variant in Variant::ALL {
            for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
                if let Ok(pos) = Position::from_fen_with(variant, &fen, mode) {
                    let _ = pos.perft(2);
                    let back = Position::from_fen_with(variant, &pos.fen(), mode);
                    prop_assert_eq!(back.map(|p| p.fen()), Ok(pos.fen()));
                }
            }
        }
    }
}
