//! Changing a game on Redis: an action applied to the game, then its events appended by a
//! compare-and-append on the seq it played from (in one script call with whatever other
//! games' appends leave at the same time, see `batch`). Two replicas racing on one game cannot
//! both append: the loser reads the game as the winner left it and applies again, which
//! answers as the memory store would. The same claim ends overdue
//! games (`settled`), whichever replica sees them first.
//!
//! A move costs one round trip when the replica's cached copy is current: the seat to move in
//! the copy acts on it unread, and the append's seq comparison is the freshness check. A copy
//! in which the seat is not to move is read first (the admission must see the side to move as
//! it is), and so is a refusal found on an unread copy before it is answered.

use std::sync::Arc;

use crate::error::ServiceError;
use crate::game::codec::write_event;
use crate::game::error::PlayError;
use crate::game::{
    Acted, Action, Event, EventKind, FeedEvent, GameId, Holder, LogKind, Now, RequestId,
};
use crate::metrics;
use crate::store::feed::codec as feed_codec;
use crate::store::game_store::Admit;
use crate::store::redis::ack::Confirmed;
use crate::store::redis::batch::{Failed, Job};
use crate::store::redis::cached::Cached;
use crate::store::redis::codec;
use crate::store::redis::failure::unavailable;
use crate::store::redis::keys;
use crate::store::redis::state::{Inner, MAX_ATTEMPTS};
use crate::store::store_error::StoreError;

/// What a compare-and-append did.
pub(super) enum Appended {
    Done,
    /// Another change came first; nothing was written.
    Stale,
}

/// A change too few replicas confirmed: counted and logged, NOT_REPLICATED for the caller.
/// `of` names what changed (a game id, a player token).
pub(super) fn not_replicated(of: impl std::fmt::Display, confirmed: Confirmed) -> ServiceError {
    tracing::warn!(
        of = %of,
        replicas = confirmed.replicas,
        required = confirmed.required,
        "change not acknowledged: too few redis replicas confirmed it in time"
    );
    metrics::store_not_replicated();
    ServiceError::Store(StoreError::NotReplicated {
        confirmed: confirmed.replicas,
        required: confirmed.required,
    })
}

impl Inner {
    /// With `--redis-min-replicas`: confirms what the primary of `id`'s bucket held until now
    /// (a fence, see `ack`), or fails NOT_REPLICATED. Without the option, nothing to do.
    pub(super) async fn confirm(&self, id: GameId) -> Result<(), ServiceError> {
        let Some(acks) = &self.acks else {
            return Ok(());
        };
        let confirmed = acks
            .fence(keys::bucket_of(id))
            .await
            .map_err(|e| unavailable(&e))?;
        if confirmed.enough() {
            Ok(())
        } else {
            Err(not_replicated(id, confirmed))
        }
    }

