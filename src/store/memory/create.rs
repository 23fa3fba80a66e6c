//! Creating games in memory: the live-game limit, fresh ids and tokens, and idempotent
//! retries: a CreateGame retried with its request id gets the first answer, tokens included,
//! from the creations this process remembers.

use std::hash::BuildHasher;
use std::sync::atomic::Ordering;
use std::sync::{Arc, PoisonError};

use chessd_rules::ByColor;

use crate::error::ServiceError;
use crate::game::chance;
use crate::game::error::InputError;
use crate::game::{
    Created, FeedEvent, GameHeader, GameId, GameRecord, Labels, NewGame, Now, Players, SeatToken,
    Seats, StartRules, TakebackPolicy, TimeControl,
};
use crate::metrics;
use crate::security::error::LimitError;
use crate::store::journal::{Change, CreatedGame, Place};
use crate::store::memory::creations::Creation;
use crate::store::memory::entry::GameEntry;
use crate::store::memory::inner::Inner;
use crate::store::store_error::StoreError;

/// What a creation request asks for, as a retry must ask for it again.
struct Asked<'a> {
    start: &'a chessd_rules::any::AnyPosition,
    time_control: Option<TimeControl>,
    start_rules: StartRules,
    players: &'a Players,
    draw_rule: chessd_rules::DrawRule,
    labels: &'a Labels,
    seat_tokens: ByColor<bool>,
    takebacks: TakebackPolicy,
    claim_after: std::time::Duration,
    player_entropy: bool,
}

impl Inner {
    /// Remembers that request id `request_id` created the game of `header`, whose record came
    /// back from storage (its tokens are gone: a retry is told so).
    pub(super) fn remember_restored(
        &self,
        request_id: &str,
        header: &GameHeader,
        record: &GameRecord,
    ) {
        let key = self.hasher.hash_one(request_id);
        let fingerprint = self.fingerprint_of(&Asked {
            start: &chance::as_requested(&header.start.position(), record.seats().seed().is_some()),
            time_control: header.time_control(),
            start_rules: header.start_rules(),
            players: &header.players,
            draw_rule: header.draw_rule,
            labels: &header.labels,
            seat_tokens: ByColor::new_with(|c| record.seats().digest(c).is_some()),
            takebacks: record.takebacks(),
            claim_after: header.claim_after(),
            player_entropy: record.seats().player_entropy(),
        });
        self.creations
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remember(
                key,
                Creation {
                    fingerprint,
                    game: header.id,
                    tokens: None,
                },
            );
    }

    /// Creates a game, or finds the one an earlier request with the same request id created.
    /// Returns the journal ticket to wait for.
    pub(super) fn create_or_find(
        &self,
        new: &NewGame,
        place: Option<Place>,
    ) -> Result<(Created, u64), ServiceError> {
        let now = Now::read();
        let Some(request_id) = &new.request_id else {
            return self.create_game(new, now, place);
        };
        let key = self.hasher.hash_one(request_id.as_str());
        let fingerprint = self.fingerprint_of(&Asked {
            start: &new.start,
            time_control: new.time_control,
            start_rules: new.start_rules,
            players: &new.players,
            draw_rule: new.draw_rule,
            labels: &new.labels,
            seat_tokens: new.seat_tokens,
            takebacks: new.takebacks,
            claim_after: new.claim_after,
            player_entropy: new.player_entropy,
        });
        let mut creations = self
            .creations
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(creation) = creations.get(key) {
            if creation.fingerprint != fingerprint {
                return Err(InputError::RequestIdReused.into());
            }
            let id = creation.game;
            let tokens = creation.tokens;
            drop(creations);
            let entry = self.find(id)?;
            let tokens = tokens.ok_or(StoreError::SeatTokensUnavailable { id })?;
            let state = entry.lock();
            let record = state
                .held
                .read(&entry.header, self.limits.abandon_after, now)?;
            let created = Created {
                view: record.view(&entry.header, now),
                tokens,
            };
            return Ok((created, state.ticket));
        }
        let (created, ticket) = self.create_game(new, now, place)?;
        creations.remember(
            key,
            Creation {
                fingerprint,
                game: created.view.id,
                tokens: Some(created.tokens),
            },
        );
        Ok((created, ticket))
    }

