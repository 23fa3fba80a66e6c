//! Position text both ways: Fairy-Stockfish's FEN (`...LNSGKGSNL[] w - - 0 1`, also its
//! shorter `[-] w 0 1` form) and USI's SFEN (`...LNSGKGSNL b - 1`, with or without a leading
//! `sfen `). Both write the board alike, gote's back rank first, file `a` (USI's 9) first,
//! promoted pieces with a `+`; they differ in the hand (bracketed letters after the board, or
//! its own field with counts) and in the side's letter (FSF's `w` is sente, SFEN's `b` is).
//! Text with a `[` in its first field is FEN, any other SFEN.
//!
//! A position is refused unless each side has exactly one king, no unpromoted piece stands
//! where it could never move (a pawn or lance on its last rank, a knight on its last two),
//! no side holds more of a kind than the set has, and the side not to move is not in check.

use core::fmt;

use super::position::ShogiPosition;
use super::role::{HAND_ROLES, ROLES, ShogiPiece, ShogiRole};
use super::variant::ShogiVariant;
use crate::Color;

/// Why position text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShogiFenError {
    /// A field is missing or there are too many.
    Fields,
    /// The board field: a bad letter, a row of the wrong length or the wrong number of rows.
    Board,
    /// The hand: a bad letter or count, or more of a kind than the set has.
    Hand,
    /// The side to move is neither `w` nor `b`.
    Turn,
    /// A clock or move number that is not a number.
    Clock,
    /// Not exactly one king a side.
    Kings,
    /// A pawn, lance or knight where it could never move.
    StuckPiece,
    /// The side not to move is in check.
    OppositeCheck,
}

impl fmt::Display for ShogiFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ShogiFenError::Fields => "expected FEN (board[hand] side - - halfmoves moves) or SFEN (board side hand moves)",
            ShogiFenError::Board => "bad board field: rows of pieces (PLNSGBRK, + for promoted) and digits, gote's back rank first",
            ShogiFenError::Hand => "bad hand: piece letters PLNSGBR (with counts in SFEN), no more of a kind than the set has",
            ShogiFenError::Turn => "the side to move must be w or b",
            ShogiFenError::Clock => "bad move counter",
            ShogiFenError::Kings => "each side needs exactly one king",
            ShogiFenError::StuckPiece => "a pawn, lance or knight stands where it could never move",
            ShogiFenError::OppositeCheck => "the side not to move is in check",
        })
    }
}

impl std::error::Error for ShogiFenError {}

fn parse_board(variant: ShogiVariant, text: &str) -> Result<ShogiPosition, ShogiFenError> {
    let size = variant.size() as usize;
    let mut pos = ShogiPosition::empty(variant);
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != size {
        return Err(ShogiFenError::Board);
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = size - 1 - i;
        let mut file = 0;
        let mut promoted = false;
        let mut digits = 0usize;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                if promoted {
                    return Err(ShogiFenError::Board);
                }
                // A multi-digit count is one number ("10" never fits, but "1" "0" is no row).
                digits = digits * 10 + d as usize;
                if digits == 0 || digits > size {
                    return Err(ShogiFenError::Board);
                }
                continue;
            }
            file += digits;
            digits = 0;
            if c == '+' {
                if promoted {
                    return Err(ShogiFenError::Board);
                }
                promoted = true;
                continue;
            }
            let role = ShogiRole::from_letter(c).ok_or(ShogiFenError::Board)?;
            let role = if promoted {
                role.promoted().ok_or(ShogiFenError::Board)?
            } else {
                role
            };
            promoted = false;
            if file >= size || !variant.has_hand_role(role.unpromoted().index().min(6)) {
                return Err(ShogiFenError::Board);
            }
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            pos.put(rank * 9 + file, ShogiPiece { color, role });
            file += 1;
        }
        file += digits;
        if file != size || promoted {
            return Err(ShogiFenError::Board);
        }
    }
    Ok(pos)
}

