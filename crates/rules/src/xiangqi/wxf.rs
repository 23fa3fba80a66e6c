//! WXF notation, the xiangqi family's SAN, both ways: writing a legal move (`C2.5`, `H8+7`,
//! `+R-1`, `17+1`) and reading such text back to the legal move it names.
//!
//! A move is four characters: who moves, the operator, then a number.
//! - Who: the piece's letter (`K A E H R C P`, as the WXF writes them; `B` and `N` are read
//!   too) and its file, numbered 1 to 9 from the mover's own right (Red's `i` is 1, Black's
//!   `a` is 1). With two of a kind on one file, `+` (front) or `-` (rear) before the letter
//!   replaces the file; advisors and elephants never need it, their operator tells them apart.
//!   With three or more soldiers on a file, or two files holding two or more, a soldier of such
//!   a file is its place counted from the front then its file, with no letter (`27.6`).
//! - The operator: `+` forward, `-` backward, `.` along the rank (`=` is read too).
//! - The number: the destination file for a move along the rank and for the diagonal movers
//!   (advisor, elephant, horse); the ranks travelled for a move along the file.
//!
//! No check mark is written, as Fairy-Stockfish writes WXF; a trailing `+` or `#` is read.

use super::mv::XiangqiMove;
use super::position::XiangqiPosition;
use super::role::XiangqiRole;
use super::square::{FILES, RANKS, XiangqiSquare};
use crate::{Color, PlayError, WideText};

/// Which way a move goes, from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Forward,
    Backward,
    Across,
}

impl Op {
    const fn char(self) -> char {
        match self {
            Op::Forward => '+',
            Op::Backward => '-',
            Op::Across => '.',
        }
    }

    const fn from_byte(b: u8) -> Option<Op> {
        Some(match b {
            b'+' => Op::Forward,
            b'-' => Op::Backward,
            b'.' | b'=' => Op::Across,
            _ => return None,
        })
    }
}

/// How the text names the moving piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Who {
    /// Its file, in the mover's numbering.
    File(u8),
    /// The front one of the two on its file.
    Front,
    /// The rear one of the two on its file.
    Rear,
    /// A soldier: its place from the front of its file (1 is the front), and the file.
    Nth(u8, u8),
}

/// Everything the notation can say about a legal move.
#[derive(Clone, Copy, Debug)]
struct Parts {
    role: XiangqiRole,
    /// The origin's file in the mover's numbering.
    file: u8,
    /// The piece's place among its kind on its file, 1 at the front.
    place: u8,
    /// How many of its kind stand on its file.
    on_file: u8,
    op: Op,
    number: u8,
}

/// A file's number from `color`'s right: Red reads the board from rank 1, Black from rank 10.
const fn own_file(color: Color, file: u8) -> u8 {
    if color.is_white() {
        FILES - file
    } else {
        file + 1
    }
}

/// The points of `bb` on `file`.
fn on_file(bb: u128, file: u8) -> impl Iterator<Item = XiangqiSquare> {
    (0..RANKS)
        .filter_map(move |rank| XiangqiSquare::new(file, rank))
        .filter(move |sq| bb & sq.bit() != 0)
}

/// Whether `a` stands in front of `b` from `color`'s side.
const fn ahead(color: Color, a: XiangqiSquare, b: XiangqiSquare) -> bool {
    if color.is_white() {
        a.rank() > b.rank()
    } else {
        a.rank() < b.rank()
    }
}

fn parts(pos: &XiangqiPosition, m: XiangqiMove) -> Parts {
    let color = pos.turn();
    let (from, to) = (m.from(), m.to());
    let kind = pos.pieces(color, m.role());
    let mut place = 1;
    let mut count = 0;
    for sq in on_file(kind, from.file()) {
        count += 1;
        if ahead(color, sq, from) {
            place += 1;
        }
    }
    let op = if from.rank() == to.rank() {
        Op::Across
    } else if ahead(color, to, from) {
        Op::Forward
    } else {
        Op::Backward
    };
    let diagonal = matches!(
        m.role(),
        XiangqiRole::Advisor | XiangqiRole::Elephant | XiangqiRole::Horse
    );
    let number = if op == Op::Across || diagonal {
        own_file(color, to.file())
    } else {
        from.rank().abs_diff(to.rank())
    };
    Parts {
        role: m.role(),
        file: own_file(color, from.file()),
        place,
        on_file: count,
        op,
        number,
    }
}

