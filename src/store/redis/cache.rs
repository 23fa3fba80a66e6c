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
use crate::metrics;
use crate::store::redis::cached::Cached;
use crate::store::redis::codec::{self, Entry, Meta};
use crate::store::redis::failure::{damaged, unavailable};
use crate::store::redis::keys;
use crate::store::redis::state::{CACHE_GAMES, Inner};
use crate::store::store_error::StoreError;

impl Inner {
    pub(super) fn take_cached(&self, id: GameId) -> Option<Box<Cached>> {
        self.cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&id)
    }

    /// Keeps `game` for the next call, unless a newer copy came back meanwhile.
    pub(super) fn put_back(&self, id: GameId, game: Box<Cached>) {
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
    pub(super) async fn load(&self, id: GameId) -> Result<Box<Cached>, ServiceError> {
        match self.take_cached(id) {
            Some(game) => self.catch_up(id, game).await,
            None => self.fetch(id).await,
        }
    }

    /// [`load`], every part of it confirmed by the replicas `--redis-min-replicas` asks for
    /// (see `ack`): what watchers are sent. Without the option, [`load`] itself.
    ///
    /// [`load`]: Inner::load
    pub(super) async fn load_confirmed(&self, id: GameId) -> Result<Box<Cached>, ServiceError> {
        match self.take_cached(id) {
            Some(game) => self.catch_up_via(id, game, Via::Confirmed).await,
            None => self.fetch_via(id, Via::Confirmed).await,
        }
    }

    /// Reads the whole game.
    pub(super) async fn fetch(&self, id: GameId) -> Result<Box<Cached>, ServiceError> {
        self.fetch_via(id, Via::Plain).await
    }

    /// [`fetch`](Inner::fetch), confirmed like [`load_confirmed`](Inner::load_confirmed).
    pub(super) async fn fetch_confirmed(&self, id: GameId) -> Result<Box<Cached>, ServiceError> {
        self.fetch_via(id, Via::Confirmed).await
    }

    /// [`catch_up`](Inner::catch_up), confirmed like [`load_confirmed`](Inner::load_confirmed).
    pub(super) async fn catch_up_confirmed(
        &self,
        id: GameId,
        game: Box<Cached>,
    ) -> Result<Box<Cached>, ServiceError> {
        self.catch_up_via(id, game, Via::Confirmed).await
    }

    async fn fetch_via(&self, id: GameId, via: Via) -> Result<Box<Cached>, ServiceError> {
        let mut pipe = ::redis::pipe();
        pipe.hgetall(keys::game_key(id))
            .cmd("XRANGE")
            .arg(keys::events_key(id))
            .arg("-")
            .arg("+");
        let answers = self.read_via(id, pipe, via).await?;
        let (map, entries): (HashMap<String, String>, Vec<Entry>) =
            two(answers).map_err(|e| unavailable(&e))?;
        if map.is_empty() {
            return Err(StoreError::GameNotFound { id }.into());
        }
        let meta = Arc::new(codec::decode_meta(id, &map).map_err(|d| damaged(id, &d))?);
        let mut line = Line::from_start(meta.header.start.position());
        let rows = codec::decode_rows(&mut line, 1, &entries).map_err(|d| damaged(id, &d))?;
        let record = rebuild(&meta, rows, self.limits.abandon_after, Now::read())
            .map_err(|d| damaged(id, &d))?;
        Ok(Box::new(Cached { meta, record }))
    }

    /// Brings a cached game up to date with the events other replicas appended.
    pub(super) async fn catch_up(
        &self,
        id: GameId,
        game: Box<Cached>,
    ) -> Result<Box<Cached>, ServiceError> {
        self.catch_up_via(id, game, Via::Plain).await
    }

    /// Reads the stream from the copy's last event on: that event must still be there, the
    /// same, or Redis went back in time (a failover lost writes the copy saw) and the copy is
    /// dropped for a fresh load. Acting on entries Redis no longer has would fork the game.
    async fn catch_up_via(
        &self,
        id: GameId,
        game: Box<Cached>,
        via: Via,
    ) -> Result<Box<Cached>, ServiceError> {
        let last = game.record.last_seq();
        // The hash is checked too: a game forgotten by another replica must not live on here.
        let mut pipe = ::redis::pipe();
        pipe.exists(keys::game_key(id))
            .cmd("XRANGE")
            .arg(keys::events_key(id))
            .arg(format!("{}-0", last.max(1)))
            .arg("+");
        let answers = self.read_via(id, pipe, via).await?;
        let (exists, mut entries): (bool, Vec<Entry>) =
            two(answers).map_err(|e| unavailable(&e))?;
        if !exists {
            return Err(StoreError::GameNotFound { id }.into());
        }
        if let Some(mine) = game.record.last_event() {
            let same = entries
                .first()
                .is_some_and(|entry| codec::entry_is(entry, last, codec::event_key(&mine)));
            if !same {
                tracing::warn!(
                    game_id = %id,
                    seq = last,
                    "redis no longer holds this replica's copy of the game (a failover lost writes?): reading it again"
                );
                metrics::store_rewound();
                drop(game);
                return self.fetch_via(id, via).await;
            }
            entries.remove(0);
        }
        self.caught_up(id, game, &entries)
    }

    /// Runs a read's pipeline on the shared connection, or confirmed (see [`Via`]).
    async fn read_via(
        &self,
        id: GameId,
        mut pipe: ::redis::Pipeline,
        via: Via,
    ) -> Result<Vec<::redis::Value>, ServiceError> {
        match (via, &self.acks) {
            (Via::Confirmed, Some(acks)) => {
                pipe.cmd("INCR")
                    .arg(keys::fence_key(keys::bucket_of(id)))
                    .ignore();
                let (answers, confirmed) = acks
                    .run(&mut acks.conn(), &pipe)
                    .await
                    .map_err(|e| unavailable(&e))?;
                if !confirmed.enough() {
                    return Err(StoreError::NotReplicated {
                        confirmed: confirmed.replicas,
                        required: confirmed.required,
                    }
                    .into());
                }
                Ok(answers)
            }
            _ => pipe
                .query_async(&mut self.conn())
                .await
                .map_err(|e| unavailable(&e)),
        }
    }

    /// `game` with `entries` played onto it: the stream entries after its last event, as
    /// XRANGE (or a stale append's reply) gave them.
    pub(super) fn caught_up(
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

/// How a read reaches Redis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Via {
    /// On the shared connection: what the primary holds now.
    Plain,
    /// With `--redis-min-replicas`, on a connection of the replicas' pool, followed by a fence
    /// and a WAIT: fails NOT_REPLICATED unless everything read is confirmed.
    Confirmed,
}

/// The two answers of a read's pipeline.
fn two<A: ::redis::FromRedisValue, B: ::redis::FromRedisValue>(
    answers: Vec<::redis::Value>,
) -> ::redis::RedisResult<(A, B)> {
    <(A, B) as ::redis::FromRedisValue>::from_redis_value(::redis::Value::Array(answers))
        .map_err(Into::into)
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
    let last_ms = rows.last().map_or(epoch_ms(h.created_at()), |r| r.at_ms);
    let charged = Duration::from_millis(epoch_ms(now.wall).saturating_sub(last_ms));
    let stored = Stored {
        start: h.start.position(),
        draw_rule: h.draw_rule,
        time_control: h.time_control(),
        start_rules: h.start_rules(),
        takebacks: meta.takebacks,
        seats: meta.seats.clone(),
        created_at: h.created_at(),
        events: rows,
        charged,
        claim_after: h.claim_after(),
    };
    let mut record =
        GameRecord::restore(stored, keys::request_key, now)?.abandoned_after(abandon_after);
    record.idle_since_last_move(now);
    Ok(record)
}
