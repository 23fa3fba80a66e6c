//! The players' own entropy in a game of chance (CreateGame's `player_entropy`): a
//! commit-reveal round before the first move ([`Entropy`]) whose two secrets, mixed with the
//! server's seed, give the key every later draw is derived from ([`key`]).
//!
//! The server commits to its seed (its SHA-256 is in the game from creation on) before either
//! secret is known, and no player knows the seed: neither can choose a draw alone. The commit
//! round keeps a seat that colludes with the server from choosing its secret after seeing the
//! other's: each seat first sends the SHA-256 of its secret, and only once both commitments are
//! in does either reveal. The record (`record::entropy`) runs the phase: its log entries, the
//! refusals, the start of play; `docs/fairness.md` shows how anyone checks the key.
//!
//! Rules where the design leaves them open (**decision**): a secret is shown to nobody, its own
//! seat included, until both are in (then both, to everyone); commitments are public once
//! made. A seat's commitment, once made, cannot change; the same commitment or reveal again is
//! a retry and answers as the first did.

use chessd_rules::{ByColor, Color};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::game::chance::{SEED_BYTES, Seed};

/// The bytes of a seat's secret and of its commitment.
pub(crate) const ENTROPY_BYTES: usize = 32;

/// A seat's secret or its commitment: 32 bytes, sent as 64 hex digits.
pub(crate) type EntropyValue = [u8; ENTROPY_BYTES];

/// What one SubmitEntropy did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntropyStep {
    /// The seat's commitment: the SHA-256 of its secret.
    Commit,
    /// The seat's secret, the first of the two.
    Reveal,
    /// The second secret: the key is derived and play begins.
    Start,
}

impl EntropyStep {
    /// The stored name.
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            EntropyStep::Commit => "commit",
            EntropyStep::Reveal => "reveal",
            EntropyStep::Start => "start",
        }
    }

    /// From its stored name.
    #[must_use]
    pub fn from_key(key: &str) -> Option<EntropyStep> {
        match key {
            "commit" => Some(EntropyStep::Commit),
            "reveal" => Some(EntropyStep::Reveal),
            "start" => Some(EntropyStep::Start),
            _ => None,
        }
    }

    /// Whether the value sent was a secret (a commitment otherwise).
    #[must_use]
    pub fn is_reveal(self) -> bool {
        self != EntropyStep::Commit
    }
}

/// Where the phase stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntropyPhase {
    /// Not both commitments are in.
    Commitments,
    /// Both commitments are in, not both secrets.
    Reveals,
    /// Both secrets are in: the key is derived.
    Done,
}

/// Why a commitment or a secret was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntropyError {
    /// A secret whose SHA-256 is not the seat's commitment.
    WrongReveal,
    /// A secret before both commitments are in.
    RevealTooEarly,
    /// Another commitment than the seat's, which stands.
    Committed,
    /// A commitment or secret after both secrets are in.
    Over,
}

/// The commitments and secrets of a game's phase, as they came. Kept for the game's life:
/// the stored rows and a replay write each out again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entropy {
    commitments: ByColor<Option<EntropyValue>>,
    secrets: ByColor<Option<EntropyValue>>,
    /// The key, derived once when play begins ([`Entropy::derive_key`]): every draw after
    /// uses it, and an HMAC per move would be work for nothing.
    key: Option<Seed>,
}

impl Entropy {
    #[must_use]
    pub fn phase(&self) -> EntropyPhase {
        if self.secrets.white().is_some() && self.secrets.black().is_some() {
            EntropyPhase::Done
        } else if self.commitments.white().is_some() && self.commitments.black().is_some() {
            EntropyPhase::Reveals
        } else {
            EntropyPhase::Commitments
        }
    }

    /// `seat`'s commitment, once made.
    #[must_use]
    pub fn commitment(&self, seat: Color) -> Option<&EntropyValue> {
        self.commitments[seat].as_ref()
    }

    /// `seat`'s secret, once revealed (whoever may see it: see the module's notes).
    #[must_use]
    pub fn secret(&self, seat: Color) -> Option<&EntropyValue> {
        self.secrets[seat].as_ref()
    }

