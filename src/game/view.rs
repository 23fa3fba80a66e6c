//! What the domain hands out: a game's full state ([`GameView`]), its summary in lists, the
//! answers to a creation and an action, and the result counts.

use std::sync::Arc;
use std::time::SystemTime;

use chessd_rules::{
    ByColor, Color, Outcome,
    any::{AnyGame, AnyMove, AnyPosition, AnyVariant},
};

use crate::game::action::Players;
use crate::game::chance::Seed;
use crate::game::clock::{ClockReading, TimeControl};
use crate::game::id::GameId;
use crate::game::labels::Labels;
use crate::game::start::StartRules;
use crate::game::takeback::TakebackPolicy;
use crate::game::token::SeatToken;

/// A new game and its secrets.
#[derive(Clone, Debug)]
pub struct Created {
    pub view: GameView,
    /// The seats' tokens, in clear: shown once, in the answer to CreateGame (`None`: a seat
    /// bound to a player, without a token of its own).
    pub tokens: ByColor<Option<SeatToken>>,
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum GameStatus {
    Ongoing = 0,
    /// Ended with a result.
    Finished = 1,
    /// Called off before both sides moved.
    Aborted = 2,
}

impl GameStatus {
    /// The status of a game with this outcome so far.
    #[must_use]
    pub fn of(outcome: Option<Outcome>) -> GameStatus {
        match outcome {
            None => GameStatus::Ongoing,
            Some(o) if o.termination.is_abort() => GameStatus::Aborted,
            Some(_) => GameStatus::Finished,
        }
    }
}

/// A game's full state, copied out of the store (rendering it needs no lock).
#[derive(Clone, Debug)]
pub struct GameView {
    pub id: GameId,
    pub players: Players,
    pub labels: Arc<Labels>,
    /// Start, moves, current position, outcome and draw rule.
    /// Shared with the store's record (see `GameRecord`), so a view costs no copy of the moves.
    pub game: Arc<AnyGame>,
    pub time_control: Option<TimeControl>,
    pub clocks: Option<ClockReading>,
    /// When the clocks start, and the first-move timer.
    pub start_rules: StartRules,
    /// While the first-move timer runs: when the game is called off without that move.
    pub first_move_deadline: Option<SystemTime>,
    /// The side whose draw offer stands.
    pub draw_offer: Option<Color>,
    pub takebacks: TakebackPolicy,
    /// The side whose takeback proposal stands.
    pub takeback_offer: Option<Color>,
    /// The seq of the game's latest event.
    pub last_seq: u64,
    pub created_at: SystemTime,
    /// How long the side to move must be gone before its opponent may claim.
    pub claim_after: std::time::Duration,
    /// When the side to move's turn began, as the claim rule counts it (see `presence`).
    pub turn_began: SystemTime,
    /// A game of chance: the commitment to its seed, and the seed once the game is over.
    pub chance: Option<ChanceView>,
    /// A game of a secret setup whose start has not been given (or that ended without one,
    /// or on the reveal): what each seat placed.
    pub setup: Option<SetupView>,
    /// A game with the players' entropy: its commitments and secrets (the secrets are shown
    /// only once both are in: `api::encode`).
    pub entropy: Option<crate::game::entropy::Entropy>,
    /// The delayed public view, in plies (0: none; see `game::delay`).
    pub public_delay: u16,
    /// This is that view: the game as it stood `public_delay` plies ago, shown to a spectator
    /// (no legal moves are listed).
    pub delayed: bool,
}

/// A setup phase as it stands: every viewer is shown only what it may see of it
/// (`api::encode`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupView {
    /// Each seat's latest placement (four FEN rows) and whether it is final.
    pub placements: ByColor<Option<(Box<str>, bool)>>,
    /// On the clocks: when each seat without a final placement runs out of time.
    pub deadlines: ByColor<Option<SystemTime>>,
}

/// What a game of chance shows of its seed (see `game::chance`).
#[derive(Clone, Debug)]
pub struct ChanceView {
    /// SHA-256 of the seed, published from creation on.
    pub commitment: [u8; 32],
    /// The seed, revealed once the game is over.
    pub seed: Option<Seed>,
}

impl GameView {
    #[must_use]
    pub fn status(&self) -> GameStatus {
        GameStatus::of(self.game.outcome())
    }

    /// Whether some of the game is hidden from some callers now: a hidden game's board in
    /// play, or a setup's placements before the reveal.
    #[must_use]
    pub fn hides(&self) -> bool {
        !self.game.is_over() && (self.game.variant().hides_board() || self.setup.is_some())
    }
}

/// A game as a list shows it.
#[derive(Clone, Debug)]
pub struct GameSummary {
    pub id: GameId,
    pub variant: AnyVariant,
    pub players: Players,
    pub labels: Arc<Labels>,
    pub outcome: Option<Outcome>,
    pub ply: u32,
    pub position: AnyPosition,
    pub created_at: SystemTime,
}

/// The answer to an action: the move it played, if any, and the game after it.
#[derive(Clone, Debug)]
pub struct Acted {
    pub played: Option<MoveInfo>,
    pub view: GameView,
}

/// Result counts for one variant; aborted games are not counted (they have no result).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantStats {
    pub variant: AnyVariant,
    pub white_wins: u64,
    pub black_wins: u64,
    pub draws: u64,
}

impl VariantStats {
    #[must_use]
    pub fn finished(&self) -> u64 {
        self.white_wins + self.black_wins + self.draws
    }
}

/// Result counts for every variant, chess first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    pub variants: Vec<VariantStats>,
}

/// A move as the game recorded it, with the seq of the event that announced it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveInfo {
    pub mv: AnyMove,
    /// SAN with its check or mate suffix.
    pub san: String,
    /// 1 for the first move of the game.
    pub ply: u32,
    pub color: Color,
    pub seq: u64,
}
