//! CreateGame on Redis: the create script makes the game in its bucket under the live-game
//! limit, idempotently per request id; this replica remembers the clear tokens of its own
//! recent creations so a retry here gets them back (Redis keeps only their digests).

use std::sync::{Arc, OnceLock, PoisonError};

use chessd_rules::ByColor;

use crate::error::ServiceError;
use crate::game::chance;
use crate::game::error::InputError;
use crate::game::{
    Created, FeedEvent, GameHeader, GameId, GameRecord, NewGame, Now, SeatToken, Seats,
};
use crate::metrics;
use crate::security::error::LimitError;
use crate::store::config::REMEMBERED_CREATIONS;
use crate::store::feed::codec as feed_codec;
use crate::store::redis::act::not_replicated;
use crate::store::redis::cached::Cached;
use crate::store::redis::call::ScriptCall;
use crate::store::redis::codec::{self, Meta};
use crate::store::redis::failure::{damaged, unavailable};
use crate::store::redis::keys;
use crate::store::redis::keys::BUCKETS;
use crate::store::redis::scripts;
use crate::store::redis::state::Inner;
use crate::store::store_error::StoreError;

impl Inner {
    /// Remembers a creation's tokens for a retry on this replica (the oldest is forgotten
    /// beyond `REMEMBERED_CREATIONS`).
    fn remember_creation(&self, request_key: &str, id: GameId, tokens: ByColor<Option<SeatToken>>) {
        let mut creations = self
            .creations
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if creations.len() >= REMEMBERED_CREATIONS {
            creations.pop_front();
        }
        creations.push_back((request_key.to_owned(), id, tokens));
    }

