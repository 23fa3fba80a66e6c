//! The ends only a game's history decides, as GAMES.md section 4 adopts them from
//! Fairy-Stockfish's `xiangqi` (written from that description, not from its code):
//!
//! > When the same position (same side to move) occurs for the **third** time since the last
//! > capture, look at every move made since its first occurrence:
//! > 1. if all of one side's moves gave check and not all of the other's did, the **checking
//! >    side loses** (perpetual check); if both checked throughout, it is a draw;
//! > 2. otherwise, if one side **chased** the same enemy piece with every one of its moves and
//! >    the other side did not, the **chasing side loses**; if both did, it is a draw;
//! > 3. otherwise the game is drawn.
//! >
//! > A move **chases** a piece when, after it, the moving piece (or a piece it uncovers) newly
//! > attacks that piece and the attack counts: generals, and soldiers that have not crossed the
//! > river, are never chased, and generals and soldiers never chase; a horse or cannon
//! > attacking a chariot, or an elephant or advisor attacking a chariot, horse or cannon,
//! > always counts; an attack on a piece of the attacker's own type counts only if the target
//! > cannot hit back (a pinned piece, or a horse whose leg is blocked); any other target counts
//! > only if no unpinned piece of its side defends it.
//! >
//! > **No-capture rule**: the game is drawn after 100 plies without a capture; as in FSF, when
//! > one side has given more than 10 checks in that stretch, the count is reduced by two plies
//! > per extra check.
//!
//! Decisions where the text leaves room: "attacks" is a capture the attacker could legally make;
//! "hit back" is a legal capture of the attacker by the target; "defends" is a legal recapture
//! on the target's point after the attacker took it (so a pinned defender, or a general that
//! would step into check, does not defend). A chased piece is followed as it moves. The ends are
//! [`Termination::PerpetualCheck`] and [`Termination::PerpetualChase`] (the side at fault loses),
//! [`Termination::Repetition`] (a draw), and the no-capture draw [`Termination::FiftyMoveRule`]
//! (100 plies, the chess rule's count).

use super::attacks::HALF;
use super::mv::XiangqiMove;
use super::position::XiangqiPosition;
use super::role::XiangqiRole;
use crate::{Color, Outcome, Termination};

/// Plies without a capture after which the game is drawn.
pub const NO_CAPTURE_PLIES: u32 = 100;
/// Checks a side may give in that stretch before each further one takes two plies off the
/// count.
pub const FREE_CHECKS: u32 = 10;

/// The end the history decides, if any. `positions[i]` is the position before `moves[i]`,
/// and the last position is the current one (`positions.len() == moves.len() + 1`); they may
/// be any tail of the game that reaches back to the last capture.
#[must_use]
pub fn history_outcome(positions: &[XiangqiPosition], moves: &[XiangqiMove]) -> Option<Outcome> {
    let current = positions.last()?;
    if positions.len() != moves.len() + 1 {
        return None;
    }
    let n = moves.len();
    // The stretch since the last capture: positions[n - window ..= n].
    let window = (current.halfmoves() as usize).min(n);
    let first = n - window;
    let key = current.repetition_key();
    let occurrences: Vec<usize> = (first..=n)
        .filter(|&i| (n - i).is_multiple_of(2) && positions[i].repetition_key() == key)
        .collect();
    if occurrences.len() >= 3 {
        return Some(repetition_outcome(
            &positions[occurrences[0]..],
            &moves[occurrences[0]..],
        ));
    }
    if current.halfmoves() >= NO_CAPTURE_PLIES {
        let mut checks = [0u32; 2];
        for p in &positions[first + 1..=n] {
            if p.is_check() {
                checks[(!p.turn()).index()] += 1;
            }
        }
        let reduction: u32 = checks
            .iter()
            .map(|&c| 2 * c.saturating_sub(FREE_CHECKS))
            .sum();
        if current.halfmoves().saturating_sub(reduction) >= NO_CAPTURE_PLIES {
            return Some(Outcome::draw(Termination::FiftyMoveRule));
        }
    }
    None
}

