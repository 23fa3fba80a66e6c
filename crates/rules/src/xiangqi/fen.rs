//! Xiangqi FEN both ways, exactly as Fairy-Stockfish writes it
//! (`rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`: rank 10 first,
//! Red upper case and `w`, castling and en passant always `-`, the clock counting plies since
//! the last capture), and the checks that refuse a position that cannot occur.

use core::fmt;
use core::str::FromStr;

use super::attacks::{HALF, PALACE};
use super::position::XiangqiPosition;
use super::role::{ROLES, XiangqiPiece, XiangqiRole};
use super::square::{FILES, RANKS, XiangqiSquare};
use crate::Color;

/// Why a FEN was refused: its text, or a position that cannot arise in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XiangqiFenError {
    /// Fewer than four fields or more than six.
    Fields,
    /// The board field: not ten ranks of nine points, or a letter that is no piece.
    Board(String),
    /// The side to move is not `w` or `b`.
    Turn,
    /// Castling and en passant must be `-`.
    NoCastlingOrEnPassant,
    /// A clock is not a whole number (or the move number is 0).
    Clock,
    /// A side has no general, or more than one.
    Generals(Color),
    /// More pieces of a kind than a side starts with (none is ever added).
    TooMany(XiangqiPiece),
    /// A general or advisor outside its palace, an elephant off its seven points, a soldier
    /// behind its start rank or beside its start file on its own side.
    Misplaced(XiangqiPiece, XiangqiSquare),
    /// The generals face each other on an open file.
    FacingGenerals,
    /// The side that just moved is in check.
    OppositeCheck,
}

impl fmt::Display for XiangqiFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            XiangqiFenError::Fields => f.write_str("a FEN has four to six fields"),
            XiangqiFenError::Board(why) => write!(f, "board field: {why}"),
            XiangqiFenError::Turn => f.write_str("the side to move must be w or b"),
            XiangqiFenError::NoCastlingOrEnPassant => {
                f.write_str("xiangqi has no castling or en passant: those fields must be -")
            }
            XiangqiFenError::Clock => f.write_str("the clocks must be whole numbers"),
            XiangqiFenError::Generals(c) => write!(f, "{} needs exactly one general", side(*c)),
            XiangqiFenError::TooMany(p) => {
                write!(
                    f,
                    "{} has more {:?}s than it starts with",
                    side(p.color),
                    p.role
                )
            }
            XiangqiFenError::Misplaced(p, sq) => {
                write!(f, "{} {:?} cannot stand on {sq}", side(p.color), p.role)
            }
            XiangqiFenError::FacingGenerals => {
                f.write_str("the generals face each other on an open file")
            }
            XiangqiFenError::OppositeCheck => f.write_str("the side not to move is in check"),
        }
    }
}

impl std::error::Error for XiangqiFenError {}

fn side(c: Color) -> &'static str {
    if c.is_white() { "red" } else { "black" }
}

/// Where each role of Red may stand (Black's mirror the ranks): a general or advisor in the
/// palace (an advisor on its five diagonal points), an elephant on its seven points, a soldier
/// on rank 4 or 5 of an odd file, or anywhere across the river.
fn allowed(role: XiangqiRole, color: Color) -> u128 {
    let mut red = 0u128;
    let bit = |f: u8, r: u8| XiangqiSquare::new(f, r).map_or(0, XiangqiSquare::bit);
    match role {
        XiangqiRole::General => return PALACE[color.index()],
        XiangqiRole::Advisor => {
            for (f, r) in [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)] {
                red |= bit(f, r);
            }
        }
        XiangqiRole::Elephant => {
            for (f, r) in [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)] {
                red |= bit(f, r);
            }
        }
        XiangqiRole::Soldier => {
            for f in (0..FILES).step_by(2) {
                red |= bit(f, 3) | bit(f, 4);
            }
            red |= HALF[1];
        }
        _ => return super::square::BOARD,
    }
    if color.is_white() {
        red
    } else {
        let mut black = 0;
        for i in 0..super::square::SQUARES as u8 {
            if red & (1 << i) != 0 {
                black |= bit(i % FILES, RANKS - 1 - i / FILES);
            }
        }
        black
    }
}