    /// The tokens of game `id`, if this replica created it under `request_key` recently.
    fn recalled_creation(
        &self,
        request_key: &str,
        id: GameId,
    ) -> Option<ByColor<Option<SeatToken>>> {
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

    /// Creates the game, or answers a retry of an earlier creation.
    pub(super) async fn create(&self, new: NewGame) -> Result<Created, ServiceError> {
        let tokens = SeatToken::for_seats(new.seat_tokens)?;
        let seats = Seats::of(&tokens).with_player_entropy(new.player_entropy);
        let now = Now::read();
        let nonce = keys::hex(
            &getrandom::u64()
                .map_err(|e| ServiceError::Internal(Box::new(e)))?
                .to_be_bytes(),
        );
        // The fingerprint and the request record do not depend on the id drawn, nor on a game
        // of chance's seed and first roll: they are the request's, made again by a retry.
        let fingerprint = codec::fingerprint(&Meta {
            header: Arc::new(GameHeader::of(GameId::new(now.wall, 0), &new, now.wall)),
            seats: seats.clone(),
            takebacks: new.takebacks,
            feed_header: OnceLock::new(),
            append_names: OnceLock::new(),
        });
        let (new, seats) =
            match chance::for_new_game(&new.start, new.draw_start, new.player_entropy)
                .map_err(|e| ServiceError::Internal(Box::new(e)))?
            {
                Some((seed, start)) => (NewGame { start, ..new }, seats.with_seed(Some(seed))),
                None => (new, seats),
            };
        let record =
            GameRecord::new(&new, seats.clone(), now).abandoned_after(self.limits.abandon_after);
        let rid = new.request_id.as_ref().map(|r| r.as_str().to_owned());
        let request_key = rid.as_deref().map(keys::create_key).unwrap_or_default();
        // A retry must meet the first creation's request record, so a request id fixes the
        // bucket; without one the bucket is as random as the id.
        let request_bucket = rid.as_deref().map(keys::bucket_of_request);
        loop {
            let random = getrandom::u64().map_err(|e| ServiceError::Internal(Box::new(e)))?;
            let random = request_bucket.map_or(random, |b| keys::in_bucket(random, b));
            let id = GameId::new(now.wall, random);
            let bucket = keys::bucket_of(id);
            let meta = Arc::new(Meta {
                header: Arc::new(GameHeader::of(id, &new, now.wall)),
                seats: seats.clone(),
                takebacks: new.takebacks,
                feed_header: OnceLock::new(),
                append_names: OnceLock::new(),
            });
            let fields: Vec<String> =
                codec::new_game_fields(&meta, &codec::summary(&record), &nonce)
                    .into_iter()
                    .flat_map(|(k, v)| [k.to_owned(), v])
                    .collect();
            let created = feed_codec::line_with_header(
                &FeedEvent::created(meta.header.clone()),
                meta.feed_header(),
            );
            let entry = codec::entry(&created);
            let label_keys: Vec<String> = new
                .labels
                .iter()
                .map(|(k, v)| keys::label_key(bucket, k, v))
                .collect();
            let player_keys: Vec<String> = new
                .players
                .bound()
                .map(|p| keys::player_games_key(bucket, p.as_str()))
                .collect();
            let (other_live_keys, counted_elsewhere) = self.live_elsewhere(bucket).await?;
            let mut script_keys = vec![
                keys::game_key(id),
                keys::games_key(bucket),
                keys::deadlines_key(bucket),
                keys::live_key(bucket),
                if request_key.is_empty() {
                    keys::bucket_key(bucket, "create:-")
                } else {
                    request_key.clone()
                },
                keys::feed_key(bucket),
            ];
            let (nlabels, nplayers) = (label_keys.len(), player_keys.len());
            script_keys.extend(label_keys);
            script_keys.extend(player_keys);
            script_keys.extend(other_live_keys);
            let mut call = ScriptCall::new(&scripts::CREATE, &script_keys);
            call.arg(id.to_string())
                .arg(self.limits.max_live_games)
                .arg(
                    codec::deadline_ms(&record, now)
                        .map(|d| d.to_string())
                        .unwrap_or_default(),
                )
                .arg(&fingerprint)
                .arg(if request_key.is_empty() {
                    String::new()
                } else {
                    keys::CREATE_RECORD_TTL.as_secs().to_string()
                })
                .arg(counted_elsewhere)
                .arg(&nonce)
                .arg(nlabels)
                .arg(nplayers)
                .arg(keys::FEED_CHANNEL)
                .arg(bucket)
                .arg(entry.len())
                .arg(&entry[..])
                .arg(&fields);
            // Remembered before the script runs: if its reply is lost, the retry with this
            // request id finds the game made and needs its tokens.
            if !request_key.is_empty() {
                self.remember_creation(&request_key, id, tokens);
            }
            let reply: Vec<String> = match &self.acks {
                None => call
                    .run(&mut self.conn())
                    .await
                    .map_err(|e| unavailable(&e))?,
                Some(acks) => {
                    let (reply, confirmed): (Vec<String>, _) =
                        call.run_acked(acks).await.map_err(|e| unavailable(&e))?;
                    // A retry with the request id finds the game (and the tokens remembered
                    // above) and confirms it then.
                    if reply.first().map(String::as_str) == Some("created") && !confirmed.enough() {
                        return Err(not_replicated(id, confirmed));
                    }
                    reply
                }
            };
            match reply.first().map(String::as_str) {
                Some("created") => {
                    metrics::game_started();
                    let view = record.view(&meta.header, now);
                    self.put_back(id, Box::new(Cached { meta, record }));
                    return Ok(Created { view, tokens });
                }
                Some("exists") => {
                    let [_, first, first_fingerprint] = reply.as_slice() else {
                        return Err(damaged(id, "malformed request record"));
                    };
                    if *first_fingerprint != fingerprint {
                        return Err(InputError::RequestIdReused.into());
                    }
                    let first: GameId = first
                        .parse()
                        .map_err(|_| damaged(id, "request record names no game"))?;
                    // Only digests reach Redis: the tokens are known only to the replica
                    // that made the game, for as long as it remembers the creation.
                    let tokens = self
                        .recalled_creation(&request_key, first)
                        .ok_or(StoreError::SeatTokensUnavailable { id: first })?;
                    let game = self.load(first).await?;
                    let view = game.record.view(&game.meta.header, Now::read());
                    self.put_back(first, game);
                    self.confirm(first).await?;
                    return Ok(Created { view, tokens });
                }
                Some("full") => {
                    return Err(LimitError::TooManyGames {
                        limit: self.limits.max_live_games,
                    }
                    .into());
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
            .map(keys::live_key)
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
}
