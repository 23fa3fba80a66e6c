//! `Horde`: 36 white pawns against a black army, as `../shared/RULES.md` specifies it:
//!
//! > White has 36 pawns and no king
//! > (`rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1`); Black is
//! > standard. White's pawns on rank 1 may also advance two squares (such a double step allows
//! > no en passant capture). White wins by checkmating Black; Black wins by capturing every
//! > white piece. Stalemate is a draw. White's pawns may promote as usual.
//!
//! White, having no king, plays every pseudo-legal move; Black's moves are standard chess's.
//! Only White can lack mating material: python-chess's `HordeBoard` rule, ported below.

use crate::chess::outcome;
use crate::core::{CastlingMode, Core};
use crate::movegen::{self, HordeFlavor, NO_FILTER, ep_capturers};
use crate::rules::{core_accessors, start_position};
use crate::sink::Counter;
use crate::{
    Bitboard, Color, Move, MoveList, Outcome, PositionError, Rank, Role, Rules, Setup, Square,
    Termination, Variant, validate,
};

/// A validated horde position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Horde {
    core: Core,
}

impl Horde {
    /// True once the horde has no piece left (the game is over).
    #[inline(always)]
    fn horde_destroyed(&self) -> bool {
        self.core.board.by_color(Color::White).is_empty()
    }

    /// True if the side to move has a king (Black).
    #[inline(always)]
    fn has_king(&self) -> bool {
        (self.core.board.by_role(Role::King) & self.core.board.by_color(self.core.turn)).any()
    }
}

impl Rules for Horde {
    fn from_setup_with(setup: Setup, mode: CastlingMode) -> Result<Horde, PositionError> {
        validate::no_variant_state(&setup)?;
        let core = validate::core(&setup, mode)?;
        let board = &core.board;
        if board.by_piece(Role::King.of(Color::White)).any() {
            return Err(PositionError::HordeWhiteKing);
        }
        if board.by_color(Color::White).count() > 36 {
            return Err(PositionError::HordeTooManyPieces);
        }
        validate::one_king(board, Color::Black)?;
        validate::material(board, Color::Black)?;
        // White's pawns may stand on rank 1; no pawn on rank 8, no black pawn on rank 1.
        let pawns = board.by_role(Role::Pawn);
        let black_pawns = pawns & board.by_color(Color::Black);
        if (pawns & Bitboard::from_rank(Rank::Eighth)).any()
            || (black_pawns & Bitboard::from_rank(Rank::First)).any()
        {
            return Err(PositionError::PawnOnBackRank);
        }
        if core.turn == Color::White {
            validate::not_opposite_check(&core)?;
        } else {
            validate::checkers(&core)?;
        }
        validate::castling(&core)?;
        validate::en_passant(&core)?;
        Ok(Horde { core })
    }

    start_position!(Variant::Horde);
    core_accessors!(play);

    fn legal_ep_square(&self) -> Option<Square> {
        // A finished game has no moves, en passant included (python-chess agrees).
        if self.horde_destroyed() {
            return None;
        }
        if self.has_king() {
            movegen::legal_ep_square(&self.core)
        } else {
            self.core
                .ep_square
                .filter(|_| ep_capturers(&self.core).any())
        }
    }

    fn legal_moves_into(&self, moves: &mut MoveList) {
        moves.clear();
        if !self.horde_destroyed() {
            movegen::generate::<HordeFlavor, _>(&self.core, NO_FILTER, moves);
        }
    }

    #[inline(always)]
    fn count_legal_moves(&self) -> u64 {
        if self.horde_destroyed() {
            return 0;
        }
        let mut counter = Counter::default();
        movegen::generate::<HordeFlavor, _>(&self.core, NO_FILTER, &mut counter);
        counter.0
    }

    fn is_check(&self) -> bool {
        self.has_king() && self.core.checkers().any()
    }

    /// White's moves may check Black's king; Black's check nothing (the horde has no king, and
    /// `Core::gives_check` finds none).
    fn gives_check(&self, m: Move) -> bool {
        self.core.gives_check(m)
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.horde_destroyed() {
            return Some(Outcome::win(Color::Black, Termination::HordeDestroyed));
        }
        outcome(self)
    }

    /// Black can always win by capturing the horde; White by python-chess's table of what the
    /// horde needs to mate.
    fn has_insufficient_material(&self, color: Color) -> bool {
        color == Color::White && horde_cannot_mate(&Material::of(&self.core))
    }
}

