//! Screen Chess (`screen`) and Crazy Screen Chess (`crazyscreen`): their secret setup (one
//! side's half checked, both halves joined into the start) and their play, as `GAMES.md`
//! gives them:
//!
//! > Each player, independently and without seeing the other's choice, places their own 16
//! > pieces on **their own half** (ranks 1-4 for White, 5-8 for Black), one piece per square,
//! > subject to: the eight pawns on **eight different files** and none on the player's first
//! > rank; the two bishops on squares of **opposite colour**; exactly one king, one queen, two
//! > rooks, two bishops, two knights, eight pawns.
//! > A seat submits its half as four FEN rows, top to bottom (White: ranks 4, 3, 2, 1; Black:
//! > ranks 8, 7, 6, 5). [...] the game starts from the combined FEN with White to move,
//! > castling `-` and en passant `-`.
//! > **Play** after the reveal is standard chess with these changes: **no castling**; a pawn
//! > double-steps only from its second rank, and en passant follows such steps as usual.
//! > **Illegal starts**: if at the reveal Black's king is attacked (White to move), White wins
//! > at once as if capturing it; White in check or mated at the start is played out normally.
//!
//! > **Crazy Screen** is Screen Chess with the placement restrictions lifted: pawns may share
//! > files and stand on the first rank, and the bishops may stand on squares of the same
//! > colour. A pawn on its first rank moves one square at a time; only pawns on the second
//! > rank double-step.
//!
//! The setup phase is the service's (who has submitted, the hashes, the clocks); this file
//! gives it the two rules it referees: [`screen_half`] and [`screen_start`].

use core::fmt;

use super::position::WidePosition;
use super::role::WideRole;
use super::variant::{CHESS_LETTERS, CHESS_PROMOTIONS, GameDef, WideVariant};
use crate::{Color, Outcome, Termination};

/// The rule's example start; the real one is the two players' halves joined.
const EXAMPLE: &str = "rn1qk1nr/1b1pp1b1/p1p2p1p/1p4p1/2P2P2/P2PP2P/1P4P1/RNBQKBNR w - - 0 1";

pub(crate) const DEF: GameDef = GameDef::standard(
    WideVariant::Screen,
    (8, 8),
    EXAMPLE,
    CHESS_LETTERS,
    &CHESS_PROMOTIONS,
    true,
    None,
);

pub(crate) const DEF_CRAZY: GameDef = GameDef {
    first_rank_pawns: [true; 2],
    ..GameDef::standard(
        WideVariant::CrazyScreen,
        (8, 8),
        EXAMPLE,
        CHESS_LETTERS,
        &CHESS_PROMOTIONS,
        true,
        None,
    )
};

/// The pieces of a half: role, FEN letter, how many.
const ARMY: [(WideRole, char, u8); 6] = [
    (WideRole::King, 'k', 1),
    (WideRole::Queen, 'q', 1),
    (WideRole::Rook, 'r', 2),
    (WideRole::Bishop, 'b', 2),
    (WideRole::Knight, 'n', 2),
    (WideRole::Pawn, 'p', 8),
];

/// Why a side's placement was refused; each names what is wrong for the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScreenSetupError {
    /// The game has no secret setup.
    NotScreen(WideVariant),
    /// Not four rows separated by `/` (`given` of them) in `color`'s placement.
    Rows { color: Color, given: usize },
    /// A row (1 = the top one given) does not cover exactly eight squares.
    RowWidth { row: usize, squares: usize },
    /// A character that is no chess piece letter or empty-square count.
    Letter(char),
    /// A piece of the other side (a letter in the other case).
    OtherSide(char),
    /// Not the standard number of pieces of one type.
    Count {
        role: WideRole,
        placed: u8,
        needed: u8,
    },
    /// Screen Chess: a pawn on the player's own first rank (the square is named).
    PawnOnFirstRank(String),
    /// Screen Chess: two pawns on one file (the file's letter).
    PawnsShareFile(char),
    /// Screen Chess: both bishops on squares of one colour.
    BishopsSameColour,
}

