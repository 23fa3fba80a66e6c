//! ListGames in memory: a page of summaries, newest first, from every shard's ordered map, with
//! a bounded scan so that a filter that rarely matches cannot make one request walk every game;
//! and GetStats of the games with some labels (a tournament's), counted from the games kept.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError};

use chessd_rules::{Color, any::AnyVariant};

use crate::game::{GameId, GameStatus, GameSummary, Labels, Now, Stats, VariantStats};
use crate::store::config::MAX_LIST_SCAN;
use crate::store::game_store::{GamePage, ListQuery};
use crate::store::memory::entry::GameEntry;
use crate::store::memory::inner::{Inner, SHARDS};

impl Inner {
    pub(super) fn list(&self, query: &ListQuery) -> GamePage {
        let page_size = query.page_size.max(1);
        let budget = (MAX_LIST_SCAN / SHARDS).max(1);
        let mut found: Vec<Arc<GameEntry>> = Vec::new();
        // Every game newer than `floor` was examined; older ones may not have been.
        let mut floor: Option<GameId> = None;
        for shard in self.shards.iter() {
            let map = shard.read().unwrap_or_else(PoisonError::into_inner);
            let range = match query.before {
                Some(before) => map.range(..before),
                None => map.range(..),
            };
            let (mut scanned, mut matched) = (0, 0);
            for (id, entry) in range.rev() {
                if scanned == budget {
                    floor = floor.max(Some(*id));
                    break;
                }
                scanned += 1;
                if entry.matches(&query.filter) {
                    found.push(entry.clone());
                    matched += 1;
                    if matched == page_size {
                        break;
                    }
                }
            }
        }
        found.sort_unstable_by_key(|entry| std::cmp::Reverse(entry.id()));
        if let Some(floor) = floor {
            found.retain(|entry| entry.id() > floor);
        }
        found.truncate(page_size);
        let next = match (found.len() == page_size, found.last(), floor) {
            (true, Some(last), _) => Some(last.id()),
            // The scan budget ran out: continue from the oldest game examined everywhere.
            (_, _, Some(floor)) => Some(floor.successor()),
            _ => None,
        };
        let now = Now::read();
        let games = found
            .iter()
            .filter_map(|entry| {
                let state = entry.lock();
                // A game that does not unpack (a bug, never the caller's) is left off the page
                // rather than failing it; a call on the game itself reports it.
                let record = state
                    .held
                    .read(&entry.header, self.limits.abandon_after, now)
                    .ok()?;
                let game = record.game();
                Some(GameSummary {
                    id: entry.id(),
                    variant: entry.variant(),
                    players: entry.header.players.clone(),
                    labels: entry.header.labels.clone(),
                    outcome: game.outcome(),
                    ply: game.ply(),
                    position: game.position(),
                    created_at: entry.id().created_at(),
                })
            })
            .collect();
        GamePage { games, next }
    }
}

impl Inner {
    /// Result counts of the finished games kept that carry every one of `labels`: every game is
    /// looked at (its labels are outside its lock; only the matching finished ones are locked
    /// for their outcome), as many as `--max-finished-games` and the live games.
    pub(super) fn labelled_stats(&self, labels: &Labels) -> Stats {
        let mut counts: HashMap<AnyVariant, VariantStats> = HashMap::new();
        for shard in self.shards.iter() {
            let entries: Vec<Arc<GameEntry>> = {
                let map = shard.read().unwrap_or_else(PoisonError::into_inner);
                map.values()
                    .filter(|e| {
                        e.status() == GameStatus::Finished && e.header.labels.contains_all(labels)
                    })
                    .cloned()
                    .collect()
            };
            for entry in entries {
                let Some(outcome) = entry.lock().held.outcome() else {
                    continue;
                };
                if outcome.termination.is_abort() {
                    continue;
                }
                let c = counts.entry(entry.variant()).or_insert(VariantStats {
                    variant: entry.variant(),
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
        }
        Stats {
            variants: crate::game::served::served()
                .map(|variant| {
                    counts.get(&variant).copied().unwrap_or(VariantStats {
                        variant,
                        white_wins: 0,
                        black_wins: 0,
                        draws: 0,
                    })
                })
                .collect(),
        }
    }
}
