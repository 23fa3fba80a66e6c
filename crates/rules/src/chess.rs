//! `Chess`: standard chess under FIDE's Laws, as `../shared/RULES.md` specifies it.
//!
//! > A move may never leave one's own king attacked (pins, king moves into attack, en passant
//! > that uncovers a rank attack on the king are all illegal). [...] **Checkmate** wins.
//! > **Stalemate** is a draw. **Insufficient material** (automatic draw): neither side can ever
//! > mate: K v K, K+N v K, K+B v K, and positions where all bishops stand on one square colour
//! > and nothing else but kings remains.
//!
//! Move generation lives in `movegen.rs` and setup validation in `validate.rs`; this file holds
//! the outcome and the insufficient-material rule, which the variants that play like standard
//! chess share.

use crate::core::{CastlingMode, Core};
use crate::movegen::{self, NO_FILTER, Standard};
use crate::rules::{core_accessors, start_position};
use crate::sink::Counter;
use crate::{
    Bitboard, Board, Color, MoveList, Outcome, PositionError, Role, Rules, Setup, Square,
    Termination, Variant, validate,
};

/// A validated standard chess position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chess {
    core: Core,
}

impl Rules for Chess {
    /// Standard chess; with [`CastlingMode::Chess960`] it castles as in Chess960 (the
    /// [`Chess960`](crate::Chess960) type is that game).
    fn from_setup_with(setup: Setup, mode: CastlingMode) -> Result<Chess, PositionError> {
        Ok(Chess {
            core: validate::standard(&setup, mode)?,
        })
    }

    start_position!(Variant::Chess);
    core_accessors!(play);
    standard_rules!();
}

/// The `Rules` methods of a variant that moves, checks and ends exactly as standard chess
/// does, for a type with a `core` field (standard chess, Chess960).
macro_rules! standard_rules {
    () => {
        fn legal_ep_square(&self) -> Option<$crate::Square> {
            $crate::movegen::legal_ep_square(&self.core)
        }
        fn legal_moves_into(&self, moves: &mut $crate::MoveList) {
            $crate::chess::legal_moves_into(&self.core, moves);
        }
        #[inline(always)]
        fn count_legal_moves(&self) -> u64 {
            $crate::chess::count_legal_moves(&self.core)
        }
        fn is_check(&self) -> bool {
            self.core.checkers().any()
        }
        #[inline]
        fn gives_check(&self, m: $crate::Move) -> bool {
            self.core.gives_check(m)
        }
        fn outcome(&self) -> Option<$crate::Outcome> {
            $crate::chess::outcome(self)
        }
        fn has_insufficient_material(&self, color: $crate::Color) -> bool {
            $crate::chess::insufficient_material(&self.core.board, color)
        }
    };
}
pub(crate) use standard_rules;

/// Standard chess's legal en passant square, or none once the game is `over`.
pub(crate) fn legal_ep_square_unless(over: bool, core: &Core) -> Option<Square> {
    // A finished game has no moves, en passant included (python-chess agrees).
    if over {
        None
    } else {
        movegen::legal_ep_square(core)
    }
}

/// Standard chess's legal moves, or none once the game is `over`.
pub(crate) fn legal_moves_unless(over: bool, core: &Core, moves: &mut MoveList) {
    if over {
        moves.clear();
    } else {
        legal_moves_into(core, moves);
    }
}

/// Standard chess's number of legal moves, or 0 once the game is `over`.
#[inline(always)]
pub(crate) fn count_legal_moves_unless(over: bool, core: &Core) -> u64 {
    if over { 0 } else { count_legal_moves(core) }
}

/// The legal moves of standard chess, which Chess960, three-check, king of the hill and
/// crazyhouse share; returns the squares that answer a check (for crazyhouse's drops).
#[inline(always)]
pub(crate) fn legal_moves_into(core: &Core, moves: &mut MoveList) -> Bitboard {
    moves.clear();
    movegen::generate::<Standard, _>(core, NO_FILTER, moves)
}

#[inline(always)]
pub(crate) fn count_legal_moves(core: &Core) -> u64 {
    let mut counter = Counter::default();
    movegen::generate::<Standard, _>(core, NO_FILTER, &mut counter);
    counter.0
}

/// The end by the moves left: checkmate first, then insufficient material (both sides, by the
/// variant's own rule), then stalemate (a stalemate with insufficient material is reported as
/// insufficient material, as python-chess and lichess do).
pub(crate) fn outcome<P: Rules>(pos: &P) -> Option<Outcome> {
    let no_moves = pos.count_legal_moves() == 0;
    if no_moves && pos.is_check() {
        return Some(Outcome::win(!pos.turn(), Termination::Checkmate));
    }
    if pos.has_insufficient_material(Color::White) && pos.has_insufficient_material(Color::Black) {
        return Some(Outcome::draw(Termination::InsufficientMaterial));
    }
    if no_moves {
        return Some(Outcome::draw(Termination::Stalemate));
    }
    None
}