impl fmt::Display for ScreenSetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScreenSetupError::NotScreen(v) => write!(f, "{v} has no secret setup"),
            // The example is in the player's own letter case: a message about one side's
            // placement shows no pieces of the other's.
            ScreenSetupError::Rows { color, given } => write!(
                f,
                "a half is four rows separated by '/' (such as {}), not {given}",
                match color {
                    Color::White => "2P2P2/P2PP2P/1P4P1/RNBQKBNR",
                    Color::Black => "rnbqkbnr/1p4p1/p2pp2p/2p2p2",
                }
            ),
            ScreenSetupError::RowWidth { row, squares } => {
                write!(f, "row {row} of the half covers {squares} squares, not 8")
            }
            ScreenSetupError::Letter(c) => write!(f, "{c:?} is no chess piece (K Q R B N P)"),
            ScreenSetupError::OtherSide(c) => {
                write!(f, "{c:?} is a piece of the other side (wrong letter case)")
            }
            ScreenSetupError::Count {
                role,
                placed,
                needed,
            } => write!(
                f,
                "{placed} {}{} placed, the army has {needed}",
                role_name(*role),
                if *placed == 1 { "" } else { "s" }
            ),
            ScreenSetupError::PawnOnFirstRank(sq) => {
                write!(f, "the pawn on {sq} stands on your first rank")
            }
            ScreenSetupError::PawnsShareFile(file) => {
                write!(
                    f,
                    "two pawns share the {file}-file: each pawn needs its own file"
                )
            }
            ScreenSetupError::BishopsSameColour => {
                f.write_str("both bishops stand on squares of one colour")
            }
        }
    }
}

impl std::error::Error for ScreenSetupError {}

fn role_name(role: WideRole) -> &'static str {
    match role {
        WideRole::King => "king",
        WideRole::Queen => "queen",
        WideRole::Rook => "rook",
        WideRole::Bishop => "bishop",
        WideRole::Knight => "knight",
        _ => "pawn",
    }
}

/// A half as checked: its four rows, top to bottom, a letter or `None` per file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScreenHalf {
    color: Color,
    rows: [[Option<char>; 8]; 4],
}

impl ScreenHalf {
    /// Whose half it is.
    #[must_use]
    pub fn color(&self) -> Color {
        self.color
    }
}

impl fmt::Display for ScreenHalf {
    /// The four FEN rows, top to bottom, as a seat submits them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, row) in self.rows.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            f.write_str(&fen_row(row))?;
        }
        Ok(())
    }
}

fn fen_row(row: &[Option<char>; 8]) -> String {
    let mut out = String::new();
    let mut empty = 0;
    for cell in row {
        match cell {
            None => empty += 1,
            Some(c) => {
                if empty > 0 {
                    out.push(char::from(b'0' + empty));
                    empty = 0;
                }
                out.push(*c);
            }
        }
    }
    if empty > 0 {
        out.push(char::from(b'0' + empty));
    }
    out
}

/// Checks `color`'s placement in `variant` (Screen or Crazy Screen): four FEN rows of its own
/// half, top to bottom, in its own letter case.
pub fn screen_half(
    variant: WideVariant,
    color: Color,
    text: &str,
) -> Result<ScreenHalf, ScreenSetupError> {
    if !matches!(variant, WideVariant::Screen | WideVariant::CrazyScreen) {
        return Err(ScreenSetupError::NotScreen(variant));
    }
    let text = text.trim();
    let given: Vec<&str> = text.split('/').collect();
    if given.len() != 4 {
        return Err(ScreenSetupError::Rows {
            color,
            given: given.len(),
        });
    }
    let mut rows = [[None; 8]; 4];
    for (r, row) in given.iter().enumerate() {
        let mut file = 0usize;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as usize;
                continue;
            }
            if !"kqrbnp".contains(c.to_ascii_lowercase()) {
                return Err(ScreenSetupError::Letter(c));
            }
            if c.is_ascii_uppercase() != (color == Color::White) {
                return Err(ScreenSetupError::OtherSide(c));
            }
            if file < 8 {
                rows[r][file] = Some(c);
            }
            file += 1;
        }
        if file != 8 {
            return Err(ScreenSetupError::RowWidth {
                row: r + 1,
                squares: file,
            });
        }
    }
    for (role, letter, needed) in ARMY {
        let placed = rows
            .iter()
            .flatten()
            .filter(|c| c.is_some_and(|c| c.to_ascii_lowercase() == letter))
            .count() as u8;
        if placed != needed {
            return Err(ScreenSetupError::Count {
                role,
                placed,
                needed,
            });
        }
    }
    if variant == WideVariant::Screen {
        check_screen_limits(color, &rows)?;
    }
    Ok(ScreenHalf { color, rows })
}

