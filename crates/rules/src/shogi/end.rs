//! How a shogi game ends by its rules: what the position alone decides (checkmate; no legal
//! move), the impasse declaration (jishogi), and the repetition rule (sennichite) over a
//! record's history. Pure functions: the caller (the record, or the service) applies them.
//!
//! GAMES.md: "End: checkmate wins; a player with no legal move loses." Impasse (shogi only):
//! "At the start of their turn, a player wins at once if all of these hold: their king stands
//! in the promotion zone; it is not in check; at least 10 of their other pieces stand in the
//! zone; and their points reach 28 for sente or 27 for gote, counting pieces in the zone and in
//! hand, rook and bishop (promoted or not) 5 each, every other piece 1, the king 0."
//! Sennichite: "the same position (board, hands, side to move) occurring for the fourth time
//! ends the game as a draw, unless one side gave check with every move since the first
//! occurrence: that side loses (perpetual check)." Minishogi: "the fourth occurrence of a
//! position is a loss for sente (the first player), unless one side gave check with every
//! move since the first occurrence, which loses instead".

use super::position::ShogiPosition;
use super::role::ShogiRole;
use super::variant::ShogiVariant;
use crate::{Color, Outcome, Termination};

impl ShogiPosition {
    /// The end this position decides: the side to move wins by [`Termination::Impasse`] when it
    /// meets the declaration rule ([`impasse_win`]: "at the start of their turn, a player wins
    /// at once", applied automatically as lishogi does); else, with no legal move, it loses, by
    /// checkmate when in check and by [`Termination::StalemateLoss`] otherwise.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if impasse_win(self) {
            return Some(Outcome::win(self.turn, Termination::Impasse));
        }
        if self.has_legal_move() {
            return None;
        }
        let termination = if self.is_check() {
            Termination::Checkmate
        } else {
            Termination::StalemateLoss
        };
        Some(Outcome::win(!self.turn, termination))
    }
}

/// `color`'s impasse points: its pieces in its promotion zone (the king excepted) and in hand,
/// rooks and bishops (promoted or not) 5, every other piece 1.
#[must_use]
pub fn impasse_points(pos: &ShogiPosition, color: Color) -> u32 {
    let zone = pos.variant.zone(color) & pos.colors[color.index()];
    let big = pos.roles[ShogiRole::Rook as usize]
        | pos.roles[ShogiRole::Dragon as usize]
        | pos.roles[ShogiRole::Bishop as usize]
        | pos.roles[ShogiRole::Horse as usize];
    let kings = pos.roles[ShogiRole::King as usize];
    let on_board = 5 * (zone & big).count_ones() + (zone & !big & !kings).count_ones();
    let hand = pos.hands[color.index()];
    let in_hand: u32 = hand
        .iter()
        .enumerate()
        .map(|(i, &n)| u32::from(n) * if i >= ShogiRole::Bishop.index() { 5 } else { 1 })
        .sum();
    on_board + in_hand
}

/// Whether the side to move wins by the 27-point impasse declaration (shogi only: minishogi
/// has no impasse rule).
#[must_use]
pub fn impasse_win(pos: &ShogiPosition) -> bool {
    if pos.variant != ShogiVariant::Shogi {
        return false;
    }
    let us = pos.turn;
    let zone = pos.variant.zone(us);
    let ours = pos.colors[us.index()];
    let king = pos.pieces(us, ShogiRole::King);
    let others = (zone & ours & !king).count_ones();
    let needed = if us.is_white() { 28 } else { 27 };
    king & zone != 0 && !pos.is_check() && others >= 10 && impasse_points(pos, us) >= needed
}

