//! The little chess vocabulary the bot needs: sides, board sizes, squares, pieces and UCI moves.
//!
//! The server is the rules authority: the bot never decides whether a move is legal. It only
//! reads what passes between the server and the engine (a move's syntax, the side to move,
//! the pieces of a FEN for the opening book), so these types check syntax, not rules.

use std::fmt;
use std::str::FromStr;

use crate::proto;

/// A side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    White,
    Black,
}

impl Side {
    /// The other side.
    #[must_use]
    pub const fn opposite(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// The side a protobuf `Color` names; `None` for `COLOR_UNSPECIFIED` or an unknown value.
    #[must_use]
    pub fn from_proto(color: i32) -> Option<Side> {
        match proto::Color::try_from(color) {
            Ok(proto::Color::White) => Some(Side::White),
            Ok(proto::Color::Black) => Some(Side::Black),
            _ => None,
        }
    }

    /// `white` or `black`, for logs.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A board's size: its files (lettered from `a`) and ranks (numbered from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    pub files: u8,
    pub ranks: u8,
}

impl Geometry {
    /// Chess's 8x8 board.
    pub const STANDARD: Geometry = Geometry { files: 8, ranks: 8 };
    /// The most files a square's letter can name: `a` to `l`, as Fairy-Stockfish's large-board
    /// build counts them (chessd's widest game, Capablanca's, has 10).
    pub const MAX_FILES: u8 = 12;
    /// The most ranks: 10 (Grand Chess), where a rank takes two digits (`a10`).
    pub const MAX_RANKS: u8 = 10;

    /// The board of `files` x `ranks`; `None` beyond what a square can name.
    #[must_use]
    pub const fn new(files: u32, ranks: u32) -> Option<Geometry> {
        if files >= 1
            && files <= Geometry::MAX_FILES as u32
            && ranks >= 1
            && ranks <= Geometry::MAX_RANKS as u32
        {
            Some(Geometry {
                files: files as u8,
                ranks: ranks as u8,
            })
        } else {
            None
        }
    }

    /// The board a game message describes; a message without one (a server from before the
    /// wide family) means chess's board. `None` for a size the bot cannot name squares on.
    #[must_use]
    pub fn from_proto(geometry: Option<&proto::BoardGeometry>) -> Option<Geometry> {
        match geometry {
            None => Some(Geometry::STANDARD),
            Some(g) if g.files == 0 && g.ranks == 0 => Some(Geometry::STANDARD),
            Some(g) => Geometry::new(g.files, g.ranks),
        }
    }
}

impl fmt::Display for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.files, self.ranks)
    }
}

/// A square of a board up to [`Geometry::MAX_FILES`] x [`Geometry::MAX_RANKS`]; on the standard
/// board `a1` = 0 ... `h8` = 63 by [`Square::index`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Square {
    file: u8,
    rank: u8,
}

