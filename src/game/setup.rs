//! The secret setup of Screen and Crazy Screen Chess as a game runs it: each seat's
//! placements in the order they came ([`Setup`]), what a step was ([`SetupStep`]), and the
//! board a game shows before its start exists. `GAMES.md`:
//!
//! > Each player, independently and without seeing the other's choice, places their own 16
//! > pieces on their own half [...]. A seat submits its half as four FEN rows, top to bottom.
//! > The server validates it and either refuses it with the reason or accepts it; it shows
//! > nothing to the opponent or to spectators. When both are in, both halves are revealed
//! > together and the game starts from the combined FEN with White to move.
//!
//! A seat may place as often as it likes (a draft) until it commits; a committed placement
//! is final. The rules engine checks a half and joins two (`chessd_rules::wide::screen_half`,
//! `screen_start`); the record (`record::setup`) runs the phase: its clocks, its log entries,
//! the reveal.
//!
//! Until the reveal a game has no position: its record holds [`placeholder`], the variant's
//! example start with Black to move, which no reveal can give (a revealed game starts with
//! White to move), so that every encoder can tell from a position alone that the board is
//! not to be shown, and shows [`setup_board`] instead.

use chessd_rules::any::{AnyGame, AnyPosition, AnyVariant};
use chessd_rules::wide::{
    ScreenHalf, ScreenSetupError, WideVariant, screen_decided_start, screen_half,
};
use chessd_rules::{ByColor, Color, Termination};
use tokio::time::Instant;

/// What one placement did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupStep {
    /// A placement the seat may still change.
    Draft,
    /// The seat's final placement; the opponent's is not final yet.
    Commit,
    /// The seat's final placement, the second: both halves are revealed and the game starts.
    Reveal,
}

impl SetupStep {
    /// Whether the placement is final.
    #[must_use]
    pub fn is_final(self) -> bool {
        self != SetupStep::Draft
    }

    /// The stored name.
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            SetupStep::Draft => "draft",
            SetupStep::Commit => "commit",
            SetupStep::Reveal => "reveal",
        }
    }

    /// From its stored name.
    #[must_use]
    pub fn from_key(key: &str) -> Option<SetupStep> {
        match key {
            "draft" => Some(SetupStep::Draft),
            "commit" => Some(SetupStep::Commit),
            "reveal" => Some(SetupStep::Reveal),
            _ => None,
        }
    }
}

/// Every placement of a game's setup, in the order they came (one per setup entry of the
/// log), with the side that made it. Kept for the game's life: the stored rows and a packed
/// finished game write each placement out again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    placements: Vec<(Color, SetupStep, ScreenHalf)>,
    /// When the setup's time began on the clocks (monotonic), if it is on them.
    began: Option<Instant>,
}

/// Why a placement was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum PlaceError {
    /// The half breaks the game's setup rules.
    Invalid(ScreenSetupError),
    /// The seat's placement is final; `same` says whether this one is the same placement
    /// (a retry, answered as the first was).
    Final { same: bool },
    /// Both placements are in: the setup is over.
    Over,
    /// The seat has made [`MAX_PLACEMENTS`] already: each is kept for the game's life.
    TooMany,
}

/// The most placements one seat may make, drafts and its final one: every placement is kept
/// (the game's record writes each out again), so a seat cannot grow its game without bound.
pub(crate) const MAX_PLACEMENTS: usize = 32;

impl Setup {
    /// A setup with nothing placed, its time on the clocks from `began`.
    #[must_use]
    pub fn new(began: Option<Instant>) -> Setup {
        Setup {
            began,
            ..Setup::default()
        }
    }

    /// When the setup's time began on the clocks.
    #[must_use]
    pub fn began(&self) -> Option<Instant> {
        self.began
    }

    /// The latest placement of `seat` and whether it is final.
    #[must_use]
    pub fn latest(&self, seat: Color) -> Option<(&ScreenHalf, bool)> {
        self.placements
            .iter()
            .rev()
            .find(|(c, ..)| *c == seat)
            .map(|(_, step, half)| (half, step.is_final()))
    }

    /// Whether `seat`'s placement is final.
    #[must_use]
    pub fn is_final(&self, seat: Color) -> bool {
        self.latest(seat).is_some_and(|(_, done)| done)
    }

    /// Whether both placements are final: the game has its start.
    #[must_use]
    pub fn revealed(&self) -> bool {
        Color::ALL.into_iter().all(|c| self.is_final(c))
    }

