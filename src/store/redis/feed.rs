//! The feed (WatchGames) on Redis: one lane per bucket, a Redis stream
//! (`{chessd:bNN}:feed`) that the create and append scripts write in the same step as the game
//! change, so a lane holds its bucket's creations, moves and ends in the order they happened.
//!
//! Why a lane per bucket, and a cursor with one position per lane: every change to a game is
//! one script in one cluster slot (its bucket's), and only there can its feed entry be written
//! atomically with it. One stream for the whole deployment would sit in one slot, written by
//! a second, non-atomic command (a crash between the two would lose or invent an event), and
//! every write of the deployment would go to one node. So the feed is 16 ordered logs, and a
//! consumer's cursor says how far it has read each one; entry ids come from the Redis that
//! holds the lane (`<ms>-<n>`, always increasing in a lane). Any replica reads any lane, so
//! any replica resumes any cursor, with nothing missed and nothing twice: the lanes are the
//! truth, and every replica reads the same entries from them. Lanes are merged by entry id
//! (roughly the time of the event), so events of different games arrive in about the order
//! they happened, and a game's own events always in order (they are all in its bucket's
//! lane).
//!
//! Trimming (`sweep`, `FEED_TRIM`) records the last id it removed (`feed:floor`); reading a
//! lane checks that floor in the same script (`FEED_READ`), so a cursor older than what is
//! kept is refused (CURSOR_OUT_OF_RANGE, with the oldest cursor that resumes), never read
//! across a gap. The feed's epoch (`{chessd:feed}:epoch`, drawn by the first replica that
//! needs it) is in every cursor: a cursor from another Redis, or from before a flush, is
//! refused too.
//!
//! An entry holds its event in one field, `e`, as a SQLite feed row's line (the header joined
//! in it; one string an entry is what a move costs the append script least); entries written
//! before that hold the event's fields, and still read.
//!
//! Live: one follower per replica (`feed_follow`) reads the lanes' new entries and sends them
//! to the replica's consumers on one bounded broadcast; a consumer behind it reads the lanes
//! itself (`GameStore::feed_page`).

use std::collections::HashMap;
use std::sync::Arc;

use ::redis::Value;

use crate::error::ServiceError;
use crate::game::{FeedEvent, PlayerId};
use crate::store::feed::codec::{Headers, decode};
use crate::store::feed::cursor::{FeedCursor, LanePos};
use crate::store::feed::subscription::{FeedEntry, FeedSubscription};
use crate::store::redis::codec;
use crate::store::redis::failure::unavailable;
use crate::store::redis::keys;
use crate::store::redis::keys::BUCKETS;
use crate::store::redis::scripts;
use crate::store::redis::state::Inner;
use crate::store::stream_error::StreamError;

/// A lane read: its entries, or why it cannot be read from the position asked.
pub(super) enum LaneRead {
    Entries(Vec<(LanePos, FeedEvent)>),
    /// Trimmed past the position.
    Gone,
    /// The position is past anything the lane ever held.
    Ahead,
}

/// Damaged feed data: logged, INTERNAL for the client.
fn damaged_feed(bucket: usize, detail: &str) -> ServiceError {
    tracing::error!(bucket, detail, "damaged feed entry in redis");
    ServiceError::Internal(format!("feed lane {bucket} in redis: {detail}").into())
}

impl Inner {
    /// The feed's epoch, drawn now if no replica has yet.
    pub(super) async fn feed_epoch(&self) -> Result<u64, ServiceError> {
        let fresh = getrandom::u64().map_err(|e| ServiceError::Internal(Box::new(e)))?;
        let _: Option<String> = ::redis::cmd("SET")
            .arg(keys::FEED_EPOCH_KEY)
            .arg(fresh)
            .arg("NX")
            .query_async(&mut self.conn())
            .await
            .map_err(|e| unavailable(&e))?;
        let epoch: Option<u64> = ::redis::cmd("GET")
            .arg(keys::FEED_EPOCH_KEY)
            .query_async(&mut self.conn())
            .await
            .map_err(|e| unavailable(&e))?;
        Ok(epoch.unwrap_or(fresh))
    }

