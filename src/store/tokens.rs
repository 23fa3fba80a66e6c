//! [`PlayerTokens`]: the player tokens in force in the memory and SQLite stores, by id, each
//! with its digest and its player (the clear token is never kept), and the revocation count
//! that open player-mode streams watch so a revoked token's feed ends at once.

use std::collections::HashMap;
use std::sync::{PoisonError, RwLock};

use tokio::sync::watch;

use crate::error::ServiceError;
use crate::game::{IssuedToken, PlayerId, PlayerToken, Revoke, TokenDigest, TokenId};
use crate::security::error::AccessError;

/// Player tokens by id. A std `RwLock`: every use is a map look-up or change, never across an
/// await.
#[derive(Debug)]
pub(super) struct PlayerTokens {
    tokens: RwLock<HashMap<TokenId, (TokenDigest, PlayerId)>>,
    /// Raised at every revocation that ended a token.
    revoked: watch::Sender<u64>,
}

impl Default for PlayerTokens {
    fn default() -> PlayerTokens {
        PlayerTokens {
            tokens: RwLock::default(),
            revoked: watch::channel(0).0,
        }
    }
}

impl PlayerTokens {
    /// A fresh token for `player`, in force at once (a durable store answers only once it is
    /// committed, so nobody holds it before).
    pub(super) fn issue(&self, player: PlayerId) -> Result<IssuedToken, ServiceError> {
        let token = PlayerToken::generate()?;
        let id = token.id();
        self.insert(id, token.digest(), player.clone());
        Ok(IssuedToken { token, id, player })
    }

    /// Puts a token in force (read back from storage).
    pub(super) fn insert(&self, id: TokenId, digest: TokenDigest, player: PlayerId) {
        self.tokens
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, (digest, player));
    }

    /// The player `token` acts for. Its digest is compared in constant time with the one
    /// stored under its id.
    pub(super) fn check(&self, token: &PlayerToken) -> Result<PlayerId, ServiceError> {
        let digest = token.digest();
        let tokens = self.tokens.read().unwrap_or_else(PoisonError::into_inner);
        match tokens.get(&TokenId::of(&digest)) {
            Some((stored, player)) if stored.matches(&digest) => Ok(player.clone()),
            _ => Err(ServiceError::Access(AccessError::InvalidPlayerToken)),
        }
    }

    /// Ends the tokens `what` names; returns their ids.
    pub(super) fn revoke(&self, what: &Revoke) -> Vec<TokenId> {
        let ended: Vec<TokenId> = {
            let mut tokens = self.tokens.write().unwrap_or_else(PoisonError::into_inner);
            let ended: Vec<TokenId> = match what {
                Revoke::Token(id) => tokens.contains_key(id).then_some(*id).into_iter().collect(),
                Revoke::Player(player) => tokens
                    .iter()
                    .filter(|(_, (_, p))| p == player)
                    .map(|(id, _)| *id)
                    .collect(),
            };
            for id in &ended {
                tokens.remove(id);
            }
            ended
        };
        if !ended.is_empty() {
            self.revoked.send_modify(|n| *n += 1);
        }
        ended
    }

    /// Raised at every revocation: a player-mode stream checks its token again when it moves.
    #[must_use]
    pub(super) fn revocations(&self) -> watch::Receiver<u64> {
        self.revoked.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An issued token acts for its player until revoked, by id or with all of its player's.
    #[test]
    fn issue_check_revoke() {
        let tokens = PlayerTokens::default();
        let bot = PlayerId::checked("bot").unwrap();
        let a = tokens.issue(bot.clone()).unwrap();
        let b = tokens.issue(bot.clone()).unwrap();
        let other = tokens.issue(PlayerId::checked("other").unwrap()).unwrap();
        assert_eq!(tokens.check(&a.token).unwrap(), bot);
        let stranger = PlayerToken::generate().unwrap();
        assert!(matches!(
            tokens.check(&stranger),
            Err(ServiceError::Access(AccessError::InvalidPlayerToken))
        ));
        let mut notified = tokens.revocations();
        assert_eq!(tokens.revoke(&Revoke::Token(a.id)), [a.id]);
        assert!(notified.has_changed().unwrap());
        notified.mark_unchanged();
        assert!(tokens.check(&a.token).is_err());
        assert!(tokens.check(&b.token).is_ok());
        assert!(tokens.revoke(&Revoke::Token(a.id)).is_empty(), "idempotent");
        assert!(
            !notified.has_changed().unwrap(),
            "nothing ended, nobody told"
        );
        assert_eq!(tokens.revoke(&Revoke::Player(bot)), [b.id]);
        assert!(tokens.check(&b.token).is_err());
        assert!(tokens.check(&other.token).is_ok());
    }
}
