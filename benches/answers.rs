//! The cost of a SubmitMove answer as a game grows: encoding the game in the basic view, in
//! the full view as the server does it (its encoded move list extended by the move just
//! played), and in the full view with the move list encoded afresh, at ply 10 and ply 200.
//!
//! ```text
//! cargo bench --bench answers
//! ```

use std::sync::Arc;
use std::time::SystemTime;

use chessd::api::encode;
use chessd::api::move_lists::MoveLists;
use chessd::game::{GameId, GameView, Players, Viewer};
use chessd_proto::wire as pb;
use chessd_rules::{DrawRule, Game, Position, Rules, Variant};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use prost::Message;

/// A chess game of `ply` plies, its moves picked by a seeded generator among those that do not
/// end it.
fn game_at(ply: u32) -> Game {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    'attempt: loop {
        let mut game = Game::new(Position::new(Variant::Chess), DrawRule::Claim);
        while game.ply() < ply {
            let legal = game.position().legal_moves();
            let mut candidates: Vec<_> = legal.iter().copied().collect();
            let mut moved = false;
            while !candidates.is_empty() {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let m = candidates.swap_remove((seed >> 33) as usize % candidates.len());
                let mut next = game.clone();
                next.play(m).expect("a legal move");
                if !next.is_over() {
                    game = next;
                    moved = true;
                    break;
                }
            }
            if !moved {
                continue 'attempt;
            }
        }
        return game;
    }
}

fn view(game: Game) -> GameView {
    GameView {
        id: GameId::new(SystemTime::UNIX_EPOCH, 1),
        players: Players {
            white: "white".into(),
            black: "black".into(),
            ..Players::default()
        },
        labels: Arc::default(),
        game: Arc::new(game.into()),
        time_control: None,
        clocks: None,
        start_rules: chessd::game::StartRules::default(),
        first_move_deadline: None,
        draw_offer: None,
        takebacks: chessd::game::TakebackPolicy::Off,
        takeback_offer: None,
        last_seq: 0,
        created_at: SystemTime::UNIX_EPOCH,
        claim_after: std::time::Duration::from_secs(60),
        turn_began: SystemTime::UNIX_EPOCH,
        chance: None,
        setup: None,
        entropy: None,
        public_delay: 0,
        delayed: false,
    }
}

fn answers(c: &mut Criterion) {
    let mut group = c.benchmark_group("answer");
    for ply in [10, 200] {
        let game = game_at(ply);
        // The game one ply earlier: what the cache held before this move.
        let mut before = Game::new(game.start(), DrawRule::Claim);
        for &m in &game.moves()[..game.moves().len() - 1] {
            before.play(m).expect("replays");
        }
        let now = view(game);
        let earlier = view(before);
        group.bench_function(format!("basic, ply {ply}"), |b| {
            b.iter(|| {
                encode::game_as(&now, pb::GameView::Basic, None, Viewer::Whole).encode_to_vec()
            });
        });
        group.bench_function(format!("full, ply {ply}"), |b| {
            b.iter_batched(
                || {
                    let lists = MoveLists::default();
                    let _ = lists.encoded(earlier.id, &earlier.game);
                    lists
                },
                |lists| {
                    encode::game_as(&now, pb::GameView::Full, Some(&lists), Viewer::Whole)
                        .encode_to_vec()
                },
                BatchSize::SmallInput,
            );
        });
        group.bench_function(format!("full encoded afresh, ply {ply}"), |b| {
            b.iter(|| {
                encode::game_as(&now, pb::GameView::Full, None, Viewer::Whole).encode_to_vec()
            });
        });
    }
    group.finish();
}

criterion_group!(benches, answers);
criterion_main!(benches);
