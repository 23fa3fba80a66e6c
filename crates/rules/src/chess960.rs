//! `Chess960`: Fischer Random chess, as `../shared/RULES.md` specifies it:
//!
//! > White's back rank is shuffled: the bishops on squares of opposite colours, the king
//! > somewhere between the two rooks; Black mirrors it; pawns as usual. The 960 start positions
//! > are numbered 0 to 959 (Scharnagl numbering; 518 is the standard start). **Castling** keeps
//! > its idea: the king and the castling rook end on the standard squares (g1/f1 for the king
//! > side, c1/d1 for the queen side; g8/f8, c8/d8 for Black). It is legal when neither has
//! > moved, every square between the king and its destination and between the rook and its
//! > destination is empty except for those two pieces, the king is not in check and no square
//! > the king passes or lands on is attacked. Either piece may stay where it is (a king
//! > already on g1). **FEN**: castling rights as X-FEN (`KQkq` means the outermost rook on
//! > that side; a file letter, `Hh`/`Bb`, names any other) or Shredder-FEN (always file
//! > letters, `HFhf`); both are read, X-FEN is written. **UCI**: a castling move is written as
//! > the king taking its own rook (`e1h1`, `b1a1`), as UCI engines expect with
//! > `UCI_Chess960`; SAN is `O-O` / `O-O-O`.
//!
//! Everything else is standard chess: this type is [`Chess`](crate::Chess)'s rules with
//! Chess960 castling (`gen_castling` and `Core::play_unchecked` handle both castling modes).

use core::fmt;

use crate::chess::standard_rules;
use crate::core::{CastlingMode, Core};
use crate::rules::{core_accessors, start_position};
use crate::{
    Board, Color, File, PositionError, Rank, Role, Rules, Setup, Square, Variant, validate,
};

/// A validated Chess960 position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chess960 {
    core: Core,
}

/// A Chess960 start number outside 0-959.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidStartNumber(pub u32);

impl fmt::Display for InvalidStartNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "chess960 start number {} is not in 0-959", self.0)
    }
}

impl std::error::Error for InvalidStartNumber {}

/// Where the knights stand among the five squares left after the bishops and the queen, for
/// each value of the Scharnagl number's last digit.
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

impl Chess960 {
    /// White's back rank of start position `number` (Scharnagl numbering), a1 to h1.
    pub fn back_rank(number: u32) -> Result<[Role; 8], InvalidStartNumber> {
        if number > 959 {
            return Err(InvalidStartNumber(number));
        }
        let mut rank: [Option<Role>; 8] = [None; 8];
        let mut n = number as usize;
        // The light-squared bishop on b, d, f or h; the dark-squared one on a, c, e or g.
        rank[2 * (n % 4) + 1] = Some(Role::Bishop);
        n /= 4;
        rank[2 * (n % 4)] = Some(Role::Bishop);
        n /= 4;
        let mut free: Vec<usize> = (0..8).filter(|&i| rank[i].is_none()).collect();
        rank[free.remove(n % 6)] = Some(Role::Queen);
        n /= 6;
        let (a, b) = KNIGHTS[n];
        rank[free[a]] = Some(Role::Knight);
        rank[free[b]] = Some(Role::Knight);
        // Rook, king, rook on the three squares left, in order.
        let rest = (0..8).filter(|&i| rank[i].is_none()).collect::<Vec<_>>();
        for (i, role) in rest.into_iter().zip([Role::Rook, Role::King, Role::Rook]) {
            rank[i] = Some(role);
        }
        Ok(rank.map(|r| r.unwrap_or(Role::Pawn)))
    }

    /// Start position `number` (0-959; 518 is the standard arrangement), castling rights on
    /// both rooks of both sides.
    pub fn from_number(number: u32) -> Result<Chess960, InvalidStartNumber> {
        let back = Chess960::back_rank(number)?;
        let mut setup = Setup::empty();
        let mut board = Board::empty();
        for (file, role) in File::ALL.into_iter().zip(back) {
            board.set_piece_at(
                Square::from_coords(file, Rank::First),
                role.of(Color::White),
            );
            board.set_piece_at(
                Square::from_coords(file, Rank::Eighth),
                role.of(Color::Black),
            );
            board.set_piece_at(
                Square::from_coords(file, Rank::Second),
                Role::Pawn.of(Color::White),
            );
            board.set_piece_at(
                Square::from_coords(file, Rank::Seventh),
                Role::Pawn.of(Color::Black),
            );
            if role == Role::Rook {
                setup.castling_rights |= Square::from_coords(file, Rank::First);
                setup.castling_rights |= Square::from_coords(file, Rank::Eighth);
            }
        }
        setup.board = board;
        Ok(Chess960::from_setup(setup).expect("every numbered start is valid"))
    }

