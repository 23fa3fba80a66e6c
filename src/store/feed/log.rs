//! [`FeedLog`]: the feed of the memory and SQLite stores, in memory: one lane of entries
//! numbered 1, 2, 3, ..., kept for `--feed-retention` and at most `--feed-max-events`, a
//! bounded broadcast of new entries for the consumers that keep up, and the games each player
//! is seated in that are still running (what a player-mode stream starts with).
//!
//! One std mutex guards the entries, the numbering and the running games, so a subscription
//! (its start position, its running games, its live receiver) is taken in one step that no
//! append can split: nothing is missed or sent twice between them. Appends happen under a
//! game's lock (memory store) or on the durable store's writer thread after each commit, so
//! the lock order is game, then feed; nothing awaits while holding it.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

use tokio::sync::broadcast;

use crate::error::ServiceError;
use crate::game::{FeedEvent, FeedKind, GameId, PlayerId};
use crate::store::feed::cursor::{FeedCursor, LanePos};
use crate::store::feed::subscription::{FeedEntry, FeedSubscription};
use crate::store::stream_error::StreamError;

/// The feed of one process (memory store) or one database (SQLite store).
#[derive(Debug)]
pub struct FeedLog {
    epoch: u64,
    retention: Duration,
    capacity: usize,
    /// New entries, for consumers that keep up; one that falls behind reads the log instead.
    live: broadcast::Sender<Arc<FeedEntry>>,
    state: Mutex<LogState>,
}

#[derive(Debug, Default)]
struct LogState {
    /// Positions `floor + 1 ..= last`, oldest first.
    entries: VecDeque<Arc<FeedEntry>>,
    /// The position of the latest entry (0 before any).
    last: u64,
    /// Every entry up to this position is gone (retention); a cursor before it would skip them.
    floor: u64,
    /// The creation of each running game, by the players seated in it.
    running: HashMap<PlayerId, BTreeMap<GameId, FeedEvent>>,
}

