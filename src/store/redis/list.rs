//! Reads across the buckets: ListGames merges the buckets' lists by id (ids sort by creation
//! and are unique across buckets, so the page and its cursor are what one list would give);
//! GetStats sums their result counts. Filtered by labels, both read a label's index in each
//! bucket (the games carrying it) instead of every game, and check the other labels on each.

use std::collections::HashMap;

use chessd_rules::{Color, any::AnyVariant};

use crate::error::ServiceError;
use crate::game::{GameId, GameStatus, GameSummary, Labels, Stats, VariantStats};
use crate::store::config::MAX_LIST_SCAN;
use crate::store::game_store::{GamePage, ListQuery};
use crate::store::redis::codec;
use crate::store::redis::failure::{damaged, unavailable};
use crate::store::redis::keys;
use crate::store::redis::keys::BUCKETS;
use crate::store::redis::state::Inner;

/// Game ids ListGames reads per round trip.
const LIST_BATCH: usize = 256;

/// One bucket's side of a ListGames merge.
struct Lane {
    /// The sorted set read: the bucket's games, or those with the filter's first label.
    key: String,
    /// Ids read and not merged yet with their summary fields, newest last.
    ahead: Vec<(GameId, Vec<Option<String>>)>,
    /// Where the next read starts: `+`, or `(<id>` below the last id read.
    cursor: String,
    /// Nothing is left below the cursor.
    done: bool,
    /// Ids the next read asks for.
    batch: usize,
}

impl Inner {
    /// A page of games, newest first: the buckets' lists merged by id (ids sort by creation
    /// and are unique across buckets, so the page and its cursor are what one list would give).
    pub(super) async fn list(&self, query: ListQuery) -> Result<GamePage, ServiceError> {
        let page_size = query.page_size.max(1);
        let start = query
            .before
            .map_or_else(|| "+".to_owned(), |b| format!("({b}"));
        // A page takes about page_size / BUCKETS games from each bucket: read a little more
        // than that first, and more each time a bucket runs dry.
        let batch = (page_size / BUCKETS + 8).min(LIST_BATCH);
        let mut lanes: Vec<Lane> = (0..BUCKETS)
            .map(|bucket| Lane {
                key: list_key(bucket, &query.filter.labels),
                ahead: Vec::new(),
                cursor: start.clone(),
                done: false,
                batch,
            })
            .collect();
        let mut found = Vec::new();
        let mut scanned = 0usize;
        let mut next = None;
        loop {
            for lane in &mut lanes {
                if lane.ahead.is_empty() && !lane.done {
                    self.read_lane(lane).await?;
                }
            }
            let newest = lanes
                .iter()
                .enumerate()
                .filter_map(|(i, lane)| lane.ahead.last().map(|(id, _)| (*id, i)))
                .max();
            let Some((_, i)) = newest else { break };
            let Some((id, values)) = lanes[i].ahead.pop() else {
                break;
            };
            if scanned == MAX_LIST_SCAN {
                // The scan budget ran out: continue below the last game examined.
                next = Some(id.successor());
                break;
            }
            scanned += 1;
            let Some(codec::Listed {
                variant,
                players,
                labels,
                summary,
            }) = codec::decode_summary(&values).map_err(|d| damaged(id, &d))?
            else {
                continue;
            };
            if !query
                .filter
                .matches(variant, summary.status, &players, &labels)
            {
                continue;
            }
            let position = crate::game::setup::position_from_fen(variant, &summary.fen)
                .map_err(|e| damaged(id, &format!("position: {e}")))?;
            found.push(GameSummary {
                id,
                variant,
                players,
                labels: labels.shared(),
                outcome: summary.outcome,
                ply: summary.ply,
                position,
                created_at: id.created_at(),
            });
            if found.len() == page_size {
                next = Some(id);
                break;
            }
        }
        Ok(GamePage { games: found, next })
    }

    /// Reads the next ids of a bucket's list below its cursor, with their summaries (one
    /// pipeline: a bucket is one slot).
    async fn read_lane(&self, lane: &mut Lane) -> Result<(), ServiceError> {
        let ids: Vec<String> = ::redis::cmd("ZREVRANGEBYLEX")
            .arg(&lane.key)
            .arg(&lane.cursor)
            .arg("-")
            .arg("LIMIT")
            .arg(0)
            .arg(lane.batch)
            .query_async(&mut self.conn())
            .await
            .map_err(|e| unavailable(&e))?;
        lane.done = ids.len() < lane.batch;
        let Some(last) = ids.last() else {
            return Ok(());
        };
        lane.cursor = format!("({last}");
        lane.batch = (lane.batch * 2).min(LIST_BATCH);
        let mut pipe = ::redis::pipe();
        let mut parsed = Vec::with_capacity(ids.len());
        for text in &ids {
            let id: GameId = text.parse().map_err(|_| {
                ServiceError::Internal(format!("bad game id {text:?} in the list").into())
            })?;
            pipe.cmd("HMGET")
                .arg(keys::game_key(id))
                .arg(&codec::SUMMARY_FIELDS[..]);
            parsed.push(id);
        }
        let rows: Vec<Vec<Option<String>>> = pipe
            .query_async(&mut self.conn())
            .await
            .map_err(|e| unavailable(&e))?;
        // Newest last: the merge pops from the end.
        lane.ahead = parsed.into_iter().zip(rows).rev().collect();
        Ok(())
    }

