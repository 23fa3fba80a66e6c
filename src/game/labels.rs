//! [`Labels`]: what a platform attaches to a game to find it again (a tournament, a round,
//! whether it is rated, a matchmaking ticket), validated once at the edge.
//!
//! Keys are 1 to [`Labels::MAX_KEY_LEN`] characters: a lowercase ASCII letter, then lowercase
//! letters, digits and `_`. That is narrower than most label schemes on purpose: every key is
//! then a valid PGN tag name that can never clash with a standard tag (those all start with a
//! capital: `Event`, `White`, `Result`, ...), so ExportPgn writes labels as tags unchanged.
//! Values are 1 to [`Labels::MAX_VALUE_LEN`] characters without control characters (a PGN
//! tag value is one line). At most [`Labels::MAX_LABELS`] labels a game.

use std::collections::BTreeMap;
use std::sync::{Arc, LazyLock};

use crate::game::codec;
use crate::game::error::InputError;

/// A game's labels, sorted by key.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Labels(BTreeMap<String, String>);

/// The separator of the stored form: no key or value may contain a control character.
const SEP: char = '\u{1f}';

impl Labels {
    /// The most labels a game may carry.
    pub const MAX_LABELS: usize = 16;
    /// The longest key, in characters.
    pub const MAX_KEY_LEN: usize = 64;
    /// The longest value, in characters.
    pub const MAX_VALUE_LEN: usize = 256;

    /// Validates labels from a request; `field` names the request's map in errors
    /// (`labels`), and each refusal names the key at fault.
    pub fn parse<'a>(
        field: &'static str,
        pairs: impl IntoIterator<Item = (&'a String, &'a String)>,
    ) -> Result<Labels, InputError> {
        let mut labels = BTreeMap::new();
        for (key, value) in pairs {
            if let Err(why) = check_key(key) {
                return Err(InputError::InvalidField {
                    field,
                    message: format!("key {:?}: {why}", echo(key)),
                });
            }
            if let Err(why) = check_value(value) {
                return Err(InputError::InvalidField {
                    field,
                    message: format!("value of {key:?}: {why}"),
                });
            }
            labels.insert(key.clone(), value.clone());
        }
        if labels.len() > Labels::MAX_LABELS {
            return Err(InputError::InvalidField {
                field,
                message: format!(
                    "{} labels, at most {} are allowed",
                    labels.len(),
                    Labels::MAX_LABELS
                ),
            });
        }
        Ok(Labels(labels))
    }

    /// The labels behind an `Arc`, as headers, views and feed events share them: no labels
    /// at all is one set every unlabelled game shares, since most games carry none and every
    /// game a server holds keeps its header.
    #[must_use]
    pub fn shared(self) -> Arc<Labels> {
        static NONE: LazyLock<Arc<Labels>> = LazyLock::new(|| Arc::new(Labels::default()));
        if self.is_empty() {
            Arc::clone(&NONE)
        } else {
            Arc::new(self)
        }
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The labels, sorted by key.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }

    /// Whether every label of `wanted` is one of these (a filter: the empty filter matches
    /// every game).
    #[must_use]
    pub fn contains_all(&self, wanted: &Labels) -> bool {
        wanted.iter().all(|(k, v)| self.get(k) == Some(v))
    }

    /// The stored form (SQLite, Redis): `key US value US key US value ...` (US: the unit
    /// separator, which no key or value contains); empty for no labels.
    #[must_use]
    pub fn to_stored(&self) -> String {
        codec::join_pairs(SEP, self.iter())
    }

    /// Labels read back from their stored form, checked as a request's are.
    pub fn from_stored(text: &str) -> Result<Labels, String> {
        if text.is_empty() {
            return Ok(Labels::default());
        }
        let parts: Vec<&str> = text.split(SEP).collect();
        if !parts.len().is_multiple_of(2) {
            return Err("labels: a key without a value".into());
        }
        let mut labels = BTreeMap::new();
        for pair in parts.chunks_exact(2) {
            check_key(pair[0]).map_err(|why| format!("label key {:?}: {why}", pair[0]))?;
            check_value(pair[1]).map_err(|why| format!("label {:?}: {why}", pair[0]))?;
            labels.insert(pair[0].to_owned(), pair[1].to_owned());
        }
        if labels.len() > Labels::MAX_LABELS {
            return Err(format!("{} labels", labels.len()));
        }
        Ok(Labels(labels))
    }
}

