//! Presence across replicas: a seat watching on replica A counts as connected for a claim
//! judged on replica B, and B's watchers hear of it.
//!
//! Each replica writes its own seats' streams as leases: a member `<w|b>:<replica>` of the
//! game's lease set ([`keys::presence_key`]) scored by when the lease ends, renewed every
//! [`RENEW`] while a stream of the seat is open here, removed when the last one closes. A
//! replica that dies stops renewing, and its leases end [`LEASE`] later: the seat is then gone
//! since it was last seen (the seen hash, [`keys::seen_key`], stamped at every renewal). Every
//! change is announced on [`keys::PRESENCE_CHANNEL`]; a replica with watchers of the game reads
//! the leases again and tells them. Because a dead replica announces nothing, and a
//! notification may be lost while the pub/sub connection is down, every followed game is also
//! read again every [`RENEW`].
//!
//! A claim is judged on the leases as Redis has them at the claim (`read`), not on this
//! replica's copy. Both keys expire [`KEEP`] after their last write, so a game forgotten by
//! retention leaves nothing behind.

use std::sync::Weak;
use std::time::{Duration, SystemTime};

use chessd_rules::{ByColor, Color};
use futures_util::{StreamExt, stream};
use tokio::sync::mpsc;

use crate::error::ServiceError;
use crate::game::{GameId, SeatPresence, epoch_ms, from_epoch_ms};
use crate::store::presence::{LocalChange, Remote};
use crate::store::redis::failure::unavailable;
use crate::store::redis::keys;
use crate::store::redis::state::Inner;

/// How long a replica's word that a seat is connected holds without renewal.
pub(super) const LEASE: Duration = Duration::from_secs(15);
/// How often leases are renewed and followed games read again.
pub(super) const RENEW: Duration = Duration::from_secs(5);
/// Presence changes queued for Redis at most (see `store::presence::Presence::send`).
pub(super) const CHANGES_QUEUED: usize = 4096;

/// Renewals (and re-reads) in flight at once: a replica holds a lease per watched seat, and
/// one round trip after another would take longer than [`RENEW`] with enough of them. Each is
/// still its own pipeline, on its game's keys, as a Cluster needs.
const IN_FLIGHT: usize = 64;

/// How long presence keys outlive their last write.
const KEEP: Duration = Duration::from_secs(2 * 24 * 60 * 60);

fn seat_code(seat: Color) -> &'static str {
    match seat {
        Color::White => "w",
        Color::Black => "b",
    }
}

fn member(seat: Color, replica: &str) -> String {
    format!("{}:{replica}", seat_code(seat))
}

impl Inner {
    /// Both seats' presence, this replica's streams with every other replica's current
    /// leases.
    pub(super) async fn read_presence(
        &self,
        id: GameId,
    ) -> Result<ByColor<SeatPresence>, ServiceError> {
        let remote = self.remote_presence(id).await?;
        Ok(self.presence.read_with(id, remote))
    }

    /// What the other replicas' leases say of `id`'s seats.
    async fn remote_presence(&self, id: GameId) -> Result<ByColor<Remote>, ServiceError> {
        let now_ms = epoch_ms(SystemTime::now());
        let (members, seen): (Vec<String>, Vec<Option<u64>>) = ::redis::pipe()
            .cmd("ZRANGE")
            .arg(keys::presence_key(id))
            .arg(format!("({now_ms}"))
            .arg("+inf")
            .arg("BYSCORE")
            .cmd("HMGET")
            .arg(keys::seen_key(id))
            .arg(&["w", "w_since", "b", "b_since"][..])
            .query_async(&mut self.conn())
            .await
            .map_err(|e| unavailable(&e))?;
        let mine = |seat: Color| member(seat, &self.replica);
        Ok(ByColor::new_with(|seat| {
            let prefix = format!("{}:", seat_code(seat));
            let i = if seat == Color::White { 0 } else { 2 };
            Remote {
                connected: members
                    .iter()
                    .any(|m| m.starts_with(&prefix) && *m != mine(seat)),
                seen: seen.get(i).copied().flatten().map(from_epoch_ms),
                connected_since: seen.get(i + 1).copied().flatten().map(from_epoch_ms),
            }
        }))
    }