impl Square {
    /// The square on `file` (0 = a) and `rank` (0 = rank 1) of the standard board; `None` off
    /// it.
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        Square::on(file, rank, Geometry::STANDARD)
    }

    /// The square on `file` and `rank` of a board of `geometry`; `None` off it.
    #[must_use]
    pub const fn on(file: u8, rank: u8, geometry: Geometry) -> Option<Square> {
        if file < geometry.files && rank < geometry.ranks {
            Some(Square { file, rank })
        } else {
            None
        }
    }

    #[must_use]
    pub const fn file(self) -> u8 {
        self.file
    }

    #[must_use]
    pub const fn rank(self) -> u8 {
        self.rank
    }

    /// `file + 8 * rank`: the square's place in a standard board's array (the opening book's
    /// and the FEN reader's board), meaningful for squares of the standard board only.
    #[must_use]
    pub const fn index(self) -> usize {
        self.file as usize + 8 * self.rank as usize
    }

    /// Reads `e4` (or `j10`) from the start of `text`: the square and the bytes it took.
    fn parse(text: &[u8], geometry: Geometry) -> Option<(Square, usize)> {
        let (&letter, rest) = text.split_first()?;
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        // One or two digits, no leading zero: `a01` is not a square.
        if !(1..=2).contains(&digits) || rest[0] == b'0' {
            return None;
        }
        let rank = rest[..digits].iter().fold(0u8, |n, &d| n * 10 + (d - b'0'));
        let square = Square::on(letter - b'a', rank.checked_sub(1)?, geometry)?;
        Some((square, 1 + digits))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Role {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

impl Role {
    /// The role of a FEN or UCI letter, either case.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }

    /// The lowercase letter.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }
}

/// A piece: a role and a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub side: Side,
    pub role: Role,
}

/// A piece's letter in a move, lowercase: a promotion's (`e7e8q`, Capablanca's `e7e8c`) or a
/// drop's (`N@f3`, written uppercase). Any game's pieces, not only chess's six.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceLetter(u8);

impl PieceLetter {
    /// Shogi's promotion, written `+` after the move (`b2h8+`): the piece keeps its letter.
    pub const PROMOTE: PieceLetter = PieceLetter(b'+');

    /// The letter of `c`, either case; `None` for anything but an ASCII letter.
    #[must_use]
    pub const fn new(c: u8) -> Option<PieceLetter> {
        if c.is_ascii_alphabetic() {
            Some(PieceLetter(c.to_ascii_lowercase()))
        } else {
            None
        }
    }

    /// The letter of one of chess's pieces.
    #[must_use]
    pub const fn of(role: Role) -> PieceLetter {
        PieceLetter(role.char() as u8)
    }

    /// The chess piece it names, if it names one.
    #[must_use]
    pub const fn role(self) -> Option<Role> {
        Role::from_char(self.0 as char)
    }

    /// The lowercase letter.
    #[must_use]
    pub const fn char(self) -> char {
        self.0 as char
    }
}

/// A move in UCI notation: `e2e4`, `e7e8q`, `e1h1` (castling as Chess960 engines write it),
/// `a7a8k` (antichess), a Crazyhouse drop `N@f3`, and on other boards `a10a9` (Grand or
/// xiangqi), `e7e8c` (Capablanca's chancellor) or `b2h8+` (a shogi promotion, as
/// Fairy-Stockfish writes it), and an Ambiguous Chess turn (`g1f3>d5`, `>e4=e2e4`, on a
/// wide board only). `0000` and `(none)` are not moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UciMove {
    Normal {
        from: Square,
        to: Square,
        promotion: Option<PieceLetter>,
    },
    Drop {
        piece: PieceLetter,
        to: Square,
    },
    Turn(TurnText),
}

/// An Ambiguous Chess turn's text: an execution (a move) or nothing, `>` and the square marked,
/// and `=` with the move the mark forced, each part checked as a move or a square. Kept as
/// written: the bot relays it, and the server, the rules authority, judges it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TurnText {
    bytes: [u8; TurnText::CAPACITY],
    len: u8,
}

impl TurnText {
    /// A promoting execution, a mark and a forced move: `j9j10q>j10=i9j10` on a 10x10 board.
    const CAPACITY: usize = 16;

    fn read(text: &str, geometry: Geometry) -> Option<TurnText> {
        let (execution, rest) = text.split_once('>')?;
        let (mark, forced) = match rest.split_once('=') {
            Some((mark, forced)) => (mark, Some(forced)),
            None => (rest, None),
        };
        let is_move = |part: &str| {
            matches!(
                UciMove::read(part, geometry, Letters::Any),
                Ok(UciMove::Normal { .. })
            )
        };
        let square = matches!(Square::parse(mark.as_bytes(), geometry), Some((_, used)) if used == mark.len());
        let fits = text.len() <= TurnText::CAPACITY;
        if !fits || !square || !(execution.is_empty() || is_move(execution)) {
            return None;
        }
        if forced.is_some_and(|f| !is_move(f)) {
            return None;
        }
        let mut bytes = [0; TurnText::CAPACITY];
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        Some(TurnText {
            bytes,
            len: text.len() as u8,
        })
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

/// Why text is not a UCI move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMove {
    /// The text as given (cut to 16 characters: it may come from a misbehaving engine).
    pub text: String,
}

impl fmt::Display for BadMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a uci move: {:?}", self.text)
    }
}

impl std::error::Error for BadMove {}

/// Which piece letters a move may carry.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Letters {
    /// Chess's: `pnbrqk` (promotions to a king exist in Antichess).
    Chess,
    /// Any letter: each game of the wide family has its own pieces, and the server, the rules
    /// authority, refuses a letter the game lacks.
    Any,
}

impl Letters {
    fn read(self, c: u8) -> Option<PieceLetter> {
        let letter = PieceLetter::new(c)?;
        match self {
            Letters::Chess => letter.role().map(|_| letter),
            Letters::Any => Some(letter),
        }
    }
}