/// True if `color` cannot mate by any sequence of legal moves.
///
/// - Any pawn, rook or queen can mate.
/// - A lone knight mates only with help from enemy pieces that can block the king's flight
///   squares, so it is insufficient when the opponent has nothing but king and queens.
/// - Bishops alone mate only when bishops stand on both square colours or the opponent has a
///   knight or pawn to block with.
pub(crate) fn insufficient_material(board: &Board, color: Color) -> bool {
    let ours = board.by_color(color);
    let heavy = board.by_role(Role::Pawn) | board.by_role(Role::Rook) | board.by_role(Role::Queen);
    if (ours & heavy).any() {
        return false;
    }
    if (ours & board.by_role(Role::Knight)).any() {
        let theirs = board.by_color(!color);
        return ours.count() <= 2
            && (theirs & !board.by_role(Role::King) & !board.by_role(Role::Queen)).is_empty();
    }
    if (ours & board.by_role(Role::Bishop)).any() {
        let bishops = board.by_role(Role::Bishop);
        let one_colour = (bishops & Bitboard::DARK_SQUARES).is_empty()
            || (bishops & Bitboard::LIGHT_SQUARES).is_empty();
        return one_colour && (board.by_role(Role::Pawn) | board.by_role(Role::Knight)).is_empty();
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess(fen: &str) -> Chess {
        Chess::from_setup(fen.parse().unwrap()).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    fn moves(fen: &str) -> Vec<String> {
        let mut list = chess(fen).legal_moves();
        list.sort_uci();
        list.iter().map(ToString::to_string).collect()
    }

    /// En passant is illegal when removing both pawns uncovers a rank attack on the own king.
    #[test]
    fn en_passant_uncovering_rank_attack_is_illegal() {
        let fen = "8/8/8/KPp4r/8/8/8/7k w - c6 0 2";
        assert!(!moves(fen).contains(&"b5c6".to_string()), "{fen}");
        let fen = "8/8/8/1Pp4r/8/8/K7/7k w - c6 0 2";
        assert!(moves(fen).contains(&"b5c6".to_string()), "{fen}");
    }

    /// En passant may capture the pawn that gives check.
    #[test]
    fn en_passant_captures_checker() {
        let fen = "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1";
        assert!(moves(fen).contains(&"e4d3".to_string()), "{fen}");
    }

    /// Castling is refused through an attacked square, out of check, and with pieces between.
    #[test]
    fn castling_conditions() {
        assert!(moves("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").contains(&"e1g1".to_string()));
        assert!(moves("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").contains(&"e1c1".to_string()));
        // f1 attacked by the rook on f8.
        assert!(!moves("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1").contains(&"e1g1".to_string()));
        // In check from e8.
        assert!(!moves("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1").contains(&"e1g1".to_string()));
        // b1 attacked does not matter for O-O-O; b1 occupied does.
        assert!(moves("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1").contains(&"e1c1".to_string()));
        assert!(!moves("4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1").contains(&"e1c1".to_string()));
    }

    /// In double check only the king moves.
    #[test]
    fn double_check_only_king_moves() {
        let fen = "4k3/8/8/8/1b6/8/4r3/R3K2R w KQ - 0 1";
        let pos = chess(fen);
        assert!(pos.is_check());
        // Rook on e2 and bishop on b4 both attack e1.
        for m in pos.legal_moves().iter() {
            assert_eq!(m.role(), Role::King, "{m} in {fen}");
        }
    }

    /// A pinned piece moves only along the pin line.
    #[test]
    fn pinned_piece_stays_on_line() {
        let ms = moves("4r2k/8/8/8/8/8/4R3/4K3 w - - 0 1");
        assert!(ms.contains(&"e2e8".to_string()));
        assert!(!ms.contains(&"e2d2".to_string()));
    }

    /// Fool's mate is checkmate; the classic stalemate is a draw; K+B v K is insufficient.
    #[test]
    fn outcomes() {
        let mate = chess("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        assert_eq!(
            mate.outcome(),
            Some(Outcome::win(Color::Black, Termination::Checkmate))
        );
        let stalemate = chess("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        assert_eq!(
            stalemate.outcome(),
            Some(Outcome::draw(Termination::Stalemate))
        );
        let kbk = chess("8/8/8/4k3/8/8/8/2B1K3 w - - 0 1");
        assert_eq!(
            kbk.outcome(),
            Some(Outcome::draw(Termination::InsufficientMaterial))
        );
        let knk_vs_q = chess("8/8/8/4k3/8/8/q7/2N1K3 w - - 0 1");
        assert!(knk_vs_q.has_insufficient_material(Color::White));
        assert!(!knk_vs_q.has_insufficient_material(Color::Black));
    }

    /// Setups that break the rules are rejected with the reason.
    #[test]
    fn validation_errors() {
        let err = |fen: &str| Chess::from_setup(fen.parse().unwrap()).unwrap_err();
        assert_eq!(
            err("8/8/8/8/8/8/8/4K3 w - - 0 1"),
            PositionError::MissingKing(Color::Black)
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4KK2 w - - 0 1"),
            PositionError::TooManyKings(Color::White)
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"),
            PositionError::PawnOnBackRank
        );
        assert_eq!(
            err("4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1"),
            PositionError::OppositeCheck
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
            PositionError::InvalidCastlingRights
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - e6 0 1"),
            PositionError::InvalidEpSquare
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - - 0 0"),
            PositionError::InvalidFullmoves
        );
        // Fifteen queens would be more promoted pieces than missing pawns (and more legal
        // moves than any real position has).
        assert_eq!(
            err("QQQQQQQk/QQQQQQQ1/8/8/8/8/8/7K w - - 0 1"),
            PositionError::ImpossibleMaterial(Color::White)
        );
        let nine_queens = "QQQQQQQQ/Q7/pppppppp/8/8/8/8/k6K w - - 0 1";
        let pos = Chess::from_setup(nine_queens.parse().unwrap()).unwrap();
        assert!(pos.legal_moves().len() <= crate::MAX_MOVES);
    }
}
