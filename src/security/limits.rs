//! Rate limits (GCRA, the `governor` crate) per peer address, per API key and per seat token,
//! with the floor that keeps a seat's own moves flowing.
//!
//! - **Peer** (callers without an API key): every GameService call. IPv6 peers are counted
//!   per /64, since one host commonly holds a whole /64 and could otherwise rotate addresses.
//! - **API key**: backends' calls, counted per key instead of per address.
//! - **Seat token**: SubmitMove when it is not the seat's turn (premoves, floods).
//! - **Move floor**: a seat's move on its own turn is refused only above this rate, whatever
//!   the peer or token limiters say: a bot must never lose on time to a limiter. Token limits
//!   are charged only after the store has recognised the token, so invented tokens cannot
//!   fill the limiters' maps.
//!
//! Memory stays bounded: a background sweep drops keys idle for [`crate::security::LIMITER_IDLE`]
//! (`retain_recent`), so the maps hold only recently active peers, keys and seats.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Weak};
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

use crate::game::TokenDigest;
use crate::security::keys::KeyId;
use crate::security::{LIMITER_IDLE, Rate, Rates};

/// Which limit refused a call (for the client's message and ErrorInfo).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Peer,
    ApiKey,
    SeatToken,
    MoveFloor,
}

impl Limit {
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Limit::Peer => "per peer address",
            Limit::ApiKey => "per API key",
            Limit::SeatToken => "per seat token",
            Limit::MoveFloor => "moves per seat",
        }
    }
}

/// A refusal: which limit, and how long until a call would pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused {
    pub limit: Limit,
    pub retry_after: Duration,
}

/// Every limiter of one server.
#[derive(Debug)]
pub struct Limiters {
    peer: DefaultKeyedRateLimiter<IpAddr>,
    key: DefaultKeyedRateLimiter<KeyId>,
    /// Keyed by the first 8 bytes of the token's digest: never the token itself.
    token: DefaultKeyedRateLimiter<u64>,
    floor: DefaultKeyedRateLimiter<u64>,
    clock: DefaultClock,
}

fn quota(rate: Rate) -> Quota {
    let nz = |n: u32| NonZeroU32::new(n.max(1)).unwrap_or(NonZeroU32::MIN);
    Quota::per_second(nz(rate.per_second)).allow_burst(nz(rate.burst))
}

/// The address a peer is counted by: IPv4 as is, IPv6 by its /64 (IPv4-mapped as IPv4).
#[must_use]
pub(crate) fn peer_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// The limiter key of a seat's credential (a seat token, or a player token in one game): the
/// first 8 bytes of the token's digest, never the token itself.
#[must_use]
pub(crate) fn seat_key(digest: &TokenDigest) -> u64 {
    let mut first = [0; 8];
    first.copy_from_slice(&digest.as_bytes()[..8]);
    u64::from_be_bytes(first)
}

impl Limiters {
    #[must_use]
    pub fn new(rates: Rates) -> Limiters {
        Limiters {
            peer: DefaultKeyedRateLimiter::keyed(quota(rates.peer)),
            key: DefaultKeyedRateLimiter::keyed(quota(rates.key)),
            token: DefaultKeyedRateLimiter::keyed(quota(rates.token)),
            floor: DefaultKeyedRateLimiter::keyed(quota(rates.move_floor)),
            clock: DefaultClock::default(),
        }
    }

    fn check<K: std::hash::Hash + Eq + Clone>(
        &self,
        limiter: &DefaultKeyedRateLimiter<K>,
        key: &K,
        limit: Limit,
    ) -> Result<(), Refused> {
        limiter.check_key(key).map_err(|not_until| Refused {
            limit,
            retry_after: not_until
                .wait_time_from(self.clock.now())
                .max(Duration::from_millis(1)),
        })
    }

    /// One call from a peer without an API key.
    pub fn peer(&self, ip: IpAddr) -> Result<(), Refused> {
        self.check(&self.peer, &peer_key(ip), Limit::Peer)
    }

    /// One call with an API key.
    pub fn api_key(&self, key: KeyId) -> Result<(), Refused> {
        self.check(&self.key, &key, Limit::ApiKey)
    }

    /// One call by a seat the store recognised, other than a move on its own turn (`key`: see
    /// [`seat_key`]).
    pub fn seat(&self, key: u64) -> Result<(), Refused> {
        self.check(&self.token, &key, Limit::SeatToken)
    }

    /// A move on the seat's own turn: only the floor applies.
    pub fn own_move(&self, key: u64) -> Result<(), Refused> {
        self.check(&self.floor, &key, Limit::MoveFloor)
    }

    /// Keys held across the limiters.
    #[must_use]
    pub fn len(&self) -> usize {
        self.peer.len() + self.key.len() + self.token.len() + self.floor.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets keys whose limit has fully recovered (idle callers).
    pub fn sweep(&self) {
        self.peer.retain_recent();
        self.peer.shrink_to_fit();
        self.key.retain_recent();
        self.key.shrink_to_fit();
        self.token.retain_recent();
        self.token.shrink_to_fit();
        self.floor.retain_recent();
        self.floor.shrink_to_fit();
    }

    /// Sweeps every [`LIMITER_IDLE`] for as long as the limiters exist.
    pub fn spawn_sweeper(limiters: &Arc<Limiters>) -> tokio::task::JoinHandle<()> {
        let weak: Weak<Limiters> = Arc::downgrade(limiters);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(LIMITER_IDLE);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let Some(limiters) = weak.upgrade() else {
                    return;
                };
                limiters.sweep();
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rates(n: u32) -> Rates {
        let r = Rate::new(n, n);
        Rates {
            peer: r,
            key: r,
            token: r,
            move_floor: r,
        }
    }

    /// A burst passes, the next call is refused with a positive wait, and limits are per key.
    #[test]
    fn burst_then_refusal() {
        let limiters = Limiters::new(rates(3));
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        for _ in 0..3 {
            limiters.peer(a).unwrap();
        }
        let refused = limiters.peer(a).unwrap_err();
        assert_eq!(refused.limit, Limit::Peer);
        assert!(refused.retry_after > Duration::ZERO);
        assert!(refused.retry_after <= Duration::from_secs(1));
        limiters.peer(b).expect("another peer has its own budget");
        let token = crate::game::SeatToken::generate().unwrap();
        let key = seat_key(&token.digest());
        for _ in 0..3 {
            limiters.seat(key).unwrap();
        }
        assert!(limiters.seat(key).is_err());
        limiters
            .own_move(key)
            .expect("the move floor is a budget of its own");
    }

    /// IPv6 peers share a budget per /64; IPv4-mapped addresses count as IPv4.
    #[test]
    fn peer_keys() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(peer_key(a), peer_key(b));
        assert_ne!(peer_key(a), peer_key(c));
        let mapped: IpAddr = "::ffff:10.0.0.1".parse().unwrap();
        assert_eq!(peer_key(mapped), "10.0.0.1".parse::<IpAddr>().unwrap());
    }

    /// Idle keys are swept, so the maps do not grow with every caller ever seen.
    #[test]
    fn sweep_forgets_recovered_keys() {
        let limiters = Limiters::new(Rates {
            peer: Rate::new(1000, 1000),
            ..rates(1000)
        });
        for i in 0..100u8 {
            limiters.peer(IpAddr::from([10, 0, 0, i])).unwrap();
        }
        assert_eq!(limiters.len(), 100);
        // At 1000 per second, one cell recovers in a millisecond.
        std::thread::sleep(Duration::from_millis(20));
        limiters.sweep();
        assert_eq!(limiters.len(), 0);
    }
}
