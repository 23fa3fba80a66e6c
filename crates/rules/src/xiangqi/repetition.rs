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
//! Decisions where the text leaves room, each checked against FSF as a black box
//! (`tools/xiangqi_oracle.py chases`): "attacks" is a capture the attacker could legally make;
//! "newly" is read over the whole cycle: a side chases a piece when after every one of its
//! moves the moved piece attacks it (or a piece the move uncovers attacks it anew), and at
//! least one of those moves attacked it anew (so a horse that runs along the chariot's line
//! is still being chased, but a piece attacked before each move, whether standing or running
//! within the attacker's reach, is not, nor is one attacked only by a piece the move neither
//! moved nor uncovered); "hit back" is a legal capture of the attacker by the target;
//! "defends" is a legal recapture on the target's point after the attacker took it (so a
//! pinned defender, or a general that would step into check, does not defend), and FSF also
//! counts as pinned the one piece of a side standing between the two generals on their file,
//! however many enemy pieces stand there with it. A chased piece is followed as it moves. The
//! ends are
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
    // The enemy pieces each side has attacked after every one of its moves so far, and those
    // of them some move attacked anew, followed point by point as they move.
    let mut chased: [Option<u128>; 2] = [None, None];
    let mut fresh = [0u128; 2];
    for (i, &m) in moves.iter().enumerate() {
        let side = mover(i).index();
        let (kept, new) = chases(&positions[i], m, &positions[i + 1]);
        let all = chased[side].map_or(kept, |before| before & kept);
        chased[side] = Some(all);
        fresh[side] = (fresh[side] | new) & all;
        let other = 1 - side;
        let follow = |targets: u128| {
            if targets & m.from().bit() != 0 {
                (targets & !m.from().bit()) | m.to().bit()
            } else {
                targets
            }
        };
        chased[other] = chased[other].map(follow);
        fresh[other] = follow(fresh[other]);
    }
    let chasing = [0, 1].map(|s| chased[s].is_some_and(|t| t & fresh[s] != 0));
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
/// `after`, keeps under a counting attack (by the moved piece, or anew by any piece), and
/// those of them it attacks anew.
fn chases(before: &XiangqiPosition, m: XiangqiMove, after: &XiangqiPosition) -> (u128, u128) {
    let us = before.turn();
    // The mover's attacks, as if it were to move again, before and after its move.
    let mut again = *after;
    again.turn = us;
    // The moved piece's earlier attacks are filed under its new point, so that what it
    // attacked before its move is told apart from what it attacks anew.
    let old: Vec<(u128, u128)> = attacks(before)
        .into_iter()
        .map(|(a, t)| (if a == m.from().bit() { m.to().bit() } else { a }, t))
        .collect();
    let (mut kept, mut new) = (0u128, 0u128);
    for (a, t) in attacks(&again) {
        let anew = !old.contains(&(a, t));
        if !anew && a != m.to().bit() {
            continue;
        }
        let attacker = after.role_at(a);
        let target = after.role_at(t);
        if !counts(after, attacker, a, target, t, us) {
            continue;
        }
        kept |= t;
        if anew {
            new |= t;
        }
    }
    (kept, new)
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
            let tied = tied_by_generals(after, them);
            !taken
                .legal_moves()
                .iter()
                .any(|m| m.to().bit() == t && m.from().bit() & tied == 0)
        }
    }
}

/// The piece of `color` that stands alone among its side's pieces between the two generals
/// on a shared file, however many enemy pieces stand there too: it counts as pinned and
/// defends nothing.
fn tied_by_generals(pos: &XiangqiPosition, color: Color) -> u128 {
    let (ours, theirs) = (pos.general(color), pos.general(!color));
    if ours.file() != theirs.file() {
        return 0;
    }
    let (low, high) = (
        ours.index().min(theirs.index()),
        ours.index().max(theirs.index()),
    );
    let between: u128 = (low + 9..high).step_by(9).map(|i| 1u128 << i).sum();
    let mine = between & pos.side(color);
    if mine.count_ones() == 1 { mine } else { 0 }
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

    /// A horse that runs along the chariot's file is still chased: the chariot attacks it
    /// anew with one move and keeps attacking it with the other, though it already attacked
    /// the point the horse ran to.
    #[test]
    fn a_target_running_into_the_line_is_chased_anew() {
        let fen = "9/5k3/9/N8/9/9/1r7/3K5/9/9 b - - 0 1";
        let cycle = "b4b7 a7b9 b7b4 b9a7";
        assert_eq!(
            verdict(fen, &times(cycle, 2)),
            Some(Outcome::win(Color::White, Termination::PerpetualChase))
        );
    }

    /// A cannon that runs to and fro along the rank of Black's chariot is attacked before
    /// each of the chariot's moves and never anew: no chase. An advisor that stands still and
    /// attacks the point a cannon runs to does not chase either.
    #[test]
    fn a_piece_never_attacked_anew_is_not_chased() {
        let fen = "4k4/3C4r/9/9/9/9/9/9/5K3/9 w - - 9 16";
        let cycle = "d9c9 i9h9 c9d9 h9i9";
        assert_eq!(
            verdict(fen, &times(cycle, 2)),
            Some(Outcome::draw(Termination::Repetition))
        );
        let fen = "5a3/5k3/9/r8/9/4C4/9/9/4K4/9 b - - 3 38";
        let cycle = "a7a5 e5e9 a5a7 e9e5";
        assert_eq!(
            verdict(fen, &times(cycle, 2)),
            Some(Outcome::draw(Termination::Repetition))
        );
    }

    /// A chariot stepping to and fro on a file, attacking a horse that stands still from both
    /// points, attacks nothing anew: no chase.
    #[test]
    fn a_standing_attack_is_no_chase() {
        let fen = "n2k5/9/9/9/R8/9/9/9/9/4K4 w - - 0 1";
        let cycle = "a6a5 d10d9 a5a6 d9d10";
        assert_eq!(
            verdict(fen, &times(cycle, 2)),
            Some(Outcome::draw(Termination::Repetition))
        );
    }

    /// Red's advisor on e2 could take back on f3, but it is Red's only piece between the
    /// generals (Black's soldier on e7 does not count): it defends nothing, and Black's chariot
    /// chases the cannon. With a red soldier also between, or the generals on different files,
    /// the advisor defends.
    #[test]
    fn the_lone_piece_between_the_generals_defends_nothing() {
        let cycle = times("f9c9 c3f3 c9f9 f3c3", 2);
        let lone = "4k4/5r3/9/4p4/9/9/9/2C6/4A4/4K4 b - - 0 1";
        assert_eq!(
            verdict(lone, &cycle),
            Some(Outcome::win(Color::White, Termination::PerpetualChase))
        );
        let two = "4k4/5r3/9/9/4P4/9/9/2C6/4A4/4K4 b - - 0 1";
        let apart = "3k5/5r3/9/9/9/9/9/2C6/4A4/4K4 b - - 0 1";
        for fen in [two, apart] {
            assert_eq!(
                verdict(fen, &cycle),
                Some(Outcome::draw(Termination::Repetition)),
                "{fen}"
            );
        }
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
