//! perft throughput (nodes per second) on the standard speed positions of both variants.
//! `cargo bench -p chessd-rules --bench perft`; compare with `tools/bench-perft.sh`, which runs
//! the shakmaty anchor beside chessd in the same session.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use chessd_rules::{Position, Variant};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn bench(c: &mut Criterion) {
    let cases = [
        ("chess start d5", Position::new(Variant::Chess), 5),
        (
            "kiwipete d4",
            Position::from_fen(Variant::Chess, KIWIPETE).unwrap(),
            4,
        ),
        (
            "racingkings start d5",
            Position::new(Variant::RacingKings),
            5,
        ),
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
