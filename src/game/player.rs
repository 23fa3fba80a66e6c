//! Players across games: a platform's [`PlayerId`], which CreateGame can bind to a seat, and
//! the [`PlayerToken`] that lets its holder act for that player in every game it is seated in.
//!
//! A player token is `chp_` and 32 lowercase hex digits (128 bits from the operating system's
//! entropy source). The prefix tells it apart from a seat token (32 hex digits alone) and from
//! an API key at a glance, in a header and in a secret scanner's rules. Like seat tokens, the
//! server keeps only the SHA-256 digest ([`TokenDigest`]); [`TokenId`], the digest's first 8
//! bytes in hex, names a token in logs and in RevokePlayerToken without revealing it.

use core::fmt;

use crate::game::error::GameError;
use crate::game::error::InputError;
use crate::game::token::{TOKEN_BYTES, TokenDigest};

/// The prefix of every player token.
pub(crate) const PLAYER_TOKEN_PREFIX: &str = "chp_";

/// A platform's id for a player: 1 to [`PlayerId::MAX_LEN`] printable ASCII characters
/// without spaces (what platforms use: numbers, UUIDs, handles), kept exactly as given (boxed:
/// every game's header keeps one per bound seat, and an id never grows).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(Box<str>);

impl PlayerId {
    /// The longest player id accepted.
    pub const MAX_LEN: usize = 128;

    /// Validates a player id from request field `field`; `None` for the empty string.
    pub fn parse(field: &'static str, text: &str) -> Result<Option<PlayerId>, InputError> {
        if text.is_empty() {
            return Ok(None);
        }
        PlayerId::checked(text)
            .map(Some)
            .map_err(|message| InputError::InvalidField { field, message })
    }

    /// A player id read back from storage, checked as a request's is.
    pub fn checked(text: &str) -> Result<PlayerId, String> {
        if text.is_empty()
            || text.len() > PlayerId::MAX_LEN
            || !text.bytes().all(|b| b.is_ascii_graphic())
        {
            return Err(format!(
                "expected 1 to {} printable ascii characters without spaces",
                PlayerId::MAX_LEN
            ));
        }
        Ok(PlayerId(text.into()))
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A player token. `Debug` never prints the secret.
#[derive(Clone, Copy)]
pub struct PlayerToken([u8; TOKEN_BYTES]);

/// Which token: the first 8 bytes of its digest, in hex (safe to log and to show).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TokenId(u64);

impl PlayerToken {
    /// A fresh token from the operating system's entropy source.
    pub fn generate() -> Result<PlayerToken, GameError> {
        let mut bytes = [0; TOKEN_BYTES];
        getrandom::fill(&mut bytes).map_err(|e| GameError::Internal(Box::new(e)))?;
        Ok(PlayerToken(bytes))
    }

    /// The token's digest: what the server stores.
    #[must_use]
    pub fn digest(&self) -> TokenDigest {
        TokenDigest::of(&self.0)
    }

    #[must_use]
    pub fn id(&self) -> TokenId {
        TokenId::of(&self.digest())
    }

    /// Whether `credential` (a bearer credential) is written as a player token, right or
    /// wrong: the caller then means a player token, never a seat token or an API key.
    #[must_use]
    pub fn looks_like(credential: &str) -> bool {
        credential.starts_with(PLAYER_TOKEN_PREFIX)
    }
}

impl TokenId {
    /// The id of the token with this digest.
    #[must_use]
    pub fn of(digest: &TokenDigest) -> TokenId {
        let mut first = [0; 8];
        first.copy_from_slice(&digest.as_bytes()[..8]);
        TokenId(u64::from_be_bytes(first))
    }
}

impl fmt::Display for TokenId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl core::str::FromStr for TokenId {
    type Err = ();

    /// Exactly 16 lowercase hex digits, as ids are written.
    fn from_str(s: &str) -> Result<TokenId, ()> {
        if s.len() != 16 || !s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            return Err(());
        }
        u64::from_str_radix(s, 16).map(TokenId).map_err(|_| ())
    }
}

impl fmt::Display for PlayerToken {
    /// The secret as clients send it: `chp_` and 32 lowercase hex digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(PLAYER_TOKEN_PREFIX)?;
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for PlayerToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PlayerToken(..)")
    }
}

impl core::str::FromStr for PlayerToken {
    type Err = ();

    /// `chp_` and exactly 32 lowercase hex digits.
    fn from_str(s: &str) -> Result<PlayerToken, ()> {
        let hex = s.strip_prefix(PLAYER_TOKEN_PREFIX).ok_or(())?.as_bytes();
        if hex.len() != TOKEN_BYTES * 2 {
            return Err(());
        }
        let digit = |c: u8| match c {
            b'0'..=b'9' => Ok(c - b'0'),
            b'a'..=b'f' => Ok(c - b'a' + 10),
            _ => Err(()),
        };
        let mut bytes = [0; TOKEN_BYTES];
        for (byte, pair) in bytes.iter_mut().zip(hex.chunks_exact(2)) {
            *byte = digit(pair[0])? << 4 | digit(pair[1])?;
        }
        Ok(PlayerToken(bytes))
    }
}

/// A token just issued: the secret (shown once) and what names it.
#[derive(Clone, Debug)]
pub struct IssuedToken {
    pub token: PlayerToken,
    pub id: TokenId,
    pub player: PlayerId,
}

/// What RevokePlayerToken ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Revoke {
    /// One token.
    Token(TokenId),
    /// Every token of a player.
    Player(PlayerId),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A token prints as `chp_` and 32 hex digits, parses back, and keeps its secret in Debug.
    #[test]
    fn tokens_round_trip() {
        let token = PlayerToken::generate().unwrap();
        let text = token.to_string();
        assert!(text.starts_with("chp_") && text.len() == 36, "{text}");
        let back: PlayerToken = text.parse().unwrap();
        assert!(back.digest().matches(&token.digest()));
        assert_eq!(back.id(), token.id());
        assert_eq!(format!("{token:?}"), "PlayerToken(..)");
        assert_eq!(token.id().to_string().parse::<TokenId>(), Ok(token.id()));
        for bad in [
            "",
            "chp_",
            "0123456789abcdef0123456789abcdef",
            &text.to_uppercase(),
        ] {
            assert!(bad.parse::<PlayerToken>().is_err(), "{bad}");
        }
        assert!(PlayerToken::looks_like(&text));
        assert!(!PlayerToken::looks_like("0123456789abcdef0123456789abcdef"));
    }

    /// Player ids are printable ASCII without spaces, at most 128 characters.
    #[test]
    fn player_ids() {
        assert_eq!(PlayerId::parse("player_id", "").unwrap(), None);
        assert!(PlayerId::parse("player_id", "user:42").unwrap().is_some());
        assert!(PlayerId::parse("player_id", &"x".repeat(128)).is_ok());
        for bad in ["a b", "é", "\t", &"x".repeat(129)] {
            assert!(
                matches!(
                    PlayerId::parse("player_id", bad),
                    Err(InputError::InvalidField {
                        field: "player_id",
                        ..
                    })
                ),
                "{bad:?}"
            );
        }
    }
}
