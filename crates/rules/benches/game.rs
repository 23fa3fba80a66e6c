//! What the service does per move, on games of realistic length: read the move text (UCI),
//! check it against the legal moves, play it, write its SAN with suffix, update the repetition
//! keys and detect the outcome. Then what a full answer adds per move: every legal move's SAN
//! with its suffix, in the positions of the same games. Games are the python-chess reference
//! games: the 150 of chess and Racing Kings (10,847 plies), then each other variant's own.
//! `cargo bench -p chessd-rules --bench game`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::Value;

use chessd_rules::{DrawRule, Game, Position, Rules, Variant, san_plus_among};

/// A reference game's start and moves (its variant named in the record or given).
fn game(g: &Value, variant: Option<Variant>) -> (Position, Vec<String>) {
    let variant = variant.unwrap_or_else(|| g["variant"].as_str().unwrap().parse().unwrap());
    let start = Position::from_fen(variant, g["start_fen"].as_str().unwrap()).unwrap();
    let moves = g["plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["uci"].as_str().unwrap().to_string())
        .collect();
    (start, moves)
}

/// The chess and Racing Kings games (those that do not start finished).
fn games() -> Vec<(Position, Vec<String>)> {
    let data: Value =
        serde_json::from_str(include_str!("../tests/data/reference-games.json")).unwrap();
    data.as_array()
        .unwrap()
        .iter()
        .map(|g| game(g, None))
        .filter(|(start, _)| !Game::new(*start, DrawRule::Claim).is_over())
        .collect()
}

/// The games of one variant's reference file.
fn variant_games(variant: Variant, text: &str) -> Vec<(Position, Vec<String>)> {
    let data: Value = serde_json::from_str(text).unwrap();
    let games = data["games"].as_array().unwrap();
    games.iter().map(|g| game(g, Some(variant))).collect()
}

fn bench_games(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    games: &[(Position, Vec<String>)],
) {
    let plies: u64 = games.iter().map(|(_, m)| m.len() as u64).sum();
    group.throughput(Throughput::Elements(plies));
    group.bench_function(name, |b| {
        b.iter(|| {
            for (start, moves) in games {
                let mut game = Game::new(*start, DrawRule::Claim);
                for m in moves {
                    std::hint::black_box(game.play_text(m).unwrap());
                }
            }
        })
    });
}

/// Every position of `games` (before each move), for the legal-move listing.
fn positions(games: &[(Position, Vec<String>)]) -> Vec<Position> {
    let mut out = Vec::new();
    for (start, moves) in games {
        let mut game = Game::new(*start, DrawRule::Claim);
        for m in moves {
            out.push(*game.position());
            game.play_text(m).unwrap();
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("game");
    let games = games();
    bench_games(&mut group, "play uci + san + outcome, per ply", &games);
    let positions = positions(&games);
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("every legal move's san + suffix, per position", |b| {
        b.iter(|| {
            for pos in &positions {
                let legal = pos.legal_moves();
                for &m in legal.iter() {
                    std::hint::black_box(san_plus_among(pos, m, &legal).text());
                }
            }
        })
    });
    for (variant, text) in [
        (
            Variant::Chess960,
            include_str!("../tests/data/reference-chess960.json"),
        ),
        (
            Variant::ThreeCheck,
            include_str!("../tests/data/reference-threecheck.json"),
        ),
        (
            Variant::KingOfTheHill,
            include_str!("../tests/data/reference-kingofthehill.json"),
        ),
        (
            Variant::Antichess,
            include_str!("../tests/data/reference-antichess.json"),
        ),
        (
            Variant::Atomic,
            include_str!("../tests/data/reference-atomic.json"),
        ),
        (
            Variant::Horde,
            include_str!("../tests/data/reference-horde.json"),
        ),
        (
            Variant::Crazyhouse,
            include_str!("../tests/data/reference-crazyhouse.json"),
        ),
    ] {
        let name = format!("{variant}: play uci + san + outcome, per ply");
        bench_games(&mut group, &name, &variant_games(variant, text));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
