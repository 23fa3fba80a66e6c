//! Dice Chess (`dice`) and Dice Chess 10x10 (`dice10x10`), as `GAMES.md` gives them:
//!
//! > **King-capture conventions** (no check; capturing the king wins).
//! > **The die.** At the start of every turn the server rolls for the player to move; the face
//! > names the piece type that must move: **1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6
//! > king**. Only faces for which **at least one piece of that type has a legal move** can come
//! > up. The roll is written as the FEN's seventh field and in the record as `~n`.
//! > **Moves allowed on face n**: every legal move of a piece of type n. On face 6 that includes
//! > castling (the only face that allows it). On face 1 a promoting pawn may choose Q, R, B or N.
//! > **The promotion exception.** On faces 2-5 a pawn that can reach the last rank may do so
//! > even though the face is not 1, but it promotes only to the face's piece. This exception
//! > does not make a face rollable. On face 6 no promotion is possible.
//! > **End.** Capturing the king wins. If no face is rollable, the player has no legal move: a
//! > draw. Repetition (compared without the roll) and the fifty-move rule as chessd configures
//! > them; insufficient material never applies.
//!
//! > **Dice Chess 10x10**: the board is 10x10, start `RNBQKKQBNR` with pawns on rank 2, Black
//! > mirrored; promotion on rank 10 (Black: rank 1); pawns double-step only from ranks 2 / 9;
//! > **no castling**; a player **loses when their last king is captured**.
//!
//! The rules never draw the die: the roll is position state the server sets
//! (`WidePosition::set_roll`, among `rollable_faces`), `None` until then, when the side to move
//! has no legal move; every move clears it.
//!
//! Perft in these games counts the die's branches: from a position with a roll, the moves on
//! that face; after each move, the sum over every face rollable in the new position of the
//! count from there with that roll (and from a position without a roll, that sum at once).

use core::fmt;
use core::str::FromStr;

use super::mv::{WideMove, WideMoveKind};
use super::position::WidePosition;
use super::role::WideRole;
use super::variant::{
    CHESS_CASTLING, CHESS_LETTERS, CHESS_PROMOTIONS, Chance, End, GameDef, WideVariant,
};

pub(crate) const DEF: GameDef = GameDef {
    royal: [None; 2],
    end: End::KingCapture,
    chance: Chance::Dice,
    ..GameDef::standard(
        WideVariant::Dice,
        (8, 8),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -",
        CHESS_LETTERS,
        &CHESS_PROMOTIONS,
        true,
        Some(CHESS_CASTLING),
    )
};

pub(crate) const DEF_10X10: GameDef = GameDef {
    royal: [None; 2],
    end: End::KingCapture,
    chance: Chance::Dice,
    ..GameDef::standard(
        WideVariant::Dice10x10,
        (10, 10),
        "rnbqkkqbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKKQBNR w - - 0 1 -",
        CHESS_LETTERS,
        &CHESS_PROMOTIONS,
        true,
        None,
    )
};

/// A face of Dice Chess's die: the piece type that must move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Face {
    Pawn = 1,
    Knight = 2,
    Bishop = 3,
    Rook = 4,
    Queen = 5,
    King = 6,
}

impl Face {
    pub const ALL: [Face; 6] = [
        Face::Pawn,
        Face::Knight,
        Face::Bishop,
        Face::Rook,
        Face::Queen,
        Face::King,
    ];

    /// The number on the face, 1 to 6.
    #[must_use]
    pub const fn number(self) -> u8 {
        self as u8
    }

    /// The face showing `n` (1 to 6).
    #[must_use]
    pub const fn from_number(n: u8) -> Option<Face> {
        match n {
            1 => Some(Face::Pawn),
            2 => Some(Face::Knight),
            3 => Some(Face::Bishop),
            4 => Some(Face::Rook),
            5 => Some(Face::Queen),
            6 => Some(Face::King),
            _ => None,
        }
    }

