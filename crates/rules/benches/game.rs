//! What the service does per move, on games of realistic length: read the move text (UCI),
//! check it against the legal moves, play it, write its SAN with suffix, update the repetition
//! keys and detect the outcome. Games are the 150 python-chess reference games (both variants,
//! 10,847 plies). `cargo bench -p chessd-rules --bench game`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::Value;

use chessd_rules::{DrawRule, Game, Position, Variant};

fn games() -> Vec<(Position, Vec<String>)> {
    let data: Value =
        serde_json::from_str(include_str!("../tests/data/reference-games.json")).unwrap();
    data.as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let variant: Variant = g["variant"].as_str().unwrap().parse().unwrap();
            let start = Position::from_fen(variant, g["start_fen"].as_str().unwrap()).unwrap();
            let moves = g["plies"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["uci"].as_str().unwrap().to_string())
                .collect();
            (start, moves)
        })
        .filter(|(start, _)| !Game::new(*start, DrawRule::Claim).is_over())
        .collect()
}

fn bench(c: &mut Criterion) {
    let games = games();
    let plies: u64 = games.iter().map(|(_, m)| m.len() as u64).sum();
    let mut group = c.benchmark_group("game");
    group.throughput(Throughput::Elements(plies));
    group.bench_function("play uci + san + outcome, per ply", |b| {
        b.iter(|| {
            for (start, moves) in &games {
                let mut game = Game::new(*start, DrawRule::Claim);
                for m in moves {
                    std::hint::black_box(game.play_text(m).unwrap());
                }
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
