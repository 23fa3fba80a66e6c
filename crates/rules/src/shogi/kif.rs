//! KIF export (Kakinoki's text format, the one Japanese shogi software reads): a header with
//! the handicap line (`手合割：平手`, minishogi's `5五将棋`) and the players, then one line a
//! move (`   1 ７六歩(77)`: destination as a full-width file and a kanji rank, the piece, `成`
//! or `不成` where promotion was chosen or declined, `打` for a drop, the origin in digits;
//! `同　` when the move lands where the last one did), then the end and `まで N手で...`.
//! A game set up from another position opens with its board diagram (局面図: both hands, the
//! board with gote's pieces marked `v`, `後手番` when gote moves first) in place of shogi's
//! handicap line.

use core::fmt::Write;

use super::mv::ShogiMove;
use super::position::ShogiPosition;
use super::role::ShogiRole;
use super::square::{ShogiSquare, UsiSquare};
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

/// A piece's one character in a board diagram (a promoted lance, knight or silver has one of
/// its own there).
const fn diagram_kanji(role: ShogiRole) -> char {
    match role {
        ShogiRole::ProLance => '杏',
        ShogiRole::ProKnight => '圭',
        ShogiRole::ProSilver => '全',
        ShogiRole::Pawn => '歩',
        ShogiRole::Lance => '香',
        ShogiRole::Knight => '桂',
        ShogiRole::Silver => '銀',
        ShogiRole::Gold => '金',
        ShogiRole::Bishop => '角',
        ShogiRole::Rook => '飛',
        ShogiRole::King => '玉',
        ShogiRole::ProPawn => 'と',
        ShogiRole::Horse => '馬',
        ShogiRole::Dragon => '龍',
    }
}

/// A count in kanji numerals, as hands write them (2 to 18).
fn kanji_count(n: u8) -> String {
    const DIGITS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    match n {
        0..=9 => DIGITS[usize::from(n)].to_owned(),
        10 => "十".to_owned(),
        _ => format!("十{}", DIGITS[usize::from(n % 10)]),
    }
}

/// `color`'s hand as a diagram's line names it: `飛　金二　歩三`, strongest first, or `なし`.
fn hand_line(pos: &ShogiPosition, color: Color) -> String {
    let held: Vec<String> = ShogiRole::HAND
        .iter()
        .rev()
        .filter_map(|&role| match pos.in_hand(color, role) {
            0 => None,
            1 => Some(kanji(role).to_owned()),
            n => Some(format!("{}{}", kanji(role), kanji_count(n))),
        })
        .collect();
    if held.is_empty() {
        "なし".to_owned()
    } else {
        held.join("　")
    }
}

/// The board diagram of `pos`: gote's hand, the board from gote's side (files numbered from
/// sente's right, gote's pieces marked `v`), sente's hand, and `後手番` when gote is to move.
fn write_diagram(out: &mut String, pos: &ShogiPosition) {
    let size = pos.variant().size();
    let _ = writeln!(out, "後手の持駒：{}", hand_line(pos, Color::Black));
    out.push(' ');
    for file in (1..=size).rev() {
        out.push(' ');
        out.push(FILES[usize::from(file) - 1]);
    }
    out.push('\n');
    let border = format!("+{}+\n", "-".repeat(usize::from(size) * 3));
    out.push_str(&border);
    for rank in 1..=size {
        out.push('|');
        for file in (1..=size).rev() {
            let piece = ShogiSquare::from_usi(UsiSquare { file, rank }, size)
                .and_then(|sq| pos.piece_at(sq));
            match piece {
                None => out.push_str(" ・"),
                Some(p) => {
                    out.push(if p.color == Color::Black { 'v' } else { ' ' });
                    out.push(diagram_kanji(p.role));
                }
            }
        }
        out.push('|');
        out.push(RANKS[usize::from(rank) - 1]);
        out.push('\n');
    }
    out.push_str(&border);
    let _ = writeln!(out, "先手の持駒：{}", hand_line(pos, Color::White));
    if pos.turn() == Color::Black {
        out.push_str("後手番\n");
    }
}

/// The game as KIF: `moves` played from `start`, and how it ended if it did. `None` when a
/// move is not legal where it is played.
#[must_use]
pub fn write_kif(
    start: &ShogiPosition,
    moves: &[ShogiMove],
    outcome: Option<Outcome>,
    players: [&str; 2],
) -> Option<String> {
    let variant = start.variant();
    let size = variant.size();
    let mut out = String::new();
    let standard = *start == ShogiPosition::new(variant);
    // Writing to a String never fails.
    match variant {
        ShogiVariant::Shogi if standard => out.push_str("手合割：平手\n"),
        ShogiVariant::Shogi => {}
        // The line says which game it is, so minishogi writes it before a diagram too.
        ShogiVariant::Minishogi => out.push_str("手合割：5五将棋\n"),
    }
    let _ = writeln!(out, "先手：{}", players[0]);
    let _ = writeln!(out, "後手：{}", players[1]);
    if !standard {
        write_diagram(&mut out, start);
    }
    out.push_str("手数----指手---------消費時間--\n");
    let mut pos = *start;
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
            &ShogiPosition::new(v),
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
        let start = ShogiPosition::new(ShogiVariant::Shogi);
        assert_eq!(write_kif(&start, &[m], None, ["", ""]), None);
    }

    /// A set-up position opens with its diagram: hands strongest first with kanji counts,
    /// gote's pieces marked, promoted pieces by their one character, gote to move said.
    #[test]
    fn set_up_position_diagram() {
        let v = ShogiVariant::Shogi;
        let fen = "4k4/9/4G4/9/9/9/9/+S8/4K4[RGppp] b - - 0 1";
        let start = ShogiPosition::from_fen(v, fen).unwrap();
        let m = ShogiMove::parse_any("5a4a", v).unwrap();
        let kif = write_kif(&start, &[m], None, ["sente", "gote"]).unwrap();
        let expected = "先手：sente\n後手：gote\n後手の持駒：歩三\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n\
+---------------------------+\n\
| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n\
| ・ ・ ・ ・ 金 ・ ・ ・ ・|三\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n\
| 全 ・ ・ ・ ・ ・ ・ ・ ・|八\n\
| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n\
+---------------------------+\n\
先手の持駒：飛　金\n後手番\n手数----指手---------消費時間--\n   1 ４一玉(51)\n";
        assert_eq!(kif, expected);
        assert_eq!(kanji_count(12), "十二");
        assert_eq!(kanji_count(10), "十");
    }

    /// Minishogi names its game before the diagram, on a 5x5 board.
    #[test]
    fn minishogi_diagram() {
        let start =
            ShogiPosition::from_fen(ShogiVariant::Minishogi, "rbsgk/5/4p/P4/KGSBR[] w - - 0 1")
                .unwrap();
        let kif = write_kif(&start, &[], None, ["a", "b"]).unwrap();
        assert!(
            kif.starts_with("手合割：5五将棋\n先手：a\n後手：b\n後手の持駒：なし\n  ５ ４ ３ ２ １\n+---------------+\n|v飛v角v銀v金v玉|一\n"),
            "{kif}"
        );
        assert!(
            kif.contains("| ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・v歩|三\n| 歩 ・ ・ ・ ・|四\n"),
            "{kif}"
        );
    }
}