impl XiangqiPosition {
    /// Reads a FEN (four to six fields: the clocks default to `0 1`) and checks the position.
    pub fn from_fen(fen: &str) -> Result<XiangqiPosition, XiangqiFenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(XiangqiFenError::Fields);
        }
        let mut roles = [0u128; ROLES];
        let mut colors = [0u128; 2];
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != RANKS as usize {
            return Err(XiangqiFenError::Board(format!(
                "{} ranks, not 10",
                ranks.len()
            )));
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = RANKS - 1 - i as u8;
            let mut file: u32 = 0;
            let mut digits: u32 = 0;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    digits = digits * 10 + d;
                    if digits > u32::from(FILES) {
                        return Err(XiangqiFenError::Board(format!(
                            "rank {}: too many points",
                            rank + 1
                        )));
                    }
                    continue;
                }
                file += core::mem::take(&mut digits);
                let piece = XiangqiPiece::from_char(c).ok_or_else(|| {
                    XiangqiFenError::Board(format!("{c:?} is not a xiangqi piece"))
                })?;
                let sq = u8::try_from(file)
                    .ok()
                    .and_then(|f| XiangqiSquare::new(f, rank))
                    .ok_or_else(|| {
                        XiangqiFenError::Board(format!("rank {}: too many points", rank + 1))
                    })?;
                roles[piece.role.index()] |= sq.bit();
                colors[piece.color.index()] |= sq.bit();
                file += 1;
            }
            file += digits;
            if file != u32::from(FILES) {
                return Err(XiangqiFenError::Board(format!(
                    "rank {} has {file} points, not 9",
                    rank + 1
                )));
            }
        }
        let turn = match fields[1] {
            "w" | "r" => Color::White,
            "b" => Color::Black,
            _ => return Err(XiangqiFenError::Turn),
        };
        if fields[2] != "-" || fields[3] != "-" {
            return Err(XiangqiFenError::NoCastlingOrEnPassant);
        }
        let clock = |i: usize, default: u32| match fields.get(i) {
            Some(t) => t.parse::<u32>().map_err(|_| XiangqiFenError::Clock),
            None => Ok(default),
        };
        let halfmoves = clock(4, 0)?;
        let fullmoves = clock(5, 1)?;
        if fullmoves == 0 {
            return Err(XiangqiFenError::Clock);
        }
        let mut generals = [0u8; 2];
        for color in Color::ALL {
            for role in XiangqiRole::ALL {
                let bb = roles[role.index()] & colors[color.index()];
                let piece = XiangqiPiece { color, role };
                if role == XiangqiRole::General && bb.count_ones() != 1 {
                    return Err(XiangqiFenError::Generals(color));
                }
                if bb.count_ones() > role.start_count() {
                    return Err(XiangqiFenError::TooMany(piece));
                }
                let wrong = bb & !allowed(role, color);
                if wrong != 0 {
                    let sq = XiangqiSquare::at(wrong.trailing_zeros());
                    return Err(XiangqiFenError::Misplaced(piece, sq));
                }
            }
            generals[color.index()] = (roles[XiangqiRole::General.index()] & colors[color.index()])
                .trailing_zeros() as u8;
        }
        let pos = XiangqiPosition {
            roles,
            colors,
            generals,
            turn,
            halfmoves,
            fullmoves,
        };
        let (red, black) = (pos.general(Color::White), pos.general(Color::Black));
        if red.file() == black.file()
            && super::attacks::first(0, red.index(), pos.occupied()) == Some(black.index())
        {
            return Err(XiangqiFenError::FacingGenerals);
        }
        if pos.color_in_check(!turn) {
            return Err(XiangqiFenError::OppositeCheck);
        }
        Ok(pos)
    }

    /// The FEN, as Fairy-Stockfish writes it.
    #[must_use]
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(80);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                let piece = XiangqiSquare::new(file, rank).and_then(|sq| self.piece_at(sq));
                match piece {
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let turn = if self.turn.is_white() { 'w' } else { 'b' };
        s.push_str(&format!(
            " {turn} - - {} {}",
            self.halfmoves, self.fullmoves
        ));
        s
    }
}

