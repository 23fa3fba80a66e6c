//! What the memory store keeps of a game, counted by the allocator (`chessd-heap`): games
//! created on a [`MemoryStore`] in this process, played with seeded random legal moves to a
//! given ply and resigned (or left idle), with the bytes the process holds read before and
//! after. The count is what the store asked the allocator for, exact and the same on every
//! run; resident memory (`chessd-bench --finished-games`) adds the allocator's rounding and
//! fragmentation and the server around the store, but moves by hundreds of bytes a game
//! between runs.

use std::time::Duration;

use chessd::api::decode::move_text;
use chessd::game::{
    Action, Holder, Labels, NewGame, Players, StartRules, TakebackPolicy, TimeControl,
};
use chessd::store::{Games, MemoryStore, StoreLimits};
use chessd_rules::any::{AnyPosition, AnyVariant};
use chessd_rules::{ByColor, Color, DrawRule};

use crate::load::bots::Rng;

/// Games played (and dropped from the count) before the measured ones, so maps, pools and
/// the feed's first blocks exist before the first reading.
const WARM_UP: usize = 256;

/// What to measure.
#[derive(Clone, Copy, Debug)]
pub struct HeapPlan {
    pub games: usize,
    /// The ply at which the side to move resigns (0: the games stay idle, no move played).
    pub plies: u32,
    pub variant: AnyVariant,
    /// Games on a 5+3 clock rather than untimed.
    pub timed: bool,
    /// The feed's cap (`--feed-max-events`): 1 counts the games alone.
    pub feed_max_events: usize,
}

/// What it measured, over the games after the warm-up.
#[derive(Clone, Copy, Debug)]
pub struct HeapFigures {
    pub games: usize,
    pub plies: u64,
    /// Bytes held after the games less bytes held before them.
    pub bytes: i64,
}

impl HeapFigures {
    #[must_use]
    pub fn per_game(&self) -> f64 {
        self.bytes as f64 / self.games.max(1) as f64
    }
}

/// Plays the plan on a fresh memory store, reading the bytes held from `allocated`.
pub async fn measure(plan: HeapPlan, allocated: impl Fn() -> usize) -> HeapFigures {
    let store = MemoryStore::new(StoreLimits {
        max_live_games: plan.games + WARM_UP + 1,
        max_finished_games: plan.games + WARM_UP + 1,
        max_watchers_per_game: 4,
        watch_buffer: 64,
        retention: None,
        abandon_after: None,
        feed_retention: Duration::from_secs(24 * 3600),
        feed_max_events: plan.feed_max_events,
    });
    // Seeded: every build plays the same games.
    let mut rng = Rng::from_seed(0x9E37_79B9_7F4A_7C15);
    let _ = play(&store, plan, WARM_UP, &mut rng).await;
    let before = allocated();
    let plies = play(&store, plan, plan.games, &mut rng).await;
    let after = allocated();
    let bytes = after as i64 - before as i64;
    // Dropped only after the reading, so nothing the games hold is freed before it.
    drop(store);
    HeapFigures {
        games: plan.games,
        plies,
        bytes,
    }
}

/// Plays `count` games of `plan`: the plies played.
async fn play(store: &MemoryStore, plan: HeapPlan, count: usize, rng: &mut Rng) -> u64 {
    let mut plies = 0;
    for _ in 0..count {
        plies += play_one(store, plan, rng).await;
    }
    plies
}

/// One game, as a client's CreateGame with two player names and both seat tokens asks for it,
/// played to `plan.plies` and resigned (or to its end on the board, if sooner).
async fn play_one(store: &MemoryStore, plan: HeapPlan, rng: &mut Rng) -> u64 {
    let new = NewGame {
        start: AnyPosition::new(plan.variant),
        draw_start: false,
        time_control: plan
            .timed
            .then(|| TimeControl::even(Duration::from_secs(300), Duration::from_secs(3))),
        start_rules: StartRules::default(),
        players: Players {
            white: "finished-w".into(),
            black: "finished-b".into(),
            ..Players::default()
        },
        draw_rule: DrawRule::default(),
        request_id: None,
        labels: Labels::default(),
        takebacks: TakebackPolicy::Off,
        seat_tokens: ByColor::new(true, true),
        claim_after: Duration::from_secs(120),
        public_delay: 0,
        player_entropy: false,
    };
    let created = store.create(new).await.expect("the store takes the game");
    let id = created.view.id;
    let seat = |color: Color| Holder::Seat(created.tokens[color].expect("a seat token"));
    let mut pos = created.view.game.position();
    let mut ply = 0;
    while ply < plan.plies {
        // A player's moves: in a game of chance, without the draw, which is the store's.
        let moves = pos.notations();
        if moves.is_empty() {
            return u64::from(ply);
        }
        let (uci, _) = &moves[rng.below(moves.len())];
        let acted = store
            .act(
                id,
                seat(pos.turn()),
                Action::Move {
                    text: move_text(uci).expect("a legal move reads back"),
                    expected_ply: Some(ply),
                    request_id: None,
                    offer_draw: false,
                },
                |_, _| Ok(()),
            )
            .await
            .expect("a legal move is taken");
        pos = acted.view.game.position();
        ply += 1;
        if acted.view.game.outcome().is_some() {
            return u64::from(ply);
        }
    }
    if plan.plies > 0 {
        store
            .act(id, seat(pos.turn()), Action::Resign, |_, _| Ok(()))
            .await
            .expect("the side to move resigns");
    }
    u64::from(ply)
}