/// A short prefix of client text for an error message.
fn echo(text: &str) -> String {
    text.chars().take(24).collect()
}

fn check_key(key: &str) -> Result<(), String> {
    let mut chars = key.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_lowercase());
    if !first_ok
        || key.len() > Labels::MAX_KEY_LEN
        || !chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        return Err(format!(
            "expected 1 to {} characters: a lowercase letter, then lowercase letters, digits \
             or '_'",
            Labels::MAX_KEY_LEN
        ));
    }
    Ok(())
}

fn check_value(value: &str) -> Result<(), String> {
    let n = value.chars().count();
    if n == 0 || n > Labels::MAX_VALUE_LEN || value.chars().any(char::is_control) {
        return Err(format!(
            "expected 1 to {} characters and no control characters",
            Labels::MAX_VALUE_LEN
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    fn parse(pairs: &[(&str, &str)]) -> Result<Labels, InputError> {
        let pairs = map(pairs);
        Labels::parse("labels", pairs.iter().map(|(k, v)| (k, v)))
    }

    fn refusal(pairs: &[(&str, &str)]) -> String {
        match parse(pairs) {
            Err(InputError::InvalidField { field, message }) => {
                assert_eq!(field, "labels");
                message
            }
            other => panic!("{pairs:?} accepted: {other:?}"),
        }
    }

    /// Keys are PGN-safe lowercase names; values are one line of up to 256 characters.
    #[test]
    fn validation_names_the_key() {
        let ok = parse(&[
            ("tournament", "spring-2026"),
            ("round", "3"),
            ("rated", "yes"),
        ]);
        assert_eq!(ok.unwrap().len(), 3);
        assert!(refusal(&[("Tournament", "x")]).contains("\"Tournament\""));
        assert!(refusal(&[("1st", "x")]).contains("lowercase letter"));
        assert!(refusal(&[("a-b", "x")]).contains("\"a-b\""));
        assert!(refusal(&[("", "x")]).contains("key"));
        assert!(refusal(&[(&"k".repeat(65), "x")]).contains("64"));
        assert!(parse(&[(&"k".repeat(64), "x")]).is_ok());
        assert!(refusal(&[("round", "")]).contains("\"round\""));
        assert!(refusal(&[("round", "a\nb")]).contains("control"));
        assert!(refusal(&[("round", &"é".repeat(257))]).contains("256"));
        assert!(parse(&[("round", &"é".repeat(256))]).is_ok());
        let many: Vec<(String, String)> = (0..17).map(|i| (format!("k{i}"), "v".into())).collect();
        let many: Vec<(&str, &str)> = many.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert!(refusal(&many).contains("at most 16"));
        assert!(parse(&many[..16]).is_ok());
    }

    /// A filter matches a game that has every one of its labels, whatever else it has.
    #[test]
    fn filters_need_every_label() {
        let game = parse(&[("tournament", "t1"), ("round", "2")]).unwrap();
        assert!(game.contains_all(&Labels::default()));
        assert!(game.contains_all(&parse(&[("round", "2")]).unwrap()));
        assert!(!game.contains_all(&parse(&[("round", "3")]).unwrap()));
        assert!(!game.contains_all(&parse(&[("round", "2"), ("rated", "yes")]).unwrap()));
    }

    /// The stored form reads back to the same labels; damaged text is refused.
    #[test]
    fn stored_form_round_trips() {
        let labels = parse(&[("tournament", "Spring \"open\" ☀"), ("round", "3")]).unwrap();
        let text = labels.to_stored();
        assert_eq!(
            text, "round\u{1f}3\u{1f}tournament\u{1f}Spring \"open\" ☀",
            "sorted by key, every part separated by US"
        );
        assert_eq!(Labels::from_stored(&text).unwrap(), labels);
        assert_eq!(Labels::default().to_stored(), "");
        assert_eq!(Labels::from_stored("").unwrap(), Labels::default());
        assert!(Labels::from_stored("round").is_err());
        assert!(Labels::from_stored("Round\u{1f}3").is_err());
    }
}