    /// Up to `count` entries of `bucket`'s lane after `after`, decoded (headers shared through
    /// `headers`).
    pub(super) async fn read_feed_lane(
        &self,
        bucket: usize,
        after: LanePos,
        count: usize,
        headers: &mut Headers,
    ) -> Result<LaneRead, ServiceError> {
        let (status, body): (String, Value) = scripts::FEED_READ
            .prepare_invoke()
            .key(keys::feed_key(bucket))
            .key(keys::feed_floor_key(bucket))
            .arg(after.to_string())
            .arg(count)
            .invoke_async(&mut self.conn())
            .await
            .map_err(|e| unavailable(&e))?;
        match status.as_str() {
            "gone" => return Ok(LaneRead::Gone),
            "ahead" => return Ok(LaneRead::Ahead),
            "ok" => {}
            other => {
                return Err(damaged_feed(
                    bucket,
                    &format!("feed read answered {other:?}"),
                ));
            }
        }
        let entries: Vec<(String, Vec<String>)> =
            ::redis::from_redis_value(body).map_err(|e| damaged_feed(bucket, &e.to_string()))?;
        let mut out = Vec::with_capacity(entries.len());
        for (id, flat) in &entries {
            let pos: LanePos = id
                .parse()
                .map_err(|()| damaged_feed(bucket, &format!("entry id {id:?}")))?;
            // A line, or in an entry written before lines the fields with the header in `h`.
            let event = codec::entry_fields(flat)
                .and_then(|fields| decode(&fields, headers))
                .map_err(|d| damaged_feed(bucket, &d))?;
            out.push((pos, event));
        }
        Ok(LaneRead::Entries(out))
    }

    /// Where each lane ends now: its last entry, or the last one trimmed (`0-0`: never
    /// written).
    pub(super) async fn tails(&self) -> Result<Vec<LanePos>, ServiceError> {
        let mut tails = Vec::with_capacity(BUCKETS);
        for bucket in 0..BUCKETS {
            let last: Vec<(String, Value)> = ::redis::cmd("XREVRANGE")
                .arg(keys::feed_key(bucket))
                .arg("+")
                .arg("-")
                .arg("COUNT")
                .arg(1)
                .query_async(&mut self.conn())
                .await
                .map_err(|e| unavailable(&e))?;
            let floor: Option<String> = ::redis::cmd("GET")
                .arg(keys::feed_floor_key(bucket))
                .query_async(&mut self.conn())
                .await
                .map_err(|e| unavailable(&e))?;
            let last: Option<LanePos> = last.first().and_then(|(id, _)| id.parse().ok());
            let floor: Option<LanePos> = floor.and_then(|f| f.parse().ok());
            tails.push(last.max(floor).unwrap_or_default());
        }
        Ok(tails)
    }

    /// The oldest cursor that resumes: after the last entry trimmed from each lane.
    pub(super) async fn oldest_cursor(&self, epoch: u64) -> Result<FeedCursor, ServiceError> {
        let mut lanes = Vec::with_capacity(BUCKETS);
        for bucket in 0..BUCKETS {
            let floor: Option<String> = ::redis::cmd("GET")
                .arg(keys::feed_floor_key(bucket))
                .query_async(&mut self.conn())
                .await
                .map_err(|e| unavailable(&e))?;
            lanes.push(floor.and_then(|f| f.parse().ok()).unwrap_or_default());
        }
        Ok(FeedCursor { epoch, lanes })
    }

    async fn out_of_range(&self, epoch: u64) -> ServiceError {
        match self.oldest_cursor(epoch).await {
            Ok(oldest) => ServiceError::Stream(StreamError::CursorOutOfRange {
                oldest_cursor: oldest.to_string(),
            }),
            Err(e) => e,
        }
    }

