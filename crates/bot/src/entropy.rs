//! The players' entropy from the bot's seat (a game created with `player_entropy`): a fresh
//! secret of 32 random bytes, its commitment sent first, the secret itself once both seats
//! have committed. The secret lives only in the runner: a bot restarted between its
//! commitment and its reveal cannot reveal, and the first-move timer calls the game off.

use sha2::{Digest, Sha256};

use crate::board::Side;

/// A seat's secret.
pub type Secret = [u8; 32];

/// A fresh secret from the operating system.
pub fn secret() -> Result<Secret, getrandom::Error> {
    let mut bytes = [0; 32];
    getrandom::fill(&mut bytes)?;
    Ok(bytes)
}

/// Bytes as lowercase hex, as the server reads and writes them.
#[must_use]
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The commitment to `secret`: its SHA-256, in hex.
#[must_use]
pub fn commitment(secret: &Secret) -> String {
    hex(&Sha256::digest(secret))
}

/// What the seat sends next in the round as it stands, if anything.
#[derive(Debug, PartialEq, Eq)]
pub enum Next {
    Commit,
    Reveal,
    Wait,
}

/// What `side` sends next: its commitment while it has none, its secret once both are in
/// and it has not revealed (`revealed`).
#[must_use]
pub fn next(round: &chessd_proto::Entropy, side: Side, revealed: bool) -> Next {
    let own = match side {
        Side::White => &round.white_commitment,
        Side::Black => &round.black_commitment,
    };
    let both = !round.white_commitment.is_empty() && !round.black_commitment.is_empty();
    match (own.is_empty(), both, revealed) {
        (true, ..) => Next::Commit,
        (false, true, false) => Next::Reveal,
        _ => Next::Wait,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The commitment is SHA-256 of the secret's bytes (the value `sha256sum` gives).
    #[test]
    fn commitment_is_sha256() {
        assert_eq!(
            commitment(&[0x11; 32]),
            "02d449a31fbb267c8f352e9968a79e3e5fc95c1bbeaa502fd6454ebde5a4bedc"
        );
        assert_ne!(secret().unwrap(), secret().unwrap());
    }

    /// Commit first, reveal when both are in, once.
    #[test]
    fn commit_then_reveal_once() {
        let mut round = chessd_proto::Entropy::default();
        assert_eq!(next(&round, Side::White, false), Next::Commit);
        round.white_commitment = "ab".repeat(32);
        assert_eq!(next(&round, Side::White, false), Next::Wait);
        round.black_commitment = "cd".repeat(32);
        assert_eq!(next(&round, Side::White, false), Next::Reveal);
        assert_eq!(next(&round, Side::White, true), Next::Wait);
    }
}