    /// The piece type the face names.
    #[must_use]
    pub const fn role(self) -> WideRole {
        match self {
            Face::Pawn => WideRole::Pawn,
            Face::Knight => WideRole::Knight,
            Face::Bishop => WideRole::Bishop,
            Face::Rook => WideRole::Rook,
            Face::Queen => WideRole::Queen,
            Face::King => WideRole::King,
        }
    }
}

impl fmt::Display for Face {
    /// The face's number, as the FEN's seventh field writes it (the record writes `~` before).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// A text that is no face of the die (`1` to `6`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseFaceError(pub String);

impl fmt::Display for ParseFaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is no face of the die (1 to 6)", self.0)
    }
}

impl std::error::Error for ParseFaceError {}

impl FromStr for Face {
    type Err = ParseFaceError;

    fn from_str(s: &str) -> Result<Face, ParseFaceError> {
        match s.as_bytes() {
            [d @ b'1'..=b'6'] => Face::from_number(d - b'0'),
            _ => None,
        }
        .ok_or_else(|| ParseFaceError(s.to_string()))
    }
}

/// Why a roll was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RollError {
    /// The game has no die.
    NoDie,
    /// The side to move already has its roll; a roll is never drawn again.
    AlreadyRolled(Face),
    /// No piece of the face's type has a legal move (or the game is over).
    NotRollable(Face),
}

impl fmt::Display for RollError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RollError::NoDie => f.write_str("this game has no die"),
            RollError::AlreadyRolled(face) => write!(f, "the die already shows {face}"),
            RollError::NotRollable(face) => {
                write!(
                    f,
                    "face {face} cannot come up: no piece of its type can move"
                )
            }
        }
    }
}

impl std::error::Error for RollError {}

impl WidePosition {
    /// Dice Chess: the face rolled for the side to move, `None` before the roll (and in
    /// other games).
    #[must_use]
    pub fn roll(&self) -> Option<Face> {
        self.roll
    }

    /// The same position before its die was cast (the server's first roll taken out of a
    /// start, to compare it with the start a request asked for).
    #[must_use]
    pub fn unrolled(&self) -> WidePosition {
        WidePosition {
            roll: None,
            ..*self
        }
    }

    /// Dice Chess: the faces the server may roll for the side to move, in order: those for
    /// which a piece of that type has a legal move (a pawn's promotion on faces 2 to 5 makes
    /// no face rollable). Empty when the game is over, and in other games.
    #[must_use]
    pub fn rollable_faces(&self) -> Vec<Face> {
        if self.def.chance != Chance::Dice {
            return Vec::new();
        }
        let moves = self.moves_before_chance();
        Face::ALL
            .into_iter()
            .filter(|face| moves.iter().any(|m| self.mover(*m) == Some(face.role())))
            .collect()
    }

    /// Dice Chess: whether the side to move waits for the server's roll (no roll yet and a
    /// face can come up). A position that waits has no legal move until `set_roll`.
    #[must_use]
    pub fn awaits_roll(&self) -> bool {
        self.def.chance == Chance::Dice && self.roll.is_none() && !self.rollable_faces().is_empty()
    }

    /// Dice Chess: sets the die for the side to move to `face`, one of `rollable_faces`. A roll
    /// already made is never replaced.
    pub fn set_roll(&mut self, face: Face) -> Result<(), RollError> {
        if self.def.chance != Chance::Dice {
            return Err(RollError::NoDie);
        }
        if let Some(rolled) = self.roll {
            return Err(RollError::AlreadyRolled(rolled));
        }
        if !self.rollable_faces().contains(&face) {
            return Err(RollError::NotRollable(face));
        }
        self.roll = Some(face);
        Ok(())
    }

    /// The type of the piece `m` moves.
    fn mover(&self, m: WideMove) -> Option<WideRole> {
        self.piece_at(m.from()).map(|p| p.role)
    }

