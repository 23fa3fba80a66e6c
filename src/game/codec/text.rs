//! The text every stored record shares: fields joined in one string ([`join`], [`split`];
//! [`join_pairs`] with any separator; [`LineWriter`] writing it as an encoder puts each field
//! into its [`FieldSink`]), a side as `w`/`b`, a flag as `1`/`0`, a pair of numbers as
//! `white,black`. Every value is
//! plain text without control characters, so an operator can read a stored game with
//! `redis-cli` or `sqlite3`.

use std::collections::HashMap;
use std::fmt::{Display, Write as _};

use chessd_rules::{ByColor, Color};

/// The separator of [`join`]'s form: a control character no stored value contains (names,
/// labels and player ids refuse them; request ids are printable ASCII).
const SEP: char = '\u{1e}';

/// The fields in one string: `field RS value RS field RS value ...`.
#[must_use]
pub(crate) fn join(fields: &[(&'static str, String)]) -> String {
    join_pairs(SEP, fields.iter().map(|(k, v)| (*k, v.as_str())))
}

/// Where an encoder puts its fields, in turn: a list of pairs (a Redis hash, a test reading
/// fields one by one) or one line in [`join`]'s form ([`LineWriter`]), so each record has
/// one encoder whatever keeps it.
pub(crate) trait FieldSink {
    /// Field `name` with `value`.
    fn put(&mut self, name: &'static str, value: impl Display);
}

impl FieldSink for Vec<(&'static str, String)> {
    fn put(&mut self, name: &'static str, value: impl Display) {
        self.push((name, value.to_string()));
    }
}

/// [`join`]'s form, written as the fields come: one string, where the pairs would be a
/// string each (a line is written for every move a store keeps).
#[derive(Debug, Default)]
pub(crate) struct LineWriter(String);

impl LineWriter {
    #[must_use]
    pub(crate) fn with_capacity(bytes: usize) -> Self {
        Self(String::with_capacity(bytes))
    }

    /// Fields already in [`join`]'s form (not empty), as if put one by one.
    pub(crate) fn joined(&mut self, text: &str) {
        self.separate();
        self.0.push_str(text);
    }

    #[must_use]
    pub(crate) fn finish(self) -> String {
        self.0
    }

    fn separate(&mut self) {
        if !self.0.is_empty() {
            self.0.push(SEP);
        }
    }
}

impl FieldSink for LineWriter {
    fn put(&mut self, name: &'static str, value: impl Display) {
        self.separate();
        self.0.push_str(name);
        self.0.push(SEP);
        // Writing to a `String` cannot fail.
        let _ = write!(self.0, "{value}");
    }
}

/// Pairs in one string with `sep` between every part: `key sep value sep key sep value ...`;
/// empty for no pairs. [`join`]'s form with its separator, and `Labels::to_stored`'s with
/// another; `sep` must be a character no key or value contains.
#[must_use]
pub(crate) fn join_pairs<'a>(
    sep: char,
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> String {
    let mut out = String::new();
    for (i, (k, v)) in pairs.into_iter().enumerate() {
        if i > 0 {
            out.push(sep);
        }
        out.push_str(k);
        out.push(sep);
        out.push_str(v);
    }
    out
}

/// [`join`]'s form as a map of its fields.
pub(crate) fn split(text: &str) -> Result<HashMap<&str, &str>, String> {
    let parts: Vec<&str> = text.split(SEP).collect();
    if !parts.len().is_multiple_of(2) {
        return Err("a field without a value".into());
    }
    Ok(parts.chunks_exact(2).map(|kv| (kv[0], kv[1])).collect())
}

/// A side's key.
#[must_use]
pub(crate) fn side(c: Color) -> &'static str {
    match c {
        Color::White => "w",
        Color::Black => "b",
    }
}

/// [`side`]'s text read back.
pub(crate) fn parse_side(text: &str) -> Result<Color, String> {
    match text {
        "w" => Ok(Color::White),
        "b" => Ok(Color::Black),
        other => Err(format!("side {other:?}")),
    }
}

/// A flag's text.
#[must_use]
pub(super) fn flag(on: bool) -> &'static str {
    if on { "1" } else { "0" }
}

/// Both sides' numbers, White's first.
#[must_use]
pub(super) fn pair<T: Display>(both: &ByColor<T>) -> impl Display + '_ {
    struct Pair<'a, T>(&'a ByColor<T>);
    impl<T: Display> Display for Pair<'_, T> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "{},{}", self.0.white(), self.0.black())
        }
    }
    Pair(both)
}

/// [`pair`]'s text read back.
#[must_use]
pub(super) fn parse_pair(text: &str) -> Option<ByColor<u64>> {
    let (a, b) = text.split_once(',')?;
    Some(ByColor::new(a.parse().ok()?, b.parse().ok()?))
}
