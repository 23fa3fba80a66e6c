//! The error table's rows for [`Layer::Access`]: credentials (seat tokens, player tokens, API
//! keys) and who may do or see what.

use tonic::Code;

use crate::error::table::{Layer, Row, row};
use crate::game::error::SeatError;
use crate::security::error::AccessError;

/// The rows of the errors `table::row_of` routes here.
pub(super) fn row_of(error: &AccessError) -> Row {
    use AccessError as E;
    use Code::{FailedPrecondition, PermissionDenied, Unauthenticated};
    match error {
        E::MissingToken => row(
            Layer::Access,
            Unauthenticated,
            "TOKEN_MISSING",
            "missing seat token: send metadata 'authorization: Bearer <token>'",
        ),
        E::InvalidPlayerToken => row(
            Layer::Access,
            Unauthenticated,
            "TOKEN_INVALID",
            "invalid player token: it is malformed, was never issued, or was revoked",
        ),
        E::TokenRevoked => row(
            Layer::Access,
            Unauthenticated,
            "TOKEN_REVOKED",
            "the player token was revoked",
        ),
        E::PlayerTokensDisabled => row(
            Layer::Access,
            FailedPrecondition,
            "PLAYER_TOKENS_DISABLED",
            "player tokens need API keys: this server runs without --api-key-file, so it issues and accepts none",
        ),
        E::ApiKeyMissing => row(
            Layer::Access,
            Unauthenticated,
            "API_KEY_MISSING",
            "missing API key: this call is for backends; send metadata 'x-api-key: <key>' (or 'authorization: Bearer <key>')",
        ),
        E::ApiKeyInvalid => row(
            Layer::Access,
            Unauthenticated,
            "API_KEY_INVALID",
            "invalid API key: it is not one of the server's keys",
        ),
        E::PageCreateRefused { field, message } => row(
            Layer::Access,
            PermissionDenied,
            "PAGE_CREATE_REFUSED",
            message.clone(),
        )
        .field(field)
        .meta("field", field),
        E::ReadCredentialsMissing => row(
            Layer::Access,
            Unauthenticated,
            "CREDENTIALS_MISSING",
            "this server keeps games private: send a seat token of this game ('authorization: Bearer <token>') or an API key ('x-api-key: <key>')",
        ),
        E::NotAPlayer => row(
            Layer::Access,
            PermissionDenied,
            "NOT_A_PLAYER",
            "this server keeps games private, and the seat token is not one of this game's",
        ),
        E::RecordHidden => row(
            Layer::Access,
            PermissionDenied,
            "RECORD_HIDDEN",
            "this game hides the board from its players and spectators: its record is shown once the game is over (or to an API key holder)",
        ),
    }
}

/// The rows of the seat checks the domain makes (`game::error::SeatError`): access errors too.
pub(super) fn seat_row_of(error: &SeatError) -> Row {
    use Code::{PermissionDenied, Unauthenticated};
    use SeatError as E;
    match error {
        E::InvalidToken => row(
            Layer::Access,
            Unauthenticated,
            "TOKEN_INVALID",
            "invalid seat token: it is neither seat's token of this game",
        ),
        E::PlayerNotSeated => row(
            Layer::Access,
            PermissionDenied,
            "PLAYER_NOT_SEATED",
            "the player token's player holds no seat in this game",
        ),
        E::WrongSeat { seat, required } => row(
            Layer::Access,
            PermissionDenied,
            "WRONG_SEAT",
            format!("this is {required}'s action, and the token is {seat}'s"),
        )
        .meta("seat", seat.name())
        .meta("required_seat", required.name()),
    }
}