    /// A consumer's start (see `GameStore::feed`).
    pub(super) async fn feed(
        self: &Arc<Inner>,
        after: Option<FeedCursor>,
        player: Option<PlayerId>,
    ) -> Result<FeedSubscription, ServiceError> {
        let epoch = self.feed_epoch().await?;
        if let Some(cursor) = &after {
            if cursor.epoch != epoch || cursor.lanes.len() != BUCKETS {
                return Err(self.out_of_range(epoch).await);
            }
            // Every lane must still hold what follows the cursor.
            let mut headers = Headers::new();
            for (bucket, &pos) in cursor.lanes.iter().enumerate() {
                match self.read_feed_lane(bucket, pos, 1, &mut headers).await? {
                    LaneRead::Entries(_) => {}
                    LaneRead::Gone | LaneRead::Ahead => return Err(self.out_of_range(epoch).await),
                }
            }
        }
        let (live, now) = self.feed_follow.subscribe(self, epoch).await?;
        let running = match (&after, player) {
            (None, Some(player)) => self.running(&player, &now).await?,
            _ => Vec::new(),
        };
        let start = after.unwrap_or(FeedCursor { epoch, lanes: now });
        Ok(FeedSubscription {
            start,
            live,
            running,
        })
    }

    /// The creations of `player`'s running games, created at or before `at` (later ones come
    /// live).
    async fn running(
        &self,
        player: &PlayerId,
        at: &[LanePos],
    ) -> Result<Vec<FeedEvent>, ServiceError> {
        let mut out = Vec::new();
        for (bucket, &seen) in at.iter().enumerate() {
            let ids: Vec<String> = ::redis::cmd("SMEMBERS")
                .arg(keys::player_games_key(bucket, player.as_str()))
                .query_async(&mut self.conn())
                .await
                .map_err(|e| unavailable(&e))?;
            let ids: Vec<crate::game::GameId> = ids.iter().filter_map(|t| t.parse().ok()).collect();
            if ids.is_empty() {
                continue;
            }
            let mut pipe = ::redis::pipe();
            for id in &ids {
                pipe.hgetall(keys::game_key(*id));
            }
            let maps: Vec<HashMap<String, String>> = pipe
                .query_async(&mut self.conn())
                .await
                .map_err(|e| unavailable(&e))?;
            for (id, map) in ids.into_iter().zip(maps) {
                let created: Option<LanePos> = map.get("feed_id").and_then(|f| f.parse().ok());
                let ongoing = map.get("status").map(String::as_str) == Some("0");
                if !ongoing || created.is_none_or(|c| c > seen) {
                    continue;
                }
                let meta = codec::decode_meta(id, &map)
                    .map_err(|d| crate::store::redis::failure::damaged(id, &d))?;
                out.push(FeedEvent::created(meta.header));
            }
        }
        out.sort_by_key(|e| e.game.id);
        Ok(out)
    }

    /// Entries after `after`, the lanes merged by id (see `GameStore::feed_page`): each lane
    /// gives up to `limit`, and only what is certainly in order is returned: entries up to the
    /// smallest last id among the lanes that had more to give.
    pub(super) async fn feed_page(
        &self,
        after: &FeedCursor,
        limit: usize,
    ) -> Result<Vec<Arc<FeedEntry>>, ServiceError> {
        if after.lanes.len() != BUCKETS {
            return Err(self.out_of_range(after.epoch).await);
        }
        let limit = limit.max(1);
        let mut headers = Headers::new();
        let mut all: Vec<(LanePos, usize, FeedEvent)> = Vec::new();
        let mut frontier: Option<LanePos> = None;
        for (bucket, &pos) in after.lanes.iter().enumerate() {
            let entries = match self
                .read_feed_lane(bucket, pos, limit, &mut headers)
                .await?
            {
                LaneRead::Entries(entries) => entries,
                LaneRead::Gone | LaneRead::Ahead => {
                    return Err(self.out_of_range(after.epoch).await);
                }
            };
            if entries.len() == limit
                && let Some(&(last, _)) = entries.last()
            {
                frontier = Some(frontier.map_or(last, |f| f.min(last)));
            }
            all.extend(entries.into_iter().map(|(p, e)| (p, bucket, e)));
        }
        all.sort_by_key(|a| (a.0, a.1));
        Ok(all
            .into_iter()
            .filter(|(pos, _, _)| frontier.is_none_or(|f| *pos <= f))
            .map(|(pos, lane, event)| Arc::new(FeedEntry { lane, pos, event }))
            .collect())
    }
}