    /// Writes one of this replica's changes, and announces it.
    async fn write_change(&self, change: LocalChange) -> Result<(), ::redis::RedisError> {
        let LocalChange {
            game,
            seat,
            connected,
            at,
        } = change;
        let now_ms = epoch_ms(at);
        let mut pipe = ::redis::pipe();
        let (leases, seen) = (keys::presence_key(game), keys::seen_key(game));
        if connected {
            pipe.cmd("ZADD")
                .arg(&leases)
                .arg(now_ms + LEASE.as_millis() as u64)
                .arg(member(seat, &self.replica))
                .ignore();
            pipe.cmd("HSET")
                .arg(&seen)
                .arg(seat_code(seat))
                .arg(now_ms)
                .arg(format!("{}_since", seat_code(seat)))
                .arg(now_ms)
                .ignore();
        } else {
            pipe.cmd("ZREM")
                .arg(&leases)
                .arg(member(seat, &self.replica))
                .ignore();
            pipe.cmd("HSET")
                .arg(&seen)
                .arg(seat_code(seat))
                .arg(now_ms)
                .ignore();
        }
        for key in [&leases, &seen] {
            pipe.cmd("PEXPIRE")
                .arg(key)
                .arg(KEEP.as_millis() as u64)
                .ignore();
        }
        let () = pipe.query_async(&mut self.conn()).await?;
        let () = ::redis::cmd("PUBLISH")
            .arg(keys::PRESENCE_CHANNEL)
            .arg(game.to_string())
            .query_async(&mut self.conn())
            .await?;
        Ok(())
    }

    /// Renews the leases of every seat with a stream here, [`IN_FLIGHT`] at a time.
    async fn renew(&self) {
        let now_ms = epoch_ms(SystemTime::now());
        let mut renewals = stream::iter(self.presence.held())
            .map(|(game, seat)| {
                let mut conn = self.conn();
                let mut pipe = ::redis::pipe();
                pipe.cmd("ZADD")
                    .arg(keys::presence_key(game))
                    .arg(now_ms + LEASE.as_millis() as u64)
                    .arg(member(seat, &self.replica))
                    .ignore()
                    .cmd("HSET")
                    .arg(keys::seen_key(game))
                    .arg(seat_code(seat))
                    .arg(now_ms)
                    .ignore();
                async move { pipe.query_async::<()>(&mut conn).await }
            })
            .buffer_unordered(IN_FLIGHT);
        while let Some(result) = renewals.next().await {
            if let Err(e) = result {
                // Redis is failing: the rest would fail alike. The leases hold LEASE, three
                // renewals' time, and the next tick tries them all again.
                tracing::warn!(error = %e, "redis: presence lease not renewed");
                return;
            }
        }
    }

    /// Reads the leases of every game followed here again, [`IN_FLIGHT`] at a time.
    async fn refresh_followed(&self) {
        stream::iter(self.presence.followed())
            .map(|id| self.refresh_presence(id))
            .buffer_unordered(IN_FLIGHT)
            .collect::<()>()
            .await;
    }

    /// Reads `id`'s leases again for this replica's watchers of it.
    pub(super) async fn refresh_presence(&self, id: GameId) {
        if let Ok(remote) = self.remote_presence(id).await {
            self.presence.set_remote(id, remote);
        }
    }
}

/// The presence task of a replica: writes its changes as they come, renews its leases and
/// reads its followed games again every [`RENEW`]. Holds the store weakly.
pub(super) async fn run(inner: Weak<Inner>, mut changes: mpsc::Receiver<LocalChange>) {
    let mut tick = tokio::time::interval(RENEW);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            change = changes.recv() => {
                let Some(change) = change else { return };
                let Some(strong) = inner.upgrade() else { return };
                if let Err(e) = strong.write_change(change).await {
                    // The lease ends by itself, or is written at the next renewal.
                    tracing::warn!(error = %e, game_id = %change.game, "redis: presence change not written");
                }
            }
            _ = tick.tick() => {
                let Some(strong) = inner.upgrade() else { return };
                strong.renew().await;
                strong.refresh_followed().await;
            }
        }
    }
}
