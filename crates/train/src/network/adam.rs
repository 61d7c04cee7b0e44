//! Adam (Kingma and Ba), the usual optimiser for networks of this kind: a
//! step size per parameter from running averages of the gradient and its
//! square, so that rarely switched-on inputs (a count of 30 in hole 9)
//! learn as fast as common ones.

use super::model::Model;

/// The optimiser's state for one model.
pub struct Adam {
    first: Model,
    second: Model,
    steps: i32,
    pub beta1: f32,
    pub beta2: f32,
    pub epsilon: f32,
}

impl Adam {
    /// The state for a model of `hidden` units.
    pub fn new(hidden: usize) -> Adam {
        Adam {
            first: Model::zeros(hidden),
            second: Model::zeros(hidden),
            steps: 0,
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
        }
    }

    /// One step of size `rate` against `gradient`.
    pub fn step(&mut self, model: &mut Model, gradient: &Model, rate: f32) {
        self.steps += 1;
        let (beta1, beta2, epsilon) = (self.beta1, self.beta2, self.epsilon);
        let correction1 = 1.0 - beta1.powi(self.steps);
        let correction2 = 1.0 - beta2.powi(self.steps);
        let blocks = model.blocks_mut().into_iter().zip(gradient.blocks()).zip(
            self.first
                .blocks_mut()
                .into_iter()
                .zip(self.second.blocks_mut()),
        );
        for ((params, grads), (first, second)) in blocks {
            for i in 0..params.len() {
                let g = grads[i];
                first[i] = beta1 * first[i] + (1.0 - beta1) * g;
                second[i] = beta2 * second[i] + (1.0 - beta2) * g * g;
                let m = first[i] / correction1;
                let v = second[i] / correction2;
                params[i] -= rate * m / (v.sqrt() + epsilon);
            }
        }
    }
}