/// Adds `n` of the piece `c` names to its side's hand.
fn add_to_hand(pos: &mut ShogiPosition, c: char, n: u32) -> Result<(), ShogiFenError> {
    let role = ShogiRole::from_letter(c).ok_or(ShogiFenError::Hand)?;
    let i = role.index();
    if i >= HAND_ROLES || !pos.variant.has_hand_role(i) {
        return Err(ShogiFenError::Hand);
    }
    let color = if c.is_ascii_uppercase() { 0 } else { 1 };
    let total = u32::from(pos.hands[color][i]) + n;
    if total > u32::from(pos.variant.set_count(i)) {
        return Err(ShogiFenError::Hand);
    }
    pos.hands[color][i] = total as u8;
    Ok(())
}

/// FSF's bracketed hand: letters, each one piece (a count before a letter is read too).
fn parse_fsf_hand(pos: &mut ShogiPosition, text: &str) -> Result<(), ShogiFenError> {
    if text == "-" {
        return Ok(());
    }
    parse_counted_hand(pos, text)
}

/// SFEN's hand (`-`, or `2P` style counts before letters).
fn parse_counted_hand(pos: &mut ShogiPosition, text: &str) -> Result<(), ShogiFenError> {
    let mut count: Option<u32> = None;
    for c in text.chars() {
        if let Some(d) = c.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + d;
            if n > 99 {
                return Err(ShogiFenError::Hand);
            }
            count = Some(n);
            continue;
        }
        let n = count.take().unwrap_or(1);
        if n == 0 {
            return Err(ShogiFenError::Hand);
        }
        add_to_hand(pos, c, n)?;
    }
    if count.is_some() {
        return Err(ShogiFenError::Hand);
    }
    Ok(())
}

fn number(text: &str) -> Result<u32, ShogiFenError> {
    text.parse::<u32>().map_err(|_| ShogiFenError::Clock)
}

/// Each square code's FEN text (`ShogiPiece::code`: 0 empty, then sente's kinds in
/// `ShogiRole::ALL`'s order, then gote's), so the board is written without decoding pieces.
const CODE_TEXT: [&str; 1 + 2 * ROLES] = [
    "", "P", "L", "N", "S", "G", "B", "R", "K", "+P", "+L", "+N", "+S", "+B", "+R", "p", "l", "n",
    "s", "g", "b", "r", "k", "+p", "+l", "+n", "+s", "+b", "+r",
];

impl ShogiPosition {
    /// Reads FSF's FEN or USI's SFEN (see the module doc).
    pub fn from_fen(variant: ShogiVariant, text: &str) -> Result<ShogiPosition, ShogiFenError> {
        let text = text.trim();
        let text = text.strip_prefix("sfen ").unwrap_or(text);
        let fields: Vec<&str> = text.split_ascii_whitespace().collect();
        let first = fields.first().ok_or(ShogiFenError::Fields)?;
        let mut pos = if let Some((board, rest)) = first.split_once('[') {
            let hand = rest.strip_suffix(']').ok_or(ShogiFenError::Hand)?;
            let mut pos = parse_board(variant, board)?;
            parse_fsf_hand(&mut pos, hand)?;
            pos.turn = match fields.get(1).copied() {
                None | Some("w") => Color::White,
                Some("b") => Color::Black,
                Some(_) => return Err(ShogiFenError::Turn),
            };
            // `[-] w 0 1` (FSF's own shogi form) or `[] w - - 0 1`.
            let clocks: &[&str] = match fields.len() {
                0..=2 => &[],
                4 => &fields[2..4],
                6 if fields[2] == "-" && fields[3] == "-" => &fields[4..6],
                _ => return Err(ShogiFenError::Fields),
            };
            if let [half, full] = clocks {
                pos.halfmoves = number(half)?;
                pos.fullmoves = number(full)?.max(1);
            }
            pos
        } else {
            if !(2..=4).contains(&fields.len()) {
                return Err(ShogiFenError::Fields);
            }
            let mut pos = parse_board(variant, first)?;
            pos.turn = match fields[1] {
                "b" => Color::White,
                "w" => Color::Black,
                _ => return Err(ShogiFenError::Turn),
            };
            if let Some(hand) = fields.get(2).filter(|&&h| h != "-") {
                parse_counted_hand(&mut pos, hand)?;
            }
            if let Some(n) = fields.get(3) {
                // USI's move number counts plies from 1.
                let ply = number(n)?.max(1);
                pos.fullmoves = ply.div_ceil(2);
            }
            pos
        };
        pos.validate()?;
        pos.fullmoves = pos.fullmoves.max(1);
        Ok(pos)
    }