    /// The `index`th placement (0-based, in the log's order of setup entries).
    #[must_use]
    pub fn placement(&self, index: usize) -> Option<&(Color, SetupStep, ScreenHalf)> {
        self.placements.get(index)
    }

    /// Checks `seat`'s placement `text` in `variant`, and keeps it (final with `commit`); the
    /// step it made. Nothing changes when it is refused.
    pub fn place(
        &mut self,
        variant: WideVariant,
        seat: Color,
        text: &str,
        commit: bool,
    ) -> Result<SetupStep, PlaceError> {
        if self.revealed() {
            return Err(PlaceError::Over);
        }
        let half = screen_half(variant, seat, text).map_err(PlaceError::Invalid)?;
        if let Some((kept, true)) = self.latest(seat) {
            return Err(PlaceError::Final {
                same: *kept == half && commit,
            });
        }
        if self.placements.iter().filter(|(c, ..)| *c == seat).count() >= MAX_PLACEMENTS {
            return Err(PlaceError::TooMany);
        }
        let step = match (commit, self.is_final(!seat)) {
            (false, _) => SetupStep::Draft,
            (true, false) => SetupStep::Commit,
            (true, true) => SetupStep::Reveal,
        };
        self.placements.push((seat, step, half));
        Ok(step)
    }

    /// Both final halves, White's first, once revealed.
    #[must_use]
    pub fn halves(&self) -> Option<ByColor<ScreenHalf>> {
        let white = self.latest(Color::White).filter(|(_, f)| *f)?.0;
        let black = self.latest(Color::Black).filter(|(_, f)| *f)?.0;
        Some(ByColor::new(*white, *black))
    }

    /// Bytes on the heap.
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        self.placements.capacity() * size_of::<(Color, SetupStep, ScreenHalf)>()
    }
}

/// The wide variant of a game with a secret setup (`None` for every other game).
#[must_use]
pub(crate) fn setup_variant(variant: AnyVariant) -> Option<WideVariant> {
    match variant {
        AnyVariant::Wide(v) if variant.has_secret_setup() => Some(v),
        _ => None,
    }
}

/// What a game of `variant` holds until its start exists: the variant's example start with
/// Black to move.
#[must_use]
pub(crate) fn placeholder(variant: AnyVariant) -> AnyPosition {
    let fen = variant.start_fen().replacen(" w ", " b ", 1);
    // The variant's own start with the other side to move: a constant of the rules engine.
    AnyPosition::from_fen(variant, &fen).unwrap_or_else(|_| AnyPosition::new(variant))
}

/// Whether `pos` is a setup's placeholder: the game has no start yet (or never got one). No
/// game reaches it: its counters say no move was played, and Black is to move.
#[must_use]
pub(crate) fn awaiting_setup(pos: &AnyPosition) -> bool {
    let variant = pos.variant();
    variant.has_secret_setup() && pos.turn() == Color::Black && *pos == placeholder(variant)
}

/// A position stored as its FEN, read back: any position a game can hold, including the
/// board of a reveal that decided its game at once, which no FEN reader accepts (Black's
/// king attacked with White to move).
pub(crate) fn position_from_fen(
    variant: AnyVariant,
    fen: &str,
) -> Result<AnyPosition, chessd_rules::any::AnyFenError> {
    AnyPosition::from_fen(variant, fen).or_else(|e| {
        setup_variant(variant)
            .and_then(|v| screen_decided_start(v, fen))
            .map(AnyPosition::from)
            .ok_or(e)
    })
}

/// Whether a game of a secret setup was decided by its reveal (Black's king attacked: White
/// wins before any move), so that it never had a start to play from.
#[must_use]
pub(crate) fn decided_at_reveal(game: &AnyGame) -> bool {
    game.ply() == 0
        && game.variant().has_secret_setup()
        && game.outcome().is_some_and(|o| {
            o.termination == Termination::KingCaptured && o.winner == Some(Color::White)
        })
}

