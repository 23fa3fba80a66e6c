//! The error table's rows for [`Layer::Request`]: requests wrong in themselves, whatever the
//! game (ids, fields, request ids, malformed bodies, unknown methods).

use tonic::Code;

use crate::api::error::RequestError;
use crate::error::table::{Layer, Row, row};
use crate::game::error::InputError;

/// The rows of the errors `table::row_of` routes here.
pub(super) fn row_of(error: &RequestError) -> Row {
    use Code::{InvalidArgument, Unimplemented};
    use RequestError as E;
    match error {
        E::InvalidGameId => row(
            Layer::Request,
            InvalidArgument,
            "INVALID_GAME_ID",
            "malformed game id: expected 13 characters of crockford base32",
        )
        .field("game_id"),
        E::InvalidVariant => row(
            Layer::Request,
            InvalidArgument,
            "INVALID_VARIANT",
            format!("unknown or unspecified variant: expected {}", variant_names()),
        )
        .field("variant"),
        E::InvalidFen { message } => {
            row(Layer::Request, InvalidArgument, "INVALID_FEN", format!("invalid fen: {message}")).field("fen")
        }
        E::InvalidPageToken => row(
            Layer::Request,
            InvalidArgument,
            "INVALID_PAGE_TOKEN",
            "malformed page token: pass next_page_token from a ListGames response",
        )
        .field("page_token"),
        E::MalformedRequest { detail } => row(
            Layer::Request,
            InvalidArgument,
            "MALFORMED_REQUEST",
            format!("malformed request: {detail}"),
        ),
        E::UnknownMethod { path } => row(
            Layer::Request,
            Unimplemented,
            "UNKNOWN_METHOD",
            format!(
                "unknown method {path:?}: this server serves chessd.v1.GameService, grpc.health.v1.Health and server reflection"
            ),
        )
        .meta("method", path),
    }
}

/// The rows of the values the domain validates (`game::error::InputError`): request errors
/// too.
pub(super) fn input_row_of(error: &InputError) -> Row {
    use Code::InvalidArgument;
    use InputError as E;
    match error {
        // A client that writes a draw of chance after its move (as the record does) is told
        // why that is never a player's to send.
        E::MalformedMove { text } if text.contains('~') => row(
            Layer::Request,
            InvalidArgument,
            "MALFORMED_MOVE",
            format!(
                "malformed move {text:?}: a draw of chance (~3, ~SE4) follows a move only in the \
                 record, and is the server's to make: send the move alone"
            ),
        )
        .field("move"),
        E::MalformedMove { text } => row(
            Layer::Request,
            InvalidArgument,
            "MALFORMED_MOVE",
            format!(
                "malformed move {text:?}: expected uci (e2e4, e7e8q) or the game's san (Nf3, \
                 exd5, O-O; shogi P-7f, xiangqi C2.5)"
            ),
        )
        .field("move"),
        E::InvalidField { field, message } => row(
            Layer::Request,
            InvalidArgument,
            "INVALID_FIELD",
            format!("invalid {field}: {message}"),
        )
        .field(field)
        .meta("field", field),
        E::RequestIdReused => row(
            Layer::Request,
            InvalidArgument,
            "REQUEST_ID_REUSED",
            "request_id was already used for a different request",
        )
        .field("request_id"),
        E::InvalidSetup { message } => row(
            Layer::Request,
            InvalidArgument,
            "INVALID_SETUP",
            format!("invalid placement: {message}"),
        )
        .field("placement"),
        E::InvalidEntropy { field, message } => row(
            Layer::Request,
            InvalidArgument,
            "INVALID_ENTROPY",
            format!("invalid {field}: {message}"),
        )
        .field(field),
    }
}

/// The wire names of every variant chessd plays, for INVALID_VARIANT's message: generated
/// from the protocol's enum, so a new variant can never be left out of it (the hand-written
/// list once named only chess and Racing Kings).
fn variant_names() -> String {
    use chessd_proto::wire::Variant;
    let names: Vec<&str> = (1..)
        .map_while(|n| Variant::try_from(n).ok())
        .map(|v| v.as_str_name())
        .collect();
    match names.split_last() {
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}