    /// Both secrets, White's first, once both are in.
    #[must_use]
    pub fn secrets(&self) -> Option<ByColor<EntropyValue>> {
        Some(ByColor::new(
            *self.secrets.white().as_ref()?,
            *self.secrets.black().as_ref()?,
        ))
    }

    /// Derives the key from `seed` once both secrets are in, and keeps it; `None` before.
    pub fn derive_key(&mut self, seed: &Seed) -> Option<&Seed> {
        let secrets = self.secrets()?;
        Some(self.key.insert(key(seed, &secrets)))
    }

    /// The key, once derived.
    #[must_use]
    pub fn key(&self) -> Option<&Seed> {
        self.key.as_ref()
    }

    /// The value `seat` sent as `step`'s, for the stored row of that step.
    #[must_use]
    pub fn value(&self, seat: Color, step: EntropyStep) -> Option<&EntropyValue> {
        if step.is_reveal() {
            self.secret(seat)
        } else {
            self.commitment(seat)
        }
    }

    /// Keeps `seat`'s commitment (`reveal` false) or secret; the step it made, or `None` for
    /// the same value again (a retry, which changes nothing). Nothing changes when refused.
    pub fn submit(
        &mut self,
        seat: Color,
        reveal: bool,
        value: EntropyValue,
    ) -> Result<Option<EntropyStep>, EntropyError> {
        let kept = if reveal {
            self.secrets[seat]
        } else {
            self.commitments[seat]
        };
        if kept == Some(value) {
            return Ok(None);
        }
        if self.phase() == EntropyPhase::Done {
            return Err(EntropyError::Over);
        }
        if !reveal {
            if self.commitments[seat].is_some() {
                return Err(EntropyError::Committed);
            }
            self.commitments[seat] = Some(value);
            return Ok(Some(EntropyStep::Commit));
        }
        if self.phase() != EntropyPhase::Reveals {
            return Err(EntropyError::RevealTooEarly);
        }
        if Some(commitment(&value)) != self.commitments[seat] {
            return Err(EntropyError::WrongReveal);
        }
        self.secrets[seat] = Some(value);
        Ok(Some(if self.phase() == EntropyPhase::Done {
            EntropyStep::Start
        } else {
            EntropyStep::Reveal
        }))
    }
}

/// The commitment to `secret`: its SHA-256.
#[must_use]
pub(crate) fn commitment(secret: &EntropyValue) -> EntropyValue {
    Sha256::digest(secret).into()
}

/// The key the draws after the phase are derived from, in place of the seed (`Seed::draw`):
/// HMAC-SHA256 keyed with the seed over the ASCII text `chessd entropy v1 WHITE BLACK`, the
/// two secrets in lowercase hex.
#[must_use]
pub(crate) fn key(seed: &Seed, secrets: &ByColor<EntropyValue>) -> Seed {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(seed.as_bytes())
        .expect("HMAC takes a key of any length");
    mac.update(
        format!(
            "chessd entropy v1 {} {}",
            crate::game::codec::hex(secrets.white()),
            crate::game::codec::hex(secrets.black())
        )
        .as_bytes(),
    );
    let mut out = [0; SEED_BYTES];
    out.copy_from_slice(&mac.finalize().into_bytes());
    Seed::from_bytes(out)
}

