//! What clients ask of a game, validated: a new game ([`NewGame`]) and a seat's [`Action`].

use chessd_rules::{DrawClaim, DrawRule, Position, San, UciMove};

use crate::error::ServiceError;
use crate::game::clock::TimeControl;

/// The players' display names or ids, as given at creation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Players {
    pub white: String,
    pub black: String,
}

/// A client's idempotency key: 1 to 128 printable ASCII characters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RequestId(String);

impl RequestId {
    /// The longest request id accepted.
    pub const MAX_LEN: usize = 128;

    /// Validates a request id; `None` for the empty string (no id).
    pub fn parse(text: &str) -> Result<Option<RequestId>, ServiceError> {
        if text.is_empty() {
            return Ok(None);
        }
        if text.len() > RequestId::MAX_LEN || !text.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(ServiceError::InvalidField {
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
    /// The start position (not already decided).
    pub start: Position,
    pub time_control: Option<TimeControl>,
    pub players: Players,
    pub draw_rule: DrawRule,
    pub request_id: Option<RequestId>,
}

/// A move the text of a SubmitMove names, parsed but not yet matched against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveText {
    Uci(UciMove),
    San(San),
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