/// The verdict on a repetition cycle: `positions[0]` is the first occurrence, the last the
/// third, `moves` the moves between.
fn repetition_outcome(positions: &[XiangqiPosition], moves: &[XiangqiMove]) -> Outcome {
    let mover = |i: usize| positions[i].turn();
    let mut all_check = [true; 2];
    for i in 0..moves.len() {
        if !positions[i + 1].is_check() {
            all_check[mover(i).index()] = false;
        }
    }
    match all_check {
        [true, false] => return Outcome::win(Color::Black, Termination::PerpetualCheck),
        [false, true] => return Outcome::win(Color::White, Termination::PerpetualCheck),
        [true, true] => return Outcome::draw(Termination::Repetition),
        [false, false] => {}
    }
    // The enemy pieces each side has chased with every one of its moves so far, followed
    // point by point as they move.
    let mut chased: [Option<u128>; 2] = [None, None];
    for (i, &m) in moves.iter().enumerate() {
        let side = mover(i).index();
        let now = chases(&positions[i], m, &positions[i + 1]);
        chased[side] = Some(chased[side].map_or(now, |before| before & now));
        let other = 1 - side;
        if let Some(targets) = chased[other]
            && targets & m.from().bit() != 0
        {
            chased[other] = Some((targets & !m.from().bit()) | m.to().bit());
        }
    }
    let chasing = chased.map(|c| c.is_some_and(|t| t != 0));
    match chasing {
        [true, false] => Outcome::win(Color::Black, Termination::PerpetualChase),
        [false, true] => Outcome::win(Color::White, Termination::PerpetualChase),
        _ => Outcome::draw(Termination::Repetition),
    }
}

/// Whether `attacker`'s side (to move in `pos`) can legally capture on `target` with the piece
/// on `attacker`.
fn can_capture(pos: &XiangqiPosition, attacker: u128, target: u128) -> bool {
    pos.legal_moves()
        .iter()
        .any(|m| m.from().bit() == attacker && m.to().bit() == target)
}

/// The pairs (attacker point, target point) of legal captures the side to move of `pos` has,
/// generals and soldiers left out as attackers.
fn attacks(pos: &XiangqiPosition) -> Vec<(u128, u128)> {
    let theirs = pos.side(!pos.turn());
    pos.legal_moves()
        .iter()
        .filter(|m| {
            m.to().bit() & theirs != 0
                && !matches!(m.role(), XiangqiRole::General | XiangqiRole::Soldier)
        })
        .map(|m| (m.from().bit(), m.to().bit()))
        .collect()
}

/// The enemy pieces (as points of `after`) that the move `m`, played in `before` to reach
/// `after`, chases.
fn chases(before: &XiangqiPosition, m: XiangqiMove, after: &XiangqiPosition) -> u128 {
    let us = before.turn();
    // The mover's attacks, as if it were to move again, before and after its move.
    let mut again = *after;
    again.turn = us;
    // The moved piece's earlier attacks are filed under its new point, so that only what it
    // attacks anew counts.
    let old: Vec<(u128, u128)> = attacks(before)
        .into_iter()
        .map(|(a, t)| (if a == m.from().bit() { m.to().bit() } else { a }, t))
        .collect();
    let mut chased = 0u128;
    for (a, t) in attacks(&again) {
        if old.contains(&(a, t)) {
            continue;
        }
        let attacker = after.role_at(a);
        let target = after.role_at(t);
        if !counts(after, attacker, a, target, t, us) {
            continue;
        }
        chased |= t;
    }
    chased
}

