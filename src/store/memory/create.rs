//! Creating games in memory: the live-game limit, fresh ids and tokens, and idempotent
//! retries: a CreateGame retried with its request id gets the first answer, tokens included,
//! from the creations this process remembers.

use std::hash::BuildHasher;
use std::sync::atomic::Ordering;
use std::sync::{Arc, PoisonError};

use chessd_rules::Rules;

use crate::error::ServiceError;
use crate::game::{
    Created, GameId, GameRecord, NewGame, Now, Players, SeatToken, Seats, TimeControl,
};
use crate::metrics;
use crate::store::journal::{Change, CreatedGame, Place};
use crate::store::memory::creations::Creation;
use crate::store::memory::entry::GameEntry;
use crate::store::memory::inner::Inner;

impl Inner {
    /// Remembers that request id `request_id` created game `id`, whose record came back from
    /// storage (its tokens are gone: a retry is told so).
    pub fn remember_restored(
        &self,
        request_id: &str,
        id: GameId,
        record: &GameRecord,
        players: &Players,
    ) {
        let key = self.hasher.hash_one(request_id);
        let fingerprint = self.fingerprint_of(
            record.game().start(),
            record.time_control(),
            players,
            record.game().draw_rule(),
        );
        self.creations
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remember(
                key,
                Creation {
                    fingerprint,
                    game: id,
                    tokens: None,
                },
            );
    }

    /// Creates a game, or finds the one an earlier request with the same request id created.
    /// Returns the journal ticket to wait for.
    pub fn create_or_find(
        &self,
        new: &NewGame,
        place: Option<Place>,
    ) -> Result<(Created, u64), ServiceError> {
        let now = Now::read();
        let Some(request_id) = &new.request_id else {
            return self.create_game(new, now, place);
        };
        let key = self.hasher.hash_one(request_id.as_str());
        let fingerprint =
            self.fingerprint_of(&new.start, new.time_control, &new.players, new.draw_rule);
        let mut creations = self
            .creations
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(creation) = creations.get(key) {
            if creation.fingerprint != fingerprint {
                return Err(ServiceError::RequestIdReused);
            }
            let id = creation.game;
            let tokens = creation.tokens;
            drop(creations);
            let entry = self.find(id)?;
            let tokens = tokens.ok_or(ServiceError::SeatTokensUnavailable { id })?;
            let state = entry.lock();
            let created = Created {
                view: state.record.view(id, &entry.players, now),
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
    fn fingerprint_of(
        &self,
        start: &chessd_rules::Position,
        time_control: Option<TimeControl>,
        players: &Players,
        draw_rule: chessd_rules::DrawRule,
    ) -> u64 {
        self.hasher
            .hash_one((start, &time_control, players, draw_rule))
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
            .map_err(|_| ServiceError::TooManyGames { limit })?;
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
        let tokens = SeatToken::pair()?;
        let seats = Seats::of(&tokens);
        let record = GameRecord::new(new, seats, now).abandoned_after(self.limits.abandon_after);
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
            let view = record.view(id, &new.players, now);
            // Queued while the map is locked, before anyone can find the game, so its creation
            // precedes its events in the journal.
            let ticket = match place.take() {
                Some(place) => {
                    let created = CreatedGame {
                        id,
                        variant: new.start.variant(),
                        start_fen: new.start.fen(),
                        players: new.players.clone(),
                        time_control: new.time_control,
                        draw_rule: new.draw_rule,
                        seats,
                        created_at_ms: crate::game::epoch_ms(now.wall),
                        request_id: new.request_id.as_ref().map(|r| r.as_str().to_owned()),
                    };
                    place.send(Change::Created(Box::new(created)), None)
                }
                None => 0,
            };
            let entry = Arc::new(GameEntry::new(id, new.players.clone(), record, ticket));
            map.insert(id, entry.clone());
            drop(map);
            self.rearm(id, &mut entry.lock());
            return Ok((Created { view, tokens }, ticket));
        }
    }
}
