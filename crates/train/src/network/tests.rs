//! The trainer checked: its gradient against finite differences, the
//! quantised network against the float one, widening, and training itself,
//! at each hidden size the engine reads.

use tuzdyk_rules::rng::SplitMix64;
use tuzdyk_rules::{Move, Position};
use tuzdyk_search::eval::network::{DEFAULT_HIDDEN, HIDDEN_SIZES, Network};

use super::data::Sample;
use super::loss::Loss;
use super::model::Model;
use super::trainer::{self, Config, gradient_of};

/// Positions from seeded random games, with made-up scores and results
/// that follow the kazans, so that there is something to learn.
fn samples(count: usize, seed: u64) -> Vec<Sample> {
    let mut rng = SplitMix64::new(seed);
    let mut samples = Vec::with_capacity(count);
    while samples.len() < count {
        let mut pos = Position::startpos();
        for _ in 0..rng.below(120) + 1 {
            let moves: Vec<Move> = pos.legal_moves().collect();
            if moves.is_empty() {
                break;
            }
            pos.play(*rng.pick(&moves));
        }
        if pos.game_over().is_some() {
            continue;
        }
        let us = pos.side_to_move();
        let lead = pos.kazan(us) as i32 - pos.kazan(us.opponent()) as i32;
        let score = lead * 100 + rng.below(201) as i32 - 100;
        let white_lead = pos.kazan(tuzdyk_rules::Side::White) as i32
            - pos.kazan(tuzdyk_rules::Side::Black) as i32;
        let white_points = if white_lead > 0 {
            1.0
        } else if white_lead < 0 {
            0.0
        } else {
            0.5
        };
        samples.push(Sample::new(&pos, score, white_points));
    }
    samples
}

const LOSS: Loss = Loss {
    lambda: 0.5,
    scale: 400.0,
};

fn total_loss(model: &Model, samples: &[&Sample]) -> f64 {
    let mut scratch = Model::zeros(model.hidden_size);
    gradient_of(model, samples, &LOSS, &mut scratch)
}

#[test]
fn the_backward_pass_matches_finite_differences() {
    for hidden in HIDDEN_SIZES {
        backward_pass_matches_finite_differences(hidden);
    }
}

fn backward_pass_matches_finite_differences(hidden: usize) {
    let data = samples(8, 1);
    let batch: Vec<&Sample> = data.iter().collect();
    let model = Model::random(2, hidden);
    let mut analytic = Model::zeros(hidden);
    gradient_of(&model, &batch, &LOSS, &mut analytic);
    // Parameters every sample uses, and some of the active rows (a unit
    // past 256 among them at 512).
    let mut checks: Vec<(usize, usize)> = vec![(3, 0), (3, 5), (1, 7)];
    let bucket = data[0].bucket as usize;
    for unit in (0..hidden).step_by(8) {
        checks.push((2, bucket * hidden + unit));
        checks.push((1, unit));
    }
    for &feature in &data[0].active()[..4] {
        for unit in [0, 17, 101, hidden - 3] {
            checks.push((0, feature as usize * hidden + unit));
        }
    }
    let mut compared = 0;
    // At 512 units a weight's gradient is smaller (output weights of
    // 1/sqrt(512)), and the f32 loss's rounding over a step of 1e-3 is
    // about a tenth of it: a longer step there.
    let h = if hidden > 256 { 4e-3f32 } else { 1e-3 };
    for (block, index) in checks {
        // A step across the activation's corner (a sum at 0 or 1) is not
        // differentiable: a hidden parameter whose unit sits near one in a
        // sample that uses it is left out.
        if block < 2 {
            let (feature, unit) = if block == 0 {
                (Some((index / hidden) as u16), index % hidden)
            } else {
                (None, index)
            };
            let near_corner = batch.iter().any(|s| {
                let uses = feature.is_none_or(|f| s.active().contains(&f));
                let x = model.forward(s.active(), s.bucket as usize).sums[unit];
                uses && (x.abs() < 4.0 * h || (x - 1.0).abs() < 4.0 * h)
            });
            if near_corner {
                continue;
            }
        }
        let mut plus = model.clone();
        plus.blocks_mut()[block][index] += h;
        let mut minus = model.clone();
        minus.blocks_mut()[block][index] -= h;
        let numeric = (total_loss(&plus, &batch) - total_loss(&minus, &batch)) / (2.0 * h as f64);
        let exact = analytic.blocks()[block][index] as f64;
        let tolerance = 1e-2 * numeric.abs().max(exact.abs()) + 1e-4;
        assert!(
            (numeric - exact).abs() <= tolerance,
            "{hidden} units, block {block} index {index}: numeric {numeric} analytic {exact}"
        );
        compared += 1;
    }
    assert!(
        compared >= 40,
        "only {compared} parameters compared at {hidden}"
    );
}

