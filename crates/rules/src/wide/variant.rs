//! `WideVariant`, the games of the wide family, and `GameDef`, the data that makes each one:
//! board size, start position, piece letters, pawn and promotion rules, castling. The shared
//! generator reads a `GameDef` and has no per-game branches, so a new game is mostly a new
//! definition (in its own file) plus whatever special rule it brings.

use core::fmt;
use core::str::FromStr;

use super::position::{KING_SIDE, QUEEN_SIDE};
use super::role::{ROLES, WideRole};
use super::square::{SQUARES, WideSquare, rank_mask};
use super::{
    amazon, ambiguous, behemoth, berolina, bkhorde, capablanca, caparandom, corner, dark, dice,
    embassy, extinction, fortress, grand, iceage, janus, knightmate, legan, r#loop, losalamos,
    maharajah, massacre, recycle, screen,
};
use super::{cheshirecat, cylinder, knightrelay};
use crate::Color;

/// A game of the wide family: boards other than 8x8 with Capablanca-style compound pieces,
/// and the 8x8 games whose pieces, royalty or win rules the 8x8 engine does not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WideVariant {
    LosAlamos,
    Janus,
    Embassy,
    Capablanca,
    CapaRandom,
    Grand,
    Corner,
    Fortress,
    BkHorde,
    Extinction,
    Massacre,
    Maharajah,
    Amazon,
    Knightmate,
    Berolina,
    Legan,
    Loop,
    Cylinder,
    KnightRelay,
    CheshireCat,
    Recycle,
    IceAge,
    Dark,
    Dice,
    Dice10x10,
    Behemoth,
    Screen,
    CrazyScreen,
    Ambiguous,
}

impl WideVariant {
    pub const ALL: [WideVariant; 29] = [
        WideVariant::LosAlamos,
        WideVariant::Janus,
        WideVariant::Embassy,
        WideVariant::Capablanca,
        WideVariant::CapaRandom,
        WideVariant::Grand,
        WideVariant::Corner,
        WideVariant::Fortress,
        WideVariant::BkHorde,
        WideVariant::Extinction,
        WideVariant::Massacre,
        WideVariant::Maharajah,
        WideVariant::Amazon,
        WideVariant::Knightmate,
        WideVariant::Berolina,
        WideVariant::Legan,
        WideVariant::Loop,
        WideVariant::Cylinder,
        WideVariant::KnightRelay,
        WideVariant::CheshireCat,
        WideVariant::Recycle,
        WideVariant::IceAge,
        WideVariant::Dark,
        WideVariant::Dice,
        WideVariant::Dice10x10,
        WideVariant::Behemoth,
        WideVariant::Screen,
        WideVariant::CrazyScreen,
        WideVariant::Ambiguous,
    ];

