//! The network in floating point, as the trainer sees it: the same shape as
//! `tuzdyk_search::eval::network` (inputs -> hidden clipped ReLU -> one
//! output per phase bucket), of a hidden size chosen at run time (one of
//! the engine's `HIDDEN_SIZES`), its forward and backward passes, its
//! widening, and its quantisation into the engine's integers.

use tuzdyk_rules::rng::SplitMix64;
use tuzdyk_search::eval::network::features::{BUCKETS, INPUTS};
use tuzdyk_search::eval::network::{MAX_HIDDEN, Network, OUTPUT_SCALE, Parts, QA, QB};

/// Hidden weights are kept within this, so that the engine's 16-bit sums
/// of about 20 rows (times `QA`) cannot overflow.
pub const HIDDEN_WEIGHT_LIMIT: f32 = 1.98;

/// Output weights are kept within this (times `QB`, an `i16`), at `hidden`
/// units: 125 at 256, and at more units proportionally less, so that the
/// engine's 32-bit dot product of `hidden` activations of at most `QA`
/// cannot overflow either (256 units of 32,000 just fit).
pub fn output_weight_limit(hidden: usize) -> f32 {
    32_000.0 / QB as f32 * (256.0 / hidden.max(256) as f32)
}

/// The parameters, each block a flat vector (what the optimiser updates).
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Hidden units: one of the engine's `HIDDEN_SIZES`.
    pub hidden_size: usize,
    /// `INPUTS` rows of `hidden_size`.
    pub hidden: Vec<f32>,
    pub hidden_bias: Vec<f32>,
    /// `BUCKETS` rows of `hidden_size`.
    pub output: Vec<f32>,
    pub output_bias: Vec<f32>,
}

/// What the backward pass needs of one forward pass.
pub struct Forward {
    /// The hidden layer's sums (before the activation), the first
    /// `hidden_size` of them: a fixed array rather than a vector, so that
    /// a pass allocates nothing.
    pub sums: [f32; MAX_HIDDEN],
    /// The output, in units of `OUTPUT_SCALE` centi-stones.
    pub output: f32,
}

impl Model {
    /// Small random weights of `hidden` units from `seed`: uniform in
    /// +-1/sqrt(fan-in), with about 20 inputs on at a time; zero biases.
    ///
    /// # Panics
    /// If `hidden` is more than `MAX_HIDDEN`.
    pub fn random(seed: u64, hidden: usize) -> Model {
        assert!(hidden <= MAX_HIDDEN, "{hidden} hidden units");
        let mut rng = SplitMix64::new(seed);
        let mut uniform = |limit: f32| (rng.unit() as f32 * 2.0 - 1.0) * limit;
        let hidden_limit = 1.0 / 20f32.sqrt();
        let output_limit = 1.0 / (hidden as f32).sqrt();
        Model {
            hidden_size: hidden,
            hidden: (0..INPUTS * hidden)
                .map(|_| uniform(hidden_limit))
                .collect(),
            hidden_bias: vec![0.0; hidden],
            output: (0..BUCKETS * hidden)
                .map(|_| uniform(output_limit))
                .collect(),
            output_bias: vec![0.0; BUCKETS],
        }
    }

