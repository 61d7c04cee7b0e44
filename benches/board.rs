//! Board benchmarks: move generation and make-move over positions from
//! random games, and perft(6) from the start on one thread, the engine's
//! against the plain reference implementation's (same leaves, so the
//! ratio of the times is the ratio of leaves per second). Run with
//! `cargo bench --bench board`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tuzdyk_notation::tfen;
use tuzdyk_rules::Position;
use tuzdyk_rules::perft::perft;

#[path = "../tests/reference/mod.rs"]
mod reference;

use reference::RefPosition;
use tuzdyk_rules::rng::SplitMix64;

/// Leaves of perft(6) from the start (docs/rules.md).
const PERFT6_LEAVES: u64 = 360_035;
/// docs/rules.md's P1 and its perft(6).
const P1: &str = "1S,1S,5S,7S,6S,18S,6S,1,t/1S,2S,20S,7S,19S,t,1S,2S,1 42 24 S 11";
const P1_PERFT6_LEAVES: u64 = 151_364;

/// Every position of 40 random games (fixed seed) where the game is not
/// over: about 5,000 positions from opening to ending.
fn game_positions() -> Vec<Position> {
    let mut rng = SplitMix64::new(0x00B0_A4D5);
    let mut positions = Vec::new();
    for _ in 0..40 {
        let mut pos = Position::startpos();
        loop {
            let moves: Vec<_> = pos.legal_moves().collect();
            if moves.is_empty() {
                break;
            }
            positions.push(pos);
            pos.play(moves[rng.below(moves.len())]);
        }
    }
    positions
}

fn bench_board(c: &mut Criterion) {
    let positions = game_positions();
    let references: Vec<RefPosition> = positions
        .iter()
        .map(|p| RefPosition::from_parts(&p.parts()))
        .collect();
    let total_moves: u64 = positions
        .iter()
        .map(|p| p.legal_moves().count() as u64)
        .sum();

    let mut group = c.benchmark_group("legal_moves");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("tuzdyk", |b| {
        b.iter(|| {
            let mut sum = 0usize;
            for pos in black_box(&positions) {
                for mv in pos.legal_moves() {
                    sum += mv.index();
                }
            }
            sum
        })
    });
    group.bench_function("reference", |b| {
        b.iter(|| {
            let mut sum = 0usize;
            for pos in black_box(&references) {
                for hole in 0..reference::HOLES {
                    if pos.is_legal(hole) {
                        sum += hole;
                    }
                }
            }
            sum
        })
    });
    group.finish();

    let mut group = c.benchmark_group("play");
    group.throughput(Throughput::Elements(total_moves));
    group.bench_function("tuzdyk", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for pos in black_box(&positions) {
                for mv in pos.legal_moves() {
                    let mut child = *pos;
                    let outcome = child.play(mv);
                    sum += outcome.captured as u64 + child.key();
                }
            }
            sum
        })
    });
    group.bench_function("reference", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for pos in black_box(&references) {
                for hole in 0..reference::HOLES {
                    if pos.is_legal(hole) {
                        let mut child = *pos;
                        let outcome = child.play(hole);
                        sum += outcome.captured as u64 + child.kazans[0] as u64;
                    }
                }
            }
            sum
        })
    });
    group.finish();

    let start = Position::startpos();
    let ref_start = RefPosition::start();
    assert_eq!(perft(&start, 6), PERFT6_LEAVES);
    assert_eq!(ref_start.perft(6), PERFT6_LEAVES);
    let mut group = c.benchmark_group("perft6");
    group.throughput(Throughput::Elements(PERFT6_LEAVES));
    group.sample_size(30);
    group.bench_function("tuzdyk", |b| b.iter(|| perft(black_box(&start), 6)));
    group.bench_function("reference", |b| b.iter(|| black_box(&ref_start).perft(6)));
    group.finish();

    // A master game after 10 moves (docs/rules.md's P1): two tuzdiks and holes
    // of up to 20 stones, where sowing stone by stone costs more.
    let p1 = tfen::parse(P1).expect("P1 is a valid TFEN");
    let ref_p1 = RefPosition::from_parts(&p1.parts());
    assert_eq!(perft(&p1, 6), P1_PERFT6_LEAVES);
    assert_eq!(ref_p1.perft(6), P1_PERFT6_LEAVES);
    let mut group = c.benchmark_group("perft6_p1");
    group.throughput(Throughput::Elements(P1_PERFT6_LEAVES));
    group.sample_size(30);
    group.bench_function("tuzdyk", |b| b.iter(|| perft(black_box(&p1), 6)));
    group.bench_function("reference", |b| b.iter(|| black_box(&ref_p1).perft(6)));
    group.finish();
}

criterion_group!(benches, bench_board);
criterion_main!(benches);