/// Whether an attack by `attacker` (on `a`, of side `us`) on `target` (on `t`) counts as a
/// chase in `after`, where the target's side is to move.
fn counts(
    after: &XiangqiPosition,
    attacker: XiangqiRole,
    a: u128,
    target: XiangqiRole,
    t: u128,
    us: Color,
) -> bool {
    use XiangqiRole::{Advisor, Cannon, Chariot, Elephant, General, Horse, Soldier};
    let them = !us;
    match target {
        General => return false,
        // A soldier still on its own half is never chased.
        Soldier if HALF[them.index()] & t != 0 => return false,
        _ => {}
    }
    match (attacker, target) {
        (Horse | Cannon, Chariot) | (Elephant | Advisor, Chariot | Horse | Cannon) => true,
        _ if attacker == target => !can_capture(after, t, a),
        _ => {
            // Defended: after the capture, the target's side can legally take back.
            let mut taken = *after;
            taken.turn = us;
            let capture = XiangqiMove::new(attacker, square(a), square(t));
            taken.play_unchecked(capture);
            !taken.legal_moves().iter().any(|m| m.to().bit() == t)
        }
    }
}

fn square(bit: u128) -> super::square::XiangqiSquare {
    super::square::XiangqiSquare::at(bit.trailing_zeros())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `moves` from `fen` and gives the history's verdict after each, the last first.
    fn verdict(fen: &str, moves: &str) -> Option<Outcome> {
        let mut pos = XiangqiPosition::from_fen(fen).unwrap();
        let mut positions = vec![pos];
        let mut played = Vec::new();
        let mut last = None;
        for text in moves.split_whitespace() {
            let m = pos
                .play(text)
                .unwrap_or_else(|e| panic!("{text}: {e} in {pos}"));
            positions.push(pos);
            played.push(m);
            last = history_outcome(&positions, &played);
            if last.is_some() {
                break;
            }
        }
        last
    }

    fn times(cycle: &str, n: usize) -> String {
        vec![cycle; n].join(" ")
    }

    /// Both sides shuffle: the third occurrence is a plain draw.
    #[test]
    fn plain_repetition_draws() {
        let fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
        let cycle = "a1a2 d10d9 a2a1 d9d10";
        assert_eq!(verdict(fen, &times(cycle, 1)), None);
        assert_eq!(
            verdict(fen, &times(cycle, 2)),
            Some(Outcome::draw(Termination::Repetition))
        );
    }

    /// Red checks with every move, Black escapes without checking: Red loses.
    #[test]
    fn perpetual_check_loses() {
        let fen = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1";
        let cycle = "a9a10 e10e9 a10a9 e9e10";
        assert_eq!(
            verdict(fen, &times(cycle, 2)),
            Some(Outcome::win(Color::Black, Termination::PerpetualCheck))
        );
    }

    /// Red's chariot attacks Black's unprotected horse with every move; the horse runs back and
    /// forth: Red loses by chasing.
    #[test]
    fn perpetual_chase_loses() {
        let fen = "3k5/9/9/1n7/9/7R1/9/9/9/4K4 w - - 0 1";
        let cycle = "h5h7 b7c5 h7h5 c5b7";
        assert_eq!(
            verdict(fen, &times(cycle, 2)),
            Some(Outcome::win(Color::Black, Termination::PerpetualChase))
        );
    }

    /// The same shuffle against a defended horse is no chase: a draw.
    #[test]
    fn attacking_a_defended_piece_is_no_chase() {
        // A horse on a9 guards b7, a chariot on c9 guards c5.
        let fen = "3k5/n1r6/9/1n7/9/7R1/9/9/9/4K4 w - - 0 1";
        let cycle = "h5h7 b7c5 h7h5 c5b7";
        assert_eq!(
            verdict(fen, &times(cycle, 2)),
            Some(Outcome::draw(Termination::Repetition))
        );
    }

    /// 100 plies without a capture draw; each check beyond ten by one side takes two plies
    /// off the count.
    #[test]
    fn no_capture_rule() {
        let fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 98 60";
        assert_eq!(verdict(fen, "a1a2"), None);
        assert_eq!(
            verdict(fen, "a1a2 d10d9"),
            Some(Outcome::draw(Termination::FiftyMoveRule))
        );
    }
}