impl FromStr for XiangqiPosition {
    type Err = XiangqiFenError;

    fn from_str(s: &str) -> Result<XiangqiPosition, XiangqiFenError> {
        XiangqiPosition::from_fen(s)
    }
}

impl fmt::Display for XiangqiPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::START_FEN;

    fn err(fen: &str) -> XiangqiFenError {
        XiangqiPosition::from_fen(fen).unwrap_err()
    }

    #[test]
    fn start_round_trips() {
        let pos = XiangqiPosition::from_fen(START_FEN).unwrap();
        assert_eq!(pos.fen(), START_FEN);
        let short = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - -";
        assert_eq!(XiangqiPosition::from_fen(short), Ok(pos));
    }

    /// Text that is not a xiangqi FEN gets a typed error.
    #[test]
    fn bad_text() {
        assert_eq!(err(""), XiangqiFenError::Fields);
        assert!(matches!(
            err("rnbakabnr/9 w - - 0 1"),
            XiangqiFenError::Board(_)
        ));
        assert!(matches!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR1 w - - 0 1"),
            XiangqiFenError::Board(_)
        ));
        assert!(matches!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKQBNR w - - 0 1"),
            XiangqiFenError::Board(_)
        ));
        assert!(matches!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 9"),
            XiangqiFenError::Fields
        ));
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1"),
            XiangqiFenError::Turn
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQ - 0 1"),
            XiangqiFenError::NoCastlingOrEnPassant
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1"),
            XiangqiFenError::Clock
        );
        assert!(matches!(
            err("99999999999/9/9/9/9/9/9/9/9/9 w - -"),
            XiangqiFenError::Board(_)
        ));
    }

    /// Positions no game reaches are refused, naming the reason.
    #[test]
    fn impossible_positions() {
        let red = Color::White;
        let piece = |role| XiangqiPiece { color: red, role };
        let sq = |s: &str| s.parse::<XiangqiSquare>().unwrap();
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/9 w - - 0 1"),
            XiangqiFenError::Generals(red)
        );
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/3K4K w - - 0 1"),
            XiangqiFenError::Generals(red)
        );
        // A general outside its palace; an advisor and an elephant off their points.
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/K8 w - - 0 1"),
            XiangqiFenError::Misplaced(piece(XiangqiRole::General), sq("a1"))
        );
        assert_eq!(
            err("3k5/9/9/9/9/9/9/9/4K4/4A4 w - - 0 1"),
            XiangqiFenError::Misplaced(piece(XiangqiRole::Advisor), sq("e1"))
        );
        assert_eq!(
            err("3k5/9/9/9/9/4B4/9/9/9/4K4 w - - 0 1"),
            XiangqiFenError::Misplaced(piece(XiangqiRole::Elephant), sq("e5"))
        );
        // An elephant never crosses the river.
        assert_eq!(
            err("3k5/9/9/2B6/9/9/9/9/9/4K4 w - - 0 1"),
            XiangqiFenError::Misplaced(piece(XiangqiRole::Elephant), sq("c7"))
        );
        // A soldier behind its start rank, or beside its start file before the river.
        assert_eq!(
            err("3k5/9/9/9/9/9/9/4P4/9/4K4 w - - 0 1"),
            XiangqiFenError::Misplaced(piece(XiangqiRole::Soldier), sq("e3"))
        );
        assert_eq!(
            err("3k5/9/9/9/9/1P7/9/9/9/4K4 w - - 0 1"),
            XiangqiFenError::Misplaced(piece(XiangqiRole::Soldier), sq("b5"))
        );
        assert!(XiangqiPosition::from_fen("3k5/9/9/9/1P7/9/9/9/9/4K4 w - - 0 1").is_ok());
        assert_eq!(
            err("3k5/9/9/9/9/9/9/9/9/RRR1K4 w - - 0 1"),
            XiangqiFenError::TooMany(piece(XiangqiRole::Chariot))
        );
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
            XiangqiFenError::FacingGenerals
        );
        assert_eq!(
            err("3k5/9/9/9/9/9/9/9/9/3RK4 w - - 0 1"),
            XiangqiFenError::OppositeCheck
        );
    }
}