    /// This model widened to `hidden` units, evaluating exactly as it does:
    /// its units keep their weights and come first; each new unit has the
    /// hidden weights [`Model::random`] draws for it from `seed`, a zero
    /// bias, and zero output weights, so that it adds nothing until
    /// training gives it a use (and training starts from this model's
    /// strength).
    ///
    /// # Panics
    /// If `hidden` is fewer units than this model's, or more than
    /// `MAX_HIDDEN`.
    pub fn widened(&self, hidden: usize, seed: u64) -> Model {
        let old = self.hidden_size;
        assert!(hidden >= old, "a model of {old} units narrowed to {hidden}");
        let mut wide = Model::random(seed, hidden);
        for (wide_row, row) in wide
            .hidden
            .chunks_exact_mut(hidden)
            .zip(self.hidden.chunks_exact(old))
        {
            wide_row[..old].copy_from_slice(row);
        }
        wide.hidden_bias[..old].copy_from_slice(&self.hidden_bias);
        wide.output.fill(0.0);
        for (wide_row, row) in wide
            .output
            .chunks_exact_mut(hidden)
            .zip(self.output.chunks_exact(old))
        {
            wide_row[..old].copy_from_slice(row);
        }
        wide.output_bias.copy_from_slice(&self.output_bias);
        wide
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
            hidden_size: parts.hidden_size,
            hidden: real(&parts.hidden, QA),
            hidden_bias: real(&parts.hidden_bias, QA),
            output: real(&parts.output, QB),
            output_bias: parts
                .output_bias
                .iter()
                .map(|&b| b as f32 / (QA * QB) as f32)
                .collect(),
        }
    }

    /// A model of zeros and `hidden` units, the shape of the gradient.
    pub fn zeros(hidden: usize) -> Model {
        Model {
            hidden_size: hidden,
            hidden: vec![0.0; INPUTS * hidden],
            hidden_bias: vec![0.0; hidden],
            output: vec![0.0; BUCKETS * hidden],
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
        let output_limit = output_weight_limit(self.hidden_size);
        for w in &mut self.output {
            *w = w.clamp(-output_limit, output_limit);
        }
    }

    /// The forward pass for the features `active` in phase `bucket`.
    pub fn forward(&self, active: &[u16], bucket: usize) -> Forward {
        let hidden = self.hidden_size;
        let mut sums = [0f32; MAX_HIDDEN];
        let used = &mut sums[..hidden];
        used.copy_from_slice(&self.hidden_bias);
        for &feature in active {
            let row = &self.hidden[feature as usize * hidden..][..hidden];
            for (s, w) in used.iter_mut().zip(row) {
                *s += w;
            }
        }
        let weights = &self.output[bucket * hidden..][..hidden];
        let mut output = self.output_bias[bucket];
        for (s, w) in used.iter().zip(weights) {
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
        let hidden = self.hidden_size;
        gradient.output_bias[bucket] += d_output;
        let weights = &self.output[bucket * hidden..][..hidden];
        let d_weights = &mut gradient.output[bucket * hidden..][..hidden];
        let mut d_sums = [0f32; MAX_HIDDEN];
        let d_sums = &mut d_sums[..hidden];
        for i in 0..hidden {
            let s = forward.sums[i];
            d_weights[i] += d_output * s.clamp(0.0, 1.0);
            // The clipped ReLU passes the gradient only inside 0..1.
            d_sums[i] = if s > 0.0 && s < 1.0 {
                d_output * weights[i]
            } else {
                0.0
            };
        }
        for (g, d) in gradient.hidden_bias.iter_mut().zip(d_sums.iter()) {
            *g += d;
        }
        for &feature in active {
            let row = &mut gradient.hidden[feature as usize * hidden..][..hidden];
            for (g, d) in row.iter_mut().zip(d_sums.iter()) {
                *g += d;
            }
        }
    }

    /// The engine's integer network: hidden weights and biases times `QA`,
    /// output weights times `QB`, output biases times `QA * QB`, rounded.
    pub fn quantise(&self) -> Network {
        let scale = |values: &[f32], by: i32| -> Vec<i16> {
            values
                .iter()
                .map(|&w| (w * by as f32).round() as i16)
                .collect()
        };
        Network::from_parts(Parts {
            hidden_size: self.hidden_size,
            hidden_bias: scale(&self.hidden_bias, QA),
            hidden: scale(&self.hidden, QA),
            output: scale(&self.output, QB),
            output_bias: std::array::from_fn(|b| {
                (self.output_bias[b] * (QA * QB) as f32).round() as i32
            }),
        })
    }
}