/// How a game writes its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// Chess's board and pieces: the games with a number in the API's `Variant` enum.
    Chess,
    /// A board of the game's own, with any piece letters: the wide family.
    Wide(Geometry),
}

impl UciMove {
    /// Reads a move of a game on a board of `geometry`, whose pieces may have any letter.
    pub fn parse_on(text: &str, geometry: Geometry) -> Result<UciMove, BadMove> {
        UciMove::read(text, geometry, Letters::Any)
    }

    /// Reads a move written in `notation`.
    pub fn parse_in(text: &str, notation: Notation) -> Result<UciMove, BadMove> {
        match notation {
            Notation::Chess => text.parse(),
            Notation::Wide(geometry) => UciMove::parse_on(text, geometry),
        }
    }

    fn read(text: &str, geometry: Geometry, letters: Letters) -> Result<UciMove, BadMove> {
        let bad = || BadMove {
            text: text.chars().take(16).collect(),
        };
        let bytes = text.as_bytes();
        if text.contains('>') && letters == Letters::Any {
            return TurnText::read(text, geometry)
                .map(UciMove::Turn)
                .ok_or_else(bad);
        }
        if let [piece, b'@', rest @ ..] = bytes {
            let piece = letters
                .read(*piece)
                .filter(|_| piece.is_ascii_uppercase())
                .ok_or_else(bad)?;
            return match Square::parse(rest, geometry) {
                Some((to, used)) if used == rest.len() => Ok(UciMove::Drop { piece, to }),
                _ => Err(bad()),
            };
        }
        let (from, used) = Square::parse(bytes, geometry).ok_or_else(bad)?;
        let (to, more) = Square::parse(&bytes[used..], geometry).ok_or_else(bad)?;
        let promotion = match &bytes[used + more..] {
            [] => None,
            [c] if c.is_ascii_lowercase() && *c != b'p' => Some(letters.read(*c).ok_or_else(bad)?),
            [b'+'] if letters == Letters::Any => Some(PieceLetter::PROMOTE),
            _ => return Err(bad()),
        };
        if from == to {
            return Err(bad());
        }
        Ok(UciMove::Normal {
            from,
            to,
            promotion,
        })
    }
}

/// A move of chess's pieces on chess's board (the opening book's moves, and every variant's
/// before the wide family); [`UciMove::parse_on`] reads the others.
impl FromStr for UciMove {
    type Err = BadMove;

