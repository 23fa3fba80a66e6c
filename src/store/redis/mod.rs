//! `RedisStore`: games kept in one Redis, or one Redis Cluster, shared by several chessd
//! replicas behind a load balancer (`chessd serve --redis redis://HOST:PORT/`, or
//! `--redis-cluster --redis URL,URL,...`; see `conn`). Any replica serves any game.
//!
//! - **Layout** (see `codec`): per game a hash (what never changes, seat-token digests, the
//!   last seq and a summary for lists) and a stream (one entry per event, id `<seq>-0`). Games
//!   are sharded into [`codec::BUCKETS`] buckets by their id's random bits; each bucket has its
//!   own game list, flag deadlines, finished games, live count and result counts, and all of a
//!   bucket's keys (its games' too) share one hash tag, so every script touches one cluster
//!   slot. Readers that span buckets (ListGames, GetStats, the sweeps) go bucket by bucket.
//! - **Acting** (see `scripts`): a replica loads the game (its cached [`GameRecord`] brought up
//!   to date with the stream's new entries), applies the action with the same `GameRecord`
//!   logic as the memory store, then appends the new events with one compare-and-append
//!   script on the seq it played from. Two replicas racing on one game cannot both append: the
//!   loser reloads and applies again, which answers as the memory store would (a stale
//!   `expected_ply` gets PLY_MISMATCH, the side no longer to move NOT_YOUR_TURN, a retried
//!   request id its first answer).
//! - **Watching** (see `follow`): one follower per watched game per replica reads the stream
//!   and feeds a bounded local broadcast channel shared by that replica's watchers.
//! - **Clocks and abandonment** (see `sweep`): deadlines (the flag, or `--abandon-after` since
//!   the last move, whichever is earlier) live in a sorted set that every replica sweeps; the
//!   compare-and-append is the claim, so exactly one replica ends a game on time, even when the
//!   replica that saw its last move is gone. Abandonment counts from the last move's wall time
//!   in the stream, not from when a replica read the game.
//! - **Outage**: a Redis error is UNAVAILABLE (`STORE_UNAVAILABLE`) for the call, its cause is
//!   logged; a probe sets the store's readiness, which drives the health service. The
//!   connection manager reconnects by itself. A change is one script: all of it or nothing.
//!
//! Caching: a replica keeps recently used games (bounded) so a call costs one XRANGE of the
//! stream's tail plus the script, and events other replicas appended are played onto the
//! cached record (`GameRecord::extend`) rather than replaying the whole game. An entry is taken out of the cache while a call uses it
//! (the cache's std mutex is held only to take or put back), so no lock is held across an
//! `.await` and two calls never share a record; a call that finds no entry loads the game.
//!
//! Clocks across replicas: a game's clock is rebuilt from the last event's clock reading and
//! the wall time since that event, so replicas' wall clocks must agree (NTP) to well under
//! the precision clients expect.

mod codec;
mod conn;
mod follow;
mod scripts;
mod sweep;

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, UNIX_EPOCH};

use ::redis::{Client, RedisError};
use chessd_rules::{Color, Rules, Termination, Variant};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use self::codec::{BUCKETS, Entry, Meta, Row, Summary};
use self::conn::{Conn, Target, redact};
use self::follow::Hub;
use super::record::{Now, Stored};
use super::{
    Acted, Action, Created, GameId, GamePage, GameRecord, GameStatus, GameStore, GameSummary,
    GameView, ListQuery, NewGame, Replay, Stats, StoreLimits, Subscription, VariantStats,
};
use crate::error::ServiceError;
use crate::metrics;
use crate::token::SeatToken;

/// Games a replica keeps cached; beyond it an arbitrary entry is dropped (it is only a cache).
pub const CACHE_GAMES: usize = 16_384;

/// How many times an action is applied again after losing a race before giving up.
const MAX_ATTEMPTS: usize = 16;

/// Game ids ListGames reads per round trip.
const LIST_BATCH: usize = 256;

/// Most games ListGames examines for one page (as the memory store).
const MAX_LIST_SCAN: usize = super::memory::MAX_LIST_SCAN;

