//! The migration from schema 6 to 7: the `games` table is rebuilt as `columns::GAMES`, each
//! column the domain codec's header field (`columns`), so SQLite stores no enum by number: a
//! draw rule's 0 and 1 become `claim` and `automatic`, a takeback policy's `off` and
//! `on-request`; and `more_fields` (empty) keeps the codec's fields that have no column.

use std::path::Path;

use rusqlite::Connection;

use crate::store::sqlite::columns::{GAMES, GAMES_ENDED};
use crate::store::sqlite::error::OpenError;

/// Schema 6's columns, kept as they are (the two enums are rewritten apart).
const KEPT: &str = "id, variant, start_fen, white, black, initial_ms, increment_ms, created_at_ms,
    request_id, ended_at_ms, white_digest, black_digest, labels, white_player_id,
    black_player_id, black_initial_ms, black_increment_ms, clock_start, first_move_timeout_ms,
    claim_after_ms";

/// Migrates a schema 6 database to schema 7, in one transaction (a failure changes nothing).
/// Schema 6 read any draw rule but 0 as automatic, and refused a takeback policy other than 0
/// and 1: the rewrite keeps both (an unknown policy stays, and is still refused at load).
pub(super) fn migrate_v6(conn: &Connection, path: &Path) -> Result<(), OpenError> {
    conn.execute_batch(&format!(
        "BEGIN IMMEDIATE;
         ALTER TABLE games RENAME TO games_v6;
         {GAMES}
         INSERT INTO games ({KEPT}, draw_rule, takebacks)
             SELECT {KEPT},
                 CASE draw_rule WHEN 0 THEN 'claim' ELSE 'automatic' END,
                 CASE takebacks WHEN 0 THEN 'off' WHEN 1 THEN 'on-request' ELSE takebacks END
             FROM games_v6;
         DROP TABLE games_v6;
         {GAMES_ENDED}
         PRAGMA user_version = 7;
         COMMIT;"
    ))
    .map_err(|e| {
        // The rollback's own failure would only hide the cause.
        let _ = conn.execute_batch("ROLLBACK;");
        OpenError::Migration {
            path: path.to_owned(),
            detail: e.to_string(),
            to: 7,
        }
    })?;
    tracing::info!(path = %path.display(), "database migrated to schema 7: games' draw rules and takeback policies by key");
    Ok(())
}