    /// Appends what `game` did since `seq_before` if the stream is still at `seq_before`:
    /// `events` are the events it made since then, as the record's action gave them (the
    /// feed's entries are written from them, as the memory store's are; a replay of the
    /// record gives the same events, written again).
    async fn append(
        &self,
        id: GameId,
        game: &mut Cached,
        seq_before: u64,
        events: &[Event],
        now: Now,
        request_id: Option<&RequestId>,
    ) -> Result<Appended, ServiceError> {
        let rows = game.record.rows_after(seq_before, now, request_id);
        let header = &game.meta.header;
        let variant = header.variant();
        let ply = game.record.game().ply();
        let feed: Vec<String> = events
            .iter()
            .filter_map(|event| FeedEvent::of_event(header, event, ply))
            .map(|event| feed_codec::line_with_header(&event, game.meta.feed_header()))
            .collect();
        let ended_ms = game.record.ended_at_ms();
        let result = if ended_ms.is_some() {
            codec::result_field(variant, &game.record)
        } else {
            String::new()
        };
        // A move's event holds the position's FEN, written once for the feed and the summary.
        let fen = match events.last().map(|e| &e.kind) {
            Some(EventKind::MovePlayed { position, fen, .. }) => Some(fen.of(position)),
            _ => None,
        };
        let summary = codec::summary_with(&game.record, fen);
        let names = game.meta.append_names();
        let mut args = ::redis::Cmd::new();
        args.arg(seq_before)
            .arg(&names.id)
            .arg(
                codec::deadline_ms(&game.record, now)
                    .map(|d| d.to_string())
                    .unwrap_or_default(),
            )
            .arg(result)
            .arg(ended_ms.unwrap_or(0))
            .arg(&names.channel)
            .arg(keys::bucket_of(id))
            .arg(codec::event_key_text(
                game.record.event(seq_before).as_ref().map(codec::event_key),
            ))
            .arg(codec::event_key_text(
                game.record.last_event().as_ref().map(codec::event_key),
            ));
        summary.put_values(&mut args);
        args.arg(rows.len());
        for row in &rows {
            let line = write_event(row);
            let entry = codec::entry(&line);
            args.arg(entry.len()).arg(&entry[..]);
        }
        args.arg(feed.len());
        for line in &feed {
            let entry = codec::entry(line);
            args.arg(entry.len()).arg(&entry[..]);
        }
        let job = Job {
            names: Arc::clone(names),
            bucket: keys::bucket_of(id),
            args,
        };
        let outcome = self
            .batches
            .append(job)
            .await
            .map_err(|Failed| ServiceError::Store(StoreError::StoreUnavailable))?;
        let status = outcome.status;
        if status == 1
            && let Some(confirmed) = outcome.confirmed
            && !confirmed.enough()
        {
            return Err(not_replicated(id, confirmed));
        }
        match status {
            1 => {
                for row in &rows {
                    if matches!(row.kind, LogKind::Move { .. }) {
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
            _ => Err(ServiceError::Store(StoreError::GameNotFound { id })),
        }
    }

    /// The game as Redis has it now, ended first if its flag fell or it was abandoned: the
    /// sweep's claim (only one replica's append wins), and what every read does, as the memory
    /// store does on any call, so nobody reads a running clock at zero or an overdue game as
    /// going on. `now` is when the game was read.
    pub(super) async fn settled(&self, id: GameId) -> Result<(Box<Cached>, Now), ServiceError> {
        self.settled_via(id, false).await
    }

    /// [`settled`](Inner::settled), read confirmed by the replicas (`--redis-min-replicas`,
    /// see `ack`): the state a watcher's replay starts from.
    pub(super) async fn settled_confirmed(
        &self,
        id: GameId,
    ) -> Result<(Box<Cached>, Now), ServiceError> {
        self.settled_via(id, true).await
    }

    async fn settled_via(
        &self,
        id: GameId,
        confirmed: bool,
    ) -> Result<(Box<Cached>, Now), ServiceError> {
        for _ in 0..MAX_ATTEMPTS {
            let mut game = if confirmed {
                self.load_confirmed(id).await?
            } else {
                self.load(id).await?
            };
            let now = Now::read();
            let before = game.record.last_seq();
            let mut events = Vec::new();
            if !game.record.expire(now, &mut events) {
                return Ok((game, now));
            }
            let appended = match self.append(id, &mut game, before, &events, now, None).await {
                // The end is on the primary; if a failover loses it, the sweep ends the game
                // again from what the new primary holds. A plain read needs no confirmation
                // (a watcher's does: it would be sent the end).
                Err(ServiceError::Store(StoreError::NotReplicated { .. })) if !confirmed => {
                    Appended::Done
                }
                other => other?,
            };
            match appended {
                Appended::Done => {
                    tracing::info!(game_id = %id, "game ended by itself (flag or abandonment)");
                    return Ok((game, now));
                }
                // Another replica changed the game first (perhaps ended it): read it again.
                Appended::Stale => {}
            }
        }
        let game = if confirmed {
            self.fetch_confirmed(id).await?
        } else {
            self.fetch(id).await?
        };
        Ok((game, Now::read()))
    }

    /// Performs a seat's action (see `GameStore::act`): `admit` is asked once, on the first
    /// copy of the game it is applied to; a lost race plays the action again from the winner's
    /// state.
    pub(super) async fn act<A: Admit>(
        &self,
        id: GameId,
        holder: Holder,
        action: Action,
        admit: A,
    ) -> Result<Acted, ServiceError> {
        let request_id = action.request_id();
        let request_key = request_id.map(|r| keys::request_key(r.as_str()));
        let mut admit = Some(admit);
        let mut last_ply = None;
        // The game as Redis has it, when an attempt already brought it up to date.
        let mut current: Option<Box<Cached>> = None;
        for _ in 0..MAX_ATTEMPTS {
            let (mut game, read) = match current.take() {
                Some(game) => (game, true),
                None => self.copy_to_act_on(id, &holder).await?,
            };
            let seat = holder
                .seat_in(game.record.seats(), &game.meta.header.players)
                .map_err(ServiceError::from)
                .and_then(|seat| match admit.take() {
                    Some(admit) => admit(seat, game.record.turn()).map(|()| seat),
                    None => Ok(seat),
                });
            let seat = match seat {
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
            let view = |game: &Cached| game.record.view(&game.meta.header, now);
            if game.record.last_seq() == before {
                if !read {
                    // The refusal may be the copy's staleness (a ply the client saw elsewhere,
                    // a game ended elsewhere): it is answered only from the game as it is.
                    current = Some(self.catch_up(id, game).await?);
                    continue;
                }
                let acted = result.map_err(ServiceError::from).map(|played| Acted {
                    played,
                    view: view(&game),
                });
                self.put_back(id, game);
                // An answer without a change of its own (a retried request, a state already
                // reached) acknowledges what Redis held: confirmed like a change.
                if acted.is_ok() {
                    self.confirm(id).await?;
                }
                return acted;
            }
            match self
                .append(id, &mut game, before, &events, now, request_id)
                .await?
            {
                Appended::Done => {
                    let acted = result.map_err(ServiceError::from).map(|played| Acted {
                        played,
                        view: view(&game),
                    });
                    self.put_back(id, game);
                    return acted;
                }
                // Another replica changed the game first: play again from its state, read
                // afresh. (Keeping a copy of the game from before this attempt, to catch up
                // from the entries the script returned, would cost a copy of the whole game on
                // every move to save a read on the rare lost race.)
                Appended::Stale => {
                    tracing::debug!(game_id = %id, "lost a race for the game; playing again");
                    drop(game);
                    current = Some(self.fetch(id).await?);
                }
            }
        }
        let current = last_ply.unwrap_or(0);
        Err(ServiceError::Play(PlayError::PlyMismatch {
            expected: current,
            current: current + 1,
        }))
    }

    /// The copy of the game an action starts from, and whether it was just read: the cached
    /// copy unread if the seat is to move in it, else the copy brought up to date, else a
    /// fresh load.
    async fn copy_to_act_on(
        &self,
        id: GameId,
        holder: &Holder,
    ) -> Result<(Box<Cached>, bool), ServiceError> {
        match self.take_cached(id) {
            Some(game)
                if holder
                    .seat_in(game.record.seats(), &game.meta.header.players)
                    .is_ok_and(|seat| game.record.turn() == Some(seat)) =>
            {
                Ok((game, false))
            }
            Some(game) => Ok((self.catch_up(id, game).await?, true)),
            None => Ok((self.fetch(id).await?, true)),
        }
    }
}
