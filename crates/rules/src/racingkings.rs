//! `RacingKings`: the race to rank 8 where nobody may give check, as `../shared/RULES.md`
//! specifies it (lichess's rules):
//!
//! > - **No check, ever.** A move that would give check (directly or by discovery, capture or
//! >   not) is illegal; a move that leaves one's own king attacked is illegal; a king may not
//! >   step onto an attacked square. Hence neither king is ever in check and there is no
//! >   checkmate.
//! > - **The race.** The goal is to bring one's own king to rank 8.
//! >   - Black's king reaches rank 8 first: Black wins at once.
//! >   - White's king reaches rank 8 first: if Black has a legal move that brings Black's king
//! >     to rank 8, Black gets exactly that one move: if Black makes it, the game is a **draw**
//! >     (this offsets White's first-move advantage); if Black plays anything else, White wins.
//! >     If Black has no such move, White wins at once.
//! >   - A position with both kings on rank 8 and White to move is a draw.
//! > - **Stalemate** (side to move has no legal move, game not already decided) is a draw.
//! > - **Insufficient material never applies**: a lone king can still win the race.
//!
//! The no-check rule is applied inside the generator, not by replaying each move: the squares
//! from which each role would attack the enemy king are removed from that role's targets, and a
//! piece that alone screens one of our sliders from the enemy king must stay on that line.
//! A position whose race is decided has no legal moves (the perft convention).

use crate::attacks::{bishop_attacks, knight_attacks, rook_attacks};
use crate::core::{CastlingMode, Core};
use crate::movegen::{self, MoveFilter, Racing};
use crate::rules::{core_accessors, start_position};
use crate::sink::Counter;
use crate::{
    Bitboard, Color, Move, MoveList, Outcome, PositionError, Rank, Role, Rules, Setup, Square,
    Termination, Variant, validate,
};

/// A validated Racing Kings position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RacingKings {
    core: Core,
}

/// The most pieces of each role a side may have: the starting material.
const MAX_PIECES: [(Role, u32); 4] = [
    (Role::Queen, 1),
    (Role::Rook, 2),
    (Role::Bishop, 2),
    (Role::Knight, 2),
];

impl RacingKings {
    /// The no-check rule for the side to move, as target masks.
    #[inline(always)]
    fn filter(&self) -> MoveFilter {
        let core = &self.core;
        let us = core.turn;
        let their_king = core.king(!us);
        let occ = core.board.occupied();
        let knight = knight_attacks(their_king);
        let diagonal = bishop_attacks(their_king, occ);
        let orthogonal = rook_attacks(their_king, occ);
        MoveFilter {
            allowed: [
                Bitboard::FULL,
                !knight,
                !diagonal,
                !orthogonal,
                !(diagonal | orthogonal),
                Bitboard::FULL,
            ],
            discoverers: movegen::blockers(core, their_king, us) & core.board.by_color(us),
            their_king,
        }
    }

    /// Black's king can legally step onto rank 8 now.
    fn black_can_reach_goal(&self) -> bool {
        let mut moves = MoveList::new();
        movegen::generate::<Racing, _>(&self.core, &self.filter(), &mut moves);
        moves
            .iter()
            .any(|m| m.role() == Role::King && m.to().rank() == Rank::Eighth)
    }

    /// The race is over (some king reached rank 8 and Black has no catch-up move left).
    #[inline(always)]
    fn race_over(&self) -> bool {
        let goal = self.core.board.by_role(Role::King) & Bitboard::from_rank(Rank::Eighth);
        if goal.is_empty() {
            return false;
        }
        race_outcome(self).is_some()
    }
}

/// The race's verdict, if a king has reached rank 8.
fn race_outcome(pos: &RacingKings) -> Option<Outcome> {
    let core = &pos.core;
    let white = king_on_goal(core, Color::White);
    let black = king_on_goal(core, Color::Black);
    match (white, black) {
        (false, false) => None,
        (true, true) => Some(Outcome::draw(Termination::Race)),
        (false, true) => Some(Outcome::win(Color::Black, Termination::Race)),
        (true, false) => {
            if core.turn == Color::Black && pos.black_can_reach_goal() {
                None
            } else {
                Some(Outcome::win(Color::White, Termination::Race))
            }
        }
    }
}

/// True if a king of `color` stands on rank 8 (the goal).
#[inline(always)]
fn king_on_goal(core: &Core, color: Color) -> bool {
    (core.board.by_piece(Role::King.of(color)) & Bitboard::from_rank(Rank::Eighth)).any()
}

impl Rules for RacingKings {
    /// Racing Kings has no castling, so `mode` changes nothing.
    fn from_setup_with(setup: Setup, mode: CastlingMode) -> Result<RacingKings, PositionError> {
        validate::no_variant_state(&setup)?;
        let core = validate::core(&setup, mode)?;
        for color in Color::ALL {
            validate::one_king(&core.board, color)?;
            validate::material(&core.board, color)?;
        }
        validate::not_opposite_check(&core)?;
        let board = &core.board;
        if board.by_role(Role::Pawn).any() {
            return Err(PositionError::RacingKingsPawns);
        }
        for color in Color::ALL {
            for (role, max) in MAX_PIECES {
                if board.by_piece(role.of(color)).count() > max {
                    return Err(PositionError::RacingKingsTooMany(color, role));
                }
            }
        }
        if core.castling.any() || core.ep_square.is_some() {
            return Err(PositionError::RacingKingsRights);
        }
        if core.checkers().any() {
            return Err(PositionError::RacingKingsCheck(core.turn));
        }
        if core.turn == Color::Black
            && king_on_goal(&core, Color::White)
            && king_on_goal(&core, Color::Black)
        {
            return Err(PositionError::RacingKingsRaceOver);
        }
        Ok(RacingKings { core })
    }

