//! Bringing a database back at start: retention applied, result counts restored, every game
//! (its header read by `columns`) played back from its stored events into the memory store, the player tokens put back in
//! force and the feed's retained events back in its log.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use chessd_rules::any::AnyVariant;
use rusqlite::{Connection, OptionalExtension};

use crate::game::codec::{StoredHeader, decode_event};
use crate::game::takeback::Line;
use crate::game::{
    GameId, GameRecord, Now, PlayerId, Stored, TokenDigest, TokenId, VariantStats, epoch_ms,
};
use crate::store::config::StoreLimits;
use crate::store::feed::codec::{Headers, decode_joined};
use crate::store::feed::log::FeedLog;
use crate::store::memory::MemoryStore;
use crate::store::sqlite::columns;
use crate::store::sqlite::error::LoadError;
use crate::store::sqlite::fold::fold_all;

/// Where the feed stands in the file, read before anything is restored.
#[derive(Clone, Copy, Debug)]
pub(super) struct FeedMeta {
    pub epoch: u64,
    /// The last position numbered.
    pub last: u64,
}

/// The feed's epoch and last position.
pub(super) fn feed_meta(conn: &Connection) -> Result<FeedMeta, LoadError> {
    let value = |key: &str| -> Result<Option<i64>, LoadError> {
        Ok(conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()?)
    };
    let epoch = value("feed_epoch")?.ok_or_else(|| LoadError::Game {
        game: "-".into(),
        detail: "the feed has no epoch".into(),
    })?;
    Ok(FeedMeta {
        epoch: u64::from_be_bytes(epoch.to_be_bytes()),
        last: value("feed_last")?.unwrap_or(0).max(0) as u64,
    })
}

/// Brings every stored game and the result counts back into `memory`, its player tokens back
/// in force and the feed's events back into `feed`; deletes the finished games already past
/// retention or beyond the count limit, and the feed events past the feed's.
pub(super) fn load(
    conn: &mut Connection,
    path: &Path,
    memory: &MemoryStore,
    feed: &FeedLog,
    limits: StoreLimits,
) -> Result<(), LoadError> {
    let now = Now::read();
    let alive_ms: Option<u64> = conn
        .query_row("SELECT value FROM meta WHERE key = 'alive_ms'", [], |r| {
            r.get::<_, i64>(0)
        })
        .optional()?
        .map(|v| v.max(0) as u64);
    let tx = conn.transaction()?;
    // Events the writer had not folded yet: moved first, so the rest reads `events` only.
    let recent = fold_all(&tx)?;
    if recent > 0 {
        tracing::info!(events = recent, "recent events folded");
    }
    if let Some(retention) = limits.retention {
        let cutoff = epoch_ms(now.wall)
            .saturating_sub(u64::try_from(retention.as_millis()).unwrap_or(u64::MAX));
        let expired = tx.execute(
            "DELETE FROM events WHERE game_id IN
                 (SELECT id FROM games WHERE ended_at_ms IS NOT NULL AND ended_at_ms < ?1)",
            [cutoff as i64],
        )?;
        let games = tx.execute(
            "DELETE FROM games WHERE ended_at_ms IS NOT NULL AND ended_at_ms < ?1",
            [cutoff as i64],
        )?;
        if games > 0 {
            tracing::info!(
                games,
                events = expired,
                "finished games past retention deleted"
            );
        }
    }
    {
        let mut stats = tx.prepare("SELECT variant, white_wins, black_wins, draws FROM stats")?;
        let rows = stats.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, i64>(3)?,
            ))
        })?;
        for row in rows {
            let (variant, white, black, draws) = row?;
            let Some(variant) = variant.parse::<AnyVariant>().ok() else {
                return Err(LoadError::Game {
                    game: "-".into(),
                    detail: format!("unknown variant {variant:?} in the statistics"),
                });
            };
            memory.restore_stats(VariantStats {
                variant,
                white_wins: white.max(0) as u64,
                black_wins: black.max(0) as u64,
                draws: draws.max(0) as u64,
            });
        }
    }
    let mut forgotten = Vec::new();
    let mut count = 0usize;
    {
        let mut games = tx.prepare(&columns::SELECT)?;
        let mut events =
            tx.prepare("SELECT seq, body FROM events WHERE game_id = ?1 ORDER BY seq")?;
        let mut rows = games.query([])?;
        while let Some(row) = rows.next()? {
            let id_text: String = row.get(0)?;
            let bad = |detail: String| LoadError::Game {
                game: id_text.clone(),
                detail,
            };
            let id: GameId = id_text.parse().map_err(|_| bad("bad id".into()))?;
            let (game, request_id) = columns::read_row(id, row)?;
            let StoredHeader {
                header,
                seats,
                takebacks,
            } = game;
            let start = header.start.position();
            let created_at_ms = epoch_ms(header.created_at());
            let mut line = Line::from_start(start);
            let mut stored_events = Vec::new();
            let mut event_rows = events.query([&id_text])?;
            while let Some(e) = event_rows.next()? {
                let seq = e.get::<_, i64>(0)?.max(0) as u64;
                let body: String = e.get(1)?;
                stored_events.push(decode_event(seq, &body, &mut line).map_err(&bad)?);
            }
            let last_at = stored_events.last().map_or(created_at_ms, |e| e.at_ms);
            let charged =
                Duration::from_millis(alive_ms.unwrap_or(last_at).saturating_sub(last_at));
            let stored = Stored {
                start,
                draw_rule: header.draw_rule,
                time_control: header.time_control(),
                start_rules: header.start_rules(),
                takebacks,
                seats,
                created_at: header.created_at(),
                events: stored_events,
                charged,
                claim_after: header.claim_after(),
            };
            let record =
                GameRecord::restore(stored, |rid| memory.request_key(rid), now).map_err(bad)?;
            forgotten.extend(memory.restore(Arc::new(header), record, request_id.as_deref()));
            count += 1;
        }
    }
    for id in &forgotten {
        let id = id.to_string();
        tx.execute("DELETE FROM events WHERE game_id = ?1", [&id])?;
        tx.execute("DELETE FROM games WHERE id = ?1", [&id])?;
    }
    let tokens = restore_tokens(&tx, memory)?;
    let events = restore_feed(&tx, feed, limits, now)?;
    tx.commit()?;
    tracing::info!(
        path = %path.display(),
        games = count - forgotten.len(),
        forgotten = forgotten.len(),
        player_tokens = tokens,
        feed_events = events,
        "games restored"
    );
    Ok(())
}

