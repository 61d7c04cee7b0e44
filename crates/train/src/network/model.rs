//! The network in floating point, as the trainer sees it: the same shape as
//! `tuzdyk_search::eval::network` (inputs -> hidden clipped ReLU -> one
//! output per phase bucket), its forward and backward passes, and its
//! quantisation into the engine's integers.

use tuzdyk_rules::rng::SplitMix64;
use tuzdyk_search::eval::network::features::{BUCKETS, INPUTS};
use tuzdyk_search::eval::network::{HIDDEN, Network, OUTPUT_SCALE, Parts, QA, QB};

/// Hidden weights are kept within this, so that the engine's 16-bit sums
/// of about 20 rows (times `QA`) cannot overflow.
pub const HIDDEN_WEIGHT_LIMIT: f32 = 1.98;
/// Output weights are kept within this (times `QB`, an `i16`).
pub const OUTPUT_WEIGHT_LIMIT: f32 = 32_000.0 / QB as f32;

/// The parameters, each block a flat vector (what the optimiser updates).
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// `INPUTS` rows of `HIDDEN`.
    pub hidden: Vec<f32>,
    pub hidden_bias: Vec<f32>,
    /// `BUCKETS` rows of `HIDDEN`.
    pub output: Vec<f32>,
    pub output_bias: Vec<f32>,
}

/// What the backward pass needs of one forward pass.
pub struct Forward {
    /// The hidden layer's sums (before the activation).
    pub sums: [f32; HIDDEN],
    /// The output, in units of `OUTPUT_SCALE` centi-stones.
    pub output: f32,
}

impl Model {
    /// Small random weights from `seed`: uniform in +-1/sqrt(fan-in), with
    /// about 20 inputs on at a time; zero biases.
    pub fn random(seed: u64) -> Model {
        let mut rng = SplitMix64::new(seed);
        let mut uniform = |limit: f32| (rng.unit() as f32 * 2.0 - 1.0) * limit;
        let hidden_limit = 1.0 / 20f32.sqrt();
        let output_limit = 1.0 / (HIDDEN as f32).sqrt();
        Model {
            hidden: (0..INPUTS * HIDDEN)
                .map(|_| uniform(hidden_limit))
                .collect(),
            hidden_bias: vec![0.0; HIDDEN],
            output: (0..BUCKETS * HIDDEN)
                .map(|_| uniform(output_limit))
                .collect(),
            output_bias: vec![0.0; BUCKETS],
        }
    }

    /// The float model of an engine network, each integer divided by the
    /// factor [`Model::quantise`] multiplies it by: training from it goes
    /// on from that network, and quantising it gives that network back.
    pub fn from_network(network: &Network) -> Model {
        let parts = network.to_parts();
        let real = |values: &[i16], by: i32| -> Vec<f32> {
            values.iter().map(|&v| v as f32 / by as f32).collect()
        };
        Model {
            hidden: parts.hidden.iter().flat_map(|row| real(row, QA)).collect(),
            hidden_bias: real(&parts.hidden_bias, QA),
            output: parts.output.iter().flat_map(|row| real(row, QB)).collect(),
            output_bias: parts
                .output_bias
                .iter()
                .map(|&b| b as f32 / (QA * QB) as f32)
                .collect(),
        }
    }

    /// A model of zeros, the shape of the gradient.
    pub fn zeros() -> Model {
        Model {
            hidden: vec![0.0; INPUTS * HIDDEN],
            hidden_bias: vec![0.0; HIDDEN],
            output: vec![0.0; BUCKETS * HIDDEN],
            output_bias: vec![0.0; BUCKETS],
        }
    }

    /// Every block, for element-wise work (the optimiser, sums).
    pub fn blocks_mut(&mut self) -> [&mut Vec<f32>; 4] {
        [
            &mut self.hidden,
            &mut self.hidden_bias,
            &mut self.output,
            &mut self.output_bias,
        ]
    }

    pub fn blocks(&self) -> [&Vec<f32>; 4] {
        [
            &self.hidden,
            &self.hidden_bias,
            &self.output,
            &self.output_bias,
        ]
    }