    /// The fingerprint of a creation request: a retry must match it.
    fn fingerprint_of(&self, asked: &Asked<'_>) -> u64 {
        self.hasher.hash_one((
            asked.start,
            &asked.time_control,
            asked.start_rules,
            asked.players,
            asked.draw_rule,
            asked.labels,
            asked.seat_tokens,
            asked.takebacks,
            asked.claim_after,
            asked.player_entropy,
        ))
    }

    /// Makes and inserts a new game under the live-game limit; with a journal its creation is
    /// queued in `place`, and the ticket comes back with it.
    fn create_game(
        &self,
        new: &NewGame,
        now: Now,
        place: Option<Place>,
    ) -> Result<(Created, u64), ServiceError> {
        let limit = self.limits.max_live_games;
        self.live
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < limit).then_some(n + 1)
            })
            .map_err(|_| LimitError::TooManyGames { limit })?;
        let made = self.insert_game(new, now, place);
        match &made {
            Ok(_) => metrics::game_started(),
            Err(_) => {
                self.live.fetch_sub(1, Ordering::AcqRel);
            }
        }
        made
    }

    fn insert_game(
        &self,
        new: &NewGame,
        now: Now,
        mut place: Option<Place>,
    ) -> Result<(Created, u64), ServiceError> {
        let tokens = SeatToken::for_seats(new.seat_tokens)?;
        let (seed, settled) =
            match chance::for_new_game(&new.start, new.draw_start, new.player_entropy)
                .map_err(|e| ServiceError::Internal(Box::new(e)))?
            {
                Some((seed, start)) => (
                    Some(seed),
                    Some(NewGame {
                        start,
                        ..new.clone()
                    }),
                ),
                None => (None, None),
            };
        let new = settled.as_ref().unwrap_or(new);
        let seats = Seats::of(&tokens)
            .with_seed(seed)
            .with_player_entropy(new.player_entropy);
        let record =
            GameRecord::new(new, seats.clone(), now).abandoned_after(self.limits.abandon_after);
        let mut record = Some(record);
        loop {
            let random = getrandom::u64().map_err(|e| ServiceError::Internal(Box::new(e)))?;
            let id = GameId::new(now.wall, random);
            let mut map = self
                .shard(id)
                .write()
                .unwrap_or_else(PoisonError::into_inner);
            // Two games in one millisecond with the same 22 random bits: draw again.
            if map.contains_key(&id) {
                continue;
            }
            let Some(record) = record.take() else {
                return Err(ServiceError::Internal("game record used twice".into()));
            };
            let header = Arc::new(GameHeader::of(id, new, now.wall));
            let view = record.view(&header, now);
            // Queued (or, without a journal, put in the feed) while the map is locked, before
            // anyone can find the game, so its creation precedes its events in the journal and
            // in the feed.
            let ticket = match place.take() {
                Some(place) => {
                    let created = CreatedGame {
                        header: header.clone(),
                        seats: seats.clone(),
                        request_id: new.request_id.as_ref().map(|r| r.as_str().to_owned()),
                        takebacks: new.takebacks,
                    };
                    place.send(Change::Created(Box::new(created)), None)
                }
                None => {
                    self.feed.append(vec![FeedEvent::created(header.clone())]);
                    0
                }
            };
            let entry = Arc::new(GameEntry::new(header, record, ticket));
            map.insert(id, entry.clone());
            drop(map);
            // A new game's record is held as it is: opening it unpacks nothing.
            if let Ok(mut open) = entry.lock().open(&entry.header, None, now) {
                self.rearm(id, &mut open);
            }
            return Ok((Created { view, tokens }, ticket));
        }
    }
}
