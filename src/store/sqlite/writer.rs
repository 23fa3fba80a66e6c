//! The writer thread: it owns the connection and commits the journal's queue in groups (one
//! transaction for whatever is queued), numbers the batch's feed events as it stores them (the
//! writer is the feed's only appender) and hands the batch to `flush`, which publishes its
//! events to watchers and the feed and raises the committed watermark once it is durable; plus the heartbeat that
//! stamps `alive_ms` while the server is idle. With traces on, each traced change's call gets
//! a span of the transaction that committed it (`spans::SQLITE`, with the number of changes
//! it held). Events go to the recent events' log and are folded into `events` in bulk (see
//! `fold`).

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use chessd_rules::{Color, any::AnyVariant};
use rusqlite::{Connection, Transaction, params};
use tokio::sync::mpsc;
use tracing::Span;

use crate::game::{EventRow, FeedEvent, GameId, LogKind, epoch_ms};
use crate::store::feed::codec;
use crate::store::feed::log::FeedLog;
use crate::store::journal::{Change, CreatedGame, Journal, Queued};
use crate::store::sqlite::columns;
use crate::store::sqlite::flush::{Committed, Flush};
use crate::store::sqlite::fold::RecentLog;
use crate::telemetry::spans;

/// Most changes committed in one transaction: large enough that a burst from thousands of
/// games shares one flush, small enough that one transaction stays a few milliseconds.
pub(super) const MAX_BATCH: usize = 1024;

/// How often an idle writer stamps `alive_ms` (the downtime rule's resolution).
pub(super) const ALIVE_PERIOD: Duration = Duration::from_secs(1);

/// How long dropping the store waits for the writer to commit what is queued.
pub(super) const CLOSE_TIMEOUT: Duration = Duration::from_secs(5);

/// Stamps `alive_ms` every [`ALIVE_PERIOD`] while the store exists. Skips a beat when the
/// queue is full: the writer is busy then, and every commit stamps the time anyway.
pub(super) async fn heartbeat(journal: std::sync::Weak<Journal>) {
    let mut tick = tokio::time::interval(ALIVE_PERIOD);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(journal) = journal.upgrade() else {
            return;
        };
        if let Some(place) = journal.try_reserve() {
            place.send(Change::Alive, None);
        }
    }
}

/// The writer thread: commits queued changes in groups until the journal closes, and keeps
/// the feed table as long as `feed` keeps its events. `flush` completes each committed batch
/// once it is durable (see `flush`).
pub(super) fn writer(
    mut conn: Connection,
    mut rx: mpsc::Receiver<Queued>,
    feed: Arc<FeedLog>,
    flush: Flush,
) {
    let mut failed = false;
    // Feed rows up to here are deleted (or were never written).
    let mut trimmed = feed.floor();
    // The feed's last position stored: the feed itself learns it only once a batch is durable.
    let mut last = feed.last();
    let mut log = RecentLog::new();
    while let Some(first) = rx.blocking_recv() {
        // While a committed batch waits for a flusher, more changes queue and join this one.
        failed = failed || !flush.wait_for_room();
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(q) => batch.push(q),
                Err(_) => break,
            }
        }
        if failed {
            // Drained so that nobody waits on a full queue; their tickets fail.
            continue;
        }
        let through = batch.last().map_or(0, |q| q.ticket);
        let transaction = transaction_spans(&batch);
        let events: Vec<FeedEvent> = batch.iter().flat_map(|q| feed_events(&q.change)).collect();
        let floor = feed.floor();
        let committed_now = commit(
            &mut conn,
            &mut log,
            &batch,
            &events,
            last,
            (trimmed < floor).then_some(floor),
        );
        if let Err(e) = &committed_now {
            for span in &transaction {
                spans::record_failure(span, &e.to_string());
            }
        }
        drop(transaction);
        match committed_now {
            Ok(()) => {
                trimmed = trimmed.max(floor);
                last += events.len() as u64;
                let mut publish = Vec::new();
                let mut traces = Vec::new();
                for queued in batch {
                    publish.extend(queued.publish);
                    traces.push(queued.trace);
                }
                flush.committed(Committed {
                    through,
                    publish,
                    feed: events,
                    traces,
                });
            }
            Err(e) => {
                tracing::error!(error = %e, "durable store: commit failed; refusing every change from now on");
                failed = true;
                flush.fail();
            }
        }
    }
    // What is committed is flushed and acknowledged before the file closes.
    drop(flush);
    // A clean close checkpoints the WAL into the file; failing that only costs the next start
    // a recovery.
    let _ = conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);");
}

/// One span per traced change in `batch`, each a child of the change's journal span, for the
/// transaction about to commit them all (none when traces are off: no change is traced).
fn transaction_spans(batch: &[Queued]) -> Vec<Span> {
    batch
        .iter()
        .filter(|q| !q.trace.is_none())
        .map(|q| {
            q.trace.record("ticket", q.ticket);
            tracing::debug_span!(parent: &q.trace, spans::SQLITE, changes = batch.len())
        })
        .collect()
}

