//! A game's header in the `games` table ([`GAMES`], the table itself): the domain codec's fields (`game::codec`'s
//! `game_fields`, `decode_game`), one column each as [`COLUMNS`] lists them, and any field
//! without a column of its own joined in `more_fields`. The writer and the start both go
//! through here, so a row is written and read by the one list.
//!
//! A field keeps its codec text, but numbers are kept as SQLite integers and seat digests as
//! 32-byte blobs (as every schema has kept them); an absent field is the column's NULL (or
//! its empty default, for the columns that refuse NULL).

use std::collections::HashMap;
use std::sync::LazyLock;

use rusqlite::Row;
use rusqlite::types::{Value, ValueRef};

use crate::game::codec::{StoredHeader, decode_game, game_fields, hex, join, split, unhex};
use crate::game::{GameHeader, GameId, Seats, TakebackPolicy};
use crate::store::sqlite::error::LoadError;

/// Schema 7's games (a new file's too): one column per header field of the domain codec (see
/// [`COLUMNS`]), in the order the migrations before schema 7 added them.
pub(super) const GAMES: &str = "
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    initial_ms INTEGER,
    increment_ms INTEGER,
    draw_rule TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    request_id TEXT,
    ended_at_ms INTEGER,
    white_digest BLOB NOT NULL DEFAULT x'',
    black_digest BLOB NOT NULL DEFAULT x'',
    labels TEXT NOT NULL DEFAULT '',
    white_player_id TEXT,
    black_player_id TEXT,
    black_initial_ms INTEGER,
    black_increment_ms INTEGER,
    clock_start TEXT NOT NULL DEFAULT '',
    first_move_timeout_ms INTEGER,
    takebacks TEXT NOT NULL DEFAULT 'off',
    claim_after_ms INTEGER,
    more_fields TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
";

/// The index of finished games, by when they ended (retention).
pub(super) const GAMES_ENDED: &str =
    "CREATE INDEX games_ended ON games (ended_at_ms) WHERE ended_at_ms IS NOT NULL;";

/// How a column keeps its field's text.
#[derive(Clone, Copy)]
enum Kind {
    /// As is; absent: NULL.
    Text,
    /// As is; absent: empty.
    TextOrEmpty,
    /// A SQLite integer; absent: NULL.
    Number,
    /// Hex text as a blob; empty: an empty blob (a seat without a seat token).
    Digest,
}

/// Each column of `games` that keeps a codec field: `(column, field, kind)`. A field added to
/// the codec needs no entry: it is kept in `more_fields`.
const COLUMNS: [(&str, &str, Kind); 19] = [
    ("variant", "variant", Kind::Text),
    ("start_fen", "start", Kind::Text),
    ("white", "white", Kind::Text),
    ("black", "black", Kind::Text),
    ("initial_ms", "initial_ms", Kind::Number),
    ("increment_ms", "increment_ms", Kind::Number),
    ("draw_rule", "draw_rule", Kind::Text),
    ("created_at_ms", "created_ms", Kind::Number),
    ("white_digest", "white_digest", Kind::Digest),
    ("black_digest", "black_digest", Kind::Digest),
    ("labels", "labels", Kind::TextOrEmpty),
    ("white_player_id", "white_id", Kind::Text),
    ("black_player_id", "black_id", Kind::Text),
    ("black_initial_ms", "black_initial_ms", Kind::Number),
    ("black_increment_ms", "black_increment_ms", Kind::Number),
    ("clock_start", "clock_start", Kind::TextOrEmpty),
    ("first_move_timeout_ms", "first_move_ms", Kind::Number),
    ("takebacks", "takebacks", Kind::Text),
    ("claim_after_ms", "claim_after_ms", Kind::Number),
];

/// The columns before [`COLUMNS`]' in [`INSERT`] and [`SELECT`].
const FIRST: usize = 3;

/// A new game's row: `id`, `request_id`, `more_fields`, then [`COLUMNS`].
pub(super) static INSERT: LazyLock<String> = LazyLock::new(|| {
    let names: Vec<&str> = COLUMNS.iter().map(|(column, _, _)| *column).collect();
    let places: Vec<String> = (1..=FIRST + COLUMNS.len())
        .map(|i| format!("?{i}"))
        .collect();
    format!(
        "INSERT INTO games (id, request_id, more_fields, {}) VALUES ({})",
        names.join(", "),
        places.join(", ")
    )
});

/// Every game's row, [`INSERT`]'s columns in its order, ongoing games first, then finished
/// ones in the order they ended (retention order).
pub(super) static SELECT: LazyLock<String> = LazyLock::new(|| {
    let names: Vec<&str> = COLUMNS.iter().map(|(column, _, _)| *column).collect();
    format!(
        "SELECT id, request_id, more_fields, {} FROM games
         ORDER BY ended_at_ms IS NOT NULL, ended_at_ms, id",
        names.join(", ")
    )
});

