//! Seat tokens: the secrets that let a client act for White or Black in one game.
//!
//! A token is 128 bits from the operating system's entropy source, written as 32 lowercase hex
//! digits. Clients send it as `authorization: Bearer <token>`. Comparison is constant-time so the
//! time a refusal takes says nothing about how many leading bytes were right.
//!
//! The server keeps only [`TokenDigest`]s of the tokens ([`Seats`]) in its game records and on
//! disk: a copy of the database or a memory dump does not give anyone a seat. The clear token
//! exists in the CreateGame answer, in the client's requests and, for idempotent CreateGame
//! retries only, in the in-process memory of recent creations (see `store::memory`).

use crate::game::error::GameError;
use crate::game::error::SeatError;

use core::fmt;

use crate::game::chance::Seed;
use chessd_rules::{ByColor, Color};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The number of random bytes in a token (128 bits: unguessable by brute force).
pub(crate) const TOKEN_BYTES: usize = 16;

/// A seat token. `Debug` never prints the secret.
#[derive(Clone, Copy)]
pub struct SeatToken([u8; TOKEN_BYTES]);

/// Why the `authorization` metadata did not yield a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BearerError {
    /// No `authorization` metadata at all.
    Missing,
    /// Present, but not `Bearer <32 hex digits>`.
    Malformed,
}

/// The operating system could not provide randomness; the game cannot get safe tokens.
#[derive(Debug)]
pub struct EntropyError(getrandom::Error);

impl fmt::Display for EntropyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no randomness from the operating system: {}", self.0)
    }
}

impl std::error::Error for EntropyError {}

impl From<EntropyError> for GameError {
    /// No randomness for seat tokens: the server cannot make a game safely.
    fn from(e: EntropyError) -> GameError {
        GameError::Internal(Box::new(e))
    }
}

impl SeatToken {
    /// A fresh token from the operating system's entropy source.
    pub fn generate() -> Result<SeatToken, EntropyError> {
        let mut bytes = [0; TOKEN_BYTES];
        getrandom::fill(&mut bytes).map_err(EntropyError)?;
        Ok(SeatToken(bytes))
    }

    /// A fresh token for each seat that gets one (`wanted`).
    pub fn for_seats(wanted: ByColor<bool>) -> Result<ByColor<Option<SeatToken>>, EntropyError> {
        let token = |c: Color| wanted[c].then(SeatToken::generate).transpose();
        Ok(ByColor::new(token(Color::White)?, token(Color::Black)?))
    }

    /// A fresh token for each seat.
    pub fn pair() -> Result<ByColor<SeatToken>, EntropyError> {
        Ok(ByColor::new(SeatToken::generate()?, SeatToken::generate()?))
    }

    /// Parses the value of an `authorization` header: `Bearer <token>` (the scheme in any
    /// case, as HTTP says; the token exactly as issued).
    pub fn from_bearer(header: Option<&str>) -> Result<SeatToken, BearerError> {
        let header = header.ok_or(BearerError::Missing)?.trim();
        let (scheme, token) = header.split_once(' ').ok_or(BearerError::Malformed)?;
        if !scheme.eq_ignore_ascii_case("bearer") {
            return Err(BearerError::Malformed);
        }
        token.trim().parse().map_err(|()| BearerError::Malformed)
    }

    /// Constant-time equality: compares every byte whatever the first difference.
    #[must_use]
    pub fn matches(&self, other: &SeatToken) -> bool {
        self.0.ct_eq(&other.0).into()
    }
}

/// The SHA-256 digest of a seat token's 16 bytes: what the server stores instead of the token.
///
/// A fast, unsalted hash is the right tool here, unlike for passwords: a token is 128 bits
/// from the operating system's CSPRNG, so there is no dictionary to try and no salt to add;
/// inverting the digest means searching 2^128 tokens, whatever the hash costs per try. A slow
/// hash (argon2, bcrypt) would only make every move slower.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct TokenDigest([u8; 32]);

impl TokenDigest {
    /// The digest of a secret's bytes (a seat token's, a player token's).
    #[must_use]
    pub fn of(secret: &[u8]) -> TokenDigest {
        TokenDigest(Sha256::digest(secret).into())
    }

