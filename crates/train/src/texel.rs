//! Texel tuning: fit the evaluation weights so that a logistic function of
//! the evaluation predicts game results.
//!
//! The evaluation is linear in its weights (each feature times a middlegame
//! and an endgame weight blended by phase), so the mean squared error of
//! `sigmoid(k * eval)` against the results has an exact gradient; Adam
//! follows it. The kazan weight stays at 100 so that scores remain in
//! centi-stones; `k` is fitted first with the starting weights.

use rayon::prelude::*;

use tuzdyk_search::eval::classic::{
    self as eval, FEATURE_NAMES, FEATURES, PHASE_SCALE, Weights, feature,
};

use crate::selfplay::Sample;

/// Parameters: middlegame weights then endgame weights.
const PARAMS: usize = 2 * FEATURES;

/// The result of a fit.
#[derive(Clone, Debug)]
pub struct Fit {
    pub weights: Weights,
    pub k: f64,
    pub loss_before: f64,
    pub loss_after: f64,
}

struct Row {
    /// Each parameter's multiplier: feature times its phase share.
    x: [f32; PARAMS],
    target: f32,
}

fn rows(samples: &[Sample]) -> Vec<Row> {
    samples
        .par_iter()
        .map(|sample| {
            let f = eval::features(&sample.position);
            let phase = eval::phase(&sample.position) as f32 / PHASE_SCALE as f32;
            let mut x = [0f32; PARAMS];
            for i in 0..FEATURES {
                x[i] = f[i] as f32 * phase;
                x[FEATURES + i] = f[i] as f32 * (1.0 - phase);
            }
            Row {
                x,
                target: sample.score_for_side_to_move(),
            }
        })
        .collect()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn score(row: &Row, w: &[f64; PARAMS]) -> f64 {
    row.x.iter().zip(w).map(|(x, w)| *x as f64 * w).sum()
}

/// Rows per parallel chunk. Sums are taken chunk by chunk in order, so the
/// result does not depend on the number of threads.
const CHUNK: usize = 4096;

fn loss(rows: &[Row], w: &[f64; PARAMS], k: f64) -> f64 {
    let partial: Vec<f64> = rows
        .par_chunks(CHUNK)
        .map(|chunk| {
            chunk
                .iter()
                .map(|row| {
                    let e = sigmoid(k * score(row, w)) - row.target as f64;
                    e * e
                })
                .sum()
        })
        .collect();
    partial.iter().sum::<f64>() / rows.len().max(1) as f64
}

/// The `k` that best fits the given weights (golden-section search).
fn fit_k(rows: &[Row], w: &[f64; PARAMS]) -> f64 {
    let (mut lo, mut hi) = (1e-5f64, 0.05f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if loss(rows, w, a) < loss(rows, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

fn gradient(rows: &[Row], w: &[f64; PARAMS], k: f64) -> [f64; PARAMS] {
    let partial: Vec<[f64; PARAMS]> = rows
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut g = [0f64; PARAMS];
            for row in chunk {
                let p = sigmoid(k * score(row, w));
                let common = 2.0 * (p - row.target as f64) * p * (1.0 - p) * k;
                for (gi, xi) in g.iter_mut().zip(&row.x) {
                    *gi += common * *xi as f64;
                }
            }
            g
        })
        .collect();
    let mut sum = [0f64; PARAMS];
    for g in &partial {
        for (si, gi) in sum.iter_mut().zip(g) {
            *si += gi;
        }
    }
    let n = rows.len().max(1) as f64;
    sum.map(|g| g / n)
}

/// Fits the weights to the samples, starting from the current ones.
/// `progress` is called with the step and the loss.
///
/// # Errors
/// `progress`'s error, which ends the fit there (its output is gone).
pub fn fit<E>(
    samples: &[Sample],
    iterations: usize,
    mut progress: impl FnMut(usize, f64) -> Result<(), E>,
) -> Result<Fit, E> {
    let rows = rows(samples);
    let start = Weights::DEFAULT;
    let mut w = [0f64; PARAMS];
    for i in 0..FEATURES {
        w[i] = start.middlegame[i] as f64;
        w[FEATURES + i] = start.endgame[i] as f64;
    }
    let k = fit_k(&rows, &w);
    let loss_before = loss(&rows, &w, k);
    // Adam, in centi-stone units.
    let (beta1, beta2, rate, epsilon) = (0.9, 0.999, 2.0, 1e-12);
    let mut m = [0f64; PARAMS];
    let mut v = [0f64; PARAMS];
    let fixed = [feature::KAZAN, FEATURES + feature::KAZAN];
    for step in 1..=iterations {
        let g = gradient(&rows, &w, k);
        for i in 0..PARAMS {
            if fixed.contains(&i) {
                continue;
            }
            m[i] = beta1 * m[i] + (1.0 - beta1) * g[i];
            v[i] = beta2 * v[i] + (1.0 - beta2) * g[i] * g[i];
            let m_hat = m[i] / (1.0 - beta1.powi(step as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(step as i32));
            w[i] -= rate * m_hat / (v_hat.sqrt() + epsilon);
        }
        if step % 100 == 0 || step == iterations {
            progress(step, loss(&rows, &w, k))?;
        }
    }
    let loss_after = loss(&rows, &w, k);
    let mut weights = start;
    for i in 0..FEATURES {
        weights.middlegame[i] = w[i].round() as i32;
        weights.endgame[i] = w[FEATURES + i].round() as i32;
    }
    Ok(Fit {
        weights,
        k,
        loss_before,
        loss_after,
    })
}

/// The weights as the source of the weights file; `made_by` is the command
/// line that made them, for its header.
pub fn weights_source(weights: &Weights, made_by: &str) -> String {
    let table = |values: &[i32; FEATURES]| -> String {
        FEATURE_NAMES
            .iter()
            .zip(values)
            .map(|(name, value)| format!("    {value:>6}, // {name}\n"))
            .collect()
    };
    format!(
        "//! The evaluation weights, fitted by Texel tuning. Generated by\n\
         //! `{made_by}`;\n\
         //! do not edit by hand (run the tuner again).\n\
         \n\
         use super::{{FEATURES, Weights}};\n\
         \n\
         pub const DEFAULT: Weights = Weights {{\n    middlegame: MIDDLEGAME,\n    endgame: ENDGAME,\n}};\n\
         \n\
         #[rustfmt::skip]\n\
         const MIDDLEGAME: [i32; FEATURES] = [\n{}];\n\
         \n\
         #[rustfmt::skip]\n\
         const ENDGAME: [i32; FEATURES] = [\n{}];\n",
        table(&weights.middlegame),
        table(&weights.endgame)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_lowers_the_loss_and_keeps_the_kazan_weight() {
        let samples = crate::selfplay::generate(6, 200, 11);
        let Ok(fit) = fit(&samples, 200, |_, _| Ok::<(), std::convert::Infallible>(()));
        assert!(fit.loss_after <= fit.loss_before + 1e-9, "{fit:?}");
        assert_eq!(fit.weights.middlegame[feature::KAZAN], 100);
        assert_eq!(fit.weights.endgame[feature::KAZAN], 100);
        assert!(fit.k > 0.0);
    }

    #[test]
    fn certain_wins_make_the_logistic_steep() {
        // Every sample: the side to move is 10 stones up and wins, so the
        // best k is as steep as the search allows.
        let pos = tuzdyk_notation::tfen::parse(
            "9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 S 1",
        )
        .unwrap();
        let samples = vec![
            Sample {
                position: pos,
                white_score: 1.0,
            };
            20
        ];
        let rows = rows(&samples);
        let mut w = [0f64; PARAMS];
        w[feature::KAZAN] = 100.0;
        w[FEATURES + feature::KAZAN] = 100.0;
        assert!(fit_k(&rows, &w) > 0.01);
    }
}