    /// The game's key, Fairy-Stockfish's `UCI_Variant` name.
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            WideVariant::LosAlamos => "losalamos",
            WideVariant::Janus => "janus",
            WideVariant::Embassy => "embassy",
            WideVariant::Capablanca => "capablanca",
            WideVariant::CapaRandom => "caparandom",
            WideVariant::Grand => "grand",
            WideVariant::Corner => "corner",
            WideVariant::Fortress => "fortress",
            WideVariant::BkHorde => "bkhorde",
            WideVariant::Extinction => "extinction",
            WideVariant::Massacre => "massacre",
            WideVariant::Maharajah => "maharajah",
            WideVariant::Amazon => "amazon",
            WideVariant::Knightmate => "knightmate",
            WideVariant::Berolina => "berolina",
            WideVariant::Legan => "legan",
            WideVariant::Loop => "loop",
            WideVariant::Cylinder => "cylinder",
            WideVariant::KnightRelay => "knightrelay",
            WideVariant::CheshireCat => "cheshirecat",
            WideVariant::Recycle => "recycle",
            WideVariant::IceAge => "iceage",
            WideVariant::Dark => "dark",
            WideVariant::Dice => "dice",
            WideVariant::Dice10x10 => "dice10x10",
            WideVariant::Behemoth => "behemoth",
            WideVariant::Screen => "screen",
            WideVariant::CrazyScreen => "crazyscreen",
            WideVariant::Ambiguous => "ambiguous",
        }
    }

    /// The game's name in a PGN `Variant` tag, as Fairy-Stockfish's GUIs write it.
    #[must_use]
    pub const fn pgn_name(self) -> &'static str {
        match self {
            WideVariant::LosAlamos => "Los Alamos",
            WideVariant::Janus => "Janus",
            WideVariant::Embassy => "Embassy",
            WideVariant::Capablanca => "Capablanca",
            WideVariant::CapaRandom => "Caparandom",
            WideVariant::Grand => "Grand",
            WideVariant::Corner => "Corner",
            WideVariant::Fortress => "Fortress",
            WideVariant::BkHorde => "BK Horde",
            WideVariant::Extinction => "Extinction",
            WideVariant::Massacre => "Massacre",
            WideVariant::Maharajah => "Maharajah",
            WideVariant::Amazon => "Amazon",
            WideVariant::Knightmate => "Knightmate",
            WideVariant::Berolina => "Berolina",
            WideVariant::Legan => "Legan",
            WideVariant::Loop => "Loop",
            WideVariant::Cylinder => "Cylinder",
            WideVariant::KnightRelay => "Knight Relay",
            WideVariant::CheshireCat => "Cheshire Cat",
            WideVariant::Recycle => "Recycle",
            WideVariant::IceAge => "Ice Age",
            WideVariant::Dark => "Dark",
            WideVariant::Dice => "Dice",
            WideVariant::Dice10x10 => "Dice 10x10",
            WideVariant::Behemoth => "Behemoth",
            WideVariant::Screen => "Screen",
            WideVariant::CrazyScreen => "Crazy Screen",
            WideVariant::Ambiguous => "Ambiguous",
        }
    }

    #[must_use]
    pub const fn width(self) -> u8 {
        self.def().width
    }

    #[must_use]
    pub const fn height(self) -> u8 {
        self.def().height
    }

    /// The start position's FEN (for the games drawn at creation, the rule's example: see
    /// `WidePosition::caparandom`, `WidePosition::corner`, `WidePosition::fortress`,
    /// `massacre_fen`).
    #[must_use]
    pub const fn start_fen(self) -> &'static str {
        self.def().start
    }

    pub(crate) const fn def(self) -> &'static GameDef {
        match self {
            WideVariant::LosAlamos => &losalamos::DEF,
            WideVariant::Janus => &janus::DEF,
            WideVariant::Embassy => &embassy::DEF,
            WideVariant::Capablanca => &capablanca::DEF,
            WideVariant::CapaRandom => &caparandom::DEF,
            WideVariant::Grand => &grand::DEF,
            WideVariant::Corner => &corner::DEF,
            WideVariant::Fortress => &fortress::DEF,
            WideVariant::BkHorde => &bkhorde::DEF,
            WideVariant::Extinction => &extinction::DEF,
            WideVariant::Massacre => &massacre::DEF,
            WideVariant::Maharajah => &maharajah::DEF,
            WideVariant::Amazon => &amazon::DEF,
            WideVariant::Knightmate => &knightmate::DEF,
            WideVariant::Berolina => &berolina::DEF,
            WideVariant::Legan => &legan::DEF,
            WideVariant::Loop => &r#loop::DEF,
            WideVariant::Cylinder => &cylinder::DEF,
            WideVariant::KnightRelay => &knightrelay::DEF,
            WideVariant::CheshireCat => &cheshirecat::DEF,
            WideVariant::Recycle => &recycle::DEF,
            WideVariant::IceAge => &iceage::DEF,
            WideVariant::Dark => &dark::DEF,
            WideVariant::Dice => &dice::DEF,
            WideVariant::Dice10x10 => &dice::DEF_10X10,
            WideVariant::Behemoth => &behemoth::DEF,
            WideVariant::Screen => &screen::DEF,
            WideVariant::CrazyScreen => &screen::DEF_CRAZY,
            WideVariant::Ambiguous => &ambiguous::DEF,
        }
    }
}

