//! The cache of recently used games: a call takes a game out (so no lock is held across an
//! `.await` and two calls never share a record), brings it up to date with the events other
//! replicas appended (played onto the cached record, in time proportional to the new events),
//! or loads it whole, and puts it back.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError};
use std::time::Duration;

use crate::error::ServiceError;
use crate::game::takeback::Line;
use crate::game::{EventRow, GameId, GameRecord, Now, Stored, epoch_ms};
use crate::store::redis::cached::Cached;
use crate::store::redis::codec::{self, Entry, Meta};
use crate::store::redis::keys;
use crate::store::redis::state::{CACHE_GAMES, Inner, damaged, unavailable};

impl Inner {
    pub fn take_cached(&self, id: GameId) -> Option<Box<Cached>> {
        self.cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&id)
    }

    /// Keeps `game` for the next call, unless a newer copy came back meanwhile.
    pub fn put_back(&self, id: GameId, game: Box<Cached>) {
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        if cache
            .get(&id)
            .is_some_and(|c| c.record.last_seq() >= game.record.last_seq())
        {
            return;
        }
        if cache.len() >= CACHE_GAMES
            && !cache.contains_key(&id)
            && let Some(&victim) = cache.keys().next()
        {
            cache.remove(&victim);
        }
        cache.insert(id, game);
    }

    /// The game as Redis has it now: the cached copy brought up to date, or a fresh load.
    pub async fn load(&self, id: GameId) -> Result<Box<Cached>, ServiceError> {
        match self.take_cached(id) {
            Some(game) => self.catch_up(id, game).await,
            None => self.fetch(id).await,
        }
    }

    /// Reads the whole game.
    pub async fn fetch(&self, id: GameId) -> Result<Box<Cached>, ServiceError> {
        let (map, entries): (HashMap<String, String>, Vec<Entry>) = ::redis::pipe()
            .hgetall(keys::game_key(id))
            .cmd("XRANGE")
            .arg(keys::events_key(id))
            .arg("-")
            .arg("+")
            .query_async(&mut self.conn())
            .await
            .map_err(|e| unavailable(&e))?;
        if map.is_empty() {
            return Err(ServiceError::GameNotFound { id });
        }
        let meta = Arc::new(codec::decode_meta(id, &map).map_err(|d| damaged(id, &d))?);
        let mut line = Line::from_start(meta.header.start);
        let rows = codec::decode_rows(&mut line, 1, &entries).map_err(|d| damaged(id, &d))?;
        let record = rebuild(&meta, rows, self.limits.abandon_after, Now::read())
            .map_err(|d| damaged(id, &d))?;
        Ok(Box::new(Cached { meta, record }))
    }

    /// Brings a cached game up to date with the events other replicas appended.
    pub async fn catch_up(
        &self,
        id: GameId,
        game: Box<Cached>,
    ) -> Result<Box<Cached>, ServiceError> {
        let next = game.record.last_seq() + 1;
        // The hash is checked too: a game forgotten by another replica must not live on here.
        let (exists, entries): (bool, Vec<Entry>) = ::redis::pipe()
            .exists(keys::game_key(id))
            .cmd("XRANGE")
            .arg(keys::events_key(id))
            .arg(format!("{next}-0"))
            .arg("+")
            .query_async(&mut self.conn())
            .await
            .map_err(|e| unavailable(&e))?;
        if !exists {
            return Err(ServiceError::GameNotFound { id });
        }
        self.caught_up(id, game, &entries)
    }

    /// `game` with `entries` played onto it: the stream entries after its last event, as
    /// XRANGE (or a stale append's reply) gave them.
    pub fn caught_up(
        &self,
        id: GameId,
        mut game: Box<Cached>,
        entries: &[Entry],
    ) -> Result<Box<Cached>, ServiceError> {
        if entries.is_empty() {
            return Ok(game);
        }
        let next = game.record.last_seq() + 1;
        let mut line = Line::of(game.record.game());
        let rows = codec::decode_rows(&mut line, next, entries).map_err(|d| damaged(id, &d))?;
        let now = Now::read();
        let last_ms = rows.last().map_or(0, |r| r.at_ms);
        let charged = Duration::from_millis(epoch_ms(now.wall).saturating_sub(last_ms));
        game.record
            .catch_up(&rows, keys::request_key, charged, now)
            .map_err(|d| damaged(id, &d))?;
        // The moves may have been played elsewhere: abandonment counts from the last of them.
        game.record.idle_since_last_move(now);
        Ok(game)
    }
}

/// A game's events and hash, played back into a record whose clock runs from `now` (the side
/// to move is charged the wall time since the last event: it was thinking on some replica),
/// abandoned after `abandon_after` without a move counted from the last move's wall time.
fn rebuild(
    meta: &Meta,
    rows: Vec<EventRow>,
    abandon_after: Option<Duration>,
    now: Now,
) -> Result<GameRecord, String> {
    let h = &meta.header;
    let last_ms = rows.last().map_or(epoch_ms(h.created_at), |r| r.at_ms);
    let charged = Duration::from_millis(epoch_ms(now.wall).saturating_sub(last_ms));
    let stored = Stored {
        start: h.start,
        draw_rule: h.draw_rule,
        time_control: h.time_control,
        start_rules: h.start_rules,
        takebacks: meta.takebacks,
        seats: meta.seats,
        created_at: h.created_at,
        events: rows,
        charged,
        claim_after: h.claim_after,
    };
    let mut record =
        GameRecord::restore(stored, keys::request_key, now)?.abandoned_after(abandon_after);
    record.idle_since_last_move(now);
    Ok(record)
}