/// The WXF letter of a role.
const fn letter(role: XiangqiRole) -> char {
    match role {
        XiangqiRole::Elephant => 'E',
        XiangqiRole::Horse => 'H',
        _ => role.char(),
    }
}

/// Whether `color`'s soldiers stand so that those of a crowded file are numbered: three or
/// more on one file, or two or more on each of two files.
fn soldiers_numbered(pos: &XiangqiPosition, color: Color) -> bool {
    let soldiers = pos.pieces(color, XiangqiRole::Soldier);
    let mut files_with_two = 0;
    for file in 0..FILES {
        match on_file(soldiers, file).count() {
            0 | 1 => {}
            2 => files_with_two += 1,
            _ => return true,
        }
    }
    files_with_two >= 2
}

/// `m`'s WXF text in `pos` (`m` must be one of its legal moves).
#[must_use]
pub fn wxf(pos: &XiangqiPosition, m: XiangqiMove) -> WideText {
    let p = parts(pos, m);
    let who = match p.role {
        _ if p.on_file < 2 => Who::File(p.file),
        XiangqiRole::General | XiangqiRole::Advisor | XiangqiRole::Elephant => Who::File(p.file),
        XiangqiRole::Soldier if soldiers_numbered(pos, pos.turn()) => Who::Nth(p.place, p.file),
        _ if p.place == 1 => Who::Front,
        _ => Who::Rear,
    };
    let mut text = WideText::new();
    let digit = |n: u8| char::from(b'0' + n);
    match who {
        Who::File(file) => {
            text.push(letter(p.role));
            text.push(digit(file));
        }
        Who::Front | Who::Rear => {
            text.push(if who == Who::Front { '+' } else { '-' });
            text.push(letter(p.role));
        }
        Who::Nth(place, file) => {
            text.push(digit(place));
            text.push(digit(file));
        }
    }
    text.push(p.op.char());
    text.push(digit(p.number));
    text
}

/// WXF text as read: who, operator, number (a role is always known: a numbered piece is a
/// soldier).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Read {
    role: XiangqiRole,
    who: Who,
    op: Op,
    number: u8,
}

fn read_letter(b: u8) -> Option<XiangqiRole> {
    match b {
        b'E' => Some(XiangqiRole::Elephant),
        b'H' => Some(XiangqiRole::Horse),
        _ => XiangqiRole::from_char(char::from(b)),
    }
}

fn read_digit(b: u8) -> Option<u8> {
    b.checked_sub(b'0').filter(|d| (1..=9).contains(d))
}

/// Reads the three spellings of who moves: `R9`, `+R` (and Fairy-Stockfish's `R+`), `27`.
fn read(text: &str) -> Option<Read> {
    let mut bytes = text.as_bytes();
    if bytes.len() == 5 && matches!(bytes[4], b'+' | b'#') {
        bytes = &bytes[..4];
    }
    let &[a, b, op, number] = bytes else {
        return None;
    };
    let front_rear = |c: u8| match c {
        b'+' => Some(Who::Front),
        b'-' => Some(Who::Rear),
        _ => None,
    };
    let (role, who) = if let Some(role) = read_letter(a) {
        let who = read_digit(b).map(Who::File).or_else(|| front_rear(b))?;
        (role, who)
    } else if let Some(who) = front_rear(a) {
        (read_letter(b)?, who)
    } else {
        (
            XiangqiRole::Soldier,
            Who::Nth(read_digit(a)?, read_digit(b)?),
        )
    };
    Some(Read {
        role,
        who,
        op: Op::from_byte(op)?,
        number: read_digit(number)?,
    })
}

impl Read {
    fn names(self, p: &Parts) -> bool {
        let who = match self.who {
            Who::File(file) => p.file == file,
            Who::Front => p.on_file >= 2 && p.place == 1,
            Who::Rear => p.on_file >= 2 && p.place == p.on_file,
            Who::Nth(place, file) => p.on_file >= 2 && p.place == place && p.file == file,
        };
        who && self.role == p.role && self.op == p.op && self.number == p.number
    }
}