/// The counts the horde's mating-material rule looks at.
#[derive(Clone, Copy)]
struct Material {
    // White's pieces.
    queens: u32,
    pawns: u32,
    rooks: u32,
    bishops: u32,
    knights: u32,
    light_bishops: u32,
    dark_bishops: u32,
    // Black's pieces (king included in `total`).
    b_pawns: u32,
    b_knights: u32,
    b_bishops: u32,
    b_rooks: u32,
    b_queens: u32,
    b_light_bishops: u32,
    b_dark_bishops: u32,
    b_total: u32,
}

impl Material {
    fn of(core: &Core) -> Material {
        let board = &core.board;
        let count = |color: Color, role: Role| board.by_piece(role.of(color)).count();
        let bishops_on = |color: Color, squares: Bitboard| {
            (board.by_piece(Role::Bishop.of(color)) & squares).count()
        };
        let (w, b) = (Color::White, Color::Black);
        Material {
            queens: count(w, Role::Queen),
            pawns: count(w, Role::Pawn),
            rooks: count(w, Role::Rook),
            bishops: count(w, Role::Bishop),
            knights: count(w, Role::Knight),
            light_bishops: bishops_on(w, Bitboard::LIGHT_SQUARES),
            dark_bishops: bishops_on(w, Bitboard::DARK_SQUARES),
            b_pawns: count(b, Role::Pawn),
            b_knights: count(b, Role::Knight),
            b_bishops: count(b, Role::Bishop),
            b_rooks: count(b, Role::Rook),
            b_queens: count(b, Role::Queen),
            b_light_bishops: bishops_on(b, Bitboard::LIGHT_SQUARES),
            b_dark_bishops: bishops_on(b, Bitboard::DARK_SQUARES),
            b_total: board.by_color(b).count(),
        }
    }
}