/// The rank (from 0) of row `r` of `color`'s half, given top to bottom.
fn rank_of(color: Color, r: usize) -> u8 {
    match color {
        Color::White => 3 - r as u8,
        Color::Black => 7 - r as u8,
    }
}

/// Screen Chess's three placement limits, which Crazy Screen lifts.
fn check_screen_limits(
    color: Color,
    rows: &[[Option<char>; 8]; 4],
) -> Result<(), ScreenSetupError> {
    let first = match color {
        Color::White => 0,
        Color::Black => 7,
    };
    let mut pawn_files = [false; 8];
    let mut bishop_colours = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let rank = rank_of(color, r);
        for (file, cell) in row.iter().enumerate() {
            let Some(c) = cell else { continue };
            match c.to_ascii_lowercase() {
                'p' if rank == first => {
                    return Err(ScreenSetupError::PawnOnFirstRank(format!(
                        "{}{}",
                        char::from(b'a' + file as u8),
                        rank + 1
                    )));
                }
                'p' => {
                    if pawn_files[file] {
                        return Err(ScreenSetupError::PawnsShareFile(char::from(
                            b'a' + file as u8,
                        )));
                    }
                    pawn_files[file] = true;
                }
                'b' => bishop_colours.push((file as u8 + rank) % 2),
                _ => {}
            }
        }
    }
    if bishop_colours.first() == bishop_colours.last() {
        return Err(ScreenSetupError::BishopsSameColour);
    }
    Ok(())
}

/// The start both halves make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScreenStart {
    /// The game is played from this position, White to move.
    Play(Box<WidePosition>),
    /// Black's king is attacked with White to move: White wins at once, as if capturing it
    /// (`Termination::KingCaptured`). The combined FEN is kept for the record, and the board
    /// to show it on: no FEN reader accepts it (the side not to move is in check), and no
    /// move is played from it.
    Decided {
        fen: String,
        outcome: Outcome,
        board: Box<WidePosition>,
    },
}

/// Joins White's and Black's checked halves into `variant`'s start: White to move, castling
/// `-`, en passant `-`.
pub fn screen_start(
    variant: WideVariant,
    white: &ScreenHalf,
    black: &ScreenHalf,
) -> Result<ScreenStart, ScreenSetupError> {
    if !matches!(variant, WideVariant::Screen | WideVariant::CrazyScreen) {
        return Err(ScreenSetupError::NotScreen(variant));
    }
    let board = format!("{black}/{white}");
    let fen = format!("{board} w - - 0 1");
    let placed = WidePosition::board_only(variant, &board)
        .map_err(|_| ScreenSetupError::NotScreen(variant))?;
    if let Some(king) = placed.king_of(Color::Black)
        && placed.attackers_to(king, Color::White) != 0
    {
        return Ok(ScreenStart::Decided {
            fen,
            outcome: Outcome::win(Color::White, Termination::KingCaptured),
            board: Box::new(placed),
        });
    }
    // Two checked halves share no square and leave Black's king unattacked: a valid start.
    let pos =
        WidePosition::from_fen(variant, &fen).map_err(|_| ScreenSetupError::NotScreen(variant))?;
    Ok(ScreenStart::Play(Box::new(pos)))
}

/// Reads back the FEN of a start that decided its game at once ([`ScreenStart::Decided`]'s
/// `fen`), which [`WidePosition::from_fen`] refuses: `None` for any other text.
#[must_use]
pub fn screen_decided_start(variant: WideVariant, fen: &str) -> Option<WidePosition> {
    if !matches!(variant, WideVariant::Screen | WideVariant::CrazyScreen) {
        return None;
    }
    let board = fen.strip_suffix(" w - - 0 1")?;
    let placed = WidePosition::board_only(variant, board).ok()?;
    let king = placed.king_of(Color::Black)?;
    (placed.attackers_to(king, Color::White) != 0 && placed.king_of(Color::White).is_some())
        .then_some(placed)
}

#[cfg(test)]
mod tests {
    use super::super::testing::sorted_ucis;
    use super::*;

    const WHITE: &str = "2P2P2/P2PP2P/1P4P1/RNBQKBNR";
    const BLACK: &str = "rn1qk1nr/1b1pp1b1/p1p2p1p/1p4p1";

    fn half(v: WideVariant, c: Color, t: &str) -> Result<ScreenHalf, ScreenSetupError> {
        screen_half(v, c, t)
    }

