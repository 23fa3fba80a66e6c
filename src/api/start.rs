//! A new game's start position, as CreateGame names it: a FEN, a numbered start of the games
//! drawn from numbered arrays (Chess960, Capablanca Random, Corner, Fortress), a random one
//! of those, a shuffle (Massacre), or the game's own start. A random draw comes from the
//! request id when there is one, so a retry asks for (and is answered with) the same game.

use chessd_rules::any::{AnyPosition, AnyVariant};
use sha2::{Digest, Sha256};

use crate::api::fen;
use crate::error::ServiceError;
use crate::game::RequestId;
use crate::game::error::InputError;

/// The start a CreateGame asks for: `number` (its `chess960_start`) or `fen` (its
/// `start_fen`, empty for none), not both.
pub(crate) fn position(
    variant: AnyVariant,
    number: Option<u32>,
    fen: &str,
    request_id: Option<&RequestId>,
) -> Result<AnyPosition, ServiceError> {
    let fen_given = !fen.trim().is_empty();
    match (number, variant) {
        (Some(_), _) if fen_given => Err(InputError::InvalidField {
            field: "chess960_start",
            message: "give a start number or a start_fen, not both".into(),
        }
        .into()),
        (Some(n), v) => numbered(v, n),
        (None, _) if fen_given => {
            let pos = fen::position(variant, fen)?;
            // A draw is the server's, the first like every later one (docs/fairness.md): a
            // start names none, and waits for none but Dice Chess's first roll.
            let refuse = |message: &str| {
                Err(ServiceError::from(InputError::InvalidField {
                    field: "start_fen",
                    message: message.into(),
                }))
            };
            if pos.wide().and_then(|p| p.roll()).is_some() {
                return refuse(
                    "the die is the server's to roll: give the FEN's seventh field as -",
                );
            }
            if pos.wide().is_some_and(|p| p.awaits_step()) {
                return refuse(
                    "the Behemoth's step is the server's to draw: give the FEN without a seventh \
                     field",
                );
            }
            Ok(pos)
        }
        (None, v) => match AnyPosition::numbered_starts(v) {
            Some(count) => numbered(v, random_below(request_id, count)?),
            None => {
                let mut seed = u64::from(random_below(request_id, u32::MAX)?);
                // SplitMix64 from the seed: the same deal for a retry with the same id.
                let draw = |n: usize| {
                    seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
                    let mut z = seed;
                    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                    ((z ^ (z >> 31)) % n as u64) as usize
                };
                Ok(AnyPosition::shuffled(v, draw).unwrap_or_else(|| AnyPosition::new(v)))
            }
        },
    }
}

/// The start numbered `number` of a game drawn from numbered arrays (Chess960 0 to 959,
/// Capablanca Random 0 to 21,835, Corner and Fortress 0 to 359).
fn numbered(variant: AnyVariant, number: u32) -> Result<AnyPosition, ServiceError> {
    let refuse = |message: String| {
        ServiceError::Input(InputError::InvalidField {
            field: "chess960_start",
            message,
        })
    };
    let Some(count) = AnyPosition::numbered_starts(variant) else {
        return Err(refuse(format!(
            "{variant} has one start: a start number is for Chess960, Capablanca Random, \
             Corner and Fortress"
        )));
    };
    AnyPosition::numbered(variant, number).ok_or_else(|| {
        refuse(format!(
            "expected a start number from 0 to {} for {variant}, got {number}",
            count - 1
        ))
    })
}

/// A start number below `count` for a game created without one: random, except that a
/// request with a request id always draws the same one from it, so a retry asks for the same
/// game (and is answered with it, not refused as a different request).
fn random_below(request_id: Option<&RequestId>, count: u32) -> Result<u32, ServiceError> {
    let n = match request_id {
        Some(rid) => {
            let digest = Sha256::digest(rid.as_str().as_bytes());
            u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]])
        }
        None => getrandom::u32().map_err(|e| ServiceError::Internal(Box::new(e)))?,
    };
    Ok(n % count)
}
