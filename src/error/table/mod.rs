//! The error table: for every error of every layer, its gRPC code, stable reason, the request
//! field at fault, the client-facing message, the facts for ErrorInfo's metadata and the retry
//! delay, one row per error.
//!
//! Before, these lived in four parallel matches (code and reason, metadata, field, message)
//! that drifted apart; one row per error makes adding an error its variant in its layer's enum,
//! one arm in its layer's file here (`request`, `play`, `access`, `limits`, `streams`,
//! `store`: each matches its layer's enums exhaustively, so the compiler asks for the arm) and
//! its line in `contract.txt` (with an example in the tests), which the tests hold the table
//! to. Messages are lowercase, end with no period, and never carry an internal detail.

mod access;
mod limits;
mod play;
mod request;
mod store;
mod streams;

use std::borrow::Cow;
use std::time::Duration;

use tonic::Code;

use crate::error::ServiceError;

/// The layer whose concern an error is: the one that raises it, and whose docs explain it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// A request wrong in itself, whatever the game (decoding, ids, request ids).
    Request,
    /// The rules of play: the game's state refuses the action.
    Play,
    /// Credentials, and who may call or see what (`security::access`).
    Access,
    /// Rate limits and the bounds on games, watchers and streams.
    Limits,
    /// Where a watch stream or the feed resumes after it ended early.
    Streams,
    /// The game store: no such game, its seat tokens gone, unreachable, or a change not yet
    /// safe.
    Store,
    /// A fault inside the server, never shown.
    Internal,
}

/// Everything the wire says about one error.
#[derive(Debug)]
pub(super) struct Row {
    pub layer: Layer,
    pub code: Code,
    /// ErrorInfo's `reason`: clients match on it, so it never changes.
    pub reason: &'static str,
    /// The request field at fault, for a BadRequest detail.
    pub field: Option<&'static str>,
    pub message: Cow<'static, str>,
    /// ErrorInfo's metadata, so clients need not parse the message.
    pub metadata: Vec<(&'static str, String)>,
    /// RetryInfo's delay.
    pub retry_after: Option<Duration>,
}

/// A row with no field, metadata or retry delay; the builders below add them.
fn row(
    layer: Layer,
    code: Code,
    reason: &'static str,
    message: impl Into<Cow<'static, str>>,
) -> Row {
    Row {
        layer,
        code,
        reason,
        field: None,
        message: message.into(),
        metadata: Vec::new(),
        retry_after: None,
    }
}

impl Row {
    fn field(mut self, field: &'static str) -> Row {
        self.field = Some(field);
        self
    }

    fn meta(mut self, key: &'static str, value: impl ToString) -> Row {
        self.metadata.push((key, value.to_string()));
        self
    }

    fn retry(mut self, after: Duration) -> Row {
        self.retry_after = Some(after);
        self
    }
}

/// The one mapping from error to everything the client is told: each layer's error goes to
/// its layer's rows, whose match on that layer's enum is exhaustive, so a new variant fails to
/// compile until it has its row.
pub(super) fn row_of(error: &ServiceError) -> Row {
    use ServiceError as E;
    match error {
        E::Request(e) => request::row_of(e),
        E::Input(e) => request::input_row_of(e),
        E::Play(e) => play::row_of(e),
        E::Access(e) => access::row_of(e),
        E::Seat(e) => access::seat_row_of(e),
        E::Limit(e) => limits::row_of(e),
        E::Stream(e) => streams::row_of(e),
        E::Store(e) => store::row_of(e),
        // The cause is logged where the error is answered (`api::call::traced`), never sent.
        E::Internal(_) => row(
            Layer::Internal,
            Code::Internal,
            "INTERNAL",
            "internal error",
        ),
    }
}
