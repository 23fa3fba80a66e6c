//! A game's identity by its stable string key (`variant_key`), both ways: the key every game
//! message carries, and the variant a request (CreateGame, AnalyzePosition) or a filter
//! (ListGames, WatchGames) names by key, by `Variant` number, or by both when they agree.
//!
//! The key is exactly [`rules::Variant::key`], the name chessd already prints on its command
//! line, in logs and in metrics. Only those keys are accepted, not the aliases the command
//! line reads (`3check`, `kingOfTheHill`): one spelling per game keeps the key usable as an
//! identifier when there are forty games rather than nine.

use chessd_rules as rules;

use crate::api::error::RequestError;
use crate::api::fields::echo;
use crate::error::ServiceError;
use crate::game::error::InputError;
use crate::game::served::{not_served, served};
use chessd_proto::wire as pb;

/// A required variant.
pub fn variant(value: i32) -> Result<rules::any::AnyVariant, ServiceError> {
    variant_filter(value)?.ok_or(ServiceError::Request(RequestError::InvalidVariant))
}

/// A variant filter: unspecified means any.
pub fn variant_filter(value: i32) -> Result<Option<rules::any::AnyVariant>, ServiceError> {
    match pb::Variant::try_from(value) {
        Ok(pb::Variant::Unspecified) => Ok(None),
        Ok(pb::Variant::Chess) => Ok(Some(rules::any::AnyVariant::CHESS)),
        Ok(pb::Variant::RacingKings) => Ok(Some(rules::any::AnyVariant::Std(
            rules::Variant::RacingKings,
        ))),
        Ok(pb::Variant::Chess960) => {
            Ok(Some(rules::any::AnyVariant::Std(rules::Variant::Chess960)))
        }
        Ok(pb::Variant::ThreeCheck) => Ok(Some(rules::any::AnyVariant::Std(
            rules::Variant::ThreeCheck,
        ))),
        Ok(pb::Variant::KingOfTheHill) => Ok(Some(rules::any::AnyVariant::Std(
            rules::Variant::KingOfTheHill,
        ))),
        Ok(pb::Variant::Antichess) => {
            Ok(Some(rules::any::AnyVariant::Std(rules::Variant::Antichess)))
        }
        Ok(pb::Variant::Atomic) => Ok(Some(rules::any::AnyVariant::Std(rules::Variant::Atomic))),
        Ok(pb::Variant::Horde) => Ok(Some(rules::any::AnyVariant::Std(rules::Variant::Horde))),
        Ok(pb::Variant::Crazyhouse) => Ok(Some(rules::any::AnyVariant::Std(
            rules::Variant::Crazyhouse,
        ))),
        Err(_) => Err(ServiceError::Request(RequestError::InvalidVariant)),
    }
}

/// The request field a key arrives in, as refusals name it.
const FIELD: &str = "variant_key";

/// The variant's stable key, as every game message carries it.
#[must_use]
pub fn key(variant: rules::any::AnyVariant) -> String {
    variant.key().to_owned()
}

/// The variant named by exactly this key.
fn by_key(key: &str) -> Option<rules::any::AnyVariant> {
    rules::any::AnyVariant::all().find(|v| v.key() == key)
}

/// The variant a request names with its `variant` number and its `variant_key`: either one
/// alone, or both when they name the same game. Without a key this is [`variant`],
/// unchanged.
pub fn requested(number: i32, key: &str) -> Result<rules::any::AnyVariant, ServiceError> {
    if key.is_empty() {
        return variant(number);
    }
    named(number, key)
}

/// A variant filter by number, key or both (agreeing); neither means any variant, as
/// [`variant_filter`] reads an unspecified number.
pub fn filter(variant: i32, key: &str) -> Result<Option<rules::any::AnyVariant>, ServiceError> {
    if key.is_empty() {
        return variant_filter(variant);
    }
    named(variant, key).map(Some)
}

