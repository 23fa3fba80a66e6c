//! Player tokens on Redis: each token a hash under its id (`{chessd:ptok:<id>}`: its digest,
//! its player, when it was issued), and each player's token ids in a set (for revoking all of
//! them). Both are looked up on every call with a player token, so a revocation holds on every
//! replica from the next call on; it is also announced on [`keys::REVOKED_CHANNEL`], so open
//! player-mode feeds on every replica end at once.
//!
//! The two keys are in different slots (a token is found by its id alone), so issuing and
//! revoking are two commands, ordered so that a failure between them never leaves a token in
//! force that its player's revocation would miss: issuing adds the id to the player's set
//! first, revoking deletes the token's hash first. With `--redis-min-replicas` each of those
//! writes waits for the replicas, so a failover neither revives a revoked token nor loses an
//! issued one from its player's set.

use std::time::SystemTime;

use crate::error::ServiceError;
use crate::game::{IssuedToken, PlayerId, PlayerToken, Revoke, TokenDigest, TokenId, epoch_ms};
use crate::security::error::AccessError;
use crate::store::redis::act::not_replicated;
use crate::store::redis::codec;
use crate::store::redis::failure::unavailable;
use crate::store::redis::keys;
use crate::store::redis::state::Inner;

impl Inner {
    /// Runs `pipe` (one slot's writes) as a change: with `--redis-min-replicas` followed by
    /// the wait for the replicas, and refused NOT_REPLICATED unless they confirmed it.
    async fn write(
        &self,
        pipe: &::redis::Pipeline,
        what: &str,
    ) -> Result<Vec<::redis::Value>, ServiceError> {
        match &self.acks {
            None => pipe
                .query_async(&mut self.conn())
                .await
                .map_err(|e| unavailable(&e)),
            Some(acks) => {
                let (answers, confirmed) = acks
                    .run(&mut acks.conn(), pipe)
                    .await
                    .map_err(|e| unavailable(&e))?;
                if confirmed.enough() {
                    Ok(answers)
                } else {
                    Err(not_replicated(what, confirmed))
                }
            }
        }
    }

    pub(super) async fn issue_player_token(
        &self,
        player: PlayerId,
    ) -> Result<IssuedToken, ServiceError> {
        let token = PlayerToken::generate()?;
        let id = token.id();
        let mut listed = ::redis::pipe();
        listed
            .cmd("SADD")
            .arg(keys::player_tokens_key(player.as_str()))
            .arg(id.to_string())
            .ignore();
        self.write(&listed, "a player's token list").await?;
        let mut stored = ::redis::pipe();
        stored
            .cmd("HSET")
            .arg(keys::player_token_key(&id.to_string()))
            .arg("digest")
            .arg(keys::hex(token.digest().as_bytes()))
            .arg("player")
            .arg(player.as_str())
            .arg("issued_ms")
            .arg(epoch_ms(SystemTime::now()))
            .ignore();
        self.write(&stored, "a player token").await?;
        Ok(IssuedToken { token, id, player })
    }

    pub(super) async fn player_of(&self, token: PlayerToken) -> Result<PlayerId, ServiceError> {
        let digest = token.digest();
        let (stored, player): (Option<String>, Option<String>) = ::redis::cmd("HMGET")
            .arg(keys::player_token_key(&TokenId::of(&digest).to_string()))
            .arg("digest")
            .arg("player")
            .query_async(&mut self.conn())
            .await
            .map_err(|e| unavailable(&e))?;
        let stored = stored
            .as_deref()
            .and_then(codec::unhex::<32>)
            .and_then(|bytes| TokenDigest::from_slice(&bytes));
        match (stored, player) {
            (Some(stored), Some(player)) if stored.matches(&digest) => PlayerId::checked(&player)
                .map_err(|e| {
                    tracing::error!(error = %e, "damaged player token in redis");
                    ServiceError::Internal("damaged player token in redis".into())
                }),
            _ => Err(ServiceError::Access(AccessError::InvalidPlayerToken)),
        }
    }

    pub(super) async fn revoke_player_tokens(&self, what: Revoke) -> Result<usize, ServiceError> {
        let ids: Vec<String> = match &what {
            Revoke::Token(id) => vec![id.to_string()],
            Revoke::Player(player) => ::redis::cmd("SMEMBERS")
                .arg(keys::player_tokens_key(player.as_str()))
                .query_async(&mut self.conn())
                .await
                .map_err(|e| unavailable(&e))?,
        };
        let mut revoked = 0;
        for id in &ids {
            let key = keys::player_token_key(id);
            let player: Option<String> = ::redis::cmd("HGET")
                .arg(&key)
                .arg("player")
                .query_async(&mut self.conn())
                .await
                .map_err(|e| unavailable(&e))?;
            let mut delete = ::redis::pipe();
            delete.cmd("DEL").arg(&key);
            let deleted: u64 = self
                .write(&delete, "a player token's revocation")
                .await?
                .first()
                .map(::redis::FromRedisValue::from_redis_value_ref)
                .transpose()
                .map_err(|e| unavailable(&e.into()))?
                .unwrap_or(0);
            revoked += deleted as usize;
            if let Some(player) = player {
                let _: () = ::redis::cmd("SREM")
                    .arg(keys::player_tokens_key(&player))
                    .arg(id)
                    .query_async(&mut self.conn())
                    .await
                    .map_err(|e| unavailable(&e))?;
            }
        }
        if revoked > 0 {
            self.revoked.send_modify(|n| *n += 1);
            // Other replicas hear it here; a replica that misses it (its pub/sub connection
            // down) checks its player-mode feeds again at their next heartbeat.
            let _: Result<(), _> = ::redis::cmd("PUBLISH")
                .arg(keys::REVOKED_CHANNEL)
                .arg(revoked)
                .query_async(&mut self.conn())
                .await;
        }
        Ok(revoked)
    }
}
