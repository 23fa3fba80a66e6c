//! The text form every feed field shares: the domain codec's [`join`] (fields in one string: a
//! feed event's line, which a SQLite row's body and a Redis entry hold, or a header within one)
//! and its writer, and [`split`] back, and the readers of one field
//! ([`field`], [`number`]) with the errors that name it. Apart from `codec` and `header` so
//! that both use it without using each other.

use std::collections::HashMap;

pub(crate) use crate::game::codec::{FieldSink, LineWriter, join, split};

/// The value of field `name`.
pub(crate) fn field<'a>(map: &HashMap<&str, &'a str>, name: &str) -> Result<&'a str, String> {
    map.get(name)
        .copied()
        .ok_or_else(|| format!("feed event: field {name} missing"))
}

/// The value of field `name`, a number.
pub(crate) fn number(map: &HashMap<&str, &str>, name: &str) -> Result<u64, String> {
    field(map, name)?
        .parse()
        .map_err(|_| format!("feed event: field {name} is not a number"))
}