    /// The result counts summed over the buckets (one HGETALL each: they are in different
    /// slots). A game ending meanwhile may be counted in one bucket read and not yet in another,
    /// as any read racing a write; every count is a game's, exactly once. With labels: the
    /// finished games kept that carry them, counted from each bucket's index of the first.
    pub(super) async fn stats(&self, labels: &Labels) -> Result<Stats, ServiceError> {
        if !labels.is_empty() {
            return self.labelled_stats(labels).await;
        }
        let mut counts: HashMap<String, u64> = HashMap::new();
        for bucket in 0..BUCKETS {
            let part: HashMap<String, u64> = ::redis::cmd("HGETALL")
                .arg(keys::stats_key(bucket))
                .query_async(&mut self.conn())
                .await
                .map_err(|e| unavailable(&e))?;
            for (field, n) in part {
                *counts.entry(field).or_default() += n;
            }
        }
        let count = |v: AnyVariant, side: &str| {
            counts
                .get(&format!("{}:{side}", v.key()))
                .copied()
                .unwrap_or(0)
        };
        Ok(Stats {
            variants: crate::game::served::served()
                .map(|variant| VariantStats {
                    variant,
                    white_wins: count(variant, "w"),
                    black_wins: count(variant, "b"),
                    draws: count(variant, "d"),
                })
                .collect(),
        })
    }
}

/// The sorted set a list reads in `bucket`: every game, or those with the first of `labels`.
fn list_key(bucket: usize, labels: &Labels) -> String {
    match labels.iter().next() {
        Some((k, v)) => keys::label_key(bucket, k, v),
        None => keys::games_key(bucket),
    }
}

impl Inner {
    /// Result counts of the finished games kept that carry every one of `labels`.
    async fn labelled_stats(&self, labels: &Labels) -> Result<Stats, ServiceError> {
        let mut counts: HashMap<AnyVariant, VariantStats> = HashMap::new();
        for bucket in 0..BUCKETS {
            let mut cursor = "-".to_owned();
            loop {
                let ids: Vec<String> = ::redis::cmd("ZRANGEBYLEX")
                    .arg(list_key(bucket, labels))
                    .arg(&cursor)
                    .arg("+")
                    .arg("LIMIT")
                    .arg(0)
                    .arg(LIST_BATCH)
                    .query_async(&mut self.conn())
                    .await
                    .map_err(|e| unavailable(&e))?;
                let Some(last) = ids.last() else { break };
                cursor = format!("({last}");
                let mut pipe = ::redis::pipe();
                let mut parsed = Vec::with_capacity(ids.len());
                for text in &ids {
                    let Ok(id) = text.parse::<GameId>() else {
                        continue;
                    };
                    pipe.cmd("HMGET")
                        .arg(keys::game_key(id))
                        .arg(&codec::SUMMARY_FIELDS[..]);
                    parsed.push(id);
                }
                let rows: Vec<Vec<Option<String>>> = pipe
                    .query_async(&mut self.conn())
                    .await
                    .map_err(|e| unavailable(&e))?;
                for (id, values) in parsed.into_iter().zip(rows) {
                    let Some(listed) =
                        codec::decode_summary(&values).map_err(|d| damaged(id, &d))?
                    else {
                        continue;
                    };
                    let outcome = match listed.summary.outcome {
                        Some(o) if listed.summary.status == GameStatus::Finished => o,
                        _ => continue,
                    };
                    if outcome.termination.is_abort() || !listed.labels.contains_all(labels) {
                        continue;
                    }
                    let c = counts.entry(listed.variant).or_insert(VariantStats {
                        variant: listed.variant,
                        white_wins: 0,
                        black_wins: 0,
                        draws: 0,
                    });
                    match outcome.winner {
                        Some(Color::White) => c.white_wins += 1,
                        Some(Color::Black) => c.black_wins += 1,
                        None => c.draws += 1,
                    }
                }
                if ids.len() < LIST_BATCH {
                    break;
                }
            }
        }
        Ok(Stats {
            variants: [
                AnyVariant::CHESS,
                AnyVariant::Std(chessd_rules::Variant::RacingKings),
            ]
            .iter()
            .map(|&variant| {
                counts.get(&variant).copied().unwrap_or(VariantStats {
                    variant,
                    white_wins: 0,
                    black_wins: 0,
                    draws: 0,
                })
            })
            .collect(),
        })
    }
}