    /// Whether `m`, a move the board allows, may be played on `face`: a move of a piece of
    /// the face's type (castling is the king's, so face 6's), or on faces 2 to 5 a pawn's
    /// promotion to the face's piece.
    pub(crate) fn on_face(&self, m: WideMove, face: Face) -> bool {
        if m.kind() == WideMoveKind::Drop {
            return false;
        }
        match self.mover(m) {
            Some(WideRole::Pawn) if face != Face::Pawn => {
                face != Face::King && m.promotion() == Some(face.role())
            }
            role => role == Some(face.role()),
        }
    }

    /// Whether the side to move can act at all: in Dice Chess, whether a face is rollable
    /// (whether or not the die is cast yet); in Behemoth, a step awaited is no end. No move at
    /// all is a draw.
    pub(crate) fn can_move(&self) -> bool {
        match self.def.chance {
            Chance::Dice => !self.moves_before_chance().is_empty(),
            Chance::Behemoth => self.step_pending || self.has_legal_move(),
            Chance::None => self.has_legal_move(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::sorted_ucis;
    use super::super::{WideGame, WidePosition, WideVariant};
    use super::{Face, RollError};
    use crate::{Color, DrawRule, Family, Outcome, Termination};

    fn pos(fen: &str) -> WidePosition {
        WidePosition::from_fen(WideVariant::Dice, fen).unwrap()
    }

    fn rolled(fen: &str, face: Face) -> WidePosition {
        let mut p = pos(fen);
        p.set_roll(face).unwrap();
        p
    }

    /// Before the roll the side to move has no legal move, and waits.
    #[test]
    fn no_move_before_the_roll() {
        let p = WidePosition::new(WideVariant::Dice);
        assert_eq!(p.roll(), None);
        assert!(p.legal_moves().is_empty() && p.awaits_roll());
        assert_eq!(p.outcome(), None);
        assert_eq!(p.rollable_faces(), [Face::Pawn, Face::Knight]);
    }

    /// The face names the type that must move: face 2 gives the knights' moves only.
    #[test]
    fn the_face_names_the_piece_type_that_moves() {
        let p = rolled(WideVariant::Dice.start_fen(), Face::Knight);
        assert_eq!(sorted_ucis(&p), ["b1a3", "b1c3", "g1f3", "g1h3"]);
        let p = rolled(WideVariant::Dice.start_fen(), Face::Pawn);
        assert_eq!(p.legal_moves().len(), 16);
    }

    /// Only faces whose type has a legal move can come up; another is refused, and so is a
    /// second roll.
    #[test]
    fn only_a_face_whose_type_can_move_is_rollable() {
        let mut p = WidePosition::new(WideVariant::Dice);
        assert_eq!(
            p.set_roll(Face::Queen),
            Err(RollError::NotRollable(Face::Queen))
        );
        assert_eq!(p.set_roll(Face::Knight), Ok(()));
        assert_eq!(
            p.set_roll(Face::Pawn),
            Err(RollError::AlreadyRolled(Face::Knight))
        );
        let mut chess = WidePosition::new(WideVariant::Dark);
        assert_eq!(chess.set_roll(Face::Pawn), Err(RollError::NoDie));
    }

    /// The promotion exception: on face 3 a pawn may promote, to a bishop only; it makes face
    /// 3 no rollable face by itself.
    #[test]
    fn a_pawn_on_face_3_promotes_to_a_bishop_only() {
        let fen = "4k3/P7/8/8/8/8/8/B3K3 w - - 0 1 -";
        let p = rolled(fen, Face::Bishop);
        let moves = sorted_ucis(&p);
        assert!(moves.contains(&"a7a8b".to_string()));
        assert!(!moves.iter().any(|m| m.starts_with("a7") && m != "a7a8b"));
        // Without the bishop, face 3 cannot come up although the pawn could promote on it.
        let p = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1 -");
        assert_eq!(p.rollable_faces(), [Face::Pawn, Face::King]);
    }

    /// On face 1 a promoting pawn chooses Q, R, B or N, never a king.
    #[test]
    fn a_pawn_on_face_1_promotes_to_any_piece_but_a_king() {
        let p = rolled("4k3/P7/8/8/8/8/8/4K3 w - - 0 1 -", Face::Pawn);
        assert_eq!(sorted_ucis(&p), ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]);
    }

    /// On face 6 no promotion is possible: the king's moves only.
    #[test]
    fn no_promotion_on_face_6() {
        let p = rolled("4k3/P7/8/8/8/8/8/7K w - - 0 1 -", Face::King);
        assert_eq!(sorted_ucis(&p), ["h1g1", "h1g2", "h1h2"]);
    }

    /// Castling is a king's move: face 6 only, and attacks do not matter.
    #[test]
    fn castling_on_face_6_only() {
        let fen = "4k3/8/8/8/8/8/3r1r2/R3K2R w KQ - 0 1 -";
        assert!(sorted_ucis(&rolled(fen, Face::King)).contains(&"e1g1".to_string()));
        assert!(sorted_ucis(&rolled(fen, Face::King)).contains(&"e1c1".to_string()));
        assert!(
            !sorted_ucis(&rolled(fen, Face::Rook))
                .iter()
                .any(|m| m == "e1g1" || m == "e1c1")
        );
    }

    /// After any move the die is blank again, and the roll is part of the FEN.
    #[test]
    fn every_move_clears_the_roll_and_the_fen_carries_it() {
        let mut p = WidePosition::new(WideVariant::Dice);
        assert_eq!(
            p.fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -"
        );
        p.set_roll(Face::Pawn).unwrap();
        assert_eq!(
            p.fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1"
        );
        assert_eq!(pos(&p.fen()), p);
        p.play("e2e4").unwrap();
        assert_eq!(p.roll(), None);
        assert_eq!(
            p.fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 -"
        );
        // A FEN without the seventh field has no roll; one with a face that cannot come up
        // is refused.
        assert_eq!(
            pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").roll(),
            None
        );
        for bad in ["5", "7", "0", "x", "12"] {
            let fen = format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 {bad}");
            assert!(
                WidePosition::from_fen(WideVariant::Dice, &fen).is_err(),
                "{bad}"
            );
        }
        // Other games have no seventh field.
        assert!(
            WidePosition::from_fen(
                WideVariant::Dark,
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1"
            )
            .is_err()
        );
    }

    /// Capturing the king wins at once: no face is rollable after it.
    #[test]
    fn capturing_the_king_wins() {
        let mut p = rolled("4k3/8/8/8/8/8/4r3/4K3 b - - 0 1 -", Face::Rook);
        p.play("e2e1").unwrap();
        assert!(p.rollable_faces().is_empty() && !p.awaits_roll());
        assert_eq!(
            p.outcome(),
            Some(Outcome::win(Color::Black, Termination::KingCaptured))
        );
    }

    /// No rollable face is no legal move: a draw.
    #[test]
    fn no_rollable_face_draws() {
        let p = pos("7k/8/8/8/1p6/pPp5/PRP5/KB6 w - - 0 1 -");
        assert!(p.rollable_faces().is_empty());
        assert_eq!(p.outcome(), Some(Outcome::draw(Termination::Stalemate)));
    }

    /// Insufficient material never applies: a lone king can still take a careless king.
    #[test]
    fn insufficient_material_never_applies() {
        let p = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1 -");
        assert_eq!(p.outcome(), None);
        assert!(!Family::has_insufficient_material(&p, Color::White));
    }

    /// Repetition compares positions without the roll: the start recurs with another face
    /// showing and still counts.
    #[test]
    fn repetition_ignores_the_roll() {
        let a = rolled(WideVariant::Dice.start_fen(), Face::Pawn);
        let b = rolled(WideVariant::Dice.start_fen(), Face::Knight);
        assert_eq!(a.repetition_key(), b.repetition_key());
        let mut game = WideGame::new(b, DrawRule::Automatic);
        for m in [
            "g1f3~2", "g8f6~2", "f3g1~2", "f6g8~2", "g1f3~2", "g8f6~2", "f3g1~2",
        ] {
            game.play_text(m).unwrap();
            assert_eq!(game.outcome(), None, "{m}");
        }
        // The third time, White's die shows a pawn instead of a knight.
        game.play_text("f6g8~1").unwrap();
        assert_eq!(game.outcome(), Some(Outcome::draw(Termination::Repetition)));
    }

    /// Perft counts the die's branches: from the start with no roll, depth 1 is the sum over
    /// faces 1 and 2 (16 + 4 moves), depth 2 adds, after each move, every face Black may roll.
    #[test]
    fn perft_sums_over_the_faces() {
        let p = WidePosition::new(WideVariant::Dice);
        assert_eq!(p.perft(1), 20);
        assert_eq!(
            rolled(WideVariant::Dice.start_fen(), Face::Knight).perft(1),
            4
        );
        // Black's reply to each of White's 20 moves: 16 pawn moves + 4 knight moves, plus
        // the bishop or queen that a pawn step lets out (counted by the generator).
        let by_hand: u64 = p
            .rollable_faces()
            .into_iter()
            .map(|f| {
                let mut r = p;
                r.set_roll(f).unwrap();
                r.legal_moves()
                    .into_iter()
                    .map(|m| {
                        let mut c = r;
                        c.play_unchecked(m);
                        c.rollable_faces()
                            .into_iter()
                            .map(|g| {
                                let mut d = c;
                                d.set_roll(g).unwrap();
                                d.legal_moves().len() as u64
                            })
                            .sum::<u64>()
                    })
                    .sum::<u64>()
            })
            .sum();
        assert_eq!(p.perft(2), by_hand);
    }

    /// Dice 10x10: its start, two kings a side, no castling; taking one king is an ordinary
    /// capture, taking the last loses.
    #[test]
    fn dice_10x10_loses_with_the_last_king() {
        let p = WidePosition::new(WideVariant::Dice10x10);
        assert_eq!(
            p.fen(),
            "rnbqkkqbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKKQBNR w - - 0 1 -"
        );
        assert_eq!(p.rollable_faces(), [Face::Pawn, Face::Knight]);
        let ten = |fen: &str| WidePosition::from_fen(WideVariant::Dice10x10, fen).unwrap();
        assert!(
            WidePosition::from_fen(
                WideVariant::Dice10x10,
                "r3kk3r/10/10/10/10/10/10/10/10/R3KK3R w KQkq - 0 1 -"
            )
            .is_err()
        );
        let mut p = ten("4kk4/10/10/10/10/10/10/10/4r5/4KK4 b - - 0 1 4");
        p.play("e2e1").unwrap();
        assert_eq!(p.outcome(), None);
        assert_eq!(p.rollable_faces(), [Face::King]);
        p.set_roll(Face::King).unwrap();
        p.play("f1e1").unwrap();
        p.set_roll(Face::King).unwrap();
        let mut p = ten("4kk4/10/10/10/10/10/10/10/10/4r4K b - - 0 1 4");
        p.play("e1j1").unwrap();
        assert_eq!(
            p.outcome(),
            Some(Outcome::win(Color::Black, Termination::KingCaptured))
        );
        // Promotion on rank 10, double steps from rank 2 only.
        let p = ten("4kk4/P9/10/10/10/10/10/10/1P8/4KK4 w - - 0 1 1");
        assert_eq!(
            sorted_ucis(&p),
            ["a9a10b", "a9a10n", "a9a10q", "a9a10r", "b2b3", "b2b4"]
        );
    }
}
