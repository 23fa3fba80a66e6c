//! The one codec of a game's stored header, events and outcomes, owned by the domain and used
//! by every store: Redis stream entries and SQLite rows hold an event's joined line, the feed
//! the same outcome text; the Redis game hash, the SQLite `games` row and every feed
//! event hold the header's fields.
//!
//! - `text`: the text every stored record shares ([`join`]/[`split`], sides, flags, pairs;
//!   [`join_pairs`], [`join`]'s form with another separator, is also `Labels`' stored form),
//!   and where an encoder writes its fields ([`FieldSink`]: pairs, or a [`LineWriter`]).
//! - `outcome`: an outcome as `winner:termination-key`; stored indices of old games read
//!   through the frozen [`LEGACY_ORDER`].
//! - `event`: an [`EventRow`](crate::game::EventRow) as fields and as one line, and back.
//! - `header`: a [`GameHeader`](crate::game::GameHeader) (and a store's seat digests and
//!   takeback policy) as fields and as one line, and back.
//!
//! Every enum stored is written by a stable text key (a termination by `Termination::key`, a
//! draw rule by `DrawRule::key`, a variant by `Variant::key`, a side as `w`/`b`, a kind by
//! [`kind_key`]), never by its position, so reordering an enum never changes a stored game.
//!
//! To add an event kind: its `LogKind` variant (`log`), then its key and fields in
//! `event.rs` ([`kind_key`], `put_event`, [`decode_fields`]; the compiler points at each
//! match), and its case in `tests.rs`'s generator (the round trip checks every kind is drawn).
//! No store changes: each keeps whatever this codec writes.
//!
//! To add a header field: the field in `GameHeader` (`header.rs` of `game`), its name and text
//! in `header.rs` here ([`header_fields`], [`decode_header`]; absent must read as the default,
//! as every game stored before it has none), and its draw in `header_tests.rs`. The Redis hash and the
//! feed keep it with no change; SQLite keeps it in a column of its own (`store::sqlite::columns`
//! and a schema migration).

mod event;
mod header;
#[cfg(test)]
pub(crate) mod header_tests;
mod outcome;
#[cfg(test)]
mod tests;
mod text;

#[cfg(test)]
pub(crate) use event::event_fields;
pub(crate) use event::{decode_event, decode_fields, kind_key, write_event};
pub(crate) use header::{
    StoredHeader, decode_game, decode_header, game_fields, header_fields, hex, takebacks_key, unhex,
};
pub(crate) use outcome::{outcome_text, parse_outcome, parse_termination};
pub(crate) use text::{FieldSink, LineWriter, join, join_pairs, parse_side, side, split};
