//! The cost of one evaluation: the classic one, the network with the loops
//! this CPU runs fastest, with each other copy it can run and with the
//! baseline loops, and, for the network,
//! an update of the previous position's hidden sums after a move against
//! summing them afresh (positions and moves from the bench suite and play
//! from it).

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use tuzdyk_engine::bench::POSITIONS;
use tuzdyk_notation::tfen;
use tuzdyk_rules::{Position, rng::SplitMix64};
use tuzdyk_search::eval::classic;
use tuzdyk_search::eval::network::features::INPUTS;
use tuzdyk_search::eval::network::kernels::Kernels;
use tuzdyk_search::eval::network::{HIDDEN, Network, Parts};

/// The built-in network, or one of random weights of the same shape (the
/// cost does not depend on the weights).
fn network() -> Network {
    if let Some(network) = Network::built_in() {
        return (*network).clone();
    }
    let mut rng = SplitMix64::new(1);
    let mut value = |range: usize| (rng.below(2 * range + 1) as i64 - range as i64) as i16;
    Network::from_parts(Parts {
        hidden_bias: std::array::from_fn(|_| value(100)),
        hidden: (0..INPUTS)
            .map(|_| std::array::from_fn(|_| value(300)))
            .collect(),
        output: std::array::from_fn(|_| std::array::from_fn(|_| value(200))),
        output_bias: std::array::from_fn(|_| 0),
    })
}

/// Positions and, for each, a position one move later (seen by the same
/// player, as an incremental update would see it).
fn positions() -> Vec<(Position, Position)> {
    let mut pairs = Vec::new();
    let mut rng = SplitMix64::new(5);
    for text in POSITIONS {
        let mut pos = tfen::parse(text).expect("bench positions are valid");
        for _ in 0..8 {
            let moves: Vec<_> = pos.legal_moves().collect();
            if moves.is_empty() {
                break;
            }
            let mut child = pos;
            child.play(moves[rng.below(moves.len())]);
            pairs.push((pos, child.flipped()));
            pos = child;
        }
    }
    pairs
}

fn evaluations(c: &mut Criterion) {
    let pairs = positions();
    let network = network();
    let baseline = network.with_baseline_kernels();
    let mut group = c.benchmark_group("eval");
    let per = |b: &mut criterion::Bencher, f: &dyn Fn(&Position) -> i32| {
        b.iter(|| {
            let mut sum = 0i32;
            for (pos, _) in &pairs {
                sum = sum.wrapping_add(f(black_box(pos)));
            }
            sum
        })
    };
    group.throughput(criterion::Throughput::Elements(pairs.len() as u64));
    group.bench_function("classic", |b| per(b, &classic::evaluate));
    group.bench_function("network", |b| per(b, &|p| network.evaluate(p)));
    group.bench_function("network_baseline_loops", |b| {
        per(b, &|p| baseline.evaluate(p))
    });
    // Each faster copy this CPU has, by name (the fastest is `network`).
    for kernels in Kernels::available().into_iter().skip(1) {
        let copy = network.with_kernels(kernels);
        let name = format!("network_{kernels:?}").to_lowercase();
        group.bench_function(name, |b| per(b, &|p| copy.evaluate(p)));
    }
    group.bench_function("network_fresh_sums", |b| {
        b.iter(|| {
            let mut sum = 0i16;
            for (_, child) in &pairs {
                sum = sum.wrapping_add(network.accumulate(black_box(child)).0[HIDDEN - 1]);
            }
            sum
        })
    });
    group.bench_function("network_updated_sums", |b| {
        let parents: Vec<_> = pairs.iter().map(|(p, _)| network.accumulate(p)).collect();
        b.iter(|| {
            let mut sum = 0i16;
            for ((pos, child), acc) in pairs.iter().zip(&parents) {
                let mut acc = *acc;
                network.update(&mut acc, black_box(pos), black_box(child));
                sum = sum.wrapping_add(acc.0[HIDDEN - 1]);
            }
            sum
        })
    });
    group.finish();
}

criterion_group!(benches, evaluations);
criterion_main!(benches);