/// [`INSERT`]'s values for a game.
pub(super) fn row_values(
    h: &GameHeader,
    seats: &Seats,
    takebacks: TakebackPolicy,
    request_id: Option<&str>,
) -> Vec<Value> {
    let mut fields = game_fields(h, seats, takebacks);
    let mut values = Vec::with_capacity(FIRST + COLUMNS.len());
    values.push(Value::Text(h.id.to_string()));
    values.push(request_id.map_or(Value::Null, |r| Value::Text(r.to_owned())));
    values.push(Value::Null);
    for &(_, field, kind) in &COLUMNS {
        let value = fields
            .iter()
            .position(|(name, _)| *name == field)
            .map(|i| fields.swap_remove(i).1);
        values.push(match (kind, value) {
            (Kind::Text | Kind::Number, None) => Value::Null,
            (Kind::TextOrEmpty, None) => Value::Text(String::new()),
            (Kind::Digest, None) => Value::Blob(Vec::new()),
            (Kind::Number, Some(v)) => v.parse::<i64>().map_or(Value::Text(v), Value::Integer),
            (Kind::Digest, Some(v)) => {
                Value::Blob(unhex::<32>(&v).map(|d| d.to_vec()).unwrap_or_default())
            }
            (Kind::Text | Kind::TextOrEmpty, Some(v)) => Value::Text(v),
        });
    }
    // What is left has no column of its own.
    values[FIRST - 1] = Value::Text(join(&fields));
    values
}

/// A [`SELECT`] row read back as game `id`: the game, and the request id that created it.
pub(super) fn read_row(
    id: GameId,
    row: &Row<'_>,
) -> Result<(StoredHeader, Option<String>), LoadError> {
    let bad = |detail: String| LoadError::Game {
        game: id.to_string(),
        detail,
    };
    let request_id: Option<String> = row.get(1)?;
    let more: String = row.get(2)?;
    let mut fields: HashMap<&str, String> = HashMap::new();
    if !more.is_empty() {
        for (k, v) in split(&more).map_err(&bad)? {
            fields.insert(k, v.to_owned());
        }
    }
    for (i, &(_, field, _)) in COLUMNS.iter().enumerate() {
        let text = match row.get_ref(FIRST + i)? {
            ValueRef::Null => continue,
            ValueRef::Integer(n) => n.to_string(),
            ValueRef::Real(x) => x.to_string(),
            ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
            ValueRef::Blob(b) => hex(b),
        };
        fields.insert(field, text);
    }
    let map: HashMap<&str, &str> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    Ok((decode_game(id, &map).map_err(bad)?, request_id))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rusqlite::Connection;

    use super::*;
    use crate::game::codec::header_tests::stored_header;

    proptest! {
        /// A game's row reads back as the game written, its request id too.
        #[test]
        fn every_row_reads_back(stored in stored_header(), rid in proptest::option::of("[!-~]{1,8}")) {
            let conn = Connection::open_in_memory().unwrap();
            conn.execute_batch(GAMES).unwrap();
            let h = &stored.header;
            let values = row_values(h, &stored.seats, stored.takebacks, rid.as_deref());
            conn.execute(&INSERT, rusqlite::params_from_iter(values)).unwrap();
            let mut select = conn.prepare(&SELECT).unwrap();
            let mut rows = select.query([]).unwrap();
            let row = rows.next().unwrap().unwrap();
            let (back, back_rid) = match read_row(h.id, row) {
                Ok(read) => read,
                Err(LoadError::Game { detail, .. }) => panic!("{detail}"),
                Err(LoadError::Sql(e)) => panic!("{e}"),
            };
            prop_assert_eq!(back, stored.clone());
            prop_assert_eq!(back_rid, rid);
            // Numbers stay SQLite integers, digests blobs, enums keys.
            let (initial, digest, draw_rule): (Option<i64>, Vec<u8>, String) = conn
                .query_row("SELECT initial_ms, white_digest, draw_rule FROM games", [], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })
                .unwrap();
            prop_assert_eq!(initial.is_some(), h.time_control().is_some());
            prop_assert_eq!(digest.len(), if stored.seats.digest(chessd_rules::Color::White).is_some() { 32 } else { 0 });
            prop_assert_eq!(draw_rule, h.draw_rule.key());
        }

        /// Every field schema 7 knew has a column: `more_fields` holds only the fields added
        /// since (a byoyomi's, a game of chance's seed, a delayed view's), and stays empty for a
        /// game without them.
        #[test]
        fn more_fields_holds_only_new_fields(stored in stored_header()) {
            let values = row_values(&stored.header, &stored.seats, stored.takebacks, None);
            let byoyomi = stored.header.time_control().and_then(|tc| tc.byoyomi);
            let Value::Text(more) = &values[FIRST - 1] else {
                panic!("more_fields is text");
            };
            let seed = stored.seats.seed();
            let delay = stored.header.public_delay();
            prop_assert_eq!(more.is_empty(), byoyomi.is_none() && seed.is_none() && delay == 0);
            let fields = if more.is_empty() { Default::default() } else { split(more).unwrap() };
            let mut expected = 0;
            if let Some(b) = byoyomi {
                let period = b.period().as_millis().to_string();
                let periods = b.periods().to_string();
                expected += 2;
                prop_assert_eq!(fields.get("byoyomi_ms"), Some(&period.as_str()));
                prop_assert_eq!(fields.get("periods"), Some(&periods.as_str()));
            }
            if let Some(seed) = seed {
                expected += 1;
                let hex = hex(seed.as_bytes());
                prop_assert_eq!(fields.get("seed"), Some(&hex.as_str()));
            }
            if delay > 0 {
                expected += 1;
                let plies = delay.to_string();
                prop_assert_eq!(fields.get("public_delay"), Some(&plies.as_str()));
            }
            prop_assert_eq!(fields.len(), expected);
        }
    }
}
