//! perft throughput (nodes per second) on each variant's start position (Chess960: a shuffled
//! start; chess also Kiwipete), bulk counting. `cargo bench -p chessd-rules --bench perft`;
//! `tools/bench-perft.sh` runs the shakmaty anchor beside chessd in the same session.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use chessd_rules::{Position, Variant};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const SHUFFLED: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";

fn bench(c: &mut Criterion) {
    let at = |variant, fen| Position::from_fen(variant, fen).unwrap();
    let cases = [
        ("chess start d5", Position::new(Variant::Chess), 5),
        ("kiwipete d4", at(Variant::Chess, KIWIPETE), 4),
        (
            "racingkings start d5",
            Position::new(Variant::RacingKings),
            5,
        ),
        ("chess960 shuffled d5", at(Variant::Chess960, SHUFFLED), 5),
        ("threecheck start d5", Position::new(Variant::ThreeCheck), 5),
        (
            "kingofthehill start d5",
            Position::new(Variant::KingOfTheHill),
            5,
        ),
        ("antichess start d5", Position::new(Variant::Antichess), 5),
        ("atomic start d5", Position::new(Variant::Atomic), 5),
        ("horde start d6", Position::new(Variant::Horde), 6),
        ("crazyhouse start d5", Position::new(Variant::Crazyhouse), 5),
    ];
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, pos, depth) in cases {
        group.throughput(Throughput::Elements(pos.perft(depth)));
        group.bench_function(name, |b| b.iter(|| pos.perft(std::hint::black_box(depth))));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