    fn from_str(text: &str) -> Result<UciMove, BadMove> {
        UciMove::read(text, Geometry::STANDARD, Letters::Chess)
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UciMove::Normal {
                from,
                to,
                promotion,
            } => {
                write!(f, "{from}{to}")?;
                if let Some(letter) = promotion {
                    write!(f, "{}", letter.char())?;
                }
                Ok(())
            }
            UciMove::Drop { piece, to } => {
                write!(f, "{}@{to}", piece.char().to_ascii_uppercase())
            }
            UciMove::Turn(text) => f.write_str(text.as_str()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every UCI form an engine may send reads back as written: plain, promotion (to a king
    /// too, for antichess), castling as king-takes-rook, and drops.
    #[test]
    fn uci_moves_round_trip() {
        for text in [
            "e2e4", "e7e8q", "a7a8k", "e1h1", "e1g1", "N@f3", "P@e4", "h7h8n",
        ] {
            let mv: UciMove = text.parse().unwrap();
            assert_eq!(mv.to_string(), text);
        }
    }

    /// An Ambiguous Chess turn reads back as written on a wide board, and is refused in
    /// chess's notation or with a part that is no move or square.
    #[test]
    fn ambiguous_turns_round_trip() {
        let wide = Notation::Wide(Geometry::STANDARD);
        for text in [
            ">e4",
            ">e4=e2e4",
            "g1f3>d5",
            "g1f3>d5=d7d5",
            "b2b1q>c5=d4c5",
            "a1e1",
        ] {
            assert_eq!(UciMove::parse_in(text, wide).unwrap().to_string(), text);
        }
        for bad in [
            "g1f3>",
            ">",
            "g1f3>d9",
            "x1f3>d5",
            "g1f3>d5=d7",
            ">e4=e4",
            "g1f3>>d5",
        ] {
            assert!(UciMove::parse_in(bad, wide).is_err(), "{bad}");
        }
        assert!(UciMove::parse_in(">e4", Notation::Chess).is_err());
    }

    /// Null moves, `(none)`, off-board squares, pawn promotions and junk are not moves.
    #[test]
    fn non_moves_are_refused() {
        for text in [
            "", "0000", "(none)", "e2e9", "i2i4", "e2e4p", "e2e4Q", "e2e2", "n@f3", "X@f3", "P@e",
            "e2e4e5", "Nf3",
        ] {
            assert!(text.parse::<UciMove>().is_err(), "{text:?}");
        }
    }

    /// Squares count from a1 along the files, then up the ranks.
    #[test]
    fn squares() {
        assert_eq!(Square::new(0, 0).unwrap().index(), 0);
        assert_eq!(Square::new(7, 7).unwrap().to_string(), "h8");
        assert_eq!(Square::new(4, 3).unwrap().to_string(), "e4");
        assert!(Square::new(8, 0).is_none());
    }

    /// Other boards' moves: ranks up to 10 (two digits), files beyond h, any piece letter for
    /// promotions and drops; each reads back as written.
    #[test]
    fn wide_moves_round_trip() {
        let grand = Geometry::new(10, 10).unwrap();
        for text in [
            "a10a9", "j2j4", "e7e8c", "b9b10a", "i1j1", "A@e5", "P@j10", "e1i1", "c3d5",
        ] {
            let mv = UciMove::parse_on(text, grand).unwrap();
            assert_eq!(mv.to_string(), text);
        }
        let mv = UciMove::parse_on("b9b10a", grand).unwrap();
        assert_eq!(
            mv,
            UciMove::Normal {
                from: Square::on(1, 8, grand).unwrap(),
                to: Square::on(1, 9, grand).unwrap(),
                promotion: PieceLetter::new(b'a'),
            }
        );
    }

    /// A square must lie on the game's board, and a rank has no leading zero; the rest of the
    /// syntax is as on chess's board.
    #[test]
    fn wide_non_moves_are_refused() {
        let capablanca = Geometry::new(10, 8).unwrap();
        let losalamos = Geometry::new(6, 6).unwrap();
        for (text, geometry) in [
            ("a9a10", capablanca),
            ("k2k4", capablanca),
            ("a01a2", capablanca),
            ("a0a1", capablanca),
            ("e7e8p", capablanca),
            ("e7e8C", capablanca),
            ("e7e8cc", capablanca),
            ("c@e5", capablanca),
            ("P@e", capablanca),
            ("1@e5", capablanca),
            ("g1g2", losalamos),
            ("a1a7", losalamos),
            ("", capablanca),
            ("0000", capablanca),
        ] {
            assert!(
                UciMove::parse_on(text, geometry).is_err(),
                "{text:?} on {geometry}"
            );
        }
        assert!("e7e8c".parse::<UciMove>().is_err());
        assert!(UciMove::parse_in("e7e8c", Notation::Chess).is_err());
        assert!(UciMove::parse_on("e7e8c", Geometry::STANDARD).is_ok());
        let amazon = Notation::Wide(Geometry::STANDARD);
        assert_eq!(
            UciMove::parse_in("e7e8a", amazon).unwrap().to_string(),
            "e7e8a"
        );
        // Shogi's promotion mark, as Fairy-Stockfish writes it, and xiangqi's tenth rank; a
        // chess move never carries the mark.
        let shogi = Geometry::new(9, 9).unwrap();
        for text in ["b2h8+", "P@e5", "c3c4"] {
            assert_eq!(UciMove::parse_on(text, shogi).unwrap().to_string(), text);
        }
        let xiangqi = Geometry::new(9, 10).unwrap();
        assert_eq!(
            UciMove::parse_on("b10c8", xiangqi).unwrap().to_string(),
            "b10c8"
        );
        assert!("e7e8+".parse::<UciMove>().is_err());
    }

    /// A server without geometry means chess's board; sizes the bot cannot name are refused.
    #[test]
    fn geometries() {
        assert_eq!(Geometry::from_proto(None), Some(Geometry::STANDARD));
        let g = |files, ranks| proto::BoardGeometry { files, ranks };
        assert_eq!(
            Geometry::from_proto(Some(&g(0, 0))),
            Some(Geometry::STANDARD)
        );
        assert_eq!(
            Geometry::from_proto(Some(&g(10, 10))),
            Some(Geometry {
                files: 10,
                ranks: 10
            })
        );
        assert_eq!(Geometry::from_proto(Some(&g(13, 8))), None);
        assert_eq!(Geometry::from_proto(Some(&g(8, 11))), None);
        assert_eq!(Geometry::from_proto(Some(&g(8, 0))), None);
    }
}