/// A commitment or secret from its 64 hex digits (either case); `None` for anything else.
#[must_use]
pub(crate) fn parse_value(text: &str) -> Option<EntropyValue> {
    crate::game::codec::unhex(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::chance::Purpose;
    use crate::game::codec::hex;

    fn seed() -> Seed {
        Seed::from_bytes(core::array::from_fn(|i| i as u8))
    }

    fn secrets() -> ByColor<EntropyValue> {
        ByColor::new([0x11; 32], [0x22; 32])
    }

    /// The key is the documented one: `docs/fairness.md` computes this value with openssl
    /// (and Python's `hmac`), apart from this code.
    #[test]
    fn the_key_follows_the_documented_derivation() {
        let k = key(&seed(), &secrets());
        assert_eq!(
            hex(k.as_bytes()),
            "14361724ea200b4a70194be24ccdeed66e53ef33dd2129a5b92cf8e6e5790e6f"
        );
        assert_eq!(
            hex(&commitment(&[0x11; 32])),
            "02d449a31fbb267c8f352e9968a79e3e5fc95c1bbeaa502fd6454ebde5a4bedc"
        );
        // Draws with the key are the seed's derivation with the key in its place.
        let rolls: Vec<u32> = (0..6).map(|p| k.draw(p, Purpose::Roll, 0, 6)).collect();
        assert_eq!(rolls, [1, 5, 5, 3, 1, 5]);
        // Either secret changes the key.
        let other = key(&seed(), &ByColor::new([0x11; 32], [0x23; 32]));
        assert_ne!(other, k);
    }

    /// Both commit, then both reveal: the second secret starts the game.
    #[test]
    fn commit_then_reveal() {
        let s = secrets();
        let mut e = Entropy::default();
        assert_eq!(e.phase(), EntropyPhase::Commitments);
        let white = commitment(s.white());
        assert_eq!(
            e.submit(Color::White, false, white),
            Ok(Some(EntropyStep::Commit))
        );
        // A secret before both commitments is refused.
        assert_eq!(
            e.submit(Color::White, true, *s.white()),
            Err(EntropyError::RevealTooEarly)
        );
        assert_eq!(
            e.submit(Color::Black, false, commitment(s.black())),
            Ok(Some(EntropyStep::Commit))
        );
        assert_eq!(e.phase(), EntropyPhase::Reveals);
        assert_eq!(
            e.submit(Color::Black, true, *s.black()),
            Ok(Some(EntropyStep::Reveal))
        );
        assert_eq!(
            e.submit(Color::White, true, *s.white()),
            Ok(Some(EntropyStep::Start))
        );
        assert_eq!(e.phase(), EntropyPhase::Done);
        assert_eq!(e.secrets(), Some(s));
        assert_eq!(e.value(Color::White, EntropyStep::Commit), Some(&white));
    }

    /// A secret whose SHA-256 is not the commitment is refused and kept nowhere; a second,
    /// other commitment is refused; the same value again is a retry.
    #[test]
    fn refusals_and_retries() {
        let s = secrets();
        let mut e = Entropy::default();
        e.submit(Color::White, false, commitment(s.white()))
            .unwrap();
        assert_eq!(
            e.submit(Color::White, false, commitment(s.white())),
            Ok(None)
        );
        assert_eq!(
            e.submit(Color::White, false, commitment(s.black())),
            Err(EntropyError::Committed)
        );
        e.submit(Color::Black, false, commitment(s.black()))
            .unwrap();
        assert_eq!(
            e.submit(Color::White, true, *s.black()),
            Err(EntropyError::WrongReveal)
        );
        assert_eq!(e.secret(Color::White), None);
        e.submit(Color::White, true, *s.white()).unwrap();
        assert_eq!(e.submit(Color::White, true, *s.white()), Ok(None));
        e.submit(Color::Black, true, *s.black()).unwrap();
        assert_eq!(e.submit(Color::Black, true, *s.black()), Ok(None));
        assert_eq!(
            e.submit(Color::Black, false, [9; 32]),
            Err(EntropyError::Over)
        );
    }

    /// Values are 64 hex digits, either case; nothing else reads.
    #[test]
    fn values_read_from_hex() {
        let text = "0F".repeat(32);
        assert_eq!(parse_value(&text), Some([15; 32]));
        assert_eq!(parse_value(&"0f".repeat(31)), None);
        assert_eq!(parse_value(&"zz".repeat(32)), None);
        assert_eq!(parse_value(&format!("+{}", "0".repeat(63))), None);
        for step in [EntropyStep::Commit, EntropyStep::Reveal, EntropyStep::Start] {
            assert_eq!(EntropyStep::from_key(step.key()), Some(step));
        }
    }
}
