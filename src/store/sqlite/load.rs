//! Bringing a database back at start: retention applied, result counts restored, every game
//! played back from its stored events into the memory store, the player tokens put back in
//! force and the feed's retained events back in its log.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use chessd_rules::{ByColor, DrawRule, Position, Variant};
use rusqlite::{Connection, OptionalExtension};

use crate::game::codec::decode_event;
use crate::game::takeback::Line;
use crate::game::{
    ClockStart, GameHeader, GameId, GameRecord, HeaderParts, Labels, Now, PlayerId, Players, Seats,
    StartRules, Stored, TakebackPolicy, TimeControl, TokenDigest, TokenId, VariantStats, epoch_ms,
    from_epoch_ms,
};
use crate::store::config::StoreLimits;
use crate::store::feed::codec::{Headers, decode_joined};
use crate::store::feed::log::FeedLog;
use crate::store::memory::MemoryStore;
use crate::store::sqlite::fold::fold_all;

/// Why loading stopped.
pub enum LoadError {
    Sql(rusqlite::Error),
    Game { game: String, detail: String },
}

impl From<rusqlite::Error> for LoadError {
    fn from(e: rusqlite::Error) -> LoadError {
        LoadError::Sql(e)
    }
}

/// Where the feed stands in the file, read before anything is restored.
#[derive(Clone, Copy, Debug)]
pub struct FeedMeta {
    pub epoch: u64,
    /// The last position numbered.
    pub last: u64,
}

/// The feed's epoch and last position.
pub fn feed_meta(conn: &Connection) -> Result<FeedMeta, LoadError> {
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
pub fn load(
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
            let Some(variant) = variant.parse::<Variant>().ok() else {
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
        // Ongoing games first, then finished ones in the order they ended (retention order).
        let mut games = tx.prepare(
            "SELECT id, variant, start_fen, white, black, initial_ms, increment_ms, draw_rule,
                    white_digest, black_digest, created_at_ms, request_id, labels,
                    white_player_id, black_player_id, black_initial_ms, black_increment_ms,
                    clock_start, first_move_timeout_ms, takebacks, claim_after_ms
             FROM games ORDER BY ended_at_ms IS NOT NULL, ended_at_ms, id",
        )?;
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
            let variant_text: String = row.get(1)?;
            let variant = variant_text
                .parse::<Variant>()
                .ok()
                .ok_or_else(|| bad(format!("variant {variant_text:?}")))?;
            let fen: String = row.get(2)?;
            let start = Position::from_fen(variant, &fen)
                .map_err(|e| bad(format!("start position {fen:?}: {e}")))?;
            let player_id = |i: usize| -> Result<Option<PlayerId>, LoadError> {
                let text: Option<String> = row.get(i)?;
                text.map(|t| PlayerId::checked(&t).map_err(|e| bad(format!("player id: {e}"))))
                    .transpose()
            };
            let players = Players {
                white: row.get(3)?,
                black: row.get(4)?,
                ids: ByColor::new(player_id(13)?, player_id(14)?),
            };
            let labels_text: String = row.get(12)?;
            let labels = Labels::from_stored(&labels_text).map_err(&bad)?;
            let initial: Option<i64> = row.get(5)?;
            let increment: Option<i64> = row.get(6)?;
            let optional_ms = |i: usize| -> Result<Option<Duration>, LoadError> {
                let v: Option<i64> = row.get(i)?;
                Ok(v.map(|ms| Duration::from_millis(ms.max(0) as u64)))
            };
            let time_control = match initial {
                Some(initial) => Some(TimeControl {
                    initial: Duration::from_millis(initial.max(0) as u64),
                    increment: Duration::from_millis(increment.unwrap_or(0).max(0) as u64),
                    black_initial: optional_ms(15)?,
                    black_increment: optional_ms(16)?,
                }),
                None => None,
            };
            let clock_start_text: String = row.get(17)?;
            let start_rules = StartRules {
                clock_start: clock_start_text.parse::<ClockStart>().map_err(&bad)?,
                first_move_timeout: optional_ms(18)?,
            };
            let draw_rule = match row.get::<_, i64>(7)? {
                0 => DrawRule::Claim,
                _ => DrawRule::Automatic,
            };
            // An empty digest: a seat bound to a player, without a seat token.
            let digest = |i: usize| -> Result<Option<TokenDigest>, LoadError> {
                let bytes: Vec<u8> = row.get(i)?;
                if bytes.is_empty() {
                    return Ok(None);
                }
                TokenDigest::from_slice(&bytes)
                    .map(Some)
                    .ok_or_else(|| bad("a malformed seat token digest".into()))
            };
            let seats = Seats::new(ByColor::new(digest(8)?, digest(9)?));
            let created_at_ms = row.get::<_, i64>(10)?.max(0) as u64;
            let request_id: Option<String> = row.get(11)?;
            let takebacks = match row.get::<_, i64>(19)? {
                0 => TakebackPolicy::Off,
                1 => TakebackPolicy::OnRequest,
                other => return Err(bad(format!("takebacks {other}"))),
            };
            let claim_after = match row.get::<_, Option<i64>>(20)? {
                Some(ms) => Duration::from_millis(ms.max(0) as u64),
                None => crate::game::presence::default_claim_after(time_control),
            };

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
                draw_rule,
                time_control,
                start_rules,
                takebacks,
                seats,
                created_at: from_epoch_ms(created_at_ms),
                events: stored_events,
                charged,
                claim_after,
            };
            let header = Arc::new(GameHeader::new(HeaderParts {
                id,
                players,
                labels: labels.shared(),
                start: start.into(),
                time_control,
                start_rules,
                draw_rule,
                created_at: from_epoch_ms(created_at_ms),
                claim_after,
            }));
            let record =
                GameRecord::restore(stored, |rid| memory.request_key(rid), now).map_err(bad)?;
            forgotten.extend(memory.restore(header, record, request_id.as_deref()));
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