    /// The digest as stored (32 bytes).
    #[must_use]
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// A digest read back from storage; `None` unless exactly 32 bytes.
    #[must_use]
    pub fn from_slice(bytes: &[u8]) -> Option<TokenDigest> {
        bytes.try_into().ok().map(TokenDigest)
    }

    /// Constant-time equality: a refusal takes as long whatever the first differing byte.
    #[must_use]
    pub fn matches(&self, other: &TokenDigest) -> bool {
        self.0.ct_eq(&other.0).into()
    }
}

impl fmt::Debug for TokenDigest {
    /// Short enough not to help anyone, long enough to tell two apart in a test failure.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TokenDigest({:02x}{:02x}..)", self.0[0], self.0[1])
    }
}

/// What a store keeps of a game and shows nobody: the digests of its seat tokens, which decide
/// who may act for White and for Black with a seat token (a seat bound to a player id may have
/// none: its player's token acts for it), and in a game of chance its secret seed (see
/// `game::chance`), boxed since most games have none, and whether its players add their own
/// entropy to it (`game::entropy`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seats {
    digests: ByColor<Option<TokenDigest>>,
    seed: Option<Box<Seed>>,
    player_entropy: bool,
}

impl Seats {
    #[must_use]
    pub fn new(digests: ByColor<Option<TokenDigest>>) -> Seats {
        Seats {
            digests,
            seed: None,
            player_entropy: false,
        }
    }

    /// The seats of these tokens (`None`: the seat has no token).
    #[must_use]
    pub fn of(tokens: &ByColor<Option<SeatToken>>) -> Seats {
        Seats::new(tokens.map(|t| t.map(|t| t.digest())))
    }

    /// The same seats, in a game of chance played with `seed`.
    #[must_use]
    pub fn with_seed(mut self, seed: Option<Seed>) -> Seats {
        self.seed = seed.map(Box::new);
        self
    }

    /// The same seats, in a game whose players add their own entropy (CreateGame allows it
    /// only in a game that draws, which has a seed to mix it into).
    #[must_use]
    pub fn with_player_entropy(mut self, on: bool) -> Seats {
        self.player_entropy = on;
        self
    }

    /// Whether the players add their own entropy to the seed (`game::entropy`).
    #[must_use]
    pub fn player_entropy(&self) -> bool {
        self.player_entropy
    }

    /// The digest of `color`'s token (for storage); `None` when the seat has no token.
    #[must_use]
    pub fn digest(&self, color: Color) -> Option<&TokenDigest> {
        self.digests[color].as_ref()
    }

    /// The game's secret seed, in a game of chance.
    #[must_use]
    pub fn seed(&self) -> Option<&Seed> {
        self.seed.as_deref()
    }

    /// The seat `token` belongs to. Its digest is compared with both seats' in constant time,
    /// always, whatever matches first (a seat without a token is compared with a digest that
    /// no token has: all zeros would need a SHA-256 preimage).
    pub fn seat_of(&self, token: &SeatToken) -> Result<Color, SeatError> {
        let digest = token.digest();
        let none = TokenDigest([0; 32]);
        let white = self.digests[Color::White]
            .as_ref()
            .unwrap_or(&none)
            .matches(&digest);
        let black = self.digests[Color::Black]
            .as_ref()
            .unwrap_or(&none)
            .matches(&digest);
        match (white, black) {
            (true, _) => Ok(Color::White),
            (false, true) => Ok(Color::Black),
            (false, false) => Err(SeatError::InvalidToken),
        }
    }
}

impl SeatToken {
    /// The token's digest (see [`TokenDigest`]).
    #[must_use]
    pub fn digest(&self) -> TokenDigest {
        TokenDigest::of(&self.0)
    }
}

impl fmt::Display for SeatToken {
    /// The secret as clients send it: 32 lowercase hex digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for SeatToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SeatToken(..)")
    }
}

impl core::str::FromStr for SeatToken {
    type Err = ();