/// What a change adds to the feed.
fn feed_events(change: &Change) -> Vec<FeedEvent> {
    match change {
        Change::Created(game) => vec![game.feed()],
        Change::Events { feed, .. } => feed.clone(),
        _ => Vec::new(),
    }
}

/// Commits one batch in one transaction: its changes, its feed events numbered after `last`,
/// and the deletion of the feed rows up to `trim` (those the feed no longer keeps); folds the
/// recent events' log when it is full.
fn commit(
    conn: &mut Connection,
    log: &mut RecentLog,
    batch: &[Queued],
    events: &[FeedEvent],
    last: u64,
    trim: Option<u64>,
) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    for queued in batch {
        match &queued.change {
            Change::Created(game) => insert_game(&tx, game)?,
            Change::Events {
                game,
                variant,
                rows,
                feed: _,
            } => insert_events(&tx, log, *game, *variant, rows)?,
            Change::TokenIssued {
                id,
                digest,
                player,
                at_ms,
            } => {
                tx.prepare_cached(
                    "INSERT OR REPLACE INTO player_tokens (token_id, digest, player_id, issued_at_ms)
                     VALUES (?1, ?2, ?3, ?4)",
                )?
                .execute(params![
                    id.to_string(),
                    &digest.as_bytes()[..],
                    player.as_str(),
                    *at_ms as i64
                ])?;
            }
            Change::TokensRevoked(ids) => {
                let mut delete =
                    tx.prepare_cached("DELETE FROM player_tokens WHERE token_id = ?1")?;
                for id in ids {
                    delete.execute([id.to_string()])?;
                }
            }
            Change::Forget(ids) => {
                // Their events must all be in `events` for the deletion below to find them.
                if log.holds_any(ids) {
                    log.fold(&tx)?;
                }
                let mut events = tx.prepare_cached("DELETE FROM events WHERE game_id = ?1")?;
                let mut games = tx.prepare_cached("DELETE FROM games WHERE id = ?1")?;
                for id in ids {
                    let id = id.to_string();
                    events.execute([&id])?;
                    games.execute([&id])?;
                }
            }
            Change::Alive => {}
        }
    }
    if !events.is_empty() {
        let mut insert = tx.prepare_cached(
            "INSERT INTO feed (pos, at_ms, game_id, body) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (i, event) in events.iter().enumerate() {
            insert.execute(params![
                (last + 1 + i as u64) as i64,
                epoch_ms(event.at) as i64,
                event.game.id.to_string(),
                codec::line(event),
            ])?;
        }
        tx.prepare_cached("INSERT OR REPLACE INTO meta (key, value) VALUES ('feed_last', ?1)")?
            .execute([(last + events.len() as u64) as i64])?;
    }
    if let Some(trim) = trim {
        tx.prepare_cached("DELETE FROM feed WHERE pos <= ?1")?
            .execute([trim as i64])?;
    }
    tx.prepare_cached("INSERT OR REPLACE INTO meta (key, value) VALUES ('alive_ms', ?1)")?
        .execute([epoch_ms(SystemTime::now()) as i64])?;
    if log.full() {
        log.fold(&tx)?;
    }
    tx.commit()
}

fn insert_game(tx: &Transaction<'_>, game: &CreatedGame) -> rusqlite::Result<()> {
    let values = columns::row_values(
        &game.header,
        &game.seats,
        game.takebacks,
        game.request_id.as_deref(),
    );
    tx.prepare_cached(&columns::INSERT)?
        .execute(rusqlite::params_from_iter(values))?;
    Ok(())
}

fn insert_events(
    tx: &Transaction<'_>,
    log: &mut RecentLog,
    game: GameId,
    variant: AnyVariant,
    rows: &[EventRow],
) -> rusqlite::Result<()> {
    let id = game.to_string();
    log.append(tx, game, &id, rows)?;
    for row in rows {
        if let (LogKind::GameOver, Some(outcome)) = (row.kind, row.outcome) {
            tx.prepare_cached("UPDATE games SET ended_at_ms = ?2 WHERE id = ?1")?
                .execute(params![id, row.at_ms as i64])?;
            if !outcome.termination.is_abort() {
                let (w, b, d) = match outcome.winner {
                    Some(Color::White) => (1, 0, 0),
                    Some(Color::Black) => (0, 1, 0),
                    None => (0, 0, 1),
                };
                tx.prepare_cached(
                    "INSERT INTO stats (variant, white_wins, black_wins, draws)
                     VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (variant) DO UPDATE SET
                         white_wins = white_wins + excluded.white_wins,
                         black_wins = black_wins + excluded.black_wins,
                         draws = draws + excluded.draws",
                )?
                .execute(params![variant.key(), w, b, d])?;
            }
        }
    }
    Ok(())
}
