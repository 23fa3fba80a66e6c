//! `ServiceError`: every way a request can fail, as the sum of the layers' own errors, and its
//! one mapping to a gRPC `Status`.
//!
//! Each layer owns its errors where it raises them: `api::error` (the request), `game::error`
//! (the rules of play, the seats, the values the domain validates), `security::error` (access,
//! limits), `store` (streams, the store). Nothing below the API knows what the wire says about
//! them; `From` impls make each a `ServiceError` through `?`. What the client is told about
//! each (code, stable `reason`, the field at fault, message, ErrorInfo metadata, retry delay),
//! and the [`Layer`] whose concern it is, is one row of the table in `table`, one file per
//! layer matching its enums exhaustively; [`ServiceError::status`] turns the row into a status
//! with a `google.rpc.ErrorInfo` detail (domain [`ERROR_DOMAIN`]) and, for bad fields, a
//! `google.rpc.BadRequest` naming the field. `contract.txt` lists every error's code and
//! reason, and a test holds the table to it, so the contract cannot drift unnoticed.
//! Internal failures are logged with their cause and reach the client only as "internal error".

use core::fmt;
use std::collections::HashMap;

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use crate::api::error::RequestError;
use crate::game::error::{GameError, InputError, PlayError, SeatError};
use crate::game::token::EntropyError;
use crate::security::error::{AccessError, LimitError};
use crate::store::store_error::StoreError;
use crate::store::stream_error::StreamError;

mod table;

pub use table::Layer;

/// The `domain` of every ErrorInfo detail chessd sends.
pub const ERROR_DOMAIN: &str = "chessd";

/// Why a request failed: one layer's error, each raised by the layer whose concern it is.
pub enum ServiceError {
    /// A request wrong in itself, found by the API (`api::error`).
    Request(RequestError),
    /// A value the domain validates is wrong (`game::error`).
    Input(InputError),
    /// The rules of play refuse the action (`game::error`).
    Play(PlayError),
    /// The credential does not hold the seat the action needs (`game::error`).
    Seat(SeatError),
    /// Credentials, and who may call or see what (`security::error`).
    Access(AccessError),
    /// Rate limits and the bounds on games, watchers and streams (`security::error`).
    Limit(LimitError),
    /// A stream ended early, or cannot start where asked (`store::StreamError`).
    Stream(StreamError),
    /// The game store refuses or fails the call (`store::StoreError`).
    Store(StoreError),
    /// A fault inside the server (no randomness, a storage failure). Never shown to clients.
    Internal(Box<dyn std::error::Error + Send + Sync>),
}

impl ServiceError {
    /// The machine-readable reason sent in ErrorInfo (stable: clients match on it).
    #[must_use]
    pub fn reason(&self) -> &'static str {
        table::row_of(self).reason
    }

    /// The gRPC code.
    #[must_use]
    pub fn code(&self) -> Code {
        table::row_of(self).code
    }

    /// The layer whose concern the error is (see [`Layer`]).
    #[must_use]
    pub fn layer(&self) -> Layer {
        table::row_of(self).layer
    }

    /// The status sent to the client: code, message and details, all from the error's row.
    #[must_use]
    pub fn status(&self) -> Status {
        let row = table::row_of(self);
        let metadata: HashMap<String, String> = row
            .metadata
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        let mut details = ErrorDetails::with_error_info(row.reason, ERROR_DOMAIN, metadata);
        if let Some(field) = row.field {
            details.add_bad_request_violation(field, row.message.as_ref());
        }
        if let Some(delay) = row.retry_after {
            details.set_retry_info(Some(delay));
        }
        Status::with_error_details(row.code, row.message.into_owned(), details)
    }
}

impl fmt::Display for ServiceError {
    /// The client-facing message: lowercase, no final period, never an internal detail.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&table::row_of(self).message)
    }
}

impl fmt::Debug for ServiceError {
    /// The layer's error in its own form (`IllegalMove { .. }`, not `Play(IllegalMove { .. })`):
    /// logs keep naming errors as they always did.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServiceError::Request(e) => fmt::Debug::fmt(e, f),
            ServiceError::Input(e) => fmt::Debug::fmt(e, f),
            ServiceError::Play(e) => fmt::Debug::fmt(e, f),
            ServiceError::Seat(e) => fmt::Debug::fmt(e, f),
            ServiceError::Access(e) => fmt::Debug::fmt(e, f),
            ServiceError::Limit(e) => fmt::Debug::fmt(e, f),
            ServiceError::Stream(e) => fmt::Debug::fmt(e, f),
            ServiceError::Store(e) => fmt::Debug::fmt(e, f),
            ServiceError::Internal(e) => f.debug_tuple("Internal").field(e).finish(),
        }
    }
}

/// Each layer's error is a `ServiceError` as it is, so `?` carries it up unchanged.
macro_rules! from_layer {
    ($($layer:ident => $variant:ident),* $(,)?) => {
        $(impl From<$layer> for ServiceError {
            fn from(e: $layer) -> ServiceError {
                ServiceError::$variant(e)
            }
        })*
    };
}

from_layer! {
    RequestError => Request,
    InputError => Input,
    PlayError => Play,
    SeatError => Seat,
    AccessError => Access,
    LimitError => Limit,
    StreamError => Stream,
    StoreError => Store,
}

impl From<GameError> for ServiceError {
    fn from(e: GameError) -> ServiceError {
        match e {
            GameError::Play(e) => ServiceError::Play(e),
            GameError::Seat(e) => ServiceError::Seat(e),
            GameError::Input(e) => ServiceError::Input(e),
            GameError::Internal(e) => ServiceError::Internal(e),
        }
    }
}

impl From<EntropyError> for ServiceError {
    /// No randomness for seat tokens: the server cannot make a game safely.
    fn from(e: EntropyError) -> ServiceError {
        ServiceError::Internal(Box::new(e))
    }
}

impl From<ServiceError> for Status {
    fn from(e: ServiceError) -> Status {
        e.status()
    }
}

#[cfg(test)]
mod tests;