    /// Exactly 32 lowercase hex digits, as tokens are written: a token spelled any other way
    /// (`4BFE...` for `4bfe...`) is a different credential, not the same one.
    fn from_str(s: &str) -> Result<SeatToken, ()> {
        let s = s.as_bytes();
        if s.len() != TOKEN_BYTES * 2 {
            return Err(());
        }
        let digit = |c: u8| match c {
            b'0'..=b'9' => Ok(c - b'0'),
            b'a'..=b'f' => Ok(c - b'a' + 10),
            _ => Err(()),
        };
        let mut bytes = [0; TOKEN_BYTES];
        for (byte, pair) in bytes.iter_mut().zip(s.chunks_exact(2)) {
            *byte = digit(pair[0])? << 4 | digit(pair[1])?;
        }
        Ok(SeatToken(bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A token prints as 32 hex digits and parses back from a bearer header.
    #[test]
    fn round_trip_through_bearer() {
        let token = SeatToken::generate().unwrap();
        let text = token.to_string();
        assert_eq!(text.len(), 32);
        let back = SeatToken::from_bearer(Some(&format!("Bearer {text}"))).unwrap();
        assert!(back.matches(&token));
        let back = SeatToken::from_bearer(Some(&format!("bearer {text}"))).unwrap();
        assert!(back.matches(&token));
    }

    /// A token is its exact spelling: the same digits in upper case are no token at all.
    #[test]
    fn tokens_are_case_sensitive() {
        let text = "4bfeae84c0ffee0123456789abcdef00";
        assert!(text.parse::<SeatToken>().is_ok());
        for other in [
            text.to_uppercase(),
            format!("4B{}", &text[2..]),
            format!("{}F", &text[..31]),
        ] {
            assert_eq!(other.parse::<SeatToken>().map(|_| ()), Err(()), "{other}");
            assert_eq!(
                SeatToken::from_bearer(Some(&format!("Bearer {other}"))).unwrap_err(),
                BearerError::Malformed
            );
        }
    }

    /// Each token opens its own seat only.
    #[test]
    fn seats_from_tokens() {
        let tokens = SeatToken::pair().unwrap();
        let seats = Seats::of(&tokens.map(Some));
        assert_eq!(seats.seat_of(tokens.white()).unwrap(), Color::White);
        assert_eq!(seats.seat_of(tokens.black()).unwrap(), Color::Black);
        assert!(matches!(
            seats.seat_of(&SeatToken::generate().unwrap()),
            Err(SeatError::InvalidToken)
        ));
        // A seat without a token (bound to a player) opens to no seat token.
        let white_only = Seats::of(&ByColor::new(Some(*tokens.white()), None));
        assert_eq!(white_only.seat_of(tokens.white()).unwrap(), Color::White);
        assert!(white_only.seat_of(tokens.black()).is_err());
        assert!(white_only.digest(Color::Black).is_none());
    }

    /// Two fresh tokens differ, and Debug never shows the secret.
    #[test]
    fn fresh_tokens_differ_and_stay_secret() {
        let (a, b) = (
            SeatToken::generate().unwrap(),
            SeatToken::generate().unwrap(),
        );
        assert!(!a.matches(&b));
        assert_eq!(format!("{a:?}"), "SeatToken(..)");
    }

    /// The digest is SHA-256 of the token's bytes (a known answer), equal for equal tokens,
    /// and round-trips through its stored bytes.
    #[test]
    fn digests() {
        let token: SeatToken = "00000000000000000000000000000000".parse().unwrap();
        // sha256 of 16 zero bytes: `head -c16 /dev/zero | sha256sum`.
        let expected = "374708fff7719dd5979ec875d56cd2286f6d3cf7ec317a3b25632aab28ec37bb";
        let hex: String = token
            .digest()
            .as_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(hex, expected);
        let a = SeatToken::generate().unwrap();
        assert!(a.digest().matches(&a.digest()));
        assert!(!a.digest().matches(&token.digest()));
        let back = TokenDigest::from_slice(a.digest().as_bytes()).unwrap();
        assert!(back.matches(&a.digest()));
        assert!(TokenDigest::from_slice(&[0; 31]).is_none());
    }

    /// Missing and malformed headers are told apart; neither panics.
    #[test]
    fn bad_headers() {
        assert_eq!(
            SeatToken::from_bearer(None).unwrap_err(),
            BearerError::Missing
        );
        for bad in [
            "",
            "Bearer",
            "Basic abc",
            "Bearer xyz",
            "Bearer 0123",
            "Bearer é123456789012345678901234567890",
        ] {
            assert_eq!(
                SeatToken::from_bearer(Some(bad)).unwrap_err(),
                BearerError::Malformed,
                "{bad:?}"
            );
        }
    }
}
