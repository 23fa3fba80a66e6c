//! `Atomic`: every capture explodes, as `../shared/RULES.md` specifies it:
//!
//! > Every capture is an explosion on the destination square: the captured piece, the
//! > capturing piece and every piece other than a pawn on the eight squares around it are
//! > removed (en passant explodes around the square the capturing pawn lands on). A king may
//! > not capture. A move that explodes one's own king is illegal; a move that explodes the
//! > opponent's king wins at once, even if one's own king was in check. Kings may stand next
//! > to each other: while they touch, neither is in check from other pieces (capturing the
//! > king would explode the capturer's own). Checkmate also wins. Insufficient material:
//! > follow python-chess's `AtomicBoard`.
//!
//! Moves that capture nothing follow standard chess's pin and check logic (none when the kings
//! touch), the king's steps next to the enemy king counting as safe; each capture is tried on
//! the occupancy its explosion leaves, which is all an explosion can change. Castling may
//! cross squares next to the enemy king (python-chess's rule). The side to move may have lost
//! its king (the game is over); the side that just moved always has one.

use crate::attacks::{attacks, between, king_attacks, pawn_attacks};
use crate::chess::outcome;
use crate::core::{CastlingMode, Core};
use crate::movegen::{self, NO_FILTER, Standard, ep_capturers, ep_victim};
use crate::rules::{core_accessors, start_position};
use crate::sink::{Counter, PawnKind, Sink};
use crate::{
    Bitboard, Color, Move, MoveKind, MoveList, Outcome, PositionError, Role, Rules, Setup, Square,
    Termination, Variant, validate,
};

/// A validated atomic position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Atomic {
    core: Core,
}

/// The squares a capture on `to` clears besides the captured and capturing pieces' own: every
/// piece but a pawn around it.
#[inline(always)]
fn blast(core: &Core, to: Square) -> Bitboard {
    let board = &core.board;
    (king_attacks(to) & board.occupied() & !board.by_role(Role::Pawn)) | to
}

impl Atomic {
    /// Our king and theirs, while both stand.
    #[inline(always)]
    fn kings(&self) -> Option<(Square, Square)> {
        let board = &self.core.board;
        let us = self.core.turn;
        let ours = (board.by_role(Role::King) & board.by_color(us)).first()?;
        let theirs = (board.by_role(Role::King) & board.by_color(!us)).first()?;
        Some((ours, theirs))
    }

    /// True if the capture `from` -> `to` taking the piece on `victim` keeps our king standing
    /// and out of check, or explodes theirs.
    #[inline(always)]
    fn capture_is_legal(
        &self,
        kings: (Square, Square),
        from: Square,
        to: Square,
        victim: Square,
    ) -> bool {
        let (ksq, their_king) = kings;
        let core = &self.core;
        let gone = blast(core, to) | from | victim;
        if gone.contains(ksq) {
            return false;
        }
        if gone.contains(their_king) || king_attacks(ksq).contains(their_king) {
            return true;
        }
        let occ = core.board.occupied() & !gone;
        (core.board.attackers_to(ksq, !core.turn, occ) & !gone).is_empty()
    }