/// The board of a setup as FEN, with the halves given (`None`: that half is empty), White to
/// move, as a seat sees its own placement and the platform sees both.
#[must_use]
pub(crate) fn setup_board(halves: ByColor<Option<&ScreenHalf>>) -> String {
    let half = |c: Color| halves[c].map_or_else(|| "8/8/8/8".to_owned(), ToString::to_string);
    format!("{}/{} w - - 0 1", half(Color::Black), half(Color::White))
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHITE: &str = "2P2P2/P2PP2P/1P4P1/RNBQKBNR";
    const BLACK: &str = "rn1qk1nr/1b1pp1b1/p1p2p1p/1p4p1";

    /// A seat may change its placement until it commits; the second commit reveals.
    #[test]
    fn drafts_then_commits_then_the_reveal() {
        let v = WideVariant::Screen;
        let mut s = Setup::default();
        assert_eq!(s.place(v, Color::White, WHITE, false), Ok(SetupStep::Draft));
        assert_eq!(s.place(v, Color::White, WHITE, true), Ok(SetupStep::Commit));
        assert!(s.is_final(Color::White) && !s.revealed());
        assert_eq!(s.place(v, Color::Black, BLACK, false), Ok(SetupStep::Draft));
        assert_eq!(s.place(v, Color::Black, BLACK, true), Ok(SetupStep::Reveal));
        assert!(s.revealed());
        assert_eq!(s.halves().unwrap()[Color::Black].to_string(), BLACK);
        assert_eq!(s.place(v, Color::Black, BLACK, true), Err(PlaceError::Over));
    }

    /// A final placement stays: the same one again is a retry, another is refused.
    #[test]
    fn a_final_placement_is_final() {
        let v = WideVariant::CrazyScreen;
        let mut s = Setup::default();
        s.place(v, Color::White, WHITE, true).unwrap();
        assert_eq!(
            s.place(v, Color::White, WHITE, true),
            Err(PlaceError::Final { same: true })
        );
        assert_eq!(
            s.place(v, Color::White, "P1P2P2/3PP2P/1P4P1/RNBQKBNR", true),
            Err(PlaceError::Final { same: false })
        );
    }

    /// A seat's placements are bounded, drafts and final alike; the other seat's are its own.
    #[test]
    fn placements_are_bounded() {
        let v = WideVariant::Screen;
        let mut s = Setup::default();
        for _ in 0..MAX_PLACEMENTS {
            s.place(v, Color::White, WHITE, false).unwrap();
        }
        assert_eq!(
            s.place(v, Color::White, WHITE, true),
            Err(PlaceError::TooMany)
        );
        assert_eq!(s.place(v, Color::Black, BLACK, false), Ok(SetupStep::Draft));
    }

    /// A half that breaks the rules is refused with the rule's reason, and kept nowhere.
    #[test]
    fn a_bad_half_is_refused() {
        let mut s = Setup::default();
        let e = s.place(
            WideVariant::Screen,
            Color::White,
            "8/8/PPPPPPPP/RNBQKBNR/",
            false,
        );
        assert!(matches!(e, Err(PlaceError::Invalid(_))), "{e:?}");
        assert!(s.latest(Color::White).is_none());
    }

    /// The placeholder has Black to move, which no reveal has; the setup board shows only
    /// the halves given.
    #[test]
    fn the_board_before_the_start() {
        let v = AnyVariant::Wide(WideVariant::Screen);
        let p = placeholder(v);
        assert!(awaiting_setup(&p));
        assert!(!awaiting_setup(&AnyPosition::new(v)));
        assert!(!awaiting_setup(&AnyPosition::new(AnyVariant::CHESS)));
        // The example start with Black to move, reached in play: its counters differ.
        let reached =
            AnyPosition::from_fen(v, &v.start_fen().replacen(" w - - 0 1", " b - - 5 3", 1));
        assert!(!awaiting_setup(&reached.unwrap()));
        let white = screen_half(WideVariant::Screen, Color::White, WHITE).unwrap();
        assert_eq!(
            setup_board(ByColor::new(Some(&white), None)),
            format!("8/8/8/8/{WHITE} w - - 0 1")
        );
        assert_eq!(
            setup_board(ByColor::new(None, None)),
            "8/8/8/8/8/8/8/8 w - - 0 1"
        );
    }

    /// What a store keeps as FEN reads back, a start that decided its game included; a FEN
    /// no game can hold is still refused.
    #[test]
    fn stored_positions_read_back() {
        let v = AnyVariant::Wide(WideVariant::CrazyScreen);
        let decided = "rnbqkbnr/ppp1pppp/8/3p4/Q7/PPPPPPPP/8/RNB1KBNR w - - 0 1";
        assert_eq!(position_from_fen(v, decided).unwrap().fen(), decided);
        let start = v.start_fen();
        assert_eq!(position_from_fen(v, start).unwrap().fen(), start);
        assert!(position_from_fen(v, "rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w - - 0 1 x").is_err());
        assert!(position_from_fen(AnyVariant::CHESS, decided).is_err());
    }
}