impl fmt::Display for WideVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// A name that is no game of the wide family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseWideVariantError(pub String);

impl fmt::Display for ParseWideVariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown wide variant {:?} (known: ", self.0)?;
        for (i, v) in WideVariant::ALL.iter().enumerate() {
            write!(f, "{}{}", if i == 0 { "" } else { ", " }, v.key())?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for ParseWideVariantError {}

impl FromStr for WideVariant {
    type Err = ParseWideVariantError;

    fn from_str(s: &str) -> Result<WideVariant, ParseWideVariantError> {
        WideVariant::ALL
            .into_iter()
            .find(|v| v.key() == s)
            .ok_or_else(|| ParseWideVariantError(s.to_string()))
    }
}

/// Where castling puts king and rook, by file, on the king's side (toward the higher files)
/// and the queen's side.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CastlingDef {
    pub king_to: [u8; 2],
    pub rook_to: [u8; 2],
    /// Castling is written as the king taking its own rook (Chess960 style), not as the
    /// king's own move.
    pub king_takes_rook: bool,
}

/// Everything the shared code needs to know about one game.
#[derive(Debug)]
pub(crate) struct GameDef {
    pub variant: WideVariant,
    pub key: &'static str,
    pub width: u8,
    pub height: u8,
    /// The squares of the board in the shared numbering.
    pub board: u128,
    pub start: &'static str,
    /// The upper-case FEN letter of each role, by `WideRole::index`; 0 for a role the game
    /// does not have.
    pub letters: [u8; ROLES],
    /// The roles a pawn may become, in the order moves are listed.
    pub promotions: &'static [WideRole],
    /// Grand Chess: a pawn may only become a role of which the side has fewer than this many.
    pub promotion_limits: Option<[u8; ROLES]>,
    /// Per colour: squares where a pawn may promote or stay a pawn.
    pub promotion_optional: [u128; 2],
    /// Per colour: squares where a pawn must promote.
    pub promotion_forced: [u128; 2],
    /// Per colour: squares a pawn reaches by one step from which it may step again (the rank
    /// after its start rank); empty when pawns never double-step.
    pub double_step_via: [u128; 2],
    pub castling: Option<CastlingDef>,
    /// Per colour: the role that is royal (one on the board, never left in check), or `None`
    /// for a side that has no check at all (Extinction, Massacre, BrainKing's horde).
    pub royal: [Option<WideRole>; 2],
    /// Per colour: the role that castles, the royal one or else the king.
    pub castler: [WideRole; 2],
    /// Massacre: only captures are moves.
    pub must_capture: bool,
    /// Per colour: whether its pawns may stand on its own first rank (BrainKing's horde).
    pub first_rank_pawns: [bool; 2],
    /// How the game ends on the board.
    pub end: End,
    /// How pawns move.
    pub pawn: Pawn,
    /// Per colour and square: the squares a pawn there attacks (captures on, gives check to).
    pub pawn_captures: &'static [[u128; SQUARES]; 2],
    /// Loop Chess: a captured piece goes to the captor's hand, from which it may be dropped.
    pub drops: bool,
    /// Recycle Chess: a side may capture its own pieces (never its king), which go to its
    /// hand; the enemy's captured pieces leave the game.
    pub self_capture: bool,
    /// Recycle Chess: a pawn that reaches the last rank leaves the game (it does not promote).
    pub pawns_leave: bool,
    /// Ice Age: the board holds ice cubes, refreezes after every 20th Black move, and a side
    /// may lose its king to the frost.
    pub ice: bool,
    /// Cylinder, Knight Relay and Cheshire Cat: their attacks bend chess's (`narrow` answers
    /// which pieces attack a square).
    pub site: Site,
    /// The games whose moves and attacks the 8x8 generator `narrow` makes instead of the
    /// shared code (tested once per node), and which of them this is.
    pub narrow: Option<EightByEight>,
    /// Whether the game waits for chance between moves (Dice Chess's roll, the Behemoth's
    /// step).
    pub chance: Chance,
    /// Ambiguous Chess: a turn executes the opponent's target and marks one's own.
    pub targets: bool,
}

/// What a game waits for, set from outside the rules (the server draws it), before the side
/// to move may act.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Chance {
    None,
    /// Dice Chess: a die names the piece type that must move.
    Dice,
    /// Behemoth Chess: after every move, the Behemoth's step.
    Behemoth,
}