impl FeedLog {
    /// An empty feed numbered from `last + 1`, whose entries up to `floor` are gone (both 0 for
    /// a new feed). `live_buffer` bounds the broadcast of new entries.
    #[must_use]
    pub fn new(
        epoch: u64,
        retention: Duration,
        capacity: usize,
        live_buffer: usize,
        last: u64,
        floor: u64,
    ) -> FeedLog {
        FeedLog {
            epoch,
            retention,
            capacity: capacity.max(1),
            live: broadcast::channel(live_buffer.max(1)).0,
            state: Mutex::new(LogState {
                last,
                floor: floor.min(last),
                ..LogState::default()
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, LogState> {
        // Every step leaves the state whole, so a panicking holder cannot break it.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    #[must_use]
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// The position of the latest entry.
    #[must_use]
    pub fn last(&self) -> u64 {
        self.lock().last
    }

    /// The highest position forgotten (retention): the durable store deletes up to it.
    #[must_use]
    pub fn floor(&self) -> u64 {
        self.lock().floor
    }

    fn cursor(&self, pos: u64) -> FeedCursor {
        FeedCursor {
            epoch: self.epoch,
            lanes: vec![LanePos(pos, 0)],
        }
    }

    /// Appends events, numbered from `last + 1` in order, and sends them to live consumers.
    pub fn append(&self, events: Vec<FeedEvent>) {
        if events.is_empty() {
            return;
        }
        let mut state = self.lock();
        for event in events {
            state.last += 1;
            note_running(&mut state.running, &event);
            let entry = Arc::new(FeedEntry {
                lane: 0,
                pos: LanePos(state.last, 0),
                event,
            });
            state.entries.push_back(entry.clone());
            // An error means nobody listens live.
            let _ = self.live.send(entry);
        }
        self.evict(&mut state, SystemTime::now());
    }

    /// Puts back an entry read from storage at `pos`, after every earlier one. Entries are
    /// kept contiguous: after a gap (rows deleted between two kept ones, which retention never
    /// does) the entries before it are dropped and old cursors refused, never misread.
    pub fn restore(&self, pos: u64, event: FeedEvent) {
        let mut state = self.lock();
        let next = state.floor + state.entries.len() as u64 + 1;
        if pos != next {
            state.entries.clear();
            state.floor = pos.saturating_sub(1);
        }
        state.last = state.last.max(pos);
        state.entries.push_back(Arc::new(FeedEntry {
            lane: 0,
            pos: LanePos(pos, 0),
            event,
        }));
    }

    /// Ends a restore: the entries must reach the last position numbered, or none of them is
    /// trusted (old cursors are then refused rather than read against a hole).
    pub fn seal(&self) {
        let mut state = self.lock();
        if state.floor + state.entries.len() as u64 != state.last {
            state.entries.clear();
            state.floor = state.last;
        }
    }

    /// Marks a restored game as running for its seated players (`created` is its creation).
    pub fn restore_running(&self, created: FeedEvent) {
        note_running(&mut self.lock().running, &created);
    }

    /// Forgets entries past retention or beyond the capacity.
    fn evict(&self, state: &mut LogState, now: SystemTime) {
        let cutoff = now.checked_sub(self.retention);
        while let Some(front) = state.entries.front() {
            let old = cutoff.is_some_and(|c| front.event.at < c);
            if !old && state.entries.len() <= self.capacity {
                break;
            }
            state.floor = front.pos.0;
            state.entries.pop_front();
        }
    }

    /// The position `cursor` names in this feed, or why it names none.
    fn position(&self, state: &LogState, cursor: &FeedCursor) -> Result<u64, ServiceError> {
        let out_of_range = || {
            ServiceError::Stream(StreamError::CursorOutOfRange {
                oldest_cursor: self.cursor(state.floor).to_string(),
            })
        };
        match cursor.lanes.as_slice() {
            [LanePos(pos, 0)]
                if cursor.epoch == self.epoch && *pos >= state.floor && *pos <= state.last =>
            {
                Ok(*pos)
            }
            _ => Err(out_of_range()),
        }
    }

    /// A consumer's start: after `after` (checked), or live from now with, for `player`, the
    /// creations of the games it is seated in that are running.
    pub fn subscribe(
        &self,
        after: Option<&FeedCursor>,
        player: Option<&PlayerId>,
    ) -> Result<FeedSubscription, ServiceError> {
        let mut state = self.lock();
        self.evict(&mut state, SystemTime::now());
        let start = match after {
            Some(cursor) => self.position(&state, cursor)?,
            None => state.last,
        };
        let running = match (after, player) {
            (None, Some(player)) => state
                .running
                .get(player)
                .map(|games| games.values().cloned().collect())
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        Ok(FeedSubscription {
            start: self.cursor(start),
            live: self.live.subscribe(),
            running,
        })
    }

    /// Up to `limit` entries after `cursor`, oldest first (none: the cursor is at the end).
    pub fn page(
        &self,
        cursor: &FeedCursor,
        limit: usize,
    ) -> Result<Vec<Arc<FeedEntry>>, ServiceError> {
        let mut state = self.lock();
        self.evict(&mut state, SystemTime::now());
        let after = self.position(&state, cursor)?;
        let skip = usize::try_from(after - state.floor).unwrap_or(usize::MAX);
        Ok(state
            .entries
            .iter()
            .skip(skip)
            .take(limit)
            .cloned()
            .collect())
    }
}

/// Keeps the running games up to date with `event`: a creation adds the game for each seated
/// player, the end removes it.
fn note_running(running: &mut HashMap<PlayerId, BTreeMap<GameId, FeedEvent>>, event: &FeedEvent) {
    let game = &event.game;
    for player in game.players.bound() {
        match event.kind {
            FeedKind::Created => {
                running
                    .entry(player.clone())
                    .or_default()
                    .insert(game.id, event.clone());
            }
            FeedKind::Finished { .. } => {
                if let Some(games) = running.get_mut(player) {
                    games.remove(&game.id);
                    if games.is_empty() {
                        running.remove(player);
                    }
                }
            }
            FeedKind::Moved { .. } | FeedKind::TakenBack { .. } | FeedKind::Entropy(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::UNIX_EPOCH;

    use chessd_rules::{
        ByColor, DrawRule, Outcome, Termination,
        any::{AnyPosition, AnyVariant},
    };

    use super::*;
    use crate::game::{GameHeader, HeaderParts, Labels, Players};

    fn header(n: u64, player: Option<&str>, at: SystemTime) -> Arc<GameHeader> {
        Arc::new(GameHeader::new(HeaderParts {
            id: GameId::new(at, n),
            players: Players {
                white: "w".into(),
                black: "b".into(),
                ids: ByColor::new(player.map(|p| PlayerId::checked(p).unwrap()), None),
            },
            labels: Labels::default().shared(),
            start: AnyPosition::new(AnyVariant::CHESS).into(),
            time_control: None,
            start_rules: crate::game::StartRules::default(),
            draw_rule: DrawRule::Claim,
            created_at: at,
            claim_after: std::time::Duration::from_secs(120),
            public_delay: 0,
        }))
    }

    fn finished(game: &Arc<GameHeader>, at: SystemTime) -> FeedEvent {
        FeedEvent {
            game: game.clone(),
            at,
            kind: FeedKind::Finished {
                outcome: Outcome::win(chessd_rules::Color::White, Termination::Resignation),
                fen: AnyVariant::CHESS.start_fen().into(),
                ply: 0,
            },
        }
    }

    fn log(capacity: usize) -> FeedLog {
        FeedLog::new(7, Duration::from_secs(3600), capacity, 16, 0, 0)
    }

    fn positions(entries: &[Arc<FeedEntry>]) -> Vec<u64> {
        entries.iter().map(|e| e.pos.0).collect()
    }

    /// Entries are numbered in order; a page after a cursor holds exactly what follows it.
    #[test]
    fn pages_follow_cursors() {
        let feed = log(100);
        let now = SystemTime::now();
        let games: Vec<_> = (0..5).map(|n| header(n, None, now)).collect();
        feed.append(games.iter().cloned().map(FeedEvent::created).collect());
        let start = feed.subscribe(None, None).unwrap().start;
        assert_eq!(start.lanes, [LanePos(5, 0)]);
        let from = |pos| feed.cursor(pos);
        assert_eq!(
            positions(&feed.page(&from(0), 10).unwrap()),
            [1, 2, 3, 4, 5]
        );
        assert_eq!(positions(&feed.page(&from(2), 2).unwrap()), [3, 4]);
        assert!(feed.page(&from(5), 10).unwrap().is_empty());
        // A cursor from the future, or from another feed, names nothing here.
        assert!(matches!(
            feed.page(&from(6), 1),
            Err(ServiceError::Stream(StreamError::CursorOutOfRange { .. }))
        ));
        let mut other = from(3);
        other.epoch = 8;
        assert!(feed.page(&other, 1).is_err());
    }

    /// Beyond its capacity the feed forgets its oldest entries, and a cursor before them is
    /// refused with the oldest cursor that resumes.
    #[test]
    fn capacity_and_retention_bound_it() {
        let feed = log(3);
        let now = SystemTime::now();
        for n in 0..5 {
            feed.append(vec![FeedEvent::created(header(n, None, now))]);
        }
        assert_eq!(feed.floor(), 2);
        let Err(ServiceError::Stream(StreamError::CursorOutOfRange { oldest_cursor })) =
            feed.page(&feed.cursor(1), 9)
        else {
            panic!("a cursor past retention must be refused");
        };
        let oldest: FeedCursor = oldest_cursor.parse().unwrap();
        assert_eq!(positions(&feed.page(&oldest, 9).unwrap()), [3, 4, 5]);
        // Time: entries older than the retention go too.
        let old = FeedLog::new(1, Duration::from_secs(60), 100, 16, 0, 0);
        let long_ago = UNIX_EPOCH + Duration::from_secs(1_000_000);
        old.append(vec![FeedEvent::created(header(1, None, long_ago))]);
        assert!(old.page(&old.cursor(0), 9).is_err());
        assert!(old.page(&old.cursor(1), 9).unwrap().is_empty());
    }

    /// A player's stream starts with the creations of its running games; a game that ended
    /// leaves them.
    #[test]
    fn running_games_by_player() {
        let feed = log(100);
        let now = SystemTime::now();
        let mine = header(1, Some("bot"), now);
        let done = header(2, Some("bot"), now);
        let theirs = header(3, Some("other"), now);
        feed.append(vec![
            FeedEvent::created(mine.clone()),
            FeedEvent::created(done.clone()),
            FeedEvent::created(theirs),
            finished(&done, now),
        ]);
        let bot = PlayerId::checked("bot").unwrap();
        let sub = feed.subscribe(None, Some(&bot)).unwrap();
        let ids: Vec<GameId> = sub.running.iter().map(|e| e.game.id).collect();
        assert_eq!(ids, [mine.id]);
        // With a cursor the player has seen them already.
        let again = feed.subscribe(Some(&sub.start), Some(&bot)).unwrap();
        assert!(again.running.is_empty());
    }

    /// Restored entries continue the numbering; a restored feed resumes old cursors.
    #[test]
    fn restored_entries_keep_their_positions() {
        let feed = FeedLog::new(3, Duration::from_secs(3600), 100, 16, 41, 41);
        let now = SystemTime::now();
        feed.restore(41, FeedEvent::created(header(1, None, now)));
        feed.seal();
        assert_eq!(positions(&feed.page(&feed.cursor(40), 9).unwrap()), [41]);
        feed.append(vec![FeedEvent::created(header(2, None, now))]);
        assert_eq!(
            positions(&feed.page(&feed.cursor(40), 9).unwrap()),
            [41, 42]
        );
        assert!(feed.page(&feed.cursor(39), 9).is_err());
    }
}
