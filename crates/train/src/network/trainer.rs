//! The training loop: epochs over shuffled batches, the gradient of each
//! batch computed in parallel over fixed chunks and summed in order (so a
//! run is the same for a seed whatever the number of threads), Adam steps,
//! a step-down learning rate, and a validation loss each epoch.

use rayon::prelude::*;
use tuzdyk_rules::rng::shuffle;

use super::adam::Adam;
use super::data::Sample;
use super::loss::{Loss, sigmoid};
use super::model::Model;
use tuzdyk_search::eval::network::OUTPUT_SCALE;

/// Positions whose gradient one task sums.
const CHUNK: usize = 1024;

/// How to train.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub epochs: usize,
    pub batch: usize,
    /// The first learning rate; it drops to a third after 60% of the epochs
    /// and to a tenth after 85%.
    pub rate: f32,
    pub loss: Loss,
    pub seed: u64,
}

/// What one epoch did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    /// 1-based.
    pub epoch: usize,
    pub training_loss: f64,
    pub validation_loss: f64,
    pub rate: f32,
}

/// The learning rate of `epoch` (0-based).
pub fn rate_at(config: &Config, epoch: usize) -> f32 {
    let progress = epoch as f32 / config.epochs.max(1) as f32;
    if progress >= 0.85 {
        config.rate / 10.0
    } else if progress >= 0.6 {
        config.rate / 3.0
    } else {
        config.rate
    }
}

/// The mean loss of `model` over `samples`.
pub fn mean_loss(model: &Model, samples: &[Sample], loss: &Loss) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sums: Vec<f64> = samples
        .par_chunks(CHUNK)
        .map(|chunk| {
            chunk
                .iter()
                .map(|s| {
                    loss.of(model.evaluate(s.active(), s.bucket as usize), s.target)
                        .0 as f64
                })
                .sum()
        })
        .collect();
    sums.iter().sum::<f64>() / samples.len() as f64
}

/// Adds the gradient of the loss over `samples` to `gradient`; returns the
/// summed loss.
pub(crate) fn gradient_of(
    model: &Model,
    samples: &[&Sample],
    loss: &Loss,
    gradient: &mut Model,
) -> f64 {
    gradient.clear();
    let mut total = 0f64;
    for sample in samples {
        let bucket = sample.bucket as usize;
        let forward = model.forward(sample.active(), bucket);
        let evaluation = forward.output * OUTPUT_SCALE as f32;
        let (value, d_evaluation) = loss.of(evaluation, sample.target);
        total += value as f64;
        let d_output = d_evaluation * OUTPUT_SCALE as f32;
        model.backward(sample.active(), bucket, &forward, d_output, gradient);
    }
    total
}

/// Trains `model` on `training`, reporting each epoch.
pub fn train<E>(
    model: &mut Model,
    training: &[Sample],
    validation: &[Sample],
    config: &Config,
    mut report: impl FnMut(&EpochReport) -> Result<(), E>,
) -> Result<(), E> {
    let hidden = model.hidden_size;
    let mut adam = Adam::new(hidden);
    let mut order: Vec<usize> = (0..training.len()).collect();
    let chunks_per_batch = config.batch.div_ceil(CHUNK).max(1);
    let mut chunk_gradients: Vec<Model> = (0..chunks_per_batch)
        .map(|_| Model::zeros(hidden))
        .collect();
    let mut gradient = Model::zeros(hidden);
    for epoch in 0..config.epochs {
        shuffle(
            &mut order,
            config.seed ^ (epoch as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        let rate = rate_at(config, epoch);
        let mut epoch_loss = 0f64;
        for batch in order.chunks(config.batch.max(1)) {
            let samples: Vec<&Sample> = batch.iter().map(|&i| &training[i]).collect();
            let losses: Vec<f64> = samples
                .par_chunks(CHUNK)
                .zip(chunk_gradients.par_iter_mut())
                .map(|(chunk, chunk_gradient)| {
                    gradient_of(model, chunk, &config.loss, chunk_gradient)
                })
                .collect();
            epoch_loss += losses.iter().sum::<f64>();
            gradient.clear();
            for chunk_gradient in &chunk_gradients[..samples.len().div_ceil(CHUNK)] {
                gradient.add(chunk_gradient);
            }
            let scale = 1.0 / samples.len() as f32;
            for block in gradient.blocks_mut() {
                for g in block.iter_mut() {
                    *g *= scale;
                }
            }
            adam.step(model, &gradient, rate);
            model.clip();
        }
        report(&EpochReport {
            epoch: epoch + 1,
            training_loss: epoch_loss / training.len().max(1) as f64,
            validation_loss: mean_loss(model, validation, &config.loss),
            rate,
        })?;
    }
    Ok(())
}

/// The logistic scale (centi-stones) that best predicts the results from
/// the search scores: golden-section search of the mean squared error.
pub fn fit_scale(samples: &[Sample]) -> f32 {
    let error = |scale: f32| -> f64 {
        samples
            .iter()
            .map(|s| {
                let e = sigmoid(s.target.score / scale) - s.target.result;
                (e * e) as f64
            })
            .sum()
    };
    let (mut lo, mut hi) = (50f32, 5000f32);
    let ratio = (5f32.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(a) < error(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}
