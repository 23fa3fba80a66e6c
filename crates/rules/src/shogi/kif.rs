//! KIF export (Kakinoki's text format, the one Japanese shogi software reads): a header with
//! the handicap line (`手合割：平手`, minishogi's `5五将棋`) and the players, then one line a
//! move (`   1 ７六歩(77)`: destination as a full-width file and a kanji rank, the piece, `成`
//! or `不成` where promotion was chosen or declined, `打` for a drop, the origin in digits;
//! `同　` when the move lands where the last one did), then the end and `まで N手で...`.
//! Only games from the game's own start: a KIF of any other start needs a board diagram,
//! which this writer does not draw (it returns `None`).

use core::fmt::Write;

use super::mv::ShogiMove;
use super::position::ShogiPosition;
use super::role::ShogiRole;
use super::variant::ShogiVariant;
use crate::{Color, Outcome, Termination};

const FILES: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const RANKS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

const fn kanji(role: ShogiRole) -> &'static str {
    match role {
        ShogiRole::Pawn => "歩",
        ShogiRole::Lance => "香",
        ShogiRole::Knight => "桂",
        ShogiRole::Silver => "銀",
        ShogiRole::Gold => "金",
        ShogiRole::Bishop => "角",
        ShogiRole::Rook => "飛",
        ShogiRole::King => "玉",
        ShogiRole::ProPawn => "と",
        ShogiRole::ProLance => "成香",
        ShogiRole::ProKnight => "成桂",
        ShogiRole::ProSilver => "成銀",
        ShogiRole::Horse => "馬",
        ShogiRole::Dragon => "龍",
    }
}

/// The end's word on its own move line, as Kakinoki writes it: `to_move_won` says whether the
/// side the line belongs to (the one to move) won, which a foul's word names.
const fn end_word(termination: Termination, to_move_won: bool) -> &'static str {
    match termination {
        Termination::Checkmate | Termination::StalemateLoss => "詰み",
        Termination::Resignation => "投了",
        Termination::Repetition | Termination::RepetitionLoss => "千日手",
        Termination::TimeForfeit => "切れ負け",
        Termination::Impasse => "入玉勝ち",
        // Perpetual check is a foul: 反則勝ち when the side to move wins by the opponent's.
        Termination::PerpetualCheck if to_move_won => "反則勝ち",
        Termination::PerpetualCheck => "反則負け",
        _ => "中断",
    }
}

/// The game as KIF: `moves` played from `variant`'s start, and how it ended if it did. `None`
/// when a move is not legal where it is played.
#[must_use]
pub fn write_kif(
    variant: ShogiVariant,
    moves: &[ShogiMove],
    outcome: Option<Outcome>,
    players: [&str; 2],
) -> Option<String> {
    let size = variant.size();
    let mut out = String::new();
    let handicap = match variant {
        ShogiVariant::Shogi => "平手",
        ShogiVariant::Minishogi => "5五将棋",
    };
    // Writing to a String never fails.
    let _ = writeln!(out, "手合割：{handicap}");
    let _ = writeln!(out, "先手：{}", players[0]);
    let _ = writeln!(out, "後手：{}", players[1]);
    out.push_str("手数----指手---------消費時間--\n");
    let mut pos = ShogiPosition::new(variant);
    let mut last_to = None;
    for (i, &m) in moves.iter().enumerate() {
        let legal = pos.legal_moves();
        if !legal.contains(&m) {
            return None;
        }
        let to = m.to().usi(size)?;
        let mut line = format!("{:>4} ", i + 1);
        if last_to == Some(m.to()) {
            line.push_str("同　");
        } else {
            line.push(FILES[usize::from(to.file) - 1]);
            line.push(RANKS[usize::from(to.rank) - 1]);
        }
        match m.from() {
            None => {
                line.push_str(kanji(m.drop_role()?));
                line.push('打');
            }
            Some(from) => {
                line.push_str(kanji(pos.piece_at(from)?.role));
                let choice = legal.iter().any(|&o| {
                    o.from() == m.from() && o.to() == m.to() && o.is_promotion() != m.is_promotion()
                });
                if m.is_promotion() {
                    line.push('成');
                } else if choice {
                    line.push_str("不成");
                }
                let from = from.usi(size)?;
                let _ = write!(line, "({}{})", from.file, from.rank);
            }
        }
        out.push_str(&line);
        out.push('\n');
        last_to = Some(m.to());
        pos.play_unchecked(m);
    }
    if let Some(outcome) = outcome {
        let _ = writeln!(
            out,
            "{:>4} {}",
            moves.len() + 1,
            end_word(outcome.termination, outcome.winner == Some(pos.turn()))
        );
        let verdict = match outcome.winner {
            Some(Color::White) => "先手の勝ち",
            Some(Color::Black) => "後手の勝ち",
            None if outcome.termination == Termination::Repetition => "千日手",
            None => "引き分け",
        };
        let _ = writeln!(out, "まで{}手で{verdict}", moves.len());
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A short game: a promotion, a recapture on the same square (`同`), a drop, resignation.
    #[test]
    fn short_game() {
        let v = ShogiVariant::Shogi;
        let moves: Vec<ShogiMove> = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]
            .iter()
            .map(|m| ShogiMove::parse_any(m, v).unwrap())
            .collect();
        let kif = write_kif(
            v,
            &moves,
            Some(Outcome::win(Color::White, Termination::Resignation)),
            ["sente", "gote"],
        )
        .unwrap();
        let expected = "手合割：平手\n先手：sente\n後手：gote\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 ４五角打\n   6 投了\nまで5手で先手の勝ち\n";
        assert_eq!(kif, expected);
    }

    /// A move that is not legal gives no KIF.
    #[test]
    fn illegal_move() {
        let m = ShogiMove::parse_any("7g7e", ShogiVariant::Shogi).unwrap();
        assert_eq!(write_kif(ShogiVariant::Shogi, &[m], None, ["", ""]), None);
    }
}