/// The variant `key` (not empty) names, if `variant` is unspecified or names it too.
fn named(variant: i32, key: &str) -> Result<rules::any::AnyVariant, ServiceError> {
    let Some(by_key) = by_key(key) else {
        let known: Vec<&str> = served().map(|v| v.key()).collect();
        let shown = echo(key);
        return Err(InputError::InvalidField {
            field: FIELD,
            message: format!(
                "unknown variant key {shown:?}: expected one of {}",
                known.join(", ")
            ),
        }
        .into());
    };
    if let Some(why) = not_served(by_key) {
        return Err(InputError::InvalidField {
            field: FIELD,
            message: format!("{key:?} is a game chessd does not serve yet: {why}"),
        }
        .into());
    }
    match variant_filter(variant)? {
        Some(by_number) if by_number != by_key => {
            Err(ServiceError::Input(InputError::InvalidField {
                field: FIELD,
                message: format!(
                    "{key:?} names another variant than the variant field ({}): give one, or both \
                 naming the same",
                    by_number.key()
                ),
            }))
        }
        _ => Ok(by_key),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::encode::proto_variant;

    /// Every key names its variant, alone or with its own number; a number alone still works
    /// for the nine games that have one, and the others are named by key alone.
    #[test]
    fn keys_and_numbers_agree() {
        for v in served() {
            assert_eq!(requested(0, &key(v)).ok(), Some(v), "{v}");
            assert_eq!(requested(proto_variant(v), &key(v)).ok(), Some(v), "{v}");
            if v.std().is_some() {
                assert_eq!(requested(proto_variant(v), "").ok(), Some(v), "{v}");
            } else {
                assert_eq!(proto_variant(v), pb::Variant::Unspecified as i32, "{v}");
            }
        }
        assert_eq!(
            requested(0, "screen").ok().map(|v| v.has_secret_setup()),
            Some(true),
            "a game with a secret setup by its key"
        );
        assert_eq!(
            requested(0, "janus").ok().map(|v| v.size()),
            Some((10, 8)),
            "a wide game by its key"
        );
    }

    /// A filter takes a key as a request does; neither number nor key is no filter.
    #[test]
    fn filters() {
        assert_eq!(filter(0, "").ok(), Some(None));
        assert_eq!(
            filter(0, "horde").ok(),
            Some(Some(rules::any::AnyVariant::Std(rules::Variant::Horde)))
        );
        assert!(filter(0, "3check").is_err());
        assert!(
            filter(
                proto_variant(rules::any::AnyVariant::Std(rules::Variant::Atomic)),
                "horde"
            )
            .is_err()
        );
    }

    /// An unknown key, an alias, a disagreeing pair and neither are refused.
    #[test]
    fn refusals() {
        for bad in ["suicide", "3check", "Chess", " chess"] {
            let Err(ServiceError::Input(InputError::InvalidField { field, message })) =
                requested(0, bad)
            else {
                panic!("{bad:?} was accepted");
            };
            assert_eq!(field, FIELD);
            assert!(
                message.contains("expected one of chess, racingkings"),
                "{message}"
            );
        }
        let chess = proto_variant(rules::any::AnyVariant::CHESS);
        let Err(ServiceError::Input(InputError::InvalidField { field, message })) =
            requested(chess, "crazyhouse")
        else {
            panic!("a disagreeing pair was accepted");
        };
        assert_eq!(field, FIELD);
        assert!(message.contains("(chess)"), "{message}");
        assert!(matches!(
            requested(0, ""),
            Err(ServiceError::Request(RequestError::InvalidVariant))
        ));
        let Err(ServiceError::Input(InputError::InvalidField { message, .. })) =
            requested(0, &"x".repeat(500))
        else {
            panic!()
        };
        assert!(
            !message.contains(&"x".repeat(100)),
            "the key is echoed short: {message}"
        );
        assert!(message.contains("janus"), "every key is offered: {message}");
    }
}
