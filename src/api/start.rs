//! A new game's start position, as CreateGame names it: a FEN, a numbered start of the games
//! drawn from numbered arrays (Chess960, Capablanca Random, Corner, Fortress), or the game's
//! own start. Where a game of those arrays or a shuffle (Massacre) names neither, its start
//! is drawn by the store from the game's seed (`game::chance::drawn_start`), so anyone can
//! check it once the seed is revealed and nobody, the creator included, could choose it.

use chessd_rules::any::{AnyPosition, AnyVariant};

use crate::api::fen;
use crate::error::ServiceError;
use crate::game::chance;
use crate::game::error::InputError;

/// The start a CreateGame asks for: `number` (its `chess960_start`) or `fen` (its
/// `start_fen`, empty for none), not both; and whether the store draws it (`true`: the
/// position is the variant's own start until then).
pub(crate) fn position(
    variant: AnyVariant,
    number: Option<u32>,
    fen: &str,
) -> Result<(AnyPosition, bool), ServiceError> {
    let fen_given = !fen.trim().is_empty();
    match (number, variant) {
        (Some(_), _) if fen_given => Err(InputError::InvalidField {
            field: "chess960_start",
            message: "give a start number or a start_fen, not both".into(),
        }
        .into()),
        (Some(n), v) => numbered(v, n).map(|p| (p, false)),
        (None, v) if fen_given && v.has_secret_setup() => Err(InputError::InvalidField {
            field: "start_fen",
            message: "the start of a game with a secret setup is its players' (SubmitSetup): give \
                      none"
                .into(),
        }
        .into()),
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
            Ok((pos, false))
        }
        (None, v) => Ok((AnyPosition::new(v), chance::draws_starts(v))),
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
