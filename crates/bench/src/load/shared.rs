//! What the play phase's tasks share: the measured window, the move budget, the counters,
//! and each game's table (its id, seat credentials and when each recent move was sent).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use chessd_proto as pb;
use chessd_rules::any::AnyVariant;
use tonic::metadata::{Ascii, MetadataValue};

use crate::error::BenchError;
use crate::flags::{PlayArgs, View};
use crate::report::measure::{CodeCounts, Latency};
use crate::timed::flagfall::FlagStats;

/// Plies remembered for delivery latency per game (a watcher further behind is cut off by the
/// server's watch buffer anyway).
const SEND_RING: usize = 64;

/// What every task of the play phase shares.
pub struct Shared {
    /// The origin of every `Instant` turned into nanoseconds here.
    pub base: Instant,
    pub warm_end: Instant,
    pub end: Instant,
    /// Cleared when the bench stops playing (deadline or move budget).
    pub running: AtomicBool,
    pub max_moves: u64,
    /// Moves submitted so far (for the budget).
    pub submitted: AtomicU64,
    /// The think time before each move (`--rate`).
    pub pause: Option<Duration>,
    pub variant: AnyVariant,
    /// Whether bots record deliveries (when there are no watchers to do it).
    pub bots_record: bool,
    /// The game view SubmitMove answers with.
    pub view: pb::GameView,
    /// Plies after which a game is ended (0: none).
    pub max_ply: u32,
    /// Plies a flagger game plays before its bot stops.
    pub flag_after: u32,
    /// A std mutex: recording is a few nanoseconds and never awaits.
    stats: Mutex<Stats>,
}

impl Shared {
    /// The shared state of a play phase with these flags, its clock starting now.
    pub fn new(args: &PlayArgs) -> Result<Shared, BenchError> {
        let base = Instant::now();
        let warm_end = base + args.play.warmup;
        Ok(Shared {
            base,
            warm_end,
            end: warm_end + args.play.duration,
            running: AtomicBool::new(true),
            max_moves: args.max_moves,
            submitted: AtomicU64::new(0),
            pause: (args.rate > 0.0).then(|| Duration::from_secs_f64(1.0 / args.rate)),
            variant: args.play.variant,
            bots_record: args.watchers == 0,
            view: match args.play.view {
                View::Basic => pb::GameView::Basic,
                View::Full => pb::GameView::Full,
            },
            max_ply: args.play.max_ply,
            flag_after: args.timed.flag_after,
            stats: Mutex::new(Stats::new()?),
        })
    }

    /// `at` in nanoseconds since `base`.
    pub fn nanos(&self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.base).as_nanos()).unwrap_or(u64::MAX)
    }

    /// Whether `at` falls in the measured window.
    pub fn measured(&self, at: Instant) -> bool {
        at >= self.warm_end && at <= self.end
    }

    pub fn playing(&self) -> bool {
        self.running.load(Ordering::Relaxed) && Instant::now() < self.end
    }

    /// Stops play before the deadline.
    pub fn stop(&self) {
        self.running.store(false, Ordering::Relaxed);
    }

    /// Takes one move from the budget; false when the bench should stop playing.
    pub fn take_move(&self) -> bool {
        if !self.playing() {
            return false;
        }
        let n = self.submitted.fetch_add(1, Ordering::Relaxed);
        if self.max_moves > 0 && n >= self.max_moves {
            self.stop();
            return false;
        }
        true
    }

    pub fn stats(&self) -> MutexGuard<'_, Stats> {
        self.stats.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Everything the play phase counts, merged from every task.
#[derive(Clone)]
pub struct Stats {
    /// SubmitMove round trips in the measured window.
    pub submit: Latency,
    /// Mover's send to a stream's receipt.
    pub delivery: Latency,
    /// Event server time to receipt (the server time has millisecond precision).
    pub server_delivery: Latency,
    pub moves_measured: u64,
    /// The sum of the measured moves' plies (each move's ply in its game, from 1).
    pub plies_measured: u64,
    pub moves_total: u64,
    pub deliveries_measured: u64,
    pub games_finished: u64,
    /// Moves sent just after the game ended (GAME_OVER): expected, not errors.
    pub late_moves: u64,
    /// Refusals and transport failures.
    pub errors: CodeCounts,
    /// Streams that could not open or broke before their game ended.
    pub stream_failures: u64,
    /// How late flags fell.
    pub flags: FlagStats,
}

impl Stats {
    fn new() -> Result<Stats, BenchError> {
        Ok(Stats {
            submit: Latency::new()?,
            delivery: Latency::new()?,
            server_delivery: Latency::new()?,
            moves_measured: 0,
            plies_measured: 0,
            moves_total: 0,
            deliveries_measured: 0,
            games_finished: 0,
            late_moves: 0,
            errors: CodeCounts::default(),
            stream_failures: 0,
            flags: FlagStats::new()?,
        })
    }
}

/// One game in play.
pub struct Table {
    pub id: String,
    /// Each seat's `authorization` value, made once (a clone shares the bytes), White's first.
    pub auth: [Option<MetadataValue<Ascii>>; 2],
    pub sent: SendTimes,
    /// The side to move stops after `Shared::flag_after` plies, so its flag falls.
    pub flagger: bool,
}

/// When each recent move of one game was sent, for delivery latency: slot `ply % SEND_RING`
/// holds (ply, nanoseconds since `Shared::base`).
pub struct SendTimes {
    slots: [(AtomicU64, AtomicU64); SEND_RING],
}

impl Default for SendTimes {
    fn default() -> SendTimes {
        SendTimes {
            slots: std::array::from_fn(|_| (AtomicU64::new(0), AtomicU64::new(0))),
        }
    }
}

impl SendTimes {
    pub fn set(&self, ply: u64, nanos: u64) {
        let (p, t) = &self.slots[(ply % SEND_RING as u64) as usize];
        t.store(nanos, Ordering::Release);
        p.store(ply, Ordering::Release);
    }

    /// When the move that made `ply` was sent, if it is still remembered.
    pub fn get(&self, ply: u64) -> Option<u64> {
        let (p, t) = &self.slots[(ply % SEND_RING as u64) as usize];
        (p.load(Ordering::Acquire) == ply).then(|| t.load(Ordering::Acquire))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A send time is found by its ply until a later ply takes its slot.
    #[test]
    fn send_times_remember_the_last_plies() {
        let sent = SendTimes::default();
        sent.set(1, 100);
        sent.set(2, 200);
        assert_eq!(sent.get(1), Some(100));
        assert_eq!(sent.get(2), Some(200));
        assert_eq!(sent.get(3), None);
        sent.set(1 + SEND_RING as u64, 300);
        assert_eq!(sent.get(1), None);
        assert_eq!(sent.get(1 + SEND_RING as u64), Some(300));
    }

    /// The move budget stops play once spent.
    #[test]
    fn the_budget_stops_play() {
        let cli =
            <crate::flags::Cli as clap::Parser>::parse_from(["chessd-bench", "--max-moves", "2"]);
        let shared = Shared::new(&cli.play).unwrap();
        assert!(shared.take_move());
        assert!(shared.take_move());
        assert!(!shared.take_move());
        assert!(!shared.playing());
    }
}