    /// The rule's example halves join into the rule's example start.
    #[test]
    fn the_example_halves_make_the_example_start() {
        let w = half(WideVariant::Screen, Color::White, WHITE).unwrap();
        let b = half(WideVariant::Screen, Color::Black, BLACK).unwrap();
        assert_eq!(w.to_string(), WHITE);
        let ScreenStart::Play(p) = screen_start(WideVariant::Screen, &w, &b).unwrap() else {
            panic!("the example is played");
        };
        assert_eq!(p.fen(), EXAMPLE);
        assert_eq!(*p, WidePosition::new(WideVariant::Screen));
    }

    /// Four rows of eight squares, chess letters in the side's own case.
    #[test]
    fn a_half_is_four_rows_of_the_sides_own_pieces() {
        let s = WideVariant::Screen;
        assert_eq!(
            half(s, Color::White, "PPPPPPPP/RNBQKBNR"),
            Err(ScreenSetupError::Rows {
                color: Color::White,
                given: 2
            })
        );
        assert_eq!(
            half(s, Color::Black, "rnbqkbnr/1p4p1/p2pp2p/2p2p2").map(|_| ()),
            Ok(()),
            "the example a refusal gives Black"
        );
        assert_eq!(
            half(s, Color::White, "2P2P2/P2PP2P/1P4P/RNBQKBNR"),
            Err(ScreenSetupError::RowWidth { row: 3, squares: 7 })
        );
        assert_eq!(
            half(s, Color::White, "2P2P2/P2PP2P/1P4P1/RNBQKBNRR"),
            Err(ScreenSetupError::RowWidth { row: 4, squares: 9 })
        );
        assert_eq!(
            half(s, Color::White, "2P2P2/P2PP2P/1P4P1/RNBQKBNA"),
            Err(ScreenSetupError::Letter('A'))
        );
        assert_eq!(
            half(s, Color::Black, WHITE),
            Err(ScreenSetupError::OtherSide('P'))
        );
        assert_eq!(
            half(WideVariant::Dark, Color::White, WHITE),
            Err(ScreenSetupError::NotScreen(WideVariant::Dark))
        );
    }

    /// Exactly K, Q, 2R, 2B, 2N, 8P, in both games.
    #[test]
    fn the_army_is_the_standard_sixteen() {
        for v in [WideVariant::Screen, WideVariant::CrazyScreen] {
            assert_eq!(
                half(v, Color::White, "2P2P2/P2PP2P/1P4P1/RNBQQBNR"),
                Err(ScreenSetupError::Count {
                    role: WideRole::King,
                    placed: 0,
                    needed: 1
                })
            );
            assert_eq!(
                half(v, Color::White, "2P2P2/P2PP2P/1P4P1/RNBQKBN1"),
                Err(ScreenSetupError::Count {
                    role: WideRole::Rook,
                    placed: 1,
                    needed: 2
                })
            );
            assert_eq!(
                half(v, Color::White, "8/P2PP2P/1P4P1/RNBQKBNR"),
                Err(ScreenSetupError::Count {
                    role: WideRole::Pawn,
                    placed: 6,
                    needed: 8
                })
            );
        }
    }

    /// Screen Chess: pawns on eight files and off the first rank, bishops on both colours;
    /// Crazy Screen lifts all three.
    #[test]
    fn screen_limits_and_crazy_screen_lifts_them() {
        let pawn_first = "2P2P2/1P1PP2P/R5P1/PNBQKBNR";
        let shared_file = "2P2P2/P2PP2P/P5P1/RNBQKBNR";
        let same_colour = "2P2P2/P2PP2P/1P4P1/RNBQKNBR";
        let s = WideVariant::Screen;
        assert_eq!(
            half(s, Color::White, pawn_first),
            Err(ScreenSetupError::PawnOnFirstRank("a1".into()))
        );
        assert_eq!(
            half(s, Color::Black, "pnbqkbnr/r5p1/1p1pp2p/2p2p2"),
            Err(ScreenSetupError::PawnOnFirstRank("a8".into()))
        );
        assert_eq!(
            half(s, Color::White, shared_file),
            Err(ScreenSetupError::PawnsShareFile('a'))
        );
        assert_eq!(
            half(s, Color::White, same_colour),
            Err(ScreenSetupError::BishopsSameColour)
        );
        for ok in [pawn_first, shared_file, same_colour] {
            assert!(
                half(WideVariant::CrazyScreen, Color::White, ok).is_ok(),
                "{ok}"
            );
        }
        // Each refusal reads as a sentence a player understands.
        assert_eq!(
            ScreenSetupError::PawnsShareFile('a').to_string(),
            "two pawns share the a-file: each pawn needs its own file"
        );
    }