    /// The start number of this position if it is one of the 960 start positions (before the
    /// first move, both sides' castling rights intact).
    #[must_use]
    pub fn start_number(&self) -> Option<u32> {
        let board = &self.core.board;
        let white_rank = File::ALL.map(|file| {
            board
                .piece_at(Square::from_coords(file, Rank::First))
                .filter(|p| p.color == Color::White)
                .map(|p| p.role)
        });
        let number = (0..960)
            .find(|&n| Chess960::back_rank(n).ok().map(|r| r.map(Some)) == Some(white_rank))?;
        (Chess960::from_number(number).ok()? == *self).then_some(number)
    }
}

impl Rules for Chess960 {
    /// Always Chess960 castling, whatever `mode` says.
    fn from_setup_with(setup: Setup, _mode: CastlingMode) -> Result<Chess960, PositionError> {
        Ok(Chess960 {
            core: validate::standard(&setup, CastlingMode::Chess960)?,
        })
    }

    start_position!(Variant::Chess960);
    core_accessors!(play);
    standard_rules!();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{UciMove, san_plus};

    fn pos(fen: &str) -> Chess960 {
        Chess960::from_setup(fen.parse().unwrap()).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// Scharnagl numbering: 518 is the standard start, 0 is BBQNNRKR, every number is a valid
    /// start with the bishops on opposite colours and the king between the rooks.
    #[test]
    fn numbered_starts() {
        assert_eq!(
            Chess960::from_number(518).unwrap().fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert_eq!(
            Chess960::from_number(0).unwrap().fen(),
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
        );
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let back = Chess960::back_rank(n).unwrap();
            assert!(seen.insert(back), "{n} repeats a start");
            let at = |role| back.iter().position(|&r| r == role).unwrap();
            let rooks: Vec<usize> = (0..8).filter(|&i| back[i] == Role::Rook).collect();
            assert!(
                rooks[0] < at(Role::King) && at(Role::King) < rooks[1],
                "{n}"
            );
            let bishops: Vec<usize> = (0..8).filter(|&i| back[i] == Role::Bishop).collect();
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{n}");
        }
        assert_eq!(Chess960::from_number(960), Err(InvalidStartNumber(960)));
        assert_eq!(
            Chess960::from_number(518).unwrap().start_number(),
            Some(518)
        );
    }

    /// Castling is written king-takes-rook; the king may stay on its square, the rook may jump
    /// over it, and SAN is O-O / O-O-O.
    #[test]
    fn castling_as_king_takes_rook() {
        // King g1, rook h1: O-O moves only the rook.
        let p = pos("4k3/8/8/8/8/8/8/R5KR w HA - 0 1");
        let m = "g1h1".parse::<UciMove>().unwrap().to_move(&p).unwrap();
        assert!(m.is_castle());
        assert_eq!(san_plus(&p, m), "O-O");
        assert_eq!(p.play(m).unwrap().fen(), "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1");
        // O-O-O: king g1 to c1 over the squares the rook leaves, rook a1 to d1.
        let m = "g1a1".parse::<UciMove>().unwrap().to_move(&p).unwrap();
        assert_eq!(san_plus(&p, m), "O-O-O");
        assert_eq!(p.play(m).unwrap().fen(), "4k3/8/8/8/8/8/8/2KR3R b - - 1 1");
        // The king's destination is understood where it is unambiguous.
        let b = pos("1r2k3/8/8/8/8/8/8/1R2K3 w Bb - 0 1");
        let long = "e1c1".parse::<UciMove>().unwrap().to_move(&b).unwrap();
        assert_eq!(long.to_string(), "e1b1");
    }

    /// A square the king crosses may not be attacked, and the rook must not be blocked.
    #[test]
    fn castling_conditions() {
        // King b1 to g1 crosses c1-f1; the black rook on e8 attacks e1.
        let p = pos("4r1k1/8/8/8/8/8/8/1K5R w H - 0 1");
        assert!(!p.legal_moves().iter().any(|m| m.is_castle()));
        // A knight between the rook and its square d1.
        let p = pos("6k1/8/8/8/8/8/8/R1N1K3 w A - 0 1");
        assert!(!p.legal_moves().iter().any(|m| m.is_castle()));
        // The rook b1 going to d1 with the king on c1... the king goes to c1 already there.
        let p = pos("6k1/8/8/8/8/8/8/1RK5 w B - 0 1");
        let castles: Vec<String> = p
            .legal_moves()
            .iter()
            .filter(|m| m.is_castle())
            .map(ToString::to_string)
            .collect();
        assert_eq!(castles, ["c1b1"]);
        assert_eq!(
            p.play(
                p.legal_moves()
                    .iter()
                    .copied()
                    .find(|m| m.is_castle())
                    .unwrap()
            )
            .unwrap()
            .fen(),
            "6k1/8/8/8/8/8/8/2KR4 b - - 1 1"
        );
    }
}