/// The positions of `count` seeded random games, each cut after 0..150
/// plies.
fn random_positions(count: usize) -> Vec<Position> {
    let mut rng = SplitMix64::new(9);
    (0..count)
        .map(|_| {
            let mut pos = Position::startpos();
            for _ in 0..rng.below(150) {
                let moves: Vec<Move> = pos.legal_moves().collect();
                if moves.is_empty() {
                    break;
                }
                pos.play(*rng.pick(&moves));
            }
            pos
        })
        .collect()
}

/// The largest and the mean difference, in centi-stones, between the float
/// model and the integer network over the positions of 4,000 seeded random
/// games ([`random_positions`]).
fn float_and_integer_differences(model: &Model, network: &Network) -> (f32, f64) {
    let mut worst = 0f32;
    let mut total = 0f64;
    let positions = random_positions(4000);
    for pos in &positions {
        let sample = Sample::new(pos, 0, 0.5);
        let float = model.evaluate(sample.active(), sample.bucket as usize);
        let integer = network.evaluate(pos) as f32;
        let difference = (float - integer).abs();
        worst = worst.max(difference);
        total += difference as f64;
    }
    (worst, total / positions.len() as f64)
}

#[test]
fn the_quantised_network_agrees_with_the_float_one() {
    for hidden in HIDDEN_SIZES {
        let model = Model::random(4, hidden);
        let network = model.quantise();
        assert_eq!(network.hidden_size(), hidden);
        let (worst, mean) = float_and_integer_differences(&model, &network);
        // Rounding each weight to 1/255 (hidden) and 1/256 (output), and the
        // result to whole centi-stones (measured at 256: mean 0.68, largest
        // 3.1 cp).
        assert!(mean < 2.0, "mean difference {mean} cp at {hidden}");
        assert!(worst < 12.0, "largest difference {worst} cp at {hidden}");
    }
}

#[test]
fn the_shipped_network_evaluates_as_its_float_weights_do() {
    let network = Network::built_in().expect("the binary has a built-in network");
    let model = Model::from_network(&network);
    let (worst, mean) = float_and_integer_differences(&model, &network);
    // The weights are the same numbers; only the integer hidden activations
    // (clipped at QA) and the final division round. Measured with
    // generation 9 built in: mean 0.50, largest 1.0 cp (generation 7 alike).
    assert!(mean < 1.0, "mean difference {mean} cp");
    assert!(worst < 4.0, "largest difference {worst} cp");
}

#[test]
fn training_lowers_the_loss_and_repeats_for_a_seed_on_any_thread_count() {
    let training = samples(3000, 5);
    let validation = samples(500, 6);
    let config = Config {
        epochs: 3,
        batch: 700,
        rate: 0.01,
        loss: LOSS,
        seed: 7,
    };
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut model = Model::random(8, DEFAULT_HIDDEN);
            let before = trainer::mean_loss(&model, &validation, &LOSS);
            let mut reports = Vec::new();
            let Ok(()) = trainer::train(&mut model, &training, &validation, &config, |r| {
                reports.push(*r);
                Ok::<(), std::convert::Infallible>(())
            });
            (model, before, reports)
        })
    };
    let (one, before, reports) = run(1);
    let (two, _, reports_two) = run(2);
    assert_eq!(one, two, "the same model on 1 and 2 threads");
    assert_eq!(reports, reports_two);
    let after = reports.last().unwrap().validation_loss;
    assert!(after < before * 0.9, "validation loss {before} -> {after}");
    assert!(trainer::fit_scale(&training) > 50.0);
}

