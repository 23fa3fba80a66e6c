//! ListGames in memory: a page of summaries, newest first, from every shard's ordered map, with
//! a bounded scan so that a filter that rarely matches cannot make one request walk every game.

use std::sync::{Arc, PoisonError};

use crate::game::{GameId, GameSummary};
use crate::store::config::MAX_LIST_SCAN;
use crate::store::game_store::{GamePage, ListQuery};
use crate::store::memory::entry::GameEntry;
use crate::store::memory::inner::{Inner, SHARDS};

impl Inner {
    pub fn list(&self, query: &ListQuery) -> GamePage {
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
        found.sort_unstable_by_key(|entry| std::cmp::Reverse(entry.id));
        if let Some(floor) = floor {
            found.retain(|entry| entry.id > floor);
        }
        found.truncate(page_size);
        let next = match (found.len() == page_size, found.last(), floor) {
            (true, Some(last), _) => Some(last.id),
            // The scan budget ran out: continue from the oldest game examined everywhere.
            (_, _, Some(floor)) => Some(floor.successor()),
            _ => None,
        };
        let games = found
            .iter()
            .map(|entry| {
                let state = entry.lock();
                let game = state.record.game();
                GameSummary {
                    id: entry.id,
                    variant: entry.variant,
                    players: entry.players.clone(),
                    outcome: game.outcome(),
                    ply: game.ply(),
                    position: *game.position(),
                    created_at: entry.id.created_at(),
                }
            })
            .collect();
        GamePage { games, next }
    }
}
