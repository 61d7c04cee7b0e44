//! What the network learns to predict: the expected result of the game for
//! the side to move, as a blend of the game's real result and the search's
//! score, both as win probabilities through one logistic curve.
//!
//! `target = lambda * result + (1 - lambda) * sigmoid(score / scale)`, and
//! the loss is the squared difference between `sigmoid(evaluation / scale)`
//! and that target. The result is what happened; the score is what a
//! search of thousands of nodes thought, which is less noisy move to move
//! but only as good as the engine that searched.

/// A position's target: its search score and its game's result, both from
/// the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    /// Centi-stones.
    pub score: f32,
    /// 1 for a win, 0.5 for a draw, 0 for a loss.
    pub result: f32,
}

/// The blend and the curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Loss {
    /// The weight of the game's result (the rest is the search score's).
    pub lambda: f32,
    /// Centi-stones per unit of the logistic curve's argument.
    pub scale: f32,
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Loss {
    /// The win probability the target says.
    pub fn expected(&self, target: Target) -> f32 {
        self.lambda * target.result + (1.0 - self.lambda) * sigmoid(target.score / self.scale)
    }

    /// The loss of `evaluation` (centi-stones) against `target`, and its
    /// derivative with respect to the evaluation.
    pub fn of(&self, evaluation: f32, target: Target) -> (f32, f32) {
        let predicted = sigmoid(evaluation / self.scale);
        let error = predicted - self.expected(target);
        let derivative = 2.0 * error * predicted * (1.0 - predicted) / self.scale;
        (error * error, derivative)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_derivative_matches_a_finite_difference() {
        let loss = Loss {
            lambda: 0.3,
            scale: 400.0,
        };
        let target = Target {
            score: 150.0,
            result: 1.0,
        };
        for evaluation in [-900.0f32, -50.0, 0.0, 120.0, 700.0] {
            let (_, analytic) = loss.of(evaluation, target);
            let h = 0.5;
            let numeric =
                (loss.of(evaluation + h, target).0 - loss.of(evaluation - h, target).0) / (2.0 * h);
            assert!(
                (analytic - numeric).abs() < 1e-6,
                "{evaluation}: {analytic} {numeric}"
            );
        }
        assert_eq!(
            loss.of(
                1e9,
                Target {
                    score: 1e9,
                    result: 1.0
                }
            )
            .0,
            0.0
        );
    }
}