/// python-chess's `HordeBoard.has_insufficient_material(WHITE)` (derived in
/// stevepapazis/horde-insufficient-material-tests): the horde cannot mate with this material
/// whatever Black has to block its own king with. Four or more pieces always can; fewer can
/// only with the black pieces each mating pattern needs.
fn horde_cannot_mate(m: &Material) -> bool {
    // Two bishops of one square colour cover all of that colour: more count as two.
    let horde =
        m.pawns + m.knights + m.rooks + m.queens + m.dark_bishops.min(2) + m.light_bishops.min(2);
    // The square colour of the horde's bishops (light if it has a light one).
    let light = m.light_bishops >= 1;
    let opposite_bishops = if light {
        m.b_dark_bishops
    } else {
        m.b_light_bishops
    };
    let same_bishops = if light {
        m.b_light_bishops
    } else {
        m.b_dark_bishops
    };
    let others_than = |n: u32| m.b_total - n;
    let horde_pair = m.light_bishops >= 1 && m.dark_bishops >= 1;
    let black_pair = m.b_light_bishops >= 1 && m.b_dark_bishops >= 1;

    if horde == 0 {
        return true;
    }
    if horde >= 4 {
        return false;
    }
    if (m.pawns >= 1 || m.queens >= 1) && horde >= 2 {
        return false;
    }
    if m.rooks >= 1
        && horde >= 2
        && !(horde == 2 && m.rooks == 1 && m.bishops == 1 && others_than(same_bishops) == 1)
    {
        return false;
    }
    match horde {
        1 => {
            if m.b_total == 1 {
                true
            } else if m.queens == 1 {
                !(m.b_pawns >= 1
                    || m.b_rooks >= 1
                    || m.b_light_bishops >= 2
                    || m.b_dark_bishops >= 2)
            } else if m.pawns == 1 {
                // The pawn promotes: to a queen or a knight, whichever might mate.
                let queen = Material {
                    pawns: 0,
                    queens: 1,
                    ..*m
                };
                let knight = Material {
                    pawns: 0,
                    knights: 1,
                    ..*m
                };
                horde_cannot_mate(&queen) && horde_cannot_mate(&knight)
            } else if m.rooks == 1 {
                !(m.b_pawns >= 2
                    || (m.b_rooks >= 1 && m.b_pawns >= 1)
                    || (m.b_rooks >= 1 && m.b_knights >= 1)
                    || (m.b_pawns >= 1 && m.b_knights >= 1))
            } else if m.bishops == 1 {
                !(opposite_bishops >= 2
                    || (opposite_bishops >= 1 && m.b_pawns >= 1)
                    || m.b_pawns >= 2)
            } else if m.knights == 1 {
                let blockers = m.b_knights >= 2
                    || m.b_pawns >= 2
                    || (m.b_rooks >= 1 && m.b_knights >= 1)
                    || (m.b_rooks >= 1 && m.b_bishops >= 1)
                    || (m.b_knights >= 1 && m.b_bishops >= 1)
                    || (m.b_rooks >= 1 && m.b_pawns >= 1)
                    || (m.b_knights >= 1 && m.b_pawns >= 1)
                    || (m.b_bishops >= 1 && m.b_pawns >= 1)
                    || (black_pair && m.b_pawns >= 1);
                let dark_ok = m.b_dark_bishops < 2 || others_than(m.b_dark_bishops) >= 3;
                let light_ok = m.b_light_bishops < 2 || others_than(m.b_light_bishops) >= 3;
                !(m.b_total >= 4 && blockers && dark_ok && light_ok)
            } else {
                true
            }
        }
        2 => {
            if m.b_total == 1 {
                true
            } else if m.knights == 2 {
                m.b_pawns + m.b_bishops + m.b_knights == 0
            } else if horde_pair {
                !(m.b_pawns >= 1
                    || m.b_bishops >= 1
                    || (m.b_knights >= 1 && m.b_rooks + m.b_queens >= 1))
            } else if m.bishops >= 1 && m.knights >= 1 {
                !(m.b_pawns >= 1 || opposite_bishops >= 1 || others_than(same_bishops) >= 3)
            } else {
                // Two bishops of one colour mate with two blockers of the other colour's
                // squares (pawns, opposite bishops, knights), any two.
                let blockers = m.b_pawns.min(2) + opposite_bishops.min(2) + m.b_knights.min(2);
                blockers < 2
            }
        }
        3 => {
            if (m.knights == 2 && m.bishops == 1) || m.knights == 3 || horde_pair {
                false
            } else {
                m.b_total == 1
            }
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::UciMove;

    fn pos(fen: &str) -> Horde {
        Horde::from_setup(fen.parse().unwrap()).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// First-rank pawns double-step without an en passant square; second-rank ones with one.
    #[test]
    fn first_rank_double_step() {
        let p = pos("4k3/8/8/8/8/8/8/P7 w - - 0 1");
        let m = "a1a3".parse::<UciMove>().unwrap().to_move(&p).unwrap();
        assert_eq!(p.play(m).unwrap().fen(), "4k3/8/8/8/8/P7/8/8 b - - 0 1");
        let p = pos("4k3/8/8/8/1p6/8/P7/8 w - - 0 1");
        let m = "a2a4".parse::<UciMove>().unwrap().to_move(&p).unwrap();
        assert_eq!(p.play(m).unwrap().fen(), "4k3/8/8/8/Pp6/8/8/8 b - a3 0 1");
    }

    /// The horde has no king to keep safe; capturing its last piece wins for Black.
    #[test]
    fn horde_destroyed() {
        let p = pos("4k3/8/8/8/8/8/3q4/4P3 b - - 0 1");
        let m = "d2e1".parse::<UciMove>().unwrap().to_move(&p).unwrap();
        let after = p.play(m).unwrap();
        assert_eq!(
            after.outcome(),
            Some(Outcome::win(Color::Black, Termination::HordeDestroyed))
        );
        assert_eq!(after.count_legal_moves(), 0);
        assert_eq!(
            Horde::from_setup("4k3/8/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap()),
            Err(PositionError::HordeWhiteKing)
        );
        assert_eq!(Horde::start().count_legal_moves(), 8);
    }

    /// A lone bishop cannot mate a lone king; a queen can mate a king hemmed in by its pawns.
    #[test]
    fn insufficient_material() {
        assert!(pos("4k3/8/8/8/8/8/8/B7 w - - 0 1").has_insufficient_material(Color::White));
        assert!(!pos("4k3/8/8/8/8/8/8/B7 w - - 0 1").has_insufficient_material(Color::Black));
        assert!(!pos("4k3/4p3/8/8/8/8/8/Q7 w - - 0 1").has_insufficient_material(Color::White));
        assert!(pos("4k3/8/8/8/8/8/8/Q7 w - - 0 1").has_insufficient_material(Color::White));
    }
}