#[test]
fn a_network_read_back_as_a_model_quantises_to_itself() {
    for hidden in HIDDEN_SIZES {
        let network = Model::random(11, hidden).quantise();
        let model = Model::from_network(&network);
        assert_eq!(model.hidden_size, hidden);
        assert_eq!(model.quantise().to_bytes(), network.to_bytes());
        // And it evaluates as the network does, up to the final rounding.
        let sample = Sample::new(&Position::startpos(), 0, 0.5);
        let float = model.evaluate(sample.active(), sample.bucket as usize);
        let integer = network.evaluate(&Position::startpos()) as f32;
        assert!(
            (float - integer).abs() <= 1.0,
            "{float} vs {integer} at {hidden}"
        );
    }
}

/// A model widened from 256 to 512 units keeps the parent's weights in its
/// first units, draws the new units' hidden weights as `Model::random` does
/// and gives them zero biases and output weights, so that it evaluates as
/// the parent does: in floats (adding zeros changes no sum), and once
/// quantised, exactly.
#[test]
fn a_widened_model_evaluates_as_its_parent() {
    let parent_network = Network::built_in().expect("the binary has a built-in network");
    let parent = Model::from_network(&parent_network);
    assert_eq!(parent.hidden_size, 256);
    let wide = parent.widened(512, 3);
    assert_eq!(wide.hidden_size, 512);
    let drawn = Model::random(3, 512);
    for (feature, row) in wide.hidden.chunks_exact(512).enumerate() {
        assert_eq!(row[..256], parent.hidden[feature * 256..][..256]);
        assert_eq!(row[256..], drawn.hidden[feature * 512 + 256..][..256]);
    }
    assert_eq!(wide.hidden_bias[..256], parent.hidden_bias[..]);
    assert!(wide.hidden_bias[256..].iter().all(|&b| b == 0.0));
    for (bucket, row) in wide.output.chunks_exact(512).enumerate() {
        assert_eq!(row[..256], parent.output[bucket * 256..][..256]);
        assert!(row[256..].iter().all(|&w| w == 0.0));
    }
    assert_eq!(wide.output_bias, parent.output_bias);
    // The new units' hidden weights are live (not zeros): training moves
    // them once their output weights have a gradient.
    assert!(wide.hidden[256..512].iter().any(|&w| w != 0.0));

    let wide_network = wide.quantise();
    assert_eq!(wide_network.hidden_size(), 512);
    for pos in random_positions(2000) {
        let sample = Sample::new(&pos, 0, 0.5);
        let (active, bucket) = (sample.active(), sample.bucket as usize);
        // The first 256 sums and products are the parent's, in its order;
        // each new unit adds a product with a zero weight, +0.0, which
        // leaves a float as it is.
        assert_eq!(
            wide.evaluate(active, bucket),
            parent.evaluate(active, bucket)
        );
        assert_eq!(wide_network.evaluate(&pos), parent_network.evaluate(&pos));
    }
}

#[test]
fn a_model_widened_to_its_own_size_is_itself() {
    let model = Model::random(12, 256);
    assert_eq!(model.widened(256, 99), model);
}

/// A wide model trains: the loss falls, and one thread and two give the
/// same weights.
#[test]
fn a_512_model_trains_and_repeats_on_any_thread_count() {
    let training = samples(1500, 5);
    let validation = samples(300, 6);
    let config = Config {
        epochs: 2,
        batch: 500,
        rate: 0.01,
        loss: LOSS,
        seed: 7,
    };
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut model = Model::random(8, 512);
            let before = trainer::mean_loss(&model, &validation, &LOSS);
            let mut reports = Vec::new();
            let Ok(()) = trainer::train(&mut model, &training, &validation, &config, |r| {
                reports.push(*r);
                Ok::<(), std::convert::Infallible>(())
            });
            (model, before, reports)
        })
    };
    let (one, before, reports) = run(1);
    let (two, _, _) = run(2);
    assert_eq!(one, two, "the same model on 1 and 2 threads");
    assert_eq!(one.hidden_size, 512);
    let after = reports.last().unwrap().validation_loss;
    assert!(after < before, "validation loss {before} -> {after}");
}