/// The legal move (of `legal`, `pos`'s legal moves) that WXF `text` names. `None` when `text`
/// is not WXF at all, so the caller can say what it expected.
pub fn parse_wxf(
    pos: &XiangqiPosition,
    text: &str,
    legal: &[XiangqiMove],
) -> Option<Result<XiangqiMove, PlayError>> {
    let read = read(text)?;
    let mut found = legal
        .iter()
        .copied()
        .filter(|&m| read.names(&parts(pos, m)));
    let Some(m) = found.next() else {
        return Some(Err(PlayError::Illegal(format!(
            "{text} names no legal xiangqi move here"
        ))));
    };
    let others = found.count();
    if others > 0 {
        return Some(Err(PlayError::Ambiguous(format!(
            "{text} fits {} legal moves: name the piece as front (+) or rear (-), or give its points",
            others + 1
        ))));
    }
    Some(Ok(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(fen: &str, m: &str) -> String {
        let pos = XiangqiPosition::from_fen(fen).unwrap();
        let m = m
            .parse::<super::super::XiangqiUci>()
            .unwrap()
            .to_move(&pos)
            .unwrap();
        let text = wxf(&pos, m).as_str().to_string();
        let back = parse_wxf(&pos, &text, &pos.legal_moves()).unwrap();
        assert_eq!(back, Ok(m), "{text} reads back");
        text
    }

    fn parse(fen: &str, text: &str) -> Result<String, PlayError> {
        let pos = XiangqiPosition::from_fen(fen).unwrap();
        parse_wxf(&pos, text, &pos.legal_moves())
            .expect("WXF-shaped")
            .map(|m| m.to_string())
    }

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    const BLACK: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";

    /// Red counts files from its right (`i` is 1, `a` 9); a move along the rank gives the
    /// destination file, along the file the ranks travelled.
    #[test]
    fn red_files_from_the_right() {
        assert_eq!(text(START, "h3e3"), "C2.5");
        assert_eq!(text(START, "b3b10"), "C8+7");
        assert_eq!(text(START, "h3h2"), "C2-1");
        assert_eq!(text(START, "i1i3"), "R1+2");
        assert_eq!(text(START, "a4a5"), "P9+1");
        assert_eq!(text(START, "e1e2"), "K5+1");
    }

    /// Black counts from its own right, which is `a`; its forward is toward rank 1.
    #[test]
    fn black_files_from_its_right() {
        assert_eq!(text(BLACK, "h8e8"), "C8.5");
        assert_eq!(text(BLACK, "b8b1"), "C2+7");
        assert_eq!(text(BLACK, "a10a8"), "R1+2");
        assert_eq!(text(BLACK, "h10g8"), "H8+7");
        assert_eq!(text(BLACK, "c7c6"), "P3+1");
    }

    /// Horses, advisors and elephants give the destination file, not a distance.
    #[test]
    fn diagonal_movers_name_the_file() {
        assert_eq!(text(START, "b1c3"), "H8+7");
        assert_eq!(text(START, "h1i3"), "H2+1");
        assert_eq!(text(START, "d1e2"), "A6+5");
        assert_eq!(text(START, "g1e3"), "E3+5");
        assert_eq!(text(BLACK, "c10e8"), "E3+5");
        assert_eq!(text(BLACK, "f10e9"), "A6+5");
    }

    /// Two advisors or elephants on one file keep the file: the operator tells them apart.
    #[test]
    fn advisors_and_elephants_never_front_or_rear() {
        let red = "3k5/9/9/9/9/2B6/9/3A5/9/2BAK4 w - - 0 1";
        assert_eq!(text(red, "c1e3"), "E7+5");
        assert_eq!(text(red, "c5e3"), "E7-5");
        assert_eq!(text(red, "d1e2"), "A6+5");
        assert_eq!(text(red, "d3e2"), "A6-5");
    }

    /// Two chariots (horses, cannons) on one file: `+` the front, `-` the rear, for Red
    /// toward rank 10 and for Black toward rank 1.
    #[test]
    fn tandem_pieces_front_and_rear() {
        let red = "3k5/9/9/9/9/R8/9/9/R8/4K4 w - - 0 1";
        assert_eq!(text(red, "a5a7"), "+R+2");
        assert_eq!(text(red, "a5a3"), "+R-2");
        assert_eq!(text(red, "a2e2"), "-R.5");
        let black = "3k5/r8/9/9/r8/9/9/9/9/4K4 b - - 0 1";
        assert_eq!(text(black, "a6a1"), "+R+5");
        assert_eq!(text(black, "a9a10"), "-R-1");
        let horses = "3k5/9/9/9/9/N8/9/9/N8/4K4 w - - 0 1";
        assert_eq!(text(horses, "a5c6"), "+H+7");
        assert_eq!(text(horses, "a2c1"), "-H-7");
    }

    /// Two soldiers on one file are front and rear; three on a file, or two on each of two
    /// files, are numbered from the front, followed by the file, with no letter.
    #[test]
    fn soldiers() {
        let two = "3k5/9/9/2P6/2P6/9/9/C8/C8/4K4 w - - 0 1";
        assert_eq!(text(two, "c7c8"), "+P+1");
        assert_eq!(text(two, "c6b6"), "-P.8");
        let three = "3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1";
        assert_eq!(text(three, "c8c9"), "17+1");
        assert_eq!(text(three, "c7d7"), "27.6");
        assert_eq!(text(three, "c6b6"), "37.8");
        let two_files = "3k5/9/9/9/9/2p3p2/2p3p2/9/9/4K4 b - - 0 1";
        assert_eq!(text(two_files, "c4c3"), "13+1");
        assert_eq!(text(two_files, "c5d5"), "23.4");
        assert_eq!(text(two_files, "g5h5"), "27.8");
        // A lone soldier beside a numbered file keeps its letter.
        let lone = "3k5/9/2P6/2P6/2P3P2/9/9/9/9/4K4 w - - 0 1";
        assert_eq!(text(lone, "g6g7"), "P3+1");
    }

    /// Other spellings are read: `B`, `N`, `=`, Fairy-Stockfish's `R+` for `+R`, a file for a
    /// tandem piece when only one move fits, a check mark.
    #[test]
    fn reads_other_spellings() {
        assert_eq!(parse(START, "C2=5"), Ok("h3e3".into()));
        assert_eq!(parse(START, "N8+7"), Ok("b1c3".into()));
        assert_eq!(parse(START, "B3+5"), Ok("g1e3".into()));
        assert_eq!(parse(START, "C2.5+"), Ok("h3e3".into()));
        let red = "3k5/9/9/9/9/R8/9/9/R8/4K4 w - - 0 1";
        assert_eq!(parse(red, "R++2"), Ok("a5a7".into()));
        assert_eq!(parse(red, "R9+4"), Ok("a5a9".into()));
    }

    /// Text naming no legal move, or two, is refused; text of another shape is not WXF.
    #[test]
    fn refuses_illegal_and_ambiguous() {
        assert!(matches!(parse(START, "C2.2"), Err(PlayError::Illegal(_))));
        assert!(matches!(parse(START, "E3+4"), Err(PlayError::Illegal(_))));
        let red = "3k5/9/9/9/9/R8/9/9/R8/4K4 w - - 0 1";
        assert!(matches!(parse(red, "R9+1"), Err(PlayError::Ambiguous(_))));
        let pos = XiangqiPosition::new();
        for bad in ["", "C2.", "C0.5", "X2.5", "C2*5", "C2.5++", "h3e3", "C2.55"] {
            assert!(parse_wxf(&pos, bad, &pos.legal_moves()).is_none(), "{bad}");
        }
    }

    /// Every legal move of the start has its own text, which reads back to it.
    #[test]
    fn start_moves_are_distinct() {
        let pos = XiangqiPosition::new();
        let legal = pos.legal_moves();
        let mut texts: Vec<String> = legal.iter().map(|&m| wxf(&pos, m).to_string()).collect();
        for (&m, t) in legal.iter().zip(&texts) {
            assert_eq!(parse_wxf(&pos, t, &legal), Some(Ok(m)));
        }
        texts.sort();
        texts.dedup();
        assert_eq!(texts.len(), legal.len());
    }
}