/// The repetition rule over a record's history: `keys[i]` is the repetition key after `i`
/// plies (`keys[0]` the start's), `checks[i]` whether the position after `i` plies has its
/// side to move in check (ply `i` gave check; `checks[0]` is unused), `first` the side that
/// made ply 1. `Some` once the last position has occurred for the fourth time.
#[must_use]
pub fn sennichite(
    variant: ShogiVariant,
    keys: &[u64],
    checks: &[bool],
    first: Color,
) -> Option<Outcome> {
    let (&last, _) = keys.split_last()?;
    if keys.iter().filter(|&&k| k == last).count() < 4 {
        return None;
    }
    let since = keys.iter().position(|&k| k == last)?;
    let mover = |ply: usize| if ply % 2 == 1 { first } else { !first };
    let checked_throughout = |side: Color| {
        let mut plies = (since + 1..keys.len()).filter(|&ply| mover(ply) == side);
        plies.clone().next().is_some() && plies.all(|ply| checks.get(ply).copied() == Some(true))
    };
    let (white, black) = (
        checked_throughout(Color::White),
        checked_throughout(Color::Black),
    );
    Some(match (white, black) {
        (true, false) => Outcome::win(Color::Black, Termination::PerpetualCheck),
        (false, true) => Outcome::win(Color::White, Termination::PerpetualCheck),
        _ => match variant {
            ShogiVariant::Shogi => Outcome::draw(Termination::Repetition),
            ShogiVariant::Minishogi => Outcome::win(Color::Black, Termination::RepetitionLoss),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(variant: ShogiVariant, fen: &str) -> ShogiPosition {
        ShogiPosition::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// Checkmate wins; a side with no move and no check loses too.
    #[test]
    fn no_move_loses() {
        // Gote's king on i9 mated by a gold on i8 guarded by a knight... by a silver on h7.
        let p = pos(ShogiVariant::Shogi, "7nk/8G/7S1/9/9/9/9/9/4K4[] b - - 0 1");
        assert_eq!(
            p.outcome(),
            Some(Outcome::win(Color::White, Termination::Checkmate))
        );
        assert_eq!(ShogiPosition::new(ShogiVariant::Shogi).outcome(), None);
    }

    /// 28 points with the king and ten pieces in the zone win for sente; 27 do not.
    #[test]
    fn impasse() {
        // Sente: king e8, two rooks and two bishops (20) + 8 golds/silvers/pawns in zone = 28.
        let fen = "RRBBGGGG1/SSSSK4/PPPPPPPPP/9/9/9/9/9/k8[] w - - 0 1";
        let p = pos(ShogiVariant::Shogi, fen);
        assert_eq!(impasse_points(&p, Color::White), 20 + 4 + 4 + 9);
        assert!(impasse_win(&p));
        let short = "RR7/4K4/PPPPPPPPP/9/9/9/9/9/k8[] w - - 0 1";
        let p = pos(ShogiVariant::Shogi, short);
        assert_eq!(impasse_points(&p, Color::White), 19);
        assert!(!impasse_win(&p));
        // The king outside the zone never declares.
        let out = "RRBBGGGG1/SSSS5/PPPPPPPPP/4K4/9/9/9/9/k8[] w - - 0 1";
        assert!(!impasse_win(&pos(ShogiVariant::Shogi, out)));
    }

    /// The position's end applies the rule for the side to move, at the start of its turn:
    /// gote needs 27 points, counted with its hand; the side not to move never wins by it.
    #[test]
    fn impasse_ends_the_game_for_the_side_to_move() {
        // Gote: king e2, ten pieces in ranks 1-3 (rook 5 + 9 pawns) = 14, hand 2 bishops and
        // a rook (15): 29.
        let gote = "K8/9/9/9/9/9/ppppppppp/4k4/r8[bbr] b - - 0 1";
        let p = pos(ShogiVariant::Shogi, gote);
        assert_eq!(impasse_points(&p, Color::Black), 29);
        assert_eq!(
            p.outcome(),
            Some(Outcome::win(Color::Black, Termination::Impasse))
        );
        // The same board with sente to move: sente does not qualify, and gote cannot declare
        // on sente's turn.
        let sente = "K8/9/9/9/9/9/ppppppppp/4k4/r8[bbr] w - - 0 1";
        assert_eq!(pos(ShogiVariant::Shogi, sente).outcome(), None);
        // A pawn in hand for the rook: 25 points, no impasse.
        let short = "K8/9/9/9/9/9/ppppppppp/4k4/r8[bbp] b - - 0 1";
        let p = pos(ShogiVariant::Shogi, short);
        assert_eq!(impasse_points(&p, Color::Black), 25);
        assert_eq!(p.outcome(), None);
    }

    /// A fourth occurrence draws in shogi and loses for sente in minishogi; a side that
    /// checked with every move since the first occurrence loses.
    #[test]
    fn repetition() {
        let keys = [1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1];
        let quiet = [false; 13];
        assert_eq!(
            sennichite(ShogiVariant::Shogi, &keys[..12], &quiet, Color::White),
            None
        );
        assert_eq!(
            sennichite(ShogiVariant::Shogi, &keys, &quiet, Color::White),
            Some(Outcome::draw(Termination::Repetition))
        );
        assert_eq!(
            sennichite(ShogiVariant::Minishogi, &keys, &quiet, Color::White),
            Some(Outcome::win(Color::Black, Termination::RepetitionLoss))
        );
        // Sente (odd plies) checks every time: sente loses.
        let checks: Vec<bool> = (0..13).map(|ply| ply % 2 == 1).collect();
        assert_eq!(
            sennichite(ShogiVariant::Shogi, &keys, &checks, Color::White),
            Some(Outcome::win(Color::Black, Termination::PerpetualCheck))
        );
        // Gote checks throughout in minishogi: gote loses, not sente.
        let checks: Vec<bool> = (0..13).map(|ply| ply % 2 == 0).collect();
        assert_eq!(
            sennichite(ShogiVariant::Minishogi, &keys, &checks, Color::White),
            Some(Outcome::win(Color::White, Termination::PerpetualCheck))
        );
    }
}