/// Puts the stored player tokens back in force; returns how many.
fn restore_tokens(
    tx: &rusqlite::Transaction<'_>,
    memory: &MemoryStore,
) -> Result<usize, LoadError> {
    let mut select = tx.prepare("SELECT token_id, digest, player_id FROM player_tokens")?;
    let mut rows = select.query([])?;
    let mut n = 0;
    while let Some(row) = rows.next()? {
        let id_text: String = row.get(0)?;
        let bad = |detail: &str| LoadError::Game {
            game: format!("player token {id_text}"),
            detail: detail.to_owned(),
        };
        let id: TokenId = id_text.parse().map_err(|()| bad("a malformed id"))?;
        let digest: Vec<u8> = row.get(1)?;
        let digest = TokenDigest::from_slice(&digest).ok_or_else(|| bad("a malformed digest"))?;
        if TokenId::of(&digest) != id {
            return Err(bad("the id is not its digest's"));
        }
        let player: String = row.get(2)?;
        let player = PlayerId::checked(&player).map_err(|e| bad(&e))?;
        memory.restore_token(id, digest, player);
        n += 1;
    }
    Ok(n)
}

/// Deletes the feed events past the feed's retention and count, then puts the rest back into
/// `feed`, in order; returns how many.
fn restore_feed(
    tx: &rusqlite::Transaction<'_>,
    feed: &FeedLog,
    limits: StoreLimits,
    now: Now,
) -> Result<usize, LoadError> {
    let cutoff = epoch_ms(now.wall)
        .saturating_sub(u64::try_from(limits.feed_retention.as_millis()).unwrap_or(u64::MAX));
    let beyond = feed.last().saturating_sub(limits.feed_max_events as u64);
    let deleted = tx.execute(
        "DELETE FROM feed WHERE at_ms < ?1 OR pos <= ?2",
        [cutoff as i64, beyond as i64],
    )?;
    if deleted > 0 {
        tracing::info!(events = deleted, "feed events past retention deleted");
    }
    let mut select = tx.prepare("SELECT pos, body FROM feed ORDER BY pos")?;
    let mut rows = select.query([])?;
    let mut headers = Headers::new();
    let mut n = 0;
    while let Some(row) = rows.next()? {
        let pos = row.get::<_, i64>(0)?.max(1) as u64;
        let body: String = row.get(1)?;
        let event = decode_joined(&body, &mut headers).map_err(|detail| LoadError::Game {
            game: format!("feed event {pos}"),
            detail,
        })?;
        feed.restore(pos, event);
        n += 1;
    }
    feed.seal();
    Ok(n)
}