    /// Every legal move into `sink`.
    #[inline(always)]
    fn generate<S: Sink>(&self, sink: &mut S) {
        let Some(kings) = self.kings() else { return };
        let (ksq, their_king) = kings;
        let core = &self.core;
        let board = &core.board;
        let us = core.turn;
        let them = !us;
        let occ = board.occupied();
        let near_them = king_attacks(their_king);
        let touching = near_them.contains(ksq);
        let checkers = if touching {
            Bitboard::EMPTY
        } else {
            board.attackers_to(ksq, them, occ)
        };

        // Moves that capture nothing. The king never captures (it would explode).
        let without_king = occ.without(ksq);
        let mut safe = Bitboard::EMPTY;
        for to in king_attacks(ksq) & !occ {
            if near_them.contains(to) || !board.is_attacked(to, them, without_king) {
                safe |= to;
            }
        }
        sink.piece(Role::King, ksq, safe);
        if !checkers.more_than_one() {
            let blocks = match checkers.first() {
                Some(checker) => between(ksq, checker),
                None => Bitboard::FULL,
            } & !occ;
            let pinned = if touching {
                Bitboard::EMPTY
            } else {
                movegen::blockers(core, ksq, them) & board.by_color(us)
            };
            movegen::gen_pieces::<Standard, S>(core, ksq, pinned, blocks, NO_FILTER, sink);
            let (quiet, promotion) = (Bitboard::EMPTY, PawnKind::Promotion);
            movegen::gen_pawns(core, ksq, pinned, blocks, quiet, false, promotion, sink);
            if checkers.is_empty() {
                movegen::gen_castling(core, ksq, near_them, sink);
            }
        }

        // Captures, each judged by what its explosion leaves.
        let theirs = board.by_color(them);
        let ours = board.by_color(us);
        for from in ours & !board.by_role(Role::King) & !board.by_role(Role::Pawn) {
            let role = board.role_at_occupied(from);
            let mut legal = Bitboard::EMPTY;
            for to in attacks(us, role, from, occ) & theirs {
                if self.capture_is_legal(kings, from, to, to) {
                    legal |= to;
                }
            }
            sink.piece(role, from, legal);
        }
        let last_rank = Bitboard::from_rank(us.promotion_rank());
        for from in ours & board.by_role(Role::Pawn) {
            for to in pawn_attacks(us, from) & theirs {
                if self.capture_is_legal(kings, from, to, to) {
                    let kind = if last_rank.contains(to) {
                        PawnKind::Promotion
                    } else {
                        PawnKind::Single
                    };
                    let delta = to.index() as i32 - from.index() as i32;
                    sink.pawns(Bitboard::from(to), delta, kind);
                }
            }
        }
        if let Some(ep) = core.ep_square {
            for from in ep_capturers(core) {
                if self.capture_is_legal(kings, from, ep, ep_victim(us, ep)) {
                    sink.special(Move::new(Role::Pawn, from, ep, MoveKind::EnPassant));
                }
            }
        }
    }
}

impl Rules for Atomic {
    fn from_setup_with(setup: Setup, mode: CastlingMode) -> Result<Atomic, PositionError> {
        validate::no_variant_state(&setup)?;
        let core = validate::core(&setup, mode)?;
        let board = &core.board;
        // The side to move may have lost its king to the last explosion; the side that moved
        // cannot have.
        validate::one_king(board, !core.turn)?;
        if board.by_piece(Role::King.of(core.turn)).more_than_one() {
            return Err(PositionError::TooManyKings(core.turn));
        }
        for color in Color::ALL {
            validate::material(board, color)?;
        }
        validate::pawns_off_back_ranks(board)?;
        validate::castling(&core)?;
        validate::en_passant(&core)?;
        Ok(Atomic { core })
    }

    start_position!(Variant::Atomic);
    core_accessors!();

    fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.core.ep_square?;
        let kings = self.kings()?;
        let victim = ep_victim(self.core.turn, ep);
        Iterator::any(&mut ep_capturers(&self.core), |from| {
            self.capture_is_legal(kings, from, ep, victim)
        })
        .then_some(ep)
    }

    fn legal_moves_into(&self, moves: &mut MoveList) {
        moves.clear();
        self.generate(moves);
    }

    #[inline(always)]
    fn count_legal_moves(&self) -> u64 {
        let mut counter = Counter::default();
        self.generate(&mut counter);
        counter.0
    }

    #[inline]
    fn play_unchecked(&mut self, m: Move) {
        let capture =
            m.is_en_passant() || self.core.board.by_color(!self.core.turn).contains(m.to());
        self.core.play_unchecked(m);
        if capture {
            let gone = blast(&self.core, m.to());
            for sq in gone {
                self.core.board.discard_piece_at(sq);
            }
            self.core.castling &= !gone;
            // A side whose king blew up (or was the captured piece) keeps no castling right.
            for color in Color::ALL {
                if self.core.board.by_piece(Role::King.of(color)).is_empty() {
                    self.core.castling &= !Bitboard::from_rank(color.back_rank());
                }
            }
        }
    }

    /// In check only with both kings standing apart.
    fn is_check(&self) -> bool {
        self.kings().is_some_and(|(ksq, their_king)| {
            !king_attacks(ksq).contains(their_king) && self.core.checkers().any()
        })
    }

    fn outcome(&self) -> Option<Outcome> {
        let kings = self.core.board.by_role(Role::King);
        if (kings & self.core.board.by_color(self.core.turn)).is_empty() {
            return Some(Outcome::win(!self.core.turn, Termination::KingExploded));
        }
        outcome(self)
    }

    /// python-chess's rule: a bare king never wins; against pieces besides a king any piece
    /// may still explode the enemy king, unless only bishops that can never meet remain;
    /// against a bare king a queen or pawn mates, a single minor piece or rook does not, nor
    /// do two knights.
    fn has_insufficient_material(&self, color: Color) -> bool {
        let board = &self.core.board;
        let kings = board.by_role(Role::King);
        let (ours, theirs) = (board.by_color(color), board.by_color(!color));
        if (theirs & kings).is_empty() {
            return false;
        }
        if (ours & !kings).is_empty() {
            return true;
        }
        let bishops = board.by_role(Role::Bishop);
        if (theirs & !kings).any() {
            if board.occupied() == bishops | kings {
                let white = bishops & board.by_color(Color::White);
                let black = bishops & board.by_color(Color::Black);
                if (white & Bitboard::DARK_SQUARES).is_empty() {
                    return (black & Bitboard::LIGHT_SQUARES).is_empty();
                }
                if (white & Bitboard::LIGHT_SQUARES).is_empty() {
                    return (black & Bitboard::DARK_SQUARES).is_empty();
                }
            }
            return false;
        }
        if (board.by_role(Role::Queen) | board.by_role(Role::Pawn)).any() {
            return false;
        }
        let knights = board.by_role(Role::Knight);
        if (knights | bishops | board.by_role(Role::Rook)).count() == 1 {
            return true;
        }
        if board.occupied() == knights | kings {
            return knights.count() <= 2;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::UciMove;

    fn pos(fen: &str) -> Atomic {
        Atomic::from_setup(fen.parse().unwrap()).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    fn play(p: &Atomic, uci: &str) -> Atomic {
        let m = uci.parse::<UciMove>().unwrap().to_move(p).unwrap();
        p.play(m).unwrap()
    }

    fn moves(p: &Atomic) -> Vec<String> {
        p.legal_moves().iter().map(ToString::to_string).collect()
    }

    /// A capture removes both pieces and the non-pawns around; pawns next to it survive.
    #[test]
    fn explosion() {
        let p = pos("4k3/8/3r4/2npb3/8/3N4/8/4K3 w - - 0 1");
        assert_eq!(play(&p, "d3e5").fen(), "4k3/8/8/2np4/8/8/8/4K3 b - - 0 1");
        assert_eq!(play(&p, "d3c5").fen(), "4k3/8/8/3pb3/8/8/8/4K3 b - - 0 1");
    }

    /// Exploding the enemy king wins even out of check; exploding one's own is illegal; the
    /// king never captures.
    #[test]
    fn kings_and_explosions() {
        // Qxd7 explodes the king on e8 next to it.
        let p = pos("4k3/3p4/8/8/8/8/8/3QK3 w - - 0 1");
        let won = play(&p, "d1d7");
        assert_eq!(
            won.outcome(),
            Some(Outcome::win(Color::White, Termination::KingExploded))
        );
        assert_eq!(won.count_legal_moves(), 0);
        // Capturing next to one's own king is illegal; the king capturing is illegal.
        let p = pos("4k3/8/8/8/8/8/3r4/3QK3 w - - 0 1");
        let ms = moves(&p);
        assert!(!ms.contains(&"d1d2".to_string()), "{ms:?}");
        assert!(!ms.contains(&"e1d2".to_string()), "{ms:?}");
    }

    /// Touching kings: no check from other pieces, and a king may step next to the enemy king
    /// through an attacked square.
    #[test]
    fn touching_kings() {
        // The rook on a2 aims at d2 through c2, the rook on h1 guards the first rank.
        let p = pos("8/8/8/8/8/3k4/r2K4/7r w - - 0 1");
        assert!(!p.is_check());
        let ms = moves(&p);
        assert!(ms.contains(&"d2c2".to_string()), "{ms:?}");
        assert!(ms.contains(&"d2e2".to_string()), "{ms:?}");
        assert!(!ms.contains(&"d2e1".to_string()), "{ms:?}");
    }

    /// python-chess's insufficient material: a bare king, a single minor piece against a bare
    /// king; two knights still explode pieces beside the enemy king.
    #[test]
    fn insufficient_material() {
        assert!(pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1").has_insufficient_material(Color::White));
        assert!(pos("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1").has_insufficient_material(Color::White));
        assert!(!pos("4k3/8/8/8/8/8/8/2Q1K3 w - - 0 1").has_insufficient_material(Color::White));
        assert!(!pos("4k3/4n3/8/8/8/8/8/2N1K3 w - - 0 1").has_insufficient_material(Color::White));
    }
}
