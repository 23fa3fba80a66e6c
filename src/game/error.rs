//! The domain's errors: what a game refuses, in the domain's own terms and without a word of
//! gRPC.
//!
//! - [`PlayError`]: the rules of play refuse the action (moves, claims, draws, takebacks,
//!   clocks).
//! - [`SeatError`]: the credential presented does not hold the seat the action needs (checked
//!   here because seats, seat tokens and their holders are the domain's).
//! - [`InputError`]: a value the domain validates is out of range (labels, player ids, request
//!   ids, move text, clock amounts).
//! - [`GameError`]: any of these from one call (a record's action can fail each way), or a
//!   fault inside the server.
//!
//! The service's `ServiceError` takes each kind in as its own layer and gives it
//! its row of the error table; the domain never needs to know what the wire says about it.

use core::fmt;

use chessd_rules::{Color, DrawClaim};

/// The rules of play refuse the action: the game's state does not allow it now.
#[derive(Debug)]
pub enum PlayError {
    /// The move is not legal in the current position.
    IllegalMove { message: String },
    /// The SAN fits more than one legal move.
    AmbiguousMove { message: String },
    /// The caller's side is not the side to move.
    NotYourTurn { turn: Color },
    /// The game is already over.
    GameOver,
    /// The game was called off because its side to move did not make its first move within
    /// the first-move timer (`timeout`): a game that is over, saying why.
    NoFirstMove { timeout: std::time::Duration },
    /// The draw claim does not hold now.
    ClaimNotValid { claim: DrawClaim },
    /// Both sides have moved: too late to abort.
    AbortTooLate,
    /// ClaimVictory on the claimant's own turn: only a gone side to move can be claimed against.
    ClaimOnOwnTurn,
    /// ClaimVictory while the opponent (to move) watches the game.
    OpponentConnected { opponent: Color },
    /// ClaimVictory before the opponent has been gone for the game's grace period.
    ClaimTooEarly { claim_at: std::time::SystemTime },
    /// There is no draw offer to answer.
    NoDrawOffer,
    /// The game was created without takebacks (`CreateGame.takebacks`).
    TakebacksOff,
    /// The caller's side has no move of its own to take back.
    NothingToTakeBack,
    /// There is no takeback proposal to answer.
    NoTakebackProposal,
    /// The opponent's takeback proposal stands: it is answered first.
    TakebackPending { by: Color },
    /// A retried move request whose move was taken back since (a new request id plays it
    /// again).
    MoveTakenBack,
    /// `expected_ply` is not the game's ply.
    PlyMismatch { expected: u32, current: u32 },
    /// A clock action (AddTime, AdjustClock) on a game without clocks.
    GameUntimed,
    /// A move (or a claim, a takeback) before both seats' placements are final.
    SetupPending,
    /// A placement in a game without a setup phase, or (`revealed`) after its reveal.
    NoSetup { revealed: bool },
    /// A placement other than the seat's final one, which stands.
    SetupFinal,
    /// The seat has made as many placements as a game keeps (`setup::MAX_PLACEMENTS`).
    TooManyPlacements,
    /// A move (or a claim, a takeback) before the players' entropy is in: awaiting their
    /// commitments, or (`reveals`) their secrets.
    EntropyPending { reveals: bool },
    /// A commitment or secret in a game without the players' entropy, or (`done`) after both
    /// secrets are in.
    NoEntropyPhase { done: bool },
    /// A commitment or secret out of turn: another commitment than the seat's, which stands
    /// (`committed`), or a secret before both commitments are in.
    EntropyOutOfOrder { committed: bool },
}

/// The credential presented does not hold the seat the action needs.
#[derive(Debug)]
pub enum SeatError {
    /// The token is malformed or is neither seat's token of this game.
    InvalidToken,
    /// A player token of a player bound to neither seat of the game (or, on WatchGames, a
    /// `player_id` that is not the token's player).
    PlayerNotSeated,
    /// A valid seat token, but this action belongs to the other seat.
    WrongSeat { seat: Color, required: Color },
}

/// A value of the request that the domain validates is wrong, whatever the game's state.
#[derive(Debug)]
pub enum InputError {
    /// The move is neither UCI nor SAN.
    MalformedMove { text: String },
    /// Some other field is out of its documented range.
    InvalidField {
        field: &'static str,
        message: String,
    },
    /// The request id was used before for a different request.
    RequestIdReused,
    /// A setup placement that breaks the game's setup rules (the rule's reason).
    InvalidSetup { message: String },
    /// A commitment or secret that is not 64 hex digits, or a secret whose SHA-256 is not the
    /// seat's commitment.
    InvalidEntropy {
        field: &'static str,
        message: String,
    },
}

/// Why an action on a game failed: the kinds above, or a fault inside the server (no
/// randomness, a record that contradicts itself), which is logged and never shown.
pub enum GameError {
    Play(PlayError),
    Seat(SeatError),
    Input(InputError),
    Internal(Box<dyn std::error::Error + Send + Sync>),
}

impl fmt::Debug for GameError {
    /// The inner error's own form: logs and test failures name the error, not the wrapping.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Play(e) => fmt::Debug::fmt(e, f),
            GameError::Seat(e) => fmt::Debug::fmt(e, f),
            GameError::Input(e) => fmt::Debug::fmt(e, f),
            GameError::Internal(e) => f.debug_tuple("Internal").field(e).finish(),
        }
    }
}

impl From<PlayError> for GameError {
    fn from(e: PlayError) -> GameError {
        GameError::Play(e)
    }
}

impl From<SeatError> for GameError {
    fn from(e: SeatError) -> GameError {
        GameError::Seat(e)
    }
}

impl From<InputError> for GameError {
    fn from(e: InputError) -> GameError {
        GameError::Input(e)
    }
}
