//! Bounds on WatchGames streams: at most `--max-feeds` open on this server, and at most
//! `--max-peer-feeds` of them per address for callers without an API key (player tokens:
//! a bot or a household behind one address). Addresses are counted as the rate limits count
//! them (IPv6 by /64).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::error::ServiceError;
use crate::security::error::LimitError;
use crate::security::limits::peer_key;

/// The WatchGames streams open, in all and per address.
#[derive(Debug)]
pub(crate) struct FeedSlots {
    per_peer: usize,
    total: usize,
    /// A plain mutex: each use is a count and a map update, never across an await.
    counts: Mutex<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    open: usize,
    peers: HashMap<IpAddr, usize>,
}

/// One stream's place, given back when dropped.
#[derive(Debug)]
pub(crate) struct FeedSlot {
    owner: Arc<FeedSlots>,
    /// The address it counts against (`None`: counted in the total only).
    peer: Option<IpAddr>,
}

impl FeedSlots {
    #[must_use]
    pub(crate) fn new(per_peer: usize, total: usize) -> FeedSlots {
        FeedSlots {
            per_peer,
            total,
            counts: Mutex::default(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Counts> {
        // Each use leaves the counts consistent, so a panicking holder cannot break them.
        self.counts.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A place for one more stream, counted against `peer` too when given.
    pub(crate) fn admit(
        self: &Arc<FeedSlots>,
        peer: Option<IpAddr>,
    ) -> Result<FeedSlot, ServiceError> {
        let peer = peer.map(peer_key);
        let mut counts = self.lock();
        if counts.open >= self.total {
            return Err(LimitError::TooManyFeeds {
                limit: self.total,
                per_peer: false,
            }
            .into());
        }
        if let Some(ip) = peer {
            let held = counts.peers.entry(ip).or_default();
            if *held >= self.per_peer {
                if *held == 0 {
                    counts.peers.remove(&ip);
                }
                return Err(LimitError::TooManyFeeds {
                    limit: self.per_peer,
                    per_peer: true,
                }
                .into());
            }
            *held += 1;
        }
        counts.open += 1;
        Ok(FeedSlot {
            owner: self.clone(),
            peer,
        })
    }
}

impl Drop for FeedSlot {
    fn drop(&mut self) {
        let mut counts = self.owner.lock();
        counts.open = counts.open.saturating_sub(1);
        if let Some(ip) = self.peer
            && let Some(held) = counts.peers.get_mut(&ip)
        {
            *held -= 1;
            // Addresses holding nothing are forgotten, so the map is as large as the streams.
            if *held == 0 {
                counts.peers.remove(&ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An address gets `per_peer` streams, the server `total`; freed places come back and
    /// leave nothing behind.
    #[test]
    fn bounds_per_peer_and_in_all() {
        let slots = Arc::new(FeedSlots::new(2, 3));
        let a: IpAddr = "2001:db8::1".parse().unwrap();
        let a2: IpAddr = "2001:db8::2".parse().unwrap();
        let b: IpAddr = "192.0.2.7".parse().unwrap();
        let first = slots.admit(Some(a)).unwrap();
        let _second = slots.admit(Some(a2)).unwrap();
        assert!(matches!(
            slots.admit(Some(a)),
            Err(ServiceError::Limit(LimitError::TooManyFeeds {
                limit: 2,
                per_peer: true
            }))
        ));
        let _backend = slots.admit(None).unwrap();
        assert!(matches!(
            slots.admit(Some(b)),
            Err(ServiceError::Limit(LimitError::TooManyFeeds {
                limit: 3,
                per_peer: false
            }))
        ));
        drop(first);
        let again = slots.admit(Some(b)).unwrap();
        drop(again);
        drop(_second);
        drop(_backend);
        assert!(slots.lock().peers.is_empty());
        assert_eq!(slots.lock().open, 0);
    }
}