    fn validate(&self) -> Result<(), ShogiFenError> {
        for color in [Color::White, Color::Black] {
            if self.pieces(color, ShogiRole::King).count_ones() != 1 {
                return Err(ShogiFenError::Kings);
            }
            let last = self.variant.far_ranks(color, 1);
            let last2 = self.variant.far_ranks(color, 2);
            if (self.pieces(color, ShogiRole::Pawn) | self.pieces(color, ShogiRole::Lance)) & last
                != 0
                || self.pieces(color, ShogiRole::Knight) & last2 != 0
            {
                return Err(ShogiFenError::StuckPiece);
            }
        }
        let them = !self.turn;
        let occ = self.occupied() | self.variant.walls();
        if self.is_attacked(self.king_index(them), self.turn, occ) {
            return Err(ShogiFenError::OppositeCheck);
        }
        Ok(())
    }

    /// The board field, read from the square codes through [`CODE_TEXT`]: every move's answer
    /// and feed event writes it.
    fn board_text(&self) -> String {
        let size = self.variant.size() as usize;
        let mut out = String::with_capacity(96);
        for rank in (0..size).rev() {
            let mut empty = 0;
            for &code in &self.board[rank * 9..rank * 9 + size] {
                let text = CODE_TEXT[usize::from(code)];
                if text.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out.push(char::from(b'0' + empty));
                    empty = 0;
                }
                out.push_str(text);
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }

    /// FSF's FEN: `board[hand] side - - halfmoves moves`, the hand in FSF's own order
    /// (G N L P S R B, sente's first), so the text is exactly FSF's.
    #[must_use]
    pub fn fen(&self) -> String {
        let mut out = self.board_text();
        out.push('[');
        for color in [Color::White, Color::Black] {
            for role in [
                ShogiRole::Gold,
                ShogiRole::Knight,
                ShogiRole::Lance,
                ShogiRole::Pawn,
                ShogiRole::Silver,
                ShogiRole::Rook,
                ShogiRole::Bishop,
            ] {
                let c = role.letter();
                let c = if color.is_white() {
                    c
                } else {
                    c.to_ascii_lowercase()
                };
                for _ in 0..self.in_hand(color, role) {
                    out.push(c);
                }
            }
        }
        out.push_str(if self.turn.is_white() { "] w" } else { "] b" });
        out.push_str(&format!(" - - {} {}", self.halfmoves, self.fullmoves));
        out
    }

    /// USI's SFEN: `board side hand ply`, the hand in the usual R B G S N L P order with
    /// counts, sente's first.
    #[must_use]
    pub fn sfen(&self) -> String {
        let mut out = self.board_text();
        out.push_str(if self.turn.is_white() { " b " } else { " w " });
        let mut any = false;
        for color in [Color::White, Color::Black] {
            for role in [
                ShogiRole::Rook,
                ShogiRole::Bishop,
                ShogiRole::Gold,
                ShogiRole::Silver,
                ShogiRole::Knight,
                ShogiRole::Lance,
                ShogiRole::Pawn,
            ] {
                let n = self.in_hand(color, role);
                if n == 0 {
                    continue;
                }
                any = true;
                if n > 1 {
                    out.push_str(&n.to_string());
                }
                let c = role.letter();
                out.push(if color.is_white() {
                    c
                } else {
                    c.to_ascii_lowercase()
                });
            }
        }
        if !any {
            out.push('-');
        }
        let ply = 2 * self.fullmoves - 1 + u32::from(!self.turn.is_white());
        out.push_str(&format!(" {ply}"));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board's text table says what each piece's FEN is: `+` for a promoted piece, then
    /// its unpromoted letter in its side's case.
    #[test]
    fn code_text_is_each_piece_fen() {
        assert_eq!(CODE_TEXT[0], "");
        for color in [Color::White, Color::Black] {
            for role in ShogiRole::ALL {
                let piece = ShogiPiece { color, role };
                let plus = if role.is_promoted() { "+" } else { "" };
                let letter = match color {
                    Color::White => role.letter(),
                    Color::Black => role.letter().to_ascii_lowercase(),
                };
                let fen = format!("{plus}{letter}");
                assert_eq!(CODE_TEXT[usize::from(piece.code())], fen, "{piece:?}");
            }
        }
    }

    const START_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

    /// The start reads from FEN, FSF's short form and SFEN, and writes back to each.
    #[test]
    fn start_in_every_form() {
        let v = ShogiVariant::Shogi;
        let start = ShogiPosition::new(v);
        assert_eq!(start.fen(), v.start_fen());
        assert_eq!(start.sfen(), START_SFEN);
        for text in [
            START_SFEN,
            "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1",
        ] {
            assert_eq!(ShogiPosition::from_fen(v, text), Ok(start), "{text}");
        }
        let mini = ShogiPosition::new(ShogiVariant::Minishogi);
        assert_eq!(mini.fen(), "rbsgk/4p/5/P4/KGSBR[] w - - 0 1");
        assert_eq!(mini.sfen(), "rbsgk/4p/5/P4/KGSBR b - 1");
    }

    /// Hands, promoted pieces and gote to move survive both forms.
    #[test]
    fn hands_round_trip() {
        let v = ShogiVariant::Shogi;
        let sfen = "ln1g5/1r4k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b w BG2SLPnp 62";
        let pos = ShogiPosition::from_fen(v, sfen).unwrap();
        assert_eq!(pos.sfen(), sfen);
        assert_eq!(pos.in_hand(Color::White, ShogiRole::Silver), 2);
        assert_eq!(ShogiPosition::from_fen(v, &pos.fen()), Ok(pos));
        let fen = "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL[B] b - - 0 2";
        let pos = ShogiPosition::from_fen(v, fen).unwrap();
        assert_eq!(pos.fen(), fen);
        assert_eq!(ShogiPosition::from_fen(v, &pos.sfen()), Ok(pos));
    }

    /// Bad text is a typed error.
    #[test]
    fn refusals() {
        let v = ShogiVariant::Shogi;
        let e = |t: &str| ShogiPosition::from_fen(v, t).unwrap_err();
        assert_eq!(e(""), ShogiFenError::Fields);
        assert_eq!(e("9/9/9/9/9/9/9/9/9 b - 1"), ShogiFenError::Kings);
        assert_eq!(e("4k4/9/9/9/9/9/9/9/4K3 b - 1"), ShogiFenError::Board);
        assert_eq!(e("P3k4/9/9/9/9/9/9/9/4K4 b - 1"), ShogiFenError::StuckPiece);
        assert_eq!(e("4k4/9/9/9/9/9/9/9/4K4 b 19P 1"), ShogiFenError::Hand);
        assert_eq!(e("4k4/9/9/9/9/9/9/9/4K4 x - 1"), ShogiFenError::Turn);
        assert_eq!(
            e("4k4/4R4/9/9/9/9/9/9/4K4 b - 1"),
            ShogiFenError::OppositeCheck
        );
        assert_eq!(e("4k4/9/9/9/9/9/9/9/4K4[+] w - - 0 1"), ShogiFenError::Hand);
        assert_eq!(
            ShogiPosition::from_fen(ShogiVariant::Minishogi, "4k/5/5/5/N3K[] w - - 0 1"),
            Err(ShogiFenError::Board)
        );
    }
}
