//! Whose eyes a game is shown through ([`Viewer`]), and what each sees of a game whose players
//! see only part of the board. `GAMES.md` on Dark Chess:
//!
//! > **What a seat receives**: the board with every non-visible square shown as `?` [...]; its
//! > own legal moves (which are real information, by design); its own castling rights; the
//! > en-passant square only if it can use it; its own moves in full and, for each opponent
//! > move, only that one was made and the clock times. It never receives the opponent's move
//! > text, the halfmove clock or the full FEN.
//! >
//! > **Spectators** see clocks and the number of moves during play; the full record and every
//! > board only when the game is over.
//!
//! Which viewer a caller is (a seat, a spectator, the platform behind an API key) is decided
//! by `security::access`; what that viewer sees is decided here, so every encoder (answers,
//! stream events, the feed, lists) asks one value and none decides it again.

use chessd_rules::Color;
use chessd_rules::any::{AnyPosition, AnyVariant};

/// The text shown for a move the viewer may not see, in place of both its notations.
pub const HIDDEN_MOVE: &str = "?";

/// What one caller sees of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// Everything: any game that hides nothing, any game once it is over, and every game to
    /// the platform (an API key holder).
    Whole,
    /// A seat of a hidden game in play: its own view of the board, its own moves, and that
    /// the opponent moved.
    Seat(Color),
    /// A spectator of a hidden game in play: whose turn it is, the number of moves, the
    /// clocks; no square and no move.
    Blind,
}

impl Viewer {
    /// How a caller sees a game that `hides` part of itself now or not (a hidden game's board
    /// in play, a setup's placements: `GameView::hides`): `platform` says the caller is an
    /// API key holder, `seat` the seat its credential holds (`None`: a spectator).
    #[must_use]
    pub fn of(hides: bool, platform: bool, seat: Option<Color>) -> Viewer {
        if platform || !hides {
            Viewer::Whole
        } else {
            seat.map_or(Viewer::Blind, Viewer::Seat)
        }
    }

    #[must_use]
    pub fn is_whole(self) -> bool {
        self == Viewer::Whole
    }

    /// Whether the viewer sees the text of a move `mover` played, and the legal moves of
    /// `mover` when it is to move.
    #[must_use]
    pub fn sees_moves_of(self, mover: Color) -> bool {
        match self {
            Viewer::Whole => true,
            Viewer::Seat(seat) => seat == mover,
            Viewer::Blind => false,
        }
    }

    /// The position as the viewer sees it, as FEN.
    #[must_use]
    pub fn fen(self, pos: &AnyPosition) -> String {
        match self {
            Viewer::Whole => pos.fen(),
            Viewer::Seat(seat) => pos.fen_seen_by(Some(seat)),
            Viewer::Blind => pos.fen_seen_by(None),
        }
    }

    /// As [`Viewer::fen`], for a position kept as its FEN (the feed's): a FEN that does not
    /// read back (never one the server wrote) shows nothing of the board rather than itself.
    #[must_use]
    pub fn fen_of_text(self, variant: AnyVariant, fen: &str) -> String {
        if self.is_whole() {
            return fen.to_owned();
        }
        let seat = match self {
            Viewer::Seat(seat) => Some(seat),
            _ => None,
        };
        match AnyPosition::from_fen(variant, fen) {
            Ok(pos) => pos.fen_seen_by(seat),
            Err(_) => AnyPosition::new(variant).fen_seen_by(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dark() -> AnyVariant {
        AnyVariant::by_key("dark").expect("the rules engine plays Dark Chess")
    }

    /// A game that hides nothing now and the platform's sight are whole; a hidden game in play
    /// is its seat's view, or nothing to a spectator.
    #[test]
    fn who_sees_what() {
        assert_eq!(Viewer::of(false, false, None), Viewer::Whole);
        assert_eq!(Viewer::of(true, true, None), Viewer::Whole);
        assert_eq!(
            Viewer::of(true, false, Some(Color::Black)),
            Viewer::Seat(Color::Black)
        );
        assert_eq!(Viewer::of(true, false, None), Viewer::Blind);
    }

    /// A seat sees its own moves, not its opponent's; a spectator sees none.
    #[test]
    fn moves_seen() {
        let white = Viewer::Seat(Color::White);
        assert!(white.sees_moves_of(Color::White));
        assert!(!white.sees_moves_of(Color::Black));
        assert!(!Viewer::Blind.sees_moves_of(Color::White));
        assert!(Viewer::Whole.sees_moves_of(Color::Black));
    }

    /// The start of Dark Chess as each viewer is shown it, from the position and from its FEN.
    #[test]
    fn the_start_seen() {
        let start = AnyPosition::new(dark());
        let white = "????????/????????/????????/????????/8/8/PPPPPPPP/RNBQKBNR w KQ -";
        assert_eq!(Viewer::Seat(Color::White).fen(&start), white);
        assert_eq!(Viewer::Whole.fen(&start), start.fen());
        let blind = Viewer::Blind.fen(&start);
        assert!(!blind.contains(|c: char| c.is_ascii_alphabetic() && c != 'w'));
        let text = start.fen();
        assert_eq!(Viewer::Seat(Color::White).fen_of_text(dark(), &text), white);
        assert_eq!(Viewer::Blind.fen_of_text(dark(), "not a fen"), blind);
        let chess = AnyPosition::new(AnyVariant::CHESS);
        assert_eq!(chess.fen_seen_by(None), chess.fen());
    }
}