    start_position!(Variant::RacingKings);
    core_accessors!(play);

    fn legal_ep_square(&self) -> Option<Square> {
        None
    }

    fn legal_moves_into(&self, moves: &mut MoveList) {
        moves.clear();
        if !self.race_over() {
            movegen::generate::<Racing, _>(&self.core, &self.filter(), moves);
        }
    }

    #[inline(always)]
    fn count_legal_moves(&self) -> u64 {
        if self.race_over() {
            return 0;
        }
        let mut counter = Counter::default();
        movegen::generate::<Racing, _>(&self.core, &self.filter(), &mut counter);
        counter.0
    }

    /// Never: no move may give check and no setup may start with one.
    fn is_check(&self) -> bool {
        false
    }

    fn gives_check(&self, _: Move) -> bool {
        false
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = race_outcome(self) {
            return Some(outcome);
        }
        if self.count_legal_moves() == 0 {
            return Some(Outcome::draw(Termination::Stalemate));
        }
        None
    }

    fn has_insufficient_material(&self, _color: Color) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rk(fen: &str) -> RacingKings {
        RacingKings::from_setup(fen.parse().unwrap()).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    fn moves(fen: &str) -> Vec<String> {
        let mut list = rk(fen).legal_moves();
        list.sort_uci();
        list.iter().map(ToString::to_string).collect()
    }

    /// No move may give direct check: the rook may not go to the king's file or rank.
    #[test]
    fn direct_check_is_illegal() {
        let ms = moves("8/8/8/8/8/8/k7/6RK w - - 0 1");
        assert!(!ms.contains(&"g1a1".to_string()), "{ms:?}");
        assert!(!ms.contains(&"g1g2".to_string()), "{ms:?}");
        assert!(ms.contains(&"g1g3".to_string()), "{ms:?}");
    }

    /// No move may give discovered check: the knight screening the rook may not move.
    #[test]
    fn discovered_check_is_illegal() {
        let ms = moves("8/8/8/8/8/7K/8/kN5R w - - 0 1");
        assert!(
            ms.iter().all(|m| !m.starts_with("b1")),
            "knight screens h1 rook from a1 king: {ms:?}"
        );
    }

    /// The race: Black on rank 8 wins; White on rank 8 with Black unable to follow wins; Black's
    /// catch-up makes a draw; both kings on rank 8 with White to move is a draw.
    #[test]
    fn race_outcomes() {
        let black_won = rk("k7/8/8/8/8/8/8/7K w - - 0 1");
        assert_eq!(
            black_won.outcome(),
            Some(Outcome::win(Color::Black, Termination::Race))
        );
        assert_eq!(black_won.legal_moves().len(), 0);

        // White just reached h8; Black's king on a6 cannot reach rank 8 in one move.
        let white_won = rk("7K/8/k7/8/8/8/8/8 b - - 0 1");
        assert_eq!(
            white_won.outcome(),
            Some(Outcome::win(Color::White, Termination::Race))
        );
        assert_eq!(white_won.legal_moves().len(), 0);

        // White on h8, Black on a7 may still catch up: the game goes on with all Black's moves.
        let catch_up = rk("7K/k7/8/8/8/8/8/8 b - - 0 1");
        assert_eq!(catch_up.outcome(), None);
        assert!(catch_up.legal_moves().iter().any(|m| m.to() == Square::A8));
        assert!(catch_up.legal_moves().iter().any(|m| m.to() == Square::A6));

        let both = rk("k6K/8/8/8/8/8/8/8 w - - 0 1");
        assert_eq!(both.outcome(), Some(Outcome::draw(Termination::Race)));

        // Black failed to catch up: White to move with only White on rank 8.
        let failed = rk("7K/8/k7/8/8/8/8/8 w - - 0 1");
        assert_eq!(
            failed.outcome(),
            Some(Outcome::win(Color::White, Termination::Race))
        );
    }

    /// Black's catch-up move must itself be legal: a rank-8 square attacked by White does not count.
    #[test]
    fn catch_up_must_be_legal() {
        // White king h8, white rook b1 guards the b-file; Black king a7 can go to a8 only.
        let pos = rk("7K/k7/8/8/8/8/8/1R6 b - - 0 1");
        assert_eq!(pos.outcome(), None);
        // Add a white bishop on d5 covering a8 too: no catch-up left, White has won.
        let pos = rk("7K/k7/8/3B4/8/8/8/1R6 b - - 0 1");
        assert_eq!(
            pos.outcome(),
            Some(Outcome::win(Color::White, Termination::Race))
        );
    }

    /// Racing Kings setups: no pawns, no check, no extra material, no castling or en passant.
    #[test]
    fn validation_errors() {
        let err = |fen: &str| RacingKings::from_setup(fen.parse().unwrap()).unwrap_err();
        assert_eq!(
            err("8/8/8/8/8/8/kP6/7K w - - 0 1"),
            PositionError::RacingKingsPawns
        );
        assert_eq!(
            err("8/8/8/8/8/8/k7/5QQK w - - 0 1"),
            PositionError::RacingKingsTooMany(Color::White, Role::Queen)
        );
        assert_eq!(
            err("8/8/8/8/8/8/k6K/7r w - - 0 1"),
            PositionError::RacingKingsCheck(Color::White)
        );
        assert_eq!(
            err("k6K/8/8/8/8/8/8/8 b - - 0 1"),
            PositionError::RacingKingsRaceOver
        );
    }
}