    /// Sets every value to zero, keeping the memory.
    pub fn clear(&mut self) {
        for block in self.blocks_mut() {
            block.fill(0.0);
        }
    }

    /// Adds `other` to this, element by element.
    pub fn add(&mut self, other: &Model) {
        for (mine, theirs) in self.blocks_mut().into_iter().zip(other.blocks()) {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
    }

    /// Keeps the weights within what the engine's integers hold.
    pub fn clip(&mut self) {
        for w in &mut self.hidden {
            *w = w.clamp(-HIDDEN_WEIGHT_LIMIT, HIDDEN_WEIGHT_LIMIT);
        }
        for w in &mut self.output {
            *w = w.clamp(-OUTPUT_WEIGHT_LIMIT, OUTPUT_WEIGHT_LIMIT);
        }
    }

    /// The forward pass for the features `active` in phase `bucket`.
    pub fn forward(&self, active: &[u16], bucket: usize) -> Forward {
        let mut sums = [0f32; HIDDEN];
        sums.copy_from_slice(&self.hidden_bias);
        for &feature in active {
            let row = &self.hidden[feature as usize * HIDDEN..][..HIDDEN];
            for (s, w) in sums.iter_mut().zip(row) {
                *s += w;
            }
        }
        let weights = &self.output[bucket * HIDDEN..][..HIDDEN];
        let mut output = self.output_bias[bucket];
        for (s, w) in sums.iter().zip(weights) {
            output += s.clamp(0.0, 1.0) * w;
        }
        Forward { sums, output }
    }

    /// The evaluation in centi-stones, as the float network gives it.
    pub fn evaluate(&self, active: &[u16], bucket: usize) -> f32 {
        self.forward(active, bucket).output * OUTPUT_SCALE as f32
    }

    /// Adds to `gradient` the gradient of a loss whose derivative with
    /// respect to the output is `d_output`, at the pass `forward`.
    pub fn backward(
        &self,
        active: &[u16],
        bucket: usize,
        forward: &Forward,
        d_output: f32,
        gradient: &mut Model,
    ) {
        gradient.output_bias[bucket] += d_output;
        let weights = &self.output[bucket * HIDDEN..][..HIDDEN];
        let d_weights = &mut gradient.output[bucket * HIDDEN..][..HIDDEN];
        let mut d_sums = [0f32; HIDDEN];
        for i in 0..HIDDEN {
            let s = forward.sums[i];
            d_weights[i] += d_output * s.clamp(0.0, 1.0);
            // The clipped ReLU passes the gradient only inside 0..1.
            d_sums[i] = if s > 0.0 && s < 1.0 {
                d_output * weights[i]
            } else {
                0.0
            };
        }
        for (g, d) in gradient.hidden_bias.iter_mut().zip(&d_sums) {
            *g += d;
        }
        for &feature in active {
            let row = &mut gradient.hidden[feature as usize * HIDDEN..][..HIDDEN];
            for (g, d) in row.iter_mut().zip(&d_sums) {
                *g += d;
            }
        }
    }

    /// The engine's integer network: hidden weights and biases times `QA`,
    /// output weights times `QB`, output biases times `QA * QB`, rounded.
    pub fn quantise(&self) -> Network {
        let scale = |w: f32, by: i32| (w * by as f32).round() as i16;
        let row = |values: &[f32], by: i32| -> [i16; HIDDEN] {
            std::array::from_fn(|i| scale(values[i], by))
        };
        Network::from_parts(Parts {
            hidden_bias: row(&self.hidden_bias, QA),
            hidden: self
                .hidden
                .chunks_exact(HIDDEN)
                .map(|r| row(r, QA))
                .collect(),
            output: std::array::from_fn(|b| row(&self.output[b * HIDDEN..][..HIDDEN], QB)),
            output_bias: std::array::from_fn(|b| {
                (self.output_bias[b] * (QA * QB) as f32).round() as i32
            }),
        })
    }
}
