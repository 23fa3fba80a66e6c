//! Per-address bounds on WatchGame streams: one client must not take a game's every watcher
//! seat (`--max-watchers-per-game`), nor the server's. Addresses are counted as the rate
//! limits count them (IPv6 by /64). Callers with an API key are not bound here.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use crate::error::ServiceError;
use crate::game::GameId;
use crate::security::error::LimitError;
use crate::security::limits::peer_key;

/// The streams each address holds.
#[derive(Debug)]
pub(crate) struct PeerWatchers {
    per_game: usize,
    total: usize,
    /// A plain mutex: each use is a map lookup and a count, never across an await.
    counts: Mutex<HashMap<IpAddr, Held>>,
}

#[derive(Debug, Default)]
struct Held {
    total: usize,
    games: HashMap<GameId, usize>,
}

/// One stream's place under the bounds, given back when dropped.
#[derive(Debug)]
pub(crate) struct PeerSlot {
    owner: Arc<PeerWatchers>,
    peer: IpAddr,
    game: GameId,
}

impl PeerWatchers {
    #[must_use]
    pub(crate) fn new(per_game: usize, total: usize) -> PeerWatchers {
        PeerWatchers {
            per_game,
            total,
            counts: Mutex::new(HashMap::new()),
        }
    }

    /// A place for one more stream of `peer` on `game`, or the bound it would break.
    pub(crate) fn admit(
        self: &Arc<PeerWatchers>,
        peer: IpAddr,
        game: GameId,
    ) -> Result<PeerSlot, ServiceError> {
        let peer = peer_key(peer);
        let mut counts = self.lock();
        let held = counts.entry(peer).or_default();
        let on_game = held.games.get(&game).copied().unwrap_or(0);
        let refusal = if on_game >= self.per_game {
            Some((self.per_game, true))
        } else if held.total >= self.total {
            Some((self.total, false))
        } else {
            None
        };
        if let Some((limit, per_game)) = refusal {
            if held.total == 0 {
                counts.remove(&peer);
            }
            ::metrics::counter!(crate::metrics::PEER_WATCHERS_REFUSED).increment(1);
            return Err(LimitError::TooManyPeerWatchers { limit, per_game }.into());
        }
        held.total += 1;
        *held.games.entry(game).or_default() += 1;
        Ok(PeerSlot {
            owner: self.clone(),
            peer,
            game,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, Held>> {
        // Each use leaves the counts consistent, so a panicking holder cannot break them.
        self.counts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Drop for PeerSlot {
    fn drop(&mut self) {
        let mut counts = self.owner.lock();
        let Some(held) = counts.get_mut(&self.peer) else {
            return;
        };
        held.total -= 1;
        if let Some(n) = held.games.get_mut(&self.game) {
            *n -= 1;
            if *n == 0 {
                held.games.remove(&self.game);
            }
        }
        // Addresses holding nothing are forgotten, so the map is as large as the watchers.
        if held.total == 0 {
            counts.remove(&self.peer);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(n: u64) -> GameId {
        format!("{n:013}").parse().unwrap()
    }

    /// One address gets `per_game` streams on a game and `total` in all; a freed place is
    /// available again, and other addresses are not affected. IPv6 counts by /64.
    #[test]
    fn bounds_per_game_and_in_all() {
        let peers = Arc::new(PeerWatchers::new(2, 3));
        let a: IpAddr = "2001:db8::1".parse().unwrap();
        let a2: IpAddr = "2001:db8::2".parse().unwrap();
        let b: IpAddr = "192.0.2.7".parse().unwrap();
        let first = peers.admit(a, game(1)).unwrap();
        let _second = peers.admit(a2, game(1)).unwrap();
        let err = peers.admit(a, game(1)).unwrap_err();
        assert!(matches!(
            err,
            ServiceError::Limit(LimitError::TooManyPeerWatchers {
                limit: 2,
                per_game: true
            })
        ));
        let _third = peers.admit(a, game(2)).unwrap();
        let err = peers.admit(a, game(3)).unwrap_err();
        assert!(matches!(
            err,
            ServiceError::Limit(LimitError::TooManyPeerWatchers {
                limit: 3,
                per_game: false
            })
        ));
        let _other = peers.admit(b, game(1)).unwrap();
        drop(first);
        let _again = peers.admit(a, game(1)).unwrap();
    }

    /// Places given back leave nothing behind.
    #[test]
    fn forgets_idle_addresses() {
        let peers = Arc::new(PeerWatchers::new(2, 3));
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let slots: Vec<_> = (0..3).map(|n| peers.admit(a, game(n)).unwrap()).collect();
        assert!(peers.admit(a, game(9)).is_err());
        drop(slots);
        assert!(peers.lock().is_empty());
    }
}
