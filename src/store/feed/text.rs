//! The text form every feed field shares: [`join`] (fields in one string, a SQLite row's body
//! or a Redis entry's `h`) and [`split`] back, and the readers of one field ([`field`],
//! [`number`]) with the errors that name it. Apart from `codec` and `header` so that both use
//! it without using each other.

use std::collections::HashMap;
use std::time::Duration;

/// The separator of [`join`]'s form.
const SEP: char = '\u{1e}';

/// The fields in one string: `field RS value RS field RS value ...`.
#[must_use]
pub fn join(fields: &[(&'static str, String)]) -> String {
    let mut out = String::new();
    for (i, (k, v)) in fields.iter().enumerate() {
        if i > 0 {
            out.push(SEP);
        }
        out.push_str(k);
        out.push(SEP);
        out.push_str(v);
    }
    out
}

/// [`join`]'s form as a map of its fields.
pub fn split(text: &str) -> Result<HashMap<&str, &str>, String> {
    let parts: Vec<&str> = text.split(SEP).collect();
    if !parts.len().is_multiple_of(2) {
        return Err("feed event: a field without a value".into());
    }
    Ok(parts.chunks_exact(2).map(|kv| (kv[0], kv[1])).collect())
}

/// The value of field `name`.
pub fn field<'a>(map: &HashMap<&str, &'a str>, name: &str) -> Result<&'a str, String> {
    map.get(name)
        .copied()
        .ok_or_else(|| format!("feed event: field {name} missing"))
}

/// The value of field `name`, a number.
pub fn number(map: &HashMap<&str, &str>, name: &str) -> Result<u64, String> {
    field(map, name)?
        .parse()
        .map_err(|_| format!("feed event: field {name} is not a number"))
}

/// A duration in whole milliseconds, saturating.
pub fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
