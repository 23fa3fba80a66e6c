//! What clients ask of a game, validated: a new game ([`NewGame`]) and a seat's [`Action`].

use chessd_rules::{ByColor, Color, DrawClaim, DrawRule, San, UciMove, WideText, any::AnyPosition};

use crate::game::clock::TimeControl;
use crate::game::error::InputError;
use crate::game::labels::Labels;
use crate::game::player::PlayerId;
use crate::game::presence::SeatPresence;
use crate::game::start::StartRules;
use crate::game::takeback::TakebackPolicy;

/// Who plays: the display names (or ids) as given at creation, and the platform player ids
/// bound to the seats, whose player tokens act for them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Players {
    // Boxed, not `String`s: every game a server holds keeps its players, and names never grow.
    pub white: Box<str>,
    pub black: Box<str>,
    /// The player bound to each seat, if any.
    pub ids: ByColor<Option<PlayerId>>,
}

impl Players {
    /// The seat `player` is bound to (never both: CreateGame refuses one player on both).
    #[must_use]
    pub fn seat_of(&self, player: &PlayerId) -> Option<Color> {
        [Color::White, Color::Black]
            .into_iter()
            .find(|&c| self.ids[c].as_ref() == Some(player))
    }

    /// The players bound to a seat, White's first.
    pub fn bound(&self) -> impl Iterator<Item = &PlayerId> {
        [self.ids.white(), self.ids.black()].into_iter().flatten()
    }

    /// Whether `player` is bound to either seat.
    #[must_use]
    pub fn has(&self, player: &PlayerId) -> bool {
        self.seat_of(player).is_some()
    }
}

/// A client's idempotency key: 1 to 128 printable ASCII characters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RequestId(String);

impl RequestId {
    /// The longest request id accepted.
    pub const MAX_LEN: usize = 128;

    /// Validates a request id; `None` for the empty string (no id).
    pub fn parse(text: &str) -> Result<Option<RequestId>, InputError> {
        if text.is_empty() {
            return Ok(None);
        }
        if text.len() > RequestId::MAX_LEN || !text.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(InputError::InvalidField {
                field: "request_id",
                message: format!(
                    "expected 1 to {} printable ascii characters",
                    RequestId::MAX_LEN
                ),
            });
        }
        Ok(Some(RequestId(text.to_owned())))
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What CreateGame asks for, validated.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The start position (not already decided); with `draw_start`, the variant's own start,
    /// which the request asked for, until the store draws the start from the game's seed.
    pub start: AnyPosition,
    /// The start is drawn from the game's seed at creation (`game::chance::drawn_start`): a
    /// game of random setups (Chess960, Capablanca Random, Corner, Fortress, Massacre) created
    /// with neither a start number nor a FEN.
    pub draw_start: bool,
    pub time_control: Option<TimeControl>,
    /// When the clocks start and the first-move timer (resolved: defaults applied).
    pub start_rules: StartRules,
    pub players: Players,
    pub draw_rule: DrawRule,
    pub request_id: Option<RequestId>,
    pub labels: Labels,
    pub takebacks: TakebackPolicy,
    /// Which seats get a seat token: every seat not bound to a player, and bound seats too
    /// when the request asked for it.
    pub seat_tokens: ByColor<bool>,
    /// How long the side to move must be gone before its opponent may claim (resolved: the
    /// default of the time control when the request named none).
    pub claim_after: std::time::Duration,
    /// The delayed public view, in plies (0: none; see `game::delay`).
    pub public_delay: u16,
    /// The players add their own entropy to the seed before the first move (`game::entropy`;
    /// validated: only in a game that draws during play).
    pub player_entropy: bool,
}

/// A move the text of a SubmitMove names, parsed but not yet matched against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveText {
    Uci(UciMove),
    /// SAN, and the text as typed: another family's game reads the text itself, and SAN's
    /// own rendering drops what the 8x8 notation ignores (`b2h8+`, a shogi promotion, reads
    /// as SAN with a check mark and prints without it).
    San(San, WideText),
    /// Neither 8x8 form, but written like another family's move (`a10a9`, `Ca10`, `P*5e`,
    /// `C2.5`): read by the game it is played in.
    Other(WideText),
}

impl std::fmt::Display for MoveText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveText::Uci(uci) => uci.fmt(f),
            MoveText::San(_, typed) => typed.fmt(f),
            MoveText::Other(text) => text.fmt(f),
        }
    }
}

/// A seat's action on a game.
#[derive(Clone, Debug)]
pub enum Action {
    Move {
        text: MoveText,
        expected_ply: Option<u32>,
        request_id: Option<RequestId>,
        offer_draw: bool,
    },
    Resign,
    OfferDraw,
    RespondToDraw {
        accept: bool,
    },
    ClaimDraw(DrawClaim),
    Abort,
    /// The seat gives its opponent time (validated: more than zero, bounded).
    AddTime {
        amount: std::time::Duration,
    },
    /// An arbiter changes one side's clock: only with `Holder::Arbiter` of that side.
    AdjustClock(ClockAdjust),
    /// Take back the seat's last move (see `takeback` for what that is).
    ProposeTakeback,
    RespondToTakeback {
        accept: bool,
    },
    /// Withdraw the seat's own standing takeback proposal.
    WithdrawTakeback,
    /// The opponent left: claim the win (or a draw). `presence` is both seats' presence as
    /// the server read it just before.
    ClaimVictory {
        draw: bool,
        presence: ByColor<SeatPresence>,
    },
    /// Places the seat's army behind the screen (Screen and Crazy Screen Chess): four FEN
    /// rows of its half, top to bottom; final with `commit`.
    Setup {
        placement: String,
        commit: bool,
    },
    /// The seat's commitment (the SHA-256 of its secret) or, with `reveal`, its secret, in a
    /// game with the players' entropy (`game::entropy`).
    Entropy {
        reveal: bool,
        value: crate::game::entropy::EntropyValue,
    },
}

/// An arbiter's change of a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockAdjust {
    /// The new time left.
    Set(std::time::Duration),
    Add(std::time::Duration),
    /// Time taken off (the clock stops at zero).
    Subtract(std::time::Duration),
}

impl Action {
    /// The request id of a move (the only action that carries one).
    #[must_use]
    pub fn request_id(&self) -> Option<&RequestId> {
        match self {
            Action::Move { request_id, .. } => request_id.as_ref(),
            _ => None,
        }
    }
}
