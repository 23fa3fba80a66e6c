//! A position a request gives as FEN (CreateGame's start, AnalyzePosition's position):
//! bounded in length, then read and validated for its game, refused with `INVALID_FEN` and
//! what was wrong.

use chessd_rules::any::{AnyPosition, AnyVariant};

use crate::api::error::RequestError;
use crate::error::ServiceError;

/// The longest FEN accepted. The longest legal FEN of any game chessd plays is under 130
/// bytes (Grand Chess: ten ranks of up to ten characters, and the move counters).
pub const MAX_FEN_LEN: usize = 160;

/// A position of `variant` from FEN.
pub fn position(variant: AnyVariant, fen: &str) -> Result<AnyPosition, ServiceError> {
    let fen = fen.trim();
    if fen.is_empty() {
        return Err(RequestError::InvalidFen {
            message: "empty".into(),
        }
        .into());
    }
    if fen.len() > MAX_FEN_LEN {
        return Err(RequestError::InvalidFen {
            message: format!("longer than {MAX_FEN_LEN} bytes"),
        }
        .into());
    }
    AnyPosition::from_fen(variant, fen).map_err(|e| {
        ServiceError::Request(RequestError::InvalidFen {
            message: e.to_string(),
        })
    })
}