    /// No castling; a pawn double-steps from its second rank only, and en passant follows.
    #[test]
    fn play_has_no_castling_and_double_steps_from_the_second_rank() {
        let p = WidePosition::from_fen(
            WideVariant::Screen,
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w - - 0 1",
        )
        .unwrap();
        assert!(!sorted_ucis(&p).iter().any(|m| m == "e1g1" || m == "e1c1"));
        let p =
            WidePosition::from_fen(WideVariant::Screen, "4k3/8/8/8/8/1P6/8/4K3 w - - 0 1").unwrap();
        assert!(!sorted_ucis(&p).iter().any(|m| m == "b3b5"));
        let mut p =
            WidePosition::from_fen(WideVariant::Screen, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
                .unwrap();
        p.play("d7d5").unwrap();
        assert!(sorted_ucis(&p).iter().any(|m| m == "e5d6"));
    }

    /// Crazy Screen: a pawn on its first rank steps one square at a time, and the pawn it
    /// reaches the second rank with double-steps on a later move.
    #[test]
    fn a_crazy_screen_first_rank_pawn_steps_once() {
        let mut p =
            WidePosition::from_fen(WideVariant::CrazyScreen, "p3k3/8/8/8/8/8/8/P3K3 w - - 0 1")
                .unwrap();
        let pawn: Vec<String> = sorted_ucis(&p)
            .into_iter()
            .filter(|m| m.starts_with("a1"))
            .collect();
        assert_eq!(pawn, ["a1a2"]);
        p.play("a1a2").unwrap();
        let black: Vec<String> = sorted_ucis(&p)
            .into_iter()
            .filter(|m| m.starts_with("a8"))
            .collect();
        assert_eq!(black, ["a8a7"]);
        p.play("a8a7").unwrap();
        assert!(sorted_ucis(&p).iter().any(|m| m == "a2a4"));
    }

    /// Black's king attacked at the reveal: White wins at once. White's king attacked is
    /// played out, however many pieces attack it.
    #[test]
    fn an_attacked_black_king_decides_the_start() {
        let v = WideVariant::CrazyScreen;
        let w = half(v, Color::White, "Q7/PPPPPPPP/8/RNB1KBNR").unwrap();
        let b = half(v, Color::Black, "rnbqkbnr/ppp1pppp/8/3p4").unwrap();
        let Ok(ScreenStart::Decided {
            fen,
            outcome,
            board,
        }) = screen_start(v, &w, &b)
        else {
            panic!("Black's king attacked decides the start");
        };
        let want = "rnbqkbnr/ppp1pppp/8/3p4/Q7/PPPPPPPP/8/RNB1KBNR w - - 0 1";
        assert_eq!(fen, want);
        assert_eq!(
            outcome,
            Outcome::win(Color::White, Termination::KingCaptured)
        );
        assert_eq!(board.fen(), want);
        // Stored as its FEN, the board reads back only as the start it is.
        assert!(WidePosition::from_fen(v, want).is_err());
        assert_eq!(screen_decided_start(v, want), Some(*board));
        let played = "rnbqkbnr/ppp1pppp/8/3p4/Q7/PPPPPPPP/8/RNB1KBNR b - - 0 1";
        assert_eq!(screen_decided_start(v, played), None);
        let unattacked = "rnbqkbnr/pppppppp/8/8/Q7/PPPPPPPP/8/RNB1KBNR w - - 0 1";
        assert_eq!(screen_decided_start(v, unattacked), None);
        assert_eq!(screen_decided_start(WideVariant::Janus, want), None);
        // White's king on d4 attacked by a pawn, a knight and a rook.
        let w = half(v, Color::White, "3K4/PPPPPPPP/8/RNBQ1BNR").unwrap();
        let b = half(v, Color::Black, "1nbqkbn1/pp1rpppp/1p6/2p4r").unwrap();
        let ScreenStart::Play(p) = screen_start(v, &w, &b).unwrap() else {
            panic!("White in check plays on");
        };
        assert_eq!(p.checkers().count_ones(), 2);
        assert!(p.is_check());
        assert!(!p.legal_moves().is_empty());
    }
}
