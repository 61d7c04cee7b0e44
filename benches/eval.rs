//! The cost of one evaluation: the classic one, the network with the loops
//! this CPU runs fastest, with each other copy it can run and with the
//! baseline loops, a network of 512 hidden units, and, for the network,
//! an update of the previous position's hidden sums after a move against
//! summing them afresh (positions and moves from the bench suite and play
//! from it).

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use tuzdyk_engine::bench::POSITIONS;
use tuzdyk_notation::tfen;
use tuzdyk_rules::{Position, rng::SplitMix64};
use tuzdyk_search::eval::classic;
use tuzdyk_search::eval::network::features::{BUCKETS, INPUTS};
use tuzdyk_search::eval::network::kernels::Kernels;
use tuzdyk_search::eval::network::{DEFAULT_HIDDEN, Network, Parts};

/// The built-in network, or one of random weights of the same shape (the
/// cost does not depend on the weights).
fn network() -> Network {
    match Network::built_in() {
        Some(network) => (*network).clone(),
        None => random_network(DEFAULT_HIDDEN),
    }
}

/// A network of random weights and `hidden` units.
fn random_network(hidden: usize) -> Network {
    let mut rng = SplitMix64::new(1);
    let mut value = |range: usize| (rng.below(2 * range + 1) as i64 - range as i64) as i16;
    Network::from_parts(Parts {
        hidden_size: hidden,
        hidden_bias: (0..hidden).map(|_| value(100)).collect(),
        hidden: (0..INPUTS * hidden).map(|_| value(300)).collect(),
        output: (0..BUCKETS * hidden).map(|_| value(200)).collect(),
        output_bias: std::array::from_fn(|_| 0),
    })
}

/// The last hidden sum (something of the sums for `black_box` to keep).
fn last(sums: &tuzdyk_search::eval::network::Accumulator) -> i16 {
    sums.values()[sums.values().len() - 1]
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
    // A network of 512 units (random weights: there is no trained one yet),
    // with the fastest loops, against `network`'s 256.
    let wide = random_network(512);
    group.bench_function("network_512", |b| per(b, &|p| wide.evaluate(p)));
    group.bench_function("network_fresh_sums", |b| {
        b.iter(|| {
            let mut sum = 0i16;
            for (_, child) in &pairs {
                sum = sum.wrapping_add(last(&network.accumulate(black_box(child))));
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
                sum = sum.wrapping_add(last(&acc));
            }
            sum
        })
    });
    group.finish();
}

criterion_group!(benches, evaluations);
criterion_main!(benches);