/// Checks that `text` is a Redis URL this build can use, or several comma-separated (a
/// cluster's seeds; whether several are allowed depends on `--redis-cluster`, checked at open).
pub fn check_url(text: &str) -> Result<(), String> {
    Target::parse(text, true).map(|_| ())
}

/// Games in Redis, shared with the other replicas; background tasks stop when it is dropped.
#[derive(Debug)]
pub struct RedisStore {
    inner: Arc<Inner>,
    tasks: Vec<JoinHandle<()>>,
    ready: watch::Receiver<bool>,
}

#[derive(Debug)]
struct Inner {
    /// Multiplexed and self-reconnecting (one Redis, or every node of a cluster): every call
    /// shares it (cloning is cheap).
    conn: Conn,
    limits: StoreLimits,
    /// Recently used games. A std mutex: held only to take or put back an entry.
    cache: Mutex<HashMap<GameId, Box<Cached>>>,
    hub: Hub,
    /// The tokens of this replica's recent creations by request key, oldest first, so a
    /// CreateGame retried here gets its tokens back (Redis keeps only their digests). A std
    /// mutex: held to insert or look up one entry.
    creations: Mutex<VecDeque<(String, GameId, [SeatToken; 2])>>,
    /// Whether Redis answered the last probe (the health service follows it).
    ready: watch::Sender<bool>,
    /// The last probe that reached Redis found keys of the layout before buckets: every call
    /// is refused until they are gone, so games this version cannot see never look lost.
    old_layout: AtomicBool,
}

/// A game as a replica last saw it.
#[derive(Debug)]
struct Cached {
    meta: Arc<Meta>,
    /// The game as of its last event this replica read or wrote.
    record: GameRecord,
}

/// Creations whose tokens a replica remembers for CreateGame retries (as the in-memory store
/// does; Redis itself never holds a token).
const RECENT_CREATIONS: usize = 16_384;

/// A Redis failure: logged here, reported to the client as UNAVAILABLE.
fn unavailable(e: &RedisError) -> ServiceError {
    use ::redis::{ErrorKind, ServerErrorKind};
    if e.kind() == ErrorKind::Server(ServerErrorKind::ClusterDown) {
        // The cluster refuses while a slot has no reachable primary: it heals by itself once
        // one is back (or a replica is promoted), and so do the calls.
        tracing::warn!(error = %e, "redis cluster is down (a slot has no primary)");
    } else {
        tracing::warn!(error = %e, "redis call failed");
    }
    ServiceError::StoreUnavailable
}

/// Data in Redis that does not decode: logged with its cause, INTERNAL for the client.
fn damaged(id: GameId, detail: &str) -> ServiceError {
    tracing::error!(game_id = %id, detail, "damaged game in redis");
    ServiceError::Internal(format!("game {id} in redis: {detail}").into())
}

/// A game's events and hash, played back into a record whose clock runs from `now` (the side
/// to move is charged the wall time since the last event: it was thinking on some replica),
/// abandoned after `abandon_after` without a move counted from the last move's wall time.
fn rebuild(
    meta: &Meta,
    rows: &[Row],
    abandon_after: Option<Duration>,
    now: Now,
) -> Result<GameRecord, String> {
    let last_ms = rows.last().map_or(meta.created_at_ms, |r| r.at_ms);
    let charged = Duration::from_millis(codec::epoch_ms(now.wall).saturating_sub(last_ms));
    let stored = Stored {
        start: meta.start,
        draw_rule: meta.draw_rule,
        time_control: meta.time_control,
        digests: meta.digests,
        created_at: UNIX_EPOCH + Duration::from_millis(meta.created_at_ms),
        events: rows.iter().map(Row::to_event_row).collect(),
        charged,
    };
    let mut record =
        GameRecord::restore(stored, codec::request_key, now)?.abandoned_after(abandon_after);
    record.idle_since_last_move(now);
    Ok(record)
}

/// A monotonic deadline as Unix milliseconds.
fn deadline_ms(record: &GameRecord, now: Now) -> Option<u64> {
    record.deadline().map(|d| {
        let left = d.saturating_duration_since(now.mono);
        codec::epoch_ms(now.wall + left)
    })
}