/// Which of the seed site's games whose attacks bend chess's a definition is, if any (the
/// board's edge, who may capture, which squares exist): what the FEN reader and the ends ask.
/// Their moves, with Ice Age's, are the 8x8 generator's (`GameDef::narrow`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Site {
    None,
    /// The a- and h-files are joined.
    Cylinder,
    /// Pieces a friendly knight defends also move as knights; knights never capture.
    KnightRelay,
    /// A square a piece leaves vanishes; a king's first move may be a queen's.
    CheshireCat,
}

/// The games the 8x8 generator (`narrow`) plays: chess's pieces on chess's board, each bending
/// one rule the wide family's shared generator takes for granted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EightByEight {
    Cylinder,
    KnightRelay,
    CheshireCat,
    IceAge,
}

/// How a game's pawns move. Black's steps are White's turned through 180 degrees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pawn {
    /// Chess: one step ahead (two from the start rank), captures diagonally ahead.
    Chess,
    /// Berolina: one step diagonally ahead (two along one diagonal from the start rank),
    /// captures straight ahead; en passant onto the skipped square.
    Berolina,
    /// Legan: one step diagonally up-left (White), captures up or left; no double step.
    Legan,
}

impl Pawn {
    /// White's quiet steps as (files, ranks).
    pub(crate) const fn moves(self) -> &'static [(i8, i8)] {
        match self {
            Pawn::Chess => &[(0, 1)],
            Pawn::Berolina => &[(-1, 1), (1, 1)],
            Pawn::Legan => &[(-1, 1)],
        }
    }

    /// White's capturing steps as (files, ranks).
    pub(crate) const fn captures(self) -> &'static [(i8, i8)] {
        match self {
            Pawn::Chess => &[(-1, 1), (1, 1)],
            Pawn::Berolina => &[(0, 1)],
            Pawn::Legan => &[(0, 1), (-1, 0)],
        }
    }
}

/// How a game of the wide family ends on the board (repetition and the fifty-move rule
/// aside, which `WideGame` applies to every game where a position can recur).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// Checkmate wins, stalemate draws, and the chess material rule applies.
    Checkmate,
    /// Checkmate and stalemate as in chess; insufficient material never ends the game.
    CheckmateOnly,
    /// Knightmate: as chess, but only two bare royal pieces are insufficient material.
    BareRoyals,
    /// Extinction: losing every piece of one type loses; no check.
    Extinction,
    /// Massacre: the side that cannot capture loses.
    Massacre,
    /// Knight Relay: as chess, but with its own test of mating material (knights never
    /// check, so only a queen, rook, pawn, two bishops of both colours or bishop and knight
    /// can mate).
    KnightRelay,
    /// BrainKing's horde: White wins by taking every black unit, Black by checkmate.
    Horde,
    /// Ice Age: a side whose king froze has lost (both frozen: a draw); otherwise checkmate
    /// and stalemate as in chess, and material never ends the game.
    IceAge,
    /// The king-capture games: no check, a side that has lost its (last) king has lost, no
    /// legal move draws, material never ends the game.
    KingCapture,
}

impl GameDef {
    /// A game on the usual pattern: pawns start on each side's second rank, double-step from
    /// there if `double_step`, and promote on the last rank only, to any of `promotions`.
    pub const fn standard(
        variant: WideVariant,
        (width, height): (u8, u8),
        start: &'static str,
        letters: [u8; ROLES],
        promotions: &'static [WideRole],
        double_step: bool,
        castling: Option<CastlingDef>,
    ) -> GameDef {
        let board = super::square::board_mask(width, height);
        let last = [rank_mask(height - 1) & board, rank_mask(0) & board];
        let via = if double_step {
            [rank_mask(2) & board, rank_mask(height - 3) & board]
        } else {
            [0, 0]
        };
        GameDef {
            variant,
            key: variant.key(),
            width,
            height,
            board,
            start,
            letters,
            promotions,
            promotion_limits: None,
            promotion_optional: [0, 0],
            promotion_forced: last,
            double_step_via: via,
            castling,
            royal: [Some(WideRole::King); 2],
            castler: [WideRole::King; 2],
            must_capture: false,
            first_rank_pawns: [false; 2],
            end: End::Checkmate,
            pawn: Pawn::Chess,
            pawn_captures: super::attacks::CHESS_PAWN,
            drops: false,
            site: Site::None,
            narrow: None,
            self_capture: false,
            pawns_leave: false,
            ice: false,
            chance: Chance::None,
            targets: false,
        }
    }

    /// The role a FEN letter names in this game (either case).
    pub fn role_of(&self, letter: u8) -> Option<WideRole> {
        let upper = letter.to_ascii_uppercase();
        WideRole::ALL
            .into_iter()
            .find(|r| self.letters[r.index()] == upper && upper != 0)
    }

    /// Where king and rook land when the king on `king` castles with the rook on `rook`.
    /// Inlined: the generator asks it for every castling right at every node (Extinction's
    /// perft), where a call cost more than the lookup.
    #[inline]
    pub(crate) fn castling_targets(
        &self,
        king: WideSquare,
        rook: WideSquare,
    ) -> (WideSquare, WideSquare) {
        let side = if rook.file() > king.file() {
            KING_SIDE
        } else {
            QUEEN_SIDE
        };
        let c = self
            .castling
            .as_ref()
            .map_or(([0, 0], [0, 0]), |c| (c.king_to, c.rook_to));
        let rank = king.rank();
        let at = |file: u8| WideSquare::new(file, rank).unwrap_or(king);
        (at(c.0[side]), at(c.1[side]))
    }

    /// The lower-case letter of `role` in this game (the promotion suffix of a UCI move).
    pub fn letter(&self, role: WideRole) -> char {
        self.letters[role.index()].to_ascii_lowercase() as char
    }

    /// `color`'s first rank (from 0).
    pub const fn back_rank(&self, color: Color) -> u8 {
        match color {
            Color::White => 0,
            Color::Black => self.height - 1,
        }
    }
}

/// The usual letters: `P N B R Q K`, `A` archbishop, `C` chancellor.
pub(crate) const CAPABLANCA_LETTERS: [u8; ROLES] = *b"PNBRQKAC\0";

/// Chess's castling squares: the king to g1 with the rook to f1, or to c1 with the rook to d1.
pub(crate) const CHESS_CASTLING: CastlingDef = CastlingDef {
    king_to: [6, 2],
    rook_to: [5, 3],
    king_takes_rook: false,
};

/// Chess's promotions.
pub(crate) const CHESS_PROMOTIONS: [WideRole; 4] = [
    WideRole::Queen,
    WideRole::Rook,
    WideRole::Bishop,
    WideRole::Knight,
];

/// Chess's letters, and none for the compounds.
pub(crate) const CHESS_LETTERS: [u8; ROLES] = *b"PNBRQK\0\0\0";