fn summary(record: &GameRecord) -> Summary {
    let game = record.game();
    Summary {
        status: GameStatus::of(game.outcome()),
        ply: game.ply(),
        fen: game.position().fen(),
        outcome: game.outcome(),
    }
}

/// The result-count field a finished game raises (`-`: aborted, counted nowhere).
fn result_field(variant: Variant, record: &GameRecord) -> String {
    match record.game().outcome() {
        None => String::new(),
        Some(o) if o.termination == Termination::Aborted => "-".into(),
        Some(o) => {
            let side = match o.winner {
                Some(Color::White) => "w",
                Some(Color::Black) => "b",
                None => "d",
            };
            format!("{}:{side}", variant.key())
        }
    }
}

/// One bucket's side of a ListGames merge.
struct Lane {
    bucket: usize,
    /// Ids read and not merged yet with their summary fields, newest last.
    ahead: Vec<(GameId, Vec<Option<String>>)>,
    /// Where the next read starts: `+`, or `(<id>` below the last id read.
    cursor: String,
    /// Nothing is left below the cursor.
    done: bool,
    /// Ids the next read asks for.
    batch: usize,
}

/// What a compare-and-append did.
enum Appended {
    Done,
    /// Another change came first; nothing was written.
    Stale,
}

impl RedisStore {
    /// A store on the Redis at `url`. Connects lazily: the server starts (not ready) even when
    /// Redis is down, and becomes ready once a probe gets through. Spawns the probe, the
    /// follower hub and the flag sweep on the current tokio runtime.
    ///
    /// `url` is one Redis URL, or with `cluster` the comma-separated seed nodes of a Redis
    /// Cluster.
    pub fn open(url: &str, cluster: bool, limits: StoreLimits) -> Result<RedisStore, String> {
        let target = Target::parse(url, cluster)?;
        let conn = Conn::open(&target)?;
        let clients = target
            .urls
            .iter()
            .map(|u| Client::open(u.as_str()).map_err(|e| format!("invalid redis url: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        let (ready_tx, ready) = watch::channel(false);
        let inner = Arc::new(Inner {
            conn,
            limits,
            cache: Mutex::default(),
            creations: Mutex::default(),
            hub: Hub::new(clients, limits.watch_buffer.max(1)),
            ready: ready_tx,
            old_layout: AtomicBool::new(false),
        });
        let tasks = vec![
            tokio::spawn(sweep::probe(Arc::downgrade(&inner))),
            tokio::spawn(follow::listen(Arc::downgrade(&inner))),
            tokio::spawn(sweep::flags(Arc::downgrade(&inner))),
            tokio::spawn(sweep::finished(Arc::downgrade(&inner))),
        ];
        tracing::info!(url = %redact(url), cluster, "redis store open");
        Ok(RedisStore {
            inner,
            tasks,
            ready,
        })
    }

    /// Whether Redis answers: `true` while it does; changes as probes succeed or fail.
    #[must_use]
    pub fn readiness(&self) -> watch::Receiver<bool> {
        self.ready.clone()
    }
}

impl Drop for RedisStore {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
        self.inner.hub.stop();
    }
}

impl Inner {
    /// Refuses a call while Redis holds old-layout keys (the probe logged which).
    fn usable(&self) -> Result<(), ServiceError> {
        if self.old_layout.load(Ordering::Relaxed) {
            tracing::warn!("call refused: redis holds keys of the layout before buckets");
            return Err(ServiceError::StoreUnavailable);
        }
        Ok(())
    }

    fn conn(&self) -> Conn {
        self.conn.clone()
    }

    fn take_cached(&self, id: GameId) -> Option<Box<Cached>> {
        self.cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&id)
    }

    /// Remembers a creation's tokens for a retry on this replica (the oldest is forgotten
    /// beyond [`RECENT_CREATIONS`]).
    fn remember_creation(&self, request_key: &str, id: GameId, tokens: [SeatToken; 2]) {
        let mut creations = self
            .creations
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if creations.len() >= RECENT_CREATIONS {
            creations.pop_front();
        }
        creations.push_back((request_key.to_owned(), id, tokens));
    }

    /// The tokens of game `id`, if this replica created it under `request_key` recently.
    fn recalled_creation(&self, request_key: &str, id: GameId) -> Option<[SeatToken; 2]> {
        let creations = self
            .creations
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        creations
            .iter()
            .rev()
            .find(|(key, game, _)| key == request_key && *game == id)
            .map(|&(_, _, tokens)| tokens)
    }

    /// Keeps `game` for the next call, unless a newer copy came back meanwhile.
    fn put_back(&self, id: GameId, game: Box<Cached>) {
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
    async fn load(&self, id: GameId) -> Result<Box<Cached>, ServiceError> {
        match self.take_cached(id) {
            Some(game) => self.catch_up(id, game).await,
            None => self.fetch(id).await,
        }
    }

    /// Reads the whole game.
    async fn fetch(&self, id: GameId) -> Result<Box<Cached>, ServiceError> {
        let (map, entries): (HashMap<String, String>, Vec<Entry>) = ::redis::pipe()
            .hgetall(codec::game_key(id))
            .cmd("XRANGE")
            .arg(codec::events_key(id))
            .arg("-")
            .arg("+")
            .query_async(&mut self.conn())
            .await
            .map_err(|e| unavailable(&e))?;
        if map.is_empty() {
            return Err(ServiceError::GameNotFound { id });
        }
        let meta = Arc::new(codec::decode_meta(&map).map_err(|d| damaged(id, &d))?);
        let mut position = meta.start;
        let rows = codec::decode_rows(&mut position, 1, &entries).map_err(|d| damaged(id, &d))?;
        let record = rebuild(&meta, &rows, self.limits.abandon_after, Now::read())
            .map_err(|d| damaged(id, &d))?;
        Ok(Box::new(Cached { meta, record }))
    }

    /// Brings a cached game up to date with the events other replicas appended.
    async fn catch_up(
        &self,
        id: GameId,
        mut game: Box<Cached>,
    ) -> Result<Box<Cached>, ServiceError> {
        let next = game.record.last_seq() + 1;
        // The hash is checked too: a game forgotten by another replica must not live on here.
        let (exists, entries): (bool, Vec<Entry>) = ::redis::pipe()
            .exists(codec::game_key(id))
            .cmd("XRANGE")
            .arg(codec::events_key(id))
            .arg(format!("{next}-0"))
            .arg("+")
            .query_async(&mut self.conn())
            .await
            .map_err(|e| unavailable(&e))?;
        if !exists {
            return Err(ServiceError::GameNotFound { id });
        }
        if entries.is_empty() {
            return Ok(game);
        }
        let mut position = *game.record.game().position();
        let rows: Vec<_> = codec::decode_rows(&mut position, next, &entries)
            .map_err(|d| damaged(id, &d))?
            .iter()
            .map(Row::to_event_row)
            .collect();
        let now = Now::read();
        let last_ms = rows.last().map_or(0, |r| r.at_ms);
        let charged = Duration::from_millis(codec::epoch_ms(now.wall).saturating_sub(last_ms));
        game.record
            .extend(&rows, codec::request_key, charged, now)
            .map_err(|d| damaged(id, &d))?;
        // The moves may have been played elsewhere: abandonment counts from the last of them.
        game.record.idle_since_last_move(now);
        Ok(game)
    }

    /// Appends what `game` did since `seq_before` if the stream is still at `seq_before`.
    async fn append(
        &self,
        id: GameId,
        game: &mut Cached,
        seq_before: u64,
        now: Now,
        request_id: Option<&super::RequestId>,
    ) -> Result<Appended, ServiceError> {
        let rows: Vec<Row> = game
            .record
            .journal_rows(seq_before, now, request_id)
            .into_iter()
            .map(Row::from)
            .collect();
        let variant = game.meta.start.variant();
        let ended_ms = game.record.ended_at_ms();
        let result = if ended_ms.is_some() {
            result_field(variant, &game.record)
        } else {
            String::new()
        };
        let state: Vec<String> = summary(&game.record)
            .fields()
            .into_iter()
            .flat_map(|(k, v)| [k.to_owned(), v])
            .collect();
        let bucket = codec::bucket_of(id);
        let mut invocation = scripts::APPEND.prepare_invoke();
        invocation
            .key(codec::game_key(id))
            .key(codec::events_key(id))
            .key(codec::deadlines_key(bucket))
            .key(codec::stats_key(bucket))
            .key(codec::live_key(bucket))
            .key(codec::finished_key(bucket))
            .arg(seq_before)
            .arg(id.to_string())
            .arg(
                deadline_ms(&game.record, now)
                    .map(|d| d.to_string())
                    .unwrap_or_default(),
            )
            .arg(result)
            .arg(ended_ms.unwrap_or(0))
            .arg(codec::channel(id))
            .arg(state.len())
            .arg(state)
            .arg(rows.len());
        for row in &rows {
            let fields = row.fields();
            invocation.arg(fields.len()).arg(fields);
        }
        let (status, _seq): (i64, u64) = invocation
            .invoke_async(&mut self.conn())
            .await
            .map_err(|e| unavailable(&e))?;
        match status {
            1 => {
                for row in &rows {
                    if matches!(row.kind, super::events::LogKind::Move { .. }) {
                        metrics::move_played(variant);
                    }
                }
                if let Some(o) = game.record.game().outcome()
                    && ended_ms.is_some()
                {
                    metrics::game_ended(variant, o.termination);
                }
                Ok(Appended::Done)
            }
            0 => Ok(Appended::Stale),
            _ => Err(ServiceError::GameNotFound { id }),
        }
    }

    /// The game as Redis has it now, ended first if its flag fell or it was abandoned: the
    /// sweep's claim (only one replica's append wins), and what every read does, as the memory
    /// store does on any call, so nobody reads a running clock at zero or an overdue game as
    /// going on. `now` is when the game was read.
    async fn settled(&self, id: GameId) -> Result<(Box<Cached>, Now), ServiceError> {
        for _ in 0..MAX_ATTEMPTS {
            let mut game = self.load(id).await?;
            let now = Now::read();
            let before = game.record.last_seq();
            if !game.record.expire(now, &mut Vec::new()) {
                return Ok((game, now));
            }
            match self.append(id, &mut game, before, now, None).await? {
                Appended::Done => {
                    tracing::info!(game_id = %id, "game ended by itself (flag or abandonment)");
                    return Ok((game, now));
                }
                // Another replica changed the game first (perhaps ended it): read it again.
                Appended::Stale => {}
            }
        }
        Ok((self.fetch(id).await?, Now::read()))
    }

    /// Creates the game, or answers a retry of an earlier creation.
    async fn create(&self, new: NewGame) -> Result<Created, ServiceError> {
        let entropy = |e| ServiceError::Internal(Box::new(e));
        let tokens = [
            SeatToken::generate().map_err(entropy)?,
            SeatToken::generate().map_err(entropy)?,
        ];
        let now = Now::read();
        let meta = Arc::new(Meta {
            start: new.start,
            draw_rule: new.draw_rule,
            time_control: new.time_control,
            players: new.players.clone(),
            digests: codec::seat_digests(&tokens),
            created_at_ms: codec::epoch_ms(now.wall),
        });
        let record =
            GameRecord::new(&new, meta.digests, now).abandoned_after(self.limits.abandon_after);
        let fields: Vec<String> = codec::new_game_fields(&meta, &summary(&record))
            .into_iter()
            .flat_map(|(k, v)| [k.to_owned(), v])
            .collect();
        let fingerprint = codec::fingerprint(&meta);
        let white_digest = codec::white_digest_field(&meta);
        let rid = new.request_id.as_ref().map(|r| r.as_str().to_owned());
        let request_key = rid.as_deref().map(codec::create_key).unwrap_or_default();
        // A retry must meet the first creation's request record, so a request id fixes the
        // bucket; without one the bucket is as random as the id.
        let request_bucket = rid.as_deref().map(codec::bucket_of_request);
        loop {
            let random = getrandom::u64().map_err(|e| ServiceError::Internal(Box::new(e)))?;
            let random = request_bucket.map_or(random, |b| codec::in_bucket(random, b));
            let id = GameId::new(now.wall, random);
            let bucket = codec::bucket_of(id);
            let (other_live_keys, counted_elsewhere) = self.live_elsewhere(bucket).await?;
            let mut invocation = scripts::CREATE.prepare_invoke();
            invocation
                .key(codec::game_key(id))
                .key(codec::games_key(bucket))
                .key(codec::deadlines_key(bucket))
                .key(codec::live_key(bucket))
                .key(if request_key.is_empty() {
                    codec::bucket_key(bucket, "create:-")
                } else {
                    request_key.clone()
                })
                .key(other_live_keys)
                .arg(id.to_string())
                .arg(self.limits.max_live_games)
                .arg(
                    deadline_ms(&record, now)
                        .map(|d| d.to_string())
                        .unwrap_or_default(),
                )
                .arg(&fingerprint)
                .arg(if request_key.is_empty() {
                    String::new()
                } else {
                    codec::CREATE_MEMORY.as_secs().to_string()
                })
                .arg(counted_elsewhere)
                .arg(&white_digest)
                .arg(&fields);
            // Remembered before the script runs: if its reply is lost, the retry with this
            // request id finds the game made and needs its tokens.
            if !request_key.is_empty() {
                self.remember_creation(&request_key, id, tokens);
            }
            let reply: Vec<String> = invocation
                .invoke_async(&mut self.conn())
                .await
                .map_err(|e| unavailable(&e))?;
            match reply.first().map(String::as_str) {
                Some("created") => {
                    metrics::game_started();
                    let view = record.view(id, &meta.players, now);
                    self.put_back(id, Box::new(Cached { meta, record }));
                    return Ok(Created {
                        view,
                        white_token: tokens[0],
                        black_token: tokens[1],
                    });
                }
                Some("exists") => {
                    let [_, first, first_fingerprint] = reply.as_slice() else {
                        return Err(damaged(id, "malformed request record"));
                    };
                    if *first_fingerprint != fingerprint {
                        return Err(ServiceError::RequestIdReused);
                    }
                    let first: GameId = first
                        .parse()
                        .map_err(|_| damaged(id, "request record names no game"))?;
                    // Only digests reach Redis: the tokens are known only to the replica
                    // that made the game, for as long as it remembers the creation.
                    let [white_token, black_token] = self
                        .recalled_creation(&request_key, first)
                        .ok_or(ServiceError::SeatTokensUnavailable { id: first })?;
                    let game = self.load(first).await?;
                    let view = game.record.view(first, &game.meta.players, Now::read());
                    self.put_back(first, game);
                    return Ok(Created {
                        view,
                        white_token,
                        black_token,
                    });
                }
                Some("full") => {
                    return Err(ServiceError::TooManyGames {
                        limit: self.limits.max_live_games,
                    });
                }
                // Two games in one millisecond with the same 22 random bits: draw again.
                Some("taken") => {}
                _ => return Err(damaged(id, "unexpected answer from the create script")),
            }
        }
    }

    /// What the create script learns of the live games outside `bucket`: on one Redis the
    /// other buckets' live-count keys, which the script reads itself (the limit holds
    /// exactly); on a Cluster, where those keys are in other slots, their sum read now (one
    /// MGET, which the cluster client splits by slot), so creations racing in different
    /// buckets may together overshoot the limit by their number.
    async fn live_elsewhere(&self, bucket: usize) -> Result<(Vec<String>, u64), ServiceError> {
        let others: Vec<String> = (0..BUCKETS)
            .filter(|&b| b != bucket)
            .map(codec::live_key)
            .collect();
        if !self.conn.is_cluster() {
            return Ok((others, 0));
        }
        let counts: Vec<Option<i64>> = ::redis::cmd("MGET")
            .arg(&others)
            .query_async(&mut self.conn())
            .await
            .map_err(|e| unavailable(&e))?;
        let sum = counts
            .into_iter()
            .flatten()
            .map(|n| n.max(0).unsigned_abs())
            .sum();
        Ok((Vec::new(), sum))
    }

    async fn act(
        &self,
        id: GameId,
        token: SeatToken,
        action: Action,
    ) -> Result<Acted, ServiceError> {
        let request_id = match &action {
            Action::Move { request_id, .. } => request_id.as_ref(),
            _ => None,
        };
        let request_key = request_id.map(|r| codec::request_key(r.as_str()));
        let mut last_ply = None;
        for _ in 0..MAX_ATTEMPTS {
            let mut game = self.load(id).await?;
            let seat = match codec::seat_of(&game.meta.digests, &token) {
                Ok(seat) => seat,
                Err(e) => {
                    self.put_back(id, game);
                    return Err(e);
                }
            };
            let now = Now::read();
            let before = game.record.last_seq();
            last_ply = Some(game.record.game().ply());
            let mut events = Vec::new();
            let result = game
                .record
                .apply(seat, &action, request_key, now, &mut events);
            let view = |game: &Cached| game.record.view(id, &game.meta.players, now);
            if game.record.last_seq() == before {
                let acted = result.map(|played| Acted {
                    played,
                    view: view(&game),
                });
                self.put_back(id, game);
                return acted;
            }
            match self.append(id, &mut game, before, now, request_id).await? {
                Appended::Done => {
                    let acted = result.map(|played| Acted {
                        played,
                        view: view(&game),
                    });
                    self.put_back(id, game);
                    return acted;
                }
                // Another replica changed the game first: play again from its state.
                Appended::Stale => {
                    tracing::debug!(game_id = %id, "lost a race for the game; playing again");
                }
            }
        }
        let current = last_ply.unwrap_or(0);
        Err(ServiceError::PlyMismatch {
            expected: current,
            current: current + 1,
        })
    }

    /// A page of games, newest first: the buckets' lists merged by id (ids sort by creation
    /// and are unique across buckets, so the page and its cursor are what one list would give).
    async fn list(&self, query: ListQuery) -> Result<GamePage, ServiceError> {
        let page_size = query.page_size.max(1);
        let start = query
            .before
            .map_or_else(|| "+".to_owned(), |b| format!("({b}"));
        // A page takes about page_size / BUCKETS games from each bucket: read a little more
        // than that first, and more each time a bucket runs dry.
        let batch = (page_size / BUCKETS + 8).min(LIST_BATCH);
        let mut lanes: Vec<Lane> = (0..BUCKETS)
            .map(|bucket| Lane {
                bucket,
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
            let Some((variant, players, summary)) =
                codec::decode_summary(&values).map_err(|d| damaged(id, &d))?
            else {
                continue;
            };
            let filter = &query.filter;
            let matches = filter.status.is_none_or(|s| s == summary.status)
                && filter.variant.is_none_or(|v| v == variant)
                && filter
                    .player
                    .as_deref()
                    .is_none_or(|p| p == players.white || p == players.black);
            if !matches {
                continue;
            }
            let position = chessd_rules::Position::from_fen(variant, &summary.fen)
                .map_err(|e| damaged(id, &format!("position: {e}")))?;
            found.push(GameSummary {
                id,
                variant,
                players,
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
            .arg(codec::games_key(lane.bucket))
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
                .arg(codec::game_key(id))
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
    /// as any read racing a write; every count is a game's, exactly once.
    async fn stats(&self) -> Result<Stats, ServiceError> {
        let mut counts: HashMap<String, u64> = HashMap::new();
        for bucket in 0..BUCKETS {
            let part: HashMap<String, u64> = ::redis::cmd("HGETALL")
                .arg(codec::stats_key(bucket))
                .query_async(&mut self.conn())
                .await
                .map_err(|e| unavailable(&e))?;
            for (field, n) in part {
                *counts.entry(field).or_default() += n;
            }
        }
        let count = |v: Variant, side: &str| {
            counts
                .get(&format!("{}:{side}", v.key()))
                .copied()
                .unwrap_or(0)
        };
        Ok(Stats {
            // The API has values for these two variants only, so far.
            variants: [Variant::Chess, Variant::RacingKings]
                .iter()
                .map(|&variant| VariantStats {
                    variant,
                    white_wins: count(variant, "w"),
                    black_wins: count(variant, "b"),
                    draws: count(variant, "d"),
                })
                .collect(),
        })
    }
}

impl GameStore for RedisStore {
    async fn create(&self, new: NewGame) -> Result<Created, ServiceError> {
        self.inner.usable()?;
        self.inner.create(new).await
    }

    async fn get(&self, id: GameId) -> Result<GameView, ServiceError> {
        self.inner.usable()?;
        let (game, now) = self.inner.settled(id).await?;
        let view = game.record.view(id, &game.meta.players, now);
        self.inner.put_back(id, game);
        Ok(view)
    }

    async fn list(&self, query: ListQuery) -> Result<GamePage, ServiceError> {
        self.inner.usable()?;
        self.inner.list(query).await
    }

    async fn seat(
        &self,
        id: GameId,
        token: SeatToken,
    ) -> Result<(Color, Option<Color>), ServiceError> {
        self.inner.usable()?;
        let game = self.inner.load(id).await?;
        let seat = codec::seat_of(&game.meta.digests, &token);
        let record = game.record.game();
        let turn = (!record.is_over()).then(|| record.position().turn());
        self.inner.put_back(id, game);
        Ok((seat?, turn))
    }

    async fn act(
        &self,
        id: GameId,
        token: SeatToken,
        action: Action,
    ) -> Result<Acted, ServiceError> {
        self.inner.usable()?;
        self.inner.act(id, token, action).await
    }

    async fn watch(&self, id: GameId, after_seq: u64) -> Result<Subscription, ServiceError> {
        self.inner.usable()?;
        let inner = &self.inner;
        let game = inner.load(id).await?;
        let ongoing = !game.record.is_over();
        inner.put_back(id, game);
        // Live events are subscribed to before the replay is read: the replay then reaches at
        // least as far as the follower had sent, and the stream skips what it already sent, so
        // there is neither a gap nor a duplicate.
        let live = if ongoing {
            Some(
                inner
                    .hub
                    .subscribe(inner, id, inner.limits.max_watchers_per_game)
                    .await?,
            )
        } else {
            None
        };
        let (game, now) = inner.settled(id).await?;
        let last_seq = game.record.last_seq();
        if after_seq > last_seq {
            inner.put_back(id, game);
            return Err(ServiceError::SeqOutOfRange {
                after_seq,
                last_seq,
            });
        }
        let replay = if after_seq == 0 {
            Replay::snapshot(game.record.view(id, &game.meta.players, now), now.wall)
        } else {
            game.record.replay_after(after_seq)
        };
        let live = if game.record.is_over() { None } else { live };
        inner.put_back(id, game);
        Ok(Subscription {
            replay,
            live,
            after_seq,
        })
    }

    async fn stats(&self) -> Result<Stats, ServiceError> {
        self.inner.usable()?;
        self.inner.stats().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Passwords stay out of the log.
    #[test]
    fn urls_are_redacted() {
        assert_eq!(
            redact("redis://user:secret@db:6379/0"),
            "redis://***@db:6379/0"
        );
        assert_eq!(redact("redis://db:6379/"), "redis://db:6379/");
        assert_eq!(
            redact("redis://:one@a:7000/,redis://:two@b:7001/"),
            "redis://***@a:7000/,redis://***@b:7001/"
        );
        assert_eq!(
            redact("unix:///run/redis.sock?db=2&pass=secret"),
            "unix:///run/redis.sock?***"
        );
    }

    /// Passwords stay out of the start-up errors too (they go to stderr and logs).
    #[test]
    fn url_errors_are_redacted() {
        let Err(several) = Target::parse("redis://:hunter2@a:7000/,redis://b:7001/", false) else {
            panic!("several urls without --redis-cluster must be refused");
        };
        assert!(several.contains("--redis-cluster"), "{several}");
        assert!(!several.contains("hunter2"), "{several}");
        let Err(bad) = Target::parse("rediss+nonsense://:hunter2@a:7000/", false) else {
            panic!("an unknown scheme must be refused");
        };
        assert!(bad.contains("invalid redis url"), "{bad}");
        assert!(!bad.contains("hunter2"), "{bad}");
    }
}
